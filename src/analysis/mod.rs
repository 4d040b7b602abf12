//! Going over a game move by move.
//!
//! - [`review`]: `othello analyze` (and `play`'s review): each move beside the engine's best, both
//!   values and the discs lost, exact near the end and searched before.
//! - [`show`](show()): `othello show`: every step of a move list in words, with the position
//!   after it.

mod plot;
mod review;
mod show;

pub use plot::{svg, write_chart};
pub use review::{
    analyze, write_json, write_text, AnalyzeOptions, Mark, Review, Reviewed, Source, BLUNDER,
    DEPTH, EXACT_EMPTIES, MISTAKE,
};
pub use show::{show, IllegalListedMove, Shown};
