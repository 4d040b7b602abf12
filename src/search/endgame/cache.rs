//! Where the solver keeps a position in the table: its key, under SIMPLE rules without the
//! discs that can no longer change and shared with its images under the board's symmetries.

use super::symmetries::Symmetries;
use super::thresholds::{NEAR_END, SYMMETRIC_FROM};
use crate::rules::{Bits, Position, RuleSet};
use crate::search::engine::Engine;
use crate::search::keys::{LaneKeys, LANES};
use crate::search::score::Outcome;
use crate::search::table::{Bound, Entry, TableSection, SOLVED};

/// Where a position's value is kept in the solver's table: the key, what the stored value
/// leaves out, and the symmetry under which the entry reads the position, if any.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place {
    pub(super) key: u64,
    pub(super) offset: i32,
    /// Its place among the engine's images (at most seven; kept small, as the enhanced
    /// transposition cut-off holds an array of places).
    image: Option<u8>,
    pub(super) part: TableSection,
}

impl Place {
    /// The cut-off that `e`, the table entry at this place of the position after a move,
    /// proves for the position before it against `beta`, if any.
    #[inline]
    pub(super) fn cut(&self, e: Entry, beta: i32) -> Option<i32> {
        if e.depth == SOLVED && e.bound != Bound::Lower {
            // The child is worth at most this to its mover, so at least its negation here.
            let score = -(Outcome::at_most(e.score) + self.offset);
            if score >= beta {
                return Some(score);
            }
        }
        None
    }

    /// A move as the entry stores it.
    pub(super) fn write(&self, images: &Symmetries, m: usize) -> usize {
        self.image.map_or(m, |i| images.maps[usize::from(i)].to[m])
    }

    /// A move the entry stores, as a move of the position.
    pub(super) fn read(&self, images: &Symmetries, m: usize) -> usize {
        self.image
            .map_or(m, |i| images.maps[usize::from(i)].from[m])
    }
}

impl<B: Bits> Engine<B> {
    /// Where the solver's table keeps `pos` (whose full key is `key` and empty cells
    /// `empty`). Under SIMPLE rules a disc with no empty cell beside it can never be turned
    /// over, nor make a move legal (a move needs an opponent's disc beside it), and the game
    /// ends on a full board: positions that differ only in the colour of such discs are worth
    /// the same up to their count, so they share one entry, which holds the value less that
    /// count; under place-anywhere, so do positions that differ in the colour of any disc.
    /// From [`SYMMETRIC_FROM`] empty cells on, a position also shares its entry with
    /// its images under the board's symmetries (the entry of the smallest key of them all).
    #[inline]
    pub(super) fn place(&self, pos: &Position<B>, key: u64, empty: B) -> Place {
        self.place_with(pos, key, empty, None)
    }

    /// Whether the table keys positions colourless (place-anywhere SIMPLE; see [`Engine::place`]).
    pub(super) fn keys_colourless(&self) -> bool {
        let variant = &self.rules.variant;
        variant.place_anywhere && variant.rule_set == RuleSet::Simple
    }

    /// Whether a position with this many empty cells shares its table entry with its images.
    pub(super) fn symmetric(&self, empties: u32) -> bool {
        empties >= SYMMETRIC_FROM && !self.solver.images.maps.is_empty()
    }

