//! The record of a coordinated solve (`solve.log` in the work folder): a line for each job
//! that ended, solved or cancelled, and for each job split, added as it happens. It is what a
//! run started again learns before it goes on, and the trace `--span` reads.
//!
//! Each line ends in the check of the text before it, and lines are only ever added, in one
//! write at a time: a crash mid-line leaves a last line whose check fails, which the next run
//! cuts off; any other line that fails its check is damage, and refused. A killed run loses no
//! line written; the lines go to the disc at most [`SYNC_EVERY`] apart, so a machine that
//! fails loses at most that long's lines besides the jobs running.

use super::folder::{Folder, Task};
use super::job::Found;
use crate::files::read_capped_text;
use crate::notation::PositionString;
use anyhow::{bail, Context};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const FORMAT: &str = "format: othello-solve-log 1";

/// How long written lines may wait for a sync: a sync per result (a thousand a second on
/// small jobs) would hold the coordinator up, and more so on a shared file system.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// The largest record read: some six million jobs.
const MAX_RECORD: u64 = 1 << 30;

const HEADER: &str = "# othello: the record of a coordinated split solve, a line for each job \
                      that ended and each job split:\n\
                      #   job ID WORKER AFTER START-MS END-MS NODES TASK A B solved SCORE BEST \
                      LINE POSITION ~CHECK\n\
                      #   job ... cancelled - - - POSITION ~CHECK\n\
                      #   split POSITION ~CHECK\n";

/// One line of the record.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Job(JobEntry),
    /// A job merged from its moves from then on, so that more workers share it.
    Split(PositionString),
}

/// A job that ended.
#[derive(Clone, Debug, PartialEq)]
pub struct JobEntry {
    /// Numbered from 0 in the order handed out, through every run on the folder.
    pub id: u64,
    pub worker: usize,
    /// The job whose result was the last one learned before this one was first asked for
    /// (none for a job asked for before any result): the one it had to wait on, whenever a
    /// worker was free for it. The chains of these are what `--span` weighs.
    pub after: Option<u64>,
    /// When it was handed out and when it ended, in milliseconds since 1970.
    pub start_ms: u64,
    pub end_ms: u64,
    pub nodes: u64,
    pub task: Task,
    /// What it proved; `None` when it was cancelled first.
    pub found: Option<Found>,
    pub position: PositionString,
}

impl JobEntry {
    /// Its seconds, from handed out to ended.
    pub fn seconds(&self) -> f64 {
        self.end_ms.saturating_sub(self.start_ms) as f64 / 1000.0
    }
}

/// Milliseconds since 1970, as the record keeps times.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn check(text: &str) -> String {
    format!("{:016x}", crate::search::weights::fnv1a(text.as_bytes()))
}

impl Entry {
    fn text(&self) -> String {
        let body = match self {
            Entry::Split(position) => format!("split {position}"),
            Entry::Job(j) => {
                let after = j.after.map_or("-".to_string(), |a| a.to_string());
                let task = match j.task {
                    Task::Window { alpha, beta } => format!("window {alpha} {beta}"),
                    Task::Line { value } => format!("line {value} -"),
                };
                let found = match &j.found {
                    None => "cancelled - - -".to_string(),
                    Some(found) => format!("solved {found}"),
                };
                format!(
                    "job {} {} {after} {} {} {} {task} {found} {}",
                    j.id, j.worker, j.start_ms, j.end_ms, j.nodes, j.position
                )
            }
        };
        let check = check(&body);
        format!("{body} ~{check}\n")
    }

    /// A line of the record (without its newline); `None` when its check fails.
    fn parse(line: &str) -> Option<anyhow::Result<Entry>> {
        let (body, sum) = line.rsplit_once(" ~")?;
        if check(body) != sum {
            return None;
        }
        Some(Self::parse_body(body))
    }

