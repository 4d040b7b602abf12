//! Board patterns for a learned evaluation: groups of cells whose joint contents (empty, the
//! mover's, the opponent's) index a table of weights, one table per pattern and game phase.
//!
//! Patterns are drawn from the top-left corner and laid on the board by its symmetries (the
//! eight of a square, the four reflections of a rectangle), so every corner and edge reads the
//! same weights. The set follows the classic 8x8 set (Buro's Logistello): the edge with both X
//! cells, the 3x3 and 2x5 corner blocks, the three lines inward from the edge and the diagonals
//! of 4 to 8 cells; on other sizes the lines are cut to 8 cells from the corner and whatever
//! does not fit is left out, so every size has a set and can be trained.

use crate::rules::{Bits, Position};

/// Contents of a cell, as a base-3 digit of an index.
const EMPTY: usize = 0;
const MINE: usize = 1;
const THEIRS: usize = 2;

/// The longest pattern: 3^10 configurations.
pub const MAX_CELLS: usize = 10;

/// A pattern as drawn from the top-left corner, and where it lies on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub name: String,
    /// (row, column) from the top-left corner, in digit order: cell `k` is digit `3^k`.
    pub cells: Vec<(usize, usize)>,
    /// Each placement on the board: its cells (as indices) in digit order. Placements that
    /// cover the same cells are kept once.
    pub placements: Vec<Vec<usize>>,
    /// The board symmetry (by its place in the list of [`symmetries`]) of each placement.
    pub placed_by: Vec<usize>,
    /// Reorderings of the digits under which the pattern reads the same (the board's
    /// symmetries that map a placement onto its own cells), the identity first.
    pub symmetries: Vec<Vec<usize>>,
}

impl Pattern {
    /// How many configurations the pattern has.
    pub fn size(&self) -> usize {
        3usize.pow(self.cells.len() as u32)
    }

    /// The index of the same configuration read in the order `perm` (digit `k` of the result
    /// is digit `perm[k]` of `index`).
    pub fn permute(&self, index: usize, perm: &[usize]) -> usize {
        let digits: Vec<usize> = (0..self.cells.len())
            .map(|k| index / 3usize.pow(k as u32) % 3)
            .collect();
        perm.iter()
            .rev()
            .fold(0, |acc, &from| acc * 3 + digits[from])
    }

    /// The smallest index among the readings of `index` under the pattern's symmetries: one
    /// index for configurations that the board's symmetries make equal.
    pub fn canonical(&self, index: usize) -> usize {
        self.symmetries
            .iter()
            .map(|perm| self.permute(index, perm))
            .min()
            .unwrap_or(index)
    }
}

/// The patterns of a board of `rows` x `cols`, each with its placements.
pub fn patterns(rows: usize, cols: usize) -> Vec<Pattern> {
    let maps = symmetries(rows, cols);
    let mut out: Vec<Pattern> = Vec::new();
    let mut drawn = drawings(rows, cols);
    if rows != cols {
        // A rectangle has no symmetry that turns rows into columns: draw those separately.
        let turned: Vec<(String, Vec<(usize, usize)>)> = drawings(cols, rows)
            .into_iter()
            .map(|(name, cells)| {
                let t: Vec<(usize, usize)> = cells.into_iter().map(|(r, c)| (c, r)).collect();
                (format!("{name}, turned"), t)
            })
            .filter(|(_, t)| !drawn.iter().any(|(_, d)| same_set(d, t)))
            .collect();
        drawn.extend(turned);
    }
    for (name, mut cells) in drawn {
        // Digits in the order of the cells on the board, row by row: a placement read off a
        // turned copy of the board is then one bit extraction (see [`Fast8x8`]).
        cells.sort_by_key(|&(r, c)| (r, c));
        if cells.iter().any(|&(r, c)| r >= rows || c >= cols) || cells.len() > MAX_CELLS {
            continue;
        }
        let mut placements: Vec<Vec<usize>> = Vec::new();
        let mut placed_by = Vec::new();
        let mut symmetries: Vec<Vec<usize>> = Vec::new();
        for (s, map) in maps.iter().enumerate() {
            let placed: Vec<usize> = cells
                .iter()
                .map(|&(r, c)| {
                    let (r, c) = map(r, c);
                    r * cols + c
                })
                .collect();
            match placements.iter().find(|p| same_set(p, &placed)) {
                Some(first) if first == &placements[0] => {
                    // The same cells as the first placement in another order: a symmetry.
                    let perm: Vec<usize> = placed
                        .iter()
                        .map(|cell| first.iter().position(|c| c == cell).unwrap_or(0))
                        .collect();
                    if !symmetries.contains(&perm) {
                        symmetries.push(perm);
                    }
                }
                Some(_) => {}
                None => {
                    if placements.is_empty() {
                        symmetries.push((0..placed.len()).collect());
                    }
                    placements.push(placed);
                    placed_by.push(s);
                }
            }
        }
        if !out
            .iter()
            .any(|p| same_set(&p.placements[0], &placements[0]))
        {
            out.push(Pattern {
                name,
                cells,
                placements,
                placed_by,
                symmetries,
            });
        }
    }
    out
}

