//! The game itself: board shapes, discs, variants, legal moves, flips, passes, the end and the winner.
//!
//! [`Rules`] holds what does not change during a game (shape and variant) and answers questions
//! about a [`Position`] without checking them; [`Game`] is the checked layer on top that refuses
//! illegal moves and passes automatically.
//!
//! Each file uses only files on the layers below it, bottom to top:
//! 1. `bits`, `color`, `variant`: bit sets of cells, the two sides, the rule variants;
//! 2. `shape`: board sizes and the bit set width each needs;
//! 3. `position`: discs and the side to move; `flips`: what a kernel that finds flips and
//!    moves offers, and how far a fill along a line reaches;
//! 4. `simd`: the AVX2 kernels;
//! 5. `geometry`: a board's steps in the eight directions and its portable fills;
//! 6. `legal`: [`Rules`], what a position allows;
//! 7. `kernel`: the rules' choice of kernel for a whole computation; `perft`; `game`.

mod bits;
mod color;
mod flips;
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
pub use flips::{Flips, WithFlips, Work};
pub use game::{Game, IllegalMove, Passes, Played, Setup};
pub use geometry::{Geometry, AXES};
pub use kernel::KernelWork;
pub use legal::Rules;
pub use perft::perft;
pub use position::{Move, Position};
pub use shape::{AnyWidth, GenericOverBits, Shape, ShapeError, Square, Width, MAX_SIDE, MIN_SIDE};
pub use variant::{RuleSet, Variant};

#[cfg(test)]
mod tests;
