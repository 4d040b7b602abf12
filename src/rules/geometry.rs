//! Board shape: rows, columns, and the masks that let a bit set move one step in each direction.

use super::bits::Bits;
use super::flips::{pair_steps, MAX_PAIR_STEPS_ANY_BOARD};
use super::shape::{Shape, ShapeError, Square};
use super::simd::{Lanes, PairLanes};
use std::fmt;
use std::sync::Arc;

/// The eight directions as pairs of opposites, in the numbering [`Geometry::shift`] uses:
/// east-west, south-north, south-east-north-west, south-west-north-east.
pub const AXES: [(usize, usize); 4] = [(0, 1), (2, 3), (4, 7), (5, 6)];

/// One of the eight directions a line of discs can run in.
#[derive(Clone, Copy, Debug)]
struct Step<B> {
    amount: u32,
    /// Cells a step may land on: the board, less the edge column a step would wrap onto.
    land: B,
}

/// The directions that step towards higher indices, and those towards lower ones.
const UP: [usize; 4] = [0, 2, 4, 5];
/// Whether each direction is one of `UP`, read by index so that a loop over the axes, whose
/// directions are known, shifts without a branch.
const IS_UP: [bool; 8] = {
    let mut is_up = [false; 8];
    let mut i = 0;
    while i < UP.len() {
        is_up[UP[i]] = true;
        i += 1;
    }
    is_up
};
const DOWN: [usize; 4] = [1, 3, 6, 7];

/// The shape of a board and the per-direction masks derived from it.
#[derive(Clone)]
pub struct Geometry<B> {
    shape: Shape,
    rows: usize,
    cols: usize,
    cells: B,
    steps: [Step<B>; 8],
    /// Steps of two cells that [`Geometry::flanking_moves`] needs along the longest line of
    /// discs between two others, after its first two cells.
    pair_steps: usize,
    /// The directions as SIMD lanes, for one-word boards on processors that have them.
    lanes: Option<Lanes>,
    /// The same for two-word boards.
    pair_lanes: Option<PairLanes>,
    /// For each cell and direction, the cells from it to the edge (not the cell itself).
    rays: Arc<[[B; 8]]>,
    /// For each cell, its neighbours.
    adjacent: Arc<[B]>,
}

impl<B> fmt::Debug for Geometry<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Geometry({}x{})", self.rows, self.cols)
    }
}

impl<B: Bits> Geometry<B> {
    /// The geometry of `shape`, if its board fits in `B`.
    pub fn new(shape: Shape) -> Result<Self, ShapeError> {
        let (rows, cols) = (shape.rows(), shape.cols());
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
        let step = |amount, land| Step { amount, land };
        // Directions in `UP` step towards higher indices, those in `DOWN` towards lower ones.
        let steps = [
            step(1, to_right),     // east
            step(1, to_left),      // west
            step(c, cells),        // south
            step(c, cells),        // north
            step(c + 1, to_right), // south-east
            step(c - 1, to_left),  // south-west
            step(c - 1, to_right), // north-east
            step(c + 1, to_left),  // north-west
        ];
        // The longest line of discs that can lie between two others.
        let longest = rows.max(cols) - 2;
        let mut geometry = Geometry {
            shape,
            rows,
            cols,
            cells,
            steps,
            pair_steps: pair_steps(longest),
            lanes: None,
            pair_lanes: None,
            rays: Arc::from(Vec::new()),
            adjacent: Arc::from(Vec::new()),
        };
        let rays: Vec<[B; 8]> = (0..rows * cols)
            .map(|i| {
                std::array::from_fn(|dir| {
                    let mut ray = B::ZERO;
                    let mut at = geometry.shift(dir, B::bit(i));
                    while !at.is_empty() {
                        ray |= at;
                        at = geometry.shift(dir, at);
                    }
                    ray
                })
            })
            .collect();
        let adjacent: Vec<B> = (0..rows * cols)
            .map(|i| geometry.neighbours(B::bit(i)))
            .collect();
        // The directions in the order of the SIMD lanes: those of `UP`, then those of `DOWN`.
        let order: [usize; 8] = std::array::from_fn(|i| if i < 4 { UP[i] } else { DOWN[i - 4] });
        let amounts = order.map(|dir| u64::from(steps[dir].amount));
        if B::CAPACITY == 64 {
            let word = |set: B| set.to_word().expect("one-word sets");
            geometry.lanes = Lanes::detect(
                amounts,
                order.map(|dir| word(steps[dir].land)),
                longest,
                || {
                    let lanes = |ray: &[B; 8]| order.map(|dir| word(ray[dir]));
                    rays.iter().map(lanes).collect()
                },
            );
        }
        if B::CAPACITY == 128 {
            let words = |set: B| set.to_word_pair().expect("two-word sets");
            geometry.pair_lanes =
                PairLanes::detect(amounts, order.map(|dir| words(steps[dir].land)), longest);
        }
        geometry.rays = rays.into();
        geometry.adjacent = adjacent.into();
        Ok(geometry)
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// The board's symmetries other than the identity, each as the cell every cell goes to:
    /// the two mirrors and the half turn, and on a square board the other four as well. The
    /// rules read the same in every direction, so a position and its image have one value.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let (rows, cols) = (self.rows, self.cols);
        let image = |k: usize, r: usize, c: usize| match k {
            0 => (rows - 1 - r, c),
            1 => (r, cols - 1 - c),
            2 => (rows - 1 - r, cols - 1 - c),
            3 => (c, r),
            4 => (cols - 1 - c, rows - 1 - r),
            5 => (c, rows - 1 - r),
            _ => (cols - 1 - c, r),
        };
        let count = if rows == cols { 7 } else { 3 };
        (0..count)
            .map(|k| {
                (0..rows * cols)
                    .map(|i| {
                        let (r, c) = image(k, i / cols, i % cols);
                        r * cols + c
                    })
                    .collect()
            })
            .collect()
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
        self.slide(dir, set, 1) & self.steps[dir].land
    }

