//! Perfect play: the exact value of a position and a line of it.
//!
//! - [`position`]: `othello solve` of one position (from a start and moves) or of every line of
//!   an OBF file, with its report.
//! - [`journal`]: the journal file, the bounds a solve keeps for the next run of the same position.
//! - [`work`]: a solve split into jobs for many machines, their results merged.
//! - [`perfect_play`]: the table of every small board's value, with its cache.

mod journal;
mod perfect_play;
mod position;
pub mod work;

pub use journal::{Earlier, JournalFile, JOURNAL_MIN_NODES};
pub use perfect_play::{
    boards_up_to, perfect_play, EntryWork, Found, PerfectPlayOptions, TableEntry,
};
pub use position::{
    line_text, obf_position, progress_printer, solve_file, solve_file_up_to, solve_from,
    solve_position, solve_position_within, write_solution, FileTotals, OutOfTime, PositionSolved,
    SolveOptions,
};
