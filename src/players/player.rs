//! What every player is to a game: something that picks the next move.

use crate::rules::{Game, Move};

/// Picks moves.
pub trait Player<B>: Send {
    /// A legal move for the side to move (a pass when it must), or `None` if the game is over.
    fn choose(&mut self, game: &Game<B>) -> Option<Move>;
    /// Whether the last choice needed no more thought: the only move, or one whose value was
    /// proved exactly. A timed search of such a move ends early by design.
    fn settled(&self) -> bool {
        false
    }
    /// The next move is owed since `clock`, before `choose` is called: a referee's clock for
    /// the first move runs from the program's start. Only timed players care.
    fn owed_since(&mut self, _clock: std::time::Instant) {}
}
