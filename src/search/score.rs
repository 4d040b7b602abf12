//! The search's score scale: estimates in hundredths of a disc, finished games beyond them all.

/// Hundredths of a disc: the unit of every estimate.
pub const DISC: i32 = 100;

/// Where the scores of finished games start: beyond every estimate.
pub(super) const WON: i32 = 10_000_000;

/// A value on the search's scale, for the side to move: an estimate in hundredths of a disc
/// (within half of `WON` either side), or a finished game's [`Outcome`] beyond every
/// estimate. Whole-disc solver values and reported hundredths are plain numbers; this type
/// keeps the two offsets from mixing with them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Score(pub(super) i32);

impl Score {
    /// Beyond every score.
    pub(super) const INFINITY: Score = Score(INFINITY);

    /// An estimate in hundredths of a disc, kept clear of won and lost scores.
    pub(super) fn estimate(hundredths: i32) -> Score {
        Score(hundredths.clamp(-WON / 2, WON / 2))
    }

    /// The score read back as hundredths of a disc: outcomes lose their offset.
    pub fn to_hundredths(self) -> i32 {
        let Score(score) = self;
        if score > WON / 2 {
            score - WON
        } else if score < -WON / 2 {
            score + WON
        } else {
            score
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// The edge of a null window: the score one unit below.
impl std::ops::Sub<i32> for Score {
    type Output = Score;
    fn sub(self, units: i32) -> Score {
        Score(self.0 - units)
    }
}

/// What the principal-variation loop ([`Engine::best_of`](super::Engine)) compares: a search
/// [`Score`], or the solver's whole-disc difference.
pub(super) trait Value:
    Copy + Ord + std::ops::Neg<Output = Self> + std::ops::Sub<i32, Output = Self>
{
    /// Below every value.
    const LOWEST: Self;
}

impl Value for Score {
    const LOWEST: Score = Score(-INFINITY);
}

impl Value for i32 {
    const LOWEST: i32 = -INFINITY;
}

/// The exact final disc difference of a game, and its place on the search's score scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome(pub i32);

impl Outcome {
    /// The search score: a win beats every estimate, a loss is below every one, and between
    /// outcomes more discs are better.
    pub fn score(self) -> Score {
        Score(self.0.signum() * WON + self.0 * DISC)
    }

    /// The largest difference whose score is at most `score`.
    pub fn at_most(Score(score): Score) -> i32 {
        if score >= WON + DISC {
            (score - WON).div_euclid(DISC)
        } else if score >= 0 {
            0
        } else if score >= -WON - DISC {
            -1
        } else {
            (score + WON).div_euclid(DISC)
        }
    }

    /// The smallest difference whose score is at least `score`.
    pub fn at_least(score: Score) -> i32 {
        -Self::at_most(-score)
    }
}

/// A root move's estimate from the root's sort by search, in whole discs.
pub(super) fn in_discs(weight: i32) -> i32 {
    (Score(weight).to_hundredths() + DISC / 2).div_euclid(DISC)
}

/// Beyond every score.
pub(super) const INFINITY: i32 = i32::MAX / 4;
