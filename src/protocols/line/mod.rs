//! The line protocol: `FULL`/`SIMPLE`, a five-line header, then one move per line
//! answered `VALID` or `INVALID`, with the score, board and turn printed before every move.
//!
//! [`Session`] is the pure core: it takes one input line and returns the lines to print.
//! [`run`] does the reading and writing around it.

mod header;

pub use header::{Header, HeaderError, HeaderField};

use crate::lines::{LineReader, Unreadable};
use crate::players::BookUse;
use crate::players::{Player, PlayerSpec};
use crate::rules::{
    AnyWidth, Bits, Color, Game, GenericOverBits, Move, Passes, RuleSet, Setup, Square,
};
use crate::rules::{Variant, Winner};
use crate::search::Config;
use std::io::{self, BufRead, Write};

/// Command-line choices that the header does not carry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub rule_set: RuleSet,
    pub place_anywhere: bool,
    /// The side or sides the program plays, and how it searches.
    pub computer: Option<Computer>,
}

/// The program as a player in the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Computer {
    pub sides: Sides,
    pub config: Config,
    /// The opening book it plays from where it has the position.
    pub book: Option<BookUse>,
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
    Playing(Box<AnyWidth<PlayingOf>>),
    Over,
}

/// A game under way, and the program's sides and player if it plays.
struct Playing<B> {
    game: Game<B>,
    computer: Option<(Sides, Box<dyn Player<B>>)>,
}

struct PlayingOf;

impl GenericOverBits for PlayingOf {
    type Of<B: Bits> = Playing<B>;
}

/// One protocol session, fed a line at a time.
pub struct Session {
    options: Options,
    stage: Stage,
}

/// A parsed move line: 1-based row and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLine {
    pub row: usize,
    pub col: usize,
}

impl std::str::FromStr for MoveLine {
    type Err = ();
    /// Exactly two unsigned decimal integers separated by white space.
    fn from_str(line: &str) -> Result<MoveLine, ()> {
        MoveLine::parse(line).ok_or(())
    }
}

impl std::fmt::Display for MoveLine {
    /// `row col`, as a person types a move.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.row, self.col)
    }
}

impl From<Square> for MoveLine {
    fn from(square: Square) -> MoveLine {
        MoveLine {
            row: usize::from(square.row) + 1,
            col: usize::from(square.col) + 1,
        }
    }
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
        let mut out = Vec::new();
        let over = match &mut self.stage {
            Stage::Header(header) => {
                let Some(values) = header.feed(line)? else {
                    return Ok(out);
                };
                let setup = Setup {
                    shape: values.shape,
                    variant: Variant {
                        rule_set: self.options.rule_set,
                        place_anywhere: self.options.place_anywhere,
                        misere: values.misere,
                    },
                    first: values.first,
                    top_left: values.top_left,
                };
                let computer = self.options.computer.clone();
                let mut playing: AnyWidth<PlayingOf> =
                    crate::erase!(setup.shape, |B| Playing::<B>::new(&setup, computer.clone()));
                let over = crate::on_erased!(&mut playing, |p| p.start(&mut out));
                self.stage = Stage::Playing(Box::new(playing));
                over
            }
            Stage::Playing(playing) => {
                let square = line
                    .ok()
                    .and_then(MoveLine::parse)
                    .and_then(MoveLine::square);
                let Some(square) = square else {
                    return Ok(vec!["INVALID".to_string()]);
                };
                crate::on_erased!(playing.as_mut(), |p| p.play(square, &mut out))
            }
            Stage::Over => false,
        };
        if over {
            self.stage = Stage::Over;
        }
        Ok(out)
    }
}

impl<B: Bits> Playing<B> {
    fn new(setup: &Setup, computer: Option<Computer>) -> Self {
        let game = Game::new(setup, Passes::Automatic).expect("erase! picks a bit set that fits");
        let computer = computer.map(|c| {
            let player =
                PlayerSpec::Engine(c.config).build(game.rules().clone(), 0, c.book.as_ref());
            (c.sides, player)
        });
        Playing { game, computer }
    }

    /// The first board and turn, and the program's moves if it opens; whether the game is over.
    fn start(&mut self, out: &mut Vec<String>) -> bool {
        turn_lines(&self.game, out);
        self.computer_moves(out);
        self.game.is_over()
    }

    /// A person's move: `VALID` and the new turn (then the program's replies), or `INVALID`;
    /// whether the game is over.
    fn play(&mut self, square: Square, out: &mut Vec<String>) -> bool {
        if self.game.try_play(Move::Play(square)).is_err() {
            out.push("INVALID".to_string());
            return false;
        }
        out.push("VALID".to_string());
        turn_lines(&self.game, out);
        self.computer_moves(out);
        self.game.is_over()
    }

    /// While the program is to move, plays its move and prints it as a person would have typed
    /// it, then `VALID` and the new turn.
    fn computer_moves(&mut self, out: &mut Vec<String>) {
        let Some((sides, player)) = &mut self.computer else {
            return;
        };
        while let Some(color) = self.game.to_move() {
            if !sides.includes(color) {
                break;
            }
            let Some(Move::Play(square)) = player.choose(&self.game) else {
                break;
            };
            if self.game.try_play(Move::Play(square)).is_err() {
                // The engine only returns legal moves; never play on from a board in doubt.
                break;
            }
            out.push(MoveLine::from(square).to_string());
            out.push("VALID".to_string());
            turn_lines(&self.game, out);
        }
    }
}

/// The score and board, then the turn, or the winner if the game is over.
fn turn_lines<B: Bits>(game: &Game<B>, out: &mut Vec<String>) {
    let score = game.score();
    out.push(format!("B: {}  W: {}", score.black, score.white));
    out.extend(board_lines(game));
    out.push(match game.to_move() {
        Some(color) => format!("TURN: {}", color.letter()),
        None => {
            let winner = game.winner().and_then(Winner::color);
            format!(
                "WINNER: {}",
                winner.map_or("NONE".into(), |c| c.letter().to_string())
            )
        }
    });
}

/// The board as the protocol prints it: a line per row, `B`, `W` or `.` separated by single
/// spaces.
pub fn board_lines<B: Bits>(game: &Game<B>) -> impl Iterator<Item = String> + '_ {
    let shape = game.shape();
    (0..shape.rows()).map(move |r| {
        let mut line = String::with_capacity(2 * shape.cols());
        for c in 0..shape.cols() {
            if c > 0 {
                line.push(' ');
            }
            line.push(
                game.disc(Square::new(r as u8, c as u8))
                    .map_or('.', Color::letter),
            );
        }
        line
    })
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
