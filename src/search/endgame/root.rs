//! The root of a solve: the main thread's pass over the root moves, each searched against the
//! best so far, and what the solve proves.

use super::results::{RootMoves, Solved, Windowed};
use super::subsets::{Subsets, SUBSETS_UP_TO};
use super::thresholds::ROOT_SORT_DEPTH;
use super::ties::{probe_window, TieTest};
use crate::rules::{Bits, Position, RuleSet};
use crate::search::engine::Engine;
use crate::search::midgame::OrderingKind;
use crate::search::moves::Candidate;
use crate::search::progress::{MoveValue, RootValue, SolveProgress};
use crate::search::score::{in_discs, Outcome};
use crate::search::shared::Shared;
use crate::search::table::{Bound, Entry, TableSection, SOLVED};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A solve's root: the position, its key, its moves in the order every thread takes them,
/// which values it proves, the first move's estimate, and a bound beyond every value.
struct Root<'a, B> {
    pos: &'a Position<B>,
    key: u64,
    list: &'a [Candidate<B>],
    which: RootMoves,
    guess: Option<i32>,
    limit: i32,
}

/// What the main thread knows as it goes over the root moves.
struct Round {
    /// For each move, the earlier move a symmetry of the position maps it to: moves so mapped
    /// have the same value, and each is searched once, through the first of its kind.
    twins: Vec<Option<usize>>,
    /// The moves with exact values, and every move searched with what it proved.
    values: Vec<(usize, i32)>,
    known: Vec<(usize, RootValue)>,
    /// The best value so far.
    alpha: i32,
    done: usize,
}

impl Round {
    /// What is known of the earlier move that root move `i` is a twin of, if any.
    fn twin_value(&self, i: usize) -> Option<RootValue> {
        let twin = self.twins[i]?;
        self.known
            .iter()
            .find(|&&(k, _)| k == twin)
            .map(|&(_, v)| v)
    }
}

/// The root moves in the order the main thread takes them. The first is its own; the others go
/// to whichever thread takes them first, and those the helpers took come back here last, when
/// their values are mostly in the table.
struct Queue {
    n: usize,
    started: bool,
    taken: usize,
    deferred: Vec<usize>,
}

impl Queue {
    fn new(n: usize, shared: &Shared) -> Queue {
        shared.next.store(1, Relaxed);
        Queue {
            n,
            started: false,
            taken: 0,
            deferred: Vec::new(),
        }
    }

    fn next(&mut self, shared: &Shared) -> Option<usize> {
        if !self.started {
            self.started = true;
            return Some(0);
        }
        let next = shared.next.fetch_add(1, Relaxed).min(self.n);
        self.deferred.extend(self.taken + 1..next);
        self.taken = next;
        if next < self.n {
            Some(next)
        } else if !self.deferred.is_empty() {
            Some(self.deferred.remove(0))
        } else {
            None
        }
    }
}

impl<B: Bits> Engine<B> {
    /// Solves `pos` exactly, ignoring the time limit. With `all_moves`, every move gets its
    /// exact value; otherwise only the best one is proved.
    pub fn solve_exact(&mut self, pos: &Position<B>, all_moves: bool) -> Solved {
        let which = if all_moves {
            RootMoves::All
        } else {
            RootMoves::Best
        };
        self.solve_root(pos, which)
    }

    /// Solves `pos` exactly, ignoring the time limit, proving the values `which` asks for.
    /// `Solved::moves` holds the moves proved exact (none for [`RootMoves::Best`]), best first.
    pub fn solve_root(&mut self, pos: &Position<B>, which: RootMoves) -> Solved {
        self.solve_root_within(pos, which, None)
            .expect("a solve without a time limit always finishes")
    }

    /// As [`Engine::solve_root`], giving up (`None`) once `limit` has passed.
    pub fn solve_root_within(
        &mut self,
        pos: &Position<B>,
        which: RootMoves,
        limit: Option<Duration>,
    ) -> Option<Solved> {
        let clock = Instant::now();
        self.begin(clock, limit);
        self.prepare_subsets(pos);
        if self.ctx.stopped {
            return None;
        }
        // Every thread goes through the root moves in this order.
        let (list, guess) = self.root_list(pos);
        let mut solved = self.with_helpers(
            |e| e.solve_root_inner(pos, which, clock, &list, guess),
            |h| h.help_solve(pos, which, &list, guess),
        );
        solved.nodes = self.ctx.nodes;
        (!self.ctx.stopped).then_some(solved)
    }

