//! A game as a file keeps it, in any of the forms the program reads: a GGF record, what
//! `othello play` saves (a position string line, then the moves), or a bare move list.

use super::ggf::{parse_ggf_games, GgfError, GgfFileError, GgfGame};
use super::moves::{MoveList, MoveListError};
use super::position::{PositionError, PositionString};
use crate::rules::{Color, Move};
use std::fmt;
use std::str::FromStr;

/// Where a recorded game starts (its own position, or the usual start when it names none)
/// and the moves played from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub position: Option<PositionString>,
    pub moves: MoveList,
    /// A GGF record's other properties (players, result, date, type, ...), name and value;
    /// none in the other forms.
    pub properties: Vec<(String, String)>,
}

/// Why a text is not a game record.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("GGF: {0}")]
    Ggf(#[from] GgfError),
    #[error("GGF: {0}")]
    GgfFile(#[from] GgfFileError),
    #[error("the position: {0}")]
    Position(#[from] PositionError),
    /// A move that is not one, on line `line` of the text (from 1), its number counted over
    /// the whole game and its character within that line.
    #[error("line {line}: {error}")]
    Moves { line: usize, error: MoveListError },
}

impl FromStr for GameRecord {
    type Err = RecordError;
    /// GGF when the text starts with `(;`; otherwise a line starting with `(` is the position
    /// and every other line is part of the moves.
    fn from_str(text: &str) -> Result<Self, RecordError> {
        // Editors on some systems begin a UTF-8 file with a byte-order mark; it is no move.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim_start().starts_with("(;") {
            let game: GgfGame = text.parse()?;
            return GameRecord::of_ggf(game);
        }
        let mut position = None;
        let mut moves = Vec::new();
        // Each line is read by itself, so that a bad move is placed where an editor shows it.
        for (i, line) in text.lines().enumerate() {
            if line.trim().starts_with('(') {
                position = Some(line.trim().parse::<PositionString>()?);
            } else {
                let listed = line
                    .parse::<MoveList>()
                    .map_err(|error| RecordError::Moves {
                        line: i + 1,
                        error: MoveListError {
                            number: moves.len() + error.number,
                            ..error
                        },
                    })?;
                moves.extend(listed.0);
            }
        }
        Ok(GameRecord {
            position,
            moves: MoveList(moves),
            properties: Vec::new(),
        })
    }
}

impl GameRecord {
    /// Every game of a text: all the records of a GGF file (GGS match lines too, see
    /// [`parse_ggf_games`]), else the one game of the other forms.
    pub fn parse_all(text: &str) -> Result<Vec<GameRecord>, RecordError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if GameRecord::is_ggf(text) {
            return parse_ggf_games(text)?
                .into_iter()
                .map(GameRecord::of_ggf)
                .collect();
        }
        Ok(vec![text.parse()?])
    }

    /// Whether `text` is GGF: its first record starts it, perhaps after a byte-order mark and
    /// a GGS match line's count.
    pub fn is_ggf(text: &str) -> bool {
        text.strip_prefix('\u{feff}')
            .unwrap_or(text)
            .trim_start()
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start()
            .starts_with("(;")
    }

    fn of_ggf(game: GgfGame) -> Result<GameRecord, RecordError> {
        let position = PositionString::new(game.to_move, game.size, game.size, game.cells)?;
        let moves: Vec<Move> = game.moves.into_iter().map(|(_, m)| m).collect();
        Ok(GameRecord {
            position: Some(position),
            moves: MoveList(moves),
            properties: game.properties,
        })
    }

    /// The value of the GGF property `name`, if the record has it.
    pub fn property(&self, name: &str) -> Option<&str> {
        super::ggf::property(&self.properties, name)
    }

    /// Whether the record's GGS game type says anti-Othello (misère: `TY[8a]`).
    pub fn anti(&self) -> bool {
        self.property("TY").is_some_and(super::ggf::is_anti)
    }
}

/// The forms a game is written in: what `play` saves (the start position, then the moves),
/// a GGF record, or the bare move list from the board's usual start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    Saved,
    Ggf,
    Moves,
}

