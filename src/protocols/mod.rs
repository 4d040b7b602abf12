//! The wire formats, one module each, named by what they are. Each has one wire type
//! (`FromStr`/`Display`) that the program's own end and the referee's end both use, a pure core
//! that answers a line, and a `run` that does the reading and writing.
//!
//! - [`line`]: the five-line line protocol (`FULL`, the header, `VALID`/`INVALID`, `WINNER:`).
//! - [`triples`]: tournament move triples such as `(W D 3)`, the program as one side of a game.
//! - [`gtp`]: the Go Text Protocol as Othello programs speak it.
//! - [`nboard`]: the NBoard protocol with its GGF game records.
//!
//! They all read through [`crate::lines::LineReader`], bounded in line length.

pub mod gtp;
pub mod line;
pub mod nboard;
pub mod triples;
