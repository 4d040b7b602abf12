//! Fixed-width bit sets: one bit per cell of the board, row-major, bit 0 the top-left cell.
//!
//! The board code is generic over [`Bits`], and the storage is picked by the number of cells:
//! `u64` up to 64 cells, `u128` up to 128, then arrays of words. There is no second code path.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells stored as bits.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many cells this storage holds.
    const CAPACITY: usize;
    /// The empty set.
    const ZERO: Self;

    /// The set holding only `index`.
    fn bit(index: usize) -> Self;
    /// Every index moved `n` places up (towards higher indices), for `n` from 1 to 63; bits
    /// past the top are lost. Board code shifts by a step or two along a line, and a step is at
    /// most a row and a cell (27 on the widest board), so wide sets need only this case.
    fn shift_up(self, n: u32) -> Self;
    /// Every index moved `n` places down, for `n` from 1 to 63; bits below zero are lost.
    fn shift_down(self, n: u32) -> Self;
    /// The number of indices in the set.
    fn count(self) -> u32;
    /// The lowest index in the set, if any.
    fn lowest(self) -> Option<usize>;
    /// The set holding only the lowest index of this one (empty if this one is).
    fn lowest_bit(self) -> Self;
    /// The set holding only the highest index of this one (empty if this one is).
    fn highest_bit(self) -> Self;
    /// For a set of one index: every index below it. (Every index, for the empty set.)
    fn below(self) -> Self;
    /// For a set of one index: every index above it. (None, for the empty set.)
    fn above(self) -> Self;
    /// Every index when `full`, none otherwise: a mask that replaces a branch.
    fn all_if(full: bool) -> Self;
    /// The set as one machine word, when it is stored as one (so SIMD kernels can take it).
    #[inline(always)]
    fn to_word(self) -> Option<u64> {
        None
    }
    /// The set from one machine word, for widths where [`Bits::to_word`] gives one.
    #[inline(always)]
    fn from_word(word: u64) -> Self {
        let mut set = Self::ZERO;
        for i in BitIter(word) {
            set |= Self::bit(i);
        }
        set
    }
    /// The set as two machine words, low first, when it is stored as two.
    #[inline(always)]
    fn to_word_pair(self) -> Option<[u64; 2]> {
        None
    }
    /// The set from two machine words, for widths where [`Bits::to_word_pair`] gives them.
    #[inline(always)]
    fn from_word_pair(words: [u64; 2]) -> Self {
        let mut set = Self::ZERO;
        for (k, word) in words.into_iter().enumerate() {
            for i in BitIter(word) {
                set |= Self::bit(64 * k + i);
            }
        }
        set
    }

    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    fn contains(self, index: usize) -> bool {
        !(self & Self::bit(index)).is_empty()
    }
    /// The indices in the set, lowest first.
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// Iterator over the indices of a [`Bits`] set.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        let index = self.0.lowest()?;
        self.0 ^= B::bit(index);
        Some(index)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for BitIter<B> {}

macro_rules! impl_bits_for_int {
    ($t:ty $(, $extra:item)*) => {
        impl Bits for $t {
            $($extra)*
            const CAPACITY: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(index: usize) -> Self {
                1 << index
            }
            #[inline(always)]
            fn shift_up(self, n: u32) -> Self {
                debug_assert!((1..64).contains(&n), "shift by {n}");
                // The mask tells the compiler what the caller promises, which spares a wide
                // set the code for shifts of a word or more.
                self << (n & 63)
            }
            #[inline(always)]
            fn shift_down(self, n: u32) -> Self {
                debug_assert!((1..64).contains(&n), "shift by {n}");
                self >> (n & 63)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> Option<usize> {
                (self != 0).then(|| self.trailing_zeros() as usize)
            }
            #[inline(always)]
            fn lowest_bit(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn highest_bit(self) -> Self {
                const TOP: $t = 1 << (<$t>::BITS - 1);
                TOP.checked_shr(self.leading_zeros()).unwrap_or(0)
            }
            #[inline(always)]
            fn below(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline(always)]
            fn above(self) -> Self {
                !(self | self.wrapping_sub(1))
            }
            #[inline(always)]
            fn all_if(full: bool) -> Self {
                <$t>::from(full).wrapping_neg()
            }
        }
    };
}

impl_bits_for_int!(
    u64,
    #[inline(always)]
    fn to_word(self) -> Option<u64> {
        Some(self)
    },
    #[inline(always)]
    fn from_word(word: u64) -> Self {
        word
    }
);
impl_bits_for_int!(
    u128,
    #[inline(always)]
    fn to_word_pair(self) -> Option<[u64; 2]> {
        Some([self as u64, (self >> 64) as u64])
    },
    #[inline(always)]
    fn from_word_pair(words: [u64; 2]) -> Self {
        u128::from(words[0]) | u128::from(words[1]) << 64
    }
);

/// `N` 64-bit words, least significant word first, for boards of more than 128 cells.
#[derive(Clone, Copy, Eq)]
pub struct Words<const N: usize>(pub [u64; N]);

impl<const N: usize> Hash for Words<N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const N: usize> PartialEq for Words<N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        // One pass without branches, where comparing the arrays would call `memcmp`.
        let differ = self
            .0
            .iter()
            .zip(&other.0)
            .fold(0, |acc, (a, b)| acc | (a ^ b));
        differ == 0
    }
}

impl<const N: usize> Default for Words<N> {
    fn default() -> Self {
        Words([0; N])
    }
}

