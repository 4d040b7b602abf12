//! `othello gtp`: the Go Text Protocol, as Othello programs speak it.

use super::options::{EngineArgs, EngineDefaults, GameRules};
use crate::cli::error::AppError;
use othello::players::BookUse;
use othello::protocols::gtp;
use othello::search::Evaluation;
use std::io;

/// The options of `othello gtp`.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::PROTOCOLS.in_help()))]
pub struct Args {
    #[command(flatten)]
    pub engine: EngineArgs,
}

pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let settings = gtp::Settings {
        variant: rules.variant(false),
        config: args.engine.config(EngineDefaults::PROTOCOLS, eval),
        clock_cap: args.engine.move_time(),
        book,
    };
    Ok(gtp::run(settings, io::stdin().lock(), io::stdout().lock())?)
}
