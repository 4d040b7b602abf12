//! The search as a player.

use super::book::BookUse;
use super::player::Player;
use crate::rules::{Bits, Game, Move, Rules};
use crate::search::time::GameClock;
use crate::search::{Config, Engine};
use std::time::Instant;

/// What a move's trip to a referee and back may take beyond the time this player measures
/// (from reading the move it answers to writing its own), charged to its clock with each move
/// so that its clock never runs behind the referee's.
const WIRE: std::time::Duration = std::time::Duration::from_millis(2);

/// Plays the book's move where it has one, else the search's best; keeps its table from move
/// to move. Under a game clock ([`Config::clock`]) it keeps the time it has left, and gives
/// each search a budget from it (see [`GameClock::budget`]).
pub struct EnginePlayer<B> {
    engine: Engine<B>,
    book: Option<BookUse>,
    settled: bool,
    owed_since: Option<Instant>,
    /// Its game clock, if it plays under one.
    clock: Option<GameClock>,
}

impl<B: Bits> EnginePlayer<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        let clock = config.clock.map(GameClock::new);
        EnginePlayer {
            engine: Engine::new(rules, config),
            book: None,
            settled: false,
            owed_since: None,
            clock,
        }
    }

    /// The move for `game`, owed since `owed`.
    fn choose_owed(&mut self, game: &Game<B>, owed: Instant) -> Option<Move> {
        if game.must_pass() {
            self.settled = true;
            return Some(Move::Pass);
        }
        if let Some(played) = self.book.as_mut().and_then(|b| b.choose(game)) {
            self.settled = false;
            return Some(played.played);
        }
        let pos = game.position();
        if let Some(clock) = self.clock {
            let budget = clock.budget(owed.elapsed(), self.engine.rules(), pos);
            self.engine.set_budget(budget);
        }
        let report = self.engine.search_since(pos, owed);
        self.settled = report.exact || game.legal_moves().count() <= 1;
        Some(Move::Play(
            self.engine.rules().geometry.square(report.best?),
        ))
    }

    /// This player, playing from `book` where it has the position.
    pub fn with_book(self, book: Option<BookUse>) -> Self {
        EnginePlayer { book, ..self }
    }
}

impl<B: Bits> Player<B> for EnginePlayer<B> {
    fn choose(&mut self, game: &Game<B>) -> Option<Move> {
        game.to_move()?;
        let owed = self.owed_since.take().unwrap_or_else(Instant::now);
        let chosen = self.choose_owed(game, owed);
        if let Some(clock) = &mut self.clock {
            clock.charge(owed.elapsed() + WIRE);
        }
        chosen
    }

    fn settled(&self) -> bool {
        self.settled
    }

    fn owed_since(&mut self, clock: Instant) {
        self.owed_since = Some(clock);
    }
}
