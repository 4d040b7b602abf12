//! The last few moves of the exact solver: plain alpha-beta over the moves (at the last four
//! empty cells, over the cells themselves), in parity order (larger nodes: sorted as the
//! rules' thresholds say), without a move list or the table, with one flips kernel chosen for the
//! whole subtree (see [`crate::rules::Flips`]).

use super::thresholds::{SortKey, SORTED_MAX};
use crate::rules::{BitIter, Bits, Flips, WithFlips, Work};
use crate::search::engine::Engine;
use crate::search::score::INFINITY;
use std::iter::Chain;

/// The keys of [`Shallow::sorted_moves`]: as many as a vector of them fills, at least
/// [`SORTED_MAX`]; the low bits of each hold its move's place in the list.
const KEYS: usize = 16;
const KEY_PLACE_BITS: u32 = 4;
const KEY_PLACE_MASK: u32 = (1 << KEY_PLACE_BITS) - 1;
const _: () = assert!(SORTED_MAX as usize <= KEYS && KEYS <= 1 << KEY_PLACE_BITS);

/// Beyond every final disc difference: "no move here" in [`Shallow::solve_empties`].
const NO_MOVE: i32 = -INFINITY;

/// One shallow solve: the engine it reads, the kernel, and the nodes it has visited (added
/// to the engine's count when it is done: a subtree this small is not worth stopping inside).
struct Shallow<'a, B, F> {
    engine: &'a Engine<B>,
    flips: F,
    nodes: u64,
    /// Read at every node, so kept at hand: each cell's quarter, the cells of each set of
    /// quarters, the board's cells, place-anywhere.
    quarter_of: &'a [u8],
    quarter_cells: &'a [B; 16],
    cells: i32,
    /// 1 for the normal game, -1 under misère: the sign of a disc difference's value.
    sign: i32,
    anywhere: bool,
    /// The quarters whose cells come first, from those holding an odd number of empty cells:
    /// XORed with this (0, or all four under misère).
    parity: usize,
    /// From this many empty cells on, a node sorts its moves (see [`Shallow::sorted_moves`]).
    sorted_from: u32,
    /// The board's corners, which count twice among the replies there.
    corners: B,
    /// Whether that sort is by the discs each move turns rather than by replies.
    by_flips: bool,
    /// From this many empty cells on, a node looks for a cut-off from stable discs.
    stability_from: u32,
}

/// A shallow solve waiting for its kernel.
struct Task<'a, B> {
    engine: &'a Engine<B>,
    mine: B,
    theirs: B,
    alpha: i32,
    beta: i32,
}

impl<B: Bits> WithFlips<B> for Task<'_, B> {
    type Output = (i32, u64);

    fn with<F: Flips<B>>(self, flips: F) -> (i32, u64) {
        let variant = self.engine.rules.variant;
        let thresholds = self.engine.thresholds();
        let sort = thresholds.sorted;
        let mut shallow = Shallow {
            engine: self.engine,
            flips,
            nodes: 0,
            quarter_of: &self.engine.quarter_of,
            quarter_cells: &self.engine.quarter_cells,
            cells: self.engine.rules.geometry.cell_count() as i32,
            sign: if variant.misere { -1 } else { 1 },
            anywhere: variant.place_anywhere,
            parity: self.engine.parity_flip(),
            sorted_from: sort.map_or(u32::MAX, |sort| sort.from),
            corners: self.engine.eval.corners(),
            by_flips: sort.is_some_and(|sort| sort.by == SortKey::Flips),
            stability_from: thresholds.shallow_stability.unwrap_or(u32::MAX),
        };
        // A node of four empty cells is solved inline, without looking for the cut-off.
        debug_assert!(shallow.stability_from > 4);
        let (mine, theirs) = (self.mine, self.theirs);
        let empty = self.engine.rules.geometry.cells() & !(mine | theirs);
        let odd = self.engine.odd_quarters(empty);
        let score = flips.run(Empties::<_, _, false> {
            shallow: &mut shallow,
            mine,
            theirs,
            empty,
            odd,
            moves: B::ZERO,
            alpha: self.alpha,
            beta: self.beta,
        });
        let score = if score == NO_MOVE {
            // Neither side can move.
            self.engine.final_score_of(mine, theirs)
        } else {
            score
        };
        (score, shallow.nodes)
    }
}

