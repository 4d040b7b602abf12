//! Zobrist keys: a position's key, kept up to date move by move, and the keys of its images
//! under the board's symmetries, found together in lanes.

use crate::random::splitmix;
use crate::rules::{Bits, Color, Position};

/// Random keys per cell and colour, for boards of any size, from a fixed seed so that searches
/// repeat exactly.
#[derive(Clone, Debug)]
pub struct Zobrist {
    black: Vec<u64>,
    /// `black[i] ^ white key of i`: what turning the disc on `i` over does to a key.
    turn_over: Vec<u64>,
    white_to_move: u64,
    /// Marks the keys of [`Zobrist::settled`], apart from every full key.
    settled: u64,
    /// `black` of every cell: the discs' share of a key when they are all colourless.
    all_black: u64,
}

impl Zobrist {
    pub fn new(cells: usize) -> Self {
        let mut state = 0x0123_4567_89AB_CDEF;
        let black: Vec<u64> = (0..cells).map(|_| splitmix(&mut state)).collect();
        let turn_over = black.iter().map(|b| b ^ splitmix(&mut state)).collect();
        let all_black = black.iter().fold(0, |all, b| all ^ b);
        Zobrist {
            black,
            turn_over,
            white_to_move: splitmix(&mut state),
            settled: splitmix(&mut state),
            all_black,
        }
    }

    pub fn key<B: Bits>(&self, pos: &Position<B>) -> u64 {
        let mut key = 0;
        for i in pos.black.iter() {
            key ^= self.black[i];
        }
        for i in pos.white.iter() {
            key ^= self.black[i] ^ self.turn_over[i];
        }
        if pos.to_move == Color::White {
            key ^= self.white_to_move;
        }
        key
    }

    /// The key after the side to move, `mover`, puts a disc on `index` and turns `flips` over.
    #[inline]
    pub fn after_move<B: Bits>(&self, key: u64, mover: Color, index: usize, flips: B) -> u64 {
        let mut key = key ^ self.black[index] ^ self.white_to_move;
        if mover == Color::White {
            key ^= self.turn_over[index];
        }
        for i in flips.iter() {
            key ^= self.turn_over[i];
        }
        key
    }

    /// The key of the position whose full key is `key`, its discs in `settled` keyed as discs
    /// of no colour (`white` names the white ones): positions that differ only in the colour
    /// of those discs share it. It never equals a full key but by chance.
    #[inline]
    pub fn settled<B: Bits>(&self, key: u64, white: B, settled: B) -> u64 {
        let mut key = key ^ self.settled;
        for i in (white & settled).iter() {
            key ^= self.turn_over[i];
        }
        key
    }

    /// [`Zobrist::settled`] with every disc colourless, read off the empty cells (fewer than
    /// the discs near the end) and the side to move alone.
    #[inline]
    pub fn colourless<B: Bits>(&self, empty: B, to_move: Color) -> u64 {
        let mut key = self.settled ^ self.all_black;
        for i in empty.iter() {
            key ^= self.black[i];
        }
        if to_move == Color::White {
            key ^= self.white_to_move;
        }
        key
    }

    /// [`Zobrist::colourless`] after a move on `cell`, from the key before it: one empty cell
    /// fewer and the other side to move (place-anywhere has no passes).
    #[inline]
    pub fn colourless_after(&self, key: u64, cell: usize) -> u64 {
        key ^ self.black[cell] ^ self.white_to_move
    }

    /// Keys that read a position as its image under `map` (the cell each cell goes to): the
    /// key of the image, found without making it.
    pub fn mapped(&self, map: &[usize]) -> Zobrist {
        Zobrist {
            black: map.iter().map(|&to| self.black[to]).collect(),
            turn_over: map.iter().map(|&to| self.turn_over[to]).collect(),
            ..*self
        }
    }

    /// The key after a pass.
    #[inline]
    pub fn after_pass(&self, key: u64) -> u64 {
        key ^ self.white_to_move
    }
}