impl<const N: usize> Debug for Words<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

macro_rules! impl_word_op {
    ($tr:ident, $m:ident, $tra:ident, $ma:ident, $op:tt) => {
        impl<const N: usize> $tr for Words<N> {
            type Output = Self;
            #[inline(always)]
            fn $m(mut self, rhs: Self) -> Self {
                for i in 0..N {
                    self.0[i] $op rhs.0[i];
                }
                self
            }
        }
        impl<const N: usize> $tra for Words<N> {
            #[inline(always)]
            fn $ma(&mut self, rhs: Self) {
                for i in 0..N {
                    self.0[i] $op rhs.0[i];
                }
            }
        }
    };
}

impl_word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
impl_word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
impl_word_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const N: usize> Not for Words<N> {
    type Output = Self;
    #[inline(always)]
    fn not(mut self) -> Self {
        for w in &mut self.0 {
            *w = !*w;
        }
        self
    }
}

// Shifts read neighbouring words, so index loops say it more plainly than iterators.
#[allow(clippy::needless_range_loop)]
impl<const N: usize> Bits for Words<N> {
    const CAPACITY: usize = 64 * N;
    const ZERO: Self = Words([0; N]);

    #[inline(always)]
    fn bit(index: usize) -> Self {
        let mut w = [0; N];
        w[index / 64] = 1 << (index % 64);
        Words(w)
    }

    #[inline]
    fn shift_up(self, n: u32) -> Self {
        debug_assert!((1..64).contains(&n), "shift by {n}");
        let mut out = [0u64; N];
        out[0] = self.0[0] << n;
        for i in 1..N {
            out[i] = (self.0[i] << n) | (self.0[i - 1] >> (64 - n));
        }
        Words(out)
    }

    #[inline]
    fn shift_down(self, n: u32) -> Self {
        debug_assert!((1..64).contains(&n), "shift by {n}");
        let mut out = [0u64; N];
        for i in 0..N - 1 {
            out[i] = (self.0[i] >> n) | (self.0[i + 1] << (64 - n));
        }
        out[N - 1] = self.0[N - 1] >> n;
        Words(out)
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn lowest(self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    #[inline]
    fn lowest_bit(self) -> Self {
        self.lowest().map_or(Self::ZERO, Self::bit)
    }

    #[inline]
    fn highest_bit(self) -> Self {
        match self.0.iter().rposition(|&w| w != 0) {
            Some(i) => Self::bit(i * 64 + 63 - self.0[i].leading_zeros() as usize),
            None => Self::ZERO,
        }
    }

    #[inline]
    fn below(self) -> Self {
        // Subtract one across the words: borrow through the empty ones.
        let mut out = self.0;
        for w in &mut out {
            let (v, borrow) = w.overflowing_sub(1);
            *w = v;
            if !borrow {
                break;
            }
        }
        Words(out)
    }

    #[inline]
    fn above(self) -> Self {
        !(self | self.below())
    }

    #[inline]
    fn all_if(full: bool) -> Self {
        Words([u64::from(full).wrapping_neg(); N])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_shifts<B: Bits>() {
        for i in 0..B::CAPACITY {
            for n in [1u32, 7, 8, 9, 25, 26, 27, 28, 54, 63] {
                let up = B::bit(i).shift_up(n);
                let down = B::bit(i).shift_down(n);
                let want_up = i + (n as usize);
                if want_up < B::CAPACITY {
                    assert_eq!(up, B::bit(want_up), "{i} up {n}");
                } else {
                    assert!(up.is_empty());
                }
                if i >= n as usize {
                    assert_eq!(down, B::bit(i - n as usize), "{i} down {n}");
                } else {
                    assert!(down.is_empty());
                }
            }
        }
    }

    #[test]
    fn shifts_move_single_bits_exactly() {
        check_shifts::<u64>();
        check_shifts::<u128>();
        check_shifts::<Words<4>>();
        check_shifts::<Words<11>>();
    }

    fn check_single_bits<B: Bits>() {
        let all = !B::ZERO;
        assert_eq!(B::ZERO.lowest_bit(), B::ZERO);
        assert_eq!(B::ZERO.highest_bit(), B::ZERO);
        assert_eq!(B::ZERO.below(), all);
        assert_eq!(B::ZERO.above(), B::ZERO);
        assert_eq!(B::all_if(true), all);
        assert_eq!(B::all_if(false), B::ZERO);
        for i in 0..B::CAPACITY {
            let bit = B::bit(i);
            let below = (0..i).fold(B::ZERO, |acc, j| acc | B::bit(j));
            assert_eq!(bit.below(), below, "below {i}");
            assert_eq!(bit.above(), all & !(below | bit), "above {i}");
            for j in [0, i / 2, i] {
                let set = bit | B::bit(j);
                assert_eq!(set.lowest_bit(), B::bit(j), "lowest of {i} {j}");
                assert_eq!(set.highest_bit(), bit, "highest of {i} {j}");
            }
        }
    }

    #[test]
    fn single_bits_and_their_neighbours() {
        check_single_bits::<u64>();
        check_single_bits::<u128>();
        check_single_bits::<Words<4>>();
        check_single_bits::<Words<11>>();
    }

    #[test]
    fn iteration_and_count_agree() {
        let set = Words::<11>::bit(3) | Words::bit(64) | Words::bit(675);
        assert_eq!(set.count(), 3);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 64, 675]);
        assert_eq!((!Words::<2>::ZERO).count(), 128);
    }
}
