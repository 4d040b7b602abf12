//! Squares in standard notation (seeds 000 and 004): a column letter from `a` and a row number
//! counted from the top, `a1`..`z26`. Input may be in either case; output is lowercase, or
//! uppercase (`B1`, as `show` writes) with the alternate flag `{:#}`.
//!
//! Parsing knows nothing of board sizes: `z26` is a square, and whether it is on the board is
//! asked when it is played.

use crate::rules::{Square, MAX_SIDE};
use std::fmt;
use std::str::FromStr;

/// Why a square was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("no square given; a square is a column letter and a row number such as f5")]
    Empty,
    #[error("'{0}' is not a column letter a to z")]
    Column(char),
    #[error("\"{0}\" has no row number after its column letter")]
    NoRow(String),
    #[error("\"{0}\" is not a row number from 1 to 26")]
    Row(String),
}

impl FromStr for Square {
    type Err = SquareError;
    fn from_str(text: &str) -> Result<Self, SquareError> {
        let mut chars = text.chars();
        let letter = chars.next().ok_or(SquareError::Empty)?;
        if !letter.is_ascii_alphabetic() {
            return Err(SquareError::Column(letter));
        }
        let col = letter.to_ascii_lowercase() as u8 - b'a';
        let digits = chars.as_str();
        if digits.is_empty() {
            return Err(SquareError::NoRow(text.to_string()));
        }
        let bad_row = || SquareError::Row(digits.to_string());
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad_row());
        }
        let row: usize = digits.parse().map_err(|_| bad_row())?;
        if !(1..=MAX_SIDE).contains(&row) {
            return Err(bad_row());
        }
        Ok(Square::new(row as u8 - 1, col))
    }
}

impl fmt::Display for Square {
    /// `f5`; `F5` with `{:#}`. A column past `z` (never on a board) prints as `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = if f.alternate() { b'A' } else { b'a' };
        let letter = if usize::from(self.col) < MAX_SIDE {
            (base + self.col) as char
        } else {
            '?'
        };
        write!(f, "{letter}{}", u32::from(self.row) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn squares_read_either_case_and_print_lowercase() {
        assert_eq!("f5".parse(), Ok(Square::new(4, 5)));
        assert_eq!("F5".parse(), Ok(Square::new(4, 5)));
        assert_eq!("a1".parse(), Ok(Square::new(0, 0)));
        assert_eq!("Z26".parse(), Ok(Square::new(25, 25)));
        assert_eq!(Square::new(25, 25).to_string(), "z26");
        assert_eq!(format!("{:#}", Square::new(0, 1)), "B1");
        assert_eq!(Square::new(0, 26).to_string(), "?1");
    }

    #[test]
    fn broken_squares_say_what_is_wrong() {
        let err = |s: &str| s.parse::<Square>().unwrap_err().to_string();
        assert_eq!(
            err(""),
            "no square given; a square is a column letter and a row number such as f5"
        );
        assert_eq!(err("5f"), "'5' is not a column letter a to z");
        assert_eq!(err("f"), "\"f\" has no row number after its column letter");
        assert_eq!(err("a0"), "\"0\" is not a row number from 1 to 26");
        assert_eq!(err("a27"), "\"27\" is not a row number from 1 to 26");
        assert_eq!(err("a5x"), "\"5x\" is not a row number from 1 to 26");
        assert_eq!(err("a+5"), "\"+5\" is not a row number from 1 to 26");
        assert_eq!(
            err("a99999999999999999999"),
            "\"99999999999999999999\" is not a row number from 1 to 26"
        );
        assert_eq!(err("é1"), "'é' is not a column letter a to z");
    }

    proptest! {
        #[test]
        fn squares_round_trip(row in 0u8..26, col in 0u8..26, upper: bool) {
            let sq = Square::new(row, col);
            let text = if upper { format!("{sq:#}") } else { sq.to_string() };
            prop_assert_eq!(text.parse::<Square>(), Ok(sq));
        }
    }
}
