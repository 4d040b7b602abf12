//! The search's score scale: estimates in hundredths of a disc, finished games beyond them all.

/// Hundredths of a disc: the unit of every estimate.
pub const DISC: i32 = 100;

/// Where the scores of finished games start: beyond every estimate.
pub(super) const WON: i32 = 10_000_000;

/// The exact final disc difference of a game, and its place on the search's score scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome(pub i32);

impl Outcome {
    /// The search score: a win beats every estimate, a loss is below every one, and between
    /// outcomes more discs are better.
    pub fn score(self) -> i32 {
        self.0.signum() * WON + self.0 * DISC
    }

    /// The largest difference whose score is at most `score`.
    pub fn at_most(score: i32) -> i32 {
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
    pub fn at_least(score: i32) -> i32 {
        -Self::at_most(-score)
    }

    /// A search score read back as hundredths of a disc: outcomes lose their offset.
    pub fn to_hundredths(score: i32) -> i32 {
        if score > WON / 2 {
            score - WON
        } else if score < -WON / 2 {
            score + WON
        } else {
            score
        }
    }
}

/// A root move's estimate from the root's sort by search, in whole discs.
pub(super) fn in_discs(weight: i32) -> i32 {
    (Outcome::to_hundredths(weight) + DISC / 2).div_euclid(DISC)
}

/// Beyond every score.
pub(super) const INFINITY: i32 = i32::MAX / 4;
