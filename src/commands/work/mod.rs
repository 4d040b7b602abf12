//! A solve cut into independent jobs for many machines: `othello solve --split N --work DIR`
//! writes the jobs, `--job I` solves one, `--merge` combines the results into the value (or
//! writes the next round's jobs), `--run-local` does it all here.

mod folder;
mod job;
mod outcome;
mod projection;
mod tree;

pub use folder::{Folder, Job, JobResult, Plan, Round, Task};
pub use job::{run_jobs, Batch, JobEnd, JobOptions};
pub use projection::estimate;

use super::solve::{heading, write_solution, PositionSolved};
use super::start::Start;
use crate::files::{FileLock, LockKind};
use crate::notation::{MoveList, PositionString};
use crate::rules::{Bits, Move, Position, Rules};
use crate::search::weights::fnv1a;
use crate::search::{Evaluation, RootMoves};
use crate::words::Counted;
use anyhow::{bail, Context};
use job::{plan_root, play_out, run_loaded_job, spread, Warm};
use outcome::pass;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;
use tree::Tree;

/// The exit status of a job stopped by its `--limit`: its work is kept, run it again.
pub const STATUS_JOB_STOPPED: u8 = 3;
/// The exit status of a merge that wrote the next round's jobs.
pub const STATUS_NEXT_ROUND: u8 = 4;
/// The exit status of a merge that found results missing (and wrote nothing).
pub const STATUS_MISSING: u8 = 5;

/// The most jobs a split may ask for.
pub const MAX_SPLIT: usize = 10_000_000;

/// What a merge found.
#[derive(Clone, Debug, PartialEq)]
pub enum Merged {
    /// The value is settled and the report printed.
    Settled(Totals),
    /// The next round's jobs are written.
    NextRound { round: u32, jobs: usize },
    /// These results (round, job) are missing; nothing was written.
    Missing(Vec<(u32, usize)>),
}

/// The work of every job of a settled solve.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    pub rounds: u32,
    pub jobs: usize,
    pub nodes: u64,
    /// Each job's seconds, in the order of the rounds.
    pub seconds: Vec<f64>,
}

impl Totals {
    /// One line: jobs, rounds, time in all, the median and the largest job.
    pub fn summary(&self) -> String {
        let (median, largest) = spread(&self.seconds);
        // Summed from +0: an empty sum of floats is -0, which would print as "-0.000".
        let total = self.seconds.iter().fold(0.0, |sum, s| sum + s);
        format!(
            "{} in {}, {} nodes, {total:.3} s in all, median job {median:.3} s, \
             largest {largest:.3} s",
            Counted(self.jobs, "job"),
            Counted(self.rounds, "round"),
            self.nodes
        )
    }
}

/// A name for the journal of `pos` and its images: the hash of its text.
fn journal_name(text: &str) -> String {
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// What the estimates of a merge under `rules` depend on, in a word or two: the learned weights
/// the evaluation takes on this board (by their hash), else its classic terms.
fn evaluation_mark<B: Bits>(eval: &Evaluation, rules: &Rules<B>) -> String {
    let g = &rules.geometry;
    match eval.weights_for(g.rows(), g.cols(), rules.variant) {
        Some(w) => format!("weights {:016x}", fnv1a(&w.to_bytes())),
        None => "classic".to_string(),
    }
}

/// What a split is asked: the position reached from `start` by `moves`, which of its moves
/// get exact values, and about how many jobs round 1 holds.
#[derive(Clone, Copy, Debug)]
pub struct SplitAsked<'a> {
    pub start: &'a Start,
    pub moves: &'a MoveList,
    pub which: RootMoves,
    pub jobs: usize,
}

