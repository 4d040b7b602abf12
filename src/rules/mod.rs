//! The game itself: board shapes, discs, variants, legal moves, flips, passes, the end and the winner.
//!
//! [`Rules`] holds what does not change during a game (shape and variant) and answers questions
//! about a [`Position`] without checking them; [`Game`] is the checked layer on top that refuses
//! illegal moves and passes automatically.

mod bits;
mod color;
mod game;
mod geometry;
mod kernel;
mod legal;
mod perft;
mod position;
mod shape;
mod simd;
mod variant;

pub use bits::{BitIter, Bits, Words};
pub use color::{ByColor, Color, Winner};
pub use game::{Game, IllegalMove, Passes, Played, Setup};
pub use geometry::{Geometry, AXES};
pub use kernel::{Flips, KernelWork, WithFlips, Work};
pub use legal::Rules;
pub use perft::perft;
pub use position::{Move, Position};
pub use shape::{Erased, Family, Shape, ShapeError, Square, Width, MAX_SIDE, MIN_SIDE};
pub use variant::{RuleSet, Variant};

#[cfg(test)]
mod tests;
