//! A move in a search's list, shared by the midgame search and the solver.

use super::score::INFINITY;
use crate::rules::{Bits, Position, Rules};

/// A move in a search's list: its cell, the discs it turns when the ordering had to find them
/// (so they are found once), and its weight in the order, larger first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate<B> {
    pub(super) cell: usize,
    pub(super) flips: Option<B>,
    pub(super) weight: i32,
}

impl<B: Bits> Candidate<B> {
    /// The discs the move turns in `pos`.
    #[inline]
    pub(super) fn flips(&self, rules: &Rules<B>, pos: &Position<B>) -> B {
        self.flips.unwrap_or_else(|| rules.flips(pos, self.cell))
    }

    /// Whether this is the table's move, listed first (see [`Engine::list_moves`](crate::search::Engine::list_moves)): no weight
    /// the order gives reaches its weight.
    pub(super) fn is_table_move(&self) -> bool {
        self.weight == INFINITY
    }
}

/// A position [`Engine::best_of`](crate::search::Engine::best_of) hands its `value`: the position after a move, its key, and
/// the move's cell and the discs it turned.
#[derive(Clone, Copy)]
pub(super) struct AfterMove<'a, B> {
    pub(super) pos: &'a Position<B>,
    pub(super) key: u64,
    pub(super) cell: usize,
    pub(super) flips: B,
}

/// The moves of `list` still to order: all but the table's move at its head.
pub(super) fn unordered<B: Bits>(list: &mut [Candidate<B>]) -> &mut [Candidate<B>] {
    let skip = usize::from(list.first().is_some_and(Candidate::is_table_move));
    &mut list[skip..]
}
