//! The search as a player.

use super::{position_of, Player};
use crate::rules::{Bits, DynGame, Rules, Square};
use crate::search::{Config, Engine};

/// Plays the search's best move; keeps its table from move to move.
pub struct EnginePlayer<B> {
    engine: Engine<B>,
    settled: bool,
}

impl<B: Bits> EnginePlayer<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        EnginePlayer {
            engine: Engine::new(rules, config),
            settled: false,
        }
    }
}

impl<B: Bits> Player for EnginePlayer<B> {
    fn choose(&mut self, game: &dyn DynGame) -> Option<Square> {
        game.to_move()?;
        let pos = position_of::<B>(game);
        let report = self.engine.search(&pos);
        self.settled = report.exact || self.engine.rules().moves(&pos).count() <= 1;
        Some(self.engine.rules().geometry.square(report.best?))
    }

    fn settled(&self) -> bool {
        self.settled
    }
}
