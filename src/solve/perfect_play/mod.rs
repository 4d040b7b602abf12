//! `othello perfect-play`: the value under perfect play of every small board from the standard
//! start, under each rule set, normal and misère, with and without place-anywhere, as a markdown
//! document. Each entry is solved within a time limit, and finished entries go to a cache file
//! so that a long run can be stopped and resumed.
//!
//! Only boards with rows <= columns are listed by `--max-cells`: RxC turned over its main
//! diagonal is exactly the CxR start, and the rules read the same in every direction.
//!
//! `entry.rs`: what a run is asked for and what became of each entry; `run.rs`: each entry
//! from the cache or solved; `journals.rs`: each entry's solve journal; `cache.rs`: the cache
//! file; `document.rs`: the markdown.

mod cache;
mod document;
mod entry;
mod journals;
mod run;

pub use entry::{boards_up_to, EntryWork, Found, PerfectPlayOptions, TableEntry};
pub use run::perfect_play;
