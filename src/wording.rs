//! Numbers in words, as every report writes them: a disc difference with its sign, a count
//! with its noun.

use std::fmt;

/// A disc difference with its sign: `+3`, `0`, `-8`. Honours a width (`{:>6}`), since
/// tables align on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signed(pub i32);

impl fmt::Display for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.pad("0"),
            n => f.pad(&format!("{n:+}")),
        }
    }
}

/// A count and its noun, plural unless the count is one: "1 draw", "22 draws", "3 losses",
/// "2 batches", "1 job".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted<N>(pub N, pub &'static str);

impl<N: fmt::Display + PartialEq + From<u8>> fmt::Display for Counted<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Counted(n, noun) = self;
        let hissing = ["s", "sh", "ch", "x"].iter().any(|e| noun.ends_with(e));
        let ending = match (*n == N::from(1), hissing) {
            (true, _) => "",
            (false, true) => "es",
            (false, false) => "s",
        };
        write!(f, "{n} {noun}{ending}")
    }
}

#[cfg(test)]
mod tests {
    use super::{Counted, Signed};

    #[test]
    fn differences_carry_their_sign_and_zero_none() {
        assert_eq!(Signed(3).to_string(), "+3");
        assert_eq!(Signed(0).to_string(), "0");
        assert_eq!(Signed(-8).to_string(), "-8");
        assert_eq!(format!("{:>4}|", Signed(2)), "  +2|");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(Counted(1u32, "draw").to_string(), "1 draw");
        assert_eq!(Counted(0u32, "draw").to_string(), "0 draws");
        assert_eq!(Counted(22u64, "game").to_string(), "22 games");
        assert_eq!(Counted(1u32, "loss").to_string(), "1 loss");
        assert_eq!(Counted(3u32, "loss").to_string(), "3 losses");
        assert_eq!(Counted(1usize, "job").to_string(), "1 job");
        assert_eq!(Counted(2usize, "batch").to_string(), "2 batches");
        assert_eq!(Counted(1usize, "batch").to_string(), "1 batch");
    }
}
