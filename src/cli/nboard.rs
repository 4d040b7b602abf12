//! `othello nboard`: the NBoard protocol.

use super::options::{EngineArgs, EngineDefaults, GameRules};
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
}

pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let settings = nboard::Settings {
        variant: rules.variant(false),
        config: args.engine.config(EngineDefaults::PROTOCOLS, eval),
        book,
    };
    let (input, output) = (io::stdin().lock(), io::stdout().lock());
    Ok(nboard::run(settings, input, output, io::stderr())?)
}
