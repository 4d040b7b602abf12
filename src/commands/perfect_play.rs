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
//! The cache file holds one finished entry a line (`#` lines are comments). Four words name the
//! entry: the board `ROWSxCOLS`, the rule set `full` or `simple`, `normal` (more discs win) or
//! `misere`, and `standard` or `anywhere` (place-anywhere). Then `solved` or `unsolved` and
//! `key=value` fields:
//!
//! ```text
//! 4x4 full normal standard solved black=3 white=11 empty=2 best=a2,b1,c4,d3 line=b1a1a2c1d4a3d1b4a4c4 nodes=822 seconds=0.000
//! 6x6 full normal anywhere unsolved limit=1h nodes=6123456789 seconds=3600.004
//! ```
//!
//! `solved`: the final discs of a line of perfect play, Black's best first moves (`-` for none)
//! and the line (standard notation, run together, `pa` for a pass). `unsolved`: the time limit it
//! was not solved within (for a run stopped by a signal, the whole minutes it ran, or seconds
//! under a minute). `nodes` and `seconds` are the run's own; an entry carried on from
//! earlier runs through a journal (`--journals`) adds `earlier-runs=`, `earlier-nodes=` and
//! `earlier-seconds=`. A later line replaces an earlier one for the same entry.

use super::interrupt::{Interrupt, Stopped};
use super::journal::{self, Earlier, Proved};
use super::signed;
use super::solve::{line_text, progress_text, solve_position_within, PositionSolved, SolveOptions};
use crate::notation::{MoveList, VariantWords, MAX_RUN_SECONDS};
use crate::players::parse_duration;
use crate::protocols::list_entry;
use crate::rules::{Color, Game, Move, Passes, RuleSet, Rules, Setup, Shape, Square, Variant};
use crate::rules::{MAX_SIDE, MIN_SIDE};
use crate::search::{Observer, Progress, RootMoves};
use anyhow::{anyhow, bail, Context};
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

fn rule_set_name(rule_set: RuleSet) -> &'static str {
    match rule_set {
        RuleSet::Full => "full",
        RuleSet::Simple => "simple",
    }
}

/// The entry in words: `5x6 simple, misère, place-anywhere`.
fn entry_name(setup: &Setup) -> String {
    let v = setup.variant;
    let mut name = format!("{} {}", setup.shape, rule_set_name(v.rule_set));
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

/// The final count of a line of perfect play: the winner's letter and discs first (`W 11-3`),
/// and the empty cells left, if any.
fn final_count(s: &PositionSolved, misere: bool) -> String {
    let (b, w) = (s.black, s.white);
    let black_wins = (b > w) != misere;
    let mut text = match b.cmp(&w) {
        std::cmp::Ordering::Equal => format!("draw {b}-{w}"),
        _ if black_wins => format!("B {b}-{w}"),
        _ => format!("W {w}-{b}"),
    };
    if s.empty > 0 {
        text += &format!(" ({} empty)", s.empty);
    }
    text
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

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(c);
    }
    text
}

