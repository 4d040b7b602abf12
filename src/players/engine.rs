//! The search as a player.

use super::player::Player;
use crate::rules::{Bits, Game, Move, Rules};
use crate::search::{Config, Engine};

/// Plays the search's best move; keeps its table from move to move.
pub struct EnginePlayer<B> {
    engine: Engine<B>,
    settled: bool,
    owed_since: Option<std::time::Instant>,
}

impl<B: Bits> EnginePlayer<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        EnginePlayer {
            engine: Engine::new(rules, config),
            settled: false,
            owed_since: None,
        }
    }
}

impl<B: Bits> Player<B> for EnginePlayer<B> {
    fn choose(&mut self, game: &Game<B>) -> Option<Move> {
        game.to_move()?;
        if game.must_pass() {
            self.settled = true;
            return Some(Move::Pass);
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
