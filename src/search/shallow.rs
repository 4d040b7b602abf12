//! The last few moves of the exact solver: plain alpha-beta over the empty cells themselves,
//! without a move list or the table, with one flips kernel chosen for the whole subtree (see
//! [`crate::rules::Flips`]).

use super::{Engine, INFINITY};
use crate::rules::{Bits, Flips, WithFlips, Work};

/// Beyond every final disc difference: "no move here" in [`Shallow::solve_empties`].
const NO_MOVE: i32 = -INFINITY;

/// One shallow solve: the engine it reads, the kernel, and the nodes it has visited (added
/// to the engine's count when it is done: a subtree this small is not worth stopping inside).
struct Shallow<'a, B, F> {
    engine: &'a Engine<B>,
    flips: F,
    nodes: u64,
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
        let mut shallow = Shallow {
            engine: self.engine,
            flips,
            nodes: 0,
        };
        let (mine, theirs) = (self.mine, self.theirs);
        let empty = self.engine.rules.geometry.cells() & !(mine | theirs);
        let odd = self.engine.odd_quarters(empty);
        let score = flips.run(Empties::<_, _, false> {
            shallow: &mut shallow,
            mine,
            theirs,
            empty,
            odd,
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
    pub(super) fn solve_shallow(&mut self, mine: B, theirs: B, alpha: i32, beta: i32) -> i32 {
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
}

/// [`Shallow::solve_empties`] as a piece of work for the kernel.
struct Empties<'s, 'a, B, F, const PASSED: bool> {
    shallow: &'s mut Shallow<'a, B, F>,
    mine: B,
    theirs: B,
    empty: B,
    odd: usize,
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
            alpha,
            beta,
        } = self;
        shallow.solve_empties::<PASSED>(mine, theirs, empty, odd, alpha, beta)
    }
}

impl<B: Bits, F: Flips<B>> Shallow<'_, B, F> {
    /// The value with the empty cells known, and the quarters that hold an odd number of them
    /// (`odd`, one bit each). After a pass (`PASSED`), returns [`NO_MOVE`] when this side
    /// cannot move either, so the caller scores the game.
    #[inline(always)]
    fn solve_empties<const PASSED: bool>(
        &mut self,
        mine: B,
        theirs: B,
        empty: B,
        odd: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        // A pass is counted as a node only when the side passed to can move, as elsewhere.
        if !PASSED {
            self.nodes += 1;
        }
        let count = empty.count();
        match count {
            1 => return self.last_empty::<PASSED>(mine, theirs, empty),
            2 => return self.last_two::<PASSED>(mine, theirs, empty, alpha, beta),
            _ => {}
        }
        let e = self.engine;
        // Parity: cells in quarters of the board with an odd number of empty cells first, so
        // that the mover tends to get the last move of each quarter.
        let first = e.quarter_cells[odd];
        let anywhere = e.rules.variant.place_anywhere;
        let mut best = NO_MOVE;
        for cell in (empty & first).iter().chain((empty & !first).iter()) {
            let Some(flips) = self.shallow_move(anywhere, cell, mine, theirs) else {
                continue;
            };
            if PASSED && best == NO_MOVE {
                self.nodes += 1;
            }
            let bit = B::bit(cell);
            let (next_mine, next_theirs) = (theirs & !flips, mine | flips | bit);
            let score = -if count == 3 {
                // Straight to the last two, its node counted here as `solve_empties` would.
                self.nodes += 1;
                self.last_two::<false>(next_mine, next_theirs, empty ^ bit, -beta, -alpha)
            } else {
                self.flips.run(Empties::<_, _, false> {
                    shallow: self,
                    mine: next_mine,
                    theirs: next_theirs,
                    empty: empty ^ bit,
                    odd: odd ^ (1 << e.quarter_of[cell]),
                    alpha: -beta,
                    beta: -alpha,
                })
            };
            if raise(&mut best, &mut alpha, score, beta) {
                break;
            }
        }
        self.settle(best, PASSED, mine, theirs, |shallow| {
            shallow.after_pass(mine, theirs, empty, odd, alpha, beta)
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
        self.flips.run(Empties::<_, _, true> {
            shallow: self,
            mine: theirs,
            theirs: mine,
            empty,
            odd,
            alpha: -beta,
            beta: -alpha,
        })
    }

    /// The flips of a move of `mine` on `cell`, if it is one: a move must flip something
    /// unless any cell will do (`anywhere`, read once by the caller). Only a cell next to an
    /// opponent's disc can flip one, which is cheaper to see than the flips.
    #[inline(always)]
    fn shallow_move(&self, anywhere: bool, cell: usize, mine: B, theirs: B) -> Option<B> {
        if !anywhere && (self.engine.rules.geometry.adjacent(cell) & theirs).is_empty() {
            return None;
        }
        let flips = self.flips.flips(cell, mine, theirs);
        (anywhere || !flips.is_empty()).then_some(flips)
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
        if self.engine.rules.variant.place_anywhere || !flips.is_empty() {
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
        let e = self.engine;
        let d = 2 * discs as i32 - e.rules.geometry.cell_count() as i32;
        if e.rules.variant.misere {
            -d
        } else {
            d
        }
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
        let anywhere = self.engine.rules.variant.place_anywhere;
        let mut best = NO_MOVE;
        for (cell, last) in [(x, y), (y, x)] {
            let Some(flips) = self.shallow_move(anywhere, cell, mine, theirs) else {
                continue;
            };
            if PASSED && best == NO_MOVE {
                self.nodes += 1;
            }
            // The child's node, as `solve_empties` would count it.
            self.nodes += 1;
            let score = -self.last_empty::<false>(
                theirs & !flips,
                mine | flips | B::bit(cell),
                B::bit(last),
            );
            if raise(&mut best, &mut alpha, score, beta) {
                break;
            }
        }
        // The quarters' parity is read only with three empty cells or more.
        self.settle(best, PASSED, mine, theirs, |shallow| {
            shallow.after_pass(mine, theirs, empty, 0, alpha, beta)
        })
    }
}

/// Takes `score` into the best so far and the window's floor; true at a cut-off.
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, score: i32, beta: i32) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}