/// The classic patterns drawn from the top-left corner, before fitting them to the board.
fn drawings(rows: usize, cols: usize) -> Vec<(String, Vec<(usize, usize)>)> {
    let w = cols.min(8);
    let mut d: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    if rows >= 2 && w >= 4 {
        let mut edge: Vec<(usize, usize)> = (0..w).map(|c| (0, c)).collect();
        edge.extend([(1, 1), (1, w - 2)]);
        d.push(("edge and X cells".into(), edge));
    }
    let block = |h: usize, wd: usize| -> Vec<(usize, usize)> {
        (0..h).flat_map(|r| (0..wd).map(move |c| (r, c))).collect()
    };
    d.push(("corner 3x3".into(), block(3, 3)));
    d.push(("corner 2x5".into(), block(2, 5)));
    // Lines inward from the edge, up to the middle of the board.
    for k in 1..=3 {
        if 2 * k < rows {
            d.push((format!("line {}", k + 1), (0..w).map(|c| (k, c)).collect()));
        }
    }
    // Diagonals cutting the corner, from 8 cells down to 4.
    for n in (4..=rows.min(cols).min(8)).rev() {
        d.push((
            format!("diagonal {n}"),
            (0..n).map(|i| (i, n - 1 - i)).collect(),
        ));
    }
    d
}

type Map = Box<dyn Fn(usize, usize) -> (usize, usize)>;

/// The board's symmetries as maps of (row, column), the identity first.
fn symmetries(rows: usize, cols: usize) -> Vec<Map> {
    let (r1, c1) = (rows - 1, cols - 1);
    let mut maps: Vec<Map> = vec![
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (r, c1 - c)),
        Box::new(move |r, c| (r1 - r, c)),
        Box::new(move |r, c| (r1 - r, c1 - c)),
    ];
    if rows == cols {
        maps.extend([
            Box::new(|r, c| (c, r)) as Map,
            Box::new(move |r, c| (c, c1 - r)),
            Box::new(move |r, c| (r1 - c, r)),
            Box::new(move |r, c| (r1 - c, c1 - r)),
        ]);
    }
    maps
}

fn same_set<T: Ord + Clone>(a: &[T], b: &[T]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}

/// The patterns of one board, ready to read positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSet {
    pub patterns: Vec<Pattern>,
    pub cells: usize,
    /// The quick reading of a board of up to 64 cells, where the processor has BMI2.
    fast: Option<Quick>,
    /// The pattern of each placement, in the order of [`PatternSet::for_each_index`].
    pattern_of: Vec<u16>,
    /// Where each pattern's table starts in one table of them all, one after the other, and
    /// that table's length last.
    starts: Vec<u32>,
    /// For each cell, its digit's weight (`3^k`) in every placement, in that order (0 where
    /// the placement leaves it out), padded to a whole number of [`LANES`]: cell `c`'s are
    /// `digits[c * lanes..(c + 1) * lanes]`. Empty where the placements are too many to keep
    /// (see [`MAX_PLACEMENTS`]).
    digits: Vec<u32>,
    /// The placements rounded up to a whole number of [`LANES`].
    lanes: usize,
}

