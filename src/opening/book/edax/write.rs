//! Writing Edax's book file, byte for byte as Edax writes it.

use super::format::{EdaxBook, HEADER_BYTES, MAGIC_BOOK, MAGIC_EDAX, POSITION_BYTES, VERSION};

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
