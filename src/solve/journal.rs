//! The file of a solve journal (format: [`crate::notation::JournalLine`]): read into the
//! solver's [`Journal`] before a solve, and added to, a line at a time, as the solve proves
//! bounds, so that a solve stopped by its time limit or killed goes on where it was when the
//! same command runs again.

use crate::files::{self, AtomicFile, FileLock};
use crate::lines::{list_entry, MAX_LINE};
use crate::notation::{JournalLine, PositionString};
use crate::rules::{Bits, Position, Rules, Shape, Square};
use crate::search::{Bounds, Journal};
use crate::wording::Signed;
use anyhow::{bail, Context};
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The smallest search, in nodes, whose bound is written down: about a tenth of a second, so
/// that a journal grows by a few lines a second at most and a stop loses little.
pub const JOURNAL_MIN_NODES: u64 = 1 << 23;

/// The size past which the plain file's lines go into the journal's sealed part, compressed,
/// when the next run opens it: a journal of long solves grows by tens of megabytes a run.
pub const SEAL_BYTES: u64 = 1 << 20;

/// The work of the earlier solves a journal records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Earlier {
    pub runs: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A journal file opened for a solve, held under its lock (see [`FileLock`]) until dropped, so
/// that two runs of one solve (a job run twice by a requeue, a command started twice) take
/// turns rather than interleave their lines.
pub struct JournalFile<B> {
    writer: Arc<Mutex<Writer>>,
    _lock: Option<FileLock>,
    pub journal: Arc<Journal<B>>,
    pub earlier: Earlier,
}

/// Where a journal's lines go.
struct Writer {
    path: PathBuf,
    /// `None` until the first line is written, when the journal was opened without its file.
    file: Option<File>,
    /// The board line, to write before the first line of a file not made yet.
    board: Option<String>,
    /// The lines held back, and until when, by a journal opened with
    /// [`JournalFile::open_when_needed`].
    held: Option<(Instant, String)>,
    /// The first write that failed, if one did: told once the solve ends.
    failed: Option<std::io::Error>,
}

impl Writer {
    /// Adds `line` (with its newline), held back while the journal holds lines back.
    fn add(&mut self, line: &str) {
        if let Some((until, held)) = &mut self.held {
            held.push_str(line);
            if Instant::now() < *until {
                return;
            }
            let held = std::mem::take(held);
            self.held = None;
            self.write(&held);
        } else {
            self.write(line);
        }
    }

    /// Writes `text` (whole lines) in one write, making the file first if need be.
    fn write(&mut self, text: &str) {
        if self.failed.is_some() {
            return;
        }
        let written = self
            .file_now()
            .and_then(|file| file.write_all(text.as_bytes()));
        if let Err(e) = written {
            self.failed = Some(e);
        }
    }

    fn file_now(&mut self) -> std::io::Result<&mut File> {
        if self.file.is_none() {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)?;
            if let Some(board) = self.board.take() {
                file.write_all(board.as_bytes())?;
            }
            self.file = Some(file);
        }
        Ok(self.file.as_mut().expect("made above"))
    }
}

/// How long a journal opened with [`JournalFile::open_when_needed`] holds its lines back.
const HOLD_BACK: Duration = Duration::from_secs(1);

impl<B: Bits> JournalFile<B> {
    /// Opens (or starts) the journal at `path` for solves under `rules`: its bounds go into a
    /// new [`Journal`] whose new bounds are added to the file as they come. A last line cut
    /// short (the run was killed as it wrote) is removed, and the lines of earlier runs go into
    /// the sealed part once they pass [`SEAL_BYTES`].
    ///
    /// Another run holding the journal is waited for, said once on stderr. A journal damaged
    /// within (a line that does not read, or contradicts another) is set aside, renamed, and the
    /// solve starts a new one: its bounds would only have saved time, and refusing it would stop
    /// every later run of the solve for good.
    pub fn open(path: &Path, rules: &Rules<B>) -> anyhow::Result<JournalFile<B>> {
        let name = path.display();
        let lock = FileLock::take(path, || {
            let _ = writeln!(
                std::io::stderr(),
                "othello: {name} is in use by another run; waiting for it"
            );
        })
        .with_context(|| format!("cannot lock {name}"))?;
        let mut file = Self::open_unlocked(path, rules)?;
        file._lock = Some(lock);
        file.writer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .file_now()
            .with_context(|| format!("cannot write {name}"))?;
        Ok(file)
    }

