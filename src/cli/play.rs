//! `othello play`: a game for people at a terminal.

use super::options::{ClockArgs, EngineArgs, EngineDefaults, GameRules, StartArgs};
use crate::cli::error::AppError;
use clap::ValueEnum;
use othello::notation::MoveList;
use othello::players::BookUse;
use othello::protocols::line::Sides;
use othello::search::Evaluation;
use std::io::{self, IsTerminal};

/// The options of `othello play`.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::PLAY.in_help()))]
pub struct Args {
    #[command(flatten)]
    pub start: StartArgs,
    /// Moves played from the start before the game begins, such as f5d6c3.
    #[arg(long, default_value = "")]
    pub moves: MoveList,
    /// The side or sides the computer plays (B and W do too).
    #[arg(long, value_enum, ignore_case = true, default_value_t = PlaySides::White)]
    pub computer: PlaySides,
    // How the computer searches; the game's `level` command sets its depth.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The computer's clock; a person's moves are not timed.
    #[command(flatten)]
    pub clock: ClockArgs,
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
        config: args
            .engine
            .config_with_clock(EngineDefaults::PLAY, eval, args.clock.control()),
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
