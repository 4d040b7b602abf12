//! `othello perfect-play`: the value under perfect play of every small board from the standard
//! start, under each rule set, normal and misère, with and without place-anywhere, as a markdown
//! document. Each entry is solved within a time limit, and finished entries go to a cache file
//! so that a long run can be stopped and resumed.
//!
//! Only boards with rows <= columns are listed by `--max-cells`: turning an RxC board over its
//! main diagonal maps its start exactly onto the CxR start (the 2x2 block at row `rows/2 - 1`,
//! column `cols/2 - 1` goes to row `cols/2 - 1`, column `rows/2 - 1`, and its diagonal stays its
//! diagonal, so the colours agree), and the rules read the same in every direction.
//!
//! This file lists the entries and runs them; `cache.rs` reads and writes the cache file (its
//! format is described there), `document.rs` writes the markdown.

mod cache;
mod document;

use super::interrupt::{Interrupt, Stopped};
use super::journal::{self, Earlier, Proved};
use super::signed;
use super::solve::{progress_text, solve_position_within, PositionSolved, SolveOptions};
use crate::notation::VariantWords;
use crate::rules::{Color, RuleSet, Rules, Setup, Shape, Variant};
use crate::rules::{MAX_SIDE, MIN_SIDE};
use crate::search::{Observer, Progress, RootMoves};
use anyhow::{bail, Context};
use cache::Cache;
use document::write_document;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The work an entry took over all its runs: nodes, time and the number of runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    pub nodes: u64,
    pub elapsed: Duration,
    pub runs: u32,
}

impl Work {
    /// Saturating: each count is bounded as it is read, but a sum past what the types hold
    /// must not wrap into a small number or panic.
    fn of(nodes: u64, elapsed: Duration, earlier: Earlier) -> Work {
        Work {
            nodes: nodes.saturating_add(earlier.nodes),
            elapsed: elapsed.saturating_add(earlier.elapsed),
            runs: earlier.runs.saturating_add(1),
        }
    }

    /// The seconds, and the runs when more than one.
    fn seconds_text(&self) -> String {
        let mut text = format!("{:.3}", self.elapsed.as_secs_f64());
        if self.runs > 1 {
            text += &format!(" ({} runs)", self.runs);
        }
        text
    }
}

/// Every board of at most `max_cells` cells with rows <= columns, smallest first.
pub fn boards_up_to(max_cells: usize) -> Vec<Shape> {
    let mut boards = Vec::new();
    for rows in MIN_SIDE..=MAX_SIDE {
        for cols in rows..=MAX_SIDE {
            if rows * cols <= max_cells {
                boards.extend(Shape::new(rows, cols));
            }
        }
    }
    boards.sort_by_key(|b| (b.cells(), b.rows()));
    boards
}

/// What `othello perfect-play` solves and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfectPlayOptions {
    pub boards: Vec<Shape>,
    pub rule_sets: Vec<RuleSet>,
    /// Normal games (`false`), misère games (`true`), or both.
    pub misere: Vec<bool>,
    /// Standard games (`false`), place-anywhere games (`true`), or both.
    pub place_anywhere: Vec<bool>,
    /// The longest any entry may take; `None` for no limit.
    pub limit: Option<Duration>,
    /// The longest a place-anywhere entry may take, within `limit`.
    pub place_anywhere_limit: Option<Duration>,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Threads solving each entry together.
    pub threads: usize,
    pub cache: Option<PathBuf>,
    /// A folder of solve journals, one an entry, so that an entry stopped at its time limit
    /// goes on where it stopped when tried again.
    pub journals: Option<PathBuf>,
    /// Solve nothing: list what the cache holds, whatever limit an entry was tried with.
    pub from_cache: bool,
    /// Report on stderr how a long entry goes (see [`long_entry_reporter`]).
    pub progress: bool,
    /// The command line, shown in the document.
    pub command_line: String,
    /// Once raised, the entry being solved stops as at its time limit and is cached as not
    /// solved in the time it had, and no other entry starts.
    pub interrupt: Interrupt,
}

impl PerfectPlayOptions {
    /// The time an entry of `variant` may take.
    fn limit_for(&self, variant: Variant) -> Option<Duration> {
        match (self.limit, variant.place_anywhere) {
            (limit, false) => limit,
            (Some(a), true) => Some(self.place_anywhere_limit.map_or(a, |b| a.min(b))),
            (None, true) => self.place_anywhere_limit,
        }
    }

