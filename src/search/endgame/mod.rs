//! The exact solver: searches to the end of the game and returns the final disc difference (in
//! whole discs) for the side to move.

mod cache;
mod helper_threads;
mod line;
mod results;
mod root;
mod shallow;
mod solve;
pub(in crate::search) mod subsets;
mod symmetries;
mod thresholds;
mod ties;

pub use results::{RootMoves, Solved, Windowed};
pub(super) use subsets::{Subsets, ORDER_FROM, SUBSETS_FROM};
pub(super) use symmetries::Symmetries;
