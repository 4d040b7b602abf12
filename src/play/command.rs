//! What a person types, read into a [`Command`]: a move (or a line of moves) or one of the
//! commands `help` lists. Reading needs no game; a line that is not a command is taken as
//! moves, read against the board when they are played (only the board knows its size).

use crate::notation::MoveList;
use crate::rules::{Move, Shape, Square};
use std::str::FromStr;

/// One typed line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Command {
    /// An empty line: the board again.
    Show,
    Help,
    Analyze,
    Quit,
    New,
    /// `load FILE`.
    Load(String),
    /// `save FILE [FORM]`, the form as typed (checked when saving, where the name may choose).
    Save {
        path: String,
        form: Option<String>,
    },
    /// `level N`: the computer searches N moves ahead.
    Level(u32),
    /// `level` alone: how the computer searches now.
    LevelNow,
    /// A move or a command about the game on the board.
    Board(BoardCommand),
}

/// The commands the board carries out itself: moves, and those about the game in hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum BoardCommand {
    Undo,
    Redo,
    /// `hint` alone: the engine's move, searched as the computer plays.
    Hint,
    /// `hint N`: the N best moves.
    Hints(usize),
    Resign,
    /// A typed pass, which the game only acknowledges.
    Pass,
    /// `moves`: the game so far.
    Moves,
    Swap,
    Play(TypedMoves),
}

/// What `save` or `load` without a file's name says.
const NAME_A_FILE: &str =
    "Name a file: save FILE [game|ggf|moves], load FILE (a name with spaces in quotes).";

impl FromStr for Command {
    /// What is wrong with the line, as printed.
    type Err = String;

    /// The first word names the command, in any case; other words are its arguments, and
    /// words after those a command takes are ignored.
    fn from_str(line: &str) -> Result<Command, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else {
            return Ok(Command::Show);
        };
        let name = first.to_ascii_lowercase();
        let board = Command::Board;
        Ok(match (name.as_str(), &words[1..]) {
            ("help" | "?", _) => Command::Help,
            ("analyze" | "analyse", _) => Command::Analyze,
            ("quit" | "exit", _) => Command::Quit,
            ("new", _) => Command::New,
            ("save" | "load", _) => return file_command(&name, line),
            ("level", [n]) => match n.parse::<u32>() {
                Ok(depth @ 1..=60) => Command::Level(depth),
                _ => return Err(format!("{n:?} is not a level from 1 to 60.")),
            },
            ("level", []) => Command::LevelNow,
            ("level", _) => return Err("Give one level: level 6.".to_string()),
            ("undo", _) => board(BoardCommand::Undo),
            ("redo", _) => board(BoardCommand::Redo),
            ("hint", []) => board(BoardCommand::Hint),
            ("hint", [n, ..]) => match n.parse::<usize>() {
                Ok(n @ 1..=64) => board(BoardCommand::Hints(n)),
                _ => return Err("hint N lists the N best moves, N from 1 to 64.".to_string()),
            },
            ("resign", _) => board(BoardCommand::Resign),
            ("pass" | "pa", _) => board(BoardCommand::Pass),
            ("moves", _) => board(BoardCommand::Moves),
            ("swap", _) => board(BoardCommand::Swap),
            _ => board(BoardCommand::Play(TypedMoves(line.trim().to_string()))),
        })
    }
}

/// `save` or `load` (`name`), whose file's name may hold spaces, given in quotes.
fn file_command(name: &str, line: &str) -> Result<Command, String> {
    let words = split_quoted(line)?;
    match (name, &words[..]) {
        ("load", [_, path]) => Ok(Command::Load(path.clone())),
        ("save", [_, path, form @ ..]) if form.len() <= 1 => Ok(Command::Save {
            path: path.clone(),
            form: form.first().cloned(),
        }),
        _ => Err(NAME_A_FILE.to_string()),
    }
}

