//! The tie policy of a solve that wants every best move: how it tells a tie from a worse move.

use super::results::RootMoves;
use crate::rules::{Bits, Position};
use crate::search::engine::Engine;
use crate::search::moves::Candidate;
use crate::search::progress::RootValue;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::time::Duration;

/// How a solve that wants every best move tells a tie from a worse root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TieTest {
    /// None are wanted ([`RootMoves::Best`], [`RootMoves::All`]).
    None,
    /// Within the first search of each move: a window a disc either side of the best value so
    /// far tells worse, tie and better apart at once.
    InWindow,
    /// In a second round, once every move has been searched against the best and the value is
    /// known (see [`Engine::test_ties`]). For a solve that keeps a journal: stopped among the
    /// ties, it has proved its value. It takes a few more nodes than testing in the window,
    /// so a solve that keeps no journal tests in the window.
    Afterwards,
}

/// The window in which a root move after the first is searched first, when `alpha` is the
/// best value so far: one above it shows a move no better (or, with ties tested in the window,
/// worse) than the best; a tie lies inside the window for ties; a move above it is searched
/// again.
pub(super) fn probe_window(ties: TieTest, alpha: i32) -> (i32, i32) {
    if ties == TieTest::InWindow {
        (alpha - 1, alpha + 1)
    } else {
        (alpha, alpha + 1)
    }
}

impl<B: Bits> Engine<B> {
    /// How this solve, proving the values `which` asks for, tells ties from worse root moves.
    pub(super) fn tie_test(&self, which: RootMoves) -> TieTest {
        match (which, &self.solver.journal) {
            (RootMoves::Ties, Some(_)) => TieTest::Afterwards,
            (RootMoves::Ties, None) => TieTest::InWindow,
            (RootMoves::Best | RootMoves::All, _) => TieTest::None,
        }
    }

    /// The second round of a solve that tests ties afterwards ([`TieTest::Afterwards`]), once
    /// `alpha`, the value of `pos`, is known: the moves at `places` of `list`, which the first
    /// round proved no better than `alpha` but not worse, are each searched in a null window
    /// just below `alpha`, which shows a move a tie or worse. The places of the ties.
    pub(super) fn test_ties(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &[Candidate<B>],
        places: &[usize],
        alpha: i32,
    ) -> Vec<usize> {
        let mut ties = Vec::new();
        if places.is_empty() {
            return ties;
        }
        let helped = places.iter().filter(|&&i| i < 64);
        self.shared
            .ties
            .store(helped.fold(0, |set, &i| set | 1 << i), Relaxed);
        self.shared.tie_round.store(true, Release);
        self.ctx.progress.ties = true;
        self.ctx.progress.last = None;
        self.ctx.progress.done = 0;
        self.ctx.progress.total = places.len();
        for (done, &i) in places.iter().enumerate() {
            let m = list[i].cell;
            self.ctx.progress.current = Some(m);
            self.notify();
            let (child, child_key) = self.after(pos, key, m, list[i].flips(&self.rules, pos));
            let probe = -self.solve_root_move(&child, child_key, -alpha, 1 - alpha);
            if self.ctx.stopped {
                break;
            }
            let result = if probe >= alpha {
                ties.push(i);
                RootValue::Exact(alpha)
            } else {
                RootValue::AtMost(probe)
            };
            self.ctx.progress.done = done + 1;
            self.ctx.progress.last = Some((m, result));
            self.notify();
        }
        ties
    }

    /// A helper's part of the round of ties ([`Engine::test_ties`]): once the main thread has
    /// begun it, the same searches in the same order, whose positions the threads share out
    /// below the root.
    pub(super) fn help_test_ties(&mut self, pos: &Position<B>, key: u64, list: &[Candidate<B>]) {
        while !self.shared.tie_round.load(Acquire) {
            if self.ctx.stopped || self.shared.stop.load(Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let alpha = self.shared.alpha.load(Relaxed);
        let places = self.shared.ties.load(Relaxed);
        for (i, c) in list.iter().enumerate().take(64) {
            if self.ctx.stopped {
                return;
            }
            if places & 1 << i != 0 {
                let (child, child_key) = self.after(pos, key, c.cell, c.flips(&self.rules, pos));
                self.solve_root_move(&child, child_key, -alpha, 1 - alpha);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;
    use crate::search::MoveValue;

    /// A solve that wants every best move and keeps a journal proves the value before it tests
    /// the other moves for a tie: stopped as that round begins, it has named the best value, and
    /// its journal (which keeps every root move's search, however small) proves exactly that
    /// value. Run to the end, it finds the same best moves as a solve that tests for ties at once.
    #[test]
    fn the_value_is_proved_before_the_ties() {
        use std::ops::ControlFlow;
        use std::sync::Mutex;
        for (rows, cols, variant) in [
            (4, 6, SIMPLE),
            (3, 8, SIMPLE),
            (5, 5, FULL),
            (4, 5, SIMPLE_MISERE),
        ] {
            let (rules, start, config, plain) = solved_start(rows, cols, variant);
            let journal = Arc::new(Journal::new(&rules.geometry, u64::MAX));
            let mut first = Engine::new(rules.clone(), config.clone());
            first.keep_journal(Some(Arc::clone(&journal)));
            let seen = Arc::new(Mutex::new(None));
            let at_ties = Arc::clone(&seen);
            first.observe(Some(Box::new(move |p: &SolveProgress| {
                if p.ties {
                    *at_ties.lock().unwrap() = Some(p.clone());
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })));
            assert_eq!(first.solve_root_within(&start, RootMoves::Ties, None), None);
            let at_ties = seen.lock().unwrap().clone();
            let at_ties = at_ties.unwrap_or_else(|| panic!("{rows}x{cols}: no round of ties"));
            assert_eq!(
                at_ties.best.map(|(_, v)| v),
                Some(MoveValue::Discs(plain.score)),
                "{rows}x{cols}"
            );
            assert!(
                at_ties.total >= 1 && at_ties.done == 0,
                "{rows}x{cols}: {at_ties:?}"
            );
            let at_start = journal.proved(&rules, &start, 1);
            assert_eq!(
                (at_start.low, at_start.high),
                (plain.score, plain.score),
                "{rows}x{cols}"
            );
            assert!(plain.moves.len() > 1, "{rows}x{cols}: {plain:?}");
            // Ties found afterwards are those found in the window, with helpers too.
            for threads in [1, 2] {
                let mut engine = Engine::new(rules.clone(), config.clone().with_threads(threads));
                let journal = Journal::new(&rules.geometry, u64::MAX);
                engine.keep_journal(Some(Arc::new(journal)));
                let afterwards = engine.solve_root(&start, RootMoves::Ties);
                assert_eq!(
                    (afterwards.score, &afterwards.moves),
                    (plain.score, &plain.moves),
                    "{rows}x{cols}, {threads} threads"
                );
            }
        }
    }
}
