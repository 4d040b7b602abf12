//! `othello perft`: the leaf count of every depth from the start, to check move generation.

use super::options::{BoardArgs, GameRules};
use crate::cli::error::AppError;
use othello::rules::{perft, Bits, Rules, Setup, Variant};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The options of `othello perft`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
pub struct Args {
    /// Count the leaves at every depth from 1 to this one.
    #[arg(long, visible_alias = "level")]
    pub depth: u32,
    #[command(flatten)]
    pub board: BoardArgs,
}

pub fn run(args: Args, rules: GameRules) -> Result<(), AppError> {
    let setup = args.board.setup(rules.variant(false));
    perft_table(&setup, args.depth, &mut io::stdout().lock())?;
    Ok(())
}

/// Prints one line per depth from 1 to `depth`: depth, leaf count, seconds.
fn perft_table(setup: &Setup, depth: u32, out: &mut dyn Write) -> anyhow::Result<()> {
    othello::with_bits!(setup.shape, |B| perft_lines::<B>(setup, depth, out))
}

fn perft_lines<B: Bits>(s: &Setup, depth: u32, out: &mut dyn Write) -> anyhow::Result<()> {
    let rules = Rules::<B>::new(s.shape, s.variant)?;
    let start = rules.start(s.first, s.top_left);
    writeln!(
        out,
        "# perft {}, {}, {} first, {} on the top-left",
        s.shape,
        Variant {
            misere: false,
            ..s.variant
        },
        s.first,
        s.top_left
    )?;
    writeln!(out, "# depth nodes seconds")?;
    for d in 1..=depth {
        let clock = Instant::now();
        let nodes = perft(&rules, &start, d);
        let took = clock.elapsed();
        writeln!(out, "{d} {nodes} {}", seconds(took))?;
        out.flush()?;
    }
    Ok(())
}

fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}
