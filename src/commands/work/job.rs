//! One job of a work folder: solving it, and what its solve leaves.

use super::folder::{Folder, Job, JobResult, Plan, Round, Task};
use crate::commands::interrupt::Interrupt;
use crate::commands::journal::JournalFile;
use crate::commands::solve::{interruptible, play_listed, position_after, solver};
use crate::notation::MoveList;
use crate::rules::{Bits, Game, Move, Passes, Position, Rules};
use crate::search::Evaluation;
use anyhow::{bail, Context};
use std::path::Path;
use std::time::{Duration, Instant};

/// How a job is solved.
#[derive(Clone, Debug)]
pub struct JobOptions {
    pub threads: usize,
    pub hash_mb: usize,
    /// The evaluation behind the solver's order and the merges' estimates.
    pub eval: Evaluation,
    pub limit: Option<Duration>,
    pub interrupt: Interrupt,
}

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

/// Solves job `index` of `round` (the latest when `None`) of the work folder `dir`.
pub fn run_job(
    dir: &Path,
    round: Option<u32>,
    index: usize,
    options: &JobOptions,
) -> anyhow::Result<JobEnd> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
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
    if index >= round.jobs.len() {
        bail!(
            "job {index}: round {} has {} jobs (0 to {})",
            round.number,
            round.jobs.len(),
            round.jobs.len() as i64 - 1
        );
    }
    run_loaded_job(&folder, &plan, round, index, options)
}

pub(super) fn run_loaded_job(
    folder: &Folder,
    plan: &Plan,
    round: &Round,
    index: usize,
    options: &JobOptions,
) -> anyhow::Result<JobEnd> {
    let job = &round.jobs[index];
    if folder.result(round.number, index, job)?.is_some() {
        return Ok(JobEnd::AlreadyDone);
    }
    crate::with_bits!(plan.start.shape(), |B| {
        job_in::<B>(folder, plan, round.number, index, job, options)
    })
}

fn job_in<B: Bits>(
    folder: &Folder,
    plan: &Plan,
    round: u32,
    index: usize,
    job: &Job,
    options: &JobOptions,
) -> anyhow::Result<JobEnd> {
    let clock = Instant::now();
    let (rules, root) = plan_root::<B>(plan)?;
    if job.position.shape() != rules.shape() {
        bail!(
            "job {index}: a {} position on a {} board",
            job.position.shape(),
            rules.shape()
        );
    }
    let pos = job.position.position::<B>();
    let journal_path = folder.journal_path(&job.journal);
    if let Some(parent) = journal_path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let mut journal = JournalFile::open(&journal_path, &rules)?;
    let mut engine = solver(&rules, options.hash_mb, options.threads, &options.eval);
    engine.keep_journal(Some(std::sync::Arc::clone(&journal.journal)));
    engine.observe(Some(interruptible(options.interrupt.clone(), None)));
    let g = &rules.geometry;
    let mut result = JobResult::new(round, index, job);
    let found = match job.task {
        Task::Window { alpha, beta } => engine
            .solve_window_within(&pos, alpha, beta, options.limit)
            .map(|w| {
                result.score = w.score;
                result.best = match w.best {
                    Some(m) => g.square(m).to_string().to_lowercase(),
                    None if rules.is_over(&pos) => "-".to_string(),
                    None => "pa".to_string(),
                };
            }),
        Task::Line { value } => {
            // The line goes on as a direct solve of the root would play it.
            engine.prepare_for(&root);
            engine
                .perfect_line_within(&pos, value, options.limit)
                .map(|line| {
                    result.score = value;
                    result.line = MoveList(
                        line.iter()
                            .map(|s| s.map_or(Move::Pass, |m| Move::Play(g.square(m))))
                            .collect(),
                    );
                    result.best = match line.first() {
                        Some(Some(m)) => g.square(*m).to_string().to_lowercase(),
                        Some(None) => "pa".to_string(),
                        None => "-".to_string(),
                    };
                })
        }
    };
    engine.observe(None);
    let nodes = engine.nodes();
    let stopped = found.is_none() || options.interrupt.signal().is_some();
    journal.finish(nodes, clock.elapsed(), !stopped);
    if stopped {
        return Ok(JobEnd::Stopped {
            signal: options.interrupt.signal(),
        });
    }
    if let Task::Line { value } = job.task {
        let end = play_out(&rules, &pos, &result.line)?;
        if !rules.is_over(&end) || rules.margin(&end, pos.to_move) != value {
            bail!("internal error: job {index}'s line does not keep the value {value:+}");
        }
    }
    result.nodes = nodes;
    result.seconds = clock.elapsed().as_secs_f64();
    folder.write_result(&result)?;
    Ok(JobEnd::Done(result))
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
