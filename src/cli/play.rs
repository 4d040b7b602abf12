//! `othello play`: a game for people at a terminal.

use super::options::{all_cores, GameRules, StartArgs};
use crate::cli::error::AppError;
use clap::ValueEnum;
use othello::notation::MoveList;
use othello::players::{self, BookUse};
use othello::protocols::line::Sides;
use othello::search::{Config, Evaluation};
use std::io::{self, IsTerminal};
use std::time::Duration;

/// The options of `othello play`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub start: StartArgs,
    /// Moves played from the start before the game begins, such as f5d6c3.
    #[arg(long, default_value = "")]
    pub moves: MoveList,
    /// The side or sides the computer plays (B and W do too).
    #[arg(long, value_enum, ignore_case = true, default_value_t = PlaySides::White)]
    pub computer: PlaySides,
    /// The computer searches this many moves ahead (instead of a time per move); the game's
    /// `level` command changes it.
    #[arg(long = "depth", visible_alias = "level", value_name = "DEPTH", conflicts_with = "move_time", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: Option<u32>,
    /// The computer's time for each move, such as 500ms or 2s [default: 1s].
    #[arg(long, value_parser = othello::durations::parse)]
    pub move_time: Option<Duration>,
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, default_value_t = 64, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
}

impl Args {
    /// How the computer searches: a level is a depth, otherwise a time per move on every core.
    pub fn config(&self, eval: &Evaluation) -> Config {
        let limits = match self.level {
            Some(level) => Config::to_depth(level),
            None => self
                .move_time
                .map_or_else(Config::default, Config::for_time)
                .with_threads(all_cores()),
        };
        limits.with_hash_mb(self.hash_mb).with_eval(eval.clone())
    }
}

/// The sides the computer takes in `othello play`.
#[derive(Clone, Copy, ValueEnum)]
pub enum PlaySides {
    /// Black (or B).
    #[value(alias = "B")]
    Black,
    /// White (or W).
    #[value(alias = "W")]
    White,
    /// Both sides: the program plays itself.
    Both,
    /// Neither: two people at one keyboard.
    None,
}

impl From<PlaySides> for Option<Sides> {
    fn from(s: PlaySides) -> Option<Sides> {
        match s {
            PlaySides::Black => Some(Sides::Black),
            PlaySides::White => Some(Sides::White),
            PlaySides::Both => Some(Sides::Both),
            PlaySides::None => None,
        }
    }
}

/// `othello play`: a game for people. On a terminal: colour, line editing and the program's
/// thinking shown live.
pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let colour = anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never;
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    let options = othello::play::Options {
        colour: colour && io::stdout().is_terminal(),
        thinking: terminal && io::stderr().is_terminal(),
        config: args.config(eval),
        book,
        computer: args.computer.into(),
        moves: args.moves,
        start: args.start.start(rules),
    };
    let session = othello::play::Session::new(options).map_err(AppError::Usage)?;
    // Not locked: the line editor writes its prompt to the terminal itself.
    let stdout = io::stdout();
    let ending = if terminal {
        let mut keyboard = othello::play::Terminal::new()?;
        othello::play::run(session, &mut keyboard, stdout)?
    } else {
        let mut keyboard = othello::lines::LineReader::new(io::stdin().lock());
        othello::play::run(session, &mut keyboard, stdout)?
    };
    match ending {
        othello::play::Ending::Left => Ok(()),
        othello::play::Ending::Interrupted => Err(AppError::Stopped {
            signal: libc::SIGINT,
            message: "stopped by SIGINT (Ctrl-C); the moves so far are printed above".into(),
        }),
    }
}
