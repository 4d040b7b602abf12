//! Iterative deepening over principal-variation search, and the loop over a node's moves that
//! the solver shares.

use super::ordering::{OrderingKind, ESTIMATE_DEPTH};
use super::probcut::{Confidence, Fit};
use crate::rules::{Bits, Position};
use crate::search::engine::Engine;
use crate::search::eval::patterns::Indices;
use crate::search::eval::weights;
use crate::search::moves::{AfterMove, Candidate};
use crate::search::progress::MoveValue;
use crate::search::score::{Outcome, Score, Value, DISC, WON};
use crate::search::shared::SEARCHED_BY_ALL;
use crate::search::table::{Bound, Entry, TableSection, MAX_DEPTH};
use crate::search::time;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move to play (a cell index), or `None` when the side to move must pass.
    pub best: Option<usize>,
    /// Its score in hundredths of a disc; exact when `exact` is set.
    pub score: i32,
    /// The last iteration completed.
    pub depth: u32,
    /// Whether the score is the exact outcome under best play.
    pub exact: bool,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line, starting with `best`.
    pub pv: Vec<usize>,
}

/// What a shallow search predicts of a deeper one at a null window ([`Engine::predict`]).
pub(in crate::search) enum Prediction {
    AtLeastBeta,
    AtMostAlpha,
    /// The search was stopped before it could tell.
    Stopped,
}

/// A node of the search this many moves from its horizon or more reads and writes the table; a
/// node nearer, with at most [`TABLE_MOVES`] moves, does not read it and writes only an exact
/// value (few nodes have one, and the line shown is read from the table). Its subtree costs
/// little more to search again than a probe's cache miss, and its many results (the solver's
/// sorts by search run such searches at every node far from the end) would take the slots of
/// deeper ones.
const TABLE_DEPTH: i32 = 3;

/// Where a node near the horizon has more moves than this (place-anywhere), it still uses
/// the table: there its subtree is large and transpositions many.
const TABLE_MOVES: u32 = 20;

/// A time-limited search with the selective solve goes on to it once its depth comes this near
/// the end: the midgame iterations in between cost more than the selective solve and tell
/// less (8x8, docs/performance.md, "The selective solve").
const SELECTIVE_SOLVE_WITHIN: u32 = 10;

/// From this many moves from the horizon on, a node first looks in the table for a move whose
/// position is stored deep enough with a value that cuts off here (enhanced transposition
/// cut-off, as the solver does near the end); nearer, the probes cost more than they save.
const ETC_DEPTH: i32 = 4;

impl<B: Bits> Engine<B> {
    /// Searches `pos` within the configured limits and returns the best move found.
    pub fn search(&mut self, pos: &Position<B>) -> Report {
        self.search_since(pos, Instant::now())
    }

    /// [`Engine::search`] for a move owed since `clock`: the move time counts from then.
    pub fn search_since(&mut self, pos: &Position<B>, clock: Instant) -> Report {
        self.begin(clock, self.config.move_time);
        let mut report = self.with_helpers(|e| e.search_main(pos, clock), |h| h.help_search(pos));
        report.nodes = self.ctx.nodes;
        report.elapsed = clock.elapsed();
        report
    }

    /// As [`Engine::search`], choosing among the moves of `among` only: an opening book asks
    /// for the best move it does not hold yet. Runs on this thread alone (helpers would search
    /// every move); the root's value goes to the table as a lower bound only.
    pub fn search_among(&mut self, pos: &Position<B>, among: B) -> Report {
        let clock = Instant::now();
        self.begin(clock, self.config.move_time);
        let threads = std::mem::replace(&mut self.config.threads, 1);
        let mut report = self.with_helpers(
            |e| e.search_main_among(pos, clock, among),
            |h| h.help_search(pos),
        );
        self.config.threads = threads;
        report.nodes = self.ctx.nodes;
        report.elapsed = clock.elapsed();
        report
    }

    /// A helper's part of a search: iterative deepening of its own, every other helper a move
    /// deeper and each trying the root moves from a different one, so that the threads spread
    /// over the tree and meet through the table.
    pub(in crate::search) fn help_search(&mut self, pos: &Position<B>) {
        self.ctx.nodes = 0;
        let key = self.zobrist.key(pos);
        let empties = self.rules.empty(pos).count();
        let mut root: Vec<usize> = self.rules.moves(pos).iter().collect();
        if root.is_empty() {
            return;
        }
        root.sort_by_key(|&m| std::cmp::Reverse(self.square_weight[m]));
        let n = root.len();
        root.rotate_left(self.id % n);
        // No deeper than the depth asked for: a helper's deeper values in the shared table
        // would make a depth-limited search depend on the threads' timing.
        let last = self.config.depth.unwrap_or(u32::MAX).max(1);
        let mut depth = (1 + (self.id % 2) as u32).min(last);
        while !self.ctx.stopped {
            self.root_iteration(pos, key, depth as i32, &mut root);
            if depth >= empties || depth >= last {
                break;
            }
            depth += 1;
        }
    }

