//! Text formats for positions and moves, kept apart from legality (which is the rules' business).

mod moves;
mod obf;

pub use moves::{parse_move_list, parse_square, ListedMove, MoveListError};
pub use obf::{Obf, ObfError};
