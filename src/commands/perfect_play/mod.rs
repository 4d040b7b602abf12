//! `othello perfect-play`: the value under perfect play of every small board from the standard
//! start, under each rule set, normal and misère, with and without place-anywhere, as a markdown
//! document. Each entry is solved within a time limit, and finished entries go to a cache file
//! so that a long run can be stopped and resumed.
//!
//! Only boards with rows <= columns are listed by `--max-cells`: turning an RxC board over its
//! main diagonal maps its start exactly onto the CxR start (the 2x2 block at row `rows/2 - 1`,
//! column `cols/2 - 1` goes to row `cols/2 - 1`, column `rows/2 - 1`, and its diagonal stays its
//! diagonal, so the colours agree), and the rules read the same in every direction.
//!
//! `entry.rs` says what a run is asked for and what became of each entry, `run.rs` takes each
//! entry from the cache or solves it, `journals.rs` names each entry's solve journal and reads
//! what it proves, `cache.rs` reads and writes the cache file (its format is described there),
//! `document.rs` writes the markdown.

mod cache;
mod document;
mod entry;
mod journals;
mod run;

pub use entry::{boards_up_to, duration_text, Found, PerfectPlayOptions, TableEntry, Work};
pub use run::perfect_play;
