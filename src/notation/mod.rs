//! Text formats for positions and moves, kept apart from legality (which is the rules' business):
//! squares and move lists in standard notation, position strings, OBF lines, solve journals.

mod journal;
mod moves;
mod obf;
mod position;
mod square;

pub use journal::{JournalLine, VariantWords, MAX_RUN_SECONDS};
pub use moves::{MoveList, MoveListError};
pub use obf::{Obf, ObfError};
pub use position::{PositionError, PositionString};
pub use square::SquareError;
