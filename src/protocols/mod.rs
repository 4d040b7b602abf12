//! The wire formats, one module each, named by what they are. Each has one wire type
//! (`FromStr`/`Display`) that the program's own end and the referee's end both use, a pure core
//! that answers a line, and a `run` that does the reading and writing.
//!
//! - [`line`]: the five-line line protocol (`FULL`, the header, `VALID`/`INVALID`, `WINNER:`).
//! - [`triples`]: tournament move triples such as `(W D 3)`, the program as one side of a game.
//! - [`gtp`]: the Go Text Protocol as Othello programs speak it.
//! - [`nboard`]: the NBoard protocol with its GGF game records.
//!
//! [`LineReader`] is the one line reader they all use, bounded in line length; the files the
//! commands read as lists go through it too ([`list_entries`]).

pub mod gtp;
pub mod line;
pub mod nboard;
mod reader;
pub mod triples;

pub use reader::{list_entries, list_entry, LineReader, Unreadable, MAX_LINE};
