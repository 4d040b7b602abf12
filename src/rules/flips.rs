//! What every way of finding flips and moves shares: the [`Flips`] a kernel offers, the work
//! that runs through one, and how far a fill along a line of discs must reach. These sit below
//! the SIMD lanes and the geometry that offer kernels, and below the rules that choose one.

use super::bits::Bits;
use super::shape::{MAX_SIDE, MIN_SIDE};

/// A way to find the flips of a move, for [`Rules::with_flips`](super::Rules::with_flips).
pub trait Flips<B: Bits>: Copy {
    /// The discs of `theirs` that a disc of `mine` on `cell` would flip.
    fn flips(self, cell: usize, mine: B, theirs: B) -> B;
    /// The cells where a disc of `mine` would flip a disc of `theirs`, and perhaps occupied
    /// cells too: the caller keeps the empty ones.
    fn moves(self, mine: B, theirs: B) -> B;
    /// Does `work`, compiled for the instructions this kernel uses (by default, those of the
    /// whole program). A recursive computation goes through here at each level, so every level
    /// gets the kernel inline.
    #[inline(always)]
    fn run<W: Work>(self, work: W) -> W::Output {
        work.work()
    }
}

/// A piece of work for [`Flips::run`]. `work` should be `#[inline(always)]`, so that it is
/// compiled into `run` (a closure would be left a function of its own).
pub trait Work {
    type Output;
    fn work(self) -> Self::Output;
}

/// Work that takes whichever [`Flips`] the rules choose.
pub trait WithFlips<B: Bits> {
    type Output;
    fn with<F: Flips<B>>(self, flips: F) -> Self::Output;
}

/// Steps of two cells a fill needs after its first two along a line of `longest` discs.
pub(super) fn pair_steps(longest: usize) -> usize {
    (longest.max(2) - 1) / 2
}

/// The most steps of two cells a fill takes on a board of one word: its longest side is 21
/// (3x21), whose lines of 19 discs between two others take 9.
pub(super) const MAX_PAIR_STEPS_ONE_WORD: usize = (64 / MIN_SIDE - 3) / 2;

/// The most steps of two cells a fill takes on any board: lines of 24 discs lie between two
/// others on a side of 26. Two-word boards reach it too, since 4x26 has two words.
pub(super) const MAX_PAIR_STEPS_ANY_BOARD: usize = (MAX_SIDE - 3) / 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_step_limits_are_those_of_the_longest_lines() {
        assert_eq!(MAX_PAIR_STEPS_ONE_WORD, pair_steps(64 / MIN_SIDE - 2));
        assert_eq!(MAX_PAIR_STEPS_ONE_WORD, 9);
        assert_eq!(MAX_PAIR_STEPS_ANY_BOARD, pair_steps(MAX_SIDE - 2));
        assert_eq!(MAX_PAIR_STEPS_ANY_BOARD, 11);
    }
}
