//! Lines of perfect play, each move proved to keep the value.

use crate::rules::{Bits, Position};
use crate::search::engine::Engine;
use crate::search::midgame::OrderingKind;
use crate::search::moves::Candidate;
use crate::search::time;
use std::time::{Duration, Instant};

impl<B: Bits> Engine<B> {
    /// The moves a line of perfect play tries at `pos`, in its order (see
    /// [`Engine::perfect_line`]): the first that keeps the value is the line's.
    pub fn line_order(&self, pos: &Position<B>) -> Vec<usize> {
        let mut list = Vec::new();
        self.line_candidates(pos, self.rules.moves(pos), &mut list);
        list.iter().map(|c| c.cell).collect()
    }

    /// The moves of `pos` in the order the exact solver tries them from an empty table, where
    /// that order weighs the values of the sets of empty cells (SIMPLE rules, after
    /// [`Engine::prepare_for`] a root whose empty cells hold `pos`'s); `None` elsewhere.
    pub fn order_by_sets(&self, pos: &Position<B>) -> Option<Vec<usize>> {
        let sets = self.solver.subsets.as_ref()?;
        if !sets.covers(self.rules.empty(pos)) {
            return None;
        }
        let mut list = Vec::new();
        self.order(
            pos,
            self.rules.moves(pos),
            None,
            OrderingKind::Solve,
            &mut list,
        );
        Some(list.iter().map(|c| c.cell).collect())
    }

    /// A line of perfect play from `pos`, whose exact value for its side to move is `score`, to
    /// the end of the game: `None` for a pass. Every move is proved to keep the value (by a
    /// search of the position after it with a window around the value), so the line is optimal
    /// even where the table has forgotten it.
    pub fn perfect_line(&mut self, pos: &Position<B>, score: i32) -> Vec<Option<usize>> {
        // A line is proved in full: the time limit of the solve before it no longer applies.
        // Only the observer stops it, and then the caller throws the line away.
        self.perfect_line_within(pos, score, None)
            .unwrap_or_default()
    }

    /// As [`Engine::perfect_line`], giving up (`None`) once `limit` has passed or the
    /// observer stops it.
    pub fn perfect_line_within(
        &mut self,
        pos: &Position<B>,
        score: i32,
        limit: Option<Duration>,
    ) -> Option<Vec<Option<usize>>> {
        self.ctx.deadline = limit.map(|t| Instant::now() + t.saturating_sub(time::margin(t)));
        self.ctx.stopped = false;
        let mut line = Vec::new();
        let (mut pos, mut score) = (*pos, score);
        let mut key = self.zobrist.key(&pos);
        let mut list = Vec::new();
        loop {
            let moves = self.rules.moves(&pos);
            if moves.is_empty() {
                if self.rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                    break;
                }
                line.push(None);
                pos = self.rules.pass(&pos);
                key = self.zobrist.after_pass(key);
                score = -score;
                continue;
            }
            self.line_candidates(&pos, moves, &mut list);
            let mut next = None;
            for c in &list {
                let m = c.cell;
                let (child, child_key) = self.after(&pos, key, m, c.flips(&self.rules, &pos));
                // Within (-score - 1, -score + 1) only the exact value -score lies inside.
                let value = self.solve(&child, child_key, -score - 1, -score + 1, 1);
                if self.ctx.stopped {
                    return None;
                }
                if value == -score {
                    next = Some((m, child, child_key));
                    break;
                }
            }
            let Some((m, child, child_key)) = next else {
                // No move keeps the value: the caller's score was wrong.
                break;
            };
            line.push(Some(m));
            (pos, key, score) = (child, child_key, -score);
        }
        Some(line)
    }

    /// The `moves` a line of perfect play tries at `pos`, into `list`: in an order the table
    /// does not change, so that the line is the same whatever searches filled the table (and
    /// however many threads), and one move of each kind: a move that a symmetry of `pos` maps
    /// onto an earlier one has the value the earlier one was just found not to have, and its
    /// own search could be as long as the whole solve, which searched one move of each kind.
    pub(in crate::search) fn line_candidates(
        &self,
        pos: &Position<B>,
        moves: B,
        list: &mut Vec<Candidate<B>>,
    ) {
        self.order(pos, moves, None, OrderingKind::Solve, list);
        let twins = self.twins(pos, list);
        let mut twin = twins.iter();
        list.retain(|_| twin.next().is_some_and(Option::is_none));
    }

    /// For each move of `list`, the earlier move of `list` that a symmetry of the board
    /// fixing `pos` maps it to, if any.
    pub(super) fn twins(&self, pos: &Position<B>, list: &[Candidate<B>]) -> Vec<Option<usize>> {
        let mut maps = self.rules.geometry.symmetries();
        maps.retain(|map| pos.mapped(map) == *pos);
        list.iter()
            .enumerate()
            .map(|(i, &Candidate { cell: m, .. })| {
                list[..i]
                    .iter()
                    .map(|c| c.cell)
                    .find(|&k| maps.iter().any(|map| map[m] == k))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    #[test]
    fn a_line_after_a_timed_solve_is_not_cut_short_by_its_limit() {
        let mut e = engine::<u64>(4, 4, FULL, Config::default());
        let start = e.rules().start(Color::Black, Color::White);
        let limit = Duration::from_millis(200);
        let solved = e
            .solve_root_within(&start, RootMoves::Best, Some(limit))
            .unwrap();
        // The solve's deadline passes before the line is searched.
        std::thread::sleep(limit + Duration::from_millis(50));
        let line = e.perfect_line(&start, solved.score);
        let mut pos = start;
        for step in line {
            pos = match step {
                Some(m) => e.rules().play_unchecked(&pos, m),
                None => e.rules().pass(&pos),
            };
        }
        assert!(e.rules().is_over(&pos));
        assert_eq!(pos.score(), (3, 11));
    }

    /// The line of perfect play tries one move of each kind where a symmetry of the board fixes
    /// the position: the solve searched one, and its twin's search could take as long again.
    #[test]
    fn a_line_of_perfect_play_tries_one_move_of_each_kind() {
        let e = engine::<u64>(4, 8, SIMPLE_MISERE, Config::default());
        let start = e.rules().start(Color::Black, Color::White);
        let mut list = Vec::new();
        let names = |list: &[Candidate<u64>]| -> Vec<String> {
            let g = &e.rules().geometry;
            list.iter().map(|c| g.square(c.cell).to_string()).collect()
        };
        // The start is the same after a half turn, which maps d1 to e4, e1 to d4, c1 to f4, c2 to
        // f3 and f2 to c3.
        e.line_candidates(&start, e.rules().moves(&start), &mut list);
        assert_eq!(e.rules().moves(&start).count(), 10);
        assert_eq!(names(&list), ["d1", "e1", "c1", "c2", "f2"]);
        // After c1 nothing is symmetric: every move is tried.
        let c1 = e.rules().geometry.index(Square::new(0, 2)).unwrap();
        let after = e.rules().play_unchecked(&start, c1);
        e.line_candidates(&after, e.rules().moves(&after), &mut list);
        assert_eq!(list.len(), e.rules().moves(&after).count() as usize);
    }
}
