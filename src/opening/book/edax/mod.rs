//! Edax's opening book file (`book.dat` of Edax 4.x), read and written byte for byte; the
//! layout is in docs/book.md, "Edax's book format". Everything is little-endian: a 42-byte
//! header (magic words, version, date, options, count), then per position its two bitboards,
//! game counts, value and bounds, link count, level, links and leaf.
//!
//! Squares: 0 is A1 (top left), 1 B1, ... 8 A2, ... 63 H8, as our 8x8 cells; 64 is a pass, 65
//! "no move". Bit `x` of a bitboard is square `x`; `player` holds the side to move's discs.
//! Edax keeps a position once for its eight symmetries, in the orientation [`unique_board`]
//! picks, and finds a board by that form only. Links are moves to positions in the book; the
//! leaf is the best move left out. Scores are discs for the side to move.
//!
//! Files, each using only those before it: `squares` (squares, moves, boards, symmetries),
//! `format` (the layout and the book in memory), `check` (what Edax can use), `read`, `write`.

mod check;
mod format;
mod read;
mod squares;
mod write;

pub use format::{
    board_from_position, EdaxBook, EdaxDate, EdaxError, EdaxLink, EdaxOptions, EdaxPosition,
    HEADER_BYTES, MAGIC_BOOK, MAGIC_EDAX, POSITION_BYTES, RELEASE, SCORE_INF, VERSION,
};
pub use read::{header_count, read};
pub use squares::{
    color_by_parity, move_from_edax, move_to_edax, position_from_board, square_name,
    square_to_edax, symmetric_bits, symmetric_square, unique_board, NO_MOVE, PASS,
};
pub use write::write;

#[cfg(test)]
mod tests;