/// Every placement's index (see [`PatternSet::for_each_index`]), kept to read the positions
/// after each move with a few additions (see [`PatternSet::play`]).
#[derive(Clone, Debug)]
pub struct Indices {
    /// By placement, in the order of [`PatternSet::for_each_index`]; the set's placements
    /// fill the front. Each is kept as its entry in the table of all the patterns' tables
    /// (its pattern's start added), so that a sum reads each weight with one load rather than
    /// through its pattern's own table.
    values: [u32; MAX_PLACEMENTS],
}

impl Default for Indices {
    fn default() -> Self {
        Indices {
            values: [0; MAX_PLACEMENTS],
        }
    }
}

/// The most placements [`Indices`] holds: the 8x8 set has 46.
const MAX_PLACEMENTS: usize = 96;

/// How many placements' indices a move changes at once (see [`PatternSet::play`]): a vector
/// register's worth.
const LANES: usize = 8;
const _: () = assert!(MAX_PLACEMENTS.is_multiple_of(LANES));

impl PatternSet {
    pub fn new(rows: usize, cols: usize) -> PatternSet {
        let patterns = patterns(rows, cols);
        let fast = Quick::new(&patterns, rows, cols);
        let cells = rows * cols;
        let mut pattern_of = Vec::new();
        let mut by_cell = vec![Vec::new(); cells];
        for (k, pattern) in patterns.iter().enumerate() {
            for placement in &pattern.placements {
                for (digit, &cell) in placement.iter().enumerate() {
                    by_cell[cell].push((pattern_of.len() as u16, 3u16.pow(digit as u32)));
                }
                pattern_of.push(k as u16);
            }
        }
        let mut starts = vec![0];
        for pattern in &patterns {
            starts.push(starts[starts.len() - 1] + pattern.size() as u32);
        }
        let lanes = pattern_of.len().next_multiple_of(LANES);
        let mut digits = Vec::new();
        if lanes <= MAX_PLACEMENTS {
            digits = vec![0; cells * lanes];
            for (cell, touches) in by_cell.iter().enumerate() {
                for &(place, weight) in touches {
                    digits[cell * lanes + place as usize] = weight as u32;
                }
            }
        }
        PatternSet {
            patterns,
            cells,
            fast,
            pattern_of,
            starts,
            digits,
            lanes,
        }
    }

    /// Where pattern `k`'s table lies in one table of them all, one after the other.
    pub fn table_range(&self, k: usize) -> std::ops::Range<usize> {
        self.starts[k] as usize..self.starts[k + 1] as usize
    }

    /// The length of the one table that holds every pattern's table.
    pub fn tables_len(&self) -> usize {
        self.starts[self.patterns.len()] as usize
    }

    /// Where pattern `k`'s table starts in one table of them all.
    #[inline]
    pub fn start(&self, k: usize) -> usize {
        self.starts[k] as usize
    }

    /// Every placement's index for the side to move of `pos`, written into `indices`; false,
    /// and nothing written, where there are too many placements to keep (see
    /// [`MAX_PLACEMENTS`]).
    #[inline]
    pub fn read<B: Bits>(&self, pos: &Position<B>, indices: &mut Indices) -> bool {
        if self.pattern_of.len() > MAX_PLACEMENTS {
            return false;
        }
        let mut slots = indices.values.iter_mut();
        self.for_each_index(pos, |k, index| {
            if let Some(slot) = slots.next() {
                *slot = (self.start(k) + index) as u32;
            }
        });
        true
    }

    /// Turns `indices`, those of a position read for its opponent, into those of the position
    /// after the side to move places a disc at `cell` and turns `flips`, read for its side to
    /// move: the disc placed becomes an opponent's digit (2) where the cell was empty (0), and
    /// each disc turned one (2) where it was the mover's (1).
    #[inline]
    pub fn play<B: Bits>(&self, indices: &mut Indices, cell: usize, flips: B) {
        self.change_digits::<2, false>(indices, cell);
        for c in flips.iter() {
            self.change_digits::<1, false>(indices, c);
        }
    }

