//! What is known about openings before any search: the named openings of 8x8 and the opening
//! book, which keeps searched values of early positions so that the engine need not search them.

pub mod book;
pub mod names;
