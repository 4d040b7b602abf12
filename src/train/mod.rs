//! Training a pattern evaluation from the program's own games: labelled positions
//! ([`generate`]) in a documented file format ([`data`]), and least-squares weights fitted to
//! them ([`fit`]), written in the weights format of [`crate::search::weights`].

pub mod data;
pub mod fit;
pub mod generate;
pub mod probcut;

#[cfg(test)]
mod tests;
