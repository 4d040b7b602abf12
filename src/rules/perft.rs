//! Leaf counting, the standard check of a move generator.

use super::bits::Bits;
use super::legal::Rules;
use super::position::Position;

/// Leaves of the game tree `depth` plies below `pos`, under the convention of the published 8x8
/// table: a forced pass uses up a ply, and a finished game is one leaf at every greater depth.
pub fn perft<B: Bits>(rules: &Rules<B>, pos: &Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = rules.moves(pos);
    if moves.is_empty() {
        if rules.is_over(pos) {
            return 1;
        }
        return perft(rules, &rules.pass(pos), depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count());
    }
    moves
        .iter()
        .map(|m| perft(rules, &rules.play_unchecked(pos, m), depth - 1))
        .sum()
}
