//! `othello engine`: one side of a tournament game, in move triples.

use super::options::{ClockArgs, EngineArgs, EngineDefaults, GameRules, Side, TournamentBoard};
use crate::cli::error::AppError;
use othello::notation::MoveList;
use othello::players::{BookUse, PlayerSpec};
use othello::protocols::triples;
use othello::rules::{Color, Game, Passes};
use othello::search::Evaluation;
use std::io;

/// The options of `othello engine`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::PROTOCOLS.in_help()))]
pub struct Args {
    /// The colour this program plays (B and W do too, as a referee passes them).
    #[arg(long, value_enum, ignore_case = true)]
    pub color: Side,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub clock: ClockArgs,
    #[command(flatten)]
    pub board: TournamentBoard,
    /// Moves already played, in standard notation with the same square names as the
    /// triples (f5d6c3 is (W F 5) (B D 6) (W C 3)); pa is a pass.
    #[arg(long, default_value = "")]
    pub opening: MoveList,
}

/// One side of a tournament game. A game that cannot be set up (the board, the
/// opening) is the command line's fault; a bad line from the opponent is a failure. `started`
/// is when the program started: a first move owed at once is timed from then.
pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
    started: std::time::Instant,
) -> Result<(), AppError> {
    let setup = args.board.setup(rules);
    // The triples' colours are the standard ones swapped (see `tournament`).
    let me = Color::from(args.color).opposite();
    let mut config =
        args.engine
            .config_with_clock(EngineDefaults::PROTOCOLS, eval, args.clock.control());
    config.move_time = config.move_time.map(othello::search::time::search_time);
    othello::with_bits!(setup.shape, |B| {
        let game =
            Game::<B>::new(&setup, Passes::Explicit).map_err(|e| AppError::Usage(e.to_string()))?;
        let player = PlayerSpec::Engine(config).build(game.rules().clone(), 0, book.as_ref());
        let session = triples::EngineSession::new(game, me, player, &args.opening.0, started)
            .map_err(|e| AppError::Usage(e.to_string()))?;
        engine_result(triples::run(
            session,
            io::stdin().lock(),
            io::stdout().lock(),
        ))
    })
}

fn engine_result(result: Result<triples::Ending, triples::EngineError>) -> Result<(), AppError> {
    match result {
        Ok(_) => Ok(()),
        Err(triples::EngineError::Io(e)) => Err(e.into()),
        Err(e) => Err(AppError::Failed(e.to_string())),
    }
}
