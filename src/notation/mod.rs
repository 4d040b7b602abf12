//! Text formats for positions and moves, kept apart from legality (which is the rules' business):
//! squares and move lists in standard notation, position strings, OBF lines, GGF game records,
//! solve journals.

mod ggf;
mod journal;
mod moves;
mod obf;
mod position;
mod record;
mod square;

pub use ggf::{
    is_anti, parse_ggf, parse_ggf_games, parse_move as parse_ggf_move, GgfError, GgfFileError,
    GgfGame,
};
pub use journal::{JournalLine, VariantWords, MAX_RUN_SECONDS};
pub use moves::{first_moves, MoveList, MoveListError};
pub use obf::{Obf, ObfError};
pub use position::{PositionError, PositionString};
pub use record::{GameRecord, RecordError, RecordFormat};
pub use square::SquareError;
