//! Moves valued alike, for a review of a game and a list of hints: each move's position is
//! searched to one depth (or solved), so that the values of two moves compare. A search's own
//! value of its best move is backed by whatever its table held, deeper or shallower, and a
//! move searched alone one move less deep looks an odd or even number of moves ahead where the
//! best did not: either made losses out of nothing but the horizon. Moves whose positions are
//! images of one another under the board's symmetries are valued once, so they agree.

use super::Report;
use crate::rules::{Bits, Position};
use crate::search::{time, Engine, MoveValue, DISC};
use std::time::{Duration, Instant};

/// A move and what it is worth to the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuedMove {
    /// The move's cell.
    pub cell: usize,
    /// Whole discs where the position after it was solved (or searched to the end).
    pub value: MoveValue,
    /// Moves ahead the value looks, this one included; to the end where exact.
    pub depth: u32,
    /// The expected line, this move first (cells; a pass is left out, as in
    /// [`Report::pv`]).
    pub line: Vec<usize>,
}

/// How deep [`Engine::value_moves`] looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Horizon {
    /// Moves ahead from the position, the move valued included: its position is searched one
    /// less deep (at 1, its static estimate).
    pub depth: u32,
    /// A position after a move with this many empty cells or fewer is solved.
    pub exact_empties: u32,
}

impl<B: Bits> Engine<B> {
    /// The moves `cells` of `pos` valued alike, in the order given, each position after a
    /// move searched `horizon.depth - 1` deep or solved (see [`Horizon`]), however long that
    /// takes ([`Engine::value_moves_within`] keeps to a time). `None` where the observer
    /// stopped a search.
    pub fn value_moves(
        &mut self,
        pos: &Position<B>,
        cells: &[usize],
        horizon: Horizon,
    ) -> Option<Vec<ValuedMove>> {
        self.value_moves_until(pos, cells, horizon, None)
    }

    /// The moves `cells` of `pos` valued alike as deep as `limit` allows: every move to one
    /// depth, then every move a move deeper, while the next round is foreseen to fit, never
    /// past `limit`; no deeper than `most` moves ahead. Each value is exact once its search
    /// reaches the end. `None` where not even the first round finished.
    pub fn value_moves_within(
        &mut self,
        pos: &Position<B>,
        cells: &[usize],
        limit: Duration,
        most: Option<u32>,
    ) -> Option<Vec<ValuedMove>> {
        let clock = Instant::now();
        let deadline = clock + limit.saturating_sub(time::margin(limit));
        let empties = self.rules.empty(pos).count();
        let mut best = None;
        let mut latest = Duration::ZERO;
        // Deeper than the end adds nothing: there every value is exact.
        for depth in 1..=most.unwrap_or(u32::MAX).min(empties.max(1)) {
            let began = clock.elapsed();
            let horizon = Horizon {
                depth,
                exact_empties: 0,
            };
            let Some(round) = self.value_moves_until(pos, cells, horizon, Some(deadline)) else {
                break;
            };
            let exact = round.iter().all(|v| v.value.discs().is_some());
            best = Some(round);
            let previous = std::mem::replace(&mut latest, clock.elapsed() - began);
            if exact || !time::worth_another(clock.elapsed(), previous, latest, limit) {
                break;
            }
        }
        best
    }

    /// [`Engine::value_moves`] with every search stopped at `deadline`. The engine's depth
    /// and time limits are as they were after it.
    fn value_moves_until(
        &mut self,
        pos: &Position<B>,
        cells: &[usize],
        horizon: Horizon,
        deadline: Option<Instant>,
    ) -> Option<Vec<ValuedMove>> {
        let limits = (self.config.depth, self.config.move_time);
        let valued = self.value_each(pos, cells, horizon, deadline);
        self.set_limits(limits.0, limits.1);
        valued
    }

    /// [`Engine::value_moves_until`], leaving the limits changed.
    fn value_each(
        &mut self,
        pos: &Position<B>,
        cells: &[usize],
        horizon: Horizon,
        deadline: Option<Instant>,
    ) -> Option<Vec<ValuedMove>> {
        let maps = self.rules.geometry.symmetries();
        let inverse: Vec<Vec<usize>> = maps
            .iter()
            .map(|map| {
                let mut inverse = vec![0; map.len()];
                for (from, &to) in map.iter().enumerate() {
                    inverse[to] = from;
                }
                inverse
            })
            .collect();
        // The positions valued so far, as their canonical images, with the map that made each.
        let mut seen: Vec<(Position<B>, Option<usize>, usize)> = Vec::new();
        let mut valued: Vec<ValuedMove> = Vec::with_capacity(cells.len());
        for &cell in cells {
            let child = self.rules.play_unchecked(pos, cell);
            let (canonical, map) = child.canonical(&maps);
            if let Some(&(_, their_map, i)) = seen.iter().find(|s| s.0 == canonical) {
                // The same position seen another way: the same value, the line mapped onto it.
                let theirs = &valued[i];
                let mine = |x: usize| {
                    let y = their_map.map_or(x, |k| maps[k][x]);
                    map.map_or(y, |k| inverse[k][y])
                };
                let mut line = vec![cell];
                line.extend(theirs.line.iter().skip(1).map(|&x| mine(x)));
                let image = ValuedMove {
                    cell,
                    line,
                    ..theirs.clone()
                };
                valued.push(image);
                continue;
            }
            let left = match deadline {
                Some(d) => Some(d.checked_duration_since(Instant::now())?),
                None => None,
            };
            let one = self.value_move(pos, cell, &child, horizon, left)?;
            seen.push((canonical, map, valued.len()));
            valued.push(one);
        }
        Some(valued)
    }

