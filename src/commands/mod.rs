//! Subcommands other than the protocol: each takes plain values and a writer.

pub mod analyze;
mod bench;
mod interrupt;
mod journal;
mod openings;
mod perfect_play;
mod perft;
mod selfplay;
mod show;
mod solve;
mod start;
pub mod work;

pub use bench::{bench, bench_positions, BenchLine};
pub use interrupt::{signal_name, Interrupt, Stopped};
pub use journal::{Earlier, JournalFile, JOURNAL_MIN_NODES};
pub use openings::{read_openings, read_openings_file, MAX_OPENINGS_FILE};
pub use perfect_play::{boards_up_to, perfect_play, Found, PerfectPlayOptions, TableEntry, Work};
pub use perft::perft_table;
pub use selfplay::{default_opening_plies, selfplay, MoveTimes, Series, Tally};
pub use show::{show, IllegalListedMove, Shown};
pub use solve::{
    line_text, obf_position, progress_printer, solve_file, solve_file_up_to, solve_from,
    solve_position, solve_position_within, write_solution, BadPosition, FileTotals, OutOfTime,
    PositionSolved, SolveOptions, MAX_LIST_FILE,
};
pub use start::Start;

use std::io;

/// Whether an I/O error only means the reader went away (`| head`).
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
