//! What Edax can use: a book whose boards, links and leaves its search follows without
//! checking them.

use super::format::{EdaxBook, EdaxError};
use super::squares::{square_name, unique_board, NO_MOVE, PASS};
use crate::rules::{Rules, Shape, Variant};
use std::collections::HashMap;

impl EdaxBook {
    /// Whether Edax can use this book as it is: every board in its unique form and there once,
    /// links distinct and legal, each leading to a position of the book (Edax's negamax follows
    /// them without checking), and the leaf, if any, a legal move that is not a link.
    pub fn check(&self) -> Result<(), EdaxError> {
        let rules = standard_rules();
        let mut seen = HashMap::with_capacity(self.positions.len());
        for (i, p) in self.positions.iter().enumerate() {
            if seen.insert((p.player, p.opponent), i).is_some() {
                return Err(position_error(i, "the same board is in the book twice"));
            }
        }
        for (i, p) in self.positions.iter().enumerate() {
            let bad = |reason: String| position_error(i, reason);
            check_board(p.player, p.opponent).map_err(|r| bad(r.to_string()))?;
            let (up, uo, _) = unique_board(p.player, p.opponent);
            if (up, uo) != (p.player, p.opponent) {
                return Err(bad("the board is not in Edax's unique orientation".into()));
            }
            if p.links.len() > usize::from(u8::MAX) {
                return Err(bad(format!(
                    "{} links; a position has at most 255",
                    p.links.len()
                )));
            }
            let moves = rules.moves_for(p.player, p.opponent);
            let pass_only = moves == 0 && rules.moves_for(p.opponent, p.player) != 0;
            let mut linked = 0u128;
            for link in &p.links {
                let legal = match link.square {
                    PASS => pass_only,
                    x => x < 64 && moves & (1 << x) != 0,
                };
                if !legal {
                    return Err(bad(format!(
                        "link {} is not a legal move",
                        square_name(link.square)
                    )));
                }
                if linked & (1 << link.square) != 0 {
                    return Err(bad(format!(
                        "link {} is there twice",
                        square_name(link.square)
                    )));
                }
                linked |= 1 << link.square;
                let (np, no) = next_board(&rules, p.player, p.opponent, link.square);
                let (up, uo, _) = unique_board(np, no);
                if !seen.contains_key(&(up, uo)) {
                    return Err(bad(format!(
                        "link {} leads to a position missing from the book",
                        square_name(link.square)
                    )));
                }
            }
            let leaf = p.leaf.square;
            let leaf_ok = match leaf {
                NO_MOVE => true,
                PASS => pass_only && p.links.is_empty(),
                x => x < 64 && moves & (1 << x) != 0 && linked & (1 << x) == 0,
            };
            if !leaf_ok {
                return Err(bad(format!(
                    "leaf {} is not a legal move outside the links",
                    square_name(leaf)
                )));
            }
        }
        Ok(())
    }
}

pub(super) fn position_error(index: usize, reason: impl Into<String>) -> EdaxError {
    EdaxError::Position {
        index: index + 1,
        reason: reason.into(),
    }
}

/// What Edax itself refuses in a board: a square held by both sides, an empty centre.
pub(super) fn check_board(player: u64, opponent: u64) -> Result<(), &'static str> {
    const CENTRE: u64 = 0x0000_0018_1800_0000;
    if player & opponent != 0 {
        Err("a square holds discs of both sides")
    } else if (player | opponent) & CENTRE != CENTRE {
        Err("a square of the centre is empty")
    } else {
        Ok(())
    }
}

pub(super) fn standard_rules() -> Rules<u64> {
    Rules::new(Shape::STANDARD, Variant::default()).expect("8x8 fits in 64 bits")
}

/// The board after move `x` (a legal move or a pass) of the side to move, as Edax keeps it: the
/// side to move next as `player`.
pub(super) fn next_board(rules: &Rules<u64>, player: u64, opponent: u64, x: u8) -> (u64, u64) {
    if x == PASS {
        return (opponent, player);
    }
    let flips = rules.flips_for(usize::from(x), player, opponent);
    (opponent & !flips, player | flips | 1 << x)
}