impl<B: Bits> Engine<B> {
    /// The exact value of a position near the end, for the side owning `mine`, within the
    /// window. A cell is a move exactly when it flips something, under both rule sets,
    /// unless any cell will do.
    pub(in crate::search) fn solve_shallow(
        &mut self,
        mine: B,
        theirs: B,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let task = Task {
            engine: self,
            mine,
            theirs,
            alpha,
            beta,
        };
        let (score, nodes) = self.rules.with_flips(task);
        self.count_nodes(nodes);
        score
    }

    /// The quarters (one bit each) that hold an odd number of the cells of `empty`.
    fn odd_quarters(&self, empty: B) -> usize {
        empty
            .iter()
            .fold(0, |odd, cell| odd ^ (1 << self.quarter_of[cell]))
    }

    /// The quarters whose moves the parity order tries first, with `empty` the empty cells:
    /// those holding an odd number of them, so that the mover tends to get the last move of
    /// each; under misère, where the last move tends to cost discs, those holding an even
    /// number.
    pub(in crate::search) fn parity_quarters(&self, empty: B) -> usize {
        self.odd_quarters(empty) ^ self.parity_flip()
    }

    /// What turns the quarters holding an odd number of empty cells into those the parity
    /// order tries first (see [`Engine::parity_quarters`]): all four under misère, else none.
    fn parity_flip(&self) -> usize {
        if self.rules.variant.misere {
            15
        } else {
            0
        }
    }
}

/// [`Shallow::solve_empties`] as a piece of work for the kernel.
struct Empties<'s, 'a, B, F, const PASSED: bool> {
    shallow: &'s mut Shallow<'a, B, F>,
    mine: B,
    theirs: B,
    empty: B,
    odd: usize,
    /// The side to move's moves when the parent found them, else none (found when needed).
    moves: B,
    alpha: i32,
    beta: i32,
}

impl<B: Bits, F: Flips<B>, const PASSED: bool> Work for Empties<'_, '_, B, F, PASSED> {
    type Output = i32;

    #[inline(always)]
    fn work(self) -> i32 {
        let Empties {
            shallow,
            mine,
            theirs,
            empty,
            odd,
            moves,
            alpha,
            beta,
        } = self;
        shallow.solve_empties::<PASSED>(mine, theirs, empty, odd, moves, alpha, beta)
    }
}

