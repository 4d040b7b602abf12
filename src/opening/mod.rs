//! What is known about openings before any search: the named openings of 8x8, the opening
//! book, which keeps searched values of early positions so that the engine need not search them,
//! and files of opening lines that matches and series start from.

pub mod book;
pub mod lines;
pub mod names;
