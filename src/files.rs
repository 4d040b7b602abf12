//! The files a user keeps. Read whole with a cap on their size, so that a huge or endless one
//! (`/dev/zero`) is refused once past the cap rather than read until memory runs out, or read in
//! part without a word; written whole or not at all, through a temporary file renamed over the
//! old one, never over one of the command's inputs.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The bytes of the file at `path`, refused (`InvalidData`, naming `what` the file should be)
/// when there are more than `cap` of them. Reads no more than `cap + 1`.
pub fn read_capped(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    read_capped_from(std::fs::File::open(path)?, cap, what)
}

/// As [`read_capped`], from any reader: standard input.
pub fn read_capped_from(reader: impl Read, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("over {}, too large for {what}", size(cap)),
        ));
    }
    Ok(bytes)
}

/// The text of the file at `path`, as [`read_capped`], and refused (`InvalidData`) when it is
/// not UTF-8.
pub fn read_capped_text(path: &Path, cap: u64, what: &str) -> io::Result<String> {
    String::from_utf8(read_capped(path, cap, what)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// A file written whole or not at all: the bytes go to a temporary file beside `path`, which
/// [`AtomicFile::commit`] syncs and renames over `path`. Until then `path` keeps what it held, so
/// a crash, a full disk or a killed run never leaves half a file; dropped without a commit, the
/// temporary file is removed. A symbolic link at `path` is replaced, not written through, and
/// the mode of the file replaced is kept.
pub struct AtomicFile {
    path: PathBuf,
    temp: PathBuf,
    file: Option<io::BufWriter<File>>,
}

impl AtomicFile {
    /// Starts the replacement of `path`. Refused (`InvalidInput`) where `path` is something
    /// other than a regular file or a link: a folder, a device, a FIFO.
    /// A regular file the user may not write (see [`may_write`]) is refused
    /// (`PermissionDenied`) and left as it is.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let mode = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => None,
            Ok(m) if m.is_file() => {
                if !may_write(path, &m) {
                    return Err(io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        "write-protected, so not replaced (make it writable first)",
                    ));
                }
                Some(m.permissions())
            }
            Ok(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not a regular file, so not replaced",
                ))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "names no file"))?;
        static COUNT: AtomicU64 = AtomicU64::new(0);
        let (file, temp) = loop {
            let mut temp_name = std::ffi::OsString::from(".");
            temp_name.push(name);
            temp_name.push(format!(
                ".{}-{}.tmp",
                std::process::id(),
                COUNT.fetch_add(1, Ordering::Relaxed)
            ));
            let temp = dir.join(temp_name);
            match File::options().write(true).create_new(true).open(&temp) {
                Ok(file) => break (file, temp),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        };
        if let Some(mode) = mode {
            // Best effort: a mode that cannot be kept does not stop the write.
            let _ = file.set_permissions(mode);
        }
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temp,
            file: Some(io::BufWriter::new(file)),
        })
    }

    /// Flushes and syncs what was written, then renames it over the file it replaces. Where
    /// any step fails (a full disk fails the flush or the sync), the temporary file is removed
    /// and the old file stands.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("an uncommitted file is open");
        let renamed = file
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|file| file.sync_all())
            .and_then(|()| std::fs::rename(&self.temp, &self.path));
        if renamed.is_err() {
            let _ = std::fs::remove_file(&self.temp);
        }
        renamed
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file
            .as_mut()
            .expect("an uncommitted file is open")
            .write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file
            .as_mut()
            .expect("an uncommitted file is open")
            .flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Whether the user may write the regular file at `path` (`meta`, its metadata): a file
/// renamed over is never opened for writing, so without this a write-protected file would be
/// replaced where `cp` refuses. The owner's own mode bits decide for a file the user owns, even
/// for root (as `rm` asks before removing a write-protected file); otherwise the system says.
fn may_write(path: &Path, meta: &std::fs::Metadata) -> bool {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    if meta.uid() == unsafe { libc::geteuid() } {
        return meta.mode() & 0o200 != 0;
    }
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return true;
    };
    // SAFETY: `name` is a NUL-terminated string that outlives the call.
    unsafe { libc::access(name.as_ptr(), libc::W_OK) == 0 }
}

/// Replaces the file at `path` with `bytes`, whole or not at all (see [`AtomicFile`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// Cuts the file at `path` back to its first `len` bytes, whole or not at all: the bytes kept
/// are copied to a temporary file renamed over it (see [`AtomicFile`]), so a crash while cutting
/// leaves the file as it was. For the files that grow by appending (solve journals, the
/// perfect-play cache, training data), whose torn last entry is cut before they grow again.
pub fn cut_to(path: &Path, len: u64) -> io::Result<()> {
    let mut kept = AtomicFile::create(path)?;
    let copied = io::copy(&mut File::open(path)?.take(len), &mut kept)?;
    if copied != len {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "shorter than when it was read",
        ));
    }
    kept.commit()
}

