//! Time control, in one place: what a move that must arrive within a limit may spend searching
//! (one policy for every front end that answers against a clock: tournament triples, GTP), and
//! how the search spends it (when to stop, whether to begin another iteration).

use std::time::Duration;

/// The search time for a move that must thresholds its reader within `limit`: a tenth of the limit,
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
    let growth = if previous.is_zero() {
        3.0
    } else {
        (latest.as_secs_f64() / previous.as_secs_f64()).clamp(1.5, 8.0)
    };
    let first_move = latest.mul_f64(growth / 8.0);
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
    fn a_clock_is_shared_over_the_moves_left() {
        let s = Duration::from_secs;
        assert_eq!(share(s(60), 0, 60, Duration::ZERO), s(2));
        assert_eq!(share(s(60), 0, 59, s(1)), s(3));
        assert_eq!(share(s(4), 2, 60, s(5)), s(2));
        assert_eq!(share(s(4), 0, 0, Duration::ZERO), s(4));
    }
}