    /// Every entry asked for, once, in the order they are solved and listed: by size, then
    /// place-anywhere last, then rule set and goal.
    fn entries(&self) -> Vec<Setup> {
        let mut entries = Vec::new();
        for &board in &self.boards {
            for &place_anywhere in &self.place_anywhere {
                for &rule_set in &self.rule_sets {
                    for &misere in &self.misere {
                        entries.push(Setup::standard(
                            board,
                            Variant {
                                rule_set,
                                place_anywhere,
                                misere,
                            },
                        ));
                    }
                }
            }
        }
        entries.sort_by_key(|s| {
            let v = s.variant;
            let simple = v.rule_set == RuleSet::Simple;
            (s.shape.cells(), s.shape, v.place_anywhere, simple, v.misere)
        });
        entries.dedup();
        entries
    }
}

/// One board under one variant, from the standard start: black first, white on the top-left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEntry {
    pub setup: Setup,
    pub found: Found,
    /// Read from the cache rather than solved by this run.
    pub cached: bool,
}

/// What became of an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    Solved(PositionSolved),
    /// The solve gave up at `limit`.
    OutOfTime {
        limit: Duration,
        nodes: u64,
        elapsed: Duration,
        /// Earlier tries that this one carried on through a journal.
        earlier: Earlier,
    },
    /// Not tried: `inside`, a board that fits in this one, was not solved within `limit` under
    /// the same variant, so this one would not be either.
    NotTried {
        inside: Shape,
        limit: Duration,
    },
    /// Not in the cache, listed with `from_cache`: no run has tried it yet.
    NotYetTried,
}

impl TableEntry {
    /// Black's discs minus White's at the end of perfect play, if solved.
    pub fn black_lead(&self) -> Option<i32> {
        match &self.found {
            Found::Solved(s) => Some(s.black as i32 - s.white as i32),
            _ => None,
        }
    }
}

