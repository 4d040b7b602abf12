//! The book's own file: a header naming the game, the positions sorted by key, and a CRC-32 of
//! everything before it (docs/book.md gives the layout byte by byte). A file that is not a
//! book, of another version, cut short or damaged is refused with the reason.

use super::{Book, BookPosition, Frame, Games, Header, Leaf, Level, Link};
use crate::rules::{Bits, Color, RuleSet, Rules, Shape, Variant};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"OTHBOOK\n";
/// The layout this program writes and reads.
pub const VERSION: u16 = 1;
/// The largest book file read, ours or Edax's: 1 GiB. An 8x8 position takes some 60 bytes in
/// ours and 50 in Edax's, so this is over 15 million positions, and the book in memory takes
/// two to three times the file: far more than `book learn` makes in weeks on one machine.
pub const MAX_BOOK_FILE: u64 = 1 << 30;

/// The header's fixed part, before the start position.
const FIXED: usize = 32;
/// A level byte meaning exact; others are a depth.
const EXACT: u8 = 255;
/// A leaf cell meaning no leaf.
const NO_LEAF: u16 = u16::MAX;

/// Why a book file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum BookFileError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("not an opening book (it does not start with the book's magic)")]
    Foreign,
    #[error("book format version {0}, but this program reads version {VERSION}")]
    Version(u16),
    #[error("truncated: {0} bytes where the header says {1}")]
    Truncated(u64, u64),
    #[error("damaged: {0}")]
    Damaged(String),
    #[error("its header gives {0} bytes, more than the 1 GiB a book file may take")]
    TooLarge(u64),
}

/// Why an Edax book file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum EdaxFileError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Edax(#[from] super::edax::EdaxError),
    #[error(
        "Edax book header gives {0} positions, more than fit in the 1 GiB a book file may take"
    )]
    TooLarge(u64),
}

fn damaged<T>(why: impl Into<String>) -> Result<T, BookFileError> {
    Err(BookFileError::Damaged(why.into()))
}

/// Why the book to learn into cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file is there but cannot be read as a book.
    #[error(transparent)]
    File(BookFileError),
    /// The book is of another board or rules than the start asked for.
    #[error("{0}: give the book's board and rule options")]
    OtherStart(super::Mismatch),
    /// The start asked for is no position (a new book has none to begin from).
    #[error(transparent)]
    NoStart(crate::rules::ShapeError),
}

/// The book at `path`, if it is one of `start`'s board and rules, to go on learning into; a
/// new book of `start` where there is no file.
pub fn open_or_create(path: &Path, start: &crate::start::Start) -> Result<Book, OpenError> {
    match read(path) {
        Ok(book) => {
            book.check_start(start).map_err(OpenError::OtherStart)?;
            Ok(book)
        }
        Err(BookFileError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Book::for_start(start).map_err(OpenError::NoStart)
        }
        Err(e) => Err(OpenError::File(e)),
    }
}

/// Reads the book at `path`: its magic and header first, then no more than the header gives
/// (at most [`MAX_BOOK_FILE`] bytes), so that an endless file or one that is not a book is
/// refused at once.
pub fn read(path: &Path) -> Result<Book, BookFileError> {
    let bytes = read_headed(path, FIXED, |head| {
        if head.len() < MAGIC.len() || head[..MAGIC.len()] != MAGIC {
            return Err(BookFileError::Foreign);
        }
        // A header cut short, of another version or of a board that does not exist is left
        // to `from_bytes` to name.
        if head.len() < FIXED || u16::from_le_bytes([head[8], head[9]]) != VERSION {
            return Ok(head.len() as u64);
        }
        let Ok(shape) = Shape::new(head[10] as usize, head[11] as usize) else {
            return Ok(head.len() as u64);
        };
        let body_len = u64::from_le_bytes(head[16..24].try_into().expect("eight bytes"));
        let key_len = 2 * shape.cells().div_ceil(8) as u64;
        let whole = (FIXED as u64 + key_len + 4).saturating_add(body_len);
        if whole > MAX_BOOK_FILE {
            return Err(BookFileError::TooLarge(whole));
        }
        Ok(whole)
    })?;
    from_bytes(&bytes)
}

/// Reads the Edax book at `path` as [`read`] reads ours: the header first, then no more
/// than its count of positions can take (at most [`MAX_BOOK_FILE`] bytes).
pub fn read_edax(path: &Path) -> Result<super::edax::EdaxBook, EdaxFileError> {
    use super::edax;
    let bytes = read_headed(path, edax::HEADER_BYTES, |head| {
        let Some(count) = edax::header_count(head)? else {
            return Ok(head.len() as u64);
        };
        // Each position takes its fixed part and two bytes a link, of at most 255 links.
        let least = count * edax::POSITION_BYTES as u64 + edax::HEADER_BYTES as u64;
        if least > MAX_BOOK_FILE {
            return Err(EdaxFileError::TooLarge(count));
        }
        Ok((least + count * 2 * 255).min(MAX_BOOK_FILE))
    })?;
    Ok(edax::read(&bytes)?)
}