    fn parse_body(body: &str) -> anyhow::Result<Entry> {
        if let Some(position) = body.strip_prefix("split ") {
            let position = position.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            return Ok(Entry::Split(position));
        }
        let Some(rest) = body.strip_prefix("job ") else {
            bail!("neither a job nor a split");
        };
        let words: Vec<&str> = rest.splitn(14, ' ').collect();
        let [id, worker, after, start, end, nodes, kind, a, b, outcome, score, best, line, position] =
            words[..]
        else {
            bail!("a job line cut short");
        };
        let task = match (kind, b) {
            ("window", _) => {
                let (alpha, beta) = (a.parse()?, b.parse()?);
                if alpha >= beta {
                    bail!("an empty window");
                }
                Task::Window { alpha, beta }
            }
            ("line", "-") => Task::Line { value: a.parse()? },
            _ => bail!("{kind:?} is not a task"),
        };
        let found = match outcome {
            "cancelled" => None,
            "solved" => Some(Found::from_words(score, best, line)?),
            other => bail!("{other:?} is neither solved nor cancelled"),
        };
        Ok(Entry::Job(JobEntry {
            id: id.parse()?,
            worker: worker.parse()?,
            after: match after {
                "-" => None,
                n => Some(n.parse()?),
            },
            start_ms: start.parse()?,
            end_ms: end.parse()?,
            nodes: nodes.parse()?,
            task,
            found,
            position: position.parse().map_err(|e| anyhow::anyhow!("{e}"))?,
        }))
    }
}

/// The entries of a record's text, and the length of its whole lines: a last line that fails
/// its check (cut short by a crash) is left out; any other one is refused.
fn parse(text: &str) -> anyhow::Result<(Vec<Entry>, usize)> {
    let mut entries = Vec::new();
    let mut whole = 0;
    let mut format_seen = false;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (n, piece) in lines.iter().enumerate() {
        let last = n + 1 == lines.len();
        let line = piece.trim_end_matches('\n');
        if !piece.ends_with('\n') {
            // Not yet ended by its newline: written in part.
            if last {
                break;
            }
        }
        if line.starts_with('#') {
            whole += piece.len();
            continue;
        }
        if !format_seen {
            if line != FORMAT {
                bail!("line {}: not `{FORMAT}`: not a record of this kind", n + 1);
            }
            format_seen = true;
            whole += piece.len();
            continue;
        }
        match Entry::parse(line) {
            Some(entry) => entries.push(entry.with_context(|| format!("line {}", n + 1))?),
            None if last => break,
            None => bail!("line {}: fails its check: edited or damaged", n + 1),
        }
        whole += piece.len();
    }
    Ok((entries, whole))
}

/// The entries of the record at `path`, the length of its whole lines and its length (all
/// none when there is no record).
fn load(path: &std::path::Path) -> anyhow::Result<(Vec<Entry>, usize, usize)> {
    if !path.exists() {
        return Ok((Vec::new(), 0, 0));
    }
    let name = path.display();
    let text = read_capped_text(path, MAX_RECORD, "a solve record")
        .with_context(|| format!("cannot read {name}"))?;
    let (entries, whole) = parse(&text).with_context(|| name.to_string())?;
    Ok((entries, whole, text.len()))
}

/// The record, open for adding to.
pub struct Record {
    file: File,
    path: PathBuf,
    /// When the lines written were last synced; `None` while all are.
    unsynced_since: Option<Instant>,
}

impl Record {
    pub fn path(folder: &Folder) -> PathBuf {
        folder.dir.join("solve.log")
    }

    /// The entries of the folder's record (none when there is no record).
    pub fn read(folder: &Folder) -> anyhow::Result<Vec<Entry>> {
        Ok(load(&Self::path(folder))?.0)
    }

    /// Opens the folder's record to add to it, made when missing, and gives what it holds; a
    /// last line cut short is cut off. The caller holds the folder's lock.
    pub fn open(folder: &Folder) -> anyhow::Result<(Record, Vec<Entry>)> {
        let path = Self::path(folder);
        let name = path.display().to_string();
        let (entries, whole, len) = load(&path)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open {name}"))?;
        if whole < len {
            file.set_len(whole as u64)
                .with_context(|| format!("cannot cut the torn end of {name}"))?;
        }
        let mut record = Record {
            file,
            path,
            unsynced_since: None,
        };
        if whole == 0 {
            let head = format!("{HEADER}{FORMAT}\n");
            record.write(head.as_bytes())?;
        }
        Ok((record, entries))
    }

