//! The flips of one rule set on one board, chosen once for a whole computation: the choice of
//! rule set, of SIMD lanes and of kernel size is made outside its loops, and where the kernel
//! is AVX2 the computation itself is compiled with AVX2, so that the kernel inlines into it.

use super::bits::Bits;
use super::flips::{Flips, WithFlips, Work};
use super::geometry::Geometry;
use super::legal::Rules;
use super::variant::RuleSet;
use std::marker::PhantomData;

/// Work compiled for the rules' kernel, with the kernel at hand ([`Rules::in_kernel`]): what
/// it finds through the kernel is found inline. `work` should be `#[inline(always)]`, as for
/// [`Work`].
pub trait KernelWork<B: Bits> {
    type Output;
    fn work<F: Flips<B>>(self, kernel: F) -> Self::Output;
}

/// A [`KernelWork`] waiting for the rules to choose its kernel...
struct AwaitingKernel<W>(W);

impl<B: Bits, W: KernelWork<B>> WithFlips<B> for AwaitingKernel<W> {
    type Output = W::Output;

    fn with<F: Flips<B>>(self, kernel: F) -> W::Output {
        kernel.run(WithKernel {
            work: self.0,
            kernel,
            board: PhantomData,
        })
    }
}

/// ... and with the kernel chosen, run through it.
struct WithKernel<B, W, F> {
    work: W,
    kernel: F,
    board: PhantomData<fn() -> B>,
}

impl<B: Bits, W: KernelWork<B>, F: Flips<B>> Work for WithKernel<B, W, F> {
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
        self.with_flips(AwaitingKernel(work))
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
