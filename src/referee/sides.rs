//! The referee's end of each wire format: tell a contestant the moves, ask for its own.

use super::child::{Child, Silence};
use crate::protocols::triples::{seed_letter, Triple};
use crate::protocols::{gtp, nboard};
use crate::rules::{Color, Move, Shape};
use crate::search::time::{GameClock, TimeControl};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How long a contestant may take to start and to answer anything that is not a move.
const SETUP_TIME: Duration = Duration::from_secs(10);
/// What a move may take with neither a per-move limit nor a clock: a day.
const NO_LIMIT: Duration = Duration::from_secs(86_400);

/// The most lines one GTP reply may have (the referee's commands have one-line answers).
const MAX_REPLY_LINES: usize = 64;

/// The wire format a contestant speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Tournament move triples, one game per process.
    Triples,
    /// The Go Text Protocol as Othello programs speak it (gtp-rhino, Quarry).
    Gtp,
    /// The NBoard protocol (8x8).
    Nboard,
}

impl FromStr for Protocol {
    type Err = String;
    fn from_str(text: &str) -> Result<Protocol, String> {
        match text.to_ascii_lowercase().as_str() {
            "triples" | "seed001" => Ok(Protocol::Triples),
            "gtp" => Ok(Protocol::Gtp),
            "nboard" => Ok(Protocol::Nboard),
            _ => Err(format!(
                "unknown protocol {text:?} (expected triples, gtp or nboard)"
            )),
        }
    }
}

impl Protocol {
    /// Why a program speaking this protocol cannot play on a `shape` board, if it cannot: the
    /// match is refused before it starts rather than every game forfeited.
    pub fn cannot_play(self, shape: Shape) -> Option<String> {
        match self {
            Protocol::Triples => None,
            Protocol::Gtp if shape.rows() != shape.cols() => Some(format!(
                "GTP plays square boards only (boardsize N), not {shape}"
            )),
            Protocol::Gtp => None,
            Protocol::Nboard if shape != Shape::STANDARD => {
                Some(format!("NBoard plays 8x8 only, not {shape}"))
            }
            Protocol::Nboard => None,
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Triples => "triples",
            Protocol::Gtp => "gtp",
            Protocol::Nboard => "nboard",
        })
    }
}

/// A contestant as the match was told about it.
#[derive(Clone, Debug)]
pub struct SideSpec {
    pub name: String,
    pub command: String,
    pub protocol: Protocol,
    /// The most a move may take, from the moment the contestant is asked for it (`None`:
    /// what its clock has left).
    pub move_time: Option<Duration>,
    /// A game clock: a move that takes more than the clock has left loses on time.
    pub clock: Option<TimeControl>,
}

/// Why a contestant lost on the spot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    IllegalMove,
    IllegalPass,
    Malformed,
    Timeout,
    Crash,
    /// It refused a legal move, answered a command with an error, or flooded the referee with
    /// lines it was not asked for.
    ProtocolError,
    Resigned,
}

impl Reason {
    pub const ALL: [Reason; 7] = [
        Reason::IllegalMove,
        Reason::IllegalPass,
        Reason::Malformed,
        Reason::Timeout,
        Reason::Crash,
        Reason::ProtocolError,
        Reason::Resigned,
    ];
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::IllegalMove => "illegal-move",
            Reason::IllegalPass => "illegal-pass",
            Reason::Malformed => "malformed",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::ProtocolError => "protocol-error",
            Reason::Resigned => "resigned",
        })
    }
}

/// A loss on the spot: why, and the details for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub reason: Reason,
    pub detail: String,
}

impl Forfeit {
    pub fn new(reason: Reason, detail: impl Into<String>) -> Forfeit {
        Forfeit {
            reason,
            detail: detail.into(),
        }
    }

    fn silence(s: Silence, what: &str) -> Forfeit {
        match s {
            Silence::Timeout => Forfeit::new(Reason::Timeout, format!("no {what} in time")),
            closed => Forfeit::new(Reason::Crash, closed.to_string()),
        }
    }
}