    pub(in crate::search) fn search_main(&mut self, pos: &Position<B>, clock: Instant) -> Report {
        self.search_main_among(pos, clock, self.rules.moves(pos))
    }

    fn search_main_among(&mut self, pos: &Position<B>, clock: Instant, among: B) -> Report {
        let key = self.zobrist.key(pos);
        let empties = self.rules.empty(pos).count();
        // Square weights order the first iteration; each iteration puts its best move first.
        let mut root: Vec<usize> = (self.rules.moves(pos) & among).iter().collect();
        root.sort_by_key(|&m| std::cmp::Reverse(self.square_weight[m]));
        let mut report = Report {
            best: root.first().copied(),
            score: 0,
            depth: 0,
            exact: false,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        // No move: nothing to think about.
        if root.is_empty() && self.config.depth.is_none() {
            report.elapsed = clock.elapsed();
            return report;
        }
        // One move: it is played soon, within a tenth of the time, but searched all the same,
        // so that its value is a real one.
        let mut limit = self.config.move_time;
        // Under a game clock, the time the move should take: iterations begin within it.
        let mut target = self.config.target_time.filter(|_| limit.is_some());
        if root.len() == 1 && self.config.depth.is_none() {
            limit = target.or(limit).map(|t| t / 10);
            target = None;
            self.ctx.deadline = limit.map(|t| clock + t.saturating_sub(time::margin(t)));
        }
        let last = self.config.depth.unwrap_or(u32::MAX).max(1);
        // How long the last two iterations took, to foresee the next.
        let mut latest = Duration::ZERO;
        // How far the target stretches where the position is critical, and what the last
        // iteration found, to tell.
        let mut stretch = 1.0;
        let mut last_found: Option<(usize, i32)> = None;
        // Near the end, under a time limit with the selective search on, the solve comes
        // twice: first selectively, cut by the end fits, then exactly. Only where the fits
        // reach two moves below the root: with fewer cut, it would be the exact solve again.
        let solve_selectively = self.config.probcut.is_some()
            && limit.is_some()
            && empties <= last
            && (self.eval.probcut())
                .is_some_and(|p| p.end_fit(empties.saturating_sub(2)).is_some());
        let mut depth = 1;
        let mut solved_selectively = false;
        while depth <= last {
            let selective = solve_selectively && depth >= empties && !solved_selectively;
            self.ctx.selective_end = selective;
            let began = clock.elapsed();
            let (score, best, complete) = self.root_iteration(pos, key, depth as i32, &mut root);
            if let Some(best) = best {
                report.best = Some(best);
                report.score = score.to_hundredths();
                if complete {
                    report.depth = depth;
                    report.exact = depth >= empties && !selective;
                }
            }
            if complete && self.observer.is_some() {
                self.ctx.progress.best = best.map(|m| (m, MoveValue::Hundredths(report.score)));
                self.ctx.progress.depth = depth;
                self.ctx.progress.pv = self.principal_variation(pos, key, best, depth as usize);
                self.notify();
            }
            if !complete || report.exact || self.ctx.stopped {
                break;
            }
            let previous = std::mem::replace(&mut latest, clock.elapsed() - began);
            if let (Some((best_before, value_before)), Some(best)) = (last_found, best) {
                let fell = report.score <= value_before - DISC;
                stretch = time::stretched(stretch, best != best_before, fell);
            }
            last_found = best.map(|b| (b, report.score));
            let go_on = match (target, limit) {
                (Some(target), Some(limit)) => time::worth_another_within_target(
                    clock.elapsed(),
                    previous,
                    latest,
                    target.mul_f64(stretch).min(limit),
                ),
                (None, Some(limit)) => {
                    time::worth_another(clock.elapsed(), previous, latest, limit)
                }
                (_, None) => true,
            };
            if !go_on {
                break;
            }
            if selective {
                solved_selectively = true;
            } else {
                depth += 1;
                if solve_selectively && depth + SELECTIVE_SOLVE_WITHIN >= empties {
                    depth = depth.max(empties);
                }
            }
        }
        self.ctx.selective_end = false;
        // The table may hold a longer line from earlier searches; only this search's depth is
        // backed by it (all of it when exact).
        let length = if report.exact {
            empties as usize
        } else {
            report.depth.max(1) as usize
        };
        report.pv = self.principal_variation(pos, key, report.best, length);
        report
    }

    /// One iteration over the root moves, best first. Returns the best score and move, and
    /// whether every move was searched; an interrupted iteration still returns its best move if
    /// the first (previously best) move was searched in full.
    pub(in crate::search) fn root_iteration(
        &mut self,
        pos: &Position<B>,
        key: u64,
        depth: i32,
        root: &mut [usize],
    ) -> (Score, Option<usize>, bool) {
        let mut alpha = -Score::INFINITY;
        let mut best = None;
        for i in 0..root.len() {
            let m = root[i];
            let (child, child_key) = self.after(pos, key, m, self.rules.flips(pos, m));
            let score = if i == 0 {
                -self.pvs(&child, child_key, depth - 1, -Score::INFINITY, -alpha, 1)
            } else {
                let probe = -self.pvs(&child, child_key, depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha && !self.ctx.stopped {
                    -self.pvs(&child, child_key, depth - 1, -Score::INFINITY, -alpha, 1)
                } else {
                    probe
                }
            };
            if self.ctx.stopped {
                return (alpha, best, false);
            }
            if score > alpha {
                alpha = score;
                best = Some(m);
                // Keep the best move first for the next iteration.
                root[..=i].rotate_right(1);
            }
        }
        if let Some(m) = best {
            // Where some moves were left out, a better one may be among them.
            let all = root.len() == self.rules.moves(pos).count() as usize;
            let bound = if all { Bound::Exact } else { Bound::Lower };
            self.store(key, depth, alpha, bound, Some(m));
        }
        (alpha, best, true)
    }

    pub(in crate::search) fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: Score,
        bound: Bound,
        best: Option<usize>,
    ) {
        let depth = depth.clamp(0, MAX_DEPTH as i32) as u8;
        self.table.store(
            TableSection::Main,
            key,
            Entry {
                score,
                best,
                depth,
                bound,
                cost: 0,
            },
        );
    }

    pub(in crate::search) fn pvs(
        &mut self,
        pos: &Position<B>,
        key: u64,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if self.count_node() {
            return Score(0);
        }
        let empties = self.rules.empty(pos).count() as i32;
        if empties <= depth {
            // Everything below is reached: solve exactly, in whole discs, within the window's
            // outcomes.
            let limit = self.rules.geometry.cell_count() as i32 + 1;
            let a = Outcome::at_most(alpha).clamp(-limit, limit);
            let b = Outcome::at_least(beta).clamp(-limit, limit);
            return Outcome(self.solve(pos, key, a, b, ply)).score();
        }
        let moves = self.rules.moves(pos);
        if moves.is_empty() {
            if self.rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                return Outcome(self.final_score(pos)).score();
            }
            let passed = self.rules.pass(pos);
            let key = self.zobrist.after_pass(key);
            return -self.pvs(&passed, key, depth, -beta, -alpha, ply + 1);
        }
        if depth <= 0 {
            return self.estimate(pos, key, moves);
        }

        let mut table_move = None;
        let tabled = depth >= TABLE_DEPTH || moves.count() > TABLE_MOVES;
        if let Some(e) = tabled
            .then(|| self.table.probe(TableSection::Main, key))
            .flatten()
        {
            table_move = e.best.filter(|&m| moves.contains(m));
            if e.depth as i32 >= depth && e.bound.settles(e.score, alpha, beta) {
                return e.score;
            }
        }

        // Step: a shallow search that predicts the deep one beyond the window cuts the node.
        if let Some(cut) = self.probcut(pos, key, depth, empties, alpha, beta, ply) {
            return cut;
        }

        let mut list = self.take_list(ply);
        // Near the leaves the square weights alone order the moves: they come listed in order.
        let by_square = depth < 3;
        if by_square {
            self.list_by_square(moves, table_move, &mut list);
        } else {
            self.list_moves(moves, table_move, &mut list);
        }
        if depth >= ETC_DEPTH {
            if let Some(score) = self.table_cut(pos, key, depth, beta, &mut list) {
                self.ctx.lists[ply] = list;
                return score;
            }
        }
        // At depth 1, the placements of `pos` read for the opponent, once one child is read
        // (see `frontier_child`).
        let mut before = None;
        let (best_score, best_move) = self.best_of(
            pos,
            key,
            &mut list,
            alpha,
            beta,
            false,
            |e, list| {
                if !by_square {
                    let look = if depth >= ESTIMATE_DEPTH {
                        OrderingKind::Estimate
                    } else {
                        OrderingKind::Replies
                    };
                    e.weigh(pos, moves.count(), look, list);
                }
            },
            |e, child, a, b| {
                if depth == 1 {
                    e.frontier_child(child, &mut before, a, b, ply + 1)
                } else {
                    e.pvs(child.pos, child.key, depth - 1, a, b, ply + 1)
                }
            },
        );
        self.ctx.lists[ply] = list;
        if self.ctx.stopped {
            return Score(0);
        }
        let bound = Bound::of(best_score, alpha, beta);
        if tabled || bound == Bound::Exact {
            self.store(key, depth, best_score, bound, best_move);
        }
        best_score
    }

