//! Board shape: rows, columns, and the masks that let a bit set move one step in each direction.

use super::bits::Bits;

/// The smallest number of rows or columns.
pub const MIN_SIDE: usize = 3;
/// The largest number of rows or columns (columns are lettered `A`..`Z`).
pub const MAX_SIDE: usize = 26;

/// A cell by 0-based row (from the top) and column (from the left). It is read and printed in
/// standard notation (`f5`) by `crate::notation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
    pub const fn new(row: u8, col: u8) -> Self {
        Square { row, col }
    }
}

/// The eight directions as pairs of opposites, in the numbering [`Geometry::shift`] uses:
/// east-west, south-north, south-east-north-west, south-west-north-east.
pub const AXES: [(usize, usize); 4] = [(0, 1), (2, 3), (4, 7), (5, 6)];

/// One of the eight directions a line of discs can run in.
#[derive(Clone, Copy, Debug)]
struct Step<B> {
    /// Towards higher indices (down or right) or lower ones.
    up: bool,
    amount: u32,
    /// Cells a step may land on: the board, less the edge column a step would wrap onto.
    land: B,
}

/// The shape of a board and the per-direction masks derived from it.
#[derive(Clone, Debug)]
pub struct Geometry<B> {
    rows: usize,
    cols: usize,
    cells: B,
    steps: [Step<B>; 8],
    /// The longest run of discs that can lie between two others.
    max_run: usize,
}

/// Why a board shape was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("a board needs {MIN_SIDE} to {MAX_SIDE} rows and columns, not {rows}x{cols}")]
    OutOfRange { rows: usize, cols: usize },
    #[error("a {rows}x{cols} board does not fit in {capacity} bits")]
    TooBig {
        rows: usize,
        cols: usize,
        capacity: usize,
    },
}

impl<B: Bits> Geometry<B> {
    pub fn new(rows: usize, cols: usize) -> Result<Self, ShapeError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&rows) || !(MIN_SIDE..=MAX_SIDE).contains(&cols) {
            return Err(ShapeError::OutOfRange { rows, cols });
        }
        if rows * cols > B::CAPACITY {
            return Err(ShapeError::TooBig {
                rows,
                cols,
                capacity: B::CAPACITY,
            });
        }
        let mut cells = B::ZERO;
        let mut first_col = B::ZERO;
        let mut last_col = B::ZERO;
        for r in 0..rows {
            for c in 0..cols {
                cells |= B::bit(r * cols + c);
            }
            first_col |= B::bit(r * cols);
            last_col |= B::bit(r * cols + cols - 1);
        }
        let to_right = cells & !first_col;
        let to_left = cells & !last_col;
        let c = cols as u32;
        let step = |up, amount, land| Step { up, amount, land };
        let steps = [
            step(true, 1, to_right),      // east
            step(false, 1, to_left),      // west
            step(true, c, cells),         // south
            step(false, c, cells),        // north
            step(true, c + 1, to_right),  // south-east
            step(true, c - 1, to_left),   // south-west
            step(false, c - 1, to_right), // north-east
            step(false, c + 1, to_left),  // north-west
        ];
        Ok(Geometry {
            rows,
            cols,
            cells,
            steps,
            max_run: rows.max(cols) - 2,
        })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Every cell of the board.
    pub fn cells(&self) -> B {
        self.cells
    }
    pub fn cell_count(&self) -> usize {
        self.rows * self.cols
    }

    /// The bit index of a square, if it is on the board.
    pub fn index(&self, sq: Square) -> Option<usize> {
        let (r, c) = (sq.row as usize, sq.col as usize);
        (r < self.rows && c < self.cols).then_some(r * self.cols + c)
    }

    pub fn square(&self, index: usize) -> Square {
        Square::new((index / self.cols) as u8, (index % self.cols) as u8)
    }

    /// Every cell of `set` moved one step in direction `dir` (see [`AXES`]); cells that would
    /// leave the board are dropped.
    #[inline(always)]
    pub fn shift(&self, dir: usize, set: B) -> B {
        let s = &self.steps[dir];
        let moved = if s.up {
            set.shift_up(s.amount)
        } else {
            set.shift_down(s.amount)
        };
        moved & s.land
    }

    /// The cells next to any cell of `set`, in all eight directions.
    #[inline]
    pub fn neighbours(&self, set: B) -> B {
        let mut out = B::ZERO;
        for dir in 0..8 {
            out |= self.shift(dir, set);
        }
        out
    }

    /// Empty cells from which a straight line of `theirs` discs, ended by one of `mine`, runs in
    /// some direction: the moves of the normal game.
    #[inline]
    pub fn flanking_moves(&self, mine: B, theirs: B) -> B {
        let empty = self.cells & !(mine | theirs);
        let mut moves = B::ZERO;
        for dir in 0..8 {
            let run = self.run(dir, mine, theirs);
            moves |= self.shift(dir, run);
        }
        moves & empty
    }

    /// The discs of `theirs` that a disc placed on `from` flanks against `mine`.
    #[inline]
    pub fn flanked(&self, from: B, mine: B, theirs: B) -> B {
        let mut flips = B::ZERO;
        for dir in 0..8 {
            let run = self.run(dir, from, theirs);
            if !(self.shift(dir, run) & mine).is_empty() {
                flips |= run;
            }
        }
        flips
    }

    /// The cells of `theirs` reached from `start` by steps in `dir` over `theirs` only.
    #[inline(always)]
    fn run(&self, dir: usize, start: B, theirs: B) -> B {
        let mut run = self.shift(dir, start) & theirs;
        for _ in 1..self.max_run {
            let next = run | (self.shift(dir, run) & theirs);
            if next == run {
                break;
            }
            run = next;
        }
        run
    }
}
