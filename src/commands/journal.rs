//! The file of a solve journal (format: [`crate::notation::JournalLine`]): read into the
//! solver's [`Journal`] before a solve, and added to, a line at a time, as the solve proves
//! bounds, so that a solve stopped by its time limit or killed goes on where it was when the
//! same command runs again.

use crate::notation::{JournalLine, PositionString};
use crate::protocols::MAX_LINE;
use crate::rules::{Bits, Rules, Shape};
use crate::search::{Bounds, Journal};
use anyhow::{bail, Context};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The smallest search, in nodes, whose bound is written down: about a tenth of a second, so
/// that a journal grows by a few lines a second at most and a stop loses little.
pub const JOURNAL_MIN_NODES: u64 = 1 << 23;

/// The work of the earlier solves a journal records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Earlier {
    pub runs: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A journal file opened for a solve.
pub struct JournalFile<B> {
    path: PathBuf,
    file: File,
    /// The first write that failed, if one did: told once the solve ends.
    failed: Arc<Mutex<Option<std::io::Error>>>,
    pub journal: Arc<Journal<B>>,
    pub earlier: Earlier,
}

impl<B: Bits> JournalFile<B> {
    /// Opens (or starts) the journal at `path` for solves under `rules`: its bounds go into a
    /// new [`Journal`] whose new bounds are added to the file as they come. A last line cut
    /// short (the run was killed as it wrote) is removed.
    pub fn open(path: &Path, rules: &Rules<B>) -> anyhow::Result<JournalFile<B>> {
        let Contents {
            journal,
            earlier,
            whole,
            first,
            board,
        } = read(path, rules)?;
        let name = path.display();
        let cannot_write = || format!("cannot write {name}");
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(cannot_write)?;
        file.set_len(whole).with_context(cannot_write)?;
        if first {
            file.write_all(format!("{board}\n").as_bytes())
                .with_context(cannot_write)?;
        }
        let failed = Arc::new(Mutex::new(None));
        let mut sink = file.try_clone().with_context(cannot_write)?;
        let geometry = rules.geometry.clone();
        let sink_failed = Arc::clone(&failed);
        let journal = journal.with_sink(Box::new(move |pos, b: Bounds| {
            let line = JournalLine::Bounds {
                position: PositionString::from_position(&geometry, pos),
                low: b.low,
                high: b.high,
            };
            // One write a line, so a killed run leaves at most its last line cut short.
            if let Err(e) = sink.write_all(format!("{line}\n").as_bytes()) {
                let mut failed = sink_failed.lock().unwrap_or_else(|e| e.into_inner());
                failed.get_or_insert(e);
            }
        }));
        Ok(JournalFile {
            path: path.to_path_buf(),
            file,
            failed,
            journal: Arc::new(journal),
            earlier,
        })
    }

    /// Writes down what this solve did. A journal that could not be written is told on stderr
    /// in one line, and the solve's result stands: only what a next run could skip is lost.
    pub fn finish(&mut self, nodes: u64, elapsed: Duration, solved: bool) {
        let name = self.path.display();
        let failed = self.failed.lock().unwrap_or_else(|e| e.into_inner()).take();
        let line = JournalLine::Run {
            nodes,
            seconds: elapsed.as_secs_f64(),
            solved,
        };
        let result = match failed {
            Some(e) => Err(e),
            None => self.file.write_all(format!("{line}\n").as_bytes()),
        };
        if let Err(e) = result {
            eprintln!("othello: cannot write {name} ({e}): bounds of this run may be missing");
        }
    }
}

/// What a journal file holds.
struct Contents<B> {
    journal: Journal<B>,
    earlier: Earlier,
    /// Bytes of whole lines: a last line cut short (the run was killed as it wrote) ends there.
    whole: u64,
    /// No board line yet (no file, or only comments).
    first: bool,
    /// The board line of these rules.
    board: JournalLine,
}

/// Reads the journal at `path` of solves under `rules`; none yet is an empty journal.
fn read<B: Bits>(path: &Path, rules: &Rules<B>) -> anyhow::Result<Contents<B>> {
    let shape = Shape::new(rules.geometry.rows(), rules.geometry.cols())
        .context("the board of a solve has a valid shape")?;
    let board = JournalLine::Board {
        shape,
        variant: rules.variant,
    };
    let name = path.display();
    let journal = Journal::new(shape.cells(), JOURNAL_MIN_NODES);
    let mut earlier = Earlier::default();
    let (mut whole, mut first) = (0u64, true);
    match File::open(path) {
        Ok(file) => {
            let mut input = BufReader::new(file);
            let mut bytes = Vec::new();
            for n in 1.. {
                bytes.clear();
                let got = (&mut input)
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', &mut bytes)
                    .with_context(|| format!("cannot read {name}"))?;
                if got == 0 || bytes.last() != Some(&b'\n') {
                    if bytes.len() > MAX_LINE {
                        bail!("{name}: line {n} is over {MAX_LINE} bytes");
                    }
                    // The end, or a last line cut short.
                    break;
                }
                whole += got as u64;
                let text = String::from_utf8_lossy(&bytes);
                let text = text.trim();
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                let line: JournalLine = text
                    .parse()
                    .map_err(|e| anyhow::anyhow!("{name}: line {n}: {e}"))?;
                match line {
                    JournalLine::Board { .. } if first && line == board => {}
                    JournalLine::Board { .. } if first => bail!(
                        "{name} is the journal of {}, not of {}",
                        &line.to_string()["board ".len()..],
                        &board.to_string()["board ".len()..]
                    ),
                    _ if first => bail!("{name}: line {n}: a journal starts with its board"),
                    JournalLine::Board { .. } => bail!("{name}: line {n}: a second board"),
                    JournalLine::Bounds {
                        position,
                        low,
                        high,
                    } => {
                        if position.shape() != shape {
                            bail!("{name}: line {n}: the position is not {shape}");
                        }
                        let bounds = Bounds { low, high };
                        if let Err(known) = journal.insert(&position.position::<B>(), bounds) {
                            bail!(
                                "{name}: line {n}: {low} {high} contradicts the bounds {} {} \
                                 read before for that position",
                                known.low,
                                known.high
                            );
                        }
                    }
                    JournalLine::Run { nodes, seconds, .. } => {
                        earlier.runs += 1;
                        earlier.nodes += nodes;
                        earlier.elapsed += Duration::from_secs_f64(seconds);
                    }
                }
                first = false;
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot read {name}")),
    }
    Ok(Contents {
        journal,
        earlier,
        whole,
        first,
        board,
    })
}

/// The journal at `path` of solves under `rules`, only to read; `None` when there is none.
pub fn load<B: Bits>(path: &Path, rules: &Rules<B>) -> anyhow::Result<Option<Journal<B>>> {
    if !path.exists() {
        return Ok(None);
    }
    Ok(Some(read(path, rules)?.journal))
}