    /// As [`JournalFile::open`], for a caller that keeps every other run away (a coordinator
    /// holding its folder): no lock, and the lines held back for the solve's first second
    /// ([`HOLD_BACK`]), then written; a solve that ends sooner leaves no file (its result is
    /// kept elsewhere), one stopped sooner its lines. This spares two files for each of the
    /// many solves of a few milliseconds.
    pub fn open_when_needed(path: &Path, rules: &Rules<B>) -> anyhow::Result<JournalFile<B>> {
        let file = Self::open_unlocked(path, rules)?;
        file.writer.lock().unwrap_or_else(|e| e.into_inner()).held =
            Some((Instant::now() + HOLD_BACK, String::new()));
        Ok(file)
    }

    fn open_unlocked(path: &Path, rules: &Rules<B>) -> anyhow::Result<JournalFile<B>> {
        let name = path.display();
        let contents = match read(path, rules) {
            Ok(contents) => contents,
            Err(Unread::Refused(e)) => return Err(e),
            Err(Unread::Damaged(e)) => {
                let aside = set_aside(path).with_context(|| {
                    format!("{e:#}; and the damaged journal cannot be set aside")
                })?;
                let _ = writeln!(
                    std::io::stderr(),
                    "othello: {e:#}: the damaged journal is set aside as {aside} and the solve \
                     goes on without it"
                );
                read(path, rules).map_err(Unread::into_inner)?
            }
        };
        let Contents {
            journal,
            earlier,
            whole,
            first,
            board,
            ..
        } = contents;
        let cannot_write = || format!("cannot write {name}");
        // The file is only ever added to; a torn last line and the lines sealed away are cut
        // through a copy renamed over it, never in place.
        if std::fs::metadata(path).is_ok_and(|m| m.len() > whole) {
            files::cut_to(path, whole).with_context(cannot_write)?;
        }
        if whole >= SEAL_BYTES {
            seal(path, whole).with_context(|| format!("cannot seal {name}"))?;
            files::write_atomic(path, b"").with_context(cannot_write)?;
        }
        let file = match path.exists() {
            true => Some(
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .with_context(cannot_write)?,
            ),
            false => None,
        };
        let writer = Arc::new(Mutex::new(Writer {
            path: path.to_path_buf(),
            file,
            board: first.then(|| format!("{board}\n")),
            held: None,
            failed: None,
        }));
        let geometry = rules.geometry.clone();
        let sink = Arc::clone(&writer);
        let journal = journal.with_sink(Box::new(move |pos, b: Bounds| {
            let line = JournalLine::Bounds {
                position: PositionString::from_position(&geometry, pos),
                low: b.low,
                high: b.high,
            };
            // One write a line, so a killed run leaves at most its last line cut short.
            let mut writer = sink.lock().unwrap_or_else(|e| e.into_inner());
            writer.add(&format!("{line}\n"));
        }));
        Ok(JournalFile {
            writer,
            _lock: None,
            journal: Arc::new(journal),
            earlier,
        })
    }

    /// Writes down what this solve did: nothing, for a solve that held its lines back and
    /// ended sooner. A journal that could not be written is told on stderr in one line, and
    /// the solve's result stands: only what a next run could skip is lost.
    pub fn finish(&mut self, nodes: u64, elapsed: Duration, solved: bool) {
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, held)) = writer.held.take() {
            if solved {
                return;
            }
            writer.write(&held);
        }
        let line = JournalLine::Run {
            nodes,
            seconds: elapsed.as_secs_f64(),
            solved,
        };
        writer.add(&format!("{line}\n"));
        if let Some(e) = writer.failed.take() {
            let _ = writeln!(
                std::io::stderr(),
                "othello: cannot write {} ({e}): bounds of this run may be missing",
                writer.path.display()
            );
        }
    }
}

/// What a journal file holds.
struct Contents<B> {
    journal: Journal<B>,
    earlier: Earlier,
    /// Bytes of whole lines in the plain file: a last line cut short (the run was killed as it
    /// wrote) ends there.
    whole: u64,
    /// No board line yet (no file, or only comments).
    first: bool,
    /// The board line of these rules.
    board: JournalLine,
    shape: Shape,
}

