//! The line protocol of seed 003: `FULL`/`SIMPLE`, a five-line header, then one move per line
//! answered `VALID` or `INVALID`, with the score, board and turn printed before every move.
//!
//! [`Session`] is the pure core: it takes one input line and returns the lines to print.
//! [`run`] does the reading and writing around it.

mod header;
mod lines;

pub use header::{Header, HeaderError, HeaderField};
pub use lines::{LineReader, Unreadable, MAX_LINE};

use crate::players::{Player, PlayerSpec};
use crate::rules::{Color, DynGame, RuleSet, Setup, Square, Variant, Winner};
use crate::search::Config;
use std::io::{self, BufRead, Write};

/// Command-line choices that the header does not carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub rule_set: RuleSet,
    pub place_anywhere: bool,
    /// The side or sides the program plays, and how it searches.
    pub computer: Option<Computer>,
}

/// The program as a player in the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Computer {
    pub sides: Sides,
    pub config: Config,
}

/// Which sides a player takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    Black,
    White,
    Both,
}

impl Sides {
    pub fn includes(self, color: Color) -> bool {
        match self {
            Sides::Both => true,
            Sides::Black => color == Color::Black,
            Sides::White => color == Color::White,
        }
    }
}

enum Stage {
    Header(Header),
    Playing(Box<dyn DynGame>),
    Over,
}

/// One protocol session, fed a line at a time.
pub struct Session {
    options: Options,
    stage: Stage,
    /// The program's sides and player, once the header has fixed the board.
    computer: Option<(Sides, Box<dyn Player>)>,
}

/// A parsed move line: 1-based row and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLine {
    pub row: usize,
    pub col: usize,
}

impl MoveLine {
    /// Exactly two unsigned decimal integers separated by white space; `None` for anything else.
    pub fn parse(line: &str) -> Option<MoveLine> {
        let mut tokens = line.split_ascii_whitespace();
        let (row, col) = (tokens.next()?, tokens.next()?);
        if tokens.next().is_some() {
            return None;
        }
        let number = |t: &str| {
            if t.bytes().all(|b| b.is_ascii_digit()) {
                t.parse::<usize>().ok()
            } else {
                None
            }
        };
        Some(MoveLine {
            row: number(row)?,
            col: number(col)?,
        })
    }

    /// The 0-based square, if both numbers are at least 1 and fit a board side.
    pub fn square(self) -> Option<Square> {
        let row = u8::try_from(self.row.checked_sub(1)?).ok()?;
        let col = u8::try_from(self.col.checked_sub(1)?).ok()?;
        Some(Square::new(row, col))
    }
}

impl Session {
    pub fn new(options: Options) -> Self {
        Session {
            options,
            stage: Stage::Header(Header::default()),
            computer: None,
        }
    }

    /// The first line of output: which rules are played.
    pub fn greeting(&self) -> &'static str {
        match self.options.rule_set {
            RuleSet::Full => "FULL",
            RuleSet::Simple => "SIMPLE",
        }
    }

    /// Whether the game has ended (nothing more is read).
    pub fn is_over(&self) -> bool {
        matches!(self.stage, Stage::Over)
    }

    /// The header line the session waits for, if it is still reading the header.
    pub fn awaited_header(&self) -> Option<HeaderField> {
        match &self.stage {
            Stage::Header(h) => Some(h.next_field()),
            _ => None,
        }
    }

    /// Feeds one input line and returns the lines to print. A bad header line is an error that
    /// ends the session; a bad move line is answered `INVALID`.
    pub fn handle(&mut self, line: Result<&str, Unreadable>) -> Result<Vec<String>, HeaderError> {
        match &mut self.stage {
            Stage::Header(header) => {
                let Some(values) = header.feed(line)? else {
                    return Ok(Vec::new());
                };
                let setup = Setup {
                    rows: values.rows,
                    cols: values.cols,
                    variant: Variant {
                        rule_set: self.options.rule_set,
                        place_anywhere: self.options.place_anywhere,
                        misere: values.misere,
                    },
                    first: values.first,
                    top_left: values.top_left,
                };
                let mut game = setup.new_game().expect("the header checks the board size");
                self.computer = self.options.computer.map(|c| {
                    let engine = PlayerSpec::Engine(c.config);
                    (
                        c.sides,
                        engine.build(setup.rows, setup.cols, setup.variant, 0),
                    )
                });
                let mut out = turn_lines(game.as_ref());
                computer_moves(&mut self.computer, game.as_mut(), &mut out);
                self.stage = match game.to_move() {
                    Some(_) => Stage::Playing(game),
                    None => Stage::Over,
                };
                Ok(out)
            }
            Stage::Playing(game) => {
                let square = line
                    .ok()
                    .and_then(MoveLine::parse)
                    .and_then(MoveLine::square);
                let legal = square.is_some_and(|sq| game.try_play(sq).is_ok());
                if !legal {
                    return Ok(vec!["INVALID".to_string()]);
                }
                let mut out = vec!["VALID".to_string()];
                out.extend(turn_lines(game.as_ref()));
                let game = game.as_mut();
                computer_moves(&mut self.computer, game, &mut out);
                if game.to_move().is_none() {
                    self.stage = Stage::Over;
                }
                Ok(out)
            }
            Stage::Over => Ok(Vec::new()),
        }
    }
}

