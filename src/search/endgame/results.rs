//! What a solve is asked to prove and what it found.

use std::time::Duration;

/// An exact result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Final disc difference for the side to move under best play (see [`Scoring`](crate::search::Scoring)).
    pub score: i32,
    /// A best move, or `None` when the side to move must pass or the game is over.
    pub best: Option<usize>,
    /// The moves proved exact, best first: every legal move ([`RootMoves::All`]), the best
    /// ones ([`RootMoves::Ties`]) or none ([`RootMoves::Best`]).
    pub moves: Vec<(usize, i32)>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// What a search of one position within a window proved (see
/// [`Engine::solve_window_within`](crate::search::Engine::solve_window_within)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Windowed {
    /// The fail-soft score: exact strictly inside the window, a bound on or outside it.
    pub score: i32,
    /// A move that reaches the score (when it is above the window's floor: below it, every
    /// move was shown no better, and this is only the one that came nearest).
    pub best: Option<usize>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Which root moves a solve proves exact values for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootMoves {
    /// One best move.
    Best,
    /// Every move as good as the best (later moves are tested against the best value itself,
    /// not just above it).
    Ties,
    /// Every legal move.
    All,
}
