//! The solver's node: the exact value of a position within a window.

use super::thresholds::{self, Thresholds, DEEPER_SORT_DEPTH, DEEPER_SORT_FROM, SORT_DEPTH, SPLIT};
use crate::rules::{Bits, Position};
use crate::search::engine::Engine;
use crate::search::journal::Journal;
use crate::search::midgame::{OrderingKind, Prediction};
use crate::search::moves::Candidate;
use crate::search::score::{Outcome, Score, DISC, INFINITY};
use crate::search::table::{Bound, Entry, MAX_DEPTH, SOLVED};

impl<B: Bits> Engine<B> {
    /// The exact value of `pos` within `(alpha, beta)`, fail-soft: a result at or below
    /// `alpha` is an upper bound, at or above `beta` a lower bound.
    pub(in crate::search) fn solve(
        &mut self,
        pos: &Position<B>,
        key: u64,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let empty = self.rules.empty(pos);
        // Under place-anywhere the sets' values are the positions' (under standard placement
        // they only order the moves).
        let exact = self
            .solver
            .subsets
            .as_ref()
            .filter(|_| self.rules.variant.place_anywhere);
        if let Some(subsets) = exact {
            if let Some(value) = subsets.value(&self.rules, pos, empty) {
                self.count_node();
                return value;
            }
        }
        let empties = empty.count();
        let thresholds = self.thresholds();
        if empties <= thresholds.shallow {
            return self.solve_shallow(pos.mover(), pos.opponent(), alpha, beta);
        }
        let start = self.ctx.nodes;
        let place = self.place(pos, key, empty);
        self.table.prefetch(place.part, place.key);
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
        if let Some(score) = self.stability_cut(pos.mover(), pos.opponent(), empty, alpha) {
            return score;
        }
        if let (Some(m), true) = (moves.lowest(), moves.count() == 1) {
            // A forced move: nothing to order, and not worth a table entry.
            let (child, child_key) = self.after(pos, key, m, self.rules.flips(pos, m));
            return -self.solve(&child, child_key, -beta, -alpha, ply + 1);
        }
        if let Some(journal) = &self.solver.journal {
            if let Some(b) = journal.bounds(pos, empties) {
                if b.high <= alpha || b.low == b.high {
                    return b.high;
                }
                if b.low >= beta {
                    return b.low;
                }
                // The value lies inside the bounds, so the window may shrink to them.
                alpha = alpha.max(b.low - 1);
                beta = beta.min(b.high + 1);
            }
        }
        let mut table_move = None;
        if let Some(e) = self.table.probe(place.part, place.key) {
            table_move = e
                .best
                .map(|m| place.read(&self.solver.images, m))
                .filter(|&m| moves.contains(m));
            // A selective solve's entries are as deep as their empty cells; only it reads them.
            let selective = self.ctx.selective_end && u32::from(e.depth) >= empties;
            if e.depth == SOLVED || selective {
                // Solved entries hold outcomes, so their scores convert back exactly.
                let score = Outcome::at_most(e.score) + place.offset;
                if e.bound.settles(score, alpha, beta) {
                    return score;
                }
            }
        }
        if self.ctx.selective_end {
            if let Some(score) = self.end_cut(pos, key, empties, alpha, beta, ply) {
                return score;
            }
        }
        if empties >= thresholds.transposition_cuts {
            if let Some(score) = self.transposition_cut(pos, key, empty, moves, beta) {
                return score;
            }
        }
        if let Some(journal) = &self.solver.journal {
            if let Some(score) = self.journal_cut(journal, pos, moves, empties, beta) {
                return score;
            }
        }
        let mut list = self.take_list(ply);
        let sort_depth = self
            .sorts_by_search(empties)
            .then_some(if empties >= DEEPER_SORT_FROM {
                DEEPER_SORT_DEPTH
            } else {
                SORT_DEPTH
            });
        // The table's move is searched before the others are weighed and sorted (see
        // `best_of`).
        self.list_moves(moves, table_move, &mut list);
        let share = !self.shared.busy.is_empty() && empties >= SPLIT;
        let (best_score, best_move) = self.best_of(
            pos,
            key,
            &mut list,
            alpha,
            beta,
            share,
            |e, list| {
                e.weigh(pos, moves.count(), OrderingKind::Solve, list);
                if let Some(depth) = sort_depth {
                    e.sort_by_search(pos, key, list, depth, ply);
                }
            },
            |e, child, a, b| e.solve(child.pos, child.key, a, b, ply + 1),
        );
        self.ctx.lists[ply] = list;
        if self.ctx.stopped {
            return 0;
        }
        let bound = Bound::of(best_score, alpha, beta);
        self.table.store(
            place.part,
            place.key,
            Entry {
                score: Outcome(best_score - place.offset).score(),
                best: best_move.map(|m| place.write(&self.solver.images, m)),
                depth: if self.ctx.selective_end {
                    empties.min(u32::from(MAX_DEPTH)) as u8
                } else {
                    SOLVED
                },
                bound,
                cost: Entry::cost_of(self.ctx.nodes - start),
            },
        );
        if let Some(journal) = self
            .solver
            .journal
            .as_ref()
            .filter(|_| !self.ctx.selective_end)
        {
            if self.ctx.nodes - start >= journal.min_nodes() {
                journal.record(pos, best_score, alpha, beta);
            }
        }
        best_score
    }

