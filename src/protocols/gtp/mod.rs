//! The Go Text Protocol as Othello programs speak it (gtp-rhino, and Quarry driving them):
//! squares in standard notation (`d3`, row 1 at the top), colours `black`/`white` (or `b`/`w`),
//! `pass`, replies `=[id] text` or `?[id] text`, each ended by a blank line.
//!
//! [`parse`] turns a line into a [`Request`]; [`Session::handle`] answers it (the pure core,
//! holding the game and the engine); [`run`] does the reading and writing.

use crate::lines::LineReader;
use crate::players::BookUse;
use crate::players::{AnyEngineGame, EngineGame};
use crate::rules::{Bits, Color, Move, Shape, Square, Variant, Winner};
use crate::search::{time, Config};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// The name `name` reports.
pub const NAME: &str = "othello";

/// Every command, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
];

/// One command with its arguments checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// A square board of this many rows and columns.
    BoardSize(usize),
    ClearBoard,
    /// Accepted and ignored: Othello has no komi.
    Komi,
    Play(Color, Move),
    GenMove(Color),
    /// As `genmove`, without playing the move.
    RegGenMove(Color),
    Undo,
    ShowBoard,
    FinalScore,
    TimeSettings(TimeSettings),
    TimeLeft {
        color: Color,
        time: Duration,
        /// Stones left in the byo-yomi period; 0 while in main time.
        stones: u32,
    },
    /// Quarry's question: which games this engine plays.
    ListGames,
    /// Quarry's choice of game; only Othello is accepted.
    SetGame(String),
}

/// A game's time control, as `time_settings` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    pub main: Duration,
    pub byo_yomi: Duration,
    /// Moves to make within each byo-yomi period; 0 means no byo-yomi.
    pub stones: u32,
}

impl TimeSettings {
    /// GTP's "no time limits": byo-yomi time without stones (and a zero clock, which no game
    /// could be played in).
    fn unlimited(&self) -> bool {
        (self.byo_yomi > Duration::ZERO && self.stones == 0)
            || (self.main.is_zero() && self.byo_yomi.is_zero())
    }
}

/// Why a command could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    Unknown,
    Syntax,
    /// A line that is not text: too long, or not UTF-8.
    Unreadable(String),
}

/// A line of input: the optional numeric id and the command.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<u64>,
    pub command: Result<Command, CommandError>,
}

/// Reads one input line. Blank lines and comment lines (`#`) are `None`: they get no reply.
pub fn parse(line: &str) -> Option<Request> {
    // Control characters other than tabs are dropped; tabs count as spaces; `#` starts a
    // comment.
    let cleaned: String = line
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let text = cleaned.split('#').next().unwrap_or("");
    let mut words = text.split_whitespace().peekable();
    let first = *words.peek()?;
    // An id too large for a number is no id: the line is then an unknown command.
    let id = first
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| first.parse::<u64>().ok())
        .flatten();
    if id.is_some() {
        words.next();
    }
    let Some(name) = words.next() else {
        // An id alone is no command.
        return Some(Request {
            id,
            command: Err(CommandError::Syntax),
        });
    };
    let args: Vec<&str> = words.collect();
    Some(Request {
        id,
        command: command(name, &args),
    })
}

