//! Edax's book as it is held in memory: the layout's constants, the header's fields, the
//! positions with their links and leaf, and why bytes or a book are refused.

use super::squares::{move_from_edax, symmetric_bits, symmetric_square, unique_board, NO_MOVE};
use crate::rules::{Bits, Move, Position, Rules, Shape, Variant};
use crate::wording::Counted;
use std::time::{SystemTime, UNIX_EPOCH};

/// The first magic word, `EDAX` as a little-endian u32.
pub const MAGIC_EDAX: u32 = 0x4544_4158;
/// The second magic word, `BOOK`.
pub const MAGIC_BOOK: u32 = 0x424f_4f4b;
/// The only version Edax reads.
pub const VERSION: u8 = 4;
/// The release Edax 4.6 writes.
pub const RELEASE: u8 = 6;
/// Edax's infinite score: the value of what is not known.
pub const SCORE_INF: i16 = 127;

/// The header's bytes.
pub const HEADER_BYTES: usize = 4 + 4 + 1 + 1 + 8 + 20 + 4;
/// A position without links (its leaf included).
pub const POSITION_BYTES: usize = 8 + 8 + 4 * 4 + 3 * 2 + 1 + 1 + 2;

/// When the book was saved. Edax writes local time; [`EdaxDate::now`] gives UTC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdaxDate {
    pub year: i16,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
}

/// How the book was made, as Edax keeps it: the search level of its leaves, the number of
/// empty squares down to which it adds positions, the error margins used to bound midgame and
/// pre-solved values, and the verbosity of its book commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdaxOptions {
    pub level: i32,
    pub n_empties: i32,
    pub midgame_error: i32,
    pub endcut_error: i32,
    pub verbosity: i32,
}

/// Edax's own defaults for a new book.
impl Default for EdaxOptions {
    fn default() -> Self {
        EdaxOptions {
            level: 21,
            n_empties: 24,
            midgame_error: 2,
            endcut_error: 1,
            verbosity: 0,
        }
    }
}

/// A move with its score: a link to a position in the book, or a position's leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdaxLink {
    /// Discs for the side to move after this move, by the best play known.
    pub score: i8,
    /// 0..=63 (A1 = 0, B1 = 1, ...), [`PASS`] or [`NO_MOVE`].
    pub square: u8,
}

impl EdaxLink {
    /// No move, with the lowest score: the leaf of a position with every move linked.
    pub const NONE: EdaxLink = EdaxLink {
        score: -(SCORE_INF as i8),
        square: NO_MOVE,
    };
}

/// One position of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxPosition {
    /// The discs of the side to move.
    pub player: u64,
    pub opponent: u64,
    /// Finished games below this position, from its side to move's view.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Lines below this position, finished or not.
    pub lines: u32,
    /// The negamaxed score (the best of the links and the leaf) and its bounds, in discs.
    pub value: i16,
    pub lower: i16,
    pub upper: i16,
    /// The search level of the leaf.
    pub level: u8,
    pub links: Vec<EdaxLink>,
    pub leaf: EdaxLink,
}

/// A whole book file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxBook {
    /// The release byte of the header, kept as read (Edax checks only the version).
    pub release: u8,
    pub date: EdaxDate,
    pub options: EdaxOptions,
    pub positions: Vec<EdaxPosition>,
}

/// Why bytes are not an Edax book, or a book is not one Edax can use. Positions count from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EdaxError {
    #[error("not an Edax book: it does not start with Edax's EDAX BOOK header")]
    NotEdax,
    #[error("Edax book of version {version}.{release}; only version 4 (Edax 4.x) is read")]
    Version { version: u8, release: u8 },
    #[error("Edax book cut short: {what} is incomplete at byte {at} of {len}")]
    Truncated { what: String, at: usize, len: usize },
    #[error("Edax book header gives {0} positions")]
    NegativeCount(i32),
    #[error("Edax book header says {}, the file holds {found}", Counted(*.header, "position"))]
    Count { header: usize, found: usize },
    #[error("Edax book position {index}: {reason}")]
    Position { index: usize, reason: String },
    #[error("Edax books hold 8x8 boards under the standard rules, not {0}")]
    Board(String),
}