/// The bytes of the file at `path`, read in two steps: its first `head` bytes (fewer if it is
/// shorter), which `most` checks and turns into the most bytes the whole file may take; then
/// the rest up to one byte past that, so that a longer file shows as such to its reader without
/// being read whole.
fn read_headed<E: From<std::io::Error>>(
    path: &Path,
    head: usize,
    most: impl FnOnce(&[u8]) -> Result<u64, E>,
) -> Result<Vec<u8>, E> {
    let mut file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(head);
    (&mut file).take(head as u64).read_to_end(&mut bytes)?;
    let more = most(&bytes)?
        .saturating_add(1)
        .saturating_sub(bytes.len() as u64);
    file.take(more).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The book the computer plays from: the file at `path` (which says once, when the engine first
/// looks for a move in it, that it is for another board or rules than the game's), else the
/// built-in one (none for a board without one). A missing or damaged file is an error naming it.
pub fn for_play(path: Option<&Path>) -> Result<Option<std::sync::Arc<Book>>, String> {
    match path {
        Some(path) => {
            let mut read = read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            read.say_when_unused(path);
            Ok(Some(std::sync::Arc::new(read)))
        }
        None => Ok(built_in()),
    }
}

/// The book that ships with the program: `books/8x8.book` in the source (`books/make.sh`
/// made it), read on its first use.
pub fn built_in() -> Option<std::sync::Arc<Book>> {
    static READ: std::sync::OnceLock<Option<std::sync::Arc<Book>>> = std::sync::OnceLock::new();
    READ.get_or_init(|| match from_bytes(BUILT_IN) {
        Ok(book) => Some(std::sync::Arc::new(book)),
        Err(e) => {
            // The bytes are compiled in and tested: only a damaged binary gets here.
            eprintln!("othello: the built-in opening book is damaged ({e}); playing without it");
            None
        }
    })
    .clone()
}

const BUILT_IN: &[u8] = include_bytes!("../../../books/8x8.book");

/// Writes `book` to `path` whole or not at all; an error names the file.
pub fn write(path: &Path, book: &Book) -> std::io::Result<()> {
    crate::files::write_atomic(path, &to_bytes(book))
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

fn level_byte(level: Level) -> u8 {
    match level {
        Level::Exact => EXACT,
        Level::Depth(d) => d.min(EXACT - 1),
    }
}

fn level_of(byte: u8) -> Level {
    match byte {
        EXACT => Level::Exact,
        d => Level::Depth(d),
    }
}

/// The bytes of a book file.
pub fn to_bytes(book: &Book) -> Vec<u8> {
    let h = &book.header;
    let mut keys: Vec<&[u8]> = book.entries.keys().map(|k| &k[..]).collect();
    keys.sort_unstable();
    let mut body = Vec::new();
    for key in &keys {
        let e = &book.entries[*key];
        body.extend_from_slice(key);
        body.extend_from_slice(&e.value.to_le_bytes());
        body.push(level_byte(e.level));
        for n in [e.games.wins, e.games.draws, e.games.losses, e.games.lines] {
            body.extend_from_slice(&n.to_le_bytes());
        }
        let leaf = e.leaf.unwrap_or(Leaf {
            cell: NO_LEAF,
            value: 0,
            level: Level::Depth(0),
        });
        body.extend_from_slice(&leaf.cell.to_le_bytes());
        body.extend_from_slice(&leaf.value.to_le_bytes());
        body.push(level_byte(leaf.level));
        body.extend_from_slice(&(e.links.len() as u16).to_le_bytes());
        for link in &e.links {
            body.extend_from_slice(&link.cell.to_le_bytes());
            body.extend_from_slice(&link.value.to_le_bytes());
        }
    }
    let mut out = Vec::with_capacity(FIXED + h.start.len() + body.len() + 4);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(h.shape.rows() as u8);
    out.push(h.shape.cols() as u8);
    out.push(match h.variant.rule_set {
        RuleSet::Full => 0,
        RuleSet::Simple => 1,
    });
    out.push(u8::from(h.variant.place_anywhere) | u8::from(h.variant.misere) << 1);
    out.push(match h.first {
        Color::Black => 0,
        Color::White => 1,
    });
    out.push(0);
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&(keys.len() as u64).to_le_bytes());
    out.extend_from_slice(&h.start);
    out.extend_from_slice(&body);
    let crc = checksum(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The CRC-32 (IEEE) that ends a book file, of the bytes before it.
pub fn checksum(bytes: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    crc.sum()
}

/// Reads the bytes of a book file.
pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookFileError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(BookFileError::Foreign);
    }
    if bytes.len() < FIXED {
        return Err(BookFileError::Truncated(bytes.len() as u64, FIXED as u64));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(BookFileError::Version(version));
    }
    let (rows, cols) = (bytes[10] as usize, bytes[11] as usize);
    let Ok(shape) = Shape::new(rows, cols) else {
        return damaged(format!("a {rows}x{cols} board"));
    };
    let key_len = 2 * shape.cells().div_ceil(8);
    let body_len = u64::from_le_bytes(bytes[16..24].try_into().expect("eight bytes"));
    let count = u64::from_le_bytes(bytes[24..32].try_into().expect("eight bytes"));
    let expected = (FIXED as u64 + key_len as u64 + 4).saturating_add(body_len);
    if (bytes.len() as u64) < expected {
        return Err(BookFileError::Truncated(bytes.len() as u64, expected));
    }
    if bytes.len() as u64 > expected {
        return damaged(format!(
            "{} bytes after the end the header gives",
            bytes.len() as u64 - expected
        ));
    }
    let (data, sum) = bytes.split_at(bytes.len() - 4);
    if checksum(data) != u32::from_le_bytes(sum.try_into().expect("four bytes")) {
        return damaged("the checksum does not match its contents");
    }
    let rule_set = match bytes[12] {
        0 => RuleSet::Full,
        1 => RuleSet::Simple,
        n => return damaged(format!("rule set {n}")),
    };
    if bytes[13] > 3 || bytes[15] != 0 {
        return damaged("unknown flags in the header");
    }
    let variant = Variant {
        rule_set,
        place_anywhere: bytes[13] & 1 != 0,
        misere: bytes[13] & 2 != 0,
    };
    let first = match bytes[14] {
        0 => Color::Black,
        1 => Color::White,
        n => return damaged(format!("first player {n}")),
    };
    let start = bytes[FIXED..FIXED + key_len].to_vec();
    let header = Header {
        shape,
        variant,
        start,
        first,
    };
    let body = &data[FIXED + key_len..];
    crate::with_bits!(shape, |B| read_body::<B>(header, body, count))
}

/// A reader of little-endian numbers that says "damaged" where the bytes run out.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BookFileError> {
        if self.bytes.len() - self.at < n {
            return damaged("a position runs past the end of the body");
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }
    fn u8(&mut self) -> Result<u8, BookFileError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, BookFileError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("two")))
    }
    fn i16(&mut self) -> Result<i16, BookFileError> {
        Ok(i16::from_le_bytes(self.take(2)?.try_into().expect("two")))
    }
    fn u32(&mut self) -> Result<u32, BookFileError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("four")))
    }
}

