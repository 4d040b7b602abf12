//! The NBoard protocol (version 2), spoken by the NBoard GUI and by the programs that drive Edax
//! and NTest: `nboard 2`, `set depth`, `set game` with a GGF record, `move`, `go`, `hint`,
//! `ping`/`pong`. Moves are written `F5`, a pass `PA`; evaluations are in discs from the side to
//! move's point of view, empty cells counted for the winner.
//!
//! The protocol has no error reply: a line that cannot be followed is ignored, with one line
//! saying why on the notes stream (standard error).
//!
//! Nor has it a clock: under a game clock ([`Config::clock`], `othello nboard --time 5m`) the
//! session keeps one for each colour, charged with the time of each `go` for the side to move
//! (a `hint` gets the same budget, free).
//! A `set game` that goes on with the game (the same start, and one list of moves begins the
//! other: later moves, or moves taken back) keeps the clocks; any other starts new ones.
//!
//! [`parse`] turns a line into a [`Command`]; [`Session::handle`] carries it out, writing the
//! engine's lines as they come; [`run`] does the reading.

pub use crate::notation::{parse_ggf, GgfError, GgfGame};

use crate::lines::LineReader;
use crate::players::BookUse;
use crate::players::{Analysis, AnyEngineGame, EngineGame};
use crate::rules::{Bits, ByColor, Color, IllegalMove, Move, Position, Shape, Variant};
use crate::search::time::GameClock;
use crate::search::{Config, Scoring};
use std::io::{self, BufRead, Write};

/// The name the engine gives itself (`set myname`).
pub const NAME: &str = "othello";

/// The protocol version spoken.
pub const VERSION: u32 = 2;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// The handshake: the GUI's protocol version.
    NBoard(u32),
    /// The midgame search depth, in moves.
    SetDepth(u32),
    /// A whole game: later commands are about the position at its end.
    SetGame(GgfGame),
    /// Accepted; the engine plays for the largest disc difference whatever the contempt.
    SetContempt,
    /// A move in the current position (for whichever side is to move).
    Move(Move),
    /// Evaluate up to this many moves.
    Hint(usize),
    /// Say which move the engine would play (without playing it).
    Go,
    /// Answered `pong` with the same text.
    Ping(String),
    /// Add the game to the book: answered `learned`; there is no book to add to.
    Learn,
    Quit,
}

/// Why a line was not followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NBoardError {
    #[error("unknown command {0:?}")]
    Unknown(String),
    #[error("{0} is not supported")]
    Unsupported(&'static str),
    #[error("bad {0} command: {1:?}")]
    Argument(&'static str, String),
    #[error("bad game: {0}")]
    Game(#[from] GgfError),
}

/// Reads one line; a blank line is `Ok(None)`.
pub fn parse(line: &str) -> Result<Option<Command>, NBoardError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let number = |what: &'static str| {
        rest.parse::<u32>()
            .map_err(|_| NBoardError::Argument(what, rest.to_string()))
    };
    let command = match word {
        "" => return Ok(None),
        "nboard" => Command::NBoard(number("nboard")?),
        "set" => {
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (rest, ""),
            };
            match key {
                "depth" => match value.parse::<u32>() {
                    Ok(d) if d >= 1 => Command::SetDepth(d.min(1000)),
                    _ => return Err(NBoardError::Argument("set depth", value.to_string())),
                },
                "game" => Command::SetGame(parse_ggf(value)?),
                "contempt" => match value.parse::<f64>() {
                    Ok(c) if c.is_finite() => Command::SetContempt,
                    _ => return Err(NBoardError::Argument("set contempt", value.to_string())),
                },
                _ => return Err(NBoardError::Unknown(line.to_string())),
            }
        }
        "move" => Command::Move(
            crate::notation::parse_ggf_move(rest)
                .map_err(|_| NBoardError::Argument("move", rest.to_string()))?,
        ),
        "hint" => match rest.parse::<usize>() {
            Ok(n) if n >= 1 => Command::Hint(n),
            _ => return Err(NBoardError::Argument("hint", rest.to_string())),
        },
        "go" => Command::Go,
        "ping" => Command::Ping(rest.to_string()),
        "learn" => Command::Learn,
        "analyze" => return Err(NBoardError::Unsupported("analyze")),
        "quit" => Command::Quit,
        _ => return Err(NBoardError::Unknown(line.to_string())),
    };
    Ok(Some(command))
}

/// How the engine plays, from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub variant: Variant,
    /// The depth until the GUI sets one, the time limit of every search or the game clock,
    /// the table size.
    pub config: Config,
    /// The opening book the engine plays from where it has the position.
    pub book: Option<BookUse>,
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
pub fn move_text(played: Move) -> String {
    format!("{played:#}")
}

/// The engine's answer to `go`: `=== F5/-1.00/0.50`, the move with its evaluation in discs and
/// the seconds it took (both optional when read).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chosen {
    pub played: Move,
    /// Hundredths of a disc.
    pub eval: Option<i32>,
    pub seconds: Option<f64>,
}

