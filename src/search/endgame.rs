//! The exact endgame solver: searches to the end of the game and returns the final disc
//! difference (in whole discs) for the side to move.

use super::{Bound, Engine, Entry, Outcome, SOLVED};
use crate::rules::{Bits, Position};
use std::time::{Duration, Instant};

/// Below this many empty cells the solver skips the table and move ordering: they cost more
/// than they save so near the end.
const SHALLOW: u32 = 6;

/// An exact result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Final disc difference for the side to move under best play (see [`super::Scoring`]).
    pub score: i32,
    /// A best move, or `None` when the side to move must pass or the game is over.
    pub best: Option<usize>,
    /// Every legal move with its exact value, best first, when asked for.
    pub moves: Vec<(usize, i32)>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl<B: Bits> Engine<B> {
    /// Solves `pos` exactly, ignoring the time limit. With `all_moves`, every move gets its
    /// exact value; otherwise only the best one is proved.
    pub fn solve_exact(&mut self, pos: &Position<B>, all_moves: bool) -> Solved {
        let clock = Instant::now();
        self.begin(clock, None);
        let key = self.zobrist.key(pos);
        let moves = self.rules.moves(pos);
        let limit = self.rules.geometry.cell_count() as i32 + 1;
        if moves.is_empty() {
            let score = self.solve(pos, key, -limit, limit, 0);
            return Solved {
                score,
                best: None,
                moves: Vec::new(),
                nodes: self.nodes,
                elapsed: clock.elapsed(),
            };
        }
        let mut list = Vec::new();
        let table_move = self.table.probe(key).and_then(|e| e.best);
        self.order(pos, moves, table_move, true, &mut list);
        let mut values = Vec::new();
        let (score, best) = if all_moves {
            // Every move with the full window, so each value is exact.
            for &(m, _) in &list {
                let flips = self.rules.flips(pos, m);
                let child = self.rules.play_flips(pos, m, flips);
                let child_key = self.zobrist.after_move(key, pos.to_move, m, flips);
                values.push((m, -self.solve(&child, child_key, -limit, limit, 1)));
            }
            // A stable sort: among equal values the first searched stays the best move.
            values.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            (values[0].1, Some(values[0].0))
        } else {
            self.best_of(
                pos,
                key,
                &list,
                -limit,
                limit,
                |e, child, child_key, a, b| e.solve(child, child_key, a, b, 1),
            )
        };
        self.table.store(
            key,
            Entry {
                score: Outcome(score).score(),
                best,
                depth: SOLVED,
                bound: Bound::Exact,
            },
        );
        Solved {
            score,
            best,
            moves: values,
            nodes: self.nodes,
            elapsed: clock.elapsed(),
        }
    }

    /// The exact value of `pos` within `(alpha, beta)`, fail-soft: a result at or below
    /// `alpha` is an upper bound, at or above `beta` a lower bound.
    pub(super) fn solve(
        &mut self,
        pos: &Position<B>,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let empties = self.rules.empty(pos).count();
        if empties <= SHALLOW {
            return self.solve_shallow(pos, alpha, beta);
        }
        if self.count_node() {
            return 0;
        }
        let moves = self.rules.moves(pos);
        if moves.is_empty() {
            if self.rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                return self.final_score(pos);
            }
            let passed = self.rules.pass(pos);
            let key = self.zobrist.after_pass(key);
            return -self.solve(&passed, key, -beta, -alpha, ply + 1);
        }
        let mut table_move = None;
        if let Some(e) = self.table.probe(key) {
            table_move = e.best.filter(|&m| moves.contains(m));
            if e.depth == SOLVED {
                // Solved entries hold outcomes, so their scores convert back exactly.
                let score = Outcome::at_most(e.score);
                if e.bound.settles(score, alpha, beta) {
                    return score;
                }
            }
        }
        let mut list = self.take_list(ply);
        self.order(pos, moves, table_move, true, &mut list);
        let (best_score, best_move) =
            self.best_of(pos, key, &list, alpha, beta, |e, child, child_key, a, b| {
                e.solve(child, child_key, a, b, ply + 1)
            });
        self.lists[ply] = list;
        if self.stopped {
            return 0;
        }
        let bound = Bound::of(best_score, alpha, beta);
        self.table.store(
            key,
            Entry {
                score: Outcome(best_score).score(),
                best: best_move,
                depth: SOLVED,
                bound,
            },
        );
        best_score
    }

    /// The empty cells of the board's quarters that hold an odd number of them.
    fn odd_quarters(&self, empty: B) -> B {
        let mut odd = B::ZERO;
        for &quarter in &self.quarters {
            let cells = empty & quarter;
            if cells.count() % 2 == 1 {
                odd |= cells;
            }
        }
        odd
    }

    /// One empty cell: whoever can play there does, without generating moves. A move is legal
    /// exactly when it flips something, under both rule sets, unless any cell will do.
    fn solve_last(&mut self, pos: &Position<B>, empty: B) -> i32 {
        let Some(cell) = empty.lowest() else {
            return self.final_score(pos);
        };
        let anywhere = self.rules.variant.place_anywhere;
        let flips = self.rules.flips(pos, cell);
        if anywhere || !flips.is_empty() {
            return -self.final_score(&self.rules.play_flips(pos, cell, flips));
        }
        let passed = self.rules.pass(pos);
        let flips = self.rules.flips(&passed, cell);
        if !flips.is_empty() {
            // The opponent plays the last cell; the result is seen from the original mover.
            return self.final_score(&self.rules.play_flips(&passed, cell, flips));
        }
        self.final_score(pos)
    }

    /// The last few moves: plain alpha-beta, no table.
    fn solve_shallow(&mut self, pos: &Position<B>, mut alpha: i32, beta: i32) -> i32 {
        if self.count_node() {
            return 0;
        }
        let empty = self.rules.empty(pos);
        if empty.count() == 1 {
            return self.solve_last(pos, empty);
        }
        let moves = self.rules.moves(pos);
        if moves.is_empty() {
            if self.rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                return self.final_score(pos);
            }
            return -self.solve_shallow(&self.rules.pass(pos), -beta, -alpha);
        }
        // Parity: moves into quarters of the board with an odd number of empty cells first, so
        // that the mover tends to get the last move of each quarter.
        let odd = self.odd_quarters(empty);
        let mut best = -i32::MAX;
        for m in (moves & odd).iter().chain((moves & !odd).iter()) {
            let child = self.rules.play_unchecked(pos, m);
            let score = -self.solve_shallow(&child, -beta, -alpha);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
