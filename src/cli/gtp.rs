//! `othello gtp`: the Go Text Protocol, as Othello programs speak it.

use super::options::{GameRules, SearchArgs};
use crate::cli::error::AppError;
use othello::players::BookUse;
use othello::protocols::gtp;
use othello::search::Evaluation;
use std::io;

pub fn run(
    search: SearchArgs,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let settings = gtp::Settings {
        variant: rules.variant(false),
        config: search.config(eval),
        book,
    };
    Ok(gtp::run(settings, io::stdin().lock(), io::stdout().lock())?)
}