/// Whether `a` and `b` name one file (the same device and inode, through links and other
/// spellings of the path). A path that does not exist names no file yet.
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Refuses (`InvalidInput`) an output that is one of the inputs: writing it would destroy what
/// is being read.
pub fn refuse_output_over_input<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> io::Result<()> {
    for input in inputs {
        if same_file(output, input) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is also an input: the output must be another file",
                    output.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Why a file that is there is not replaced by a file of the kind a command writes.
#[derive(Debug)]
pub enum NotReplaced {
    /// It could not be looked at.
    Io(io::Error),
    /// A pipe, a device or a folder: never opened, lest reading it wait for a writer.
    NotRegular,
    /// What it is instead, as the caller's check says.
    Foreign(String),
}

/// Whether the file at `path` may be replaced by a file of the kind written: none there, or a
/// regular file whose first `head` bytes `foreign` accepts (it says why not, else `None`; an
/// empty file shows it no bytes).
pub fn check_replaceable(
    path: &Path,
    head: u64,
    foreign: impl FnOnce(&[u8]) -> Option<String>,
) -> Result<(), NotReplaced> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(NotReplaced::Io(e)),
    };
    if !meta.is_file() {
        return Err(NotReplaced::NotRegular);
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(head).read_to_end(&mut bytes))
        .map_err(NotReplaced::Io)?;
    match foreign(&bytes) {
        Some(why) => Err(NotReplaced::Foreign(why)),
        None => Ok(()),
    }
}

/// A lock two runs take in turn before they write one file (a journal, a book, a job's
/// work), held until dropped; the system drops it too when the process ends, however it ends.
/// It is taken on a file of its own beside the one it guards, `.NAME.lock`, never renamed nor
/// removed: the guarded file is replaced by renaming, and a lock on it would stay behind on
/// the file renamed away while a newcomer locked the new one.
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

/// Who else may hold a [`FileLock`] at the same time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockKind {
    /// No one: one writer.
    Exclusive,
    /// Others of the same kind: runs that each write their own part, kept out only by an
    /// exclusive holder.
    Shared,
}

impl FileLock {
    /// The lock file guarding `path`.
    pub fn path_for(path: &Path) -> PathBuf {
        let mut name = std::ffi::OsString::from(".");
        name.push(path.file_name().unwrap_or(path.as_os_str()));
        name.push(".lock");
        path.with_file_name(name)
    }

    fn open(path: &Path) -> io::Result<File> {
        File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(Self::path_for(path))
    }

