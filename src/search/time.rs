//! Time on the wire: what a move that must arrive within a limit may spend searching. One policy
//! for every front end that answers against a clock (tournament triples, GTP).

use std::time::Duration;

/// The search time for a move that must reach its reader within `limit`: a tenth of the limit,
/// and at least 10 ms, stays in hand for the pipes and a busy machine; at least 1 ms is searched.
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
    fn a_clock_is_shared_over_the_moves_left() {
        let s = Duration::from_secs;
        assert_eq!(share(s(60), 0, 60, Duration::ZERO), s(2));
        assert_eq!(share(s(60), 0, 59, s(1)), s(3));
        assert_eq!(share(s(4), 2, 60, s(5)), s(2));
        assert_eq!(share(s(4), 0, 0, Duration::ZERO), s(4));
    }
}