/// Writes the work folder `dir` for what is `asked`: about its number of jobs in round 1, at
/// the shallowest depth that gives that many. A signal stops it before anything is written.
pub fn split(
    asked: SplitAsked,
    eval: &Evaluation,
    dir: &Path,
    interrupt: &crate::commands::Interrupt,
    out: &mut dyn Write,
) -> anyhow::Result<Round> {
    let SplitAsked {
        start,
        moves,
        which,
        jobs,
    } = asked;
    if !(1..=MAX_SPLIT).contains(&jobs) {
        bail!("--split {jobs}: from 1 to {MAX_SPLIT} jobs");
    }
    let folder = Folder::new(dir);
    let mut plan = Plan {
        start: start.clone(),
        moves: moves.clone(),
        which: if which == RootMoves::All {
            RootMoves::All
        } else {
            RootMoves::Ties
        },
        split: jobs,
        depth: 0,
    };
    if folder.plan_path().exists() {
        let held = folder.plan()?;
        if (Plan {
            depth: 0,
            ..held.clone()
        }) != plan
        {
            bail!(
                "{} holds another solve (see its work.txt); give another --work folder",
                dir.display()
            );
        }
        let rounds = folder.rounds()?;
        let last = rounds
            .last()
            .context("the work folder has no round of jobs")?;
        writeln!(
            out,
            "# {}: already split, {} written",
            dir.display(),
            Counted(rounds.len(), "round")
        )?;
        writeln!(
            out,
            "round {}: {}",
            last.number,
            Counted(last.jobs.len(), "job")
        )?;
        return Ok(last.clone());
    }
    if dir.exists() && std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_some()) {
        bail!(
            "{} exists and is not an empty folder: --work makes a new folder of its own",
            dir.display()
        );
    }
    let (round, depth, guess, (mark, estimates)) = crate::with_bits!(start.shape(), |B| {
        let (rules, root) = plan_root::<B>(&plan)?;
        let empties = rules.empty(&root).count();
        let mut tree = Tree::new(rules, empties, eval);
        let guess = tree.guess(&root);
        let depth = projection::first_round(&mut tree, &root, plan.which, jobs, interrupt)?;
        let (wants, lines) = (tree.wants(), tree.lines_asked.clone());
        plan.depth = depth;
        let round = round_of(&tree, 1, &wants, &lines);
        let estimates = tree.take_estimates();
        let entries = estimate_entries(&tree.rules.geometry, &estimates);
        let mark = evaluation_mark(eval, &tree.rules);
        anyhow::Ok((round, depth, guess, (mark, entries)))
    })?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    crate::files::write_atomic(&folder.plan_path(), plan.text().as_bytes())
        .with_context(|| format!("cannot write {}", folder.plan_path().display()))?;
    folder.write_estimates(&mark, estimates)?;
    folder.write_round(&round)?;
    writeln!(out, "# {}", heading(start, moves))?;
    writeln!(
        out,
        "# split {} deep: {} (about {jobs} asked), first guess {guess:+}",
        Counted(depth, "move"),
        Counted(round.jobs.len(), "job")
    )?;
    writeln!(out, "round 1: {}", Counted(round.jobs.len(), "job"))?;
    Ok(round)
}

/// `estimates` as an estimates file holds them: (depth, estimate, position).
fn estimate_entries<B: Bits>(
    g: &crate::rules::Geometry<B>,
    estimates: &tree::Estimates<B>,
) -> Vec<(u32, i32, PositionString)> {
    estimates
        .iter()
        .map(|(&(pos, depth), &e)| (depth, e, PositionString::from_position(g, &pos)))
        .collect()
}

/// Round `number` of the jobs `wants` and `lines` ask for.
fn round_of<B: Bits>(
    tree: &Tree<B>,
    number: u32,
    wants: &[tree::Want<B>],
    lines: &[(Position<B>, i32)],
) -> Round {
    let g = &tree.rules.geometry;
    let name = |pos: &Position<B>| {
        journal_name(&PositionString::from_position(g, &tree.canonical(pos)).to_string())
    };
    let mut jobs: Vec<Job> = wants
        .iter()
        .map(|w| Job {
            task: Task::Window {
                alpha: w.alpha,
                beta: w.beta,
            },
            estimate: w.estimate,
            journal: name(&w.position),
            position: PositionString::from_position(g, &w.position),
        })
        .collect();
    jobs.extend(lines.iter().map(|(pos, value)| Job {
        task: Task::Line { value: *value },
        estimate: *value,
        journal: name(pos),
        position: PositionString::from_position(g, pos),
    }));
    Round { number, jobs }
}