    /// The lock guarding `path`, or `None` while another run holds it.
    pub fn try_take(path: &Path, kind: LockKind) -> io::Result<Option<FileLock>> {
        let file = Self::open(path)?;
        let taken = match kind {
            LockKind::Exclusive => file.try_lock(),
            LockKind::Shared => file.try_lock_shared(),
        };
        match taken {
            Ok(()) => Ok(Some(FileLock { _file: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }

    /// The exclusive lock guarding `path`, waited for while another run holds it; `waiting`
    /// is called once before the wait, to say so.
    pub fn take(path: &Path, waiting: impl FnOnce()) -> io::Result<FileLock> {
        if let Some(lock) = Self::try_take(path, LockKind::Exclusive)? {
            return Ok(lock);
        }
        waiting();
        let file = Self::open(path)?;
        file.lock()?;
        Ok(FileLock { _file: file })
    }
}

/// `bytes` in the largest binary unit that divides it.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_only_when_missing_or_of_the_kind_written() {
        let dir = std::env::temp_dir().join(format!("othello-replace-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out");
        let _ = fs::remove_file(&path);
        let weights = |head: &[u8]| {
            (!head.is_empty() && !head.starts_with(b"W")).then(|| "not W".to_string())
        };
        assert!(check_replaceable(&path, 8, weights).is_ok(), "missing");
        fs::write(&path, b"").unwrap();
        assert!(check_replaceable(&path, 8, weights).is_ok(), "empty");
        fs::write(&path, b"W123456789").unwrap();
        assert!(check_replaceable(&path, 8, |h| (h != b"W1234567").then(String::new)).is_ok());
        fs::write(&path, b"text").unwrap();
        assert!(matches!(
            check_replaceable(&path, 8, weights),
            Err(NotReplaced::Foreign(why)) if why == "not W"
        ));
        assert!(matches!(
            check_replaceable(&dir, 8, weights),
            Err(NotReplaced::NotRegular)
        ));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_over_its_cap_or_not_text_is_refused_whole() {
        let path = std::env::temp_dir().join(format!("othello-capped-{}.txt", std::process::id()));
        std::fs::write(&path, "12345678\n").unwrap();
        assert_eq!(read_capped_text(&path, 9, "a test").unwrap(), "12345678\n");
        let over = read_capped_text(&path, 8, "a test").unwrap_err();
        std::fs::write(&path, b"\xff\n").unwrap();
        let binary = read_capped_text(&path, 8, "a test").unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(over.to_string(), "over 8 bytes, too large for a test");
        assert_eq!(binary.to_string(), "not UTF-8 text");
        for e in [over, binary] {
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
        }
    }

    #[test]
    fn a_file_is_replaced_whole_or_left_as_it_was() {
        let dir = std::env::temp_dir().join(format!("othello-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("kept.txt");
        std::fs::write(&path, "old\n").unwrap();
        // Dropped before its commit: the old file stands and no temporary file is left.
        let mut half = AtomicFile::create(&path).unwrap();
        half.write_all(b"half").unwrap();
        drop(half);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        write_atomic(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        // A link is replaced by the file, and what it pointed to is untouched.
        let target = dir.join("target.txt");
        std::fs::write(&target, "target\n").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomic(&link, b"saved\n").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "target\n");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "saved\n");
        assert!(!std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        // A commit that fails leaves no temporary file: here the rename, as the target became
        // a folder meanwhile (a full disk fails the flush or the sync the same way).
        let late = dir.join("late.txt");
        let mut written = AtomicFile::create(&late).unwrap();
        written.write_all(b"late\n").unwrap();
        std::fs::create_dir(&late).unwrap();
        std::fs::write(late.join("inside"), "x").unwrap();
        assert!(written.commit().is_err());
        std::fs::remove_dir_all(&late).unwrap();
        // Not a regular file: a folder is not replaced.
        let refused = write_atomic(&dir, b"x").unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::InvalidInput);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 3, "no temporary file is left: {names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_is_cut_through_a_copy_not_in_place() {
        let dir = std::env::temp_dir().join(format!("othello-cut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("log.txt");
        std::fs::write(&path, "one\ntwo\nthr").unwrap();
        // A handle on the old file sees it whole: the cut is a new file, not a truncation.
        let mut old = File::open(&path).unwrap();
        cut_to(&path, 8).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        let mut before = String::new();
        old.read_to_string(&mut before).unwrap();
        assert_eq!(before, "one\ntwo\nthr");
        let longer = cut_to(&path, 100).unwrap_err();
        assert_eq!(longer.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file is left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_output_that_is_an_input_is_refused() {
        let dir = std::env::temp_dir().join(format!("othello-same-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.txt");
        std::fs::write(&input, "x").unwrap();
        let other_spelling = dir.join(".").join("in.txt");
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        for output in [&input, &other_spelling, &link] {
            let e = refuse_output_over_input(output, [input.as_path()]).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        }
        assert!(refuse_output_over_input(&dir.join("new.txt"), [input.as_path()]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_is_held_by_one_run_at_a_time_beside_its_file() {
        let dir = std::env::temp_dir().join(format!("othello-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("kept.txt");
        assert_eq!(FileLock::path_for(&path), dir.join(".kept.txt.lock"));
        let held = FileLock::try_take(&path, LockKind::Exclusive)
            .unwrap()
            .unwrap();
        // flock locks belong to the open file, so a second opening in one process is refused
        // as another process would be.
        assert!(FileLock::try_take(&path, LockKind::Exclusive)
            .unwrap()
            .is_none());
        assert!(FileLock::try_take(&path, LockKind::Shared)
            .unwrap()
            .is_none());
        // The guarded file replaced by renaming keeps its lock: the lock is beside it.
        write_atomic(&path, b"new\n").unwrap();
        assert!(FileLock::try_take(&path, LockKind::Exclusive)
            .unwrap()
            .is_none());
        let (told, waits) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn({
            let path = path.clone();
            move || drop(FileLock::take(&path, || told.send(()).unwrap()).unwrap())
        });
        waits.recv().expect("the wait is told");
        drop(held);
        waiter.join().unwrap();
        let a = FileLock::try_take(&path, LockKind::Shared)
            .unwrap()
            .unwrap();
        let b = FileLock::try_take(&path, LockKind::Shared)
            .unwrap()
            .unwrap();
        assert!(FileLock::try_take(&path, LockKind::Exclusive)
            .unwrap()
            .is_none());
        drop((a, b));
        assert!(FileLock::try_take(&path, LockKind::Exclusive)
            .unwrap()
            .is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn caps_are_named_in_their_largest_whole_unit() {
        assert_eq!(size(64 << 20), "64 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(1536 << 10), "1536 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
