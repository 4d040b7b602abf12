//! Yardstick players: random, greedy (most flips) and fixed square weights. Each breaks ties at
//! random from its seed, so a series of games is not one game repeated.

use super::player::Player;
use crate::random::splitmix;
use crate::rules::{Bits, Game, Move, Position, Rules};

/// What a yardstick prefers; ties are broken at random.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preference {
    /// Any legal move, uniformly.
    Any,
    /// The move that turns over the most discs.
    MostFlips,
    /// The move after which the weights of its own discs less the opponent's are highest, with
    /// the classic table (corners 100, the cells next to them -20 and -50, edges 10 and 5, the
    /// rest -1 and -2) stretched to any board size.
    SquareWeights(Vec<i64>),
}

/// A yardstick player: one move deep, by a fixed preference.
pub struct Yardstick<B> {
    rules: Rules<B>,
    preference: Preference,
    rng: u64,
}

impl<B: Bits> Yardstick<B> {
    pub fn random(rules: Rules<B>, seed: u64) -> Self {
        Yardstick {
            rules,
            preference: Preference::Any,
            rng: seed,
        }
    }

    pub fn greedy(rules: Rules<B>, seed: u64) -> Self {
        Yardstick {
            rules,
            preference: Preference::MostFlips,
            rng: seed,
        }
    }

    pub fn square_weights(rules: Rules<B>, seed: u64) -> Self {
        let shape = rules.shape();
        let weights = shape
            .squares()
            .map(|sq| weight(sq.row.into(), sq.col.into(), shape.rows(), shape.cols()))
            .collect();
        Yardstick {
            rules,
            preference: Preference::SquareWeights(weights),
            rng: seed,
        }
    }

    /// How much the preference likes playing `m` in `pos`.
    fn score(&self, pos: &Position<B>, m: usize) -> i64 {
        match &self.preference {
            Preference::Any => 0,
            Preference::MostFlips => self.rules.flips(pos, m).count() as i64,
            Preference::SquareWeights(weights) => {
                let total = |discs: B| discs.iter().map(|i| weights[i]).sum::<i64>();
                let after = self.rules.play_unchecked(pos, m);
                // After the move the opponent is to move, so the mover's discs are `opponent()`.
                total(after.opponent()) - total(after.mover())
            }
        }
    }
}

/// The weight of a cell by its distance from the nearest edges.
fn weight(r: usize, c: usize, rows: usize, cols: usize) -> i64 {
    let dr = r.min(rows - 1 - r);
    let dc = c.min(cols - 1 - c);
    let (near, far) = (dr.min(dc), dr.max(dc));
    match (near, far) {
        (0, 0) => 100,
        (0, 1) => -20,
        (1, 1) => -50,
        (0, 2) => 10,
        (0, _) => 5,
        (1, _) => -2,
        _ => -1,
    }
}

impl<B: Bits> Player<B> for Yardstick<B> {
    /// Picks uniformly among the best-scoring moves.
    fn choose(&mut self, game: &Game<B>) -> Option<Move> {
        game.to_move()?;
        if game.must_pass() {
            return Some(Move::Pass);
        }
        let pos = game.position();
        let mut best = Vec::new();
        let mut best_score = i64::MIN;
        for m in game.legal_moves().iter() {
            let s = self.score(pos, m);
            if s > best_score {
                best_score = s;
                best.clear();
            }
            if s == best_score {
                best.push(m);
            }
        }
        if best.is_empty() {
            return None;
        }
        let m = best[(splitmix(&mut self.rng) % best.len() as u64) as usize];
        Some(Move::Play(self.rules.geometry.square(m)))
    }
}