/// Merges the results of `dir`: prints the report when they settle the value, otherwise
/// writes the next round's jobs.
pub fn merge(dir: &Path, eval: &Evaluation, out: &mut dyn Write) -> anyhow::Result<Merged> {
    merge_keeping(dir, eval, out, &mut Kept::default())
}

/// What one merge leaves for the next in the same process: the estimates that order moves,
/// which are most of a merge's own work.
#[derive(Default)]
pub struct Kept {
    estimates: Option<Box<dyn std::any::Any + Send>>,
    /// The folder's lock, when the merges are those of a run that holds it already.
    lock: Option<FileLock>,
}

/// As [`merge`], reusing and adding to what earlier merges of the same folder kept.
fn merge_keeping(
    dir: &Path,
    eval: &Evaluation,
    out: &mut dyn Write,
    kept: &mut Kept,
) -> anyhow::Result<Merged> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
    let _lock = kept
        .lock
        .is_none()
        .then(|| folder.lock(LockKind::Shared))
        .transpose()?;
    let rounds = folder.rounds()?;
    if rounds.is_empty() {
        bail!(
            "{}: no round of jobs (the split did not finish?)",
            dir.display()
        );
    }
    let mut results = Vec::new();
    let mut missing = Vec::new();
    for round in &rounds {
        for (i, job) in round.jobs.iter().enumerate() {
            match folder.result(round.number, i, job)? {
                Some(r) => results.push(r),
                None => missing.push((round.number, i)),
            }
        }
    }
    if !missing.is_empty() {
        return Ok(Merged::Missing(missing));
    }
    crate::with_bits!(plan.start.shape(), |B| {
        merge_in::<B>(&folder, &plan, &rounds, &results, eval, out, kept)
    })
}