/// Why a contestant did not start its game.
#[derive(Debug)]
pub enum StartError {
    /// It ran, and failed the protocol's setup: it loses the game.
    Forfeit(Forfeit),
    /// It could not be run at all: an error of the match, not a game result.
    CannotStart(String),
}

/// One contestant in one game: its process, and how its protocol talks to it.
pub struct Contestant {
    link: Link,
    speaker: Box<dyn Speaker>,
    /// The most a move may take.
    move_time: Option<Duration>,
    /// Its game clock, where the match has one.
    clock: Option<GameClock>,
}

/// The process of a contestant and what every protocol needs to talk to it.
struct Link {
    child: Child,
    shape: Shape,
    /// The standard colour it plays.
    color: Color,
    /// When its clock started for the move it owes (triples: when the last move reached it).
    clock: Instant,
}

/// A protocol's end of the referee: how to start a program that speaks it, set up a game, tell
/// it moves and ask for its own. One implementation per protocol.
trait Speaker: Send {
    /// The command line and environment that start the program for `color` after `opening`.
    fn launch(&self, command: &str, _color: Color, _opening: &str) -> Launch {
        (command.to_string(), Vec::new())
    }
    /// Sets up a game whose position is the start followed by `start`, before any clock runs,
    /// with the time rules of `spec`.
    fn open(
        &mut self,
        link: &mut Link,
        start: &[(Color, Move)],
        spec: &SideSpec,
    ) -> Result<(), Forfeit>;
    /// Tells the program a move it did not make.
    fn tell(&mut self, link: &mut Link, mover: Color, played: Move) -> Result<(), Forfeit>;
    /// The program's move, due by `deadline`; `must_pass` tells how a triples `P` reads.
    fn ask(&mut self, link: &mut Link, must_pass: bool, deadline: Instant)
        -> Result<Move, Forfeit>;
    /// The polite goodbye, if the protocol has one.
    fn quit(&mut self, _link: &mut Link) {}
}

