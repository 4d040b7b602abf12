//! How a game of `othello play` is set up: the start, the program's sides and how it searches,
//! and how the board is shown.

use crate::notation::MoveList;
use crate::players::BookUse;
use crate::protocols::line::Sides;
use crate::search::Config;
use crate::start::Start;

/// How a game is set up.
#[derive(Clone, Debug)]
pub struct Options {
    pub start: Start,
    /// Moves played from the start before the game is handed over.
    pub moves: MoveList,
    /// The sides the program plays.
    pub computer: Option<Sides>,
    /// How the program searches, for its moves and for hints.
    pub config: Config,
    /// The opening book the program plays (and hints) from where it has the position.
    pub book: Option<BookUse>,
    /// Discs, legal moves and the last move in colour (for a terminal).
    pub colour: bool,
    /// The program's thinking shown as it goes, on standard error, and summed up after each
    /// of its moves (for a terminal).
    pub thinking: bool,
}
