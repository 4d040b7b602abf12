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

use crate::rules::{Bits, Position, Rules};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, AtomicUsize};

/// From this many empty cells on, a place-anywhere SIMPLE solve values the sets of empty
/// cells; below, the search takes well under a second.
pub(in crate::search) const SUBSETS_FROM: u32 = 22;

/// From this many empty cells on, a SIMPLE solve of the normal game under standard placement
/// values them to order its moves (2^18 sets, a few milliseconds).
pub(in crate::search) const ORDER_FROM: u32 = 18;

/// At most this many empty cells (4 GiB).
pub(super) const SUBSETS_UP_TO: u32 = 32;

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
pub(in crate::search) struct Subsets<B> {
    /// The root's empty cells: bit `i` of a set's index stands for `cells[i]`.
    cells: Vec<usize>,
    pub(super) within: B,
    /// On boards of one machine word, the index bits of each byte of a set of the root's
    /// empty cells, by byte (the move order reads an index at every move).
    by_byte: Vec<[u32; 256]>,
    /// `g` of each set, by index.
    pub(in crate::search) values: Vec<i8>,
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
    pub(in crate::search) fn new(
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

    /// Whether every set of the cells `empty` is valued here (they are among the root's).
    #[inline]
    pub(in crate::search) fn covers(&self, empty: B) -> bool {
        (empty & !self.within).is_empty()
    }

    /// The value of `pos` (whose empty cells are `empty`) for its side to move were every
    /// empty cell a move, if its empty cells are among the root's.
    #[inline]
    pub(in crate::search) fn value(
        &self,
        rules: &Rules<B>,
        pos: &Position<B>,
        empty: B,
    ) -> Option<i32> {
        if !self.covers(empty) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    /// The values of the sets of a place-anywhere SIMPLE position's empty cells are those the
    /// search finds (minimax, where few cells are empty), for the position and for positions
    /// below it whatever the colours of their discs, under both goals.
    #[test]
    fn subsets_value_place_anywhere_simple_positions_as_the_search_does() {
        let boards = [(4, 4, 8), (3, 6, 12), (4, 5, 14), (5, 5, 16), (3, 7, 17)];
        for (seed, (rows, cols, empties)) in (1u64..).zip(boards) {
            for misere in [false, true] {
                let variant = Variant {
                    place_anywhere: true,
                    misere,
                    ..SIMPLE
                };
                let rules = rules_for::<u64>(rows, cols, variant);
                let mut pos = random_position(&rules, seed, empties);
                let subsets = Subsets::new(&rules, rules.empty(&pos), 1, |_| false).unwrap();
                let mut e = engine::<u64>(rows, cols, variant, Config::to_depth(64));
                let mut rng = seed;
                loop {
                    let empty = rules.empty(&pos);
                    let want = if empty.count() <= 7 {
                        minimax(&rules, &pos, Scoring::Plain)
                    } else {
                        e.solve_exact(&pos, false).score
                    };
                    let what = format!("{variant:?} {rows}x{cols} {pos:?}");
                    assert_eq!(subsets.value(&rules, &pos, empty), Some(want), "{what}");
                    if empty.is_empty() {
                        break;
                    }
                    // Turn a disc over, then play a move, both at random.
                    let discs: Vec<usize> = (pos.black | pos.white).iter().collect();
                    let cell = discs[splitmix(&mut rng) as usize % discs.len()];
                    pos.black ^= u64::bit(cell);
                    pos.white ^= u64::bit(cell);
                    let moves: Vec<usize> = rules.moves(&pos).iter().collect();
                    pos = rules
                        .play_unchecked(&pos, moves[splitmix(&mut rng) as usize % moves.len()]);
                }
                // A cell that was not empty at the root is not among the sets.
                let mut outside = random_position(&rules, seed, empties);
                let disc = (outside.black | outside.white).lowest().unwrap();
                outside.black &= !u64::bit(disc);
                outside.white &= !u64::bit(disc);
                assert_eq!(subsets.value(&rules, &outside, rules.empty(&outside)), None);
            }
        }
    }

    /// The sets are valued alike on any number of threads, and counted once each.
    #[test]
    fn subsets_are_the_same_on_any_number_of_threads() {
        let rules = rules_for::<u64>(
            4,
            6,
            Variant {
                place_anywhere: true,
                ..SIMPLE
            },
        );
        let start = rules.start(Color::Black, Color::White);
        let empty = rules.empty(&start);
        let build = |threads| {
            let mut counted = 0;
            let subsets = Subsets::new(&rules, empty, threads, |sets| {
                counted += sets;
                false
            })
            .unwrap();
            assert_eq!(counted, 1 << 20, "{threads} threads");
            subsets
        };
        let one = build(1);
        for threads in [2, 5] {
            assert!(one.values == build(threads).values, "{threads} threads");
        }
        // Stopped at the first report, it keeps nothing.
        assert!(Subsets::new(&rules, empty, 2, |_| true).is_none());
    }

    /// A solve from enough empty cells answers from the sets of them, with the values, best
    /// moves and line of the search; and it searches where the table's memory would not hold them.
    #[test]
    fn place_anywhere_simple_solves_from_the_sets_of_empty_cells_as_the_search_does() {
        for misere in [false, true] {
            let variant = Variant {
                place_anywhere: true,
                misere,
                ..SIMPLE
            };
            let rules = rules_for::<u64>(4, 5, variant);
            let pos = random_position(&rules, 11, 15);
            assert_eq!(rules.empty(&pos).count(), 15);
            let solve = |from, hash_mb| {
                let mut e =
                    engine::<u64>(4, 5, variant, Config::to_depth(64).with_hash_mb(hash_mb));
                e.solver.subsets_from = from;
                let solved = e.solve_exact(&pos, true);
                let line = e.perfect_line(&pos, solved.score);
                let mut moves = solved.moves.clone();
                moves.sort();
                (solved.score, moves, line, solved.nodes)
            };
            let (score, moves, line, nodes) = solve(10, 1);
            let search = solve(SUBSETS_FROM, 1);
            assert!((1 << 15..(1 << 15) + 100).contains(&nodes), "{nodes}");
            assert!(search.3 > 1 << 15, "{}", search.3);
            assert_eq!(
                (score, &moves, &line),
                (search.0, &search.1, &search.2),
                "{variant:?}"
            );
            // 2^15 sets take 32 KB: with less memory than that, the solve searches.
            let tight = solve(10, 0);
            assert!(tight.3 > (1 << 15) + 100, "{}", tight.3);
            assert_eq!(
                (tight.0, tight.1, tight.2),
                (score, moves, line),
                "{variant:?}"
            );
        }
    }

    /// In the normal SIMPLE game under standard placement, the solver orders its moves by what
    /// each would be worth were every empty cell a move: the same values, in far fewer nodes over
    /// random 5x6 positions 18 cells from the end.
    #[test]
    fn simple_normal_moves_ordered_by_their_worth_under_place_anywhere_take_fewer_nodes() {
        let rules = rules_for::<u64>(5, 6, SIMPLE);
        let (mut with, mut without) = (0, 0);
        for seed in 1..=5 {
            let pos = random_position(&rules, seed, 18);
            let solve = |order_from| {
                let mut e = engine::<u64>(5, 6, SIMPLE, Config::to_depth(64));
                e.solver.order_from = order_from;
                let solved = e.solve_exact(&pos, true);
                let mut moves = solved.moves.clone();
                moves.sort();
                (solved.score, moves, solved.nodes)
            };
            let ordered = solve(ORDER_FROM);
            let plain = solve(u32::MAX);
            assert_eq!((ordered.0, &ordered.1), (plain.0, &plain.1), "{pos:?}");
            with += ordered.2;
            without += plain.2;
        }
        assert!(
            with * 5 < without * 4,
            "{with} nodes with the order, {without} without"
        );
    }
}