/// A command line and its extra environment.
type Launch = (String, Vec<(&'static str, String)>);

impl Protocol {
    fn speaker(self) -> Box<dyn Speaker> {
        match self {
            Protocol::Triples => Box::new(Triples),
            Protocol::Gtp => Box::new(Gtp { clock: false }),
            Protocol::Nboard => Box::new(Nboard { pings: 0 }),
        }
    }
}

impl Contestant {
    /// Starts the contestant's process for a game on a `shape` board whose position is the
    /// start followed by `start`'s moves (`opening` in standard notation).
    pub fn start(
        spec: &SideSpec,
        shape: Shape,
        start: &[(Color, Move)],
        color: Color,
        opening: &str,
    ) -> Result<Contestant, StartError> {
        let mut speaker = spec.protocol.speaker();
        let (command, env) = speaker.launch(&spec.command, color, opening);
        let child =
            Child::spawn(&command, &env).map_err(|e| StartError::CannotStart(e.to_string()))?;
        let mut link = Link {
            child,
            shape,
            color,
            clock: Instant::now(),
        };
        if let Err(f) = speaker.open(&mut link, start, spec) {
            return Err(match link.child.end(Duration::ZERO) {
                Some(why) => StartError::CannotStart(why),
                None => StartError::Forfeit(f),
            });
        }
        link.clock = Instant::now();
        Ok(Contestant {
            link,
            speaker,
            move_time: spec.move_time,
            clock: spec.clock.map(GameClock::new),
        })
    }

    /// Starts the clock of the move it owes now, for a side that moves first once both sides
    /// are ready (a triples program's clock otherwise runs while its opponent starts).
    pub fn start_clock(&mut self) {
        self.link.clock = Instant::now();
    }

    /// Tells the contestant a move of the other side (or, for a triples program, any move it
    /// did not make itself).
    pub fn tell(&mut self, mover: Color, played: Move) -> Result<(), Forfeit> {
        self.speaker.tell(&mut self.link, mover, played)?;
        self.link.clock = Instant::now();
        Ok(())
    }

    /// Asks for the contestant's move; `must_pass` tells how a triples `P` reads on wide
    /// boards. Returns the answer and the time it took.
    pub fn ask(&mut self, must_pass: bool) -> Result<(Move, Duration), Forfeit> {
        self.link.not_flooding()?;
        let allowed = self.allowed();
        let deadline = self.link.clock + allowed;
        let answer = match self.speaker.ask(&mut self.link, must_pass, deadline) {
            Err(f) if f.reason == Reason::Timeout => {
                return Err(Forfeit::new(f.reason, f.detail + &self.on_clock()))
            }
            answer => answer?,
        };
        let took = self.link.clock.elapsed();
        if took > allowed {
            return Err(Forfeit::new(
                Reason::Timeout,
                format!("answered after {} ms{}", took.as_millis(), self.on_clock()),
            ));
        }
        if let Some(clock) = &mut self.clock {
            clock.charge(took);
        }
        Ok((answer, took))
    }

    /// For a move too late: what its clock had left, where the clock set the limit.
    fn on_clock(&self) -> String {
        match self.clock {
            Some(clock) if self.move_time.is_none_or(|m| clock.left < m) => {
                format!(", with {} ms left on its clock", clock.left.as_millis())
            }
            _ => String::new(),
        }
    }

    /// What the move it owes may take: the per-move limit or what its clock has left,
    /// whichever is less.
    fn allowed(&self) -> Duration {
        match (self.move_time, self.clock) {
            (Some(m), Some(c)) => m.min(c.left),
            (Some(m), None) => m,
            (None, Some(c)) => c.left,
            (None, None) => NO_LIMIT,
        }
    }

    /// Ends the process politely if it will go, by force if not. Says why the program never
    /// ran, if it did not (the shell could not find or run it).
    pub fn end(mut self) -> Option<String> {
        self.speaker.quit(&mut self.link);
        self.link.child.end(Duration::from_millis(300))
    }
}

impl Link {
    /// A forfeit if the contestant has been writing far more than it was asked for.
    fn not_flooding(&self) -> Result<(), Forfeit> {
        if self.child.flooded() {
            return Err(Forfeit::new(
                Reason::ProtocolError,
                "it wrote lines far faster than the referee asked for them",
            ));
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        self.not_flooding()?;
        self.child
            .send(line)
            .map_err(|s| Forfeit::silence(s, "reading of its input"))
    }

    /// The next line by `deadline`, waiting for `what`.
    fn receive(&mut self, deadline: Instant, what: &str) -> Result<String, Forfeit> {
        self.child
            .receive(deadline)
            .map_err(|s| Forfeit::silence(s, what))
    }

    /// The first line that `wanted` accepts, skipping the others, for a move due by
    /// `deadline`.
    fn line_where(
        &mut self,
        deadline: Instant,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, Forfeit> {
        loop {
            let line = self.receive(deadline, "move")?;
            if wanted(&line) {
                return Ok(line);
            }
        }
    }

    /// `played` if it is a pass or a square on the board (`text` is how it was written).
    fn on_board(&self, played: Move, text: &str) -> Result<Move, Forfeit> {
        match played {
            Move::Play(square) if self.shape.index(square).is_none() => Err(Forfeit::new(
                Reason::IllegalMove,
                format!("{text} is off the board"),
            )),
            _ => Ok(played),
        }
    }
}

/// Tournament move triples: one game per process, its colour and opening on the command line.
struct Triples;

impl Speaker for Triples {
    fn launch(&self, command: &str, color: Color, opening: &str) -> Launch {
        let mut command = command.to_string();
        let seed_color = seed_letter(color).to_string();
        let env = vec![
            ("OTHELLO_COLOR", seed_color.clone()),
            ("OTHELLO_OPENING", opening.to_string()),
        ];
        if command.contains("{color}") {
            command = command.replace("{color}", &seed_color);
        } else {
            command.push_str(&format!(" --color {seed_color}"));
        }
        if command.contains("{opening}") {
            command = command.replace("{opening}", opening);
        } else if !opening.is_empty() {
            command.push_str(&format!(" --opening {opening}"));
        }
        (command, env)
    }

    fn open(&mut self, _: &mut Link, _: &[(Color, Move)], _: &SideSpec) -> Result<(), Forfeit> {
        Ok(())
    }

    fn tell(&mut self, link: &mut Link, mover: Color, played: Move) -> Result<(), Forfeit> {
        link.send(&Triple::from_standard(mover, played).to_string())
    }

    fn ask(
        &mut self,
        link: &mut Link,
        must_pass: bool,
        deadline: Instant,
    ) -> Result<Move, Forfeit> {
        let line = link.line_where(deadline, |l| !l.trim().is_empty())?;
        let triple: Triple = line
            .parse()
            .map_err(|e| Forfeit::new(Reason::Malformed, format!("{:?}: {e}", line.trim())))?;
        if triple.standard_color() != link.color {
            return Err(Forfeit::new(
                Reason::IllegalMove,
                format!("{} is a move of the other colour", line.trim()),
            ));
        }
        Ok(triple.move_on(link.shape.cols(), must_pass))
    }
}

/// The Go Text Protocol: square boards, `genmove`, replies ended by a blank line.
struct Gtp {
    /// Whether the game has a clock: `time_left` comes before each `genmove`.
    clock: bool,
}

impl Gtp {
    /// A command whose reply must be a success.
    fn command(link: &mut Link, command: &str) -> Result<String, Forfeit> {
        match Gtp::reply(link, command)? {
            Ok(text) => Ok(text),
            Err(text) => Err(Forfeit::new(
                Reason::ProtocolError,
                format!("{command:?} was answered \"? {text}\""),
            )),
        }
    }

    /// A command's reply: `Ok` for `= ...`, `Err` for `? ...`, within the setup time.
    fn reply(link: &mut Link, command: &str) -> Result<Result<String, String>, Forfeit> {
        link.send(command)?;
        Gtp::answer(link, Instant::now() + SETUP_TIME, "answer")
    }

    fn answer(
        link: &mut Link,
        deadline: Instant,
        what: &str,
    ) -> Result<Result<String, String>, Forfeit> {
        // The reply starts with = or ? (and an optional id) and ends with a blank line.
        let first = loop {
            let line = link.receive(deadline, what)?;
            if !line.trim().is_empty() {
                break line;
            }
        };
        let reply: gtp::Reply = first
            .parse()
            .map_err(|why: String| Forfeit::new(Reason::Malformed, why))?;
        // The rest of the reply, up to its blank line, with some slack past the deadline.
        let rest = deadline.max(Instant::now()) + SETUP_TIME;
        let mut lines = 1;
        while !link.receive(rest, what)?.trim().is_empty() {
            lines += 1;
            if lines > MAX_REPLY_LINES {
                return Err(Forfeit::new(
                    Reason::Malformed,
                    format!("a reply of over {MAX_REPLY_LINES} lines"),
                ));
            }
        }
        Ok(if reply.success {
            Ok(reply.text)
        } else {
            Err(reply.text)
        })
    }
}

impl Speaker for Gtp {
    fn open(
        &mut self,
        link: &mut Link,
        start: &[(Color, Move)],
        spec: &SideSpec,
    ) -> Result<(), Forfeit> {
        let (rows, cols) = (link.shape.rows(), link.shape.cols());
        if rows != cols {
            return Err(Forfeit::new(
                Reason::ProtocolError,
                "GTP boards are square (boardsize N)",
            ));
        }
        Gtp::command(link, &format!("boardsize {rows}"))?;
        Gtp::command(link, "clear_board")?;
        // Programs that ignore time settings may answer with an error; that is no fault.
        // GTP's clock has no increment: the program learns it from `time_left`.
        if let Some(clock) = spec.clock {
            self.clock = true;
            let secs = clock.main.as_secs();
            let _ = Gtp::reply(link, &format!("time_settings {secs} 0 0"));
        } else if let Some(secs) = spec.move_time.map(|t| t.as_secs()).filter(|&s| s >= 1) {
            // Byo-yomi of one move per period: the per-move limit, in whole seconds.
            let _ = Gtp::reply(link, &format!("time_settings 0 {secs} 1"));
        }
        // Passes are left out: GTP Othello programs pass by themselves, and gtp-rhino refuses
        // `play <colour> pass`.
        for &(mover, played) in start {
            self.tell(link, mover, played)?;
        }
        Ok(())
    }

    fn tell(&mut self, link: &mut Link, mover: Color, played: Move) -> Result<(), Forfeit> {
        if let Move::Play(_) = played {
            Gtp::command(link, &format!("play {mover} {}", gtp::Vertex(played)))?;
        }
        Ok(())
    }

    fn ask(&mut self, link: &mut Link, _: bool, deadline: Instant) -> Result<Move, Forfeit> {
        let limit = deadline.saturating_duration_since(link.clock);
        if self.clock {
            // What the move may take, in whole seconds, as its clock's time left.
            let _ = Gtp::reply(
                link,
                &format!("time_left {} {} 0", link.color, limit.as_secs()),
            );
        }
        link.send(&format!("genmove {}", link.color))?;
        link.clock = Instant::now();
        let text = Gtp::answer(link, link.clock + limit, "move")?.map_err(|text| {
            Forfeit::new(
                Reason::ProtocolError,
                format!("genmove was answered \"? {text}\""),
            )
        })?;
        if text.eq_ignore_ascii_case("resign") {
            return Err(Forfeit::new(Reason::Resigned, "resign"));
        }
        let vertex: gtp::Vertex = text
            .parse()
            .map_err(|why: String| Forfeit::new(Reason::Malformed, why))?;
        link.on_board(vertex.0, &text)
    }

    fn quit(&mut self, link: &mut Link) {
        let _ = link.child.send("quit");
    }
}

/// The NBoard protocol: 8x8, a GGF record to start, `go` for a move, `ping`/`pong` to wait.
struct Nboard {
    pings: u32,
}

impl Nboard {
    /// `ping n` and wait for `pong n`, skipping whatever comes before it.
    fn sync(&mut self, link: &mut Link) -> Result<(), Forfeit> {
        self.pings += 1;
        let n = self.pings;
        link.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + SETUP_TIME;
        loop {
            let line = link.receive(deadline, "pong")?;
            if line.split_whitespace().collect::<Vec<_>>() == ["pong", &n.to_string()] {
                return Ok(());
            }
        }
    }
}

impl Speaker for Nboard {
    fn open(
        &mut self,
        link: &mut Link,
        start: &[(Color, Move)],
        _: &SideSpec,
    ) -> Result<(), Forfeit> {
        if link.shape != Shape::STANDARD {
            return Err(Forfeit::new(
                Reason::ProtocolError,
                "NBoard plays on 8x8 only",
            ));
        }
        link.send("nboard 2")?;
        let record = nboard::GgfGame::standard(start.to_vec());
        link.send(&format!("set game {record}"))?;
        self.sync(link)
    }

    fn tell(&mut self, link: &mut Link, _: Color, played: Move) -> Result<(), Forfeit> {
        link.send(&format!("move {played}"))
    }

    fn ask(&mut self, link: &mut Link, _: bool, deadline: Instant) -> Result<Move, Forfeit> {
        let limit = deadline.saturating_duration_since(link.clock);
        link.send("go")?;
        link.clock = Instant::now();
        let line = link.line_where(link.clock + limit, |l| l.starts_with("==="))?;
        let chosen: nboard::Chosen = line
            .parse()
            .map_err(|why: String| Forfeit::new(Reason::Malformed, why))?;
        let answer = link.on_board(chosen.played, line.trim())?;
        // An NBoard engine does not play its own move: the GUI tells it, as here.
        let took = link.clock.elapsed();
        link.send(&format!("move {answer}"))?;
        link.clock = Instant::now() - took;
        Ok(answer)
    }

    fn quit(&mut self, link: &mut Link) {
        let _ = link.child.send("quit");
    }
}
