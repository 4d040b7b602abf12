//! One job of a work folder: solving it, and what its solve leaves.

use super::folder::{Folder, Job, JobResult, Plan, Round, Task};
use crate::files::LockKind;
use crate::interrupt::Interrupt;
use crate::notation::MoveList;
use crate::rules::{Bits, Game, Move, Passes, Position, Rules};
use crate::search::{Config, Engine, Table};
use crate::solve::journal::JournalFile;
use crate::solve::position::{interruptible, play_listed, position_after};
use crate::wording::Counted;
use anyhow::{bail, Context};
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The exit status of a job stopped by its `--limit`: its work is kept, run it again.
pub const STATUS_JOB_STOPPED: u8 = 3;

/// How a job is solved.
#[derive(Clone, Debug)]
pub struct JobOptions {
    /// The solver's settings; its evaluation orders the solver's moves and makes the merges'
    /// estimates.
    pub search: Config,
    pub limit: Option<Duration>,
    pub interrupt: Interrupt,
    /// How long a coordinator lets a job run, while workers are idle, before it splits the job
    /// among them ([`SPLIT_AFTER`] unless told).
    pub split_after: Duration,
    /// Whether a coordinator with idle workers has them test moves at estimates before the
    /// values those tests depend on are known.
    pub speculate: bool,
    /// The cores of each machine, where not those its workers may run on ([`super::Cores`]).
    pub cores: Option<usize>,
}

/// How long a job runs before a coordinator with idle workers splits it: a job that ends
/// sooner is cheaper to wait for than to share.
pub const SPLIT_AFTER: Duration = Duration::from_secs(2);

/// How a job ended.
#[derive(Clone, Debug, PartialEq)]
pub enum JobEnd {
    /// Its result is written.
    Done(JobResult),
    /// Its result was already there: nothing was done.
    AlreadyDone,
    /// Its limit, or a signal, stopped it; the work is in its journal.
    Stopped { signal: Option<i32> },
}

/// The solver of whoever runs many jobs of one folder in turn (a worker of the local runner,
/// a batch), kept from one job to the next: its table, and under SIMPLE rules its values of
/// sets of empty cells, carry over as a direct solve's do from one subtree to the next; a job
/// run alone starts cold. Every entry a kept table holds is a bound proven under the folder's
/// rules, so a warm job proves what a cold one would, sooner.
#[derive(Default)]
pub struct KeptSolver {
    engine: Option<Box<dyn Any + Send>>,
    /// Whether the solver is kept for many jobs, and so worth setting up for the whole root.
    many: bool,
    /// The table the solver shares with other workers, if it does.
    table: Option<Arc<Table>>,
}

impl KeptSolver {
    /// A solver kept for many jobs.
    pub fn many() -> Self {
        KeptSolver {
            engine: None,
            many: true,
            table: None,
        }
    }

    /// A solver kept for many jobs, with `table` shared with other workers: what one worker
    /// proves, the others find, as a single worker finds what its earlier jobs proved.
    pub fn sharing(table: Arc<Table>) -> Self {
        KeptSolver {
            table: Some(table),
            ..KeptSolver::many()
        }
    }

    /// The kept solver, when it is one for boards of `B`; otherwise a new one, set up for
    /// the whole `root` when it will serve many jobs under it.
    fn take<B: Bits>(&mut self, root: &Position<B>, make: impl FnOnce() -> Engine<B>) -> Engine<B> {
        match self.engine.take().map(|e| e.downcast::<Engine<B>>()) {
            Some(Ok(engine)) => *engine,
            _ => {
                let mut engine = make();
                if let Some(table) = &self.table {
                    engine.share_table(Arc::clone(table));
                }
                if self.many {
                    engine.prepare_for(root);
                    engine.one_solve();
                }
                engine
            }
        }
    }

    fn keep<B: Bits>(&mut self, engine: Engine<B>) {
        self.engine = Some(Box::new(engine));
    }
}

/// The median and the largest of job times (zero for none).
pub(super) fn spread(seconds: &[f64]) -> (f64, f64) {
    let mut sorted = seconds.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    (median, sorted.last().copied().unwrap_or(0.0))
}

/// The rules and the position a plan solves.
pub(super) fn plan_root<B: Bits>(plan: &Plan) -> anyhow::Result<(Rules<B>, Position<B>)> {
    position_after(&plan.start, &plan.moves)
}

/// Which jobs of a round one run solves: batch `index` of `size` jobs, those from
/// `index * size` (one job when `size` is 1). A batch shares one solver (see [`KeptSolver`]), so a
/// task of a job array that solves a few neighbouring jobs finds in its table what the ones
/// before proved, and the array has fewer tasks to schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    pub index: usize,
    pub size: usize,
}

