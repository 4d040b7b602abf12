//! The opening book: positions met in the opening with their values, so that the engine need
//! not search them, and the games learned below each.
//!
//! A position is kept once for all its images under the board's symmetries (and for both
//! colours: its key is the discs of the side to move, then the other side's), in the image
//! whose key is smallest. Its moves are kept in that image's frame and turned back into the
//! game's own when asked for. Each position holds its value for the side to move, the moves
//! that lead to other positions of the book (links) with their values, and the best move
//! that does not (the leaf) with its searched value: [`Book::fix`] redoes the negamax from
//! these alone, no search needed.

pub mod edax;
mod edit;
mod exchange;
mod file;
mod learn;
mod positions;
mod show;
#[cfg(test)]
mod tests;

pub use edit::{MergeReport, PruneOptions};
pub use exchange::ExchangeError;
pub use file::{
    built_in, checksum, for_play, from_bytes, open_or_create, read, read_edax, to_bytes, write,
    BookFileError, EdaxFileError, OpenError, MAGIC, MAX_BOOK_FILE, VERSION,
};
pub use learn::{add_games, learn, AddReport, LearnOptions, LearnReport};
pub(crate) use positions::{add_link, Frame};
pub use positions::{Book, BookMove, BookPosition, Games, Header, Leaf, Level, Link, Mismatch};
pub use show::{show, write_show, Shown};
