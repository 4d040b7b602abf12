//! Games in files: `save` writes one whole or not at all, and never over a file that is not a
//! saved game; `load` reads a saved game, a GGF record or a move list, and only from a regular
//! file of bounded size.

use crate::notation::GameRecord;
use std::io::{self, Read};
use std::path::Path;

/// The longest file `load` reads: a 26x26 game saves in about 3 KiB.
pub(super) const MAX_FILE: u64 = 64 * 1024;

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it, a link
/// replaced rather than written through). A file already there is replaced only when `load`
/// reads it as a game: anything else may be something the person keeps.
pub(super) fn save_game(path: &str, text: &str) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_ok() && std::fs::metadata(path).is_ok() {
        if let Err(e) = read_game(path) {
            return Err(format!("it is not a saved game ({e}), so it is kept."));
        }
    }
    crate::files::write_atomic(path.as_ref(), text.as_bytes()).map_err(|e| format!("{e}."))
}

/// The text of the file at `path`, at most [`MAX_FILE`] bytes. Anything but a regular file (a
/// FIFO, a device, a folder) is refused: checked before opening, and again on the file opened,
/// which is opened without blocking so that a FIFO put there meanwhile cannot hang the game.
fn read_regular(path: &Path) -> io::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let not_regular = || io::Error::new(io::ErrorKind::InvalidInput, "not a regular file");
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE {
        let message = format!("over {} KiB, too large for a saved game", MAX_FILE / 1024);
        return Err(io::Error::new(io::ErrorKind::InvalidData, message));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// A saved game: what `save` writes (a position string line, then the moves), a GGF record
/// (the first of a file of several) or a bare move list; with how many games the file holds.
pub(super) fn read_game(path: &str) -> Result<(GameRecord, usize), String> {
    let text = read_regular(path.as_ref()).map_err(|e| e.to_string())?;
    let mut records = GameRecord::parse_all(&text).map_err(|e| e.to_string())?;
    let count = records.len();
    Ok((records.swap_remove(0), count))
}
