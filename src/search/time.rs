//! Time control, in one place: what a move that must arrive within a limit may spend searching
//! (one policy for every front end that answers against a clock: tournament triples, GTP), and
//! how the search spends it (when to stop, whether to begin another iteration).

use crate::rules::{Bits, Position, Rules};
use std::time::Duration;

/// The search time for a move that must reach its reader within `limit`: a tenth of the limit,
/// and at least 10 ms, stays in hand for the pipes and a busy system; at least 1 ms is searched.
pub fn search_time(limit: Duration) -> Duration {
    let reserve = (limit / 10).max(Duration::from_millis(10));
    limit.saturating_sub(reserve).max(Duration::from_millis(1))
}

/// A clock's share for the next move: `left` spread over the mover's moves still to come (half
/// of `empty` cells, rounded up), or over the `stones` left in a byo-yomi period, plus
/// `per_move` (a byo-yomi period's share of each move).
pub fn share(left: Duration, stones: u32, empty: u32, per_move: Duration) -> Duration {
    if stones > 0 {
        left / stones
    } else {
        left / empty.div_ceil(2).max(1) + per_move
    }
}

/// A game clock: the time each side has for the whole game, and the time each of its moves
/// adds back (Fischer's increment). Written `5m+2s` (`5m` without an increment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub main: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// The clock of `main` time with `increment` (none if `None`), if there is a main time:
    /// as `--time` and `--inc` give it.
    pub fn of(main: Option<Duration>, increment: Option<Duration>) -> Option<TimeControl> {
        main.map(|main| TimeControl {
            main,
            increment: increment.unwrap_or_default(),
        })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::durations::text(self.main))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", crate::durations::text(self.increment))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (main, increment) = match text.split_once('+') {
            Some((main, increment)) => (main, Some(increment)),
            None => (text, None),
        };
        Ok(TimeControl {
            main: crate::durations::parse(main)?,
            increment: match increment {
                Some(i) => crate::durations::parse(i)?,
                None => Duration::ZERO,
            },
        })
    }
}

/// One side's game clock as its game goes: the control it plays under and the time left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub control: TimeControl,
    pub left: Duration,
}

impl GameClock {
    /// A clock at the start of a game.
    pub fn new(control: TimeControl) -> GameClock {
        GameClock {
            control,
            left: control.main,
        }
    }

    /// The budget of the next move, `spent` of it gone already, at `pos` (see [`budget`]).
    pub fn budget<B: Bits>(&self, spent: Duration, rules: &Rules<B>, pos: &Position<B>) -> Budget {
        budget(
            self.left.saturating_sub(spent),
            self.control.increment,
            rules.empty(pos).count(),
            rules.geometry.cell_count() as u32,
        )
    }

    /// Takes a move that `took` off the clock and adds the increment.
    pub fn charge(&mut self, took: Duration) {
        self.left = self.left.saturating_sub(took) + self.control.increment;
    }
}

/// What one move may spend: the time it should take (`target`: iterations begin within it,
/// and it stretches where the position is critical) and the most it may take (`limit`: the
/// search stops there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub target: Duration,
    pub limit: Duration,
}

/// The mover's moves that need thought, out of those left on a board of `cells` with `empty`
/// empty cells: its half of the empty cells down to [`QUICK_END`] (a third of a small
/// board), where the search reaches the end of the game and its moves come quickly, and two
/// for that end.
fn thinking_moves(empty: u32, cells: u32) -> u32 {
    empty.saturating_sub(QUICK_END.min(cells / 3)).div_ceil(2) + 2
}

/// The empty cells from which a search of a second or so reaches the end of the game (on
/// 8x8 about 20 to 24, whatever the board, since the cost of a solve grows with its empty
/// cells): the moves from there on take little of the clock.
const QUICK_END: u32 = 20;

