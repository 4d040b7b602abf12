//! What a search may spend and how it plays.

use super::eval::Evaluation;
use super::midgame::probcut::Confidence;
use super::time::TimeControl;
use std::time::Duration;

/// How final scores count empty cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Discs only: the count of the line protocol and move triples.
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
    /// The time a move should take, where `move_time` is the most it may (a game clock's
    /// [`Budget`](super::time::Budget)): iterations begin within it, stretched where the position is critical.
    /// `None`: a move may use its whole `move_time`.
    pub target_time: Option<Duration>,
    /// A player's game clock: each move's `move_time` and `target_time` come from the time
    /// left on it (see [`time::budget`](super::time::budget)).
    pub clock: Option<TimeControl>,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Varied play: a small, seed-dependent adjustment of every estimate.
    pub seed: Option<u64>,
    pub scoring: Scoring,
    /// Threads searching together (lazy SMP over one shared table); one is deterministic.
    pub threads: usize,
    /// The evaluation: learned weights where the board has some, or the classic terms.
    pub eval: Evaluation,
    /// Selective search (Multi-ProbCut) at this confidence, where the weights have fits for
    /// it; `None` searches every move to its depth.
    pub probcut: Option<Confidence>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: None,
            move_time: Some(Duration::from_secs(1)),
            target_time: None,
            clock: None,
            hash_mb: 16,
            seed: None,
            scoring: Scoring::Plain,
            threads: 1,
            eval: Evaluation::default(),
            probcut: None,
        }
    }
}

impl Config {
    /// `depth` moves ahead with no clock, on one thread: the same position gets the same
    /// answer every time.
    pub fn to_depth(depth: u32) -> Config {
        Config::default().with_limits(Some(depth), None)
    }

    /// As deep as `move_time` allows, with no depth limit.
    pub fn for_time(move_time: Duration) -> Config {
        Config::default().with_limits(None, Some(move_time))
    }

    /// Neither depth nor time limit: what an exact solve runs under, since it ends when the
    /// position is solved.
    pub fn unlimited() -> Config {
        Config::default().with_limits(None, None)
    }

    /// An exact solver: no limits, plain disc counts, `hash_mb` of table, `threads` solving
    /// together and `eval` ordering the moves.
    pub fn solver(hash_mb: usize, threads: usize, eval: Evaluation) -> Config {
        Config::unlimited()
            .with_hash_mb(hash_mb)
            .with_threads(threads)
            .with_eval(eval)
    }

    /// The same, searching at most `depth` moves ahead and for at most `move_time` (all of it
    /// where the search needs it: no target).
    pub fn with_limits(self, depth: Option<u32>, move_time: Option<Duration>) -> Config {
        Config {
            depth,
            move_time,
            target_time: None,
            ..self
        }
    }

    /// The same, under the game clock `clock` (see [`Config::clock`]).
    pub fn with_clock(self, clock: Option<TimeControl>) -> Config {
        Config { clock, ..self }
    }

    pub fn with_hash_mb(self, hash_mb: usize) -> Config {
        Config { hash_mb, ..self }
    }

    pub fn with_threads(self, threads: usize) -> Config {
        Config { threads, ..self }
    }

    pub fn with_eval(self, eval: Evaluation) -> Config {
        Config { eval, ..self }
    }

    /// The same, varying its play by `seed`.
    pub fn with_seed(self, seed: u64) -> Config {
        Config {
            seed: Some(seed),
            ..self
        }
    }

    pub fn with_probcut(self, probcut: Option<Confidence>) -> Config {
        Config { probcut, ..self }
    }

    pub fn with_scoring(self, scoring: Scoring) -> Config {
        Config { scoring, ..self }
    }
}
