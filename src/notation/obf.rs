//! OBF lines, the format of the FFO endgame test files: 64 cells `a1 b1 .. h1 a2 .. h8` (`X`
//! black, `O` white, `-` empty), a space, the side to move, then `;` and optional `MOVE:+score`
//! items with the exact score of each move (empty cells counted for the winner).

use super::position::PositionString;
use crate::rules::{Color, Square};
use std::fmt;
use std::str::FromStr;

/// One OBF position with the scores it lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obf {
    /// The 8x8 board and the side to move.
    pub position: PositionString,
    /// Listed moves with their scores, in file order (best first).
    pub scores: Vec<(Square, i32)>,
}

/// Why an OBF line was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObfError {
    #[error("expected 64 cells of X, O or -, then a space and X or O")]
    Board,
    #[error("cell {0} is {1:?}, not X, O or -")]
    Cell(usize, char),
    #[error("the side to move is {0:?}, not X or O")]
    Side(String),
    #[error("{0:?} is not a move and score such as G8:+18")]
    Score(String),
}

pub const OBF_SIDE: usize = 8;

impl FromStr for Obf {
    type Err = ObfError;
    fn from_str(line: &str) -> Result<Self, ObfError> {
        let (position, scores) = line.split_once(';').unwrap_or((line, ""));
        let mut parts = position.split_ascii_whitespace();
        let board = parts.next().ok_or(ObfError::Board)?;
        let side = parts.next().ok_or(ObfError::Board)?;
        if board.chars().count() != OBF_SIDE * OBF_SIDE || parts.next().is_some() {
            return Err(ObfError::Board);
        }
        let cells = board
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'X' | 'x' | '*' => Ok(Some(Color::Black)),
                'O' | 'o' => Ok(Some(Color::White)),
                '-' | '.' => Ok(None),
                other => Err(ObfError::Cell(i, other)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let to_move = match side {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            other => return Err(ObfError::Side(other.to_string())),
        };
        let scores = scores
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(parse_score)
            .collect::<Result<Vec<_>, _>>()?;
        let position = PositionString::new(to_move, OBF_SIDE, OBF_SIDE, cells)
            .expect("64 cells make an 8x8 board");
        Ok(Obf { position, scores })
    }
}

fn parse_score(item: &str) -> Result<(Square, i32), ObfError> {
    let bad = || ObfError::Score(item.to_string());
    let (mv, score) = item.split_once(':').ok_or_else(bad)?;
    let square: Square = mv.parse().map_err(|_| bad())?;
    if usize::from(square.row.max(square.col)) >= OBF_SIDE {
        return Err(bad());
    }
    let score: i32 = score.trim_start_matches('+').parse().map_err(|_| bad())?;
    Ok((square, score))
}

impl fmt::Display for Obf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.position.cells() {
            f.write_str(match c {
                Some(Color::Black) => "X",
                Some(Color::White) => "O",
                None => "-",
            })?;
        }
        let side = match self.position.to_move() {
            Color::Black => "X",
            Color::White => "O",
        };
        write!(f, " {side};")?;
        for (sq, score) in &self.scores {
            write!(f, " {sq:#}:{score:+};")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ffo_lines_round_trip() {
        let text = include_str!("../../tests/data/fforum-1-19.obf");
        for line in text.lines() {
            let obf: Obf = line.parse().unwrap();
            assert_eq!(obf.to_string().trim_end(), line.trim_end());
            assert!(!obf.scores.is_empty());
        }
    }

    #[test]
    fn broken_lines_say_what_is_wrong() {
        assert_eq!("".parse::<Obf>(), Err(ObfError::Board));
        let board = "-".repeat(64);
        assert_eq!(
            format!("{board} Z;").parse::<Obf>(),
            Err(ObfError::Side("Z".into()))
        );
        assert_eq!(
            format!("{board} X; J9:+2;").parse::<Obf>(),
            Err(ObfError::Score("J9:+2".into()))
        );
    }
}
