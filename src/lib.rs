//! Othello (Reversi) on any board from 3x3 to 26x26: the rules, the line protocol, perft.

pub mod commands;
pub mod protocol;
pub mod rules;
