//! Yardstick players: random, greedy (most flips) and fixed square weights. Each breaks ties at
//! random from its seed, so a series of games is not one game repeated.

use super::{position_of, Player};
use crate::rules::{Bits, DynGame, Position, Rules, Square};
use crate::search::splitmix;

/// Picks uniformly among the best-scoring moves.
fn pick<B: Bits>(
    rules: &Rules<B>,
    game: &dyn DynGame,
    rng: &mut u64,
    score: impl Fn(&Position<B>, usize) -> i64,
) -> Option<Square> {
    game.to_move()?;
    let pos = position_of::<B>(game);
    let mut best = Vec::new();
    let mut best_score = i64::MIN;
    for m in rules.moves(&pos).iter() {
        let s = score(&pos, m);
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
    let m = best[(splitmix(rng) % best.len() as u64) as usize];
    Some(rules.geometry.square(m))
}

/// Any legal move, uniformly.
pub struct RandomMover<B> {
    rules: Rules<B>,
    rng: u64,
}

impl<B: Bits> RandomMover<B> {
    pub fn new(rules: Rules<B>, seed: u64) -> Self {
        RandomMover { rules, rng: seed }
    }
}

impl<B: Bits> Player for RandomMover<B> {
    fn choose(&mut self, game: &dyn DynGame) -> Option<Square> {
        pick(&self.rules, game, &mut self.rng, |_, _| 0)
    }
}

/// The move that turns over the most discs.
pub struct Greedy<B> {
    rules: Rules<B>,
    rng: u64,
}

impl<B: Bits> Greedy<B> {
    pub fn new(rules: Rules<B>, seed: u64) -> Self {
        Greedy { rules, rng: seed }
    }
}

impl<B: Bits> Player for Greedy<B> {
    fn choose(&mut self, game: &dyn DynGame) -> Option<Square> {
        let rules = &self.rules;
        pick(rules, game, &mut self.rng, |pos, m| {
            rules.flips(pos, m).count() as i64
        })
    }
}

/// The move after which the weights of its own discs less the opponent's are highest, with the
/// classic table (corners 100, the cells next to them -20 and -50, edges 10 and 5, the rest -1
/// and -2) stretched to any board size.
pub struct SquareWeights<B> {
    rules: Rules<B>,
    weights: Vec<i64>,
    rng: u64,
}

impl<B: Bits> SquareWeights<B> {
    pub fn new(rules: Rules<B>, seed: u64) -> Self {
        let (rows, cols) = (rules.geometry.rows(), rules.geometry.cols());
        let weights = (0..rows * cols)
            .map(|i| weight(i / cols, i % cols, rows, cols))
            .collect();
        SquareWeights {
            rules,
            weights,
            rng: seed,
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

impl<B: Bits> Player for SquareWeights<B> {
    fn choose(&mut self, game: &dyn DynGame) -> Option<Square> {
        let (rules, weights) = (&self.rules, &self.weights);
        let total = |discs: B| discs.iter().map(|i| weights[i]).sum::<i64>();
        pick(rules, game, &mut self.rng, |pos, m| {
            let after = rules.play_unchecked(pos, m);
            // After the move the opponent is to move, so the mover's discs are `opponent()`.
            total(after.opponent()) - total(after.mover())
        })
    }
}