    /// The root moves of a solve of `pos` in the order it tries them, and, where it sorts them
    /// by search, the estimate of the first in discs.
    pub(super) fn root_list(&mut self, pos: &Position<B>) -> (Vec<Candidate<B>>, Option<i32>) {
        let mut list = Vec::new();
        let key = self.zobrist.key(pos);
        let deepen = self.sorts_by_search(self.rules.empty(pos).count());
        // The searches below find the table's move again if it is any good.
        let table_move = if deepen {
            None
        } else {
            self.table
                .probe(TableSection::Main, key)
                .and_then(|e| e.best)
        };
        self.order(
            pos,
            self.rules.moves(pos),
            table_move,
            OrderingKind::Solve,
            &mut list,
        );
        let mut guess = None;
        if deepen && !list.is_empty() {
            for depth in 1..=ROOT_SORT_DEPTH {
                self.sort_by_search(pos, key, &mut list, depth, 0);
            }
            guess = Some(in_discs(list[0].weight));
        }
        (list, guess)
    }

    /// The root moves in the order a solve of `pos` from an empty table tries them: among
    /// moves of equal value, the order in which a solve lists them.
    pub fn root_order(&mut self, pos: &Position<B>) -> Vec<usize> {
        self.clear();
        self.begin(Instant::now(), None);
        self.root_list(pos).0.iter().map(|c| c.cell).collect()
    }

    /// Prepares what a solve of `root` prepares before it searches: under SIMPLE rules the
    /// values of the sets of empty cells, which order moves. A line of perfect play from a
    /// later position then tries moves in the order a solve of `root` would have.
    pub fn prepare_for(&mut self, root: &Position<B>) {
        self.prepare_subsets(root);
    }

    /// What `pos` is worth within the window `(alpha, beta)`: fail-soft, so a score at or
    /// below `alpha` is an upper bound and one at or above `beta` a lower bound. Gives up
    /// (`None`) once `limit` has passed or the observer stops it; with a journal, what the
    /// search proved is kept there, the root's bound too, for the next run to go on from.
    pub fn solve_window_within(
        &mut self,
        pos: &Position<B>,
        alpha: i32,
        beta: i32,
        limit: Option<Duration>,
    ) -> Option<Windowed> {
        let clock = Instant::now();
        self.begin(clock, limit);
        self.prepare_subsets(pos);
        if self.ctx.stopped {
            return None;
        }
        let key = self.zobrist.key(pos);
        let (list, _) = self.root_list(pos);
        let (score, best) = self.with_helpers(
            |e| e.solve_window_inner(pos, key, &list, alpha, beta),
            |h| {
                h.ctx.nodes = 0;
                h.solve(pos, key, alpha, beta, 0);
            },
        );
        if self.ctx.stopped {
            return None;
        }
        if let Some(journal) = &self.solver.journal {
            journal.record(pos, score, alpha, beta);
        }
        Some(Windowed {
            score,
            best,
            nodes: self.ctx.nodes,
            elapsed: clock.elapsed(),
        })
    }