/// The words of `line`, where a word in double or single quotes may hold spaces (and the other
/// quote); a quote left open is refused rather than taken as part of a name.
fn split_quoted(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(&first) = chars.peek() else {
            return Ok(words);
        };
        let mut word = String::new();
        if first == '"' || first == '\'' {
            chars.next();
            loop {
                match chars.next() {
                    Some(c) if c == first => break,
                    Some(c) => word.push(c),
                    None => {
                        return Err("A quote is left open: put the file's name between two \" \
                                    or two '."
                            .to_string())
                    }
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                word.push(c);
            }
        }
        words.push(word);
    }
}

/// A line that is no command, as typed (trimmed): one move (`f5`, `F5`, `row col`) or a line
/// of them (`f5d6c3`), or neither.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TypedMoves(String);

impl TypedMoves {
    /// The one square typed, if it is on a board of `shape`; what is wrong otherwise.
    pub(super) fn square(&self, shape: Shape) -> Result<Square, String> {
        let text = &self.0;
        let off = || format!("{text} is off the {shape} board.");
        let square = match crate::protocols::line::MoveLine::parse(text) {
            Some(m) => m.square().ok_or_else(off)?,
            None => text
                .parse::<Square>()
                .map_err(|_| format!("{text:?} is not a move or a command (type help)."))?,
        };
        match shape.index(square) {
            Some(_) => Ok(square),
            None => Err(off()),
        }
    }

    /// Two moves or more, such as `f5d6c3` (passes left out or written `pa`), as the squares
    /// to play; `None` when the line is not one.
    pub(super) fn line(&self) -> Option<Vec<Square>> {
        let list = self.0.parse::<MoveList>().ok()?;
        let squares: Vec<Square> = list
            .iter()
            .filter_map(|m| match m {
                Move::Play(square) => Some(*square),
                Move::Pass => None,
            })
            .collect();
        (squares.len() >= 2).then_some(squares)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<Command, String> {
        line.parse()
    }

    #[test]
    fn a_line_reads_as_the_command_its_first_word_names_in_any_case() {
        assert_eq!(read("  "), Ok(Command::Show));
        assert_eq!(read("HINT"), Ok(Command::Board(BoardCommand::Hint)));
        assert_eq!(read("hint 3 x"), Ok(Command::Board(BoardCommand::Hints(3))));
        assert_eq!(read("Level 7"), Ok(Command::Level(7)));
        assert_eq!(read("level"), Ok(Command::LevelNow));
        assert_eq!(read("pa"), Ok(Command::Board(BoardCommand::Pass)));
        assert_eq!(
            read("save 'my game' ggf"),
            Ok(Command::Save {
                path: "my game".into(),
                form: Some("ggf".into())
            })
        );
        assert_eq!(read("load \"a b\""), Ok(Command::Load("a b".into())));
        assert_eq!(
            read(" f5d6 "),
            Ok(Command::Board(BoardCommand::Play(TypedMoves(
                "f5d6".into()
            ))))
        );
    }

    #[test]
    fn a_command_with_wrong_arguments_says_what_it_takes() {
        assert_eq!(
            read("level 0"),
            Err("\"0\" is not a level from 1 to 60.".into())
        );
        assert_eq!(read("level 3 4"), Err("Give one level: level 6.".into()));
        assert_eq!(
            read("hint x"),
            Err("hint N lists the N best moves, N from 1 to 64.".into())
        );
        assert_eq!(read("load"), Err(NAME_A_FILE.into()));
        assert_eq!(read("save a b c"), Err(NAME_A_FILE.into()));
        assert!(read("save 'open")
            .unwrap_err()
            .starts_with("A quote is left open"));
    }

    #[test]
    fn moves_are_read_against_the_boards_size() {
        let shape = Shape::new(8, 8).unwrap();
        let typed = |text: &str| TypedMoves(text.into());
        assert_eq!(typed("6 4").square(shape).unwrap().to_string(), "d6");
        assert_eq!(typed("F5").square(shape).unwrap().to_string(), "f5");
        assert_eq!(
            typed("i9").square(shape),
            Err("i9 is off the 8x8 board.".into())
        );
        assert_eq!(
            typed("hello").square(shape),
            Err("\"hello\" is not a move or a command (type help).".into())
        );
        let line = typed("f5 d6").line().unwrap();
        assert_eq!(line.len(), 2);
        assert_eq!(typed("f5").line(), None);
    }
}
