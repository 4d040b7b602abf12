//! A game as a file keeps it, in any of the forms the program reads: a GGF record, what
//! `othello play` saves (a position string line, then the moves), or a bare move list.

use super::ggf::{GgfError, GgfGame};
use super::moves::{MoveList, MoveListError};
use super::position::{PositionError, PositionString};
use crate::rules::Move;
use std::str::FromStr;

/// Where a recorded game starts (its own position, or the usual start when it names none)
/// and the moves played from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub position: Option<PositionString>,
    pub moves: MoveList,
}

/// Why a text is not a game record.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("GGF: {0}")]
    Ggf(#[from] GgfError),
    #[error("the position: {0}")]
    Position(#[from] PositionError),
    #[error("{0}")]
    Moves(#[from] MoveListError),
}

impl FromStr for GameRecord {
    type Err = RecordError;
    /// GGF when the text starts with `(;`; otherwise a line starting with `(` is the position
    /// and every other line is part of the moves.
    fn from_str(text: &str) -> Result<Self, RecordError> {
        let text = text.trim_start();
        if text.starts_with("(;") {
            let game: GgfGame = text.parse()?;
            let position = PositionString::new(game.to_move, game.size, game.size, game.cells)?;
            let moves: Vec<Move> = game.moves.into_iter().map(|(_, m)| m).collect();
            return Ok(GameRecord {
                position: Some(position),
                moves: MoveList(moves),
            });
        }
        let mut position = None;
        let mut moves = String::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if line.starts_with('(') {
                position = Some(line.parse::<PositionString>()?);
            } else {
                moves.push(' ');
                moves.push_str(line);
            }
        }
        Ok(GameRecord {
            position,
            moves: moves.parse()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ggf_a_saved_game_and_a_move_list_all_read_as_records() {
        let ggf: GameRecord = "(;GM[Othello]PC[x]BO[4 ---- -O*- -*O- ---- *]B[b1]W[a1/-2.00];)"
            .parse()
            .unwrap();
        assert_eq!(ggf.moves.to_string(), "b1a1");
        let start = ggf.position.unwrap();
        assert_eq!((start.rows(), start.cols()), (4, 4));
        let saved: GameRecord = "(b ---- -wb- -bw- ----)\nb1 a1\nc4\n".parse().unwrap();
        assert_eq!(saved.moves.to_string(), "b1a1c4");
        assert!(saved.position.is_some());
        let bare: GameRecord = "f5d6c3\n".parse().unwrap();
        assert_eq!(
            (bare.position, bare.moves.to_string()),
            (None, "f5d6c3".into())
        );
    }

    #[test]
    fn a_bad_record_says_what_is_wrong() {
        let e = "(;GM[Othello]B[f5];)".parse::<GameRecord>().unwrap_err();
        assert!(e.to_string().starts_with("GGF: "), "{e}");
        assert!("f5 zz9".parse::<GameRecord>().is_err());
        assert!("(b --- -wb)\nf5".parse::<GameRecord>().is_err());
    }
}