fn merge_in<B: Bits>(
    folder: &Folder,
    plan: &Plan,
    rounds: &[Round],
    results: &[JobResult],
    eval: &Evaluation,
    out: &mut dyn Write,
    kept: &mut Kept,
) -> anyhow::Result<Merged> {
    let totals = Totals {
        rounds: rounds.len() as u32,
        jobs: results.len(),
        nodes: results.iter().fold(0u64, |n, r| n.saturating_add(r.nodes)),
        seconds: results.iter().map(|r| r.seconds).collect(),
    };
    let (rules, root) = plan_root::<B>(plan)?;
    let empties = rules.empty(&root).count();
    let mut tree = Tree::new(rules.clone(), empties.saturating_sub(plan.depth), eval);
    let g = &rules.geometry;
    let mark = evaluation_mark(eval, &rules);
    // Those of the merge before, here or else in the folder: a merge of a job array is a
    // process of its own, and working them out again would be most of its time.
    let estimates = match kept
        .estimates
        .take()
        .map(|e| e.downcast::<tree::Estimates<B>>())
    {
        Some(Ok(estimates)) => *estimates,
        _ => folder
            .estimates(&mark)
            .into_iter()
            .filter(|(_, _, pos)| pos.shape() == rules.shape())
            .map(|(depth, estimate, pos)| ((pos.position::<B>(), depth), estimate))
            .collect(),
    };
    let known = estimates.len();
    tree.keep_estimates(estimates);
    let cells = g.cell_count() as i32;
    for r in results {
        let name = || {
            format!(
                "{} (round {} job {}, {})",
                folder.result_path(r.round, r.job).display(),
                r.round,
                r.job,
                r.position
            )
        };
        if r.position.shape() != rules.shape() {
            bail!("{}: a position of another board", name());
        }
        let pos = r.position.position::<B>();
        if r.score.abs() > cells {
            bail!(
                "{}: a score of {}, beyond the {cells} cells of the board",
                name(),
                r.score
            );
        }
        match r.task {
            Task::Window { alpha, beta } => {
                tree.learn(&pos, r.score, alpha, beta).with_context(name)?
            }
            Task::Line { value } => {
                let line = r
                    .line
                    .0
                    .iter()
                    .map(|m| match m {
                        Move::Play(sq) => {
                            g.index(*sq).map(Some).context("a line move off the board")
                        }
                        Move::Pass => Ok(None),
                    })
                    .collect::<anyhow::Result<Vec<_>>>()?;
                tree.learn_line(&pos, value, line);
            }
        }
    }
    let outcome = pass(&mut tree, &root, plan.which);
    let estimates = tree.take_estimates();
    if estimates.len() > known {
        folder.write_estimates(&mark, estimate_entries(g, &estimates))?;
    }
    kept.estimates = Some(Box::new(estimates));
    let Some(outcome) = outcome? else {
        let wants = tree.wants();
        let lines = tree.lines_asked.clone();
        if wants.is_empty() && lines.is_empty() {
            bail!("internal error: the results settle nothing and ask for nothing");
        }
        let number = rounds.len() as u32 + 1;
        let round = round_of(&tree, number, &wants, &lines);
        folder.write_round(&round)?;
        return Ok(Merged::NextRound {
            round: number,
            jobs: round.jobs.len(),
        });
    };
    // Moves of equal value in the order a direct solve lists them.
    let order = tree.root_order(&root);
    let place = |m: usize| order.iter().position(|&o| o == m);
    let mut moves = outcome.moves;
    moves.sort_by_key(|&(m, v)| (std::cmp::Reverse(v), place(m)));
    let line: Vec<Move> = outcome
        .line
        .iter()
        .map(|s| s.map_or(Move::Pass, |m| Move::Play(g.square(m))))
        .collect();
    let end = play_out(&rules, &root, &MoveList(line.clone()))?;
    if !rules.is_over(&end) || rules.margin(&end, root.to_move) != outcome.value {
        bail!(
            "internal error: the merged line does not keep the value {:+}",
            outcome.value
        );
    }
    let (black, white) = end.score();
    let solved = PositionSolved {
        to_move: root.to_move,
        score: outcome.value,
        moves: moves.iter().map(|&(m, v)| (g.square(m), v)).collect(),
        line,
        black,
        white,
        empty: rules.empty(&end).count(),
        nodes: totals.nodes,
        // Each job's time is bounded when read, so their sum is a duration.
        elapsed: Duration::try_from_secs_f64(totals.seconds.iter().fold(0.0, |sum, s| sum + s))
            .unwrap_or(Duration::MAX),
        earlier: Default::default(),
    };
    writeln!(out, "# {}", heading(&plan.start, &plan.moves))?;
    write_solution(out, &solved, plan.which)?;
    Ok(Merged::Settled(totals))
}

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
    let mut kept = Kept {
        lock: Some(folder.lock(LockKind::Exclusive)?),
        ..Kept::default()
    };
    // One solver a worker, kept through every round.
    let mut warm: Vec<Warm> = (0..workers.max(1)).map(|_| Warm::many()).collect();
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
        match merge_keeping(dir, &options.eval, out, &mut kept)? {
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

/// Jobs `(round, index)` as ranges, round by round: `round 2 jobs 0-3, 7`.
pub fn listed(jobs: &[(u32, usize)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < jobs.len() {
        let round = jobs[i].0;
        let mut ranges = Vec::new();
        while i < jobs.len() && jobs[i].0 == round {
            let first = jobs[i].1;
            let mut last = first;
            while i + 1 < jobs.len() && jobs[i + 1] == (round, last + 1) {
                i += 1;
                last += 1;
            }
            ranges.push(if first == last {
                first.to_string()
            } else {
                format!("{first}-{last}")
            });
            i += 1;
        }
        parts.push(format!("round {round} jobs {}", ranges.join(", ")));
    }
    parts.join("; ")
}
