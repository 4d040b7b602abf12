//! The opening book.
pub mod edax;
