//! The referee's end of each wire format: tell a contestant the moves, ask for its own.

use super::child::{Child, Silence};
use crate::protocols::triples::{seed_letter, Triple};
use crate::protocols::{gtp, nboard};
use crate::rules::{Color, Move, Shape};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How long a contestant may take to start and to answer anything that is not a move.
const SETUP_TIME: Duration = Duration::from_secs(10);

/// The most lines one GTP reply may have (the referee's commands have one-line answers).
const MAX_REPLY_LINES: usize = 64;

/// The wire format a contestant speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Seed 001's move triples, one game per process.
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
    /// The most a move may take, from the moment the contestant is asked for it.
    pub move_time: Duration,
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

/// One contestant in one game: its process and what it has been told.
pub struct Contestant {
    child: Child,
    spec: SideSpec,
    /// The standard colour it plays.
    color: Color,
    shape: Shape,
    /// When its clock started for the move it owes (triples: when the last move reached it).
    clock: Instant,
    pings: u32,
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
    ) -> Result<Contestant, Forfeit> {
        let (rows, cols) = (shape.rows(), shape.cols());
        let mut command = spec.command.clone();
        let mut env = Vec::new();
        if spec.protocol == Protocol::Triples {
            let seed_color = seed_letter(color).to_string();
            env.push(("OTHELLO_COLOR", seed_color.clone()));
            env.push(("OTHELLO_OPENING", opening.to_string()));
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
        }
        let child = Child::spawn(&command, &env)
            .map_err(|e| Forfeit::new(Reason::Crash, format!("cannot start {command:?}: {e}")))?;
        let mut contestant = Contestant {
            child,
            spec: spec.clone(),
            color,
            shape,
            clock: Instant::now(),
            pings: 0,
        };
        match spec.protocol {
            Protocol::Triples => {}
            Protocol::Gtp => {
                if rows != cols {
                    return Err(Forfeit::new(
                        Reason::ProtocolError,
                        "GTP boards are square (boardsize N)",
                    ));
                }
                contestant.gtp(&format!("boardsize {rows}"))?;
                contestant.gtp("clear_board")?;
                let secs = spec.move_time.as_secs();
                if secs >= 1 {
                    // Byo-yomi of one move per period: the per-move limit, in whole seconds.
                    // Programs that ignore time settings may answer with an error; that is
                    // no fault.
                    let _ = contestant.gtp_reply(&format!("time_settings 0 {secs} 1"));
                }
                // Passes are left out: GTP Othello programs pass by themselves, and
                // gtp-rhino refuses `play <colour> pass`.
                for &(mover, played) in start {
                    if let Move::Play(square) = played {
                        contestant.gtp(&format!("play {mover} {square}"))?;
                    }
                }
            }
            Protocol::Nboard => {
                if (rows, cols) != (8, 8) {
                    return Err(Forfeit::new(
                        Reason::ProtocolError,
                        "NBoard plays on 8x8 only",
                    ));
                }
                contestant.send("nboard 2")?;
                contestant.send(&format!("set game {}", ggf(start)))?;
                contestant.sync()?;
            }
        }
        contestant.clock = Instant::now();
        Ok(contestant)
    }

    /// Starts the clock of the move it owes now, for a side that moves first once both sides
    /// are ready (a triples program's clock otherwise runs while its opponent starts).
    pub fn start_clock(&mut self) {
        self.clock = Instant::now();
    }

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

    /// A GTP command whose reply must be a success.
    fn gtp(&mut self, command: &str) -> Result<String, Forfeit> {
        match self.gtp_reply(command)? {
            Ok(text) => Ok(text),
            Err(text) => Err(Forfeit::new(
                Reason::ProtocolError,
                format!("{command:?} was answered \"? {text}\""),
            )),
        }
    }

    /// A GTP command's reply: `Ok` for `= ...`, `Err` for `? ...`, within the setup time.
    fn gtp_reply(&mut self, command: &str) -> Result<Result<String, String>, Forfeit> {
        self.send(command)?;
        self.gtp_answer(Instant::now() + SETUP_TIME, "answer")
    }

    fn gtp_answer(
        &mut self,
        deadline: Instant,
        what: &str,
    ) -> Result<Result<String, String>, Forfeit> {
        // The reply starts with = or ? (and an optional id) and ends with a blank line.
        let first = loop {
            let line = self
                .child
                .receive(deadline)
                .map_err(|s| Forfeit::silence(s, what))?;
            if !line.trim().is_empty() {
                break line;
            }
        };
        let reply: gtp::Reply = first
            .parse()
            .map_err(|why: String| Forfeit::new(Reason::Malformed, why))?;
        let (ok, text) = (reply.success, reply.text);
        // The rest of the reply, up to its blank line, with some slack past the deadline.
        let rest = deadline.max(Instant::now()) + SETUP_TIME;
        let mut lines = 1;
        loop {
            match self.child.receive(rest) {
                Ok(line) if line.trim().is_empty() => break,
                Ok(_) => {}
                Err(s) => return Err(Forfeit::silence(s, what)),
            }
            lines += 1;
            if lines > MAX_REPLY_LINES {
                return Err(Forfeit::new(
                    Reason::Malformed,
                    format!("a reply of over {MAX_REPLY_LINES} lines"),
                ));
            }
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }

    /// NBoard: `ping n` and wait for `pong n`, skipping whatever comes before it.
    fn sync(&mut self) -> Result<(), Forfeit> {
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + SETUP_TIME;
        loop {
            let line = self
                .child
                .receive(deadline)
                .map_err(|s| Forfeit::silence(s, "pong"))?;
            if line.split_whitespace().collect::<Vec<_>>() == ["pong", &n.to_string()] {
                return Ok(());
            }
        }
    }

    /// Tells the contestant a move of the other side (or, for a triples program, any move it
    /// did not make itself).
    pub fn tell(&mut self, mover: Color, played: Move) -> Result<(), Forfeit> {
        match self.spec.protocol {
            Protocol::Triples => {
                self.send(&Triple::from_standard(mover, played.square()).to_string())?;
            }
            Protocol::Gtp => {
                if let Move::Play(square) = played {
                    self.gtp(&format!("play {mover} {square}"))?;
                }
            }
            Protocol::Nboard => {
                self.send(&format!("move {played}"))?;
            }
        }
        self.clock = Instant::now();
        Ok(())
    }

    /// Asks for the contestant's move; `must_pass` tells how a triples `P` reads on wide
    /// boards. Returns the answer and the time it took.
    pub fn ask(&mut self, must_pass: bool) -> Result<(Move, Duration), Forfeit> {
        self.not_flooding()?;
        let limit = self.spec.move_time;
        let answer = match self.spec.protocol {
            Protocol::Triples => {
                let line = self.line_where(self.clock + limit, |l| !l.trim().is_empty())?;
                let triple: Triple = line.parse().map_err(|e| {
                    Forfeit::new(Reason::Malformed, format!("{:?}: {e}", line.trim()))
                })?;
                if triple.standard_color() != self.color {
                    return Err(Forfeit::new(
                        Reason::IllegalMove,
                        format!("{} is a move of the other colour", line.trim()),
                    ));
                }
                Move::from(triple.square_on(self.shape.cols(), must_pass))
            }
            Protocol::Gtp => {
                self.send(&format!("genmove {}", self.color))?;
                self.clock = Instant::now();
                let reply = self.gtp_answer(self.clock + limit, "move")?;
                let text = reply.map_err(|text| {
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
                self.on_board(vertex.0, &text)?
            }
            Protocol::Nboard => {
                self.send("go")?;
                self.clock = Instant::now();
                let line = self.line_where(self.clock + limit, |l| l.starts_with("==="))?;
                let chosen: nboard::Chosen = line
                    .parse()
                    .map_err(|why: String| Forfeit::new(Reason::Malformed, why))?;
                let answer = self.on_board(chosen.played, line.trim())?;
                // An NBoard engine does not play its own move: the GUI tells it, as here.
                let took = self.clock.elapsed();
                self.send(&format!("move {answer}"))?;
                self.clock = Instant::now() - took;
                answer
            }
        };
        let took = self.clock.elapsed();
        if took > limit {
            return Err(Forfeit::new(
                Reason::Timeout,
                format!("answered after {} ms", took.as_millis()),
            ));
        }
        Ok((answer, took))
    }

    /// The first line that `wanted` accepts, skipping the others, for a move due by
    /// `deadline`.
    fn line_where(
        &mut self,
        deadline: Instant,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, Forfeit> {
        loop {
            let line = self
                .child
                .receive(deadline)
                .map_err(|s| Forfeit::silence(s, "move"))?;
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

    /// Ends the process politely if it will go, by force if not.
    pub fn end(mut self) {
        match self.spec.protocol {
            Protocol::Triples => {}
            Protocol::Gtp => {
                let _ = self.child.send("quit");
            }
            Protocol::Nboard => {
                let _ = self.child.send("quit");
            }
        }
        self.child.end(Duration::from_millis(300));
    }
}

/// The 8x8 start position and the moves played since, as a GGF game record.
fn ggf(moves: &[(Color, Move)]) -> String {
    nboard::GgfGame::standard(moves.to_vec()).to_string()
}