    /// The move `cell` of `pos`, whose position is `child`, valued to `horizon` within `left`.
    fn value_move(
        &mut self,
        pos: &Position<B>,
        cell: usize,
        child: &Position<B>,
        horizon: Horizon,
        left: Option<Duration>,
    ) -> Option<ValuedMove> {
        let mover = pos.to_move;
        // The opponent's move, unless they must pass.
        let at = self.rules.settle(child);
        let sign = if at.to_move == mover { 1 } else { -1 };
        let empties = self.rules.empty(&at).count();
        let to_end = empties + 1;
        if self.rules.is_over(&at) {
            return Some(ValuedMove {
                cell,
                value: MoveValue::Discs(self.rules.margin(&at, mover)),
                depth: 1,
                line: vec![cell],
            });
        }
        if empties <= horizon.exact_empties {
            let solved = self.solve_exact(&at, false);
            let mut line = vec![cell];
            line.extend(solved.best);
            return Some(ValuedMove {
                cell,
                value: MoveValue::Discs(sign * solved.score),
                depth: to_end,
                line,
            });
        }
        if horizon.depth <= 1 {
            return Some(ValuedMove {
                cell,
                value: MoveValue::Hundredths(sign * self.evaluate(&at)),
                depth: 1,
                line: vec![cell],
            });
        }
        let asked = horizon.depth - 1;
        self.set_limits(Some(asked), left);
        let report: Report = self.search(&at);
        if !report.exact && report.depth < asked || self.ctx.stopped {
            return None;
        }
        let mut line = vec![cell];
        line.extend(report.pv);
        Some(ValuedMove {
            cell,
            value: if report.exact {
                MoveValue::Discs(sign * report.score / DISC)
            } else {
                MoveValue::Hundredths(sign * report.score)
            },
            depth: if report.exact {
                to_end
            } else {
                report.depth + 1
            },
            line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    /// On every variant, first moves of a square board that are images of one another have
    /// one value, and each line is legal from its own move; and a value at full depth is exact and is the
    /// move's minimax value.
    #[test]
    fn images_share_a_value_and_full_depth_is_exact() {
        for variant in [FULL, SIMPLE, MISERE, SIMPLE_MISERE] {
            let mut e = engine::<u64>(4, 4, variant, Config::default().with_threads(1));
            let rules = e.rules().clone();
            let start = rules.start(Color::Black, Color::White);
            let cells: Vec<usize> = rules.moves(&start).iter().collect();
            let horizon = Horizon {
                depth: 3,
                exact_empties: 0,
            };
            let valued = e.value_moves(&start, &cells, horizon).unwrap();
            assert_eq!(valued.len(), cells.len());
            let maps = rules.geometry.symmetries();
            let image = |cell: usize| rules.play_unchecked(&start, cell).canonical(&maps).0;
            for v in &valued {
                // Under the full rules the four first moves are images of one another; under
                // the simple rules more moves are open, and images come in groups.
                for w in valued.iter().filter(|w| image(w.cell) == image(v.cell)) {
                    assert_eq!(v.value, w.value, "{variant:?}: {valued:?}");
                }
                if variant.rule_set == RuleSet::Full {
                    assert_eq!(v.value, valued[0].value, "{variant:?}: {valued:?}");
                }
                assert_eq!(v.line[0], v.cell);
                assert_eq!(rules.line(&start, &v.line).len(), v.line.len(), "{v:?}");
                assert_eq!(v.depth, 3);
            }
            let all =
                e.value_moves_within(&start, &cells, std::time::Duration::from_secs(60), None);
            for v in all.unwrap() {
                let child = rules.play_unchecked(&start, v.cell);
                let exact = -minimax(&rules, &child, Scoring::Plain);
                assert_eq!(v.value, MoveValue::Discs(exact), "{variant:?}: {v:?}");
            }
        }
    }

    /// Past the exact threshold a move is solved; a position after a move where the opponent
    /// must pass is valued for the mover all the same.
    #[test]
    fn solved_moves_and_passes_are_valued_for_the_mover() {
        // The 4x4 sample game to White's d2, after which Black must pass.
        let mut e = engine::<u64>(4, 4, FULL, Config::default().with_threads(1));
        let rules = e.rules().clone();
        let mut pos = rules.start(Color::Black, Color::White);
        for m in ["b1", "a1", "c4", "d4", "d3", "b4", "a4", "c1", "d1"] {
            pos = rules.play_unchecked(&pos, cell(4, m));
        }
        assert_eq!(pos.to_move, Color::White);
        let cells: Vec<usize> = rules.moves(&pos).iter().collect();
        assert!(cells.contains(&cell(4, "d2")));
        let horizon = Horizon {
            depth: 2,
            exact_empties: 16,
        };
        for v in e.value_moves(&pos, &cells, horizon).unwrap() {
            let child = rules.play_unchecked(&pos, v.cell);
            let exact = -minimax(&rules, &child, Scoring::Plain);
            assert_eq!(v.value, MoveValue::Discs(exact), "{v:?}");
        }
    }
}
