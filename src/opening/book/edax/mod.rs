//! Edax's opening book file (`book.dat` of Edax 4.x), read and written byte for byte; the
//! layout is in docs/book.md, "Edax's book format". Everything is little-endian: a 42-byte
//! header (magic words, version, date, options, count), then per position its two bitboards,
//! game counts, value and bounds, link count, level, links and leaf.
//!
//! Squares: 0 is A1 (top left), 1 B1, ... 8 A2, ... 63 H8, as our 8x8 cells; 64 is a pass, 65
//! "no move". Bit `x` of a bitboard is square `x`; `player` holds the side to move's discs.
//! Edax keeps a position once for its eight symmetries, in the orientation [`unique_board`]
//! picks, and finds a board by that form only. Links are moves to positions in the book; the
//! leaf is the best move left out. Scores are discs for the side to move.

use crate::rules::{Bits, Color, Move, Position, Rules, Shape, Square, Variant};
use crate::words::Counted;
use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

/// The first magic word, `EDAX` as a little-endian u32.
pub const MAGIC_EDAX: u32 = 0x4544_4158;
/// The second magic word, `BOOK`.
pub const MAGIC_BOOK: u32 = 0x424f_4f4b;
/// The only version Edax reads.
pub const VERSION: u8 = 4;
/// The release Edax 4.6 writes.
pub const RELEASE: u8 = 6;
/// The square value of a pass.
pub const PASS: u8 = 64;
/// The square value of "no move" (a position with no leaf).
pub const NO_MOVE: u8 = 65;
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

    /// The move, or `None` for [`NO_MOVE`] (and for any value past it, which [`read`] refuses).
    pub fn to_move(self) -> Option<Move> {
        move_from_edax(self.square)
    }
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

/// The bytes of an Edax book file. Positions are written in the order given, each with at most
/// 255 links (see [`EdaxBook::check`] for what Edax expects of them); the date's padding byte
/// is 0.
pub fn write(book: &EdaxBook) -> Vec<u8> {
    let links: usize = book.positions.iter().map(|p| p.links.len().min(255)).sum();
    let mut out =
        Vec::with_capacity(HEADER_BYTES + book.positions.len() * POSITION_BYTES + 2 * links);
    out.extend(MAGIC_EDAX.to_le_bytes());
    out.extend(MAGIC_BOOK.to_le_bytes());
    out.extend([VERSION, book.release]);
    let d = &book.date;
    out.extend(d.year.to_le_bytes());
    out.extend([d.month, d.day, d.hour, d.minute, d.second, 0]);
    let o = &book.options;
    for v in [
        o.level,
        o.n_empties,
        o.midgame_error,
        o.endcut_error,
        o.verbosity,
    ] {
        out.extend(v.to_le_bytes());
    }
    let count = i32::try_from(book.positions.len()).unwrap_or(i32::MAX);
    out.extend(count.to_le_bytes());
    for p in book.positions.iter().take(count as usize) {
        out.extend(p.player.to_le_bytes());
        out.extend(p.opponent.to_le_bytes());
        for v in [p.wins, p.draws, p.losses, p.lines] {
            out.extend(v.to_le_bytes());
        }
        for v in [p.value, p.lower, p.upper] {
            out.extend(v.to_le_bytes());
        }
        let links = &p.links[..p.links.len().min(255)];
        out.extend([links.len() as u8, p.level]);
        for link in links.iter().chain([&p.leaf]) {
            out.extend([link.score as u8, link.square]);
        }
    }
    out
}

/// The number of positions the header `head` (a file's first [`HEADER_BYTES`]) gives, so that
/// a reader can size the file before reading it: not an Edax book if the magic words are not
/// there; `None` where the header is cut short, of another version or negative, for [`read`]
/// to name.
pub fn header_count(head: &[u8]) -> Result<Option<u64>, EdaxError> {
    let magic = [MAGIC_EDAX.to_le_bytes(), MAGIC_BOOK.to_le_bytes()].concat();
    if head[..head.len().min(8)] != magic[..head.len().min(8)] {
        return Err(EdaxError::NotEdax);
    }
    if head.len() < HEADER_BYTES || head[8] != VERSION {
        return Ok(None);
    }
    let count = i32::from_le_bytes(head[38..42].try_into().expect("four bytes"));
    Ok(u64::try_from(count).ok())
}

