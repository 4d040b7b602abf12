//! Subcommands other than the protocol: each takes plain values and a writer.

mod bench;
mod interrupt;
mod journal;
mod openings;
mod perfect_play;
mod selfplay;
mod show;
mod solve;
pub mod work;

pub use bench::{bench, bench_positions, BenchLine};
pub use interrupt::{signal_name, Interrupt, Stopped};
pub use journal::{Earlier, JournalFile, JOURNAL_MIN_NODES};
pub use openings::{read_openings, read_openings_file, MAX_OPENINGS_FILE};
pub use perfect_play::{
    boards_up_to, duration_text, perfect_play, Found, PerfectPlayOptions, TableEntry, Work,
};
pub use selfplay::{default_opening_plies, selfplay, MoveTimes, Series, Tally};
pub use show::{show, IllegalListedMove, Shown};
pub use solve::{
    line_text, obf_position, progress_printer, solve_file, solve_file_up_to, solve_from,
    solve_position, solve_position_within, write_solution, BadPosition, FileTotals, OutOfTime,
    PositionSolved, SolveOptions, MAX_LIST_FILE,
};

use crate::notation::PositionString;
use crate::rules::{perft, Bits, Position, Rules, Setup, Shape, ShapeError, Variant};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// A disc difference with its sign: `+3`, `0`, `-8`.
fn signed(n: i32) -> String {
    if n == 0 {
        "0".to_string()
    } else {
        format!("{n:+}")
    }
}

/// Where a command's game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The four-disc start of a setup.
    Setup(Setup),
    /// A position string, played under a variant.
    Position(PositionString, Variant),
}

impl Start {
    pub fn shape(&self) -> Shape {
        match self {
            Start::Setup(s) => s.shape,
            Start::Position(p, _) => p.shape(),
        }
    }

    pub fn variant(&self) -> Variant {
        match self {
            Start::Setup(s) => s.variant,
            Start::Position(_, v) => *v,
        }
    }

    /// The rules and the starting position in bit sets of type `B`.
    pub fn rules_and_position<B: Bits>(&self) -> Result<(Rules<B>, Position<B>), ShapeError> {
        Ok(match self {
            Start::Setup(s) => {
                let rules = Rules::<B>::new(s.shape, s.variant)?;
                let position = rules.start(s.first, s.top_left);
                (rules, position)
            }
            Start::Position(p, variant) => (p.rules::<B>(*variant)?, p.position::<B>()),
        })
    }
}

/// Prints one line per depth from 1 to `depth`: depth, leaf count, seconds.
pub fn perft_table(setup: &Setup, depth: u32, out: &mut dyn Write) -> anyhow::Result<()> {
    crate::with_bits!(setup.shape, |B| perft_lines::<B>(setup, depth, out))
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

/// Whether an I/O error only means the reader went away (`| head`).
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