    /// Multi-ProbCut at a null-window node: `beta` where a search [`shallow_depth`] moves deep
    /// shows, with the configured confidence, that one `depth` deep would reach it; `alpha`
    /// where it shows that one would stay at or below it; else `None`, and the node is searched
    /// in full. Windows of won or lost games, and the solve near the end, are never cut here
    /// (a selective solve cuts in the solver: `Engine::end_cut`).
    ///
    /// [`shallow_depth`]: super::probcut::shallow_depth
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &Position<B>,
        key: u64,
        depth: i32,
        empties: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        let confidence = self.config.probcut?;
        if depth < super::probcut::MIN_DEPTH as i32 || beta.0 - alpha.0 != 1 {
            return None;
        }
        let fit = *self.eval.probcut()?.fit_for(depth as u32, empties as u32)?;
        Some(
            match self.predict(pos, key, &fit, confidence, alpha.0, beta.0, ply)? {
                Prediction::AtLeastBeta => beta,
                Prediction::AtMostAlpha => alpha,
                Prediction::Stopped => Score(0),
            },
        )
    }

    /// Multi-ProbCut's test at the null window `(alpha, beta)`, in hundredths: whether a search
    /// `fit.shallow()` moves deep shows, with `confidence`, the value `fit` predicts at or above
    /// `beta`, or at or below `alpha`; `None` where it shows neither (and for windows of won or
    /// lost games). The midgame's cut and the selective solve's both ask it.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search) fn predict(
        &mut self,
        pos: &Position<B>,
        key: u64,
        fit: &Fit,
        confidence: Confidence,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<Prediction> {
        let shallow = fit.shallow() as i32;
        let estimate = WON / 2;
        if beta.abs() < estimate {
            let bound = fit.high_cut(beta, confidence);
            if bound.abs() < estimate {
                let s = self.pvs(pos, key, shallow, Score(bound - 1), Score(bound), ply);
                if self.ctx.stopped {
                    return Some(Prediction::Stopped);
                }
                if s >= Score(bound) {
                    return Some(Prediction::AtLeastBeta);
                }
            }
        }
        if alpha.abs() < estimate {
            let bound = fit.low_cut(alpha, confidence);
            if bound.abs() < estimate {
                let s = self.pvs(pos, key, shallow, Score(bound), Score(bound + 1), ply);
                if self.ctx.stopped {
                    return Some(Prediction::Stopped);
                }
                if s <= Score(bound) {
                    return Some(Prediction::AtMostAlpha);
                }
            }
        }
        None
    }

    /// The principal-variation loop: the first move of `list` with the full window, the others
    /// with a null window and a second look when they beat `alpha`. `value` gives a child's
    /// value for its own side to move within a window. Returns the best score (fail-soft) and
    /// move; stops at a cut-off or when the search is stopped.
    ///
    /// With `share`, threads that meet here share the moves out: every thread searches the
    /// first [`SEARCHED_BY_ALL`] moves in turn; after them, a move whose position another
    /// thread is searching is put off until the others are done, when the table most likely
    /// holds its value (ABDADA, Weill 1996). Lists longer than 64 moves put off none past the
    /// 64th. `order` orders the moves once the table's move at the head of the list (see
    /// [`Engine::list_moves`]), searched first, has not cut off.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search) fn best_of<V: Value>(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &mut [Candidate<B>],
        mut alpha: V,
        beta: V,
        share: bool,
        mut order: impl FnMut(&mut Self, &mut [Candidate<B>]),
        mut value: impl FnMut(&mut Self, AfterMove<'_, B>, V, V) -> V,
    ) -> (V, Option<usize>) {
        let mut best_score = V::LOWEST;
        let mut best_move = None;
        let table_first = list.first().is_some_and(Candidate::is_table_move);
        if !table_first {
            order(self, list);
        }
        // Moves put off, by place in the list.
        let mut later = 0u64;
        for pass in 0..2 {
            for i in 0..list.len() {
                if table_first && pass == 0 && i == 1 {
                    order(self, &mut list[1..]);
                    if self.ctx.stopped {
                        return (best_score, best_move);
                    }
                }
                if pass == 1 && later & (1 << i) == 0 {
                    continue;
                }
                let c = &list[i];
                let m = c.cell;
                let flips = c.flips(&self.rules, pos);
                let (child, child_key) = self.after(pos, key, m, flips);
                let child = AfterMove {
                    pos: &child,
                    key: child_key,
                    cell: m,
                    flips,
                };
                if share {
                    let busy = self.shared.busy_slot(child_key);
                    if pass == 0 && (SEARCHED_BY_ALL..64).contains(&i) && busy.load(Relaxed) > 0 {
                        later |= 1 << i;
                        continue;
                    }
                    busy.fetch_add(1, Relaxed);
                }
                let mut score;
                if i == 0 {
                    score = -value(self, child, -beta, -alpha);
                } else {
                    score = -value(self, child, -alpha - 1, -alpha);
                    if score > alpha && score < beta && !self.ctx.stopped {
                        score = -value(self, child, -beta, -alpha);
                    }
                }
                if share {
                    self.shared.busy_slot(child_key).fetch_sub(1, Relaxed);
                }
                if self.ctx.stopped {
                    return (best_score, best_move);
                }
                if score > best_score {
                    best_score = score;
                    best_move = Some(m);
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return (best_score, best_move);
                        }
                    }
                }
            }
            if later == 0 {
                break;
            }
        }
        (best_score, best_move)
    }

    /// A cut-off at a node `depth` moves from the horizon proved by the table alone: a move of
    /// `list` whose position after it is stored at least `depth - 1` deep with a value for its
    /// mover at most `-beta`. Each move's flips are kept in `list` for the search after.
    pub(in crate::search) fn table_cut(
        &self,
        pos: &Position<B>,
        key: u64,
        depth: i32,
        beta: Score,
        list: &mut [Candidate<B>],
    ) -> Option<Score> {
        let children = list.iter_mut().map(|c| {
            let flips = c.flips(&self.rules, pos);
            c.flips = Some(flips);
            self.zobrist.after_move(key, pos.to_move, c.cell, flips)
        });
        self.table.first_cut(
            children,
            |&child_key| (TableSection::Main, child_key),
            |_, e| {
                let deep = e.depth as i32 >= depth - 1 && e.bound != Bound::Lower;
                (deep && -e.score >= beta).then_some(-e.score)
            },
        )
    }

    /// [`Engine::pvs`] of `child` at depth 0, with the estimate read from `before` (see
    /// [`Evaluator::evaluate_after`](crate::search::Evaluator::evaluate_after)) where the child's side has moves: the same value for a
    /// few additions per child rather than a whole read.
    pub(in crate::search) fn frontier_child(
        &mut self,
        child: AfterMove<'_, B>,
        before: &mut Option<Indices>,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let moves = self.rules.moves(child.pos);
        if moves.is_empty() {
            return self.pvs(child.pos, child.key, 0, alpha, beta, ply);
        }
        if self.count_node() {
            return Score(0);
        }
        let score = self.eval.evaluate_after(
            &self.rules,
            before,
            child.cell,
            child.flips,
            child.pos,
            weights::both_moves(&self.rules, child.pos, moves),
        );
        self.varied(score, child.key)
    }

    /// Follows the table's best moves from `pos`, for at most `length` moves.
    pub(in crate::search) fn principal_variation(
        &self,
        pos: &Position<B>,
        key: u64,
        first: Option<usize>,
        length: usize,
    ) -> Vec<usize> {
        let mut line = Vec::new();
        let (mut pos, mut key) = (*pos, key);
        let mut next = first;
        while let Some(m) = next {
            if line.len() >= length || !self.rules.moves(&pos).contains(m) {
                break;
            }
            line.push(m);
            (pos, key) = self.after(&pos, key, m, self.rules.flips(&pos, m));
            if self.rules.moves(&pos).is_empty() {
                pos = self.rules.pass(&pos);
                key = self.zobrist.after_pass(key);
            }
            next = self
                .table
                .probe(TableSection::Main, key)
                .and_then(|e| e.best);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    /// Positions where exactly one move wins, the winning move, and its exact value.
    const FORCED_WINS: &[(&[&str], Color, &str, i32)] = &[
        // 4x4: only d4 (flipping c3 and d3) wins; the other moves lose.
        (
            &[". . . .", ". B B B", ". W W W", ". . . ."],
            Color::Black,
            "d4",
            8,
        ),
        // 5x5: b5 flips b3 and b4, the only white discs: a wipeout, 12-0 with 14 cells empty.
        (
            &[
                ". . . B .",
                ". B B B B",
                "B W B . B",
                ". W . . .",
                ". . B . .",
            ],
            Color::Black,
            "b5",
            12,
        ),
        // 6x6: a5 flips all three white discs (b4 and c3 diagonally, b5 along the row).
        (
            &[
                "B . . . . .",
                "B B B B B .",
                "B B W . B B",
                "B W . B . .",
                ". W B B B B",
                ". B . B B .",
            ],
            Color::Black,
            "a5",
            23,
        ),
        // 5x6: the corner a1 wins by 28; everything else loses.
        (
            &[
                ". W W W B .",
                "W B B B B .",
                "B W B W B .",
                ". . W . . .",
                ". W W W . .",
            ],
            Color::Black,
            "a1",
            28,
        ),
        // 6x6, white to move: the corner a1 wins by 7, the rest lose by 8 or more.
        (
            &[
                ". B W . B .",
                "B W W B B B",
                "B B W W B B",
                "B B B B B B",
                "B . B W W B",
                ". . . W . .",
            ],
            Color::White,
            "a1",
            7,
        ),
    ];

    #[test]
    fn forced_wins_are_found_at_shallow_depth() {
        for &(rows, to_move, win, value) in FORCED_WINS {
            let (r, c, pos) = board(rows, to_move);
            let mut e = engine::<u64>(r, c, FULL, Config::to_depth(64));
            let solved = e.solve_exact(&pos, true);
            let winners: Vec<String> = solved
                .moves
                .iter()
                .filter(|&&(_, v)| v > 0)
                .map(|&(m, _)| name(c, m))
                .collect();
            assert_eq!(winners, [win], "{rows:?}: {:?}", solved.moves);
            assert_eq!(solved.score, value, "{rows:?}");
            assert_eq!(solved.best, Some(cell(c, win)));
            for d in 1..=3 {
                let report = engine::<u64>(r, c, FULL, Config::to_depth(d)).search(&pos);
                assert_eq!(
                    report.best.map(|m| name(c, m)).as_deref(),
                    Some(win),
                    "depth {d} on {rows:?}: {report:?}"
                );
            }
        }
    }

    /// Black's c2 turns over b2, b3 and c3, every white disc: the game ends 10-0 with seven cells
    /// empty. Every other move loses (a1 by 2). A move that ends the game with a win must beat any
    /// estimate of a game still going on, so even a one-move search has to find it.
    #[test]
    fn a_wipeout_beats_every_estimate() {
        let rows = [". . . .", "B W . B", ". W W .", "B B B B"];
        let (r, c, pos) = board(&rows, Color::Black);
        let mut e = engine::<u64>(r, c, FULL, Config::to_depth(64));
        let solved = e.solve_exact(&pos, true);
        assert_eq!(solved.moves[0], (cell(c, "c2"), 10));
        assert!(solved.moves[1..].iter().all(|&(_, v)| v < 0));
        let after = e.rules().play_unchecked(&pos, cell(c, "c2"));
        assert!(after.white.is_empty());
        let chosen: Vec<(u32, String, i32)> = (1..=3)
            .map(|d| {
                let report = engine::<u64>(r, c, FULL, Config::to_depth(d)).search(&pos);
                (d, name(c, report.best.unwrap()), report.score)
            })
            .collect();
        assert!(
            chosen.iter().all(|(_, m, _)| m == "c2"),
            "(depth, move, score): {chosen:?}"
        );
    }

    /// White's a1 turns over b1 and leaves black without a move, so white moves twice in a
    /// row; it wins by 18 and every other move loses by 16 or more.
    #[test]
    fn a_forced_pass_is_searched_through() {
        let rows = [". B W . .", "W W B . .", "W B B B .", "B . . . ."];
        let (r, c, pos) = board(&rows, Color::White);
        let empties = 10;
        let mut e = engine::<u64>(r, c, FULL, Config::to_depth(empties));
        let rules = e.rules().clone();
        assert_eq!(rules.empty(&pos).count(), empties);
        let solved = e.solve_exact(&pos, true);
        assert_eq!(solved.moves[0], (cell(c, "a1"), 18));
        assert!(solved.moves[1..].iter().all(|&(_, v)| v <= -16));
        let after = rules.play_unchecked(&pos, cell(c, "a1"));
        assert!(rules.moves(&after).is_empty(), "black must pass");
        assert!(!rules.is_over(&after));

        for report in [
            e.search(&pos),
            engine::<u64>(r, c, FULL, Config::to_depth(empties)).search(&pos),
        ] {
            assert!(report.exact, "{report:?}");
            assert_eq!(report.score, 18 * DISC);
            assert_eq!(report.best, Some(cell(c, "a1")));
            // The line goes on with white's second move, after black's pass.
            assert_eq!(report.pv[0], cell(c, "a1"), "{report:?}");
            assert!(report.pv.len() >= 2, "{report:?}");
            assert!(rules.moves(&rules.pass(&after)).contains(report.pv[1]));
            // The whole line is playable, passes made where forced.
            let mut line = pos;
            for &m in &report.pv {
                if rules.moves(&line).is_empty() {
                    line = rules.pass(&line);
                }
                assert!(rules.moves(&line).contains(m), "{:?}", report.pv);
                line = rules.play_unchecked(&line, m);
            }
        }
        // A shallow search sees the pass too: white's second move follows at once.
        let report = engine::<u64>(r, c, FULL, Config::to_depth(2)).search(&pos);
        assert_eq!(report.best, Some(cell(c, "a1")));
        assert_eq!(report.pv.len(), 2, "{report:?}");
        assert!(rules.moves(&rules.pass(&after)).contains(report.pv[1]));
    }

    /// White to move, seven cells empty. In the normal game c1 (flipping b1, b2 and c2) wins by 12;
    /// under misère the same c1 is white's worst move (lost by 11)
    /// and d2, worth +2, is the only win.
    #[test]
    fn misere_changes_the_best_move() {
        let rows = ["W B . .", "W B B .", "W B W .", ". B . ."];
        let (r, c, pos) = board(&rows, Color::White);
        let mut normal = engine::<u64>(r, c, FULL, Config::to_depth(64));
        let mut misere = engine::<u64>(r, c, MISERE, Config::to_depth(64));
        let n = normal.solve_exact(&pos, true);
        let m = misere.solve_exact(&pos, true);
        let values = |s: &Solved| -> Vec<(String, i32)> {
            s.moves.iter().map(|&(x, v)| (name(c, x), v)).collect()
        };
        assert_eq!(
            values(&n),
            [("c1".to_string(), 12), ("d2".into(), 10), ("c4".into(), -2)]
        );
        assert_eq!(
            values(&m),
            [("d2".to_string(), 2), ("c4".into(), -4), ("c1".into(), -11)]
        );
        assert_eq!(minimax(normal.rules(), &pos, Scoring::Plain), 12);
        assert_eq!(minimax(misere.rules(), &pos, Scoring::Plain), 2);
        let (rn, rm) = (normal.search(&pos), misere.search(&pos));
        assert_eq!(
            (rn.best, rn.score, rn.exact),
            (Some(cell(c, "c1")), 12 * DISC, true)
        );
        assert_eq!(
            (rm.best, rm.score, rm.exact),
            (Some(cell(c, "d2")), 2 * DISC, true)
        );
    }

    /// White to move, four cells empty. In the normal game white has a4, a5 and b5 and loses by 3
    /// at best (a4); with place-anywhere the corner a1, which flanks nothing, wins by 1.
    #[test]
    fn place_anywhere_changes_the_best_move() {
        let rows = [
            ". W W B B",
            "B W W B B",
            "B W W B W",
            ". B W W W",
            ". . B B W",
        ];
        let (r, c, pos) = board(&rows, Color::White);
        let mut normal = engine::<u64>(r, c, FULL, Config::to_depth(64));
        let mut anywhere = engine::<u64>(r, c, PLACE_ANYWHERE, Config::to_depth(64));
        let a1 = cell(c, "a1");
        assert!(!normal.rules().moves(&pos).contains(a1));
        let n = normal.solve_exact(&pos, true);
        let p = anywhere.solve_exact(&pos, true);
        assert_eq!(n.score, -3);
        assert_eq!(best_moves(c, &n), ["a4"]);
        assert_eq!((p.score, p.best), (1, Some(a1)));
        assert_eq!(best_moves(c, &p), ["a1"]);
        assert_eq!(p.moves.len(), 4, "every empty cell is a move");
        assert!(anywhere.rules().flips(&pos, a1).is_empty());
        assert_eq!(minimax(anywhere.rules(), &pos, Scoring::Plain), 1);
        let report = anywhere.search(&pos);
        assert_eq!(
            (report.best, report.score, report.exact),
            (Some(a1), DISC, true)
        );
    }

    /// A search with a 20 ms limit, from a position a few moves into a game, on `rows` x `cols`.
    fn timed_search<B: Bits>(rows: usize, cols: usize) {
        let rules = Rules::<B>::new(crate::rules::Shape::new(rows, cols).unwrap(), FULL).unwrap();
        let cells = (rows * cols) as u32;
        let pos = random_position(&rules, 3, cells - 14);
        let config = Config::for_time(Duration::from_millis(20));
        let mut e = Engine::new(rules.clone(), config.clone());
        let clock = Instant::now();
        let report = e.search(&pos);
        let took = clock.elapsed();
        assert!(rules.moves(&pos).contains(report.best.unwrap()));
        assert!(report.depth >= 1, "{report:?}");
        // The bar is 25 ms, measured elsewhere; this only catches a search that ignores the clock.
        assert!(took < Duration::from_millis(100), "{rows}x{cols}: {took:?}");
        assert!(report.elapsed <= took);
    }

    #[test]
    fn a_time_limit_is_kept_on_the_largest_board() {
        timed_search::<Words<11>>(26, 26);
    }

    #[test]
    fn a_time_limit_is_kept_on_eight_by_eight() {
        timed_search::<u64>(8, 8);
    }

    #[test]
    fn searches_repeat_exactly() {
        let rules = rules_for::<u64>(8, 8, FULL);
        let pos = random_position(&rules, 11, 50);
        for config in [Config::to_depth(5), Config::to_depth(5).with_seed(9)] {
            let first = Engine::new(rules.clone(), config.clone()).search(&pos);
            let second = Engine::new(rules.clone(), config.clone()).search(&pos);
            let key = |r: &Report| (r.best, r.score, r.depth, r.exact, r.nodes, r.pv.clone());
            assert_eq!(key(&first), key(&second));
            assert!(first.nodes > 0);
        }
    }

    /// A whole game between two engines with the same settings on 6x6.
    fn engine_game(config: Config) -> Vec<usize> {
        let rules = rules_for::<u64>(6, 6, FULL);
        let mut e = Engine::new(rules.clone(), config.clone());
        let mut pos = rules.start(Color::Black, Color::White);
        let mut moves = Vec::new();
        while !rules.is_over(&pos) {
            if rules.moves(&pos).is_empty() {
                pos = rules.pass(&pos);
                continue;
            }
            let m = e.search(&pos).best.unwrap();
            assert!(rules.moves(&pos).contains(m));
            moves.push(m);
            pos = rules.play_unchecked(&pos, m);
        }
        moves
    }

    #[test]
    fn seeds_vary_the_play_and_repeat_it() {
        let seeded = |s| Config::to_depth(2).with_seed(s);
        assert_eq!(
            engine_game(Config::to_depth(2)),
            engine_game(Config::to_depth(2))
        );
        assert_eq!(engine_game(seeded(4)), engine_game(seeded(4)));
        let mut games: Vec<Vec<usize>> = (1..=6).map(|s| engine_game(seeded(s))).collect();
        games.sort();
        games.dedup();
        assert!(games.len() >= 2, "six seeds, one game");
    }

    /// A finished game is worth its final difference; a side that must pass has no move to play.
    #[test]
    fn finished_and_passing_positions() {
        // White has no disc: the game is over, black is 5 ahead (or behind, under misère).
        let (r, c, over) = board(&[". . .", ". B B", "B B B"], Color::White);
        for (variant, want) in [(FULL, -5), (MISERE, 5)] {
            let mut e = engine::<u64>(r, c, variant, Config::to_depth(9));
            assert!(e.rules().is_over(&over));
            let solved = e.solve_exact(&over, true);
            assert_eq!((solved.score, solved.best), (want, None));
            assert!(solved.moves.is_empty());
            let report = e.search(&over);
            assert_eq!(report.best, None);
            assert!(!report.exact || report.score == want * DISC, "{report:?}");
        }
        // Black cannot move, white can.
        let (r, c, pass) = board(&["W W .", "W B .", ". . ."], Color::Black);
        let mut e = engine::<u64>(r, c, FULL, Config::to_depth(9));
        assert!(e.rules().moves(&pass).is_empty());
        assert!(!e.rules().is_over(&pass));
        let solved = e.solve_exact(&pass, true);
        assert_eq!(solved.best, None);
        assert_eq!(solved.score, minimax(e.rules(), &pass, Scoring::Plain));
        // The search has nothing to choose; whatever it reports is not wrong if it claims to be exact.
        let report = e.search(&pass);
        assert_eq!(report.best, None);
        assert!(
            !report.exact || report.score == solved.score * DISC,
            "{report:?}"
        );
    }
}