impl EdaxDate {
    /// The current time, in UTC.
    pub fn now() -> EdaxDate {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        EdaxDate::from_unix(secs)
    }

    /// The UTC date and time `secs` seconds after 1970-01-01 00:00.
    pub fn from_unix(secs: u64) -> EdaxDate {
        let (days, rest) = (secs / 86_400, secs % 86_400);
        // Days to a civil date, counting in 400-year eras from 0000-03-01 (Hinnant's method).
        let z = days as i64 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        EdaxDate {
            year: year.clamp(0, i64::from(i16::MAX)) as i16,
            month: month as u8,
            day: day as u8,
            hour: (rest / 3600) as u8,
            minute: (rest / 60 % 60) as u8,
            second: (rest % 60) as u8,
        }
    }
}

impl EdaxBook {
    /// An empty book dated now.
    pub fn new(options: EdaxOptions) -> EdaxBook {
        EdaxBook {
            release: RELEASE,
            date: EdaxDate::now(),
            options,
            positions: Vec::new(),
        }
    }

    /// The position holding this board in any of its orientations, with the symmetry `s` that
    /// takes the stored board to this one: its moves are `symmetric_square(square, s)` here.
    /// A linear search, for looking up a few positions.
    pub fn probe(&self, player: u64, opponent: u64) -> Option<(&EdaxPosition, u8)> {
        let (up, uo, _) = unique_board(player, opponent);
        let found = self
            .positions
            .iter()
            .find(|p| p.player == up && p.opponent == uo)?;
        let s = (0..8).find(|&s| {
            symmetric_bits(found.player, s) == player
                && symmetric_bits(found.opponent, s) == opponent
        })?;
        Some((found, s))
    }
}

impl EdaxLink {
    /// The move, or `None` for [`NO_MOVE`] (and for any value past it, which
    /// [`read`](super::read) refuses).
    pub fn to_move(self) -> Option<Move> {
        move_from_edax(self.square)
    }
}

impl EdaxPosition {
    /// A position with nothing known: no links, no leaf, value unknown.
    pub fn new(player: u64, opponent: u64) -> EdaxPosition {
        EdaxPosition {
            player,
            opponent,
            wins: 0,
            draws: 0,
            losses: 0,
            lines: 0,
            value: -SCORE_INF,
            lower: -SCORE_INF,
            upper: SCORE_INF,
            level: 0,
            links: Vec::new(),
            leaf: EdaxLink::NONE,
        }
    }

    /// This position under symmetry `s`, its moves turned with it.
    pub fn symmetric(&self, s: u8) -> EdaxPosition {
        let turn = |l: &EdaxLink| EdaxLink {
            score: l.score,
            square: symmetric_square(l.square, s),
        };
        EdaxPosition {
            player: symmetric_bits(self.player, s),
            opponent: symmetric_bits(self.opponent, s),
            links: self.links.iter().map(turn).collect(),
            leaf: turn(&self.leaf),
            ..self.clone()
        }
    }

    /// This position in the orientation Edax stores it in.
    pub fn unique(&self) -> EdaxPosition {
        let (_, _, s) = unique_board(self.player, self.opponent);
        self.symmetric(s)
    }
}

/// Edax's board, `(player, opponent)`, of a position of ours: 8x8 under the standard rules
/// only, since Edax knows no other. Our cells and Edax's squares are numbered alike.
pub fn board_from_position<B: Bits>(
    rules: &Rules<B>,
    position: &Position<B>,
) -> Result<(u64, u64), EdaxError> {
    if rules.shape() != Shape::STANDARD || rules.variant != Variant::default() {
        return Err(EdaxError::Board(format!(
            "{} with {}",
            rules.shape(),
            rules.variant
        )));
    }
    let word = |set: B| set.iter().fold(0u64, |w, i| w | 1 << i);
    Ok((word(position.mover()), word(position.opponent())))
}