impl Batch {
    /// The jobs of the batch in a round of `jobs` jobs, or why there are none.
    fn jobs(&self, round: &Round) -> anyhow::Result<std::ops::Range<usize>> {
        let count = round.jobs.len();
        let first = self.index.checked_mul(self.size).filter(|&f| f < count);
        match first {
            Some(first) => Ok(first..count.min(first + self.size)),
            None if self.size == 1 => bail!(
                "job {}: round {} has {} (0 to {})",
                self.index,
                round.number,
                Counted(count, "job"),
                count as i64 - 1
            ),
            None => bail!(
                "batch {}: round {} has {}, {} of {} (0 to {})",
                self.index,
                round.number,
                Counted(count, "job"),
                Counted(count.div_ceil(self.size), "batch"),
                self.size,
                count.div_ceil(self.size) as i64 - 1
            ),
        }
    }
}

/// Solves the jobs of `batch` in `round` (the latest when `None`) of the work folder `dir`, in
/// turn, calling `each` with each job's index and end; stops at the first job stopped and
/// gives its end, or `None` when every job has its result.
pub fn run_jobs(
    dir: &Path,
    round: Option<u32>,
    batch: Batch,
    options: &JobOptions,
    each: &mut dyn FnMut(usize, &JobEnd) -> anyhow::Result<()>,
) -> anyhow::Result<Option<JobEnd>> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
    let _lock = folder.lock(LockKind::Shared)?;
    let rounds = folder.rounds()?;
    let round = match round {
        None => rounds
            .last()
            .context("the work folder has no round of jobs")?,
        Some(r) => rounds.iter().find(|x| x.number == r).with_context(|| {
            format!(
                "--round {r}: the work folder has rounds 1 to {}",
                rounds.len()
            )
        })?,
    };
    let mut warm = KeptSolver::default();
    for index in batch.jobs(round)? {
        let end = run_loaded_job(&folder, &plan, round, index, options, &mut warm)?;
        each(index, &end)?;
        if let JobEnd::Stopped { .. } = end {
            return Ok(Some(end));
        }
    }
    Ok(None)
}

pub(super) fn run_loaded_job(
    folder: &Folder,
    plan: &Plan,
    round: &Round,
    index: usize,
    options: &JobOptions,
    warm: &mut KeptSolver,
) -> anyhow::Result<JobEnd> {
    let job = &round.jobs[index];
    if folder.result(round.number, index, job)?.is_some() {
        return Ok(JobEnd::AlreadyDone);
    }
    crate::with_bits!(plan.start.shape(), |B| {
        job_in::<B>(folder, plan, round.number, index, job, options, warm)
    })
}

fn job_in<B: Bits>(
    folder: &Folder,
    plan: &Plan,
    round: u32,
    index: usize,
    job: &Job,
    options: &JobOptions,
    warm: &mut KeptSolver,
) -> anyhow::Result<JobEnd> {
    let clock = Instant::now();
    let (rules, root) = plan_root::<B>(plan)?;
    let journal = open_journal(folder, job, &rules)?;
    if folder.result(round, index, job)?.is_some() {
        return Ok(JobEnd::AlreadyDone);
    }
    let solved = solve_job(&rules, &root, job, journal, options, warm, None)?;
    let Some(found) = solved
        .found
        .filter(|_| options.interrupt.signal().is_none())
    else {
        return Ok(JobEnd::Stopped {
            signal: options.interrupt.signal(),
        });
    };
    let mut result = JobResult::new(round, index, job);
    result.score = found.score;
    result.best = found.best;
    result.line = found.line;
    result.nodes = solved.nodes;
    result.seconds = clock.elapsed().as_secs_f64();
    folder.write_result(&result)?;
    Ok(JobEnd::Done(result))
}

/// The journal of `job`, opened (and so locked) for solving it. The journal's lock is the
/// job's too: another run of this job (a requeued task, a resubmitted array) holds it while
/// it works, and its result may be there once it ends.
pub(super) fn open_journal<B: Bits>(
    folder: &Folder,
    job: &Job,
    rules: &Rules<B>,
) -> anyhow::Result<JournalFile<B>> {
    JournalFile::open(&journal_path(folder, job, rules)?, rules)
}

/// Where the journal of `job` goes, its folder made.
fn journal_path<B: Bits>(folder: &Folder, job: &Job, rules: &Rules<B>) -> anyhow::Result<PathBuf> {
    if job.position.shape() != rules.shape() {
        bail!(
            "a {} position on a {} board: {}",
            job.position.shape(),
            rules.shape(),
            job.position
        );
    }
    let path = folder.journal_path(&job.journal);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    Ok(path)
}

/// The journal of a job a coordinator handed out: written only once the job has run a second
/// or is stopped sooner (see [`JournalFile::open_when_needed`]), and without a lock of its
/// own, since the coordinator's lock on the folder keeps every other run away.
pub(super) fn handed_out_journal<B: Bits>(
    folder: &Folder,
    job: &Job,
    rules: &Rules<B>,
) -> anyhow::Result<JournalFile<B>> {
    let path = journal_path(folder, job, rules)?;
    JournalFile::open_when_needed(&path, rules)
}