impl<B: Bits, F: Flips<B>> Shallow<'_, B, F> {
    /// The value with the empty cells known, and the quarters that hold an odd number of them
    /// (`odd`, one bit each), and the moves when the parent found them. After a pass
    /// (`PASSED`), returns [`NO_MOVE`] when this side cannot move either, so the caller scores
    /// the game.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn solve_empties<const PASSED: bool>(
        &mut self,
        mine: B,
        theirs: B,
        empty: B,
        odd: usize,
        moves: B,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        // A pass is counted as a node only when the side passed to can move, as elsewhere.
        if !PASSED {
            self.nodes += 1;
        }
        let empties = empty.count();
        if empties >= self.stability_from {
            // Also after a pass: a bound for this side holds whether or not it can move.
            if let Some(bound) = self.engine.stability_cut(mine, theirs, empty, alpha) {
                return bound;
            }
        }
        match empties {
            1 => self.last_empty::<PASSED>(mine, theirs, empty),
            2 => self.last_two::<PASSED>(mine, theirs, empty, alpha, beta),
            3 => self.each_move::<PASSED, 2>(mine, theirs, empty, odd, B::ZERO, alpha, beta),
            4 => self.each_move::<PASSED, 3>(mine, theirs, empty, odd, B::ZERO, alpha, beta),
            n @ 5..=SORTED_MAX if n >= self.sorted_from => {
                self.sorted_moves::<PASSED>(mine, theirs, empty, odd, moves, alpha, beta)
            }
            5 => self.each_move::<PASSED, 4>(mine, theirs, empty, odd, moves, alpha, beta),
            _ => self.each_move::<PASSED, 0>(mine, theirs, empty, odd, moves, alpha, beta),
        }
    }

    /// As [`Shallow::each_move`] with larger children, but trying first the moves that leave
    /// the opponent the fewest replies, corners counted twice (in parity order among equals):
    /// a move generation per move, worth it only where the subtrees are large. Under SIMPLE
    /// rules, the moves that turn the fewest discs first instead, which costs no more than
    /// the flips.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn sorted_moves<const PASSED: bool>(
        &mut self,
        mine: B,
        theirs: B,
        empty: B,
        odd: usize,
        moves: B,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        // The moves in parity order, no more than the empty cells, each with its replies
        // (the child's moves unless any cell will do) and its key: its weight (replies or
        // turned discs), then its place in that order.
        let mut listed = [(0usize, B::ZERO, B::ZERO); SORTED_MAX as usize];
        let mut keys = [u32::MAX; KEYS];
        let mut count = 0;
        for cell in self.parity_order(self.moves(mine, theirs, empty, moves), odd) {
            let flips = self.flips.flips(cell, mine, theirs);
            let (weight, replies) = if self.by_flips {
                (flips.count(), B::ZERO)
            } else {
                let bit = B::bit(cell);
                let replies = self.flips.moves(theirs & !flips, mine | flips | bit) & empty & !bit;
                // A corner among them counts twice.
                let weight = replies.count() + (replies & self.corners).count();
                (weight, if self.anywhere { B::ZERO } else { replies })
            };
            listed[count] = (cell, flips, replies);
            keys[count] = weight << KEY_PLACE_BITS | count as u32;
            count += 1;
        }
        // Each turn the least key, found without a branch (the fold is vectorised): an
        // insertion sort's steps would branch on the weights.
        let mut best = NO_MOVE;
        let node = (mine, theirs, empty, odd);
        for _ in 0..count {
            let key = keys.iter().fold(u32::MAX, |least, &key| least.min(key));
            let place = (key & KEY_PLACE_MASK) as usize;
            keys[place % KEYS] = u32::MAX;
            if self.try_move::<PASSED, 0>(node, listed[place], &mut best, &mut alpha, beta) {
                break;
            }
        }
        self.settle(best, PASSED, mine, theirs, |shallow| {
            shallow.after_pass(mine, theirs, empty, odd, alpha, beta)
        })
    }

    /// Tries the moves of a node of three empty cells or more in parity order and settles
    /// it; `CHILD` as in [`Shallow::try_move`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn each_move<const PASSED: bool, const CHILD: usize>(
        &mut self,
        mine: B,
        theirs: B,
        empty: B,
        odd: usize,
        moves: B,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = NO_MOVE;
        let node = (mine, theirs, empty, odd);
        // With three or four empty cells, trying each is cheaper (see `moves`).
        let all_at_once = CHILD == 0 || CHILD >= 4;
        let cells = if all_at_once {
            self.moves(mine, theirs, empty, moves)
        } else {
            empty
        };
        for cell in self.parity_order(cells, odd) {
            let flips = if all_at_once {
                self.flips.flips(cell, mine, theirs)
            } else {
                let Some(flips) = self.shallow_move(cell, mine, theirs) else {
                    continue;
                };
                flips
            };
            if self.try_move::<PASSED, CHILD>(
                node,
                (cell, flips, B::ZERO),
                &mut best,
                &mut alpha,
                beta,
            ) {
                break;
            }
        }
        self.settle(best, PASSED, mine, theirs, |shallow| {
            shallow.after_pass(mine, theirs, empty, odd, alpha, beta)
        })
    }

    /// Plays the move on `cell`, turning `flips`, from the node `(mine, theirs, empty, odd)`,
    /// the child's moves `moves` if known (else none), searches the child in the window and
    /// takes its value into `best` and `alpha`: true at a cut-off. A child of two to four
    /// empty cells (`CHILD`) is solved straight here, its node counted as `solve_empties`
    /// would, and a larger one (`CHILD` 0) through the kernel again: inline costs fewer
    /// instructions than a call through the kernel.
    #[inline(always)]
    fn try_move<const PASSED: bool, const CHILD: usize>(
        &mut self,
        (mine, theirs, empty, odd): (B, B, B, usize),
        (cell, flips, moves): (usize, B, B),
        best: &mut i32,
        alpha: &mut i32,
        beta: i32,
    ) -> bool {
        if PASSED && *best == NO_MOVE {
            self.nodes += 1;
        }
        let bit = B::bit(cell);
        let (next_mine, next_theirs) = (theirs & !flips, mine | flips | bit);
        let next_empty = empty ^ bit;
        let (a, b) = (-beta, -*alpha);
        let score = -if CHILD == 2 {
            // The quarters' parity is read only with three empty cells or more.
            self.nodes += 1;
            self.last_two::<false>(next_mine, next_theirs, next_empty, a, b)
        } else {
            let next_odd = odd ^ (1 << self.quarter_of[cell]);
            if CHILD == 3 {
                self.nodes += 1;
                let (mine, theirs, empty, odd) = (next_mine, next_theirs, next_empty, next_odd);
                self.each_move::<false, 2>(mine, theirs, empty, odd, B::ZERO, a, b)
            } else if CHILD == 4 {
                // No thresholds look for the stability cut-off this near the end (checked where
                // the shallow solve is set up).
                self.nodes += 1;
                let (mine, theirs, empty, odd) = (next_mine, next_theirs, next_empty, next_odd);
                self.each_move::<false, 3>(mine, theirs, empty, odd, B::ZERO, a, b)
            } else {
                let (mine, theirs, empty, odd) = (next_mine, next_theirs, next_empty, next_odd);
                self.descend::<false>(mine, theirs, empty, odd, moves, a, b)
            }
        };
        raise(best, alpha, score, beta)
    }

    /// The cells of `empty` in parity order: those in quarters of the board with an odd
    /// number of empty cells (`odd`) first, so that the mover tends to get the last move of
    /// each quarter; under misère, where the last move tends to cost discs, those with an even
    /// number.
    #[inline(always)]
    fn parity_order(&self, empty: B, odd: usize) -> Chain<BitIter<B>, BitIter<B>> {
        // The mask spares a bounds check: both are below 16.
        let first = self.quarter_cells[(odd ^ self.parity) & 15];
        (empty & first).iter().chain((empty & !first).iter())
    }

    /// [`Shallow::solve_empties`] for a position below this node (a child of five empty cells
    /// or more, or this node after a pass), through the kernel again, so that each level gets
    /// it inline.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn descend<const PASSED: bool>(
        &mut self,
        mine: B,
        theirs: B,
        empty: B,
        odd: usize,
        moves: B,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.flips.run(Empties::<_, _, PASSED> {
            shallow: self,
            mine,
            theirs,
            empty,
            odd,
            moves,
            alpha,
            beta,
        })
    }

    /// The value after the side owning `mine` passes, for the opponent, who now moves: the
    /// same node seen from the other side ([`NO_MOVE`] when it cannot move either).
    fn after_pass(
        &mut self,
        mine: B,
        theirs: B,
        empty: B,
        odd: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.descend::<true>(theirs, mine, empty, odd, B::ZERO, -beta, -alpha)
    }

    /// The moves of the side owning `mine`, `empty` the empty cells: `known` when the parent
    /// found them (a node that sorts its moves by replies finds each child's), else found
    /// here. From five empty cells on, finding them all at once costs less than trying each
    /// empty cell; at three and four it costs more. A node with no moves is found again,
    /// which only a pass costs.
    #[inline(always)]
    fn moves(&self, mine: B, theirs: B, empty: B, known: B) -> B {
        if !known.is_empty() {
            known
        } else if self.anywhere {
            empty
        } else {
            self.flips.moves(mine, theirs) & empty
        }
    }

    /// The flips of a move of `mine` on `cell`, if it is one: a move must flip something
    /// unless any cell will do. Looking first for an opponent's disc next to the cell, as
    /// Edax does, costs more than it saves here.
    #[inline(always)]
    fn shallow_move(&self, cell: usize, mine: B, theirs: B) -> Option<B> {
        let flips = self.flips.flips(cell, mine, theirs);
        (self.anywhere || !flips.is_empty()).then_some(flips)
    }

    /// A node's value once its moves are tried: `best`, or when it had none, the value after
    /// a pass (`after_pass`, from the opponent's side), or the final score when neither side
    /// can move. After a pass itself, no move is [`NO_MOVE`].
    #[inline(always)]
    fn settle(
        &mut self,
        best: i32,
        passed: bool,
        mine: B,
        theirs: B,
        after_pass: impl FnOnce(&mut Self) -> i32,
    ) -> i32 {
        if best != NO_MOVE {
            return best;
        }
        if passed {
            return NO_MOVE;
        }
        match after_pass(self) {
            NO_MOVE => self.engine.final_score_of(mine, theirs),
            score => -score,
        }
    }

    /// The value at the last empty cell, its node counted.
    #[inline(always)]
    fn last_empty<const PASSED: bool>(&mut self, mine: B, theirs: B, empty: B) -> i32 {
        let Some(cell) = empty.lowest() else {
            unreachable!("one empty cell")
        };
        let flips = self.flips.flips(cell, mine, theirs);
        if self.anywhere || !flips.is_empty() {
            return self.full_board_score(mine.count() + flips.count() + 1);
        }
        if PASSED {
            return NO_MOVE;
        }
        let flips = self.flips.flips(cell, theirs, mine);
        if !flips.is_empty() {
            // The opponent plays the last cell.
            return -self.full_board_score(theirs.count() + flips.count() + 1);
        }
        self.engine.final_score_of(mine, theirs)
    }

    /// The final score of a full board on which the side to move has `discs` discs.
    #[inline(always)]
    fn full_board_score(&self, discs: u32) -> i32 {
        (2 * discs as i32 - self.cells) * self.sign
    }

    /// The value at the last two empty cells, its node counted: each move leads straight to
    /// [`Shallow::last_empty`], without the general loop.
    #[inline(always)]
    fn last_two<const PASSED: bool>(
        &mut self,
        mine: B,
        theirs: B,
        empty: B,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let (Some(x), Some(y)) = (empty.lowest(), (empty & !empty.lowest_bit()).lowest()) else {
            unreachable!("two empty cells")
        };
        let mut best = NO_MOVE;
        // Two moves, written out: a loop over them costs more than they do.
        if let Some(score) = self.last_two_move::<PASSED>(x, y, mine, theirs, best) {
            if raise(&mut best, &mut alpha, score, beta) {
                return best;
            }
        }
        if let Some(score) = self.last_two_move::<PASSED>(y, x, mine, theirs, best) {
            raise(&mut best, &mut alpha, score, beta);
        }
        // The quarters' parity is read only with three empty cells or more.
        self.settle(best, PASSED, mine, theirs, |shallow| {
            shallow.after_pass(mine, theirs, empty, 0, alpha, beta)
        })
    }

    /// The value of the move on `cell` with two empty cells left, `last` the other, if it is
    /// a move; `best` is the node's best so far ([`NO_MOVE`] before any move).
    #[inline(always)]
    fn last_two_move<const PASSED: bool>(
        &mut self,
        cell: usize,
        last: usize,
        mine: B,
        theirs: B,
        best: i32,
    ) -> Option<i32> {
        let flips = self.shallow_move(cell, mine, theirs)?;
        if PASSED && best == NO_MOVE {
            self.nodes += 1;
        }
        // The child's node, as `solve_empties` would count it.
        self.nodes += 1;
        Some(-self.last_empty::<false>(theirs & !flips, mine | flips | B::bit(cell), B::bit(last)))
    }
}

/// Takes `score` into the best so far and the window's floor; true at a cut-off.
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, score: i32, beta: i32) -> bool {
    debug_assert!(*best <= *alpha && *alpha < beta);
    // Maxima rather than branches, which a score raises unpredictably.
    *best = (*best).max(score);
    *alpha = (*alpha).max(score);
    score >= beta
}
