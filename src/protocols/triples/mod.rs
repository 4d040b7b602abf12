//! The tournament protocol: move triples on the wire, and the program as one side of a game.

mod engine;
mod triple;

pub use engine::{run, Ending, EngineError, EngineSession};
pub use triple::{seed_letter, Triple, TripleError};
