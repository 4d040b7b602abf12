//! Othello (Reversi) on any board from 3x3 to 26x26: the rules, the line protocol, the computer
//! player, perft, and the engine protocols GTP and NBoard.

pub mod analysis;
pub mod bench;
pub mod durations;
pub mod files;
pub mod interrupt;
pub mod job_array;
pub mod lines;
pub mod notation;
pub mod opening;
pub mod play;
pub mod players;
pub mod progress;
pub mod protocols;
pub mod random;
pub mod referee;
pub mod rules;
pub mod search;
pub mod solve;
pub mod start;
pub mod train;
pub mod wording;

#[cfg(test)]
mod testing;
