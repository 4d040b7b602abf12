//! Place-anywhere SIMPLE solved over the sets of empty cells.
//!
//! Under these rules no disc's colour bears on the rest of the game (see `Engine::place`):
//! every empty cell is a move, and a move turns every disc beside it to the mover. So the
//! value of a position for its side to move is twice its settled discs (those with no empty
//! cell beside them, which nothing can turn) less a number that depends on its empty cells
//! alone. A solve from `n` empty cells works that number out once for each of the `2^n` sets
//! of them, smallest first, in one byte each: far fewer steps than a search visits positions.
//!
//! Under standard placement the same numbers tell what a move would be worth were every empty
//! cell a move from then on: the solver of the normal game orders its moves by that.

use super::Engine;
use crate::rules::{Bits, Position, RuleSet, Rules};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, AtomicUsize};
use std::sync::Arc;

/// From this many empty cells on, a place-anywhere SIMPLE solve values the sets of empty
/// cells; below, the search takes well under a second.
pub(super) const SUBSETS_FROM: u32 = 22;

/// From this many empty cells on, a SIMPLE solve of the normal game under standard placement
/// values them to order its moves (2^18 sets, a few milliseconds).
pub(super) const ORDER_FROM: u32 = 18;

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
    /// On boards of one machine word, the index bits of each byte of a set of the root's
    /// empty cells, by byte (the move order reads an index at every move).
    by_byte: Vec<[u32; 256]>,
    /// `g` of each set, by index.
    pub(super) values: Vec<i8>,
    /// 1 for the normal game, -1 under misère.
    sign: i32,
}

impl<B: Bits> Subsets<B> {
    /// Values every set of the cells of `empty` (at most [`SUBSETS_UP_TO`]) on a board of at
    /// most 127 cells, as if every empty cell were a move under SIMPLE `rules` (their board
    /// and goal; the placement is not read), on `threads` threads, calling `tick`
    /// with the number of sets valued every so often: `None` once it answers true, or where
    /// the memory for them cannot be had.
    ///
    /// The sets go in blocks that share the index's top bits: a block needs the blocks whose
    /// top bits are its own less one, so the blocks with as many top bits set are valued
    /// together, one wave after another, each block from its smallest set up.
    pub(super) fn new(
        rules: &Rules<B>,
        empty: B,
        threads: usize,
        mut tick: impl FnMut(u64) -> bool,
    ) -> Option<Self> {
        let sign = if rules.variant.misere { -1 } else { 1 };
        let cells: Vec<usize> = empty.iter().collect();
        let n = cells.len();
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
        // Where the memory cannot be had, the caller searches instead.
        let mut values: Vec<AtomicI8> = Vec::new();
        values.try_reserve_exact(1 << n).ok()?;
        values.extend((0..1usize << n).map(|_| AtomicI8::new(0)));
        // The full board: the disc difference.
        values[0] = AtomicI8::new((sign * rules.geometry.cell_count() as i32) as i8);
        let block = Block {
            rules,
            bytes: &bytes,
            values: &values,
            sign,
        };
        // Top bits: at most 10 (1024 blocks), and blocks of at least 2^16 sets.
        let top = n.saturating_sub(16).min(10);
        let low = n - top;
        let (valued, stop) = (AtomicU64::new(0), AtomicBool::new(false));
        let mut ticked = 0;
        for wave in 0..=top {
            let blocks: Vec<usize> = (0..1usize << top)
                .filter(|b| b.count_ones() as usize == wave)
                .collect();
            let next = AtomicUsize::new(0);
            // `report` is told how many sets all threads have valued; true stops them.
            let work = |report: &mut dyn FnMut(u64) -> bool| {
                while let Some(&b) = blocks.get(next.fetch_add(1, Relaxed)) {
                    for start in (b << low..(b + 1) << low).step_by(CHUNK) {
                        if stop.load(Relaxed) {
                            return;
                        }
                        let end = (start + CHUNK).min((b + 1) << low);
                        block.value(start..end);
                        let len = (end - start) as u64;
                        if report(valued.fetch_add(len, Relaxed) + len) {
                            stop.store(true, Relaxed);
                        }
                    }
                }
            };
            std::thread::scope(|scope| {
                for _ in 1..threads.min(blocks.len()) {
                    scope.spawn(|| work(&mut |_| false));
                }
                // Only this thread reports to `tick`: what was valued since it last did.
                work(&mut |now| tick(now - std::mem::replace(&mut ticked, now)));
            });
            if stop.load(Relaxed) {
                return None;
            }
        }
        // The helpers' last sets.
        tick(valued.into_inner() - ticked);
        let by_byte = match empty.to_word() {
            Some(_) => (0..8)
                .map(|k| {
                    std::array::from_fn(|byte| {
                        cells
                            .iter()
                            .enumerate()
                            .filter(|&(_, &cell)| cell / 8 == k && byte & 1 << (cell % 8) != 0)
                            .fold(0, |bits, (i, _)| bits | 1 << i)
                    })
                })
                .collect(),
            None => Vec::new(),
        };
        Some(Subsets {
            cells,
            within: empty,
            by_byte,
            values: values.into_iter().map(AtomicI8::into_inner).collect(),
            sign,
        })
    }