    /// The main thread's part of [`Engine::solve_window_within`]: the root moves in turn,
    /// each kept in the journal, so that the best move comes back with the score.
    pub(super) fn solve_window_inner(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &[Candidate<B>],
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<usize>) {
        if list.is_empty() {
            return (self.solve(pos, key, alpha, beta, 0), None);
        }
        let limit = self.rules.geometry.cell_count() as i32 + 1;
        let (mut best, mut best_move) = (-limit, None);
        for c in list {
            let (child, child_key) = self.after(pos, key, c.cell, c.flips(&self.rules, pos));
            let value = -self.solve_root_move(&child, child_key, -beta, -alpha.max(best));
            if self.ctx.stopped {
                break;
            }
            if value > best {
                (best, best_move) = (value, Some(c.cell));
                if best >= beta {
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// The main thread's part of a solve, over the root moves in `list`'s order.
    pub(super) fn solve_root_inner(
        &mut self,
        pos: &Position<B>,
        which: RootMoves,
        clock: Instant,
        list: &[Candidate<B>],
        guess: Option<i32>,
    ) -> Solved {
        let root = Root {
            pos,
            key: self.zobrist.key(pos),
            list,
            which,
            guess,
            limit: self.rules.geometry.cell_count() as i32 + 1,
        };
        if list.is_empty() {
            let score = self.solve(pos, root.key, -root.limit, root.limit, 0);
            return self.solved(score, None, Vec::new(), clock);
        }
        self.ctx.progress = SolveProgress {
            total: list.len(),
            ..SolveProgress::default()
        };
        let mut round = Round {
            twins: self.twins(pos, list),
            values: Vec::new(),
            known: Vec::new(),
            alpha: -root.limit,
            done: 0,
        };
        self.shared.alpha.store(round.alpha, Relaxed);
        let mut queue = Queue::new(list.len(), &self.shared);
        while let Some(i) = queue.next(&self.shared) {
            let m = list[i].cell;
            if let Some(twin) = round.twin_value(i) {
                self.take_twin(&mut round, which, i, m, twin);
                continue;
            }
            self.ctx.progress.current = Some(m);
            self.notify();
            let result = self.root_move_value(&root, i, round.alpha);
            if self.ctx.stopped {
                break;
            }
            self.shared.finish(i);
            self.take_value(&mut round, i, m, result);
        }
        if self.tie_test(which) == TieTest::Afterwards && !self.ctx.stopped {
            self.add_ties(&root, &mut round);
        }
        self.root_result(&root, round.values, clock)
    }

    /// What a search of root move `i` proves: the first move's exact value, each move's under
    /// [`RootMoves::All`], otherwise a bound or value against the best so far (`alpha`).
    fn root_move_value(&mut self, root: &Root<'_, B>, i: usize, alpha: i32) -> RootValue {
        let m = root.list[i].cell;
        let (child, child_key) = self.after(root.pos, root.key, m, self.rules.flips(root.pos, m));
        let limit = root.limit;
        if i == 0 {
            RootValue::Exact(self.solve_above(&child, child_key, -limit, root.guess, limit))
        } else if root.which == RootMoves::All {
            RootValue::Exact(-self.solve_root_move(&child, child_key, -limit, limit))
        } else {
            let estimate = root.guess.map(|_| in_discs(root.list[i].weight));
            let which = root.which;
            self.probe_root_move(&child, child_key, i, which, Some(alpha), estimate, limit)
        }
    }

    /// Root move `i` (cell `m`) has the value `twin` of an earlier move that a symmetry maps
    /// it to: counted as done without a search.
    fn take_twin(
        &mut self,
        round: &mut Round,
        which: RootMoves,
        i: usize,
        m: usize,
        twin: RootValue,
    ) {
        if let RootValue::Exact(score) = twin {
            if which != RootMoves::Best {
                round.values.push((m, score));
            }
        }
        self.shared.finish(i);
        round.done += 1;
        self.ctx.progress.done = round.done;
        self.ctx.progress.last = Some((m, twin));
        self.notify();
    }

    /// Root move `i` (cell `m`) was searched: its value raises the best so far, which every
    /// thread's floor then follows.
    fn take_value(&mut self, round: &mut Round, i: usize, m: usize, result: RootValue) {
        round.known.push((m, result));
        if let RootValue::Exact(score) = result {
            round.values.push((m, score));
            if score > round.alpha {
                round.alpha = score;
                self.shared.alpha.fetch_max(score, Relaxed);
                self.ctx.progress.best = Some((m, MoveValue::Discs(score)));
            }
        }
        if i == 0 {
            self.shared.first_done.store(true, Relaxed);
        }
        round.done += 1;
        self.ctx.progress.done = round.done;
        self.ctx.progress.last = Some((m, result));
        self.notify();
    }

    /// The round of ties after the value is known ([`TieTest::Afterwards`]): the moves no
    /// better than the best but not shown worse are tested, and their images follow them.
    fn add_ties(&mut self, root: &Root<'_, B>, round: &mut Round) {
        let (list, alpha) = (root.list, round.alpha);
        let open = RootValue::AtMost(alpha);
        let n = list.len();
        let places: Vec<usize> = (0..n)
            .filter(|&i| round.twins[i].is_none() && round.known.contains(&(list[i].cell, open)))
            .collect();
        for i in self.test_ties(root.pos, root.key, list, &places, alpha) {
            let images = (0..n).filter(|&j| j == i || round.twins[j] == Some(list[i].cell));
            round.values.extend(images.map(|j| (list[j].cell, alpha)));
        }
    }

    /// The solve's answer from the exact `values` of root moves: best first, among equal values
    /// the first in the list however the threads shared the moves out; kept in the table.
    fn root_result(
        &mut self,
        root: &Root<'_, B>,
        mut values: Vec<(usize, i32)>,
        clock: Instant,
    ) -> Solved {
        let place = |m: usize| root.list.iter().position(|c| c.cell == m);
        values.sort_by_key(|&(m, s)| (std::cmp::Reverse(s), place(m)));
        let Some(&(best, score)) = values.first() else {
            // Stopped before the first move was solved: nothing is known.
            return self.solved(0, None, Vec::new(), clock);
        };
        match root.which {
            RootMoves::Best => values.clear(),
            RootMoves::Ties => values.retain(|&(_, s)| s == score),
            RootMoves::All => {}
        }
        if !self.ctx.stopped {
            self.table.store(
                TableSection::Main,
                root.key,
                Entry {
                    score: Outcome(score).score(),
                    best: Some(best),
                    depth: SOLVED,
                    bound: Bound::Exact,
                    cost: Entry::cost_of(self.ctx.nodes),
                },
            );
        }
        self.solved(score, Some(best), values, clock)
    }

    /// A [`Solved`] with this call's nodes and time.
    fn solved(
        &self,
        score: i32,
        best: Option<usize>,
        moves: Vec<(usize, i32)>,
        clock: Instant,
    ) -> Solved {
        Solved {
            score,
            best,
            moves,
            nodes: self.ctx.nodes,
            elapsed: clock.elapsed(),
        }
    }

    /// [`Engine::solve`] of the position after a root move, kept in the journal however small
    /// the search: a solve stopped once every root move has been searched leaves a journal
    /// that proves the root's value.
    pub(super) fn solve_root_move(
        &mut self,
        pos: &Position<B>,
        key: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let value = self.solve(pos, key, alpha, beta, 1);
        if let (Some(journal), false) = (&self.solver.journal, self.ctx.stopped) {
            journal.record(pos, value, alpha, beta);
        }
        value
    }

    /// What a search of root move `i` after the first (`pos` the position after it) proves,
    /// against the best value so far: the main thread's own (`best`), or for a helper (`None`)
    /// the floor the threads share, whose values only reach the main thread through the table.
    /// The main thread searches against the shared floor less one where that is higher than
    /// its own, so that a move as good as another thread's best is still found exact. A search
    /// whose floor another thread raises starts again from the new one.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probe_root_move(
        &mut self,
        pos: &Position<B>,
        key: u64,
        i: usize,
        which: RootMoves,
        best: Option<i32>,
        estimate: Option<i32>,
        limit: i32,
    ) -> RootValue {
        loop {
            let shared = self.shared.alpha.load(Relaxed);
            let (floor, watch) = match best {
                Some(best) if best >= shared - 1 => (best, best + 1),
                Some(_) => (shared - 1, shared),
                None => (shared, shared),
            };
            let (bar, top) = probe_window(self.tie_test(which), floor);
            self.ctx.watch = Some(watch);
            let probe = -self.solve_root_move(pos, key, -top, -bar);
            self.ctx.watch = None;
            if std::mem::take(&mut self.ctx.outdated) {
                self.ctx.stopped = false;
                continue;
            }
            if probe <= bar || self.ctx.stopped {
                return RootValue::AtMost(probe);
            }
            if probe < top {
                return RootValue::Exact(probe);
            }
            self.shared.alpha.fetch_max(top, Relaxed);
            let claimed = self
                .shared
                .resolving
                .compare_exchange(0, i + 1, Relaxed, Relaxed)
                .is_ok();
            let score = self.solve_above(pos, key, floor, estimate, limit);
            if claimed {
                self.shared.resolving.store(0, Relaxed);
            }
            if self.ctx.stopped {
                return RootValue::AtMost(probe);
            }
            if score > floor {
                self.shared.alpha.fetch_max(score, Relaxed);
            }
            return RootValue::Exact(score.max(floor));
        }
    }

    /// The value, for the root's side, of a root move worth more than `floor` (`pos` the
    /// position after it; the first root move's floor is `-limit`, below every value):
    /// searched in windows a disc either side of `estimate` (at least the floor), widened as
    /// the value falls outside, the bounds each proves shared with the other threads as it
    /// goes; without an estimate, in the window above the floor.
    pub(super) fn solve_above(
        &mut self,
        pos: &Position<B>,
        key: u64,
        floor: i32,
        estimate: Option<i32>,
        limit: i32,
    ) -> i32 {
        let Some(estimate) = estimate else {
            return -self.solve_root_move(pos, key, -limit, -floor.min(limit - 1));
        };
        let mut low = floor.max(estimate - 1).min(limit - 2);
        let mut high = low + 2;
        let mut width = 2;
        loop {
            let value = -self.solve_root_move(pos, key, -high, -low);
            width *= 2;
            if self.ctx.stopped {
                return value;
            }
            if value <= low && low > floor && value > floor {
                (low, high) = ((value - width).max(floor), value + 1);
            } else if value >= high && high < limit {
                self.shared.alpha.fetch_max(high, Relaxed);
                (low, high) = (value - 1, (value + width).min(limit));
            } else {
                return value;
            }
        }
    }
}

impl<B: Bits> Engine<B> {
    /// Before a solve of `pos`: values every set of its empty cells, one byte a set, under
    /// SIMPLE rules where `pos` has up to [`SUBSETS_UP_TO`] empty cells and from
    /// [`SUBSETS_FROM`](super::SUBSETS_FROM) (the solver tables' `subsets_from`) under place-anywhere, whose solve they
    /// answer, or from [`ORDER_FROM`](super::ORDER_FROM) (`order_from`) in the normal game under standard
    /// placement, whose solve they order; if the table's memory would hold them (`--hash-mb`)
    /// and the sets already valued do not cover `pos`. The sets count as nodes; a solve
    /// stopped meanwhile keeps none, and one refused the memory goes on without them.
    pub(super) fn prepare_subsets(&mut self, pos: &Position<B>) {
        let variant = self.rules.variant;
        let empty = self.rules.empty(pos);
        if let Some(subsets) = &self.solver.subsets {
            if subsets.covers(empty) {
                return;
            }
        }
        self.solver.subsets = None;
        let n = empty.count();
        let from = match (variant.place_anywhere, variant.misere) {
            (true, _) => self.solver.subsets_from,
            (false, false) => self.solver.order_from,
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
        self.ctx.progress.sets = 1 << n;
        let threads = self.config.threads.max(1);
        self.solver.subsets =
            Subsets::new(&rules, empty, threads, |sets| self.count_nodes(sets)).map(Arc::new);
        self.ctx.progress.sets = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    #[test]
    fn a_timed_solve_gives_up_or_agrees_with_an_untimed_one() {
        let mut e = engine::<u64>(5, 6, FULL, Config::default());
        let start = e.rules().start(Color::Black, Color::White);
        // 5x6 takes seconds: 10 ms is not enough.
        let clock = Instant::now();
        assert_eq!(
            e.solve_root_within(&start, RootMoves::Best, Some(Duration::from_millis(10))),
            None
        );
        assert!(clock.elapsed() < Duration::from_millis(500));
        let mut e = engine::<u64>(4, 4, FULL, Config::default());
        let start = e.rules().start(Color::Black, Color::White);
        let timed = e
            .solve_root_within(&start, RootMoves::Ties, Some(Duration::from_secs(60)))
            .unwrap();
        e.clear();
        let untimed = e.solve_root(&start, RootMoves::Ties);
        assert_eq!((timed.score, &timed.moves), (untimed.score, &untimed.moves));
    }
}
