//! The search as a player.

use super::{position_of, Player};
use crate::rules::{Bits, DynGame, Rules, Square};
use crate::search::{Config, Engine, Report};

/// Plays the search's best move; keeps its table from move to move.
pub struct EnginePlayer<B> {
    engine: Engine<B>,
    last: Option<Report>,
}

impl<B: Bits> EnginePlayer<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        EnginePlayer {
            engine: Engine::new(rules, config),
            last: None,
        }
    }

    /// What the last search found.
    pub fn last_report(&self) -> Option<&Report> {
        self.last.as_ref()
    }
}

impl<B: Bits> Player for EnginePlayer<B> {
    fn choose(&mut self, game: &dyn DynGame) -> Option<Square> {
        game.to_move()?;
        let pos = position_of::<B>(game);
        let report = self.engine.search(&pos);
        let square = report.best.map(|m| self.engine.rules().geometry.square(m));
        self.last = Some(report);
        square
    }
}
