//! AVX2 kernels for boards of up to 64 cells, and the moves of boards of up to 128, chosen at
//! run time where the processor has AVX2.
//!
//! The four directions that step towards higher indices share one 256-bit register, the four
//! that step towards lower ones another, each lane with its own shift amount and landing mask,
//! so one kernel serves every board shape. On two-word boards a register holds two directions
//! (see [`PairLanes`]). The portable fill in `geometry` gives the same answers everywhere else.

use super::bits::Bits;
use super::flips::{
    pair_steps, Flips, WithFlips, Work, MAX_PAIR_STEPS_ANY_BOARD, MAX_PAIR_STEPS_ONE_WORD,
};
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;
use std::sync::Arc;

/// The most doubling rounds a one-word board needs: 3x21 has lines of 19 discs.
const MAX_ROUNDS: usize = 5;

/// Eight lanes, one per direction, aligned so that each half is one 256-bit load (and the rays
/// of a cell are one cache line).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Octet([u64; 8]);

/// Four lanes, aligned for one 256-bit load.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Quad([u64; 4]);

#[cfg(target_arch = "x86_64")]
impl Octet {
    /// Lanes 0-3 (`half` 0) or 4-7 (`half` 1).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn half(&self, half: usize) -> __m256i {
        // SAFETY: the block is 64-byte aligned, and `half & 1` picks one of its 32-byte halves.
        unsafe { _mm256_load_si256(self.0.as_ptr().add(4 * (half & 1)) as *const __m256i) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Quad {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lanes(&self) -> __m256i {
        // SAFETY: the block is 32-byte aligned.
        unsafe { _mm256_load_si256(self.0.as_ptr() as *const __m256i) }
    }
}

/// Per-lane shift amounts and landing masks of the eight directions, in the order of
/// `geometry::UP` then `geometry::DOWN`.
#[derive(Clone, Debug)]
pub(super) struct Lanes {
    amount: Octet,
    land: Octet,
    /// Doubling rounds that reach along the longest line of discs between two others.
    rounds: u32,
    /// The shift amounts of the four lower directions times 1, 2, 4, ...: round `k` of a fill
    /// towards lower indices shifts by `reach[k]`.
    reach: [Quad; MAX_ROUNDS],
    /// Steps of two cells that a line of discs needs after its first two cells.
    pair_steps: usize,
    /// For each cell, the cells from it to the edge in each direction.
    rays: Arc<[Octet]>,
}

impl Lanes {
    /// The lanes, if this processor runs the kernels; `longest` is the most discs that can lie
    /// in a line between two others.
    pub fn detect(
        amount: [u64; 8],
        land: [u64; 8],
        longest: usize,
        rays: impl FnOnce() -> Vec<[u64; 8]>,
    ) -> Option<Lanes> {
        let rounds = longest.next_power_of_two().trailing_zeros();
        let pair_steps = pair_steps(longest);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && rounds as usize <= MAX_ROUNDS
            && pair_steps <= MAX_PAIR_STEPS_ONE_WORD
        {
            return Some(Lanes {
                amount: Octet(amount),
                land: Octet(land),
                rounds,
                reach: std::array::from_fn(|k| Quad(std::array::from_fn(|i| amount[4 + i] << k))),
                pair_steps,
                rays: rays().into_iter().map(Octet).collect(),
            });
        }
        let _ = (amount, land, rounds, pair_steps, rays);
        None
    }

    /// The moves of `mine` against `theirs` (empty cells are for the caller to mask).
    #[inline]
    pub fn moves(&self, mine: u64, theirs: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Lanes` exists only where `detect` found AVX2.
        return unsafe {
            // Fixed numbers of steps unroll the fill; more than a board needs change nothing,
            // so boards up to 8 cells a side share the 8x8 kernel.
            match self.pair_steps {
                0..=2 => moves_avx2::<2>(self, mine, theirs),
                3..=4 => moves_avx2::<4>(self, mine, theirs),
                _ => moves_avx2::<MAX_PAIR_STEPS_ONE_WORD>(self, mine, theirs),
            }
        };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no SIMD lanes off x86-64")
    }

    /// The cells next to any cell of `set`.
    #[inline]
    pub fn neighbours(&self, set: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Lanes` exists only where `detect` found AVX2.
        return unsafe { neighbours_avx2(self, set) };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no SIMD lanes off x86-64")
    }

    /// [`super::Geometry::beside_along_every_axis`] of a one-word board.
    #[inline(always)]
    pub fn beside_along_every_axis(&self, set: u64, free: &[u64; 4]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Lanes` exists only where `detect` found AVX2.
        return unsafe { beside_along_every_axis_avx2(self, set, free) };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no SIMD lanes off x86-64 ({set} {free:?})")
    }

    /// The discs of `theirs` that a disc of `mine` on cell `index` flanks.
    #[inline]
    pub fn flips(&self, index: usize, mine: u64, theirs: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Lanes` exists only where `detect` found AVX2.
        return unsafe {
            // A fixed number of rounds unrolls the erasing; more than a board needs change
            // nothing, so boards up to 10 cells a side share the 8x8 kernel.
            if self.rounds <= 3 {
                flips_avx2::<3>(self, &self.rays[index], mine, theirs)
            } else {
                flips_avx2::<MAX_ROUNDS>(self, &self.rays[index], mine, theirs)
            }
        };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no SIMD lanes off x86-64")
    }
}

impl Lanes {
    /// Does `work` with these lanes' flips kernel (see [`Flips`]).
    pub fn with_flips<B: Bits, W: WithFlips<B>>(&self, work: W) -> W::Output {
        if self.rounds <= 3 {
            work.with(LaneFlips::<3>(self))
        } else {
            work.with(LaneFlips::<MAX_ROUNDS>(self))
        }
    }
}

/// The AVX2 flips kernel with `ROUNDS` erasing rounds, for one-word boards.
#[derive(Clone, Copy)]
pub struct LaneFlips<'a, const ROUNDS: usize>(&'a Lanes);

impl<B: Bits, const ROUNDS: usize> Flips<B> for LaneFlips<'_, ROUNDS> {
    #[inline(always)]
    fn moves(self, mine: B, theirs: B) -> B {
        let (mine, theirs) = words(mine, theirs);
        B::from_word(self.0.moves(mine, theirs))
    }

