//! The search as a player.

use super::book::BookUse;
use super::player::Player;
use crate::rules::{Bits, Game, Move, Rules};
use crate::search::{Config, Engine};

/// Plays the book's move where it has one, else the search's best; keeps its table from move
/// to move.
pub struct EnginePlayer<B> {
    engine: Engine<B>,
    book: Option<BookUse>,
    settled: bool,
    owed_since: Option<std::time::Instant>,
}

impl<B: Bits> EnginePlayer<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        EnginePlayer {
            engine: Engine::new(rules, config),
            book: None,
            settled: false,
            owed_since: None,
        }
    }

    /// This player, playing from `book` where it has the position.
    pub fn with_book(self, book: Option<BookUse>) -> Self {
        EnginePlayer { book, ..self }
    }
}

impl<B: Bits> Player<B> for EnginePlayer<B> {
    fn choose(&mut self, game: &Game<B>) -> Option<Move> {
        game.to_move()?;
        if game.must_pass() {
            self.settled = true;
            return Some(Move::Pass);
        }
        if let Some(played) = self.book.as_mut().and_then(|b| b.choose(game)) {
            self.settled = false;
            self.owed_since = None;
            return Some(played.played);
        }
        let pos = game.position();
        let clock = self
            .owed_since
            .take()
            .unwrap_or_else(std::time::Instant::now);
        let report = self.engine.search_since(pos, clock);
        self.settled = report.exact || game.legal_moves().count() <= 1;
        Some(Move::Play(
            self.engine.rules().geometry.square(report.best?),
        ))
    }

    fn settled(&self) -> bool {
        self.settled
    }

    fn owed_since(&mut self, clock: std::time::Instant) {
        self.owed_since = Some(clock);
    }
}
