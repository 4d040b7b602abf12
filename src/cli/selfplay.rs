//! `othello selfplay`: a series of games between two players in this process.

use super::options::{BoardArgs, GameRules};
use crate::cli::error::AppError;
use othello::players::{BookUse, PlayerSpec};
use othello::progress::Progress;
use othello::referee;
use othello::search::Evaluation;
use std::io;

/// The options of `othello selfplay`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
pub struct Args {
    /// The first player: random, greedy, weights, or the engine as settings joined by commas:
    /// depth=N, time=DURATION (such as 50ms), hash=MB, seed=N, threads=N, eval=learned|classic
    /// (such as depth=6 or time=50ms,hash=32).
    #[arg(long, value_name = "PLAYER")]
    pub a: PlayerSpec,
    /// The second player, as --a.
    #[arg(long, value_name = "PLAYER")]
    pub b: PlayerSpec,
    /// Games to play, colours alternating: each random opening is played twice, colours
    /// swapped.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    #[command(flatten)]
    pub board: BoardArgs,
    /// The player with fewer discs wins.
    #[arg(long)]
    pub misere: bool,
    /// Random plies before the players take over [default: cells / 16, at most 8].
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// Seed for the openings and the yardstick players' tie-breaks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A spec's engine that does not ask for the classic evaluation plays by the program's.
pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let setup = args.board.setup(rules.variant(args.misere));
    let series = referee::Series {
        a: args.a.evaluating_within(eval),
        b: args.b.evaluating_within(eval),
        games: args.games,
        setup,
        opening_plies: args
            .opening_plies
            .unwrap_or_else(|| referee::default_opening_plies(setup.shape)),
        seed: args.seed,
        book,
    };
    let progress = Progress::counter(series.games as u64, "games");
    referee::selfplay(&series, &mut io::stdout().lock(), &progress)?;
    Ok(())
}