    #[inline(always)]
    fn flips(self, cell: usize, mine: B, theirs: B) -> B {
        let (mine, theirs) = words(mine, theirs);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Lanes` exists only where `detect` found AVX2.
        return B::from_word(unsafe {
            flips_avx2::<ROUNDS>(self.0, &self.0.rays[cell], mine, theirs)
        });
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no SIMD lanes off x86-64 ({cell} {mine} {theirs})")
    }

    #[inline(always)]
    fn run<W: Work>(self, work: W) -> W::Output {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Lanes` exists only where `detect` found AVX2.
        return unsafe { with_avx2(work) };
        #[cfg(not(target_arch = "x86_64"))]
        work.work()
    }
}

/// The words of two sets of a one-word board, the only boards lanes are chosen for.
#[inline(always)]
fn words<B: Bits>(mine: B, theirs: B) -> (u64, u64) {
    let (Some(mine), Some(theirs)) = (mine.to_word(), theirs.to_word()) else {
        unreachable!("lanes are chosen for one-word boards only")
    };
    (mine, theirs)
}

/// Calls `work` compiled with AVX2, so that the kernels it calls inline into it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<W: Work>(work: W) -> W::Output {
    work.work()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn moves_avx2<const PAIR_STEPS: usize>(lanes: &Lanes, mine: u64, theirs: u64) -> u64 {
    let mine = _mm256_set1_epi64x(mine as i64);
    let theirs = _mm256_set1_epi64x(theirs as i64);
    let mut moves = _mm256_setzero_si256();
    for half in 0..2 {
        let amount = lanes.amount.half(half);
        let land = lanes.land.half(half);
        // Shifts of 64 or more give zero, which is what a step off the word means.
        let shift = |set: __m256i, by: __m256i| {
            if half == 0 {
                _mm256_sllv_epi64(set, by)
            } else {
                _mm256_srlv_epi64(set, by)
            }
        };
        // Lines of `theirs` from `mine`: one step, a second, then two at a time through the
        // discs of `theirs` that follow one of `theirs`.
        let through = _mm256_and_si256(theirs, land);
        let mut line = _mm256_and_si256(through, shift(mine, amount));
        line = _mm256_or_si256(line, _mm256_and_si256(through, shift(line, amount)));
        let pairs = _mm256_and_si256(through, shift(through, amount));
        let twice = _mm256_add_epi64(amount, amount);
        for _ in 0..PAIR_STEPS {
            line = _mm256_or_si256(line, _mm256_and_si256(pairs, shift(line, twice)));
        }
        moves = _mm256_or_si256(moves, _mm256_and_si256(shift(line, amount), land));
    }
    fold(moves)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn neighbours_avx2(lanes: &Lanes, set: u64) -> u64 {
    let set = _mm256_set1_epi64x(set as i64);
    let up = _mm256_sllv_epi64(set, lanes.amount.half(0));
    let down = _mm256_srlv_epi64(set, lanes.amount.half(1));
    let near = _mm256_or_si256(
        _mm256_and_si256(up, lanes.land.half(0)),
        _mm256_and_si256(down, lanes.land.half(1)),
    );
    fold(near)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn beside_along_every_axis_avx2(lanes: &Lanes, set: u64, free: &[u64; 4]) -> u64 {
    let set = _mm256_set1_epi64x(set as i64);
    let up = _mm256_and_si256(
        _mm256_sllv_epi64(set, lanes.amount.half(0)),
        lanes.land.half(0),
    );
    let down = _mm256_and_si256(
        _mm256_srlv_epi64(set, lanes.amount.half(1)),
        lanes.land.half(1),
    );
    // Lane `i` of the higher directions runs along `geometry::AXES[i]`; the lower directions
    // have the last two axes' the other way round.
    let down = _mm256_permute4x64_epi64::<0b10_11_01_00>(down);
    // SAFETY: four words, read unaligned.
    let free = unsafe { _mm256_loadu_si256(free.as_ptr() as *const __m256i) };
    let held = _mm256_or_si256(free, _mm256_or_si256(up, down));
    let half = _mm_and_si128(
        _mm256_castsi256_si128(held),
        _mm256_extracti128_si256::<1>(held),
    );
    (_mm_cvtsi128_si64(half) & _mm_extract_epi64::<1>(half)) as u64
}

/// The four lanes of `set` together.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fold(set: __m256i) -> u64 {
    let half = _mm_or_si128(
        _mm256_castsi256_si128(set),
        _mm256_extracti128_si256::<1>(set),
    );
    (_mm_cvtsi128_si64(half) | _mm_extract_epi64::<1>(half)) as u64
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn flips_avx2<const ROUNDS: usize>(
    lanes: &Lanes,
    rays: &Octet,
    mine: u64,
    theirs: u64,
) -> u64 {
    let (up, down) = (rays.half(0), rays.half(1));
    let mine = _mm256_set1_epi64x(mine as i64);
    let theirs = _mm256_set1_epi64x(theirs as i64);
    let zero = _mm256_setzero_si256();
    // Along each ray the first cell that is not `theirs` must be `mine`. Towards higher indices
    // that cell is the ray's lowest such bit...
    let stop = _mm256_andnot_si256(theirs, up);
    let outflank = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), mine);
    // Every bit when there is no such cell, else those from it up: not flipped.
    let kept = _mm256_sub_epi64(_mm256_cmpeq_epi64(outflank, zero), outflank);
    let flips = _mm256_andnot_si256(kept, up);
    // ... and towards lower ones its highest. Each disc of `mine` on the ray, moved one step
    // back towards the new disc, is erased when it lands on or below a stop, which leaves one
    // bit exactly when the first stop is `mine`: the cell above it, where the flips end.
    let mut erased = _mm256_andnot_si256(theirs, down);
    for reach in &lanes.reach[..ROUNDS] {
        let by = reach.lanes();
        erased = _mm256_or_si256(erased, _mm256_srlv_epi64(erased, by));
    }
    let back = _mm256_sllv_epi64(_mm256_and_si256(mine, down), lanes.amount.half(1));
    let outflank = _mm256_andnot_si256(erased, back);
    let between = _mm256_and_si256(down, _mm256_sub_epi64(zero, outflank));
    fold(_mm256_or_si256(flips, between))
}

