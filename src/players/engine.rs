//! The search as a player.

use super::{position_of, Player};
use crate::rules::{Bits, DynGame, Rules, Square};
use crate::search::{Config, Engine};

/// Plays the search's best move; keeps its table from move to move.
pub struct EnginePlayer<B> {
    engine: Engine<B>,
}

impl<B: Bits> EnginePlayer<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        EnginePlayer {
            engine: Engine::new(rules, config),
        }
    }
}

impl<B: Bits> Player for EnginePlayer<B> {
    fn choose(&mut self, game: &dyn DynGame) -> Option<Square> {
        game.to_move()?;
        let pos = position_of::<B>(game);
        let best = self.engine.search(&pos).best?;
        Some(self.engine.rules().geometry.square(best))
    }
}