/// A move's budget with `left` on its clock and `increment` to come after it, at a position
/// with `empty` of `cells` cells empty. A twentieth of the clock (at least 50 ms, at most
/// half) stays in hand for the wire and the system; the target is the rest spread over the
/// moves that need thought (see [`thinking_moves`]) plus most of the increment; the limit is
/// four targets, at most a third of the clock plus the increment, and never past the clock.
/// Book moves and forced ones spend less than their share, and later moves get it.
pub fn budget(left: Duration, increment: Duration, empty: u32, cells: u32) -> Budget {
    let reserve = (left / 20).max(Duration::from_millis(50)).min(left / 2);
    let usable = left - reserve;
    let target = usable / thinking_moves(empty, cells) + increment * 3 / 4;
    let limit = (target * 4).min(usable / 3 + increment).min(usable);
    let floor = Duration::from_millis(1);
    Budget {
        target: target.min(limit).max(floor),
        limit: limit.max(floor),
    }
}

/// How much longer than its target a move may think where its position is critical: the best
/// move changed in the last iteration, or its value fell by a disc or more. Each such
/// iteration stretches the target half as much again, up to three times.
pub(crate) fn stretched(stretch: f64, best_changed: bool, value_fell: bool) -> f64 {
    let mut s = stretch;
    if best_changed {
        s *= 1.5;
    }
    if value_fell {
        s *= 1.5;
    }
    s.min(3.0)
}

/// Whether to begin another iteration at `elapsed` into a move whose target is `target`, the
/// last two iterations having taken `previous` and `latest`: when half of the next one, as
/// foreseen from how fast they grew, fits in the target. Begun, it may run on to the move's
/// limit, where it stops with the best move it has proved.
pub(crate) fn worth_another_within_target(
    elapsed: Duration,
    previous: Duration,
    latest: Duration,
    target: Duration,
) -> bool {
    elapsed + foreseen(previous, latest) / 2 < target
}

/// The next iteration's time, foreseen from how fast the last two grew (from 1.5 to 8 times;
/// 3 after the first).
fn foreseen(previous: Duration, latest: Duration) -> Duration {
    let growth = if previous.is_zero() {
        3.0
    } else {
        (latest.as_secs_f64() / previous.as_secs_f64()).clamp(1.5, 8.0)
    };
    latest.mul_f64(growth)
}

/// Time kept back from a move's limit for returning the move and for the system's hiccups: a
/// twentieth of the limit, from 1 ms to 25 ms.
pub(crate) fn margin(limit: Duration) -> Duration {
    (limit / 20).clamp(Duration::from_millis(1), Duration::from_millis(25))
}