/// Lanes for boards of two words (65 to 128 cells): each register holds two directions, each
/// as its two words, and a shift carries bits from the low word into the high one.
#[derive(Clone, Debug)]
pub(super) struct PairLanes {
    /// For each register (up 0-1, up 2-3, down 0-1, down 2-3, in the order of `geometry::UP`
    /// then `geometry::DOWN`): the step of each of its directions, once per word...
    step: [Quad; 4],
    /// ... what a word keeps of the other in a step (64 less the step) ...
    step_carry: [Quad; 4],
    /// ... the same for two steps ...
    double: [Quad; 4],
    double_carry: [Quad; 4],
    /// ... and the cells each step may land on.
    land: [Quad; 4],
    /// Steps of two cells a line of discs needs after its first two.
    pair_steps: usize,
}

impl PairLanes {
    /// The lanes, if this processor runs the kernel: the eight directions' steps and landing
    /// cells (as low and high words), and `longest` as in [`Lanes::detect`].
    pub fn detect(amount: [u64; 8], land: [[u64; 2]; 8], longest: usize) -> Option<PairLanes> {
        let pair_steps = pair_steps(longest);
        #[cfg(target_arch = "x86_64")]
        // Two steps must stay under a word, which every board's do (a step is at most 27).
        if std::arch::is_x86_feature_detected!("avx2")
            && pair_steps <= MAX_PAIR_STEPS_ANY_BOARD
            && amount.iter().all(|&a| (1..32).contains(&a))
        {
            let per_lane = |f: &dyn Fn(usize) -> u64| {
                std::array::from_fn(|r| Quad(std::array::from_fn(|i| f(2 * r + i / 2))))
            };
            return Some(PairLanes {
                step: per_lane(&|d| amount[d]),
                step_carry: per_lane(&|d| 64 - amount[d]),
                double: per_lane(&|d| 2 * amount[d]),
                double_carry: per_lane(&|d| 64 - 2 * amount[d]),
                land: std::array::from_fn(|r| {
                    let (a, b) = (land[2 * r], land[2 * r + 1]);
                    Quad([a[0], a[1], b[0], b[1]])
                }),
                pair_steps,
            });
        }
        let _ = (amount, land, pair_steps);
        None
    }