    /// Adds `entries`, in one write; they reach the disc within [`SYNC_EVERY`] as long as
    /// the owner calls [`Record::sync_due`] now and then, and when the record is dropped.
    pub fn add(&mut self, entries: &[Entry]) -> anyhow::Result<()> {
        if entries.is_empty() {
            return Ok(());
        }
        let text: String = entries.iter().map(Entry::text).collect();
        self.write(text.as_bytes())
    }

    fn write(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        self.file
            .write_all(bytes)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.unsynced_since.get_or_insert_with(Instant::now);
        self.sync_due()
    }

    /// Syncs the lines written once the oldest not synced has waited [`SYNC_EVERY`].
    pub fn sync_due(&mut self) -> anyhow::Result<()> {
        match self.unsynced_since {
            Some(since) if since.elapsed() >= SYNC_EVERY => self.sync(),
            _ => Ok(()),
        }
    }

    /// Syncs every line written.
    pub fn sync(&mut self) -> anyhow::Result<()> {
        if self.unsynced_since.take().is_some() {
            self.file
                .sync_data()
                .with_context(|| format!("cannot write {}", self.path.display()))?;
        }
        Ok(())
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        // Best effort: a failure here has no one to tell; the lines are written all the same.
        let _ = self.sync();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::MoveList;

    fn entries() -> Vec<Entry> {
        let position: PositionString = "(b ---- -wb- -bw- ----)".parse().unwrap();
        vec![
            Entry::Job(JobEntry {
                id: 0,
                worker: 1,
                after: None,
                start_ms: 1_000,
                end_ms: 2_500,
                nodes: 1234,
                task: Task::Window {
                    alpha: -17,
                    beta: 17,
                },
                found: Some(Found {
                    score: -8,
                    best: "b1".to_string(),
                    line: MoveList::default(),
                }),
                position: position.clone(),
            }),
            Entry::Split(position.clone()),
            Entry::Job(JobEntry {
                id: 7,
                worker: 0,
                after: Some(0),
                start_ms: 2_500,
                end_ms: 2_600,
                nodes: 99,
                task: Task::Line { value: -8 },
                found: Some(Found {
                    score: -8,
                    best: "b1".to_string(),
                    line: "b1a1pa".parse().unwrap(),
                }),
                position: position.clone(),
            }),
            Entry::Job(JobEntry {
                id: 8,
                worker: 2,
                after: Some(7),
                start_ms: 2_600,
                end_ms: 2_700,
                nodes: 5,
                task: Task::Window { alpha: 3, beta: 4 },
                found: None,
                position,
            }),
        ]
    }

    #[test]
    fn entries_read_back_and_a_torn_last_line_is_left_out() {
        let text: String =
            format!("{HEADER}{FORMAT}\n") + &entries().iter().map(Entry::text).collect::<String>();
        let (read, whole) = parse(&text).unwrap();
        assert_eq!(read, entries());
        assert_eq!(whole, text.len());
        // A crash in the middle of the last line: the lines before it stand.
        for cut in [text.len() - 1, text.len() - 20] {
            let (read, whole) = parse(&text[..cut]).unwrap();
            assert_eq!(read, entries()[..3]);
            assert_eq!(&text[whole..whole + 4], "job ");
        }
        // A line edited before the last is refused.
        let edited = text.replacen("solved -8", "solved -6", 1);
        let e = parse(&edited).unwrap_err();
        assert!(e.to_string().contains("fails its check"), "{e}");
        let e = parse("format: something else\n").unwrap_err();
        assert!(e.to_string().contains("not a record"), "{e}");
    }

    #[test]
    fn a_record_opened_again_cuts_its_torn_end_and_goes_on() {
        let dir = std::env::temp_dir().join(format!("othello-record-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let folder = Folder::new(&dir);
        let all = entries();
        let (mut record, read) = Record::open(&folder).unwrap();
        assert!(read.is_empty());
        record.add(&all[..2]).unwrap();
        drop(record);
        // Half a line, as a crash mid-write leaves it.
        let path = Record::path(&folder);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"job 7 0 0 25").unwrap();
        drop(file);
        let (mut record, read) = Record::open(&folder).unwrap();
        assert_eq!(read, all[..2]);
        record.add(&all[2..]).unwrap();
        assert_eq!(Record::read(&folder).unwrap(), all);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
