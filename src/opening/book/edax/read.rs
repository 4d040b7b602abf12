//! Reading Edax's book file: the header, then positions until the bytes end, each checked for
//! what Edax itself refuses.

use super::check::{check_board, position_error};
use super::format::{
    EdaxBook, EdaxDate, EdaxError, EdaxLink, EdaxOptions, EdaxPosition, HEADER_BYTES, MAGIC_BOOK,
    MAGIC_EDAX, POSITION_BYTES, VERSION,
};
use super::squares::{NO_MOVE, PASS};

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
