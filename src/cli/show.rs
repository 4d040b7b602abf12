//! `othello show`: every step of a move list.

use super::options::{GameRules, StartArgs};
use crate::cli::error::AppError;
use othello::notation::MoveList;
use std::io;

/// The options of `othello show`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
pub struct Args {
    /// The moves, such as `B1 A1 C4` or `f5d6c3`; all arguments together make one list.
    pub moves: Vec<MoveList>,
    #[command(flatten)]
    pub start: StartArgs,
}

pub fn run(args: Args, rules: GameRules) -> Result<(), AppError> {
    let start = args.start.start(rules);
    let moves: MoveList = args.moves.into_iter().flat_map(|list| list.0).collect();
    othello::analysis::show(&start, &moves, &mut io::stdout().lock())?;
    Ok(())
}