    /// Multi-ProbCut in a selective solve, at a null window with `empties` empty cells where
    /// the weights have an end fit: `beta` where a shallow search predicts, with the configured
    /// confidence, that the solve reaches it; `alpha` where it predicts the solve at or below
    /// it; else `None`. Windows in whole discs; the shallow search's in hundredths.
    #[inline(never)]
    pub(in crate::search) fn end_cut(
        &mut self,
        pos: &Position<B>,
        key: u64,
        empties: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let confidence = self.config.probcut?;
        if beta - alpha != 1 {
            return None;
        }
        let fit = *self.eval.probcut()?.end_fit(empties)?;
        Some(
            match self.predict(pos, key, &fit, confidence, alpha * DISC, beta * DISC, ply)? {
                Prediction::AtLeastBeta => beta,
                Prediction::AtMostAlpha => alpha,
                Prediction::Stopped => 0,
            },
        )
    }

    /// An upper bound on the value of `pos` from the discs that can never change colour, when
    /// it is no more than `alpha` (so the search fails low without looking further); the
    /// lower bound from the mover's such discs almost never cuts. The side to move owns
    /// `mine`, the other side `theirs`; `empty` is the rest.
    // Inline, so that in the shallow solver the stability kernel runs inline in its AVX2 code.
    #[inline(always)]
    pub(in crate::search) fn stability_cut(
        &self,
        mine: B,
        theirs: B,
        empty: B,
        alpha: i32,
    ) -> Option<i32> {
        let cells = self.rules.geometry.cell_count() as i32;
        // Discs that count against the side to move: the opponent's, or its own under misère.
        let against = if self.rules.variant.misere {
            mine
        } else {
            theirs
        };
        // The fewest stable discs of `against` that bring the bound down to alpha.
        let need = ((cells - alpha).max(0) as u32).div_ceil(2);
        // Even if every such disc were stable the bound would not reach alpha.
        if against.count() < need {
            return None;
        }
        let stable = self
            .eval
            .stable_near_end_reaching(&self.rules, against, empty, need)?;
        Some(cells - 2 * stable as i32)
    }

    /// A cut-off proved by the journal alone: a move after which the journal holds the
    /// position worth at most `-beta` to its side to move. Such a position was settled by
    /// another order of moves, in this run or an earlier one, and the order here need not try
    /// that move first; the table's own cut-off (see [`Engine::transposition_cut`]) forgets
    /// what earlier runs proved.
    // Out of line, so that a solve without a journal does not pay for it.
    #[inline(never)]
    pub(in crate::search) fn journal_cut(
        &self,
        journal: &Journal<B>,
        pos: &Position<B>,
        moves: B,
        empties: u32,
        beta: i32,
    ) -> Option<i32> {
        if !journal.may_know(empties - 1) {
            return None;
        }
        moves.iter().find_map(|m| {
            let child = self.rules.play_flips(pos, m, self.rules.flips(pos, m));
            let bounds = journal.bounds(&child, empties - 1)?;
            (-bounds.high >= beta).then_some(-bounds.high)
        })
    }

    /// A cut-off proved by the table alone: a move whose position after it is stored as
    /// solved at or above `beta` for the side to move here (enhanced transposition cut-off).
    /// Each child's bucket is a cache miss, so all are fetched before any is read and the
    /// misses overlap.
    pub(in crate::search) fn transposition_cut(
        &self,
        pos: &Position<B>,
        key: u64,
        empty: B,
        moves: B,
        beta: i32,
    ) -> Option<i32> {
        // Where the children's keys under every image are wanted, they follow from the
        // parent's, found once, as the full key does.
        let lanes = &self.solver.images.keys;
        let colourless = self.keys_colourless();
        let keys = if colourless {
            Some(lanes.colourless(empty, pos.to_move))
        } else if self.symmetric(empty.count() - 1) {
            Some(lanes.key(pos))
        } else {
            None
        };
        let places = moves.iter().map(|m| {
            let flips = self.rules.flips(pos, m);
            let (child, child_key) = self.after(pos, key, m, flips);
            let child_empty = empty & !B::bit(m);
            let child_keys = keys.map(|keys| {
                if colourless {
                    lanes.colourless_after(keys, m)
                } else {
                    lanes.after_move(keys, pos.to_move, m, flips)
                }
            });
            self.place_with(&child, child_key, child_empty, child_keys.as_ref())
        });
        self.table
            .first_cut(places, |p| (p.part, p.key), |p, e| p.cut(e, beta))
    }