impl<B: Bits> Contents<B> {
    /// Takes line `n` of the file named `name`.
    fn take(&mut self, name: &str, n: usize, text: &str) -> Result<(), Unread> {
        let Some(text) = list_entry(text) else {
            return Ok(());
        };
        let line: JournalLine = match text.parse() {
            Ok(line) => line,
            // Before its board line, the file is not known to be a journal at all.
            Err(e) if self.first => {
                return Err(Unread::Refused(anyhow::anyhow!(
                    "{name}: line {n}: {e}; it is not a solve journal and is left as it is"
                )))
            }
            Err(e) => return Err(Unread::Damaged(anyhow::anyhow!("{name}: line {n}: {e}"))),
        };
        match line {
            JournalLine::Board { .. } if self.first && line == self.board => {}
            JournalLine::Board { .. } if self.first => {
                return Err(Unread::Refused(anyhow::anyhow!(
                    "{name} is the journal of {}, not of {}",
                    &line.to_string()["board ".len()..],
                    &self.board.to_string()["board ".len()..]
                )))
            }
            _ if self.first => {
                return Err(Unread::Refused(anyhow::anyhow!(
                    "{name}: line {n}: a journal starts with its board"
                )))
            }
            _ => self.take_line(name, n, line).map_err(Unread::Damaged)?,
        }
        self.first = false;
        Ok(())
    }

    /// Takes line `n`, `line`, of a file known to be a journal (its board line read).
    fn take_line(&mut self, name: &str, n: usize, line: JournalLine) -> anyhow::Result<()> {
        match line {
            JournalLine::Board { .. } => bail!("{name}: line {n}: a second board"),
            JournalLine::Bounds {
                position,
                low,
                high,
            } => {
                if position.shape() != self.shape {
                    bail!("{name}: line {n}: the position is not {}", self.shape);
                }
                let bounds = Bounds { low, high };
                if let Err(known) = self.journal.insert(&position.position::<B>(), bounds) {
                    bail!(
                        "{name}: line {n}: {low} {high} contradicts the bounds {} {} read \
                         before for that position",
                        known.low,
                        known.high
                    );
                }
            }
            JournalLine::Run { nodes, seconds, .. } => {
                // Each line is bounded when read; their sum is checked, so that a damaged
                // journal is refused rather than wrapped or overflowed.
                let earlier = &mut self.earlier;
                let (Some(runs), Some(nodes), Some(elapsed)) = (
                    earlier.runs.checked_add(1),
                    earlier.nodes.checked_add(nodes),
                    Duration::try_from_secs_f64(seconds)
                        .ok()
                        .and_then(|s| earlier.elapsed.checked_add(s)),
                ) else {
                    bail!("{name}: line {n}: the runs add up to more work than can be counted");
                };
                *earlier = Earlier {
                    runs,
                    nodes,
                    elapsed,
                };
            }
        }
        Ok(())
    }
}

/// Why a journal was not read.
enum Unread {
    /// The file is a journal, damaged within: it may be set aside.
    Damaged(anyhow::Error),
    /// The file is no journal of this solve, or cannot be read: it is left alone.
    Refused(anyhow::Error),
}

impl Unread {
    fn into_inner(self) -> anyhow::Error {
        match self {
            Unread::Damaged(e) | Unread::Refused(e) => e,
        }
    }
}

impl From<anyhow::Error> for Unread {
    fn from(e: anyhow::Error) -> Unread {
        Unread::Refused(e)
    }
}

/// Renames the journal at `path` and its sealed part, if it has one, out of the way: to the
/// first of `NAME.damaged`, `NAME.damaged-2`, ... free for both. Returns the new name of the
/// plain file.
fn set_aside(path: &Path) -> std::io::Result<String> {
    let sealed = sealed_path(path);
    let aside = |p: &Path, k: u32| {
        let mut name = p.as_os_str().to_owned();
        name.push(if k == 1 {
            ".damaged".to_string()
        } else {
            format!(".damaged-{k}")
        });
        PathBuf::from(name)
    };
    let k = (1..)
        .find(|&k| !aside(path, k).exists() && !aside(&sealed, k).exists())
        .expect("a free name among endless ones");
    if sealed.exists() {
        std::fs::rename(&sealed, aside(&sealed, k))?;
    }
    if path.exists() {
        std::fs::rename(path, aside(path, k))?;
    }
    Ok(aside(path, k).display().to_string())
}

/// The sealed part of the journal at `path`: the lines of its earlier runs, compressed.
fn sealed_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".gz");
    PathBuf::from(name)
}