/// The processors and their model, as far as the system says.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        });
    match model {
        Some(model) => format!("{cores} cores ({model})"),
        None => format!("{cores} cores"),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn write_document(
    out: &mut dyn Write,
    options: &PerfectPlayOptions,
    table: &[TableEntry],
) -> anyhow::Result<()> {
    writeln!(out, "# Perfect play on small boards")?;
    writeln!(out)?;
    let (made, origin) = if options.from_cache {
        let origin = "from the cache of earlier runs: each entry's nodes and seconds are those \
                      of the run that made it, whose machine, threads and time limit may differ \
                      from another's";
        ("Listed", origin.to_string())
    } else {
        ("Made", format!("on {}", machine()))
    };
    writeln!(
        out,
        "{made} by `{}` (othello {}) {origin}.",
        options.command_line,
        env!("CARGO_PKG_VERSION"),
    )?;
    writeln!(out)?;
    write!(out, "{}", EXPLANATION)?;
    writeln!(out)?;
    writeln!(out, "| board | rules | misère | place-anywhere | Black − White | perfect play | best first moves | nodes | seconds |")?;
    writeln!(
        out,
        "| --- | --- | --- | --- | ---: | --- | --- | ---: | ---: |"
    )?;
    let (mut nodes, mut seconds) = (0u64, 0f64);
    let (mut solved, mut value_only, mut unsolved, mut untried, mut cached) = (0, 0, 0, 0, 0);
    let not_tried = |why: String| [why, "-".into(), "-".into(), "-".into(), "-".into()];
    for entry in table {
        let s = &entry.setup;
        let v = s.variant;
        let work = entry.found.work();
        if let Some(w) = work {
            nodes = nodes.saturating_add(w.nodes);
            seconds += w.elapsed.as_secs_f64();
        }
        let work_cells = |w: Option<Work>| {
            let w = w.expect("a tried entry has its work");
            [grouped(w.nodes), w.seconds_text()]
        };
        let cells = match &entry.found {
            Found::Solved(p) => {
                solved += 1;
                let best: Vec<String> = p.moves.iter().map(|(sq, _)| sq.to_string()).collect();
                let [n, secs] = work_cells(work);
                [
                    signed(p.black as i32 - p.white as i32),
                    final_count(p, v.misere),
                    best.join(" "),
                    n,
                    secs,
                ]
            }
            Found::OutOfTime { limit, .. } => {
                let [n, secs] = work_cells(work);
                let within = duration_text(*limit);
                let proved = match &options.journals {
                    Some(folder) => proved_leads(folder, s)?,
                    None => None,
                };
                let (bounds, first_moves) = proved.as_ref().map_or((None, None), Proved::text);
                let value = match (proved.and_then(|p| p.value.exact()), bounds) {
                    // Every first move searched against the best: the value stands.
                    (Some(lead), _) => {
                        value_only += 1;
                        format!("{} (proved; not solved in {within})", signed(lead))
                    }
                    (None, Some(bounds)) => {
                        unsolved += 1;
                        format!("not solved in {within} ({bounds})")
                    }
                    (None, None) => {
                        unsolved += 1;
                        format!("not solved in {within}")
                    }
                };
                let first_moves = first_moves.unwrap_or_else(|| "-".to_string());
                [value, "-".to_string(), first_moves, n, secs]
            }
            Found::NotTried { inside, limit } => {
                untried += 1;
                not_tried(format!(
                    "not tried ({inside} not solved in {})",
                    duration_text(*limit)
                ))
            }
            Found::NotYetTried => {
                untried += 1;
                not_tried("not tried yet".to_string())
            }
        };
        cached += usize::from(entry.cached);
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            s.shape,
            rule_set_name(v.rule_set),
            yes_no(v.misere),
            yes_no(v.place_anywhere),
            cells.join(" | ")
        )?;
    }
    let value_only = match value_only {
        0 => String::new(),
        n => format!(", {n} with the value proved but not solved in their time"),
    };
    writeln!(out)?;
    writeln!(
        out,
        "Totals: {solved} solved{value_only}, {unsolved} not solved in their time, {untried} not tried; \
         {} nodes, {seconds:.3} s ({cached} entries from the cache, with the nodes and time of \
         the run that made them).",
        grouped(nodes)
    )?;
    let lines: Vec<(&TableEntry, &PositionSolved)> = table
        .iter()
        .filter_map(|e| match &e.found {
            Found::Solved(p) => Some((e, p)),
            _ => None,
        })
        .collect();
    if !lines.is_empty() {
        writeln!(out)?;
        writeln!(out, "## Lines of perfect play")?;
        writeln!(out)?;
        writeln!(
            out,
            "One line of perfect play for each entry solved (`othello show` replays it; `pa` is a pass):"
        )?;
        writeln!(out)?;
        for (entry, p) in lines {
            writeln!(
                out,
                "- {}: `{}`",
                entry_name(&entry.setup),
                line_text(&p.line)
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

const EXPLANATION: &str = "\
Every board starts from the standard four discs: the 2x2 block at 0-based row rows/2 - 1 and
column cols/2 - 1 (one cell nearer the top or left on an odd side), White on its top-left and
bottom-right cells, Black to move first. Discs are counted plainly: empty cells left at the end
count for nobody. Misère: fewer discs win. Place-anywhere: every empty cell is a move, flipping
what the rules flip (possibly nothing); there are no passes and the game ends on a full board.

Boards are listed with rows <= columns. RxC and CxR are the same game turned over: reflecting an
RxC board in its main diagonal maps its start exactly onto the CxR start (the block at row
rows/2 - 1, column cols/2 - 1 lands at row cols/2 - 1, column rows/2 - 1, and White keeps the
block's top-left and bottom-right cells), and the rules read the same in every direction, so the
values are equal.

Black − White is Black's discs minus White's at the end of perfect play by both sides (under
misère Black wants it small). Perfect play is the final count of one line of perfect play, the
winner (B or W) and the winner's discs first. Best first moves are all of Black's first moves
that keep that value, in standard notation (column letter, row number counted from the top). An
entry not solved within its time limit says so; its value is not guessed, but where its runs kept
a journal (listed with `--journals`) the bounds on Black − White that they proved follow in
brackets (at least, at most, or a range), and in place of the best first moves, what they proved
of each first move after which Black − White is bounded. Once every first move has been searched
against the best, the journal proves the value itself, and the entry gives it (`proved; not
solved`): what is missing is the line, and a first move `at most` the value may yet tie with the
best. An entry is not tried when a board that fits inside it was not solved within the same time
under the same rules.

Nodes count the positions searched and, where a SIMPLE place-anywhere solve valued every set of
its 22 to 32 empty cells first, one node a set: 2^31 = 2,147,483,648 on 5x7 (31 empty cells) and
2^32 = 4,294,967,296 on 3x12, 4x9 and 6x6 (32), after which the values of the sets answer the
search in a few dozen nodes more.
";

/// The cache file: what earlier runs found, and where this run's entries are added.
struct Cache {
    path: PathBuf,
    /// Open for adding entries; `None` when the run only reads (`from_cache`).
    file: Option<std::fs::File>,
    known: Vec<(Setup, Found)>,
}

/// The largest cache file read: a few hundred bytes an entry, so far beyond any real one. A
/// larger file is refused whole rather than read in part, since its last line would then look
/// cut short and be removed.
const MAX_CACHE: u64 = 16 << 20;

impl Cache {
    /// Reads `path` if it exists, and opens it for adding entries unless `read_only` (then it
    /// must exist). A last line cut short (the run was stopped as it wrote) is removed, with a
    /// word on `log`; read only, it is passed over.
    fn open(path: PathBuf, read_only: bool, log: &mut dyn Write) -> anyhow::Result<Cache> {
        let text = match crate::files::read_capped_text(&path, MAX_CACHE, "a cache") {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !read_only => String::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        // Whole lines end in a newline; anything after the last one was cut short. It is
        // removed only from a file known to be a cache, one whose first line is the cache's
        // heading or an entry: any other file is not the program's to shorten.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let first = text[..whole].lines().next().unwrap_or("");
        let known = first.starts_with(CACHE_HEADER.lines().next().unwrap_or_default())
            || parse_cache_line(first).is_ok();
        if whole < text.len() && !known {
            bail!(
                "{} is not a perfect-play cache (its first line is neither the cache's heading \
                 nor an entry); it is left as it is",
                path.display()
            );
        }
        if whole < text.len() {
            writeln!(
                log,
                "perfect-play: {}: the last line is cut short and is {}: {}",
                path.display(),
                if read_only { "passed over" } else { "removed" },
                &text[whole..]
            )?;
        }
        let mut known = Vec::new();
        for (n, line) in text[..whole].lines().enumerate() {
            let Some(line) = list_entry(line) else {
                continue;
            };
            let entry = parse_cache_line(line)
                .with_context(|| format!("{}: line {}", path.display(), n + 1))?;
            known.push(entry);
        }
        if read_only {
            return Ok(Cache {
                path,
                file: None,
                known,
            });
        }
        // Opened now, so that a file that cannot be written stops the run before any work.
        let cannot_write = || format!("cannot write {}", path.display());
        // A torn last entry is cut through a copy renamed over the file, never in place.
        if whole < text.len() {
            crate::files::cut_to(&path, whole as u64).with_context(cannot_write)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(cannot_write)?;
        if whole == 0 {
            file.write_all(CACHE_HEADER.as_bytes())
                .with_context(cannot_write)?;
        }
        Ok(Cache {
            path,
            file: Some(file),
            known,
        })
    }

    /// What the file last says of `setup`.
    fn get(&self, setup: &Setup) -> Option<&Found> {
        self.known
            .iter()
            .rev()
            .find(|(s, _)| s == setup)
            .map(|(_, f)| f)
    }

    /// Adds an entry to the file at once, as one write, so a stopped run keeps what it did.
    fn append(&mut self, setup: &Setup, found: &Found) -> anyhow::Result<()> {
        let Some(line) = cache_line(setup, found) else {
            return Ok(());
        };
        let Some(file) = &mut self.file else {
            bail!("{}: opened only to read", self.path.display())
        };
        file.write_all(format!("{line}\n").as_bytes())
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.known.push((*setup, found.clone()));
        Ok(())
    }
}

const CACHE_HEADER: &str = "\
# othello perfect-play cache: one finished entry a line (see src/commands/perfect_play.rs)
# BOARD RULES normal|misere standard|anywhere solved black= white= empty= best= line= nodes= seconds=
# BOARD RULES normal|misere standard|anywhere unsolved limit= nodes= seconds=
";

/// The cache line of an entry; none for one not tried.
fn cache_line(setup: &Setup, found: &Found) -> Option<String> {
    let name = format!("{} {}", setup.shape, VariantWords(setup.variant));
    let or_dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    Some(match found {
        Found::Solved(p) => {
            let best: Vec<String> = p.moves.iter().map(|(sq, _)| sq.to_string()).collect();
            format!(
                "{name} solved black={} white={} empty={} best={} line={} nodes={} seconds={:.3}",
                p.black,
                p.white,
                p.empty,
                or_dash(best.join(",")),
                or_dash(MoveList(p.line.clone()).to_string()),
                p.nodes,
                p.elapsed.as_secs_f64()
            ) + &earlier_fields(p.earlier)
        }
        Found::OutOfTime {
            limit,
            nodes,
            elapsed,
            earlier,
        } => {
            format!(
                "{name} unsolved limit={} nodes={nodes} seconds={:.3}",
                duration_text(*limit),
                elapsed.as_secs_f64()
            ) + &earlier_fields(*earlier)
        }
        Found::NotTried { .. } | Found::NotYetTried => return None,
    })
}

/// The cache fields of earlier runs carried on through a journal; none when there were none.
fn earlier_fields(earlier: Earlier) -> String {
    if earlier.runs == 0 {
        return String::new();
    }
    format!(
        " earlier-runs={} earlier-nodes={} earlier-seconds={:.3}",
        earlier.runs,
        earlier.nodes,
        earlier.elapsed.as_secs_f64()
    )
}

/// Reads a cache line back. A solved entry's line is replayed from the start and must end the
/// game at the count the line gives.
fn parse_cache_line(line: &str) -> anyhow::Result<(Setup, Found)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [board, rules, goal, placement, what, fields @ ..] = words.as_slice() else {
        bail!("too few words: {line:?}");
    };
    let board: Shape = board.parse().map_err(|e: String| anyhow!(e))?;
    let variant = [*rules, *goal, *placement]
        .join(" ")
        .parse::<VariantWords>()
        .map_err(|e| anyhow!(e))?
        .0;
    let misere = variant.misere;
    let setup = Setup::standard(board, variant);
    let field = |key: &str| -> anyhow::Result<&str> {
        fields
            .iter()
            .find_map(|f| f.strip_prefix(key).and_then(|f| f.strip_prefix('=')))
            .ok_or_else(|| anyhow!("no {key}= field"))
    };
    let number = |key: &str| -> anyhow::Result<u64> {
        let text = field(key)?;
        text.parse()
            .map_err(|_| anyhow!("{key}={text} is not a count"))
    };
    let seconds = |key: &str| -> anyhow::Result<Duration> {
        let text = field(key)?;
        text.parse::<f64>()
            .ok()
            .filter(|s| (0.0..=MAX_RUN_SECONDS).contains(s))
            .map(Duration::from_secs_f64)
            .ok_or_else(|| {
                anyhow!("{key}={text} is not a number of seconds from 0 to {MAX_RUN_SECONDS:.0}")
            })
    };
    let earlier = if fields.iter().any(|f| f.starts_with("earlier-runs=")) {
        Earlier {
            runs: u32::try_from(number("earlier-runs")?).context("earlier-runs")?,
            nodes: number("earlier-nodes")?,
            elapsed: seconds("earlier-seconds")?,
        }
    } else {
        Earlier::default()
    };
    let found = match *what {
        "solved" => {
            let (black, white, empty) = (number("black")?, number("white")?, number("empty")?);
            let list = |key: &str| field(key).map(|t| if t == "-" { "" } else { t });
            let best = list("best")?
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<Square>().map_err(|e| anyhow!("best={s}: {e}")))
                .collect::<anyhow::Result<Vec<Square>>>()?;
            let line: MoveList = list("line")?.parse().map_err(|e| anyhow!("line: {e}"))?;
            let (black, white, empty) = (black as u32, white as u32, empty as u32);
            replay(&setup, &line, (black, white), &best)?;
            if black + white + empty != board.cells() as u32 {
                bail!(
                    "{black} + {white} + {empty} cells is not the board's {}",
                    board.cells()
                );
            }
            let lead = black as i32 - white as i32;
            let score = if misere { -lead } else { lead };
            Found::Solved(PositionSolved {
                to_move: Color::Black,
                score,
                moves: best.into_iter().map(|sq| (sq, score)).collect(),
                line: line.0,
                black,
                white,
                empty,
                nodes: number("nodes")?,
                elapsed: seconds("seconds")?,
                earlier,
            })
        }
        "unsolved" => {
            let text = field("limit")?;
            Found::OutOfTime {
                limit: parse_duration(text).map_err(|e| anyhow!("limit: {e}"))?,
                nodes: number("nodes")?,
                elapsed: seconds("seconds")?,
                earlier,
            }
        }
        other => bail!("{other:?} is not solved or unsolved"),
    };
    Ok((setup, found))
}

/// Plays `line` from the start of `setup` and checks that it ends the game at `count`, and
/// that `best` are legal first moves, each once, among them the line's first move: a cache
/// that says otherwise is damaged, and would put an impossible move in the table.
fn replay(
    setup: &Setup,
    line: &MoveList,
    count: (u32, u32),
    best: &[Square],
) -> anyhow::Result<()> {
    crate::with_bits!(setup.shape, |B| {
        let start = Game::<B>::new(setup, Passes::Explicit)?;
        let mut game = start.clone();
        for (n, &step) in line.iter().enumerate() {
            game.play_listed(step)
                .map_err(|e| anyhow!("line: move {}: {e}", n + 1))?;
        }
        if !game.is_over() {
            bail!("the line does not end the game");
        }
        let score = game.score();
        if (score.black, score.white) != count {
            bail!(
                "the line ends {}-{}, not {}-{} as black= and white= say",
                score.black,
                score.white,
                count.0,
                count.1
            );
        }
        for (n, &sq) in best.iter().enumerate() {
            start
                .check(Move::Play(sq))
                .map_err(|e| anyhow!("best={sq}: not a legal first move: {e}"))?;
            if best[..n].contains(&sq) {
                bail!("best={sq}: listed twice");
            }
        }
        match line.0.first() {
            Some(&Move::Play(first)) if !best.contains(&first) => {
                bail!("the line's first move {first} is not among best=")
            }
            None | Some(Move::Pass) if !best.is_empty() => {
                bail!("best= names moves, but the line does not start with one")
            }
            _ => Ok(()),
        }
    })
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