fn read_body<B: Bits>(header: Header, body: &[u8], count: u64) -> Result<Book, BookFileError> {
    let Ok(rules) = Rules::<B>::new(header.shape, header.variant) else {
        return damaged("a board that does not fit");
    };
    let frame = Frame::new(rules);
    let cells = header.shape.cells();
    if frame.position(&header.start).is_none() {
        return damaged("the start position");
    }
    let key_len = header.start.len();
    let mut cursor = Cursor { bytes: body, at: 0 };
    // Each position takes at least its key and 26 bytes: a count beyond that is damage.
    if count > (body.len() / (key_len + 26)) as u64 {
        return damaged(format!("{count} positions in {} bytes", body.len()));
    }
    let mut entries = HashMap::with_capacity(count as usize);
    let cell_of = |cell: u16| -> Result<u16, BookFileError> {
        if (cell as usize) < cells {
            Ok(cell)
        } else {
            damaged(format!("cell {cell} on a board of {cells}"))
        }
    };
    let mut previous: Option<&[u8]> = None;
    for _ in 0..count {
        let key = cursor.take(key_len)?;
        if frame.position(key).is_none() {
            return damaged("a position with a disc off the board or two on one cell");
        }
        if previous.is_some_and(|p| p >= key) {
            return damaged("positions out of order");
        }
        previous = Some(key);
        let value = cursor.i16()?;
        let level = level_of(cursor.u8()?);
        let games = Games {
            wins: cursor.u32()?,
            draws: cursor.u32()?,
            losses: cursor.u32()?,
            lines: cursor.u32()?,
        };
        let (cell, leaf_value, leaf_level) = (cursor.u16()?, cursor.i16()?, cursor.u8()?);
        let leaf = match cell {
            NO_LEAF => None,
            cell => Some(Leaf {
                cell: cell_of(cell)?,
                value: leaf_value,
                level: level_of(leaf_level),
            }),
        };
        let n = cursor.u16()? as usize;
        let mut links = Vec::with_capacity(n.min(cells));
        for _ in 0..n {
            links.push(Link {
                cell: cell_of(cursor.u16()?)?,
                value: cursor.i16()?,
            });
        }
        entries.insert(
            key.to_vec().into_boxed_slice(),
            BookPosition {
                value,
                level,
                games,
                links,
                leaf,
            },
        );
    }
    if cursor.at != body.len() {
        return damaged("bytes after the last position");
    }
    Ok(Book::from_parts(header, entries))
}