/// While the program is to move, plays its move and prints it as a person would have typed it,
/// then `VALID` and the new turn.
fn computer_moves(
    computer: &mut Option<(Sides, Box<dyn Player>)>,
    game: &mut dyn DynGame,
    out: &mut Vec<String>,
) {
    let Some((sides, player)) = computer else {
        return;
    };
    while let Some(color) = game.to_move() {
        if !sides.includes(color) {
            break;
        }
        let Some(square) = player.choose(game) else {
            break;
        };
        if game.try_play(square).is_err() {
            // The engine only returns legal moves; never play on from a board in doubt.
            break;
        }
        out.push(format!("{} {}", square.row + 1, square.col + 1));
        out.push("VALID".to_string());
        out.extend(turn_lines(game));
    }
}

/// The score and board, then the turn, or the winner if the game is over.
fn turn_lines(game: &dyn DynGame) -> Vec<String> {
    let (black, white) = game.score();
    let mut out = vec![format!("B: {black}  W: {white}")];
    out.extend(board_lines(game));
    out.push(match game.to_move() {
        Some(color) => format!("TURN: {}", letter(color)),
        None => {
            let winner = game.winner().and_then(Winner::color).map_or("NONE", letter);
            format!("WINNER: {winner}")
        }
    });
    out
}

/// The board as the protocol prints it: a line per row, `B`, `W` or `.` separated by single
/// spaces.
pub fn board_lines(game: &dyn DynGame) -> Vec<String> {
    (0..game.rows())
        .map(|r| {
            let cells: Vec<&str> = (0..game.cols())
                .map(|c| game.disc(Square::new(r as u8, c as u8)).map_or(".", letter))
                .collect();
            cells.join(" ")
        })
        .collect()
}

/// `B` or `W`, as the header and the `TURN:` line write a colour.
pub fn letter(color: Color) -> &'static str {
    match color {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// The colour a header line names: `B` or `W`, either case.
pub fn color_of_letter(text: &str) -> Option<Color> {
    match text {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    }
}

/// How a session that did not fail ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The WINNER line was printed.
    Finished,
    /// Input ended during the game; what was printed stays.
    InputEnded,
}

/// Why a session failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Header(#[from] HeaderError),
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Runs a whole session: reads `input` a line at a time, writes every reply to `output`, and
/// flushes before each read so that a program driving it through pipes never waits.
pub fn run(
    options: Options,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<Ending, RunError> {
    let mut session = Session::new(options);
    let mut reader = LineReader::new(input);
    writeln!(output, "{}", session.greeting())?;
    while !session.is_over() {
        output.flush()?;
        let Some(line) = reader.next_line()? else {
            if let Some(field) = session.awaited_header() {
                return Err(HeaderError::Ended(field).into());
            }
            return Ok(Ending::InputEnded);
        };
        for reply in session.handle(line)? {
            writeln!(output, "{reply}")?;
        }
    }
    output.flush()?;
    Ok(Ending::Finished)
}

#[cfg(test)]
mod tests;