fn command(name: &str, args: &[&str]) -> Result<Command, CommandError> {
    use Command as C;
    let none = |c: Command| {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(CommandError::Syntax)
        }
    };
    let one = || match args {
        [a] => Ok(*a),
        _ => Err(CommandError::Syntax),
    };
    match name {
        "protocol_version" => none(C::ProtocolVersion),
        "name" => none(C::Name),
        "version" => none(C::Version),
        "known_command" => one().map(|a| C::KnownCommand(a.to_string())),
        "list_commands" => none(C::ListCommands),
        "quit" => none(C::Quit),
        "boardsize" => one()?
            .parse()
            .map(C::BoardSize)
            .map_err(|_| CommandError::Syntax),
        "clear_board" => none(C::ClearBoard),
        "komi" => match one()?.parse::<f64>() {
            Ok(k) if k.is_finite() => Ok(C::Komi),
            _ => Err(CommandError::Syntax),
        },
        "play" => match args {
            [c, v] => {
                let vertex: Vertex = v.parse().map_err(|_| CommandError::Syntax)?;
                Ok(C::Play(color(c)?, vertex.0))
            }
            _ => Err(CommandError::Syntax),
        },
        "genmove" => Ok(C::GenMove(color(one()?)?)),
        "reg_genmove" => Ok(C::RegGenMove(color(one()?)?)),
        "undo" => none(C::Undo),
        "showboard" => none(C::ShowBoard),
        "final_score" => none(C::FinalScore),
        "time_settings" => match args {
            [m, b, s] => Ok(C::TimeSettings(TimeSettings {
                main: seconds(m)?,
                byo_yomi: seconds(b)?,
                stones: s.parse().map_err(|_| CommandError::Syntax)?,
            })),
            _ => Err(CommandError::Syntax),
        },
        "time_left" => match args {
            [c, t, s] => Ok(C::TimeLeft {
                color: color(c)?,
                time: seconds(t)?,
                stones: s.parse().map_err(|_| CommandError::Syntax)?,
            }),
            _ => Err(CommandError::Syntax),
        },
        "list_games" => none(C::ListGames),
        "set_game" => one().map(|g| C::SetGame(g.to_string())),
        _ => Err(CommandError::Unknown),
    }
}

/// `black`, `b`, `white` or `w`, any case.
pub fn color(text: &str) -> Result<Color, CommandError> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(CommandError::Syntax),
    }
}

/// A move as GTP writes it: `D3` (upper case, as gtp-rhino writes it) or `pass`; read in either
/// case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex(pub Move);

impl std::str::FromStr for Vertex {
    type Err = String;
    fn from_str(text: &str) -> Result<Vertex, String> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Vertex(Move::Pass));
        }
        text.parse::<Square>()
            .map(|sq| Vertex(Move::Play(sq)))
            .map_err(|_| format!("{text:?} is not a vertex such as D3 or pass"))
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Play(sq) => write!(f, "{sq:#}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// A time in seconds, whole or not, from 0 to a day.
fn seconds(text: &str) -> Result<Duration, CommandError> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=86_400.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(CommandError::Syntax),
    }
}

/// The answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub id: Option<u64>,
    pub success: bool,
    /// The answer, possibly several lines (none of them empty).
    pub text: String,
}

impl std::str::FromStr for Reply {
    type Err = String;
    /// The first line of a reply: `=`, or `?` for a failure, an optional id, then the text.
    fn from_str(line: &str) -> Result<Reply, String> {
        let success = match line.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => return Err(format!("{line:?} is not a GTP reply")),
        };
        let rest = &line[1..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        Ok(Reply {
            id: rest[..digits].parse().ok(),
            success,
            text: rest[digits..].trim().to_string(),
        })
    }
}

impl fmt::Display for Reply {
    /// `=id text` or `?id text`, then the blank line that ends every reply.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.success { "=" } else { "?" })?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        if !self.text.is_empty() {
            write!(f, " {}", self.text)?;
        }
        f.write_str("\n\n")
    }
}

/// How the engine plays, from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub variant: Variant,
    /// Depth, move time (the longest any move may take with no clock) and table size.
    pub config: Config,
    /// Under `time_settings`, the longest a move may take: a per-move time the user asked
    /// for; a default one does not cut short what the clock allows.
    pub clock_cap: Option<Duration>,
    /// The opening book the engine plays from where it has the position.
    pub book: Option<BookUse>,
}

/// A player's clock under `time_settings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clock {
    left: Duration,
    /// Moves still to make in the current byo-yomi period; 0 in main time.
    stones: u32,
}

/// One GTP session: the board and the engine, and the clocks.
pub struct Session {
    table: AnyEngineGame,
    clocks: Clocks,
}

/// What a session keeps besides the table.
struct Clocks {
    settings: Settings,
    time: Option<TimeSettings>,
    clocks: [Clock; 2],
}

fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Session {
    /// A session on the standard 8x8 board.
    pub fn new(settings: Settings) -> Self {
        Session {
            table: AnyEngineGame::new(Shape::STANDARD, settings.variant, settings.config.clone())
                .with_book(settings.book.clone()),
            clocks: Clocks {
                settings,
                time: None,
                clocks: [Clock {
                    left: Duration::ZERO,
                    stones: 0,
                }; 2],
            },
        }
    }

    /// The game being played, with the engine.
    pub fn table(&self) -> &AnyEngineGame {
        &self.table
    }

    /// Answers one request. `Command::Quit` is answered like any other; the caller stops after
    /// it.
    pub fn handle(&mut self, request: &Request) -> Reply {
        let (success, text) = match &request.command {
            Ok(command) => match self.answer(command) {
                Ok(text) => (true, text),
                Err(text) => (false, text),
            },
            Err(CommandError::Unknown) => (false, "unknown command".to_string()),
            Err(CommandError::Syntax) => (false, "syntax error".to_string()),
            Err(CommandError::Unreadable(what)) => (false, format!("syntax error: {what}")),
        };
        Reply {
            id: request.id,
            success,
            text,
        }
    }

    fn answer(&mut self, command: &Command) -> Result<String, String> {
        use Command as C;
        let done = || Ok(String::new());
        match command {
            C::ProtocolVersion => Ok("2".to_string()),
            C::Name => Ok(NAME.to_string()),
            C::Version => Ok(env!("CARGO_PKG_VERSION").to_string()),
            C::KnownCommand(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            C::ListCommands => Ok(COMMANDS.join("\n")),
            C::Quit | C::Komi => done(),
            C::BoardSize(n) => {
                let shape = Shape::square(*n).map_err(|_| "unacceptable size".to_string())?;
                let s = &self.clocks.settings;
                self.table = AnyEngineGame::new(shape, s.variant, s.config.clone())
                    .with_book(s.book.clone());
                self.clocks.reset();
                done()
            }
            C::TimeSettings(t) => {
                self.clocks.time = (!t.unlimited()).then_some(*t);
                self.clocks.reset();
                done()
            }
            C::TimeLeft {
                color,
                time,
                stones,
            } => {
                self.clocks.clocks[side(*color)] = Clock {
                    left: *time,
                    stones: *stones,
                };
                done()
            }
            C::ListGames => Ok("Othello".to_string()),
            C::SetGame(name) if name.eq_ignore_ascii_case("othello") => done(),
            C::SetGame(_) => Err("unsupported game".to_string()),
            _ => crate::on_erased!(&mut self.table, |t| self.clocks.answer(t, command)),
        }
    }
}

impl Clocks {
    /// Answers the commands that need the board.
    fn answer<B: Bits>(
        &mut self,
        t: &mut EngineGame<B>,
        command: &Command,
    ) -> Result<String, String> {
        use Command as C;
        let done = || Ok(String::new());
        match command {
            C::ClearBoard => {
                t.restart();
                self.reset();
                done()
            }
            C::Play(color, played) => t
                .play(*color, *played)
                .map(|_| String::new())
                .map_err(|_| "illegal move".to_string()),
            C::GenMove(color) => {
                let played = self.generate(t, *color);
                t.play(*color, played)
                    .map_err(|e| format!("engine error: {e}"))?;
                Ok(Vertex(played).to_string())
            }
            C::RegGenMove(color) => Ok(Vertex(self.generate(t, *color)).to_string()),
            C::Undo => {
                if t.undo().is_some() {
                    done()
                } else {
                    Err("cannot undo".to_string())
                }
            }
            C::ShowBoard => Ok(board_text(t)),
            C::FinalScore => {
                let game = t.game();
                let winner = game.winner().ok_or("cannot score")?;
                let margin = game.rules().margin(game.position(), Color::Black).abs();
                Ok(match winner {
                    Winner::Black => format!("B+{margin}"),
                    Winner::White => format!("W+{margin}"),
                    Winner::Tie => "0".to_string(),
                })
            }
            _ => unreachable!("Session::answer handles the commands without a board"),
        }
    }

    fn reset(&mut self) {
        let main = self.time.map_or(Duration::ZERO, |t| t.main);
        self.clocks = [Clock {
            left: main,
            stones: 0,
        }; 2];
    }

    /// The engine's move for `color`, searched within the configured limits and the clock.
    fn generate<B: Bits>(&mut self, t: &mut EngineGame<B>, color: Color) -> Move {
        let (depth, move_time) = (self.settings.config.depth, self.settings.config.move_time);
        match self.budget(t, color) {
            Some(mut budget) => {
                if let Some(m) = self.settings.clock_cap {
                    budget.limit = budget.limit.min(m);
                    budget.target = budget.target.min(budget.limit);
                }
                t.set_budget(budget);
            }
            None => t.set_limits(depth, move_time),
        }
        let analysis = t.analyse(color);
        t.set_limits(depth, move_time);
        self.charge(color, analysis.elapsed);
        analysis.best
    }

    /// What `color` may spend on this move under `time_settings`: in main time, a budget
    /// from its clock (see [`time::budget`]), with the byo-yomi period's share of a move as
    /// its increment; in byo-yomi, the period's share of each of its stones (see
    /// [`time::share`]), less the reserve every answer on the wire keeps.
    fn budget<B: Bits>(&self, t: &EngineGame<B>, color: Color) -> Option<time::Budget> {
        let time = self.time?;
        let clock = self.clocks[side(color)];
        let game = t.game();
        let empty = game.rules().empty(game.position()).count();
        let cells = game.rules().geometry.cell_count() as u32;
        let per_move = if time.stones > 0 {
            time.byo_yomi / time.stones
        } else {
            Duration::ZERO
        };
        if clock.stones == 0 {
            return Some(time::budget(clock.left, per_move, empty, cells));
        }
        let share = time::search_time(time::share(clock.left, clock.stones, empty, per_move));
        Some(time::Budget {
            target: share,
            limit: share,
        })
    }

    /// Takes `elapsed` off `color`'s clock; a byo-yomi period starts again when its stones are
    /// played or when main time runs out.
    fn charge(&mut self, color: Color, elapsed: Duration) {
        let Some(t) = self.time else {
            return;
        };
        let clock = &mut self.clocks[side(color)];
        clock.left = clock.left.saturating_sub(elapsed);
        if clock.stones > 0 {
            clock.stones -= 1;
            if clock.stones == 0 {
                *clock = Clock {
                    left: t.byo_yomi,
                    stones: t.stones,
                };
            }
        } else if clock.left.is_zero() && t.stones > 0 {
            *clock = Clock {
                left: t.byo_yomi,
                stones: t.stones,
            };
        }
    }
}

/// The board with the disc counts and whose turn it is: `X` black, `O` white, row 1 on top.
fn board_text<B: Bits>(t: &EngineGame<B>) -> String {
    let game = t.game();
    let score = game.score();
    let state = match game.to_move() {
        Some(c) if game.must_pass() => format!("{} to move", c.opposite()),
        Some(c) => format!("{c} to move"),
        None => match game.winner() {
            Some(Winner::Tie) | None => "game over, a draw".to_string(),
            Some(Winner::Black) => "game over, black wins".to_string(),
            Some(Winner::White) => "game over, white wins".to_string(),
        },
    };
    let mut lines = vec![format!(
        "black (X) {}, white (O) {}, {state}",
        score.black, score.white
    )];
    let shape = game.shape();
    let letters: Vec<String> = (0..shape.cols())
        .map(|c| ((b'a' + c as u8) as char).to_string())
        .collect();
    lines.push(format!("    {}", letters.join(" ")));
    for r in 0..shape.rows() {
        let cells: Vec<&str> = (0..shape.cols())
            .map(|c| match game.disc(Square::new(r as u8, c as u8)) {
                Some(Color::Black) => "X",
                Some(Color::White) => "O",
                None => ".",
            })
            .collect();
        lines.push(format!("{:>3} {}", r + 1, cells.join(" ")));
    }
    lines.join("\n")
}

/// Runs a session: a reply to every command, flushed at once, until `quit` or the end of input.
pub fn run(settings: Settings, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut session = Session::new(settings);
    let mut reader = LineReader::new(input);
    while let Some(line) = reader.next_line()? {
        let request = match line {
            Ok(text) => match parse(text) {
                Some(request) => request,
                None => continue,
            },
            Err(unreadable) => Request {
                id: None,
                command: Err(CommandError::Unreadable(unreadable.to_string())),
            },
        };
        let reply = session.handle(&request);
        write!(output, "{reply}")?;
        output.flush()?;
        if request.command == Ok(Command::Quit) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
