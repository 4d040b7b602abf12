//! `othello nboard`: the NBoard protocol.

use super::options::{GameRules, SearchArgs};
use crate::cli::error::AppError;
use othello::players::BookUse;
use othello::protocols::nboard;
use othello::search::Evaluation;
use std::io;

pub fn run(
    search: SearchArgs,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let settings = nboard::Settings {
        variant: rules.variant(false),
        config: search.config(eval),
        book,
    };
    let (input, output) = (io::stdin().lock(), io::stdout().lock());
    Ok(nboard::run(settings, input, output, io::stderr())?)
}