/// Adds the first `whole` bytes of the plain file at `path` to its sealed part, compressed as one
/// more gzip member, through a copy that replaces the sealed part once it is written out; the
/// caller then empties the plain file. A run killed between the two leaves those lines in both,
/// which is harmless: bounds read twice agree, and only the tally of earlier runs counts them
/// twice.
fn seal(path: &Path, whole: u64) -> std::io::Result<()> {
    let sealed = sealed_path(path);
    let mut next = AtomicFile::create(&sealed)?;
    if let Some(mut old) = open_if_there(&sealed)? {
        std::io::copy(&mut old, &mut next)?;
    }
    let mut member = GzEncoder::new(next, Compression::best());
    std::io::copy(&mut File::open(path)?.take(whole), &mut member)?;
    member.finish()?.commit()
}

/// Reads `input`'s lines, each into `take` with its number, and returns the bytes of whole
/// lines and whether a last line without its newline was left out.
fn read_lines(
    mut input: impl BufRead,
    name: &str,
    sealed: bool,
    mut take: impl FnMut(usize, &str) -> Result<(), Unread>,
) -> Result<(u64, bool), Unread> {
    let mut whole = 0u64;
    let mut bytes = Vec::new();
    for n in 1.. {
        bytes.clear();
        let got = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| {
                // A sealed part that does not decompress is damage; a file that cannot be
                // read at all is not.
                let e = anyhow::Error::from(e).context(format!("cannot read {name}"));
                if sealed {
                    Unread::Damaged(e)
                } else {
                    Unread::Refused(e)
                }
            })?;
        if got == 0 || bytes.last() != Some(&b'\n') {
            if bytes.len() > MAX_LINE {
                let e = anyhow::anyhow!("{name}: line {n} is over {MAX_LINE} bytes");
                return Err(if sealed || n > 1 {
                    Unread::Damaged(e)
                } else {
                    Unread::Refused(e)
                });
            }
            return Ok((whole, got > 0));
        }
        whole += got as u64;
        take(n, &String::from_utf8_lossy(&bytes))?;
    }
    unreachable!("the lines of a file are counted without end")
}

/// Reads the journal at `path` of solves under `rules`: its sealed part first, if it has one,
/// then the plain file; none yet is an empty journal.
fn read<B: Bits>(path: &Path, rules: &Rules<B>) -> Result<Contents<B>, Unread> {
    let shape = Shape::new(rules.geometry.rows(), rules.geometry.cols())
        .context("the board of a solve has a valid shape")?;
    let mut contents = Contents {
        journal: Journal::new(&rules.geometry, JOURNAL_MIN_NODES),
        earlier: Earlier::default(),
        whole: 0,
        first: true,
        board: JournalLine::Board {
            shape,
            variant: rules.variant,
        },
        shape,
    };
    let sealed = sealed_path(path);
    let name = sealed.display().to_string();
    if let Some(file) = open_if_there(&sealed).with_context(|| format!("cannot read {name}"))? {
        let input = BufReader::new(MultiGzDecoder::new(BufReader::new(file)));
        let (_, cut_short) =
            read_lines(input, &name, true, |n, text| contents.take(&name, n, text))?;
        // Sealing writes whole lines only, so a line cut short there is damage.
        if cut_short {
            return Err(Unread::Damaged(anyhow::anyhow!(
                "{name} ends inside a line"
            )));
        }
    }
    let name = path.display().to_string();
    if let Some(file) = open_if_there(path).with_context(|| format!("cannot read {name}"))? {
        let input = BufReader::new(file);
        let cut_short;
        (contents.whole, cut_short) =
            read_lines(input, &name, false, |n, text| contents.take(&name, n, text))?;
        // A line cut short is dropped only from a file known to be a journal: any other file
        // (one unfinished line of something else) is not the program's to shorten.
        if cut_short && contents.first {
            return Err(Unread::Refused(anyhow::anyhow!(
                "{name} is not a solve journal (its first line is not a board line such as \
                 \"{}\"); it is left as it is",
                contents.board
            )));
        }
    }
    Ok(contents)
}