/// Whether to begin another iteration at `elapsed` into a move's `limit`, the last two having
/// taken `previous` and `latest`. The next one is foreseen from how fast they grew (from 1.5 to
/// 8 times). It is begun when an eighth of it, enough to search the best move so far again and
/// try some others, fits in the time left: an iteration cut short by the deadline still plays
/// the best move it has proved, so stopping earlier would only leave time unused.
pub(crate) fn worth_another(
    elapsed: Duration,
    previous: Duration,
    latest: Duration,
    limit: Duration,
) -> bool {
    let first_move = foreseen(previous, latest) / 8;
    elapsed + first_move < limit.saturating_sub(margin(limit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_keeps_a_reserve() {
        let ms = Duration::from_millis;
        assert_eq!(search_time(ms(100)), ms(90));
        assert_eq!(search_time(ms(30)), ms(20));
        assert_eq!(search_time(ms(5)), ms(1));
        assert_eq!(search_time(Duration::from_secs(1)), ms(900));
        assert_eq!(search_time(Duration::ZERO), ms(1));
    }

    #[test]
    fn another_iteration_begins_when_an_eighth_of_it_fits() {
        let ms = Duration::from_millis;
        assert_eq!(margin(Duration::from_secs(1)), ms(25));
        assert_eq!(margin(ms(100)), ms(5));
        assert_eq!(margin(ms(10)), ms(1));
        // Grown 4 times: the next is foreseen at 400 ms, an eighth of it 50 ms; 975 ms remain.
        assert!(worth_another(
            ms(900),
            ms(25),
            ms(100),
            Duration::from_secs(1)
        ));
        assert!(!worth_another(
            ms(930),
            ms(25),
            ms(100),
            Duration::from_secs(1)
        ));
        // Growth is held to 1.5-8 times, and taken as 3 after the first iteration.
        assert!(!worth_another(
            ms(900),
            ms(1),
            ms(100),
            Duration::from_secs(1)
        ));
        assert!(worth_another(
            ms(930),
            ms(0),
            ms(100),
            Duration::from_secs(1)
        ));
    }

    #[test]
    fn a_time_control_reads_and_writes_main_time_and_increment() {
        let s = Duration::from_secs;
        let tc: TimeControl = "5m+2s".parse().unwrap();
        assert_eq!((tc.main, tc.increment), (s(300), s(2)));
        assert_eq!(tc.to_string(), "5m+2s");
        let tc: TimeControl = "90s".parse().unwrap();
        assert_eq!((tc.main, tc.increment), (s(90), Duration::ZERO));
        assert_eq!(tc.to_string(), "90s");
        for bad in ["", "5", "5m+", "+2s", "5m+2", "5m+2s+1s"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_budget_spreads_the_clock_over_the_moves_that_need_thought() {
        let (s, ms) = (Duration::from_secs, Duration::from_millis);
        // 8x8 at the start: 57 s usable over 22 moves (60 empty cells less 20, halved, and 2).
        let b = budget(s(60), Duration::ZERO, 60, 64);
        assert_eq!(b.target, s(57) / 22);
        assert_eq!(b.limit, b.target * 4);
        // Near the end the target grows, but never past a third of the clock.
        let b = budget(s(30), Duration::ZERO, 21, 64);
        assert_eq!(b.limit, s(30) * 19 / 20 / 3);
        assert!(b.target <= b.limit);
        // An increment adds most of itself; the limit stays within the clock.
        let b = budget(s(1), s(2), 40, 64);
        assert_eq!(b.limit, ms(950));
        assert_eq!(b.target, ms(950));
        // An empty clock still searches a millisecond, and keeps its reserve otherwise.
        assert_eq!(budget(Duration::ZERO, Duration::ZERO, 30, 64).limit, ms(1));
        assert_eq!(budget(ms(80), Duration::ZERO, 30, 64).limit, ms(40) / 3);
        // Small boards end sooner: a third of 16 cells.
        assert_eq!(thinking_moves(12, 16), 6);
        assert_eq!(thinking_moves(5, 16), 2);
    }

    #[test]
    fn a_game_clock_loses_what_a_move_took_and_gains_the_increment() {
        let s = Duration::from_secs;
        let mut clock = GameClock::new("1m+2s".parse().unwrap());
        clock.charge(s(5));
        assert_eq!(clock.left, s(57));
        clock.charge(s(90));
        assert_eq!(clock.left, s(2));
        let rules: Rules<u64> =
            Rules::new(crate::rules::Shape::STANDARD, Default::default()).unwrap();
        let start = rules.start(crate::rules::Color::Black, crate::rules::Color::White);
        assert_eq!(
            clock.budget(s(1), &rules, &start),
            budget(s(1), s(2), 60, 64),
            "the time already spent on the move comes off"
        );
    }

    #[test]
    fn a_critical_position_stretches_the_target_up_to_three_times() {
        assert_eq!(stretched(1.0, false, false), 1.0);
        assert_eq!(stretched(1.0, true, false), 1.5);
        assert_eq!(stretched(1.0, true, true), 2.25);
        assert_eq!(stretched(2.25, true, false), 3.0);
        let ms = Duration::from_millis;
        // Half of the next iteration (3 times the last, 300 ms) must fit in the target.
        assert!(worth_another_within_target(
            ms(300),
            ms(0),
            ms(100),
            ms(451)
        ));
        assert!(!worth_another_within_target(
            ms(300),
            ms(0),
            ms(100),
            ms(450)
        ));
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_left() {
        let s = Duration::from_secs;
        assert_eq!(share(s(60), 0, 60, Duration::ZERO), s(2));
        assert_eq!(share(s(60), 0, 59, s(1)), s(3));
        assert_eq!(share(s(4), 2, 60, s(5)), s(2));
        assert_eq!(share(s(4), 0, 0, Duration::ZERO), s(4));
    }
}
