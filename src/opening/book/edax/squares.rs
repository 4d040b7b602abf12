//! Edax's squares, moves and boards against ours, and the eight symmetries Edax stores a
//! board under one of.

use crate::rules::{Bits, Color, Move, Position, Square};

/// The square value of a pass.
pub const PASS: u8 = 64;
/// The square value of "no move" (a position with no leaf).
pub const NO_MOVE: u8 = 65;

/// A square as Edax prints it (`a1`, `pa`, `--`).
pub fn square_name(x: u8) -> String {
    match x {
        0..=63 => format!("{}{}", char::from(b'a' + x % 8), x / 8 + 1),
        PASS => "pa".into(),
        NO_MOVE => "--".into(),
        _ => format!("square {x}"),
    }
}

/// Edax's number for a square of the 8x8 board (`None` off it).
pub fn square_to_edax(square: Square) -> Option<u8> {
    (square.row < 8 && square.col < 8).then(|| square.row * 8 + square.col)
}

/// Edax's number for a move on the 8x8 board (`None` off it).
pub fn move_to_edax(m: Move) -> Option<u8> {
    match m {
        Move::Play(square) => square_to_edax(square),
        Move::Pass => Some(PASS),
    }
}

/// The move of an Edax square number; `None` for [`NO_MOVE`] and anything past it.
pub fn move_from_edax(x: u8) -> Option<Move> {
    match x {
        0..=63 => Some(Move::Play(Square::new(x / 8, x % 8))),
        PASS => Some(Move::Pass),
        _ => None,
    }
}

/// Our position of an Edax board, with the side to move given (Edax does not store it; see
/// [`color_by_parity`]).
pub fn position_from_board<B: Bits>(player: u64, opponent: u64, to_move: Color) -> Position<B> {
    let (mover, other) = (B::from_word(player), B::from_word(opponent));
    let (black, white) = match to_move {
        Color::Black => (mover, other),
        Color::White => (other, mover),
    };
    Position {
        black,
        white,
        to_move,
    }
}

/// The side to move as Edax guesses it: black when the number of empty squares is even.
pub fn color_by_parity(player: u64, opponent: u64) -> Color {
    if (player | opponent).count_zeros().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// Square `x` under symmetry `s` (0..8): bit 1 mirrors left-right, bit 2 top-bottom, bit 4
/// swaps rows and columns, applied in that order, as Edax numbers them. Pass and no-move stay.
pub fn symmetric_square(x: u8, s: u8) -> u8 {
    if x >= 64 {
        return x;
    }
    let mut x = x;
    if s & 1 != 0 {
        x ^= 7;
    }
    if s & 2 != 0 {
        x ^= 56;
    }
    if s & 4 != 0 {
        x = (x >> 3) | ((x & 7) << 3);
    }
    x
}

/// A bitboard under symmetry `s`, as [`symmetric_square`] moves each square.
pub fn symmetric_bits(b: u64, s: u8) -> u64 {
    let mut b = b;
    if s & 1 != 0 {
        b = b.reverse_bits().swap_bytes();
    }
    if s & 2 != 0 {
        b = b.swap_bytes();
    }
    if s & 4 != 0 {
        b = transpose(b);
    }
    b
}

/// Rows become columns (A2 goes to B1): three rounds of swapping blocks across the diagonal.
fn transpose(mut b: u64) -> u64 {
    let t = (b ^ (b >> 7)) & 0x00aa_00aa_00aa_00aa;
    b ^= t ^ (t << 7);
    let t = (b ^ (b >> 14)) & 0x0000_cccc_0000_cccc;
    b ^= t ^ (t << 14);
    let t = (b ^ (b >> 28)) & 0x0000_0000_f0f0_f0f0;
    b ^= t ^ (t << 28);
    b
}

/// The orientation Edax stores a board in: of its eight symmetries, the one with the least
/// `player`, then the least `opponent`. Returns it and the symmetry that gives it.
pub fn unique_board(player: u64, opponent: u64) -> (u64, u64, u8) {
    let mut best = (player, opponent, 0);
    for s in 1..8 {
        let sym = (symmetric_bits(player, s), symmetric_bits(opponent, s));
        if sym < (best.0, best.1) {
            best = (sym.0, sym.1, s);
        }
    }
    best
}
