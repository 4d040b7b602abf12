//! The board's symmetries as the solver's table reads them.

use crate::rules::{Bits, RuleSet, Rules};
use crate::search::keys::{Zobrist, ZobristLanes};

/// A symmetry of the board, as the solver's table reads it.
#[derive(Debug)]
pub(super) struct Image {
    /// The cell each cell goes to, and the cell each comes from.
    pub(super) to: Vec<usize>,
    pub(super) from: Vec<usize>,
}

/// The symmetries of the board that the solver's table uses (at most seven), and the keys
/// of a position under the table's Zobrist and each image's: lane 0 the table's, lane `i + 1`
/// that of `maps[i]` (the key of the image, found without making it). All lanes are found in
/// one pass over the discs, and a transposition cut-off's children's from the parent's,
/// rather than each image's key from scratch.
#[derive(Debug)]
pub(in crate::search) struct Symmetries {
    pub(super) maps: Vec<Image>,
    pub(super) keys: ZobristLanes,
}

impl Symmetries {
    /// None but under SIMPLE rules (see [`Engine::place`](crate::search::Engine::place)).
    pub(in crate::search) fn new<B: Bits>(rules: &Rules<B>, zobrist: &Zobrist) -> Symmetries {
        let to = if rules.variant.rule_set == RuleSet::Simple {
            rules.geometry.symmetries()
        } else {
            Vec::new()
        };
        let zobrists: Vec<Zobrist> = std::iter::once(zobrist.clone())
            .chain(to.iter().map(|to| zobrist.mapped(to)))
            .collect();
        let maps = to
            .into_iter()
            .map(|to| {
                let mut from = vec![0; to.len()];
                for (cell, &image) in to.iter().enumerate() {
                    from[image] = cell;
                }
                Image { to, from }
            })
            .collect();
        Symmetries {
            maps,
            keys: ZobristLanes::new(&zobrists),
        }
    }
}