    /// The cells next to any cell of `set`, in all eight directions.
    #[inline]
    pub fn neighbours(&self, set: B) -> B {
        if let (Some(lanes), Some(word)) = (&self.lanes, set.to_word()) {
            return B::from_word(lanes.neighbours(word));
        }
        let mut out = B::ZERO;
        for dir in 0..8 {
            out |= self.shift(dir, set);
        }
        out
    }

    /// The cells that, along each axis of [`AXES`], lie next to a cell of `set` on either
    /// side or in that axis's `free`: what holds a disc along every axis, given what holds it
    /// along each.
    #[inline(always)]
    pub fn beside_along_every_axis(&self, set: B, free: &[B; 4]) -> B {
        if let (Some(lanes), Some(word)) = (&self.lanes, set.to_word()) {
            let free = free.map(|free| free.to_word().unwrap_or_default());
            return B::from_word(lanes.beside_along_every_axis(word, &free));
        }
        let mut out = self.cells;
        for (&(a, b), &free) in AXES.iter().zip(free) {
            out &= free | self.shift(a, set) | self.shift(b, set);
        }
        out
    }

    /// The SIMD lanes, where this board and processor have them.
    pub(super) fn lanes(&self) -> Option<&Lanes> {
        self.lanes.as_ref()
    }

    /// The cells next to cell `index`.
    #[inline(always)]
    pub fn adjacent(&self, index: usize) -> B {
        self.adjacent[index]
    }

    /// [`Geometry::adjacent`] of every cell, by index.
    pub fn adjacency(&self) -> &[B] {
        &self.adjacent
    }

    /// Empty cells from which a straight line of `theirs` discs, ended by one of `mine`, runs in
    /// some direction: the moves of the normal game.
    #[inline]
    pub fn flanking_moves(&self, mine: B, theirs: B) -> B {
        if let (Some(lanes), Some(m), Some(t)) = (&self.lanes, mine.to_word(), theirs.to_word()) {
            return B::from_word(lanes.moves(m, t)) & self.cells & !(mine | theirs);
        }
        if let (Some(lanes), Some(m), Some(t)) =
            (&self.pair_lanes, mine.to_word_pair(), theirs.to_word_pair())
        {
            return B::from_word_pair(lanes.moves(m, t)) & !(mine | theirs);
        }
        // A fixed number of steps lets the compiler unroll the fills; more than a board needs
        // change nothing, so boards of about the same size share one.
        match self.pair_steps {
            0..=1 => self.fill_moves::<1>(mine, theirs),
            2 => self.fill_moves::<2>(mine, theirs),
            3 => self.fill_moves::<3>(mine, theirs),
            4 => self.fill_moves::<4>(mine, theirs),
            5..=6 => self.fill_moves::<6>(mine, theirs),
            7..=8 => self.fill_moves::<8>(mine, theirs),
            _ => self.fill_moves::<MAX_PAIR_STEPS_ANY_BOARD>(mine, theirs),
        }
    }

