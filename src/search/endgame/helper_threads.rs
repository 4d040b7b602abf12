//! A helper thread's part of a solve: the root moves no other thread has taken.

use super::results::RootMoves;
use super::ties::TieTest;
use crate::rules::{Bits, Position};
use crate::search::engine::Engine;
use crate::search::moves::Candidate;
use crate::search::score::in_discs;
use std::sync::atomic::Ordering::Relaxed;

impl<B: Bits> Engine<B> {
    /// A helper's part of a solve. While the main thread solves the first root move, the
    /// helper solves it too (the threads share its moves out below, see [`Engine::best_of`]);
    /// then it takes root moves that no other thread has taken and searches each as the main
    /// thread would, and once all are taken it joins one whose value is still unknown. What it
    /// learns reaches the main thread through the table.
    pub(super) fn help_solve(
        &mut self,
        pos: &Position<B>,
        which: RootMoves,
        list: &[Candidate<B>],
        guess: Option<i32>,
    ) {
        self.ctx.nodes = 0;
        let key = self.zobrist.key(pos);
        let limit = self.rules.geometry.cell_count() as i32 + 1;
        if list.is_empty() {
            self.solve(pos, key, -limit, limit, 0);
            return;
        }
        let child = |e: &Self, c: &Candidate<B>| e.after(pos, key, c.cell, c.flips(&e.rules, pos));
        if !self.shared.first_done.load(Relaxed) {
            let (first, first_key) = child(self, &list[0]);
            let value = self.solve_above(&first, first_key, -limit, guess, limit);
            // The main thread may not have published it yet: a move searched against an older
            // floor would be searched in a far wider window.
            if !self.ctx.stopped {
                self.shared.alpha.fetch_max(value, Relaxed);
            }
        }
        let n = list.len();
        let mut joined = (0, 0);
        while !self.ctx.stopped {
            let mut i = self.shared.next.fetch_add(1, Relaxed);
            if i >= n {
                // Every move is taken: join the search of one whose value is still unknown.
                let finished = self.shared.finished.load(Relaxed);
                match (0..n.min(64)).find(|&j| finished & (1 << j) == 0) {
                    Some(j) => i = j,
                    None => break,
                }
            }
            self.join_resolving(pos, key, list, i, guess, limit, &mut joined);
            let (next, next_key) = child(self, &list[i]);
            if i == 0 {
                self.solve_above(&next, next_key, -limit, guess, limit);
            } else if which == RootMoves::All {
                self.solve_root_move(&next, next_key, -limit, limit);
            } else {
                let estimate = guess.map(|_| in_discs(list[i].weight));
                self.probe_root_move(&next, next_key, i, which, None, estimate, limit);
            }
            if !self.ctx.stopped {
                self.shared.finish(i);
            }
        }
        if self.tie_test(which) == TieTest::Afterwards {
            self.help_test_ties(pos, key, list);
        }
    }

    /// Before a helper searches root move `i`: where another thread is settling the value of a
    /// move found better than the best so far, the search of that move, once for each floor.
    /// That move decides the floor of every other: helping to settle it first saves searching
    /// them against a floor too low. `joined` is the last move and floor joined.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn join_resolving(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &[Candidate<B>],
        i: usize,
        guess: Option<i32>,
        limit: i32,
        joined: &mut (usize, i32),
    ) {
        let resolving = self.shared.resolving.load(Relaxed);
        let floor = self.shared.alpha.load(Relaxed);
        if resolving == 0 || resolving == i + 1 || *joined == (resolving, floor) {
            return;
        }
        *joined = (resolving, floor);
        let c = &list[resolving - 1];
        let (other, other_key) = self.after(pos, key, c.cell, c.flips(&self.rules, pos));
        let estimate = guess.map(|_| in_discs(c.weight));
        self.solve_above(&other, other_key, floor - 1, estimate, limit);
    }
}
