//! Place-anywhere SIMPLE solved over the sets of empty cells.
//!
//! Under these rules no disc's colour bears on the rest of the game (see `Engine::place`):
//! every empty cell is a move, and a move turns every disc beside it to the mover. So the
//! value of a position for its side to move is twice its settled discs (those with no empty
//! cell beside them, which nothing can turn) less a number that depends on its empty cells
//! alone. A solve from `n` empty cells works that number out once for each of the `2^n` sets
//! of them, smallest first, in one byte each: far fewer steps than a search visits positions.

use super::Engine;
use crate::rules::{Bits, Position, RuleSet, Rules};
use std::sync::Arc;

/// From this many empty cells on, a place-anywhere SIMPLE solve values the sets of empty
/// cells; below, the search takes well under a second.
pub(super) const SUBSETS_FROM: u32 = 22;

/// At most this many empty cells (4 GiB).
const SUBSETS_UP_TO: u32 = 32;

/// Sets sized between two looks at the clock and the observer.
const CHUNK: usize = 1 << 16;

/// The number of every set of a root's empty cells: for a position whose empty cells are
/// `X` and whose side to move has `s` settled discs, the value is `2·sign·s − g(X)`.
///
/// On a full board that is the disc difference (`g(∅)` is `sign·cells`). Elsewhere, let
/// `u(X)` be the settled discs of both sides. A move on `c` turns every disc beside it to the
/// mover, so the discs it settles (`u(X∖c) − u(X)`, on and beside `c`) are all the mover's,
/// and the opponent keeps its own settled discs, `u(X) − s`. The move is worth
/// `−(2·sign·(u(X) − s) − g(X∖c))` to the mover, so `g(X) = 2·sign·u(X) − max g(X∖c)` over
/// the cells `c` of `X`. `|g|` is at most the board's cells.
pub(super) struct Subsets<B> {
    /// The root's empty cells: bit `i` of a set's index stands for `cells[i]`.
    cells: Vec<usize>,
    within: B,
    /// `g` of each set, by index.
    values: Vec<i8>,
    /// 1 for the normal game, -1 under misère.
    sign: i32,
}

impl<B: Bits> Subsets<B> {
    /// Values every set of the cells of `empty` (at most [`SUBSETS_UP_TO`]) on a board of at
    /// most 127 cells under place-anywhere SIMPLE `rules`, calling `tick` with the number of
    /// sets valued every so often: `None` once it answers true.
    pub(super) fn new(
        rules: &Rules<B>,
        empty: B,
        mut tick: impl FnMut(u64) -> bool,
    ) -> Option<Self> {
        let g = &rules.geometry;
        let sign = if rules.variant.misere { -1 } else { 1 };
        let cells: Vec<usize> = empty.iter().collect();
        // The cells of each byte of an index, for each value of the byte.
        let bytes: Vec<[B; 256]> = cells
            .chunks(8)
            .map(|chunk| {
                std::array::from_fn(|byte| {
                    chunk
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| byte & 1 << j != 0)
                        .fold(B::ZERO, |set, (_, &cell)| set | B::bit(cell))
                })
            })
            .collect();
        let all = g.cells();
        let size = 1usize << cells.len();
        let mut values = vec![0i8; size];
        values[0] = (sign * g.cell_count() as i32) as i8;
        for start in (0..size).step_by(CHUNK) {
            let end = (start + CHUNK).min(size);
            for x in start.max(1)..end {
                let set = bytes.iter().enumerate().fold(B::ZERO, |set, (k, cells)| {
                    set | cells[(x >> (8 * k)) & 0xFF]
                });
                let settled = (all & !set & !g.neighbours(set)).count() as i32;
                let mut best = i32::MIN;
                let mut rest = x;
                while rest != 0 {
                    let low = rest & rest.wrapping_neg();
                    best = best.max(i32::from(values[x ^ low]));
                    rest ^= low;
                }
                values[x] = (2 * sign * settled - best) as i8;
            }
            if tick((end - start) as u64) {
                return None;
            }
        }
        Some(Subsets {
            cells,
            within: empty,
            values,
            sign,
        })
    }

    /// The value of `pos` (whose empty cells are `empty`) for its side to move, if its empty
    /// cells are among the root's.
    #[inline]
    pub(super) fn value(&self, rules: &Rules<B>, pos: &Position<B>, empty: B) -> Option<i32> {
        if !(empty & !self.within).is_empty() {
            return None;
        }
        let index = self
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &cell)| empty.contains(cell))
            .fold(0, |index, (i, _)| index | 1 << i);
        let settled = (pos.mover() & !rules.geometry.neighbours(empty)).count() as i32;
        Some(2 * self.sign * settled - i32::from(self.values[index]))
    }
}

impl<B: Bits> Engine<B> {
    /// Before a solve of `pos`: values every set of its empty cells where the rules allow it
    /// and `pos` has [`SUBSETS_FROM`] (the engine's `subsets_from`) to [`SUBSETS_UP_TO`]
    /// empty cells, one byte a set, if
    /// the table's memory would hold them (`--hash-mb`) and the sets already valued do not
    /// cover `pos`. The sets count as nodes; a solve stopped meanwhile keeps none.
    pub(super) fn prepare_subsets(&mut self, pos: &Position<B>) {
        let variant = self.rules.variant;
        let empty = self.rules.empty(pos);
        if let Some(subsets) = &self.subsets {
            if (empty & !subsets.within).is_empty() {
                return;
            }
        }
        self.subsets = None;
        let n = empty.count();
        if !variant.place_anywhere
            || variant.rule_set != RuleSet::Simple
            || !(self.subsets_from..=SUBSETS_UP_TO).contains(&n)
            || self.rules.geometry.cell_count() > i8::MAX as usize
            || 1u64 << n > (self.config.hash_mb as u64) << 20
        {
            return;
        }
        // A copy, as the sets are counted on the engine as they go.
        let rules = self.rules.clone();
        self.progress.sets = 1 << n;
        self.subsets = Subsets::new(&rules, empty, |sets| self.count_nodes(sets)).map(Arc::new);
        self.progress.sets = 0;
    }
}
