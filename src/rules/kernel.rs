//! The flips of one rule set on one board, chosen once for a whole computation: the choice of
//! rule set, of SIMD lanes and of kernel size is made outside its loops, and where the kernel
//! is AVX2 the computation itself is compiled with AVX2, so that the kernel inlines into it.

use super::bits::Bits;
use super::geometry::Geometry;
use super::legal::Rules;
use super::variant::RuleSet;
use std::marker::PhantomData;

/// A way to find the flips of a move, for [`Rules::with_flips`].
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

/// Work compiled for the rules' kernel, with the kernel at hand ([`Rules::in_kernel`]): what
/// it finds through the kernel is found inline. `work` should be `#[inline(always)]`, as for
/// [`Work`].
pub trait KernelWork<B: Bits> {
    type Output;
    fn work<F: Flips<B>>(self, kernel: F) -> Self::Output;
}

/// A [`KernelWork`] waiting for its kernel...
struct Waiting<W>(W);

impl<B: Bits, W: KernelWork<B>> WithFlips<B> for Waiting<W> {
    type Output = W::Output;

    fn with<F: Flips<B>>(self, kernel: F) -> W::Output {
        kernel.run(Given {
            work: self.0,
            kernel,
            board: PhantomData,
        })
    }
}

/// ... and given it, run through it.
struct Given<B, W, F> {
    work: W,
    kernel: F,
    board: PhantomData<fn() -> B>,
}

impl<B: Bits, W: KernelWork<B>, F: Flips<B>> Work for Given<B, W, F> {
    type Output = W::Output;

    #[inline(always)]
    fn work(self) -> W::Output {
        self.work.work(self.kernel)
    }
}

/// SIMPLE rules: the opponent's discs next to the new one.
#[derive(Clone, Copy)]
pub struct Neighbours<'a, B>(&'a Geometry<B>);

impl<B: Bits> Flips<B> for Neighbours<'_, B> {
    #[inline(always)]
    fn flips(self, cell: usize, _mine: B, theirs: B) -> B {
        self.0.adjacent(cell) & theirs
    }

    #[inline(always)]
    fn moves(self, _mine: B, theirs: B) -> B {
        self.0.neighbours(theirs)
    }
}

/// FULL rules without SIMD lanes: the portable fill of the geometry.
#[derive(Clone, Copy)]
pub struct Lines<'a, B>(&'a Geometry<B>);

impl<B: Bits> Flips<B> for Lines<'_, B> {
    #[inline(always)]
    fn flips(self, cell: usize, mine: B, theirs: B) -> B {
        self.0.flanked(cell, mine, theirs)
    }

    #[inline(always)]
    fn moves(self, mine: B, theirs: B) -> B {
        self.0.flanking_moves(mine, theirs)
    }
}

impl<B: Bits> Rules<B> {
    /// [`Rules::moves_for`] through `kernel`, these rules' (see [`Rules::with_flips`]).
    #[inline(always)]
    pub fn moves_by<F: Flips<B>>(&self, kernel: F, mine: B, theirs: B) -> B {
        let empty = self.geometry.cells() & !(mine | theirs);
        if self.variant.place_anywhere {
            return empty;
        }
        kernel.moves(mine, theirs) & empty
    }

    /// Does `work` compiled for these rules' kernel, with the kernel (see [`KernelWork`]).
    pub fn in_kernel<W: KernelWork<B>>(&self, work: W) -> W::Output {
        self.with_flips(Waiting(work))
    }

    /// Does `work` with the flips of these rules on this board.
    pub fn with_flips<W: WithFlips<B>>(&self, work: W) -> W::Output {
        let g = &self.geometry;
        match self.variant.rule_set {
            RuleSet::Simple => work.with(Neighbours(g)),
            RuleSet::Full => match g.lanes() {
                Some(lanes) if B::ZERO.to_word().is_some() => lanes.with_flips(work),
                _ => work.with(Lines(g)),
            },
        }
    }
}
