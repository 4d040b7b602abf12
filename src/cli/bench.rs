//! `othello bench`: fixed searches whose node counts repeat exactly, and their speed.

use super::options::threads_arg;
use crate::cli::error::{read_list, AppError};
use othello::players;
use othello::search::{Config, Evaluation};
use std::io;
use std::path::PathBuf;

/// The options of `othello bench`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
pub struct Args {
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
    /// Search with this many threads (node counts repeat exactly only with 1).
    #[arg(long, default_value_t = 1, value_parser = threads_arg)]
    pub threads: usize,
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
    let config = Config::unlimited()
        .with_hash_mb(args.hash_mb)
        .with_threads(args.threads)
        .with_eval(eval.clone());
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