    /// Where the solver's tools take over under these rules.
    pub(super) fn thresholds(&self) -> &'static Thresholds {
        thresholds::thresholds(&self.rules.variant)
    }

    /// Whether a position with `empties` empty cells has its moves sorted by search.
    pub(in crate::search) fn sorts_by_search(&self, empties: u32) -> bool {
        thresholds::sorts_by_search(&self.rules.variant, empties)
    }

    /// Re-orders `list` (already in static order, the table's move first) by the estimate of a
    /// `depth`-move search of each move; the table's move stays first.
    pub(in crate::search) fn sort_by_search(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &mut [Candidate<B>],
        depth: i32,
        ply: usize,
    ) {
        for item in list.iter_mut() {
            if item.is_table_move() {
                continue;
            }
            let flips = item.flips(&self.rules, pos);
            let (child, child_key) = self.after(pos, key, item.cell, flips);
            let score = -self.pvs(
                &child,
                child_key,
                depth - 1,
                -Score::INFINITY,
                Score::INFINITY,
                ply + 1,
            );
            // On the search's scale, below the table move's weight (see `Candidate`).
            item.weight = score.0.clamp(-INFINITY + 1, INFINITY - 1);
        }
        list.sort_by_key(|c| std::cmp::Reverse(c.weight));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;
    use proptest::prelude::*;

    #[test]
    fn four_by_four_start_is_a_white_win_by_eleven_to_three() {
        let mut e = engine::<u64>(4, 4, Variant::default(), Config::to_depth(20));
        let start = e.rules().start(Color::Black, Color::White);
        let solved = e.solve_exact(&start, true);
        // Black to move loses 3-11.
        assert_eq!(solved.score, 3 - 11);
        assert!(solved.moves.iter().all(|&(_, s)| s <= -8));
        let report = e.search(&start);
        assert!(report.exact);
        assert_eq!(report.score, -8 * DISC);
    }

    #[test]
    fn simple_rules_search_and_solver_agree() {
        for misere in [false, true] {
            let variant = Variant {
                rule_set: RuleSet::Simple,
                misere,
                place_anywhere: false,
            };
            // The whole 4x4 game.
            let rules = rules_for::<u64>(4, 4, variant);
            check_exact(
                &rules,
                &rules.start(Color::Black, Color::White),
                Scoring::Plain,
            );
            for (rows, cols) in [(3, 3), (3, 5), (4, 4), (4, 5), (5, 5), (6, 6)] {
                let rules = rules_for::<u64>(rows, cols, variant);
                for seed in 0..6 {
                    let pos = random_position(&rules, seed, 11);
                    let exact = check_exact(&rules, &pos, Scoring::Plain);
                    if rules.empty(&pos).count() <= 7 {
                        assert_eq!(minimax(&rules, &pos, Scoring::Plain), exact);
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(96)))]

        /// On random positions with at most ten empty cells, a search as deep as the empty cells is
        /// exact and agrees with the solver, in every variant, whatever the bit-set width.
        #[test]
        fn search_to_the_end_agrees_with_the_solver(
            rows in 3..=6usize,
            cols in 3..=6usize,
            variant in variant_strategy(),
            scoring in scoring_strategy(),
            empties in 0..=10u32,
            seed in any::<u64>(),
        ) {
            let rules = rules_for::<u64>(rows, cols, variant);
            let pos = random_position(&rules, seed, empties);
            let exact = check_exact(&rules, &pos, scoring);
            let wide = Rules::<Words<4>>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
            let config = Config::to_depth(64).with_scoring(scoring);
            let solved = Engine::new(wide, config.clone()).solve_exact(&widen(&pos), false);
            prop_assert_eq!(solved.score, exact);
        }

        /// The solver against exhaustive minimax on random positions with at most seven empty
        /// cells, for every move, and from the other side's point of view (a pass, possibly).
        #[test]
        fn solver_agrees_with_plain_minimax(
            rows in 3..=6usize,
            cols in 3..=6usize,
            variant in variant_strategy(),
            scoring in scoring_strategy(),
            empties in 0..=7u32,
            seed in any::<u64>(),
        ) {
            let rules = rules_for::<u64>(rows, cols, variant);
            let pos = random_position(&rules, seed, empties);
            let config = Config::to_depth(64).with_scoring(scoring);
            let mut e = Engine::new(rules.clone(), config.clone());
            let solved = e.solve_exact(&pos, true);
            prop_assert_eq!(solved.score, minimax(&rules, &pos, scoring));
            for &(m, value) in &solved.moves {
                let child = rules.play_unchecked(&pos, m);
                prop_assert_eq!(value, -minimax(&rules, &child, scoring), "move {}", name(cols, m));
            }
            let other = rules.pass(&pos);
            let solved = e.solve_exact(&other, true);
            prop_assert_eq!(solved.score, minimax(&rules, &other, scoring));
            prop_assert_eq!(solved.best.is_none(), rules.moves(&other).is_empty());
        }
    }
}
