//! `othello nboard`: the NBoard protocol.

use super::options::{ClockArgs, EngineArgs, EngineDefaults, GameRules};
use crate::cli::error::AppError;
use othello::players::BookUse;
use othello::protocols::nboard;
use othello::search::Evaluation;
use std::io;

/// The options of `othello nboard`.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::PROTOCOLS.in_help()))]
pub struct Args {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// A game clock for each colour: `go` spends the side to move's (the protocol has none).
    #[command(flatten)]
    pub clock: ClockArgs,
}

pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let settings = nboard::Settings {
        variant: rules.variant(false),
        config: args.engine.config_with_clock(
            EngineDefaults::PROTOCOLS,
            eval,
            args.clock.control(),
        ),
        book,
    };
    let (input, output) = (io::stdin().lock(), io::stdout().lock());
    Ok(nboard::run(settings, input, output, io::stderr())?)
}