/// The file at `path` opened to read; `None` where there is none.
fn open_if_there(path: &Path) -> std::io::Result<Option<File>> {
    match File::open(path) {
        Ok(file) => Ok(Some(file)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The journal at `path` of solves under `rules`, only to read; `None` when there is none.
pub fn load<B: Bits>(path: &Path, rules: &Rules<B>) -> anyhow::Result<Option<Journal<B>>> {
    if !path.exists() && !sealed_path(path).exists() {
        return Ok(None);
    }
    Ok(Some(read(path, rules).map_err(Unread::into_inner)?.journal))
}

/// Moves ahead of a position that [`Proved::of`] looks through a journal: enough to combine the
/// values a stopped solve proved for the first moves and the replies to them.
const PROOF_PLIES: u32 = 3;

/// What a journal proves of the value of a position not yet solved, for its side to move (in
/// the discs it wants: fewer under misère).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proved {
    /// Cells on the board: a bound of that many discs says nothing.
    pub cells: usize,
    pub value: Bounds,
    /// The value of each move, by square, ordered by column then row.
    pub moves: Vec<(Square, Bounds)>,
}

impl Proved {
    /// What `journal` proves of `pos` under `rules` (see [`Journal::proved_with_moves`]).
    pub fn of<B: Bits>(journal: &Journal<B>, rules: &Rules<B>, pos: &Position<B>) -> Proved {
        let (value, moves) = journal.proved_with_moves(rules, pos, PROOF_PLIES);
        let mut moves: Vec<(Square, Bounds)> = moves
            .into_iter()
            .map(|(m, bounds)| (rules.geometry.square(m), bounds))
            .collect();
        moves.sort_by_key(|&(sq, _)| (sq.col, sq.row));
        Proved {
            cells: rules.geometry.cell_count(),
            value,
            moves,
        }
    }

    /// The same, seen from the other side.
    pub fn turned_over(&self) -> Proved {
        Proved {
            cells: self.cells,
            value: self.value.turned_over(),
            moves: self
                .moves
                .iter()
                .map(|&(sq, b)| (sq, b.turned_over()))
                .collect(),
        }
    }

    /// [`Proved::text`] on one line: the value, then the moves in brackets, or whichever of
    /// them says anything.
    pub fn line(&self) -> Option<String> {
        match self.text() {
            (Some(value), Some(moves)) => Some(format!("{value} ({moves})")),
            (value, moves) => value.or(moves),
        }
    }

    /// The value in words (`at least +11`, `at most -2`, `+9 to +11`, `+11`), if the bounds
    /// say anything; then each move whose bounds do (`c1 +11, d1 at most +9`), if any.
    pub fn text(&self) -> (Option<String>, Option<String>) {
        let moves: Vec<String> = self
            .moves
            .iter()
            .filter_map(|&(sq, b)| bounds_text(b, self.cells).map(|text| format!("{sq} {text}")))
            .collect();
        (
            bounds_text(self.value, self.cells),
            (!moves.is_empty()).then(|| moves.join(", ")),
        )
    }
}

/// A value lying in `b` on a board of `cells` cells, in words, if the bounds say anything.
fn bounds_text(b: Bounds, cells: usize) -> Option<String> {
    let most = cells as i32;
    match (b.low > -most, b.high < most) {
        _ if b.low == b.high => Some(Signed(b.low).to_string()),
        (true, true) => Some(format!("{} to {}", Signed(b.low), Signed(b.high))),
        (true, false) => Some(format!("at least {}", Signed(b.low))),
        (false, true) => Some(format!("at most {}", Signed(b.high))),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Variant};
    use crate::search::{Config, Engine};

    /// A journal opened when needed (a coordinator's job) leaves no file for a solve that ends
    /// within its first second, and writes what it held back for one stopped sooner, so that
    /// a run started again goes on from it.
    #[test]
    fn a_journal_opened_when_needed_is_written_only_for_a_stopped_solve() {
        let dir = std::env::temp_dir().join(format!("othello-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::<u64>::new(Shape::new(4, 4).unwrap(), Variant::default()).unwrap();
        let start = rules.start(Color::Black, Color::White);
        let solve = |path: &Path, solved: bool| {
            let mut file = JournalFile::open_when_needed(path, &rules).unwrap();
            let mut engine = Engine::new(rules.clone(), Config::default());
            engine.keep_journal(Some(Arc::clone(&file.journal)));
            let value = engine.solve_window_within(&start, -17, 17, None).unwrap();
            file.finish(engine.nodes(), Duration::ZERO, solved);
            value.score
        };

        let solved = dir.join("solved.journal");
        solve(&solved, true);
        assert!(
            !solved.exists(),
            "a solve that ended at once leaves no journal"
        );

        let stopped = dir.join("stopped.journal");
        let value = solve(&stopped, false);
        let text = std::fs::read_to_string(&stopped).unwrap();
        assert!(text.starts_with("board 4x4 "), "{text}");
        assert!(text.lines().last().unwrap().ends_with(" stopped"), "{text}");
        let journal = load(&stopped, &rules).unwrap().unwrap();
        let root = Bounds {
            low: value,
            high: value,
        };
        assert_eq!(journal.proved(&rules, &start, 0), root);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
