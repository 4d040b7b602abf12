//! The opening book.