    /// The inverse of [`PatternSet::play`].
    #[inline]
    pub fn undo<B: Bits>(&self, indices: &mut Indices, cell: usize, flips: B) {
        self.change_digits::<2, true>(indices, cell);
        for c in flips.iter() {
            self.change_digits::<1, true>(indices, c);
        }
    }

    /// Adds `TIMES` (1 or 2) the digit of `cell` to every placement's index, or takes it away
    /// (`TAKE`): every placement at once, whole [`LANES`] at a time, rather than only those
    /// the cell lies in: a few more instructions, but no loop whose end is hard to predict.
    #[inline]
    fn change_digits<const TIMES: u32, const TAKE: bool>(
        &self,
        indices: &mut Indices,
        cell: usize,
    ) {
        let lanes = self.lanes;
        let digits = &self.digits[cell * lanes..(cell + 1) * lanes];
        let values = indices.values[..lanes].chunks_exact_mut(LANES);
        for (values, digits) in values.zip(digits.chunks_exact(LANES)) {
            for (value, &digit) in values.iter_mut().zip(digits) {
                // A shift: a product of vectors costs more where the processor lacks SSE4.1.
                let change = digit << (TIMES - 1);
                if TAKE {
                    *value -= change;
                } else {
                    *value += change;
                }
            }
        }
    }

    /// The sum of every placement's weight in `tables`, each pattern's table at its
    /// [`PatternSet::table_range`]: the sum [`PatternSet::for_each_index`] would give for the
    /// position `indices` were read from.
    #[inline]
    pub fn sum_kept(&self, indices: &Indices, tables: &[i16]) -> i32 {
        let kept = &indices.values[..self.pattern_of.len().min(MAX_PLACEMENTS)];
        kept.iter().map(|&at| tables[at as usize] as i32).sum()
    }

    /// Calls `f(pattern, index)` for every placement of `indices`, as
    /// [`PatternSet::for_each_index`] does for the position they were read from.
    #[cfg(test)]
    pub fn for_each_kept(&self, indices: &Indices, mut f: impl FnMut(usize, usize)) {
        for (&k, &at) in self.pattern_of.iter().zip(&indices.values) {
            f(k as usize, at as usize - self.start(k as usize));
        }
    }

    /// How many placements in all: the terms of one evaluation.
    pub fn placements(&self) -> usize {
        self.patterns.iter().map(|p| p.placements.len()).sum()
    }

    /// Calls `f(pattern, index)` for every placement of every pattern, the index read from
    /// the side to move's point of view.
    #[inline]
    pub fn for_each_index<B: Bits>(&self, pos: &Position<B>, f: impl FnMut(usize, usize)) {
        if let (Some(fast), Some(mine), Some(theirs)) =
            (&self.fast, pos.mover().to_word(), pos.opponent().to_word())
        {
            return fast.for_each_index(mine, theirs, f);
        }
        self.for_each_index_by_cells(pos, f)
    }

    /// [`PatternSet::for_each_index`] cell by cell, for every board.
    fn for_each_index_by_cells<B: Bits>(&self, pos: &Position<B>, mut f: impl FnMut(usize, usize)) {
        let mut state = [EMPTY as u8; 26 * 26];
        for cell in pos.mover().iter() {
            state[cell] = MINE as u8;
        }
        for cell in pos.opponent().iter() {
            state[cell] = THEIRS as u8;
        }
        for (p, pattern) in self.patterns.iter().enumerate() {
            for placement in &pattern.placements {
                let index = placement
                    .iter()
                    .rev()
                    .fold(0, |acc, &cell| acc * 3 + state[cell] as usize);
                f(p, index);
            }
        }
    }
}

/// The ways to read a board of up to 64 cells quickly.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Quick {
    /// 8x8, the main board, where the evaluation is most of the work: quicker than
    /// [`QuickRead`].
    Board8x8(Fast8x8),
    /// Every other board of up to 64 cells.
    Word(QuickRead),
}