    /// [`Geometry::flanking_moves`] by fills: in each direction, lines of `theirs` grow from
    /// `mine`, one step, a second, then two at a time through the discs of `theirs` that
    /// follow another, `PAIR_STEPS` times at most. Every shift is by a step or two, which wide
    /// sets do fastest (see [`Bits::shift_up`]).
    #[inline(always)]
    fn fill_moves<const PAIR_STEPS: usize>(&self, mine: B, theirs: B) -> B {
        let mut moves = B::ZERO;
        for dir in 0..8 {
            let through = theirs & self.steps[dir].land;
            let mut line = through & self.slide(dir, mine, 1);
            line |= through & self.slide(dir, line, 1);
            let pairs = through & self.slide(dir, through, 1);
            for _ in 0..PAIR_STEPS {
                let longer = line | (pairs & self.slide(dir, line, 2));
                // A step costs every word of a wide set, and most lines are short, so there
                // the fill stops once its lines stop growing; on one word the test costs more
                // than the steps it saves.
                if B::CAPACITY > 64 && longer == line {
                    break;
                }
                line = longer;
            }
            moves |= self.shift(dir, line);
        }
        moves & !(mine | theirs)
    }

    /// `set` moved `steps` steps in direction `dir`, unmasked: cells may wrap round an edge.
    #[inline(always)]
    fn slide(&self, dir: usize, set: B, steps: u32) -> B {
        let amount = steps * self.steps[dir].amount;
        if IS_UP[dir] {
            set.shift_up(amount)
        } else {
            set.shift_down(amount)
        }
    }