    /// The value of `pos` (whose empty cells are `empty`) for its side to move were every
    /// empty cell a move, if its empty cells are among the root's.
    #[inline]
    pub(super) fn value(&self, rules: &Rules<B>, pos: &Position<B>, empty: B) -> Option<i32> {
        if !(empty & !self.within).is_empty() {
            return None;
        }
        let index = match empty.to_word() {
            Some(word) => self.by_byte.iter().enumerate().fold(0, |index, (k, bits)| {
                index | bits[(word >> (8 * k)) as usize & 0xFF] as usize
            }),
            None => self
                .cells
                .iter()
                .enumerate()
                .filter(|&(_, &cell)| empty.contains(cell))
                .fold(0, |index, (i, _)| index | 1 << i),
        };
        let settled = (pos.mover() & !rules.geometry.neighbours(empty)).count() as i32;
        Some(2 * self.sign * settled - i32::from(self.values[index]))
    }
}

/// What valuing a run of sets needs.
struct Block<'a, B> {
    rules: &'a Rules<B>,
    bytes: &'a [[B; 256]],
    values: &'a [AtomicI8],
    sign: i32,
}

impl<B: Bits> Block<'_, B> {
    /// Values the sets of `indices` but the empty one (valued first), whose subsets by one
    /// cell fewer are valued already, unless they come before them in `indices`.
    fn value(&self, indices: std::ops::Range<usize>) {
        let g = &self.rules.geometry;
        let all = g.cells();
        for x in indices.start.max(1)..indices.end {
            let set = self
                .bytes
                .iter()
                .enumerate()
                .fold(B::ZERO, |set, (k, cells)| {
                    set | cells[(x >> (8 * k)) & 0xFF]
                });
            let settled = (all & !set & !g.neighbours(set)).count() as i32;
            let mut best = i32::MIN;
            let mut rest = x;
            while rest != 0 {
                let low = rest & rest.wrapping_neg();
                best = best.max(i32::from(self.values[x ^ low].load(Relaxed)));
                rest ^= low;
            }
            self.values[x].store((2 * self.sign * settled - best) as i8, Relaxed);
        }
    }
}

impl<B: Bits> Engine<B> {
    /// Before a solve of `pos`: values every set of its empty cells, one byte a set, under
    /// SIMPLE rules where `pos` has up to [`SUBSETS_UP_TO`] empty cells and from
    /// [`SUBSETS_FROM`] (the engine's `subsets_from`) under place-anywhere, whose solve they
    /// answer, or from [`ORDER_FROM`] (`order_from`) in the normal game under standard
    /// placement, whose solve they order; if the table's memory would hold them (`--hash-mb`)
    /// and the sets already valued do not cover `pos`. The sets count as nodes; a solve
    /// stopped meanwhile keeps none, and one refused the memory goes on without them.
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
        let from = match (variant.place_anywhere, variant.misere) {
            (true, _) => self.subsets_from,
            (false, false) => self.order_from,
            (false, true) => return,
        };
        if variant.rule_set != RuleSet::Simple
            || !(from..=SUBSETS_UP_TO).contains(&n)
            || self.rules.geometry.cell_count() > i8::MAX as usize
            || 1u64 << n > (self.config.hash_mb as u64) << 20
        {
            return;
        }
        // A copy, as the sets are counted on the engine as they go.
        let rules = self.rules.clone();
        self.progress.sets = 1 << n;
        let threads = self.config.threads.max(1);
        self.subsets =
            Subsets::new(&rules, empty, threads, |sets| self.count_nodes(sets)).map(Arc::new);
        self.progress.sets = 0;
    }
}
