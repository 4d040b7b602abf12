//! Tournament move triples: `(W D 3)` places a white disc on column D, row 3 counted from the
//! bottom; `(B P 1)` is a pass (any row number is read; a pass of this program is written with
//! `1`, one read is written back with its row, which names square P on boards of 16 columns).
//!
//! The tournament board is the standard board turned upside down with the colours swapped:
//! the tournament's White moves first from D5/E4 exactly as standard Black moves first from d5/e4
//! when rows are counted from the top. So the program plays the standard game inside and a
//! triple only renames: the tournament's colour is the standard colour swapped, and its row number
//! is the standard row number. `(W F 5)` is standard `f5` by Black, and a standard move list
//! such as `f5d6c3` reads the same in both.

use crate::rules::{Color, Move, Square, MAX_SIDE};
use std::fmt;
use std::str::FromStr;

/// A move on the wire: the colour the tournament gives the mover, and the square or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triple {
    /// The colour as the tournament names it (`W` moves first).
    pub color: Color,
    /// The move in the program's standard orientation.
    pub played: Move,
    /// For a `P` with a row: square P of that row, which boards of 16 or more columns have.
    column_p: Option<Square>,
    /// The row a `P` was written with, written back as read (any number is a pass's row).
    pass_row: u32,
}

impl Triple {
    /// The triple for a move of the standard game.
    pub fn from_standard(color: Color, played: Move) -> Triple {
        Triple {
            color: color.opposite(),
            played,
            column_p: None,
            pass_row: 1,
        }
    }

    /// The move meant, given the board's width and whether the mover must pass. On boards of
    /// 16 or more columns `P` is also a column; it means a pass only when the mover has no move
    /// (a pass is legal only then, so nothing legal is misread).
    pub fn move_on(&self, cols: usize, must_pass: bool) -> Move {
        match (self.played, self.column_p) {
            (Move::Pass, Some(square)) if cols > usize::from(b'P' - b'A') && !must_pass => {
                Move::Play(square)
            }
            (played, _) => played,
        }
    }

    /// The standard game's mover.
    pub fn standard_color(&self) -> Color {
        self.color.opposite()
    }
}

/// The tournament's letter for a colour of the standard game: the first mover is `W`.
pub fn seed_letter(standard: Color) -> char {
    standard.opposite().letter()
}

/// Why a line is not a triple.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TripleError {
    #[error("a move is written (COLOUR COLUMN ROW), such as (W D 3) or (B P 1)")]
    Shape,
    #[error("the colour must be W or B, not {0:?}")]
    Color(String),
    #[error("the column must be a letter A..Z or P for a pass, not {0:?}")]
    Column(String),
    #[error("the row must be a number from 1 to 26, not {0:?}")]
    Row(String),
}

impl FromStr for Triple {
    type Err = TripleError;

    /// Reads `(W D 3)`; either case, any spacing inside the parentheses.
    fn from_str(text: &str) -> Result<Triple, TripleError> {
        let inner = text
            .trim()
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .ok_or(TripleError::Shape)?;
        let fields: Vec<&str> = inner.split_whitespace().collect();
        let [color, column, row] = fields[..] else {
            return Err(TripleError::Shape);
        };
        let color = match color {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => return Err(TripleError::Color(other.to_string())),
        };
        let row_number = || -> Result<u8, TripleError> {
            row.parse::<u8>()
                .ok()
                .filter(|r| (1..=MAX_SIDE as u8).contains(r))
                .ok_or_else(|| TripleError::Row(row.to_string()))
        };
        let letter = match column.as_bytes() {
            [c] if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => return Err(TripleError::Column(column.to_string())),
        };
        // P is both a pass and, on boards of 16 columns or more, a column; a pass's row is
        // free, so P with a row is read as a pass and the board decides nothing here.
        if letter == b'P' {
            let pass_row = row
                .parse::<u32>()
                .map_err(|_| TripleError::Row(row.to_string()))?;
            let column_p = row_number().ok().map(|r| Square::new(r - 1, letter - b'A'));
            return Ok(Triple {
                color,
                played: Move::Pass,
                column_p,
                pass_row,
            });
        }
        Ok(Triple {
            color,
            played: Move::Play(Square::new(row_number()? - 1, letter - b'A')),
            column_p: None,
            pass_row: 1,
        })
    }
}

impl fmt::Display for Triple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = self.color.letter();
        match self.played {
            Move::Play(s) => write!(f, "({color} {} {})", (b'A' + s.col) as char, s.row + 1),
            // A P read with a row keeps it: on a wide board it may be the square, not a pass.
            Move::Pass => {
                write!(f, "({color} P {})", self.pass_row)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_seed_examples() {
        let t: Triple = "(W D 3)".parse().unwrap();
        assert_eq!(t.color, Color::White);
        assert_eq!(t.standard_color(), Color::Black);
        assert_eq!(t.played, Move::Play(Square::new(2, 3)));
        assert_eq!(t.to_string(), "(W D 3)");
        let pass: Triple = "( b p 7 )".parse().unwrap();
        assert_eq!(pass.played, Move::Pass);
        assert_eq!(pass.to_string(), "(B P 7)");
        assert_eq!(pass.move_on(8, false), Move::Pass);
        assert_eq!(pass.move_on(16, true), Move::Pass);
        assert_eq!(pass.move_on(16, false), Move::Play(Square::new(6, 15)));
        assert_eq!(
            Triple::from_standard(Color::White, Move::Play(Square::new(25, 25))).to_string(),
            "(B Z 26)"
        );
    }

    #[test]
    fn a_p_with_a_row_is_written_with_that_row() {
        // Found by fuzzing: `(W P 2)` was written `(W P 1)`, square P1 on a 16-column board.
        let text = std::str::from_utf8(b"(W P 2)").unwrap();
        let read: Triple = text.parse().unwrap();
        assert_eq!(read.to_string(), "(W P 2)");
        let again: Triple = read.to_string().parse().unwrap();
        assert_eq!(again, read);
        assert_eq!(again.move_on(16, false), Move::Play(Square::new(1, 15)));
        // Found by fuzzing: `(W P 0)`, a pass only, was written `(W P 1)`, square P1.
        for text in ["(W P 0)", "(W P 27)", "(W P 4000000000)"] {
            let read: Triple = text.parse().unwrap();
            assert_eq!(read.to_string(), text);
            assert_eq!(read.to_string().parse::<Triple>().unwrap(), read);
            assert_eq!(read.move_on(16, false), Move::Pass);
        }
        let ours = Triple::from_standard(Color::Black, Move::Pass);
        assert_eq!(ours.to_string(), "(W P 1)");
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!("W D 3".parse::<Triple>(), Err(TripleError::Shape));
        assert_eq!("(W D)".parse::<Triple>(), Err(TripleError::Shape));
        assert_eq!(
            "(X D 3)".parse::<Triple>(),
            Err(TripleError::Color("X".into()))
        );
        assert_eq!(
            "(W DD 3)".parse::<Triple>(),
            Err(TripleError::Column("DD".into()))
        );
        assert_eq!(
            "(W D 0)".parse::<Triple>(),
            Err(TripleError::Row("0".into()))
        );
        assert_eq!(
            "(W D 27)".parse::<Triple>(),
            Err(TripleError::Row("27".into()))
        );
        assert_eq!(
            "(W P x)".parse::<Triple>(),
            Err(TripleError::Row("x".into()))
        );
    }
}
