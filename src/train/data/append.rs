//! Adding records to a training file: the file locked for the run, a torn last record cut,
//! and the header's count kept true once the run ends.

use super::format::{Board, Count, COUNT_AT, HEADER, OPEN};
use super::read::scan;
use crate::files::{FileLock, LockKind};
use std::fs::File;
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Opens `path` for adding records: a new (or empty) file gets the header; an existing one
/// must be a version 2 training file for `board`, whose records are all checked (and, for a
/// finished file, counted against its header), and loses a torn last record. Anything else
/// (another file, a folder, a pipe) is refused and left as it was. The file is locked for the
/// run (`.NAME.lock` beside it), so that two runs do not add to it at once. Returns the file,
/// which of the games `range` it already holds, in order, and what keeps its count.
pub fn open_for_append(
    path: &Path,
    board: Board,
    range: Range<u64>,
) -> Result<(File, Vec<u32>, Appending), String> {
    let name = || path.display();
    let appending = |lock, open| Appending {
        path: path.to_path_buf(),
        board,
        open,
        _lock: lock,
    };
    let lock = || match FileLock::try_take(path, LockKind::Exclusive) {
        Ok(Some(lock)) => Ok(lock),
        Ok(None) => Err(format!("{}: another run is adding to it", name())),
        Err(e) => Err(format!("{}: {e}", FileLock::path_for(path).display())),
    };
    let len = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(format!(
                "{}: not a regular file, so no training file is written there",
                name()
            ))
        }
        Ok(m) => m.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let lock = lock()?;
            // Created only if still absent: an existing file is never truncated.
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", name()))?;
            let (file, done) = start(path, file, board)?;
            return Ok((file, done, appending(lock, true)));
        }
        Err(e) => return Err(format!("{}: {e}", name())),
    };
    let lock = lock()?;
    if len == 0 {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", name()))?;
        let (file, done) = start(path, file, board)?;
        return Ok((file, done, appending(lock, true)));
    }
    // Only the games asked for are kept, so a large file is scanned in little memory.
    let held = scan(path, board, range)?;
    // A torn last record is cut through a copy renamed over the file, never in place.
    if held.whole < held.len {
        crate::files::cut_to(path, held.whole).map_err(|e| format!("{}: {e}", name()))?;
    }
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", name()))?;
    Ok((file, held.games, appending(lock, held.count == Count::Open)))
}

/// A training file that a run adds to: what sets its count once the run is done.
#[derive(Debug)]
pub struct Appending {
    path: PathBuf,
    board: Board,
    /// Whether its header says it is still being written (new, or left so by a stopped run).
    open: bool,
    _lock: FileLock,
}

impl Appending {
    /// Marks the file as being written, before the first record is added: a run stopped from
    /// here on leaves it so, and the next run counts its records again.
    pub fn begin(&mut self) -> Result<(), String> {
        if !self.open {
            set_count(&self.path, OPEN)?;
            self.open = true;
        }
        Ok(())
    }

    /// Sets the count of a file being written to its records, once `file` (the file added
    /// to) is synced; a file left as it was keeps its count.
    pub fn finish(self, file: &File) -> Result<(), String> {
        if !self.open {
            return Ok(());
        }
        let name = self.path.display();
        file.sync_all().map_err(|e| format!("{name}: {e}"))?;
        let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
        set_count(&self.path, whole_records(&self.path, self.board, len)?)
    }
}

/// The records of a file of `board` that is `len` bytes long, refused where they are not whole
/// (a write cut short).
pub(super) fn whole_records(path: &Path, board: Board, len: u64) -> Result<u64, String> {
    let body = len.saturating_sub(HEADER as u64);
    let record = board.record_len() as u64;
    if len < HEADER as u64 || !body.is_multiple_of(record) {
        return Err(format!(
            "{}: ends in a torn record after its run, so its count is not set",
            path.display()
        ));
    }
    Ok(body / record)
}

/// Writes `count` into the header of the training file at `path`, in place: the file is being
/// written by this run under its lock, and the count is one field of fixed length.
pub(super) fn set_count(path: &Path, count: u64) -> Result<(), String> {
    use std::io::{Seek, SeekFrom};
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.seek(SeekFrom::Start(COUNT_AT as u64))
        .and_then(|_| file.write_all(&count.to_le_bytes()))
        .and_then(|()| file.sync_data())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes the header of a new training file, still empty, opened for appending.
fn start(path: &Path, mut file: File, board: Board) -> Result<(File, Vec<u32>), String> {
    // An empty file that filled between the look and the opening is left alone.
    if file.metadata().map(|m| m.len()).unwrap_or(1) != 0 {
        return Err(format!("{}: changed while being opened", path.display()));
    }
    file.write_all(&board.header())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((file, Vec::new()))
}
