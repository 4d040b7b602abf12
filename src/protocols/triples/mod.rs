//! Seed 001's tournament: move triples on the wire, and the program as one side of a game.

mod engine;
mod triple;

pub use engine::{run, Ending, EngineError, EngineSession};
pub use triple::{seed_letter, Triple, TripleError};

use std::time::Duration;

/// The search time for a move that must reach a referee within `limit`: a tenth of the limit,
/// and at least 10 ms, stays in hand for the pipes and a busy machine.
pub fn search_budget(limit: Duration) -> Duration {
    let reserve = (limit / 10).max(Duration::from_millis(10));
    limit.saturating_sub(reserve).max(Duration::from_millis(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_keeps_a_reserve() {
        let ms = Duration::from_millis;
        assert_eq!(search_budget(ms(100)), ms(90));
        assert_eq!(search_budget(ms(30)), ms(20));
        assert_eq!(search_budget(ms(5)), ms(1));
        assert_eq!(search_budget(Duration::from_secs(1)), ms(900));
    }
}
