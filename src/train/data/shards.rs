//! Shards: one run's games split by number over many runs, each shard's file written beside
//! it and renamed into place only once its games are all played.

use super::append::{set_count, whole_records};
use super::format::{Board, Count, HEADER};
use super::read::scan;
use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The hidden file beside a shard's `out` that its games are added to until they are all
/// played: `.NAME.partial`.
pub fn partial_path(out: &Path) -> Result<PathBuf, String> {
    let name = out
        .file_name()
        .ok_or_else(|| format!("{}: names no file", out.display()))?;
    let mut hidden = std::ffi::OsString::from(".");
    hidden.push(name);
    hidden.push(".partial");
    Ok(out.with_file_name(hidden))
}

/// How a shard's file stands when a run starts.
pub enum Shard {
    /// `out` holds every game of the range that gave positions: nothing to play.
    Finished { games: usize },
    /// Games are added to `file`, the partial file, already holding `done`.
    Writing {
        file: File,
        done: Vec<u32>,
        end: ShardEnd,
    },
}

/// What makes a partial file the shard's file once its games are played.
pub struct ShardEnd {
    board: Board,
    partial: PathBuf,
    out: PathBuf,
    /// The partial file began as a copy of `out`, which therefore stands unchanged when no
    /// game adds a position.
    copied: bool,
}

/// Opens the shard of games `range` written to `out`: a shard's file is only ever renamed
/// into place whole, its games gathered meanwhile in [`partial_path`], so a stopped run leaves
/// `out` as it was and the partial file to go on with. An existing `out` must be a finished
/// shard of `board` within `range` (a file of other games, another board, or no training file
/// is refused and left alone); one lacking games (a smaller shard of the same numbers) has
/// them added. A partial file is locked while it is written, so two runs of one shard do not
/// both add to it; taken up again, it loses its last game, which a stop may have cut short.
pub fn open_shard(out: &Path, board: Board, range: Range<u64>) -> Result<Shard, String> {
    let name = out.display();
    let existing = match std::fs::metadata(out) {
        Ok(m) if !m.is_file() => {
            return Err(format!(
                "{name}: not a regular file, so no shard is written there"
            ))
        }
        Ok(m) if m.len() == 0 => None,
        Ok(_) => {
            let held = scan(out, board, range.clone())?;
            if let Some(game) = held.outside {
                return Err(format!(
                    "{name} holds game {game}, not one of this shard's games {} to {}, so it is \
                     not replaced",
                    range.start,
                    range.end - 1
                ));
            }
            if held.count == Count::Open {
                return Err(format!(
                    "{name}: its header says it is still being written, so it is no finished \
                     shard and is not replaced"
                ));
            }
            Some(held)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let partial = partial_path(out)?;
    let pname = partial.display();
    let lock = |file: &File| match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(format!("{pname}: another run is writing this shard"))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{pname}: {e}")),
    };
    let end = |copied| ShardEnd {
        board,
        partial: partial.clone(),
        out: out.to_path_buf(),
        copied,
    };
    match std::fs::symlink_metadata(&partial) {
        Ok(m) if !m.is_file() => Err(format!(
            "{pname}: not a regular file, so no shard is written there"
        )),
        Ok(_) => {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .append(true)
                .open(&partial)
                .map_err(|e| format!("{pname}: {e}"))?;
            lock(&file)?;
            // The partial file is no file a user keeps: it is cut in place, under its lock.
            let cut = |file: &File, len: u64| {
                file.set_len(len)
                    .and_then(|()| file.sync_all())
                    .map_err(|e| format!("{pname}: {e}"))
            };
            let mut head = Vec::new();
            (&file)
                .take(HEADER as u64)
                .read_to_end(&mut head)
                .map_err(|e| format!("{pname}: {e}"))?;
            if head.len() < HEADER && board.header().starts_with(&head) {
                // Stopped while its header was written.
                cut(&file, 0)?;
                file.write_all(&board.header())
                    .map_err(|e| format!("{pname}: {e}"))?;
                return Ok(Shard::Writing {
                    file,
                    done: Vec::new(),
                    end: end(false),
                });
            }
            let refused = |e: String| format!("{e} (remove it to start this shard again)");
            let held = scan(&partial, board, range.clone()).map_err(refused)?;
            if let Some(game) = held.outside {
                return Err(refused(format!(
                    "{pname} holds game {game}, not one of this shard's games {} to {}",
                    range.start,
                    range.end - 1
                )));
            }
            if held.last_game_at < held.len {
                cut(&file, held.last_game_at)?;
            }
            let done = scan(&partial, board, range)?.games;
            Ok(Shard::Writing {
                file,
                done,
                end: end(false),
            })
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let done = existing.map(|held| held.games);
            if done.as_ref().map(Vec::len) == Some((range.end - range.start) as usize) {
                return Ok(Shard::Finished {
                    games: done.map_or(0, |d| d.len()),
                });
            }
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .append(true)
                .create_new(true)
                .open(&partial)
                .map_err(|e| format!("{pname}: {e}"))?;
            lock(&file)?;
            // The copy's header says it is being written; its count is set when it is done.
            let written = file.write_all(&board.header()).and_then(|()| match &done {
                Some(_) => File::open(out).and_then(|mut f| {
                    io::Seek::seek(&mut f, io::SeekFrom::Start(HEADER as u64))?;
                    io::copy(&mut f, &mut file).map(drop)
                }),
                None => Ok(()),
            });
            written.map_err(|e| format!("{pname}: {e}"))?;
            Ok(Shard::Writing {
                file,
                end: end(done.is_some()),
                done: done.unwrap_or_default(),
            })
        }
        Err(e) => Err(format!("{pname}: {e}")),
    }
}

impl ShardEnd {
    /// Makes the partial file, `file`, the shard's file: its records counted into its header,
    /// synced, then renamed over `out`. Where it began as a copy of `out` and `added` nothing,
    /// it is removed instead, and `out` stands as it was.
    pub fn finish(self, file: File, added: bool) -> Result<(), String> {
        let pname = self.partial.display();
        file.sync_all().map_err(|e| format!("{pname}: {e}"))?;
        // Renamed or removed while still locked, so no other run takes it up meanwhile.
        let done = if self.copied && !added {
            std::fs::remove_file(&self.partial).map_err(|e| format!("{pname}: {e}"))
        } else {
            // Counted from its length: every record in it was checked or written by a run.
            let len = file.metadata().map_err(|e| format!("{pname}: {e}"))?.len();
            let records = whole_records(&self.partial, self.board, len)?;
            set_count(&self.partial, records)?;
            std::fs::rename(&self.partial, &self.out)
                .map_err(|e| format!("{}: {e}", self.out.display()))
        };
        drop(file);
        done
    }
}