impl std::fmt::Display for Chosen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "=== {}", move_text(self.played))?;
        if let Some(eval) = self.eval {
            write!(f, "/{}", eval_text(eval))?;
            if let Some(seconds) = self.seconds {
                write!(f, "/{seconds:.2}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Chosen {
    type Err = String;
    /// `=== d3`, `=== d3/score/time`; `pa` or `pass` is a pass; either case.
    fn from_str(line: &str) -> Result<Chosen, String> {
        let bad = || format!("{line:?} is not an answer such as === F5/-1.00/0.50");
        let rest = line.trim().strip_prefix("===").ok_or_else(bad)?;
        let mut parts = rest.trim().split('/').map(str::trim);
        let played = parts
            .next()
            .unwrap_or("")
            .parse::<Move>()
            .map_err(|_| bad())?;
        let eval = match parts.next() {
            Some(e) => Some(
                (e.parse::<f64>().map_err(|_| bad())? * 100.0)
                    .round()
                    .clamp(-1e6, 1e6) as i32,
            ),
            None => None,
        };
        let seconds = match parts.next() {
            Some(t) => Some(t.parse::<f64>().map_err(|_| bad())?),
            None => None,
        };
        Ok(Chosen {
            played,
            eval,
            seconds,
        })
    }
}

/// Hundredths of a disc as NBoard's evaluation: discs with two decimals.
fn eval_text(hundredths: i32) -> String {
    let sign = if hundredths < 0 { "-" } else { "" };
    let h = hundredths.unsigned_abs();
    format!("{sign}{}.{:02}", h / 100, h % 100)
}

/// One NBoard session: the game at the end of the GUI's record, and the engine.
pub struct Session {
    settings: Settings,
    table: AnyEngineGame,
    /// Each colour's game clock, under one: the clocks of the table's game.
    clocks: ByColor<Option<GameClock>>,
}

impl Session {
    pub fn new(settings: Settings) -> Self {
        let mut settings = settings;
        // NBoard's evaluations count empty cells for the winner, as tournament results do.
        settings.config.scoring = Scoring::EmptiesToWinner;
        let table = AnyEngineGame::new(Shape::STANDARD, settings.variant, settings.config.clone())
            .with_book(settings.book.clone());
        let clocks = new_clocks(&settings.config);
        Session {
            settings,
            table,
            clocks,
        }
    }

    /// The time left on `color`'s clock, under a game clock.
    pub fn time_left(&self, color: Color) -> Option<std::time::Duration> {
        self.clocks[color].map(|c| c.left)
    }

    /// The game being analysed, with the engine.
    pub fn table(&self) -> &AnyEngineGame {
        &self.table
    }

    /// Carries out one line: the engine's lines go to `out` (flushed as they are written), a
    /// line that cannot be followed is ignored with a note on `notes`. Returns `false` after
    /// `quit`.
    pub fn handle(
        &mut self,
        line: &str,
        out: &mut dyn Write,
        notes: &mut dyn Write,
    ) -> io::Result<bool> {
        let command = match parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Ok(true),
            Err(e) => {
                writeln!(notes, "{NAME}: ignored: {e}")?;
                return Ok(true);
            }
        };
        let mut send = |text: &str| -> io::Result<()> {
            writeln!(out, "{text}")?;
            out.flush()
        };
        match command {
            Command::NBoard(version) => {
                if version != VERSION {
                    writeln!(
                        notes,
                        "{NAME}: speaking NBoard protocol version {VERSION}, not {version}"
                    )?;
                }
                send(&format!("set myname {NAME}"))?;
            }
            Command::SetDepth(depth) => {
                self.settings.config.depth = Some(depth);
                let move_time = self.settings.config.move_time;
                crate::on_erased!(&mut self.table, |t| t.set_limits(Some(depth), move_time));
            }
            Command::SetGame(record) => self.load(&record, notes)?,
            Command::SetContempt => {}
            Command::Move(played) => {
                // A square where the side to move must pass is the other side's.
                let color = crate::on_erased!(&self.table, |t| {
                    let game = t.game();
                    let color = game.position().to_move;
                    if game.must_pass() {
                        color.opposite()
                    } else {
                        color
                    }
                });
                let result =
                    crate::on_erased!(&mut self.table, |t| t.play_listed(played).map(|_| ()));
                if let Err(e) = result {
                    let why = refusal(e, color, played);
                    writeln!(notes, "{NAME}: ignored move {}: {why}", move_text(played))?;
                }
            }
            Command::Hint(count) => {
                send("status thinking")?;
                let color = self.to_move();
                // Under a clock a hint has the move's budget (there is no other limit), and
                // costs the clock nothing: the GUI asks it, not the game.
                self.budget_from_clock(color, std::time::Instant::now());
                let lines = crate::on_erased!(&mut self.table, |t| t.analyse_moves(color, count));
                for a in lines {
                    send(&search_line(&a))?;
                }
                send("status")?;
            }
            Command::Go => {
                send("status thinking")?;
                let started = std::time::Instant::now();
                let color = self.to_move();
                self.budget_from_clock(color, started);
                let a = crate::on_erased!(&mut self.table, |t| t.analyse(color));
                if let Some(clock) = &mut self.clocks[color] {
                    clock.charge(started.elapsed());
                }
                send(&format!(
                    "nodestats {} {:.2}",
                    a.nodes,
                    a.elapsed.as_secs_f64()
                ))?;
                let chosen = Chosen {
                    played: a.best,
                    eval: Some(a.score),
                    seconds: Some(a.elapsed.as_secs_f64()),
                };
                send(&chosen.to_string())?;
                send("status")?;
            }
            Command::Ping(n) => send(format!("pong {n}").trim_end())?,
            Command::Learn => send("learned")?,
            Command::Quit => return Ok(false),
        }
        Ok(true)
    }

    /// Under a game clock, gives the next search `color`'s budget for the move owed since
    /// `owed`.
    fn budget_from_clock(&mut self, color: Color, owed: std::time::Instant) {
        if let Some(clock) = self.clocks[color] {
            crate::on_erased!(&mut self.table, |t| {
                let game = t.game();
                let budget = clock.budget(owed.elapsed(), game.rules(), game.position());
                t.set_budget(budget)
            });
        }
    }

    /// The side whose turn the last move gave, whether or not it can move.
    fn to_move(&self) -> Color {
        crate::on_erased!(&self.table, |t| t.game().position().to_move)
    }

    /// Replaces the game with `record`'s; on a bad record the game stays as it was.
    fn load(&mut self, record: &GgfGame, notes: &mut dyn Write) -> io::Result<()> {
        let resized =
            self.table.shape().rows() != record.size || self.table.shape().cols() != record.size;
        if resized {
            match Shape::square(record.size) {
                Ok(shape) => {
                    let s = &self.settings;
                    self.table = AnyEngineGame::new(shape, s.variant, s.config.clone())
                        .with_book(s.book.clone());
                }
                Err(e) => return writeln!(notes, "{NAME}: ignored game: {e}"),
            }
        }
        match crate::on_erased!(&mut self.table, |t| load(t, record)) {
            Err((i, e)) => writeln!(notes, "{NAME}: ignored game: move {}: {e}", i + 1),
            Ok(goes_on) => {
                if resized || !goes_on {
                    self.clocks = new_clocks(&self.settings.config);
                }
                Ok(())
            }
        }
    }
}

/// Each colour's clock at the start of a game, under `config`'s game clock.
fn new_clocks(config: &Config) -> ByColor<Option<GameClock>> {
    ByColor::new(|_| config.clock.map(GameClock::new))
}

/// Plays `record` on the table; whether it goes on with the table's game (the same start, and
/// one list of moves begins the other), or the refused move's index and why, in NBoard's words.
fn load<B: Bits>(t: &mut EngineGame<B>, record: &GgfGame) -> Result<bool, (usize, String)> {
    let cells = record.cells.iter().copied().take(t.game().shape().cells());
    let position = Position::from_cells(cells, record.to_move);
    let (start, before): (Position<B>, Vec<_>) = (*t.game().start(), t.game().record().collect());
    t.load(position, &record.moves)
        .map_err(|(i, e)| (i, refusal(e, record.moves[i].0, record.moves[i].1)))?;
    let game = t.game();
    let shared = before.len().min(game.record().len());
    Ok(*game.start() == start
        && game
            .record()
            .take(shared)
            .eq(before[..shared].iter().copied()))
}

/// Why `color`'s move `played` was refused, as the notes say it.
fn refusal(e: IllegalMove, color: Color, played: Move) -> String {
    match (e, played) {
        (IllegalMove::PassWithMoves(c), _) => format!("{c} may not pass: it has a legal move"),
        (IllegalMove::MustPass(c), _) => format!("{c} has no legal move and must pass"),
        (_, Move::Play(sq)) => format!("{sq} is not a legal move for {color}"),
        (e, Move::Pass) => e.to_string(),
    }
}

/// `search <pv> <eval> 0 <depth>` (`book ...` for a book move): the line, its evaluation, and
/// the depth searched (`100%` when the evaluation is exact).
fn search_line(a: &Analysis) -> String {
    let pv: String = if a.pv.is_empty() {
        move_text(a.best)
    } else {
        a.pv.iter().map(|&m| move_text(m)).collect()
    };
    let depth = if a.exact {
        "100%".to_string()
    } else {
        a.depth.to_string()
    };
    // A book move is sent as `book`, as NBoard shows the book's moves apart.
    let kind = if a.book { "book" } else { "search" };
    format!("{kind} {pv} {} 0 {depth}", eval_text(a.score))
}

/// Runs a session until `quit` or the end of input; notes about ignored lines go to `notes`.
pub fn run(
    settings: Settings,
    input: impl BufRead,
    mut output: impl Write,
    mut notes: impl Write,
) -> io::Result<()> {
    let mut session = Session::new(settings);
    let mut reader = LineReader::new(input);
    while let Some(line) = reader.next_line()? {
        match line {
            Ok(text) => {
                if !session.handle(text, &mut output, &mut notes)? {
                    break;
                }
            }
            Err(unreadable) => writeln!(notes, "{NAME}: ignored {unreadable}")?,
        }
    }
    output.flush()
}

#[cfg(test)]
mod tests;