impl Quick {
    /// The quick reading of a `rows` x `cols` board, where there is one: up to 64 cells, on a
    /// processor with BMI2.
    fn new(patterns: &[Pattern], rows: usize, cols: usize) -> Option<Quick> {
        #[cfg(target_arch = "x86_64")]
        if rows * cols <= 64 && std::arch::is_x86_feature_detected!("bmi2") {
            return Some(if rows == 8 && cols == 8 {
                Quick::Board8x8(Fast8x8::new(patterns))
            } else {
                Quick::Word(QuickRead::new(patterns))
            });
        }
        let _ = (patterns, rows, cols);
        None
    }

    #[inline]
    fn for_each_index(&self, mine: u64, theirs: u64, f: impl FnMut(usize, usize)) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Quick` is made only where `Quick::new` found BMI2.
        unsafe {
            match self {
                Quick::Board8x8(read) => read.for_each_index_bmi2(mine, theirs, f),
                Quick::Word(read) => read.for_each_index_bmi2(mine, theirs, f),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (mine, theirs, f);
            unreachable!("no BMI2 off x86-64")
        }
    }
}

/// The 8x8 board read a pattern at a time: the board is turned by each of its eight
/// symmetries, and a placement is then its pattern's cells in the turned board, taken in one
/// bit extraction (`pext`) per colour; a table turns the bits into base-3 digits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fast8x8 {
    /// For each placement: the pattern's cells in the top-left frame, the pattern, and the
    /// symmetry that lays it.
    reads: Vec<(u64, usize, usize)>,
    /// Bits to base 3: entry `b` has digit `k` set to bit `k` of `b`. A fixed length, so
    /// that a masked read needs no bounds check.
    ternary: Box<[u16; 1 << MAX_CELLS]>,
}

impl Fast8x8 {
    fn new(patterns: &[Pattern]) -> Fast8x8 {
        let mut reads = Vec::new();
        for (p, pattern) in patterns.iter().enumerate() {
            let mask = pattern
                .cells
                .iter()
                .fold(0u64, |m, &(r, c)| m | 1 << (8 * r + c));
            for &s in &pattern.placed_by {
                reads.push((mask, p, s));
            }
        }
        let mut ternary = Box::new([0; 1 << MAX_CELLS]);
        for (b, digits) in ternary.iter_mut().enumerate() {
            *digits = (0..MAX_CELLS)
                .filter(|k| b >> k & 1 == 1)
                .map(|k| 3u16.pow(k as u32))
                .sum();
        }
        Fast8x8 { reads, ternary }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn for_each_index_bmi2(&self, mine: u64, theirs: u64, mut f: impl FnMut(usize, usize)) {
        use std::arch::x86_64::_pext_u64;
        const LOW: usize = (1 << MAX_CELLS) - 1;
        let (m, t) = (turned(mine), turned(theirs));
        // The masks spare bounds checks: a mask has at most MAX_CELLS cells, an image is one
        // of eight.
        for &(mask, p, s) in &self.reads {
            let digits =
                |image: &[u64; 8]| self.ternary[_pext_u64(image[s & 7], mask) as usize & LOW];
            f(p, digits(&m) as usize + 2 * digits(&t) as usize);
        }
    }
}

/// The board under each symmetry of [`symmetries`], in its order: image `s` holds at cell `x`
/// what the board holds at `s(x)`, so a pattern drawn at the top-left reads placement `s`.
#[inline]
fn turned(b: u64) -> [u64; 8] {
    // Columns mirrored: the bits of each row (byte) reversed.
    let mirror = |x: u64| {
        let x = (x >> 1) & 0x5555_5555_5555_5555 | (x & 0x5555_5555_5555_5555) << 1;
        let x = (x >> 2) & 0x3333_3333_3333_3333 | (x & 0x3333_3333_3333_3333) << 2;
        (x >> 4) & 0x0F0F_0F0F_0F0F_0F0F | (x & 0x0F0F_0F0F_0F0F_0F0F) << 4
    };
    // Rows and columns exchanged.
    let transpose = |mut x: u64| {
        let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
        x ^ t ^ (t >> 7)
    };
    let t = transpose(b);
    [
        b,
        mirror(b),
        b.swap_bytes(),
        b.reverse_bits(),
        t,
        t.swap_bytes(),
        mirror(t),
        t.reverse_bits(),
    ]
}

/// A board of up to 64 cells read a placement at a time, where the processor has BMI2: one
/// bit extraction (`pext`) per colour takes the placement's cells in the order of the board's
/// bits, and two small tables of the placement's (its first [`HALF`] cells in that order, then
/// the others) turn those bits into its base-3 digits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct QuickRead {
    /// For each placement: its cells as a mask of the board's word, and its pattern.
    reads: Vec<(u64, usize)>,
    /// For each placement: the digits of each set of its first [`HALF`] cells, then of each
    /// set of the others.
    digits: Vec<[u16; 2 << HALF]>,
}

/// The cells of a placement's first table: half of [`MAX_CELLS`], rounded up.
const HALF: usize = MAX_CELLS.div_ceil(2);

impl QuickRead {
    fn new(patterns: &[Pattern]) -> QuickRead {
        let mut reads = Vec::new();
        let mut digits = Vec::new();
        for (p, pattern) in patterns.iter().enumerate() {
            for placement in &pattern.placements {
                // (cell, its digit's place value), in the order of the board's bits.
                let mut by_bit: Vec<(usize, u16)> = placement
                    .iter()
                    .enumerate()
                    .map(|(k, &cell)| (cell, 3u16.pow(k as u32)))
                    .collect();
                by_bit.sort_unstable();
                let mut table = [0u16; 2 << HALF];
                for (j, &(_, value)) in by_bit.iter().enumerate() {
                    let (half, bit) = (j / HALF, j % HALF);
                    for b in (0..1usize << HALF).filter(|b| b >> bit & 1 == 1) {
                        table[(half << HALF) + b] += value;
                    }
                }
                reads.push((by_bit.iter().fold(0u64, |m, &(cell, _)| m | 1 << cell), p));
                digits.push(table);
            }
        }
        QuickRead { reads, digits }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn for_each_index_bmi2(&self, mine: u64, theirs: u64, mut f: impl FnMut(usize, usize)) {
        use std::arch::x86_64::_pext_u64;
        const LOW: usize = (1 << HALF) - 1;
        for (&(mask, p), d) in self.reads.iter().zip(&self.digits) {
            let read =
                |bits: usize| d[bits & LOW] as usize + d[(1 << HALF) + (bits >> HALF)] as usize;
            let index =
                read(_pext_u64(mine, mask) as usize) + 2 * read(_pext_u64(theirs, mask) as usize);
            f(p, index);
        }
    }
}

/// The game phase of a position with `empties` empty cells, out of `phases`.
pub fn phase(empties: usize, cells: usize, phases: usize) -> usize {
    (empties * phases / (cells + 1)).min(phases - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::splitmix;
    use crate::rules::{Rules, Shape, Variant};

    #[test]
    fn the_classic_8x8_set() {
        let set = PatternSet::new(8, 8);
        let counts: Vec<(&str, usize, usize)> = set
            .patterns
            .iter()
            .map(|p| (p.name.as_str(), p.cells.len(), p.placements.len()))
            .collect();
        assert_eq!(
            counts,
            [
                ("edge and X cells", 10, 4),
                ("corner 3x3", 9, 4),
                ("corner 2x5", 10, 8),
                ("line 2", 8, 4),
                ("line 3", 8, 4),
                ("line 4", 8, 4),
                ("diagonal 8", 8, 2),
                ("diagonal 7", 7, 4),
                ("diagonal 6", 6, 4),
                ("diagonal 5", 5, 4),
                ("diagonal 4", 4, 4),
            ]
        );
        // The edge reads the same from either end; the 2x5 block has no symmetry.
        assert_eq!(set.patterns[0].symmetries.len(), 2);
        assert_eq!(set.patterns[2].symmetries.len(), 1);
        assert_eq!(set.placements(), 46);
    }

    #[test]
    fn every_size_has_patterns_that_fit() {
        for rows in 3..=26 {
            for cols in 3..=26 {
                let set = PatternSet::new(rows, cols);
                assert!(!set.patterns.is_empty(), "{rows}x{cols}");
                for p in &set.patterns {
                    assert!(p.cells.len() <= MAX_CELLS);
                    for placement in &p.placements {
                        assert!(placement.iter().all(|&c| c < rows * cols));
                    }
                }
            }
        }
        // A rectangle reads its columns with patterns of their own.
        let set = PatternSet::new(6, 8);
        assert!(set
            .patterns
            .iter()
            .any(|p| p.name == "edge and X cells, turned"));
    }

    /// A position of a random game with up to 60 empty cells.
    fn random_position(rules: &Rules<u64>, seed: &mut u64) -> Position<u64> {
        let empties = (splitmix(seed) % 61) as u32;
        crate::search::test_support::random_position(rules, splitmix(seed), empties)
    }

    #[test]
    fn the_quick_reading_is_the_cell_by_cell_one() {
        let mut seed = 11u64;
        for (rows, cols) in [(8, 8), (6, 6), (3, 3), (4, 9), (5, 7), (7, 9), (3, 21)] {
            let shape = Shape::new(rows, cols).unwrap();
            let rules: Rules<u64> = Rules::new(shape, Variant::default()).unwrap();
            let set = PatternSet::new(rows, cols);
            if set.fast.is_none() {
                eprintln!("no BMI2 here: the quick reading is not used, nothing to compare");
                return;
            }
            for _ in 0..100 {
                let pos = random_position(&rules, &mut seed);
                let (mut quick, mut slow) = (Vec::new(), Vec::new());
                set.for_each_index(&pos, |k, i| quick.push((k, i)));
                set.for_each_index_by_cells(&pos, |k, i| slow.push((k, i)));
                assert_eq!(quick, slow, "{rows}x{cols} {pos:?}");
            }
        }
    }

    #[test]
    fn indices_after_a_move_are_those_read_after_it_and_undo_back() {
        let mut seed = 17u64;
        for (rows, cols) in [(8, 8), (6, 6), (3, 3), (4, 9), (5, 7), (3, 21)] {
            let shape = Shape::new(rows, cols).unwrap();
            let rules: Rules<u64> = Rules::new(shape, Variant::default()).unwrap();
            let set = PatternSet::new(rows, cols);
            let listed = |indices: &Indices| {
                let mut v = Vec::new();
                set.for_each_kept(indices, |k, i| v.push((k, i)));
                v
            };
            for _ in 0..100 {
                let pos = random_position(&rules, &mut seed);
                let mut before = Indices::default();
                assert!(set.read(&rules.pass(&pos), &mut before));
                let mut indices = before.clone();
                for m in rules.moves(&pos).iter() {
                    let flips = rules.flips(&pos, m);
                    let after = rules.play_flips(&pos, m, flips);
                    let mut read = Vec::new();
                    set.for_each_index(&after, |k, i| read.push((k, i)));
                    set.play(&mut indices, m, flips);
                    assert_eq!(listed(&indices), read, "{rows}x{cols} {pos:?} move {m}");
                    set.undo(&mut indices, m, flips);
                    assert_eq!(
                        listed(&indices),
                        listed(&before),
                        "{rows}x{cols} {pos:?} undo {m}"
                    );
                }
            }
        }
    }

    #[test]
    fn symmetric_positions_read_the_same_canonical_indices() {
        let shape = Shape::new(8, 8).unwrap();
        let rules: Rules<u64> = Rules::new(shape, Variant::default()).unwrap();
        let set = PatternSet::new(8, 8);
        let mut seed = 5u64;
        for _ in 0..50 {
            let pos = random_position(&rules, &mut seed);
            // The position turned over its main diagonal.
            let turn = |b: u64| {
                (0..64)
                    .filter(|&i| b >> i & 1 == 1)
                    .fold(0u64, |t, i| t | 1 << ((i % 8) * 8 + i / 8))
            };
            let turned = Position {
                black: turn(pos.black),
                white: turn(pos.white),
                to_move: pos.to_move,
            };
            let read = |p: &Position<u64>| {
                let mut v = Vec::new();
                set.for_each_index(p, |k, i| v.push((k, set.patterns[k].canonical(i))));
                v.sort();
                v
            };
            assert_eq!(read(&pos), read(&turned));
        }
    }
}