/// Solves every entry of `options` not already in the cache, and writes the document to `out`;
/// one line per entry goes to `log` as it starts and as it ends (and, with `options.progress`,
/// a long entry's root moves to stderr). A raised `options.interrupt` ends it with [`Stopped`]
/// once the cache holds the entry it stopped, with no document.
pub fn perfect_play(
    options: &PerfectPlayOptions,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> anyhow::Result<Vec<TableEntry>> {
    // The cache is written as the run goes, each journal read and written: one file cannot
    // be both.
    if let (Some(cache), Some(folder)) = (&options.cache, &options.journals) {
        for setup in options.entries() {
            let journal = journal_path(folder, &setup);
            if *cache == journal || crate::files::same_file(cache, &journal) {
                bail!(
                    "the cache {} is the journal of {}: give the cache another name",
                    cache.display(),
                    entry_name(&setup)
                );
            }
        }
    }
    let mut cache = match &options.cache {
        Some(path) => Some(Cache::open(path.clone(), options.from_cache, log)?),
        None => None,
    };
    if let (Some(folder), false) = (&options.journals, options.from_cache) {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot make the folder {}", folder.display()))?;
    }
    let mut table: Vec<TableEntry> = Vec::new();
    for setup in options.entries() {
        let limit = options.limit_for(setup.variant);
        let name = entry_name(&setup);
        let known = cache
            .as_ref()
            .and_then(|c| c.get(&setup))
            .filter(|f| match f {
                Found::Solved(_) => true,
                // Tried before: worth trying again with more time, or with a journal to go on.
                Found::OutOfTime { limit: tried, .. } => {
                    options.from_cache
                        || options.journals.is_none() && limit.is_some_and(|l| l <= *tried)
                }
                Found::NotTried { .. } | Found::NotYetTried => false,
            });
        let mut stopped_proved = None;
        let entry = if let Some(found) = known {
            TableEntry {
                setup,
                found: found.clone(),
                cached: true,
            }
        } else if options.from_cache {
            // Not in the cache: say why a run would pass it over, whatever its limit, if so.
            let found = not_worth_trying(&table, &setup, Some(Duration::ZERO));
            TableEntry {
                setup,
                found: found.unwrap_or(Found::NotYetTried),
                cached: false,
            }
        } else if let Some(found) = not_worth_trying(&table, &setup, limit) {
            TableEntry {
                setup,
                found,
                cached: false,
            }
        } else {
            let within = limit.map_or("no time limit".to_string(), duration_text);
            writeln!(log, "perfect-play: {name}: solving ({within})")?;
            log.flush()?;
            let (found, proved) = solve_entry(&setup, limit, options)?;
            if let Some(cache) = &mut cache {
                cache.append(&setup, &found)?;
            }
            // What this run and those before it proved, for whoever watches a long run.
            stopped_proved = proved.as_ref().and_then(Proved::line);
            TableEntry {
                setup,
                found,
                cached: false,
            }
        };
        let from = if entry.cached { " (cached)" } else { "" };
        let mut said = summary(&entry.found);
        if let Some(known) = stopped_proved {
            said += &format!("; proved, Black - White: {known}");
        }
        writeln!(log, "perfect-play: {name}: {said}{from}")?;
        log.flush()?;
        table.push(entry);
        if let Some(signal) = options.interrupt.signal() {
            return Err(Stopped { signal }.into());
        }
    }
    write_document(out, options, &table)?;
    Ok(table)
}

impl Found {
    /// The work of a solve, finished or stopped; none for an entry not tried.
    pub fn work(&self) -> Option<Work> {
        match self {
            Found::Solved(p) => Some(Work::of(p.nodes, p.elapsed, p.earlier)),
            Found::OutOfTime {
                nodes,
                elapsed,
                earlier,
                ..
            } => Some(Work::of(*nodes, *elapsed, *earlier)),
            Found::NotTried { .. } | Found::NotYetTried => None,
        }
    }
}

/// Why `setup` is not worth a try within `limit`: a board that fits in it, under the same
/// variant, was not solved within as much time.
fn not_worth_trying(table: &[TableEntry], setup: &Setup, limit: Option<Duration>) -> Option<Found> {
    let limit = limit?;
    let board = size_of(setup);
    table.iter().find_map(|e| match e.found {
        Found::OutOfTime { limit: tried, .. }
            if e.setup.variant == setup.variant
                && tried >= limit
                && size_of(&e.setup).fits_in(board) =>
        {
            Some(Found::NotTried {
                inside: size_of(&e.setup),
                limit: tried,
            })
        }
        _ => None,
    })
}

fn size_of(setup: &Setup) -> Shape {
    setup.shape
}

/// Solves the start of `setup` within `limit`: the value, Black's best first moves and a line
/// of perfect play; or, stopped with a journal, what the journal proves so far.
fn solve_entry(
    setup: &Setup,
    limit: Option<Duration>,
    options: &PerfectPlayOptions,
) -> anyhow::Result<(Found, Option<Proved>)> {
    let report = options.progress;
    let journal = options
        .journals
        .as_ref()
        .map(|folder| journal_path(folder, setup));
    let options = SolveOptions {
        which: RootMoves::Ties,
        hash_mb: options.hash_mb,
        threads: options.threads,
        max_empties: None,
        journal,
        limit,
        interrupt: options.interrupt.clone(),
    };
    let observer = report.then(|| {
        let stderr = Box::new(std::io::stderr());
        long_entry_reporter(entry_name(setup), setup.shape.cols(), stderr)
    });
    let s = *setup;
    crate::with_bits!(s.shape, |B| {
        let rules = Rules::<B>::new(s.shape, s.variant)?;
        let start = rules.start(s.first, s.top_left);
        Ok(
            match solve_position_within(&rules, &start, &options, observer)? {
                Ok(mut solved) => {
                    solved.moves.sort_by_key(|&(sq, _)| (sq.col, sq.row));
                    (Found::Solved(solved), None)
                }
                Err(out) => (
                    Found::OutOfTime {
                        limit: match out.signal {
                            Some(_) => time_run(out.elapsed),
                            None => limit.expect("only a time limit or a signal stops a solve"),
                        },
                        nodes: out.nodes,
                        elapsed: out.elapsed,
                        earlier: out.earlier,
                    },
                    out.proved
                        .map(|proved| black_lead(proved, start.to_move, s.variant)),
                ),
            },
        )
    })
}

/// The journal of `setup` in the folder of journals.
fn journal_path(folder: &Path, setup: &Setup) -> PathBuf {
    let words = VariantWords(setup.variant).to_string().replace(' ', "-");
    folder.join(format!("{}-{words}.txt", setup.shape))
}

/// What the journal of an entry not solved proves of Black − White under perfect play, from
/// the start and after each first move; `None` without a journal.
fn proved_leads(folder: &Path, setup: &Setup) -> anyhow::Result<Option<Proved>> {
    let s = *setup;
    let path = journal_path(folder, &s);
    crate::with_bits!(s.shape, |B| {
        let rules = Rules::<B>::new(s.shape, s.variant)?;
        let start = rules.start(s.first, s.top_left);
        let Some(journal) = journal::load(&path, &rules)? else {
            return Ok(None);
        };
        Ok(Some(black_lead(
            Proved::of(&journal, &rules, &start),
            start.to_move,
            s.variant,
        )))
    })
}

/// `proved`, what a journal proves for `first`, the side to move at the start, in the discs it
/// wants (fewer under misère), as Black − White.
fn black_lead(proved: Proved, first: Color, variant: Variant) -> Proved {
    if (first == Color::Black) != variant.misere {
        proved
    } else {
        proved.turned_over()
    }
}

/// The time a run stopped by a signal had, as its cache line records it: whole minutes, or
/// whole seconds under a minute.
fn time_run(elapsed: Duration) -> Duration {
    let seconds = elapsed.as_secs();
    Duration::from_secs(if seconds < 60 {
        seconds
    } else {
        seconds / 60 * 60
    })
}

/// Entries that take longer than this report each root move as it finishes...
const REPORT_AFTER: Duration = Duration::from_secs(60);
/// ...and their node count at least this often.
const REPORT_EVERY: Duration = Duration::from_secs(600);

/// An observer that tells `out` how a long entry goes, so that an hours-long solve shows where
/// it is; short entries, most of the table, stay at their two lines.
fn long_entry_reporter(name: String, cols: usize, mut out: Box<dyn Write + Send>) -> Observer {
    let mut done = 0;
    let mut printed = Duration::ZERO;
    Box::new(move |p: &Progress| {
        let finished = p.done != done;
        done = p.done;
        let due = if finished {
            p.elapsed >= REPORT_AFTER
        } else {
            p.elapsed >= printed + REPORT_EVERY
        };
        if due {
            printed = p.elapsed;
            let text = progress_text(p, finished, cols);
            let _ = writeln!(out, "perfect-play: {name}: {text}").and_then(|()| out.flush());
        }
        ControlFlow::Continue(())
    })
}

/// The entry in words: `5x6 simple, misère, place-anywhere`.
fn entry_name(setup: &Setup) -> String {
    let v = setup.variant;
    let mut name = format!("{} {}", setup.shape, v.rule_set);
    if v.misere {
        name += ", misère";
    }
    if v.place_anywhere {
        name += ", place-anywhere";
    }
    name
}

/// `1h`, `10m`, `90s` or `250ms`: as `--limit` reads it.
pub fn duration_text(d: Duration) -> String {
    let ms = d.as_millis();
    match ms {
        0 => "0s".to_string(),
        _ if ms.is_multiple_of(3_600_000) => format!("{}h", ms / 3_600_000),
        _ if ms.is_multiple_of(60_000) => format!("{}m", ms / 60_000),
        _ if ms.is_multiple_of(1000) => format!("{}s", ms / 1000),
        _ => format!("{ms}ms"),
    }
}

/// The log's account of a finished entry.
fn summary(found: &Found) -> String {
    let work = |w: Work| {
        let runs = if w.runs > 1 {
            format!(" over {} runs", w.runs)
        } else {
            String::new()
        };
        format!("{} nodes, {:.3} s{runs}", w.nodes, w.elapsed.as_secs_f64())
    };
    match found {
        Found::Solved(s) => format!(
            "Black - White {}, {}",
            signed(s.black as i32 - s.white as i32),
            work(found.work().expect("a solved entry has its work"))
        ),
        Found::OutOfTime { limit, .. } => format!(
            "not solved in {} ({})",
            duration_text(*limit),
            work(found.work().expect("a stopped entry has its work"))
        ),
        Found::NotTried { inside, limit } => format!(
            "not tried: {inside} was not solved in {}",
            duration_text(*limit)
        ),
        Found::NotYetTried => "not in the cache".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::RootValue;
    use std::sync::{Arc, Mutex};

    /// A writer whose bytes the test can read while the observer owns it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_long_entry_reports_its_root_moves_and_short_ones_stay_quiet() {
        let seen = Shared::default();
        let mut observe = long_entry_reporter("4x9 simple".into(), 9, Box::new(seen.clone()));
        let at = |secs: u64, done: usize, last: Option<(usize, RootValue)>| Progress {
            done,
            total: 10,
            current: Some(2),
            best: Some((2, -12)),
            last,
            nodes: secs * 1_000_000,
            elapsed: Duration::from_secs(secs),
            ..Progress::default()
        };
        // A move finished in the first minute, then counts in between: nothing.
        let _ = observe(&at(30, 1, Some((3, RootValue::Exact(-14)))));
        let _ = observe(&at(500, 1, None));
        assert!(seen.0.lock().unwrap().is_empty());
        // A move finished after a minute, and a count ten minutes after the last line.
        let _ = observe(&at(700, 2, Some((2, RootValue::Exact(-12)))));
        let _ = observe(&at(1200, 2, None));
        let _ = observe(&at(1301, 2, None));
        let _ = observe(&at(1350, 3, Some((4, RootValue::AtMost(-14)))));
        let text = String::from_utf8(seen.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("perfect-play: 4x9 simple: move 2/10 c1 -12, best c1 -12, "));
        assert!(lines[1].starts_with("perfect-play: 4x9 simple: move 3/10 c1, best c1 -12, "));
        assert!(lines[2].starts_with("perfect-play: 4x9 simple: move 3/10 e1 <= -14, "));
    }
}