/// Reads an Edax book file. The header's count sizes nothing beyond what the bytes can hold;
/// anything that is not exactly a header and its positions is an error.
pub fn read(bytes: &[u8]) -> Result<EdaxBook, EdaxError> {
    let mut r = Reader { bytes, at: 0 };
    let magic = [MAGIC_EDAX.to_le_bytes(), MAGIC_BOOK.to_le_bytes()].concat();
    let head = &bytes[..bytes.len().min(8)];
    if head != &magic[..head.len()] {
        return Err(EdaxError::NotEdax);
    }
    r.take(8, "the header")?;
    let [version, release] = r.array("the header")?;
    if version != VERSION {
        return Err(EdaxError::Version { version, release });
    }
    let year = i16::from_le_bytes(r.array("the header's date")?);
    let [month, day, hour, minute, second, _pad] = r.array("the header's date")?;
    let mut opt = [0i32; 5];
    for v in &mut opt {
        *v = i32::from_le_bytes(r.array("the header's options")?);
    }
    let count = i32::from_le_bytes(r.array("the header's count")?);
    let header = usize::try_from(count).map_err(|_| EdaxError::NegativeCount(count))?;
    let mut positions = Vec::with_capacity(header.min(r.left() / POSITION_BYTES));
    while r.left() > 0 {
        let index = positions.len();
        let what = format!("position {}", index + 1);
        let player = u64::from_le_bytes(r.array(&what)?);
        let opponent = u64::from_le_bytes(r.array(&what)?);
        let mut wdl = [0u32; 4];
        for v in &mut wdl {
            *v = u32::from_le_bytes(r.array(&what)?);
        }
        let mut scores = [0i16; 3];
        for v in &mut scores {
            *v = i16::from_le_bytes(r.array(&what)?);
        }
        let [n_links, level] = r.array(&what)?;
        let raw = r.take(2 * usize::from(n_links) + 2, &what)?;
        let mut links: Vec<EdaxLink> = raw
            .chunks_exact(2)
            .map(|c| EdaxLink {
                score: c[0] as i8,
                square: c[1],
            })
            .collect();
        let leaf = links.pop().expect("the leaf's two bytes were taken");
        check_board(player, opponent).map_err(|r| position_error(index, r))?;
        if let Some(l) = links.iter().find(|l| l.square > PASS) {
            return Err(position_error(
                index,
                format!("link to square {}", l.square),
            ));
        }
        if leaf.square > NO_MOVE {
            return Err(position_error(
                index,
                format!("leaf on square {}", leaf.square),
            ));
        }
        positions.push(EdaxPosition {
            player,
            opponent,
            wins: wdl[0],
            draws: wdl[1],
            losses: wdl[2],
            lines: wdl[3],
            value: scores[0],
            lower: scores[1],
            upper: scores[2],
            level,
            links,
            leaf,
        });
    }
    if positions.len() != header {
        return Err(EdaxError::Count {
            header,
            found: positions.len(),
        });
    }
    Ok(EdaxBook {
        release,
        date: EdaxDate {
            year,
            month,
            day,
            hour,
            minute,
            second,
        },
        options: EdaxOptions {
            level: opt[0],
            n_empties: opt[1],
            midgame_error: opt[2],
            endcut_error: opt[3],
            verbosity: opt[4],
        },
        positions,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], EdaxError> {
        if self.left() < n {
            return Err(EdaxError::Truncated {
                what: what.to_string(),
                at: self.bytes.len(),
                len: self.bytes.len(),
            });
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }
    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], EdaxError> {
        Ok(self.take(N, what)?.try_into().expect("N bytes taken"))
    }
}

fn position_error(index: usize, reason: impl Into<String>) -> EdaxError {
    EdaxError::Position {
        index: index + 1,
        reason: reason.into(),
    }
}

/// What Edax itself refuses in a board: a square held by both sides, an empty centre.
fn check_board(player: u64, opponent: u64) -> Result<(), &'static str> {
    const CENTRE: u64 = 0x0000_0018_1800_0000;
    if player & opponent != 0 {
        Err("a square holds discs of both sides")
    } else if (player | opponent) & CENTRE != CENTRE {
        Err("a square of the centre is empty")
    } else {
        Ok(())
    }
}

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

