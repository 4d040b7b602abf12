//! `othello bench`: fixed searches whose node counts repeat exactly, and their speed.

use super::options::{EngineDefaults, ResourceArgs};
use crate::cli::error::{read_list, AppError};
use othello::search::Evaluation;
use std::io;
use std::path::PathBuf;

/// The options of `othello bench`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::BENCH.in_help()))]
pub struct Args {
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// Search the positions of this file instead, each --depth moves deep, one per line:
    /// position strings such as "(b ---- -wb- -bw- ----)", OBF lines, or moves from the 8x8
    /// start (f5d6c3); full rules, more discs winning. Blank lines and lines starting with #
    /// are skipped.
    #[arg(long, requires = "depth")]
    pub positions: Option<PathBuf>,
    /// How many moves deep to search each position of --positions.
    #[arg(long, visible_alias = "level", requires = "positions", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub depth: Option<u32>,
}

pub fn run(args: Args, eval: &Evaluation) -> Result<(), AppError> {
    let out = &mut io::stdout().lock();
    // Each case sets its own depth, or none for an exact solve.
    let config = args.resources.solver(EngineDefaults::BENCH, eval);
    match (args.positions, args.depth) {
        (Some(path), Some(depth)) => {
            let text = read_list(&path, "a positions file")?;
            othello::bench::bench_positions(&text[..], depth, &config, out)?;
        }
        _ => {
            othello::bench::bench(&config, out)?;
        }
    }
    Ok(())
}
