//! `othello` with no subcommand: the line protocol on standard input and output.

use super::options::{EngineArgs, EngineDefaults, GameRules};
use crate::cli::error::{AppError, CommandEnd};
use clap::ValueEnum;
use othello::players::BookUse;
use othello::protocols::line::{self, Computer, Ending, Options, RunError, Sides};
use othello::search::Evaluation;
use std::io::{self, IsTerminal};

/// The sides the program plays in the line protocol. A colour is spelled black or B, white or
/// W, in any case, wherever the command line takes one.
#[derive(Clone, Copy, ValueEnum)]
pub enum ComputerArg {
    /// Black (or B).
    #[value(alias = "B")]
    Black,
    /// White (or W).
    #[value(alias = "W")]
    White,
    /// Both sides.
    Both,
}

impl From<ComputerArg> for Sides {
    fn from(c: ComputerArg) -> Sides {
        match c {
            ComputerArg::Black => Sides::Black,
            ComputerArg::White => Sides::White,
            ComputerArg::Both => Sides::Both,
        }
    }
}

/// The line protocol (no subcommand).
pub fn run(
    rules: GameRules,
    computer: Option<ComputerArg>,
    engine: &EngineArgs,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<CommandEnd, AppError> {
    let options = Options {
        rule_set: rules.rules.into(),
        place_anywhere: rules.place_anywhere,
        computer: computer.map(|c| Computer {
            sides: c.into(),
            config: engine.config(EngineDefaults::PROTOCOLS, eval),
            book,
        }),
    };
    if io::stdin().is_terminal() {
        eprintln!(
            "othello: the line protocol: type 5 header lines (rows, columns, first player B/W, \
             top-left colour B/W, > or <), then moves as \"row col\"; for a board with letters, \
             undo and hints run: othello play"
        );
    }
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::new(io::stdout().lock());
    match line::run(options, stdin, stdout) {
        Ok(Ending::Finished) => Ok(CommandEnd::Done),
        Ok(Ending::InputEnded) => Ok(CommandEnd::InputEnded),
        Err(RunError::Header(e)) => Err(AppError::Input(e.to_string())),
        Err(RunError::Io(e)) => Err(e.into()),
    }
}