fn standard_rules() -> Rules<u64> {
    Rules::new(Shape::STANDARD, Variant::default()).expect("8x8 fits in 64 bits")
}

/// The board after move `x` (a legal move or a pass) of the side to move, as Edax keeps it: the
/// side to move next as `player`.
fn next_board(rules: &Rules<u64>, player: u64, opponent: u64, x: u8) -> (u64, u64) {
    if x == PASS {
        return (opponent, player);
    }
    let flips = rules.flips_for(usize::from(x), player, opponent);
    (opponent & !flips, player | flips | 1 << x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Passes, Setup};

    /// Edax's start: black (to move) on d5 and e4, white on d4 and e5.
    const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

    fn rules() -> Rules<u64> {
        standard_rules()
    }

    /// The board after Edax moves `x` from `(player, opponent)`.
    fn after(board: (u64, u64), x: u8) -> (u64, u64) {
        assert!(x == PASS || rules().moves_for(board.0, board.1) & (1 << x) != 0);
        next_board(&rules(), board.0, board.1, x)
    }

    fn link(score: i8, square: u8) -> EdaxLink {
        EdaxLink { score, square }
    }

    /// The start with its four (symmetric) moves linked to the one position after f5, which has
    /// d6 linked and a leaf on f6; d6's position has a leaf on c3.
    fn small_book() -> EdaxBook {
        let a = after(START, 37); // f5
        let b = after(a, 43); // f5 d6
        let mut root = EdaxPosition::new(START.0, START.1);
        root.links = [37, 44, 19, 26].map(|x| link(1, x)).to_vec(); // f5 e6 d3 c4
        root.value = 1;
        let mut pa = EdaxPosition::new(a.0, a.1);
        pa.links = vec![link(-1, 43)];
        pa.leaf = link(-4, 45); // f6
        pa.value = -1;
        let mut pb = EdaxPosition::new(b.0, b.1);
        pb.leaf = link(1, 18); // c3
        pb.value = 1;
        (pb.wins, pb.draws, pb.losses, pb.lines) = (3, 1, 2, 7);
        (pa.wins, pa.draws, pa.losses, pa.lines) = (2, 1, 3, 7);
        (root.wins, root.draws, root.losses, root.lines) = (3, 1, 2, 7);
        for p in [&mut root, &mut pa, &mut pb] {
            (p.lower, p.upper, p.level) = (p.value - 2, p.value + 2, 10);
        }
        let positions = [root, pa, pb].iter().map(EdaxPosition::unique).collect();
        EdaxBook {
            release: RELEASE,
            date: EdaxDate::from_unix(1_700_000_000),
            options: EdaxOptions {
                level: 10,
                n_empties: 50,
                ..EdaxOptions::default()
            },
            positions,
        }
    }

    #[test]
    fn symmetries_of_bits_follow_squares() {
        for s in 0..8 {
            for x in 0..64 {
                assert_eq!(
                    symmetric_bits(1 << x, s),
                    1 << symmetric_square(x, s),
                    "s {s} x {x}"
                );
            }
            assert_eq!(symmetric_square(PASS, s), PASS);
            assert_eq!(symmetric_square(NO_MOVE, s), NO_MOVE);
        }
        // Transposition swaps rows and columns: B1 (1) and A2 (8).
        assert_eq!(symmetric_square(1, 4), 8);
        assert_eq!(
            symmetric_bits(0x0000_0000_0000_00ff, 4),
            0x0101_0101_0101_0101
        );
    }

    #[test]
    fn unique_board_is_the_same_for_every_orientation() {
        let a = after(START, 37);
        let (up, uo, s) = unique_board(a.0, a.1);
        assert_eq!((symmetric_bits(a.0, s), symmetric_bits(a.1, s)), (up, uo));
        for t in 0..8 {
            let (p, o) = (symmetric_bits(a.0, t), symmetric_bits(a.1, t));
            let (p2, o2, _) = unique_board(p, o);
            assert_eq!((p2, o2), (up, uo));
            assert!((up, uo) <= (p, o));
        }
        // The four first moves lead to one unique board.
        let boards: Vec<_> = [37, 44, 19, 26]
            .map(|x| {
                let b = after(START, x);
                let (p, o, _) = unique_board(b.0, b.1);
                (p, o)
            })
            .to_vec();
        assert!(boards.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn our_start_is_edax_start() {
        let game: Game<u64> = Game::new(&Setup::default(), Passes::Automatic).unwrap();
        let board = board_from_position(game.rules(), game.position()).unwrap();
        assert_eq!(board, START);
        assert_eq!(color_by_parity(START.0, START.1), Color::Black);
        let back: Position<u64> = position_from_board(START.0, START.1, Color::Black);
        assert_eq!(&back, game.position());
        let after_f5 = after(START, 37);
        let ours: Position<u64> = position_from_board(after_f5.0, after_f5.1, Color::White);
        let mut game = game;
        game.try_play(Move::Play(Square::new(4, 5))).unwrap();
        assert_eq!(&ours, game.position());
        assert_eq!(color_by_parity(after_f5.0, after_f5.1), Color::White);
    }

    #[test]
    fn other_boards_and_rules_are_refused() {
        let setup = Setup::standard(Shape::square(6).unwrap(), Variant::default());
        let game: Game<u64> = Game::new(&setup, Passes::Automatic).unwrap();
        let err = board_from_position(game.rules(), game.position()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Edax books hold 8x8 boards under the standard rules, not 6x6 with full rules"
        );
        let misere = Variant {
            misere: true,
            ..Variant::default()
        };
        let game: Game<u64> =
            Game::new(&Setup::standard(Shape::STANDARD, misere), Passes::Automatic).unwrap();
        assert!(board_from_position(game.rules(), game.position()).is_err());
    }

    #[test]
    fn moves_and_squares() {
        assert_eq!(move_to_edax(Move::Play(Square::new(4, 5))), Some(37)); // f5
        assert_eq!(move_to_edax(Move::Play(Square::new(0, 0))), Some(0)); // a1
        assert_eq!(move_to_edax(Move::Play(Square::new(7, 7))), Some(63)); // h8
        assert_eq!(move_to_edax(Move::Play(Square::new(8, 0))), None);
        assert_eq!(move_to_edax(Move::Pass), Some(PASS));
        for x in 0..=PASS {
            assert_eq!(move_to_edax(move_from_edax(x).unwrap()), Some(x));
        }
        assert_eq!(move_from_edax(NO_MOVE), None);
        assert_eq!(EdaxLink::NONE.to_move(), None);
        assert_eq!(
            [0, 37, 63, PASS, NO_MOVE].map(square_name),
            ["a1", "f5", "h8", "pa", "--"]
        );
    }

    #[test]
    fn dates() {
        let d = |y, mo, da, h, mi, s| EdaxDate {
            year: y,
            month: mo,
            day: da,
            hour: h,
            minute: mi,
            second: s,
        };
        assert_eq!(EdaxDate::from_unix(0), d(1970, 1, 1, 0, 0, 0));
        assert_eq!(EdaxDate::from_unix(951_782_400), d(2000, 2, 29, 0, 0, 0));
        assert_eq!(
            EdaxDate::from_unix(1_700_000_000),
            d(2023, 11, 14, 22, 13, 20)
        );
        assert_eq!(
            EdaxDate::from_unix(1_735_689_599),
            d(2024, 12, 31, 23, 59, 59)
        );
    }

    #[test]
    fn bytes_follow_the_layout_field_by_field() {
        let book = small_book();
        let bytes = write(&book);
        let n_links: usize = book.positions.iter().map(|p| p.links.len()).sum();
        assert_eq!(bytes.len(), 42 + 3 * 42 + 2 * n_links);
        assert_eq!(&bytes[0..8], b"XADEKOOB"); // two little-endian u32 magic words
        assert_eq!(bytes[8..10], [4, 6]);
        assert_eq!(bytes[10..18], [0xe7, 0x07, 11, 14, 22, 13, 20, 0]); // 2023-11-14 22:13:20
        let i32_at = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!([18, 22, 26, 30, 34].map(i32_at), [10, 50, 2, 1, 0]);
        assert_eq!(i32_at(38), 3);
        let mut at = 42;
        for p in &book.positions {
            let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
            let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            let i16_at = |at: usize| i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
            assert_eq!((u64_at(at), u64_at(at + 8)), (p.player, p.opponent));
            assert_eq!(
                [16, 20, 24, 28].map(|o| u32_at(at + o)),
                [p.wins, p.draws, p.losses, p.lines]
            );
            assert_eq!(
                [32, 34, 36].map(|o| i16_at(at + o)),
                [p.value, p.lower, p.upper]
            );
            assert_eq!(bytes[at + 38..at + 40], [p.links.len() as u8, p.level]);
            at += 40;
            for l in p.links.iter().chain([&p.leaf]) {
                assert_eq!(bytes[at..at + 2], [l.score as u8, l.square]);
                at += 2;
            }
        }
        assert_eq!(at, bytes.len());
        // The root's four links, and a missing leaf: score -127, square 65.
        assert_eq!(bytes[80..82], [4, 10]);
        assert_eq!(bytes[90..92], [0x81, 65]);
    }

    #[test]
    fn round_trip() {
        let book = small_book();
        book.check().unwrap();
        let bytes = write(&book);
        let back = read(&bytes).unwrap();
        assert_eq!(back, book);
        assert_eq!(write(&back), bytes);
        let empty = EdaxBook::new(EdaxOptions::default());
        assert_eq!(read(&write(&empty)).unwrap(), empty);
        assert_eq!(write(&empty).len(), 42);
    }

    #[test]
    fn probe_finds_any_orientation() {
        let book = small_book();
        let b = after(after(START, 37), 43); // f5 d6
        let (p, s) = book.probe(b.0, b.1).unwrap();
        assert_eq!(symmetric_square(p.leaf.square, s), 18); // c3 here
        assert_eq!(p.value, 1);
        // The same line turned half a turn: c4 e3, whose leaf is then f6.
        let t = after(after(START, 26), 20);
        let (p, s) = book.probe(t.0, t.1).unwrap();
        assert_eq!(square_name(symmetric_square(p.leaf.square, s)), "f6");
        assert!(book.probe(after(START, 37).1, after(START, 37).0).is_none());
    }

    #[test]
    fn check_finds_what_edax_cannot_use() {
        let book = small_book();
        let broken = |f: &dyn Fn(&mut EdaxBook)| {
            let mut b = book.clone();
            f(&mut b);
            b.check().unwrap_err().to_string()
        };
        let root = book
            .positions
            .iter()
            .position(|p| p.links.len() == 4)
            .unwrap();
        let start_turned = |b: &mut EdaxBook| {
            let p = &mut b.positions[root];
            let turned = (symmetric_bits(p.player, 1), symmetric_bits(p.opponent, 1));
            assert_ne!(turned, (p.player, p.opponent));
            (p.player, p.opponent) = turned;
        };
        assert!(broken(&start_turned).contains("not in Edax's unique orientation"));
        assert!(broken(&|b| b.positions[root].links[0].square = 0)
            .contains("link a1 is not a legal move"));
        let twice =
            broken(&|b| b.positions[root].links[1].square = b.positions[root].links[0].square);
        assert!(twice.contains("is there twice"), "{twice}");
        let leaf = broken(&|b| b.positions[root].leaf.square = b.positions[root].links[0].square);
        assert!(
            leaf.contains("is not a legal move outside the links"),
            "{leaf}"
        );
        assert!(broken(&|b| b.positions[root].leaf.square = PASS).contains("leaf pa"));
        assert!(broken(&|b| {
            b.positions.retain(|p| p.links.len() != 1);
        })
        .contains("leads to a position missing from the book"));
        assert!(broken(&|b| {
            let p = b.positions[0].clone();
            b.positions.push(p);
        })
        .contains("twice"));
    }

    #[test]
    fn malformed_input_is_an_error() {
        let bytes = write(&small_book());
        // Every cut is refused, with the part that was cut.
        for len in 0..bytes.len() {
            let err = read(&bytes[..len]);
            match len {
                0 => assert!(err.is_err()),
                _ => assert!(
                    matches!(
                        err,
                        Err(EdaxError::Truncated { .. }) | Err(EdaxError::Count { .. })
                    ),
                    "length {len}: {err:?}"
                ),
            }
        }
        assert_eq!(
            read(&bytes[..100]).unwrap_err().to_string(),
            "Edax book cut short: position 2 is incomplete at byte 100 of 100"
        );
        assert_eq!(
            read(&bytes[..20]).unwrap_err().to_string(),
            "Edax book cut short: the header's options is incomplete at byte 20 of 20"
        );
        // The count must match what follows; a negative one is refused.
        let with_count = |n: i32| {
            let mut b = bytes.clone();
            b[38..42].copy_from_slice(&n.to_le_bytes());
            read(&b).unwrap_err().to_string()
        };
        assert_eq!(
            with_count(4),
            "Edax book header says 4 positions, the file holds 3"
        );
        assert_eq!(
            with_count(1),
            "Edax book header says 1 position, the file holds 3"
        );
        assert_eq!(with_count(-1), "Edax book header gives -1 positions");
        let huge = with_count(i32::MAX);
        assert!(huge.contains("2147483647 positions"), "{huge}");
        // Foreign files and other versions.
        for foreign in [
            &b"(;GM[Othello]PC[x]"[..],
            b"EDAXBOOK",
            b"XADEKOOC",
            b"\x89PNG",
        ] {
            assert_eq!(
                read(foreign).unwrap_err(),
                EdaxError::NotEdax,
                "{foreign:?}"
            );
        }
        assert!(matches!(read(b"XADE"), Err(EdaxError::Truncated { .. })));
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert_eq!(
            read(&v3).unwrap_err().to_string(),
            "Edax book of version 3.6; only version 4 (Edax 4.x) is read"
        );
        // Trailing bytes are an incomplete position, not ignored.
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(read(&longer), Err(EdaxError::Truncated { .. })));
        // Fields out of range.
        let mut both = bytes.clone();
        both[42 + 8..42 + 16].copy_from_slice(&bytes[42..42 + 8]);
        assert_eq!(
            read(&both).unwrap_err().to_string(),
            "Edax book position 1: a square holds discs of both sides"
        );
        let leaf_at = 42 + 40 + 2 * usize::from(bytes[42 + 38]);
        let mut bad_leaf = bytes.clone();
        bad_leaf[leaf_at + 1] = 66;
        assert_eq!(
            read(&bad_leaf).unwrap_err().to_string(),
            "Edax book position 1: leaf on square 66"
        );
        let mut bad_link = bytes.clone();
        bad_link[42 + 41] = 65;
        assert_eq!(
            read(&bad_link).unwrap_err().to_string(),
            "Edax book position 1: link to square 65"
        );
        let mut no_centre = bytes.clone();
        no_centre[42..58].fill(0);
        assert!(read(&no_centre)
            .unwrap_err()
            .to_string()
            .contains("centre is empty"));
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let bytes = write(&small_book());
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut b = bytes.clone();
            for _ in 0..4 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let at = (state >> 33) as usize % b.len();
                b[at] = (state >> 17) as u8;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            b.truncate(42 + (state >> 40) as usize % (b.len() - 41));
            let _ = read(&b).map(|book| book.check());
        }
    }
}
