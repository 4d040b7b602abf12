//! Text formats for positions and moves, kept apart from legality (which is the rules' business).

mod obf;

pub use obf::{Obf, ObfError};