    /// The discs of `theirs` that a disc placed on cell `index` flanks against `mine`.
    #[inline]
    pub fn flanked(&self, index: usize, mine: B, theirs: B) -> B {
        if let (Some(lanes), Some(m), Some(t)) = (&self.lanes, mine.to_word(), theirs.to_word()) {
            return B::from_word(lanes.flips(index, m, t));
        }
        let rays = &self.rays[index];
        let mut flips = B::ZERO;
        // Along each ray, the first cell that is not `theirs` must be `mine`.
        for dir in UP {
            let end = (rays[dir] & !theirs).lowest_bit();
            flips |= rays[dir] & end.below() & B::all_if(!(end & mine).is_empty());
        }
        for dir in DOWN {
            let end = (rays[dir] & !theirs).highest_bit();
            flips |= rays[dir] & end.above() & B::all_if(!(end & mine).is_empty());
        }
        flips
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::splitmix;
    use crate::rules::{Words, MIN_SIDE};

    /// The eight directions in the numbering of [`Geometry::shift`], by row and column.
    const STEP: [(i32, i32); 8] = [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];

    /// Moves and flips by walking the board cell by cell, for comparison.
    fn walked<B: Bits>(g: &Geometry<B>, mine: B, theirs: B, index: usize) -> B {
        let (rows, cols) = (g.rows() as i32, g.cols() as i32);
        let (r0, c0) = ((index / g.cols()) as i32, (index % g.cols()) as i32);
        let mut flips = B::ZERO;
        for (dr, dc) in STEP {
            let (mut r, mut c, mut line) = (r0 + dr, c0 + dc, B::ZERO);
            while (0..rows).contains(&r) && (0..cols).contains(&c) {
                let bit = B::bit((r * cols + c) as usize);
                if !(theirs & bit).is_empty() {
                    line |= bit;
                } else {
                    if !(mine & bit).is_empty() {
                        flips |= line;
                    }
                    break;
                }
                (r, c) = (r + dr, c + dc);
            }
        }
        flips
    }

    /// Random discs on `g`'s board, about one cell in `2 << sparse` taken for each side's
    /// candidates: dense sets give long lines, sparse ones the opening's few discs.
    fn random_discs<B: Bits>(g: &Geometry<B>, state: &mut u64, sparse: u32) -> (B, B) {
        let mut sets = [B::ZERO; 2];
        for set in &mut sets {
            for i in 0..g.cell_count() {
                if splitmix(state) >> (64 - 1 - sparse) == 0 {
                    *set |= B::bit(i);
                }
            }
        }
        let [a, b] = sets;
        (a & !b, b & !a)
    }

    /// The moves and flips of random positions on boards stored in `B`, against the walk.
    fn check_wide<B: Bits>(shapes: &[(usize, usize)]) {
        let mut state = 11;
        for &(rows, cols) in shapes {
            let g = Geometry::<B>::new(crate::rules::Shape::new(rows, cols).unwrap()).unwrap();
            let portable = Geometry {
                pair_lanes: None,
                ..g.clone()
            };
            for round in 0..40 {
                let (mine, theirs) = random_discs(&g, &mut state, round % 4);
                let empty = g.cells() & !(mine | theirs);
                let mut want = B::ZERO;
                for i in empty.iter() {
                    let flips = walked(&g, mine, theirs, i);
                    if !flips.is_empty() {
                        want |= B::bit(i);
                    }
                    assert_eq!(g.flanked(i, mine, theirs), flips, "{rows}x{cols} at {i}");
                }
                assert_eq!(g.flanking_moves(mine, theirs), want, "{rows}x{cols}");
                assert_eq!(portable.flanking_moves(mine, theirs), want, "{rows}x{cols}");
            }
            // The longest lines: a disc, then discs of the other side up to the cell before
            // the edge, which is a move, from every cell in every direction.
            let (r, c) = (rows as i32, cols as i32);
            for start in 0..rows * cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    for sign in [1, -1] {
                        let (dr, dc) = (dr * sign, dc * sign);
                        let at = |k: i32| {
                            let (row, col) = (start as i32 / c + k * dr, start as i32 % c + k * dc);
                            ((0..r).contains(&row) && (0..c).contains(&col))
                                .then(|| (row * c + col) as usize)
                        };
                        let last = (1..).take_while(|&k| at(k).is_some()).last().unwrap_or(0);
                        if last < 2 {
                            continue;
                        }
                        let line = (1..last).fold(B::ZERO, |set, k| set | B::bit(at(k).unwrap()));
                        let (mine, end) = (B::bit(start), at(last).unwrap());
                        assert!(g.flanking_moves(mine, line).contains(end), "{rows}x{cols}");
                        let moves = portable.flanking_moves(mine, line);
                        assert!(moves.contains(end), "{rows}x{cols}");
                        assert_eq!(g.flanked(end, mine, line), line, "{rows}x{cols}");
                    }
                }
            }
        }
    }

    #[test]
    fn moves_and_flips_agree_with_a_walk_on_wide_boards() {
        check_wide::<u128>(&[
            (9, 9),
            (10, 10),
            (11, 11),
            (3, 26),
            (4, 26),
            (5, 13),
            (12, 10),
        ]);
        check_wide::<Words<4>>(&[(12, 12), (16, 16), (6, 26), (9, 26)]);
        check_wide::<Words<11>>(&[(26, 26), (20, 26), (26, 18)]);
    }

    #[test]
    fn simd_and_portable_moves_and_flips_agree_with_a_walk_on_every_one_word_board() {
        let mut state = 7;
        for rows in MIN_SIDE..=21 {
            for cols in MIN_SIDE..=21 {
                if rows * cols > 64 {
                    continue;
                }
                let g =
                    Geometry::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap()).unwrap();
                let portable = Geometry {
                    lanes: None,
                    ..g.clone()
                };
                for _ in 0..300 {
                    let a = splitmix(&mut state) & g.cells();
                    let b = splitmix(&mut state) & g.cells();
                    let (mine, theirs) = (a & !b, b & !a);
                    let empty = g.cells() & !(mine | theirs);
                    let mut want = 0;
                    for i in empty.iter() {
                        let flips = walked(&g, mine, theirs, i);
                        if flips != 0 {
                            want |= 1 << i;
                        }
                        assert_eq!(g.flanked(i, mine, theirs), flips, "{rows}x{cols} at {i}");
                        assert_eq!(portable.flanked(i, mine, theirs), flips);
                    }
                    assert_eq!(g.flanking_moves(mine, theirs), want, "{rows}x{cols}");
                    assert_eq!(
                        g.neighbours(mine),
                        portable.neighbours(mine),
                        "{rows}x{cols}"
                    );
                    assert_eq!(portable.flanking_moves(mine, theirs), want, "{rows}x{cols}");
                    let free: [u64; 4] = std::array::from_fn(|_| splitmix(&mut state) & g.cells());
                    let want = beside_along_every_axis_walked(&g, mine, &free);
                    assert_eq!(g.beside_along_every_axis(mine, &free), want);
                    assert_eq!(portable.beside_along_every_axis(mine, &free), want);
                }
            }
        }
    }

    /// [`Geometry::beside_along_every_axis`] cell by cell, by rows and columns.
    fn beside_along_every_axis_walked(g: &Geometry<u64>, set: u64, free: &[u64; 4]) -> u64 {
        let in_set = |row: i32, col: i32, (dr, dc): (i32, i32)| {
            let (r, c) = (row + dr, col + dc);
            (0..g.rows() as i32).contains(&r)
                && (0..g.cols() as i32).contains(&c)
                && set & 1 << (r as usize * g.cols() + c as usize) != 0
        };
        let mut out = 0;
        for i in g.cells().iter() {
            let sq = g.square(i);
            let (row, col) = (i32::from(sq.row), i32::from(sq.col));
            let held = AXES.iter().zip(free).all(|(&(a, b), &free)| {
                free & 1 << i != 0 || in_set(row, col, STEP[a]) || in_set(row, col, STEP[b])
            });
            if held {
                out |= 1 << i;
            }
        }
        out
    }
}
