//! `--run-local`: the whole split solve in this process, the jobs of each round spread over
//! worker threads, merging after each round while holding the folder.

use super::folder::Folder;
use super::job::{run_loaded_job, KeptSolver};
use super::job::{JobEnd, JobOptions};
use super::merge::{merge_keeping, MergeCache, Merged, Totals};
use crate::files::LockKind;
use crate::wording::Counted;
use anyhow::{bail, Context};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Runs every job of every round of `dir` here, `workers` at a time, merging after each
/// round, and prints the report.
pub fn run_local(
    dir: &Path,
    workers: usize,
    options: &JobOptions,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> anyhow::Result<Result<Totals, JobEnd>> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
    let mut kept = MergeCache {
        lock: Some(folder.lock(LockKind::Exclusive)?),
        ..MergeCache::default()
    };
    // One solver a worker, kept through every round.
    let mut warm: Vec<KeptSolver> = (0..workers.max(1)).map(|_| KeptSolver::many()).collect();
    loop {
        let rounds = folder.rounds()?;
        let round = rounds
            .last()
            .context("the work folder has no round of jobs")?;
        let mut todo = Vec::new();
        for (i, job) in round.jobs.iter().enumerate() {
            if folder.result(round.number, i, job)?.is_none() {
                todo.push(i);
            }
        }
        if !todo.is_empty() {
            writeln!(
                log,
                "round {}: {} to run",
                round.number,
                Counted(todo.len(), "job")
            )?;
        }
        let next = AtomicUsize::new(0);
        let failure: Mutex<Option<anyhow::Result<JobEnd>>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for warm in warm.iter_mut().take(todo.len().max(1)) {
                let (next, failure, folder, plan, todo) = (&next, &failure, &folder, &plan, &todo);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= todo.len() || options.interrupt.signal().is_some() {
                        return;
                    }
                    match run_loaded_job(folder, plan, round, todo[i], options, warm) {
                        Ok(JobEnd::Done(_) | JobEnd::AlreadyDone) => {}
                        other => {
                            let mut slot = failure.lock().unwrap_or_else(|e| e.into_inner());
                            slot.get_or_insert(other);
                            next.store(usize::MAX / 2, Relaxed);
                            return;
                        }
                    }
                });
            }
        });
        match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Err(e)) => return Err(e),
            Some(Ok(end)) => return Ok(Err(end)),
            None => {}
        }
        if let Some(signal) = options.interrupt.signal() {
            return Ok(Err(JobEnd::Stopped {
                signal: Some(signal),
            }));
        }
        match merge_keeping(dir, &options.search.eval, out, &mut kept)? {
            Merged::Settled(totals) => return Ok(Ok(totals)),
            Merged::NextRound { round, jobs } => {
                writeln!(log, "round {round}: {}", Counted(jobs, "job"))?;
            }
            Merged::Missing(m) => {
                bail!("internal error: {} results missing after a round", m.len())
            }
        }
    }
}