/// How many Zobrists a [`ZobristLanes`] keys a position under at once: the table's and the
/// seven images of a square board.
pub const LANES: usize = 8;

/// A position's keys under each Zobrist of a [`ZobristLanes`], one per lane.
pub type LaneKeys = [u64; LANES];

/// Zobrists side by side, cell by cell (the table's, then its images', see
/// [`Zobrist::mapped`]): one pass over a position's discs keys it under all of them, each
/// lane as its own Zobrist would. They share the marks for White to move and settled keys;
/// the lanes past the last Zobrist mean nothing.
#[derive(Clone, Debug)]
pub struct ZobristLanes {
    black: Vec<LaneKeys>,
    turn_over: Vec<LaneKeys>,
    all_black: LaneKeys,
    white_to_move: u64,
    settled: u64,
}

impl ZobristLanes {
    /// At most [`LANES`] Zobrists of the same board, alike but for their cells' keys.
    pub fn new(zobrists: &[Zobrist]) -> Self {
        assert!(
            (1..=LANES).contains(&zobrists.len()),
            "one to {LANES} Zobrists"
        );
        let first = &zobrists[0];
        let cells = first.black.len();
        // Every lane reads the first one's marks (see `Zobrist::mapped`, which keeps them).
        assert!(
            zobrists.iter().all(|z| z.black.len() == cells
                && z.white_to_move == first.white_to_move
                && z.settled == first.settled),
            "Zobrists of one board with the same marks"
        );
        let lanes = |keys: &dyn Fn(&Zobrist) -> u64| -> LaneKeys {
            let mut lanes = [0; LANES];
            for (lane, z) in lanes.iter_mut().zip(zobrists) {
                *lane = keys(z);
            }
            lanes
        };
        ZobristLanes {
            black: (0..cells).map(|i| lanes(&|z| z.black[i])).collect(),
            turn_over: (0..cells).map(|i| lanes(&|z| z.turn_over[i])).collect(),
            all_black: lanes(&|z| z.all_black),
            white_to_move: first.white_to_move,
            settled: first.settled,
        }
    }

    /// [`Zobrist::key`] in every lane.
    #[inline]
    pub fn key<B: Bits>(&self, pos: &Position<B>) -> LaneKeys {
        let mut keys = [0; LANES];
        for i in (pos.black | pos.white).iter() {
            xor(&mut keys, &self.black[i]);
        }
        for i in pos.white.iter() {
            xor(&mut keys, &self.turn_over[i]);
        }
        if pos.to_move == Color::White {
            xor(&mut keys, &[self.white_to_move; LANES]);
        }
        keys
    }

    /// [`Zobrist::after_move`] in every lane.
    #[inline]
    pub fn after_move<B: Bits>(
        &self,
        mut keys: LaneKeys,
        mover: Color,
        index: usize,
        flips: B,
    ) -> LaneKeys {
        xor(&mut keys, &self.black[index]);
        xor(&mut keys, &[self.white_to_move; LANES]);
        if mover == Color::White {
            xor(&mut keys, &self.turn_over[index]);
        }
        for i in flips.iter() {
            xor(&mut keys, &self.turn_over[i]);
        }
        keys
    }

    /// [`Zobrist::settled`] in every lane.
    #[inline]
    pub fn settled<B: Bits>(&self, mut keys: LaneKeys, white: B, settled: B) -> LaneKeys {
        xor(&mut keys, &[self.settled; LANES]);
        for i in (white & settled).iter() {
            xor(&mut keys, &self.turn_over[i]);
        }
        keys
    }

    /// [`Zobrist::colourless`] in every lane.
    #[inline]
    pub fn colourless<B: Bits>(&self, empty: B, to_move: Color) -> LaneKeys {
        let mut keys = self.all_black;
        xor(&mut keys, &[self.settled; LANES]);
        for i in empty.iter() {
            xor(&mut keys, &self.black[i]);
        }
        if to_move == Color::White {
            xor(&mut keys, &[self.white_to_move; LANES]);
        }
        keys
    }