    /// The moves of `mine` against `theirs`, as low and high words (empty cells are for the
    /// caller to mask).
    #[inline]
    pub fn moves(&self, mine: [u64; 2], theirs: [u64; 2]) -> [u64; 2] {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `PairLanes` exist only where `detect` found AVX2.
        return unsafe {
            // Two-word boards come in more shapes than one-word ones (9x9 to 11x11, 6x20, 4x26),
            // and each step costs four shifts, so the counts follow them more closely.
            match self.pair_steps {
                0..=2 => pair_moves_avx2::<2>(self, mine, theirs),
                3 => pair_moves_avx2::<3>(self, mine, theirs),
                4 => pair_moves_avx2::<4>(self, mine, theirs),
                5..=6 => pair_moves_avx2::<6>(self, mine, theirs),
                7..=8 => pair_moves_avx2::<8>(self, mine, theirs),
                _ => pair_moves_avx2::<MAX_PAIR_STEPS_ANY_BOARD>(self, mine, theirs),
            }
        };
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no SIMD lanes off x86-64 ({mine:?} {theirs:?})")
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pair_moves_avx2<const PAIR_STEPS: usize>(
    lanes: &PairLanes,
    mine: [u64; 2],
    theirs: [u64; 2],
) -> [u64; 2] {
    let both = |set: [u64; 2]| {
        _mm256_set_epi64x(set[1] as i64, set[0] as i64, set[1] as i64, set[0] as i64)
    };
    let (mine, theirs) = (both(mine), both(theirs));
    let mut moves = _mm256_setzero_si256();
    for r in 0..4 {
        let up = r < 2;
        // A two-word shift by less than a word: each word moves, and the low word's bits that
        // leave it enter the high one (towards higher indices; the reverse towards lower).
        let shift = |set: __m256i, by: __m256i, carry: __m256i| {
            if up {
                let over = _mm256_bslli_epi128::<8>(_mm256_srlv_epi64(set, carry));
                _mm256_or_si256(_mm256_sllv_epi64(set, by), over)
            } else {
                let over = _mm256_bsrli_epi128::<8>(_mm256_sllv_epi64(set, carry));
                _mm256_or_si256(_mm256_srlv_epi64(set, by), over)
            }
        };
        let (step, step_carry) = (lanes.step[r].lanes(), lanes.step_carry[r].lanes());
        let (double, double_carry) = (lanes.double[r].lanes(), lanes.double_carry[r].lanes());
        let land = lanes.land[r].lanes();
        let through = _mm256_and_si256(theirs, land);
        let mut line = _mm256_and_si256(through, shift(mine, step, step_carry));
        line = _mm256_or_si256(
            line,
            _mm256_and_si256(through, shift(line, step, step_carry)),
        );
        let pairs = _mm256_and_si256(through, shift(through, step, step_carry));
        for _ in 0..PAIR_STEPS {
            let ahead = shift(line, double, double_carry);
            line = _mm256_or_si256(line, _mm256_and_si256(pairs, ahead));
        }
        let beyond = _mm256_and_si256(shift(line, step, step_carry), land);
        moves = _mm256_or_si256(moves, beyond);
    }
    let half = _mm_or_si128(
        _mm256_castsi256_si128(moves),
        _mm256_extracti128_si256::<1>(moves),
    );
    [
        _mm_cvtsi128_si64(half) as u64,
        _mm_extract_epi64::<1>(half) as u64,
    ]
}
