//! What a search may spend and how it plays.

use super::eval::Evaluation;
use std::time::Duration;

/// How final scores count empty cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Discs only: the seed protocols' count.
    #[default]
    Plain,
    /// Empty cells go to the winner, as tournament results and the FFO test scores count them.
    EmptiesToWinner,
}

/// What a search may spend and how it plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Deepest iteration, in moves.
    pub depth: Option<u32>,
    /// Time for one move: the move comes back within it.
    pub move_time: Option<Duration>,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Varied play: a small, seed-dependent adjustment of every estimate.
    pub seed: Option<u64>,
    pub scoring: Scoring,
    /// Threads searching together (lazy SMP over one shared table); one is deterministic.
    pub threads: usize,
    /// The evaluation: learned weights where the board has some, or the classic terms.
    pub eval: Evaluation,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: None,
            move_time: Some(Duration::from_secs(1)),
            hash_mb: 16,
            seed: None,
            scoring: Scoring::Plain,
            threads: 1,
            eval: Evaluation::default(),
        }
    }
}