/// What solving a job proved: the fail-soft score of its window (or the value of its line),
/// a move that reaches it and the line.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub score: i32,
    /// In standard notation: `pa` for a pass, `-` for none.
    pub best: String,
    pub line: MoveList,
}

/// `SCORE BEST LINE`, the line `-` when empty: as the record and the reports write it.
impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line.is_empty() {
            true => write!(f, "{} {} -", self.score, self.best),
            false => write!(f, "{} {} {}", self.score, self.best, self.line),
        }
    }
}

impl std::str::FromStr for Found {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Found> {
        let [score, best, line] = text.split(' ').collect::<Vec<_>>()[..] else {
            bail!("{text:?} is not a score, a move and a line");
        };
        Found::from_words(score, best, line)
    }
}

impl Found {
    /// From the three words `SCORE BEST LINE` as written, each read where a line holds them.
    pub(super) fn from_words(score: &str, best: &str, line: &str) -> anyhow::Result<Found> {
        Ok(Found {
            score: score.parse()?,
            best: best.to_string(),
            line: match line {
                "-" => MoveList::default(),
                moves => moves.parse().map_err(|e| anyhow::anyhow!("line: {e}"))?,
            },
        })
    }
}

/// A job's solve: what it found (`None` when stopped first) and the nodes it took.
pub(super) struct Solved {
    pub(super) found: Option<Found>,
    pub(super) nodes: u64,
}

/// Solves `job` of the solve of `root` with the kept solver, its work kept in `journal`;
/// stopped by a signal, the job's limit, or `stop` (a coordinator's cancel), its work stays in
/// the journal.
pub(super) fn solve_job<B: Bits>(
    rules: &Rules<B>,
    root: &Position<B>,
    job: &Job,
    mut journal: JournalFile<B>,
    options: &JobOptions,
    warm: &mut KeptSolver,
    stop: Option<crate::search::Observer>,
) -> anyhow::Result<Solved> {
    let clock = Instant::now();
    let pos = job.position.position::<B>();
    let mut engine = warm.take(root, || Engine::new(rules.clone(), options.search.clone()));
    engine.keep_journal(Some(Arc::clone(&journal.journal)));
    engine.observe(Some(interruptible(options.interrupt.clone(), stop)));
    let g = &rules.geometry;
    // A window's solve counts its nodes from zero; a line goes on from the count of the solve
    // before it (as a direct solve's report counts both), here the kept solver's last job.
    let counted = engine.nodes();
    let found = match job.task {
        Task::Window { alpha, beta } => engine
            .solve_window_within(&pos, alpha, beta, options.limit)
            .map(|w| Found {
                score: w.score,
                best: match w.best {
                    Some(m) => g.square(m).to_string().to_lowercase(),
                    None if rules.is_over(&pos) => "-".to_string(),
                    None => "pa".to_string(),
                },
                line: MoveList::default(),
            }),
        Task::Line { value } => {
            // The line goes on as a direct solve of the root would play it.
            engine.prepare_for(root);
            engine
                .perfect_line_within(&pos, value, options.limit)
                .map(|line| Found {
                    score: value,
                    best: match line.first() {
                        Some(Some(m)) => g.square(*m).to_string().to_lowercase(),
                        Some(None) => "pa".to_string(),
                        None => "-".to_string(),
                    },
                    line: MoveList(
                        line.iter()
                            .map(|s| s.map_or(Move::Pass, |m| Move::Play(g.square(m))))
                            .collect(),
                    ),
                })
        }
    };
    engine.observe(None);
    engine.keep_journal(None);
    let nodes = match job.task {
        Task::Window { .. } => engine.nodes(),
        Task::Line { .. } => engine.nodes().saturating_sub(counted),
    };
    warm.keep(engine);
    let stopped = found.is_none() || options.interrupt.signal().is_some();
    journal.finish(nodes, clock.elapsed(), !stopped);
    if let (Some(found), Task::Line { value }) = (&found, job.task) {
        let end = play_out(rules, &pos, &found.line)?;
        if !rules.is_over(&end) || rules.margin(&end, pos.to_move) != value {
            bail!(
                "internal error: the line of {} does not keep the value {value:+}",
                job.position
            );
        }
    }
    Ok(Solved { found, nodes })
}

/// The position at the end of `line` played from `pos`.
pub(super) fn play_out<B: Bits>(
    rules: &Rules<B>,
    pos: &Position<B>,
    line: &MoveList,
) -> anyhow::Result<Position<B>> {
    let mut game = Game::from_position(rules.clone(), *pos, Passes::Automatic);
    play_listed(&mut game, &line.0)?;
    Ok(*game.position())
}
