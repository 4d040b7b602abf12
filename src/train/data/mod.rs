//! Training positions on disk.
//!
//! A file (little-endian) is a header: the magic `OTHELLOD`, the format version (u32), rows,
//! columns, rule set (0 full, 1 simple), misère (0/1) and place-anywhere (0/1) as bytes; then
//! fixed-size records, one per position: the game's number (u32), the black discs and the white
//! discs as bit sets of `ceil(cells / 8)` bytes each (cell `i` is bit `i % 8` of byte `i / 8`,
//! cells numbered row by row from the top-left), the side to move (0 Black, 1 White), the label
//! (i16: the final disc difference for the side to move, counted as the search counts it, so
//! under misère fewer discs is a positive label) and whether the label is exact (1) or the
//! game's result backed up from a later exact solve (0). For 8x8 a record is 24 bytes.
//!
//! Version 2 adds, after the rules bytes, the number of records (u64), so that a file cut short,
//! even between two records, is caught; `u64::MAX` there marks a file still being written (a
//! `train gen` run stopped or under way), whose count is set when the run ends. Version 1 files
//! (no count) are still read by `train fit` and `train test`; `train gen` adds to none.
//!
//! Files, each using only those before it: `format` (the header and the records), `read`,
//! `append` (adding to a file), `shards` (a run's games split over many files).

mod append;
mod format;
mod read;
mod shards;

pub use append::{open_for_append, Appending};
pub use format::{Board, Count, Record, Records, Sample};
pub use read::read_all;
pub use shards::{open_shard, partial_path, Shard, ShardEnd};
