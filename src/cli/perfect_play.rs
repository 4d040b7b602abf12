//! `othello perfect-play`: the table of every small board's perfect-play value.

use super::options::{EngineDefaults, ResourceArgs, RulesArg};
use crate::cli::error::AppError;
use clap::ValueEnum;
use othello::interrupt::Interrupt;
use othello::rules::{RuleSet, Shape, MAX_SIDE, MIN_SIDE};
use othello::search::Evaluation;
use othello::solve;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// The options of `othello perfect-play`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::SOLVE.in_help()))]
pub struct Args {
    /// Every board of at most this many cells, rows <= columns.
    #[arg(long, default_value_t = 36, value_parser = clap::value_parser!(u16).range((MIN_SIDE * MIN_SIDE) as i64..=(MAX_SIDE * MAX_SIDE) as i64))]
    pub max_cells: u16,
    /// These boards instead, such as 4x4,5x6 (rows x columns, 3 to 26).
    #[arg(long, value_delimiter = ',', conflicts_with = "max_cells")]
    pub boards: Vec<Shape>,
    /// The rule sets, full and/or simple.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [RulesArg::Full, RulesArg::Simple])]
    pub rule_sets: Vec<RulesArg>,
    /// normal (more discs win) and/or misere (fewer discs win).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Goal::Normal, Goal::Misere])]
    pub goals: Vec<Goal>,
    /// standard (a move must flip) and/or anywhere (place-anywhere).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Placement::Standard, Placement::Anywhere])]
    pub placements: Vec<Placement>,
    /// The longest any entry may take, such as 10m or 1h [default: no limit].
    #[arg(long, value_parser = othello::durations::parse)]
    pub limit: Option<Duration>,
    /// The longest a place-anywhere entry may take (within --limit).
    #[arg(long, default_value = "1h", value_parser = othello::durations::parse)]
    pub place_anywhere_limit: Duration,
    /// Add each finished entry to this file, and take entries found earlier from it.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Solve nothing: list the entries the --cache holds (an unsolved one whatever limit it was
    /// tried with, and with --journals the bounds its journal proves) and mark the others not
    /// tried yet.
    #[arg(long, requires = "cache")]
    pub from_cache: bool,
    /// Keep a solve journal for each entry in this folder (created if missing), so that an
    /// entry stopped at its time limit goes on where it stopped when tried again; with it, an
    /// entry the --cache has as not solved is tried again whatever its limit was. The table
    /// shows what the journal of an entry not solved proves of its value.
    #[arg(long, value_name = "FOLDER")]
    pub journals: Option<PathBuf>,
    #[command(flatten)]
    pub resources: ResourceArgs,
}

/// Whether a game is won with more discs or, under misère, fewer.
#[derive(Clone, Copy, ValueEnum)]
pub enum Goal {
    Normal,
    Misere,
}

/// Whether a move must flip (standard) or may go on any empty cell (place-anywhere).
#[derive(Clone, Copy, ValueEnum)]
pub enum Placement {
    Standard,
    Anywhere,
}

/// The table of small boards. (The global `--rules` and `--place-anywhere` are refused while
/// the command line is parsed.)
pub fn run(args: Args, eval: &Evaluation) -> Result<(), AppError> {
    let options = solve::PerfectPlayOptions {
        boards: if args.boards.is_empty() {
            solve::boards_up_to(args.max_cells.into())
        } else {
            args.boards
        },
        rule_sets: args.rule_sets.into_iter().map(RuleSet::from).collect(),
        misere: args
            .goals
            .iter()
            .map(|g| matches!(g, Goal::Misere))
            .collect(),
        place_anywhere: args
            .placements
            .iter()
            .map(|p| matches!(p, Placement::Anywhere))
            .collect(),
        limit: args.limit,
        place_anywhere_limit: Some(args.place_anywhere_limit),
        search: args.resources.solver(EngineDefaults::SOLVE, eval),
        cache: args.cache,
        journals: args.journals,
        from_cache: args.from_cache,
        progress: true,
        command_line: command_line(),
        interrupt: if args.from_cache {
            Interrupt::default()
        } else {
            Interrupt::on_signals()?
        },
    };
    let (mut out, mut log) = (io::stdout().lock(), io::stderr());
    solve::perfect_play(&options, &mut out, &mut log)?;
    Ok(())
}

/// The command line as a shell would take it back, the program named `othello`.
fn command_line() -> String {
    let quote = |arg: String| {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
        if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', r"'\''"))
        }
    };
    std::iter::once("othello".to_string())
        .chain(std::env::args().skip(1).map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}
