//! Runs `othello perfect-play`: takes each entry from the cache or solves it within its time
//! limit, logs it, and writes the document once every entry is done.

use super::cache::Cache;
use super::document::write_document;
use super::entry::{entry_name, EntryWork, Found, PerfectPlayOptions, TableEntry};
use super::journals::{black_lead, journal_path};
use crate::interrupt::Stopped;
use crate::rules::{Rules, Setup, Shape};
use crate::search::{Observer, RootMoves, SolveProgress};
use crate::solve::journal::Proved;
use crate::solve::position::{progress_text, solve_position_within, SolveOptions};
use crate::wording::Signed;
use anyhow::{bail, Context};
use std::io::Write;
use std::ops::ControlFlow;
use std::time::Duration;

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
            let within = limit.map_or("no time limit".to_string(), crate::durations::text);
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
        search: options.search.clone(),
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
    Box::new(move |p: &SolveProgress| {
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

/// The log's account of a finished entry.
fn summary(found: &Found) -> String {
    let work = |w: EntryWork| {
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
            Signed(s.black as i32 - s.white as i32),
            work(found.work().expect("a solved entry has its work"))
        ),
        Found::OutOfTime { limit, .. } => format!(
            "not solved in {} ({})",
            crate::durations::text(*limit),
            work(found.work().expect("a stopped entry has its work"))
        ),
        Found::NotTried { inside, limit } => format!(
            "not tried: {inside} was not solved in {}",
            crate::durations::text(*limit)
        ),
        Found::NotYetTried => "not in the cache".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{MoveValue, RootValue};
    use crate::testing::SharedWriter;

    #[test]
    fn a_long_entry_reports_its_root_moves_and_short_ones_stay_quiet() {
        let seen = SharedWriter::default();
        let mut observe = long_entry_reporter("4x9 simple".into(), 9, Box::new(seen.clone()));
        let at = |secs: u64, done: usize, last: Option<(usize, RootValue)>| SolveProgress {
            done,
            total: 10,
            current: Some(2),
            best: Some((2, MoveValue::Discs(-12))),
            last,
            nodes: secs * 1_000_000,
            elapsed: Duration::from_secs(secs),
            ..SolveProgress::default()
        };
        // A move finished in the first minute, then counts in between: nothing.
        let _ = observe(&at(30, 1, Some((3, RootValue::Exact(-14)))));
        let _ = observe(&at(500, 1, None));
        assert!(seen.text().is_empty());
        // A move finished after a minute, and a count ten minutes after the last line.
        let _ = observe(&at(700, 2, Some((2, RootValue::Exact(-12)))));
        let _ = observe(&at(1200, 2, None));
        let _ = observe(&at(1301, 2, None));
        let _ = observe(&at(1350, 3, Some((4, RootValue::AtMost(-14)))));
        let text = seen.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("perfect-play: 4x9 simple: move 2/10 c1 -12, best c1 -12, "));
        assert!(lines[1].starts_with("perfect-play: 4x9 simple: move 3/10 c1, best c1 -12, "));
        assert!(lines[2].starts_with("perfect-play: 4x9 simple: move 3/10 e1 <= -14, "));
    }
}