    /// [`Engine::place`], given the position's keys under every image (see [`Symmetries`]) where
    /// the caller has them: colourless where the table keys positions so, else full.
    #[inline]
    pub(super) fn place_with(
        &self,
        pos: &Position<B>,
        key: u64,
        empty: B,
        keys: Option<&LaneKeys>,
    ) -> Place {
        let part = if empty.count() <= NEAR_END {
            TableSection::NearEnd
        } else {
            TableSection::Main
        };
        if self.rules.variant.rule_set != RuleSet::Simple {
            return Place {
                key,
                part,
                ..Place::default()
            };
        }
        let settled = self.eval.stable(&self.rules, pos.black | pos.white, empty);
        let lead =
            (pos.mover() & settled).count() as i32 - (pos.opponent() & settled).count() as i32;
        let offset = if self.rules.variant.misere {
            -lead
        } else {
            lead
        };
        // Under place-anywhere as well, every empty cell is a move whatever the colours, and
        // each disc ends up the colour of whoever fills the last empty cell beside it, as a
        // move turns every disc beside it to the mover: no disc's colour now bears on the rest
        // of the game, so all are keyed colourless (the value less the settled discs' lead
        // depends on the empty cells and the side to move alone).
        let lanes = &self.solver.images.keys;
        let symmetric = self.symmetric(empty.count());
        // The keys under the table's Zobrist (lane 0) and, where the images share the entry,
        // under theirs, each found once in one pass.
        let keys = if self.rules.variant.place_anywhere {
            keys.copied()
                .unwrap_or_else(|| lanes.colourless(empty, pos.to_move))
        } else if symmetric {
            let full = keys.copied().unwrap_or_else(|| lanes.key(pos));
            lanes.settled(full, pos.white, settled)
        } else {
            let mut keys = [0; LANES];
            keys[0] = self.zobrist.settled(key, pos.white, settled);
            keys
        };
        let mut place = Place {
            key: keys[0],
            offset,
            image: None,
            part,
        };
        if symmetric {
            for (i, &key) in keys[1..=self.solver.images.maps.len()].iter().enumerate() {
                if key < place.key {
                    place.key = key;
                    place.image = Some(i as u8);
                }
            }
        }
        place
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    /// Under SIMPLE rules a disc with no empty cell beside it never changes, so the table keys
    /// positions without its colour: a position that differs from a solved one only there is
    /// solved mostly from the table, and its value is the other's moved by that disc.
    #[test]
    fn simple_positions_differing_in_settled_discs_share_the_table() {
        for variant in [SIMPLE, SIMPLE_MISERE] {
            let rules = rules_for::<u64>(4, 6, variant);
            let g = &rules.geometry;
            let (pos, settled) = (0..)
                .map(|seed| random_position(&rules, seed, 12))
                .find_map(|pos| {
                    let empty = rules.empty(&pos);
                    let settled = (pos.black | pos.white) & !(g.neighbours(empty) | empty);
                    settled.lowest().map(|cell| (pos, cell))
                })
                .unwrap();
            let mut turned = pos;
            turned.black ^= u64::bit(settled);
            turned.white ^= u64::bit(settled);
            let mut e = engine::<u64>(4, 6, variant, Config::to_depth(64));
            let first = e.solve_exact(&pos, false);
            let again = e.solve_exact(&turned, false);
            let fresh =
                engine::<u64>(4, 6, variant, Config::to_depth(64)).solve_exact(&turned, false);
            let what = format!("{variant:?} {pos:?}, {} turned over", name(6, settled));
            assert_eq!(again.score, fresh.score, "{what}");
            assert_eq!(
                fresh.score,
                minimax(&rules, &turned, Scoring::Plain),
                "{what}"
            );
            // The mover's disc turned to the opponent's costs it two discs, and gains two under misère.
            let mover_lost = pos.mover() & u64::bit(settled) != 0;
            let change = if mover_lost == variant.misere { 2 } else { -2 };
            assert_eq!(fresh.score, first.score + change, "{what}");
            assert!(
                again.nodes * 4 < fresh.nodes,
                "{what}: {} nodes after the first, {} fresh",
                again.nodes,
                fresh.nodes
            );
        }
    }

    /// Under SIMPLE rules a position of many empty cells shares its table entry with its images
    /// under the board's symmetries: the image of a solved position is solved mostly from the
    /// table, to the same value, and the best move the table gives it is a move of the image.
    #[test]
    fn simple_positions_share_the_table_with_their_images() {
        for (rows, cols, variant) in [(4, 6, SIMPLE), (4, 6, SIMPLE_MISERE), (5, 5, SIMPLE)] {
            let rules = rules_for::<u64>(rows, cols, variant);
            let pos = random_position(&rules, 7, 14);
            for map in rules.geometry.symmetries() {
                let image = pos.mapped(&map);
                let mut e = engine::<u64>(rows, cols, variant, Config::to_depth(64));
                let first = e.solve_exact(&pos, true);
                let again = e.solve_exact(&image, true);
                let fresh = engine::<u64>(rows, cols, variant, Config::to_depth(64))
                    .solve_exact(&image, true);
                let what = format!("{variant:?} {pos:?} under {map:?}");
                assert_eq!(again.score, first.score, "{what}");
                assert_eq!(fresh.score, first.score, "{what}");
                let mapped: Vec<(usize, i32)> =
                    first.moves.iter().map(|&(m, v)| (map[m], v)).collect();
                let sorted = |mut moves: Vec<(usize, i32)>| {
                    moves.sort();
                    moves
                };
                assert_eq!(sorted(again.moves.clone()), sorted(mapped), "{what}");
                assert!(rules.moves(&image).contains(again.best.unwrap()), "{what}");
                assert!(
                    again.nodes * 4 < fresh.nodes,
                    "{what}: {} nodes after the first, {} fresh",
                    again.nodes,
                    fresh.nodes
                );
            }
        }
    }

    /// Under place-anywhere SIMPLE rules every empty cell is a move whatever the colours, and a
    /// disc ends up the colour of whoever fills the last empty cell beside it: positions that
    /// differ only in the colour of a disc with an empty cell beside it are worth the same, and
    /// the solver's table keys them as one.
    #[test]
    fn place_anywhere_simple_positions_differing_in_any_disc_share_the_table() {
        for misere in [false, true] {
            let variant = Variant {
                place_anywhere: true,
                misere,
                ..SIMPLE
            };
            let rules = rules_for::<u64>(4, 6, variant);
            let g = &rules.geometry;
            let pos = random_position(&rules, 3, 10);
            let empty = rules.empty(&pos);
            let unsettled = (pos.black | pos.white) & g.neighbours(empty);
            assert!(unsettled.count() >= 3, "{pos:?}");
            for cell in unsettled.iter().take(3) {
                let mut turned = pos;
                turned.black ^= u64::bit(cell);
                turned.white ^= u64::bit(cell);
                let mut e = engine::<u64>(4, 6, variant, Config::to_depth(64));
                let first = e.solve_exact(&pos, false);
                let again = e.solve_exact(&turned, false);
                let fresh =
                    engine::<u64>(4, 6, variant, Config::to_depth(64)).solve_exact(&turned, false);
                let what = format!("{variant:?} {pos:?}, {} turned over", name(6, cell));
                assert_eq!(
                    fresh.score,
                    minimax(&rules, &turned, Scoring::Plain),
                    "{what}"
                );
                assert_eq!(fresh.score, first.score, "{what}");
                assert_eq!(again.score, first.score, "{what}");
                assert!(
                    again.nodes * 20 < fresh.nodes,
                    "{what}: {} nodes after the first, {} fresh",
                    again.nodes,
                    fresh.nodes
                );
            }
        }
    }
}
