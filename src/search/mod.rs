//! The computer player's search: negamax alpha-beta with principal-variation search, iterative
//! deepening, a transposition table and an exact endgame solver, for every size and variant.
//!
//! Scores are from the side to move's point of view. Estimates are in hundredths of a disc
//! ([`DISC`]) of expected final difference; a finished game scores [`Outcome`]'s value, beyond
//! every estimate, so a proven win is never traded for a good-looking position.
//!
//! The rooms: [`Engine`] (`engine`) lives from one call to the next with its rules, evaluation,
//! keys, table and shared thread state; `context` is the state of one call. `midgame` searches
//! and orders moves; `endgame` solves (its node, root, tie policy, shallow solver, table
//! places and the thresholds keys they share); `eval` evaluates; `threads` runs the helpers.

mod config;
mod context;
mod endgame;
mod engine;
mod eval;
mod journal;
mod keys;
mod midgame;
mod moves;
mod progress;
mod score;
mod shared;
mod table;
mod threads;
pub mod time;

pub use crate::random::splitmix;
pub use config::{Config, Scoring};
pub use endgame::{RootMoves, Solved, Windowed};
pub use engine::Engine;
pub use eval::{patterns, weights, Evaluation, Evaluator};
pub use journal::{Bounds, Journal, Sink};
pub use keys::Zobrist;
pub use midgame::probcut::{self, Confidence, ProbCut};
pub use midgame::{Horizon, Report, ValuedMove};
pub use progress::{MoveValue, Observer, RootValue, SolveProgress};
pub use score::{Outcome, Score, DISC};
pub use table::{Bound, Entry, Table, TableSection, MAX_DEPTH, SOLVED};

#[cfg(test)]
mod test_support;