impl RecordFormat {
    /// The form a file's name asks for: GGF for `.ggf`, else the saved-game form.
    pub fn for_path(path: &str) -> RecordFormat {
        let ggf = std::path::Path::new(path)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("ggf"));
        if ggf {
            RecordFormat::Ggf
        } else {
            RecordFormat::Saved
        }
    }

    /// The text of a game that starts at `start` with `moves`, each with its mover, and, in a
    /// GGF record, `properties` (players, result, ...). A move list says nothing of the start,
    /// so the caller decides whether the usual start is meant.
    pub fn write(
        self,
        start: &PositionString,
        moves: &[(Color, Move)],
        properties: &[(String, String)],
    ) -> Result<String, String> {
        let list = MoveList(moves.iter().map(|&(_, m)| m).collect());
        Ok(match self {
            RecordFormat::Saved => format!("{start}\n{list}\n"),
            RecordFormat::Moves => format!("{list}\n"),
            RecordFormat::Ggf => {
                if start.rows() != start.cols() {
                    return Err(format!(
                        "GGF holds square boards only, not {}",
                        start.shape()
                    ));
                }
                let game = GgfGame {
                    size: start.rows(),
                    cells: start.cells().to_vec(),
                    to_move: start.to_move(),
                    moves: moves.to_vec(),
                    properties: properties.to_vec(),
                };
                format!("{game}\n")
            }
        })
    }
}

impl FromStr for RecordFormat {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "game" => Ok(RecordFormat::Saved),
            "ggf" => Ok(RecordFormat::Ggf),
            "moves" => Ok(RecordFormat::Moves),
            _ => Err(format!("{text:?} is not a form: game, ggf or moves")),
        }
    }
}

impl fmt::Display for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordFormat::Saved => "game",
            RecordFormat::Ggf => "ggf",
            RecordFormat::Moves => "moves",
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

    #[test]
    fn a_bad_move_is_placed_by_its_line_and_character_and_a_byte_order_mark_is_skipped() {
        let err = |text: &str| text.parse::<GameRecord>().unwrap_err().to_string();
        assert_eq!(
            err("x\n"),
            "line 1: move 1 (character 1, \"x\"): \"x\" has no row number after its column letter"
        );
        assert_eq!(
            err("f5 d6 c3 xx\n"),
            "line 1: move 4 (character 10, \"x\"): \"x\" has no row number after its column letter"
        );
        assert_eq!(
            err("f5 d6\r\n\n  c3 xx\n"),
            "line 3: move 4 (character 6, \"x\"): \"x\" has no row number after its column letter"
        );
        assert_eq!(
            err("\u{feff}(b ---- -wb- -bw- ----)\nb1 z\n"),
            "line 2: move 2 (character 4, \"z\"): \"z\" has no row number after its column letter"
        );
        for text in ["\u{feff}f5d6\n", "\u{feff}(b ---- -wb- -bw- ----)\nb1\n"] {
            let record: GameRecord = text.parse().unwrap();
            assert!(!record.moves.is_empty(), "{text}");
        }
        let ggf = "\u{feff}(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1];)";
        assert_eq!(ggf.parse::<GameRecord>().unwrap().moves.to_string(), "b1");
    }

    #[test]
    fn every_form_written_reads_back_as_the_same_game() {
        let start: PositionString = "(b ---- -wb- -bw- ----)".parse().unwrap();
        let moves = [
            (Color::Black, "b1".parse().unwrap()),
            (Color::White, "a1".parse().unwrap()),
            (Color::Black, Move::Pass),
        ];
        for format in [RecordFormat::Saved, RecordFormat::Ggf, RecordFormat::Moves] {
            let text = format.write(&start, &moves, &[]).unwrap();
            let back: GameRecord = text.parse().unwrap();
            assert_eq!(back.moves.to_string(), "b1a1pa", "{format}: {text}");
            let position = (format != RecordFormat::Moves).then(|| start.clone());
            assert_eq!(back.position, position, "{format}: {text}");
            assert_eq!(format.to_string().parse::<RecordFormat>(), Ok(format));
        }
        let wide: PositionString = "(b ----- -wb-- -bw-- -----)".parse().unwrap();
        let e = RecordFormat::Ggf.write(&wide, &moves, &[]).unwrap_err();
        assert!(e.contains("square boards only"), "{e}");
        assert_eq!(RecordFormat::for_path("x/game.GGF"), RecordFormat::Ggf);
        assert_eq!(RecordFormat::for_path("game.txt"), RecordFormat::Saved);
        assert!("sgf".parse::<RecordFormat>().is_err());
    }
}
