//! The entries of `othello perfect-play`: what a run is asked for, and what became of each
//! board under each variant.

use crate::interrupt::Interrupt;
use crate::rules::{RuleSet, Setup, Shape, Variant};
use crate::rules::{MAX_SIDE, MIN_SIDE};
use crate::search::Config;
use crate::solve::journal::Earlier;
use crate::solve::position::PositionSolved;
use std::path::PathBuf;
use std::time::Duration;

/// The work an entry took over all its runs: nodes, time and the number of runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryWork {
    pub nodes: u64,
    pub elapsed: Duration,
    pub runs: u32,
}

impl EntryWork {
    /// Saturating: each count is bounded as it is read, but a sum past what the types hold
    /// must not wrap into a small number or panic.
    pub(super) fn of(nodes: u64, elapsed: Duration, earlier: Earlier) -> EntryWork {
        EntryWork {
            nodes: nodes.saturating_add(earlier.nodes),
            elapsed: elapsed.saturating_add(earlier.elapsed),
            runs: earlier.runs.saturating_add(1),
        }
    }

    /// The seconds, and the runs when more than one.
    pub(super) fn seconds_text(&self) -> String {
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
    /// The solver of each entry: its table, its threads and the evaluation that orders its
    /// moves far from the end (see [`Config::solver`]).
    pub search: Config,
    pub cache: Option<PathBuf>,
    /// A folder of solve journals, one an entry, so that an entry stopped at its time limit
    /// goes on where it stopped when tried again.
    pub journals: Option<PathBuf>,
    /// Solve nothing: list what the cache holds, whatever limit an entry was tried with.
    pub from_cache: bool,
    /// Report on stderr how a long entry goes (see `run.rs`).
    pub progress: bool,
    /// The command line, shown in the document.
    pub command_line: String,
    /// Once raised, the entry being solved stops as at its time limit and is cached as not
    /// solved in the time it had, and no other entry starts.
    pub interrupt: Interrupt,
}

impl PerfectPlayOptions {
    /// The time an entry of `variant` may take.
    pub(super) fn limit_for(&self, variant: Variant) -> Option<Duration> {
        match (self.limit, variant.place_anywhere) {
            (limit, false) => limit,
            (Some(a), true) => Some(self.place_anywhere_limit.map_or(a, |b| a.min(b))),
            (None, true) => self.place_anywhere_limit,
        }
    }

    /// Every entry asked for, once, in the order they are solved and listed: by size, then
    /// place-anywhere last, then rule set and goal.
    pub(super) fn entries(&self) -> Vec<Setup> {
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

impl Found {
    /// The work of a solve, finished or stopped; none for an entry not tried.
    pub fn work(&self) -> Option<EntryWork> {
        match self {
            Found::Solved(p) => Some(EntryWork::of(p.nodes, p.elapsed, p.earlier)),
            Found::OutOfTime {
                nodes,
                elapsed,
                earlier,
                ..
            } => Some(EntryWork::of(*nodes, *elapsed, *earlier)),
            Found::NotTried { .. } | Found::NotYetTried => None,
        }
    }
}

/// The entry in words: `5x6 simple, misère, place-anywhere`.
pub(super) fn entry_name(setup: &Setup) -> String {
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