    /// [`Zobrist::colourless_after`] in every lane.
    #[inline]
    pub fn colourless_after(&self, mut keys: LaneKeys, cell: usize) -> LaneKeys {
        xor(&mut keys, &self.black[cell]);
        xor(&mut keys, &[self.white_to_move; LANES]);
        keys
    }
}

/// XORs `row` into `keys`, lane by lane (a few vector instructions).
#[inline(always)]
fn xor(keys: &mut LaneKeys, row: &LaneKeys) {
    for (key, r) in keys.iter_mut().zip(row) {
        *key ^= r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::search::test_support::rules_for;

    #[test]
    fn incremental_keys_match_fresh_ones() {
        let rules = rules_for::<u64>(8, 8, Variant::default());
        let z = Zobrist::new(64);
        let mut pos = rules.start(Color::Black, Color::White);
        let mut key = z.key(&pos);
        for _ in 0..20 {
            let Some(m) = rules.moves(&pos).lowest() else {
                pos = rules.pass(&pos);
                key = z.after_pass(key);
                continue;
            };
            let flips = rules.flips(&pos, m);
            key = z.after_move(key, pos.to_move, m, flips);
            pos = rules.play_flips(&pos, m, flips);
            assert_eq!(key, z.key(&pos));
        }
    }

    /// A 5x6 board's rules, a Zobrist for it, and the board's left-right mirror.
    fn five_by_six() -> (crate::rules::Rules<u64>, Zobrist, Vec<usize>) {
        let rules = rules_for::<u64>(5, 6, Variant::default());
        let mirror = (0..30).map(|i| i / 6 * 6 + 5 - i % 6).collect();
        (rules, Zobrist::new(30), mirror)
    }

    #[test]
    fn colourless_keys_are_settled_keys_with_every_disc() {
        let (rules, z, mirror) = five_by_six();
        let image = z.mapped(&mirror);
        let mut pos = rules.start(Color::Black, Color::White);
        for _ in 0..12 {
            let discs = pos.black | pos.white;
            let empty = rules.empty(&pos);
            assert_eq!(
                z.colourless(empty, pos.to_move),
                z.settled(z.key(&pos), pos.white, discs)
            );
            assert_eq!(
                image.colourless(empty, pos.to_move),
                image.settled(image.key(&pos), pos.white, discs)
            );
            pos = match rules.moves(&pos).iter().last() {
                Some(m) => rules.play_unchecked(&pos, m),
                None => rules.pass(&pos),
            };
        }
    }

    #[test]
    fn each_lane_keys_as_its_own_zobrist() {
        let (rules, z, mirror) = five_by_six();
        let flip: Vec<usize> = (0..30).map(|i| (4 - i / 6) * 6 + i % 6).collect();
        let zobrists = [z.clone(), z.mapped(&mirror), z.mapped(&flip)];
        let lanes = ZobristLanes::new(&zobrists);
        let mut pos = rules.start(Color::Black, Color::White);
        let mut keys = lanes.key(&pos);
        let mut colourless = lanes.colourless(rules.empty(&pos), pos.to_move);
        for step in 0..20 {
            let empty = rules.empty(&pos);
            // Some settled set that holds discs of both colours.
            let settled = (pos.black | pos.white) & 0x2AAA_AAAA;
            let settled_keys = lanes.settled(keys, pos.white, settled);
            for (lane, z) in zobrists.iter().enumerate() {
                assert_eq!(keys[lane], z.key(&pos), "step {step} lane {lane}");
                assert_eq!(
                    settled_keys[lane],
                    z.settled(z.key(&pos), pos.white, settled)
                );
                assert_eq!(colourless[lane], z.colourless(empty, pos.to_move));
            }
            // Every empty cell, as under place-anywhere, and no passes.
            let Some(m) = rules.moves(&pos).iter().last().or(empty.lowest()) else {
                break;
            };
            let flips = rules.flips(&pos, m);
            keys = lanes.after_move(keys, pos.to_move, m, flips);
            colourless = lanes.colourless_after(colourless, m);
            pos = rules.play_flips(&pos, m, flips);
        }
    }
}
