//! The merge: every result of every round so far read into the tree; either the value is
//! settled and the report printed, or the next round's jobs are written.

use super::folder::{Folder, JobResult, Plan, Round, Task};
use super::job::{plan_root, play_out, spread};
use super::outcome::{pass, Settled};
use super::record::{Entry, Record};
use super::round::{estimate_entries, evaluation_mark, round_of};
use super::tree::{Estimates, Tree};
use crate::files::{FileLock, LockKind};
use crate::notation::{MoveList, PositionString};
use crate::rules::{Bits, Move, Position, Rules};
use crate::search::Evaluation;
use crate::solve::position::{heading, write_solution, PositionSolved};
use crate::wording::Counted;
use anyhow::{bail, Context};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// The exit status of a merge that wrote the next round's jobs.
pub const STATUS_NEXT_ROUND: u8 = 4;

/// The exit status of a merge that found results missing (and wrote nothing).
pub const STATUS_MISSING: u8 = 5;

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
    /// The rounds of jobs merged; none for a coordinated solve.
    pub rounds: u32,
    pub jobs: usize,
    /// Jobs stopped before they ended because a result made them pointless (their nodes are
    /// counted, their seconds are not).
    pub cancelled: usize,
    pub nodes: u64,
    /// Each job's seconds, in the order of the rounds.
    pub seconds: Vec<f64>,
}

impl Totals {
    /// One line: jobs, rounds (or jobs cancelled), time in all, the median and the largest
    /// job.
    pub fn summary(&self) -> String {
        let (median, largest) = spread(&self.seconds);
        // Summed from +0: an empty sum of floats is -0, which would print as "-0.000".
        let total = self.seconds.iter().fold(0.0, |sum, s| sum + s);
        let how = match self.rounds {
            0 => format!(", {} cancelled", self.cancelled),
            _ => format!(" in {}", Counted(self.rounds, "round")),
        };
        format!(
            "{}{how}, {} nodes, {total:.3} s in all, median job {median:.3} s, \
             largest {largest:.3} s",
            Counted(self.jobs, "job"),
            self.nodes
        )
    }
}

/// Merges the results of `dir`: prints the report when they settle the value, otherwise
/// writes the next round's jobs.
pub fn merge(dir: &Path, eval: &Evaluation, out: &mut dyn Write) -> anyhow::Result<Merged> {
    merge_keeping(dir, eval, out, &mut MergeCache::default())
}

/// What one merge leaves for the next in the same process: the estimates that order moves,
/// which are most of a merge's own work.
#[derive(Default)]
pub(super) struct MergeCache {
    pub(super) estimates: Option<Box<dyn std::any::Any + Send>>,
    /// The folder's lock, when the merges are those of a run that holds it already.
    pub(super) lock: Option<FileLock>,
}

/// As [`merge`], reusing and adding to what earlier merges of the same folder kept.
pub(super) fn merge_keeping(
    dir: &Path,
    eval: &Evaluation,
    out: &mut dyn Write,
    kept: &mut MergeCache,
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
    let mut answers = Answers::default();
    for round in &rounds {
        for (i, job) in round.jobs.iter().enumerate() {
            match folder.result(round.number, i, job)? {
                Some(r) => answers.results.push(r),
                None => answers.missing.push((round.number, i)),
            }
        }
    }
    crate::with_bits!(plan.start.shape(), |B| {
        merge_in::<B>(&folder, &plan, &rounds, answers, eval, out, kept)
    })
}

/// What the rounds' jobs have answered: their results, and the jobs (round, index) without one.
#[derive(Default)]
struct Answers {
    results: Vec<JobResult>,
    missing: Vec<(u32, usize)>,
}

fn merge_in<B: Bits>(
    folder: &Folder,
    plan: &Plan,
    rounds: &[Round],
    Answers { results, missing }: Answers,
    eval: &Evaluation,
    out: &mut dyn Write,
    kept: &mut MergeCache,
) -> anyhow::Result<Merged> {
    let mut totals = Totals {
        rounds: rounds.len() as u32,
        jobs: results.len(),
        cancelled: 0,
        nodes: results.iter().fold(0u64, |n, r| n.saturating_add(r.nodes)),
        seconds: results.iter().map(|r| r.seconds).collect(),
    };
    let (rules, root) = plan_root::<B>(plan)?;
    let mut tree = plan_tree(plan, &rules, &root, eval);
    let mark = evaluation_mark(eval, &rules);
    // Those of the merge before, here or else in the folder: a merge of a job array is a
    // process of its own, and working them out again would be most of its time.
    let estimates = match kept
        .estimates
        .take()
        .map(|e| e.downcast::<super::tree::Estimates<B>>())
    {
        Some(Ok(estimates)) => *estimates,
        _ => kept_estimates(folder, &tree, &mark),
    };
    let known = estimates.len();
    tree.keep_estimates(estimates);
    for r in &results {
        let name = || {
            format!(
                "{} (round {} job {}, {})",
                folder.result_path(r.round, r.job).display(),
                r.round,
                r.job,
                r.position
            )
        };
        learn(&mut tree, &r.position, r.task, r.score, &r.line).with_context(name)?;
    }
    // And what a coordinated run on the folder proved and split.
    let record = Record::path(folder).display().to_string();
    for entry in Record::read(folder)? {
        learn_entry(&mut tree, &mut totals, &entry).with_context(|| record.clone())?;
    }
    let outcome = pass(&mut tree, &root, plan.which);
    let estimates = tree.take_estimates();
    if estimates.len() > known {
        folder.write_estimates(&mark, estimate_entries(&rules.geometry, &estimates))?;
    }
    kept.estimates = Some(Box::new(estimates));
    let Some(outcome) = outcome? else {
        // The value waits on jobs of the rounds not solved yet: solve them first.
        if !missing.is_empty() {
            return Ok(Merged::Missing(missing));
        }
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
    write_report(&mut tree, plan, &root, outcome, &totals, out)?;
    Ok(Merged::Settled(totals))
}

/// The tree of `plan`'s solve of `root`: positions within `plan.depth` moves of it are merged,
/// the others are jobs.
pub(super) fn plan_tree<B: Bits>(
    plan: &Plan,
    rules: &Rules<B>,
    root: &Position<B>,
    eval: &Evaluation,
) -> Tree<B> {
    let empties = rules.empty(root).count();
    let mut tree = Tree::new(rules.clone(), empties.saturating_sub(plan.depth), eval);
    // Under SIMPLE rules, the sets of empty cells that order the moves (and the lines).
    tree.prepare_lines(root);
    tree
}

/// The estimates the folder keeps for `tree`'s board under the evaluation `mark` names.
pub(super) fn kept_estimates<B: Bits>(folder: &Folder, tree: &Tree<B>, mark: &str) -> Estimates<B> {
    folder
        .estimates(mark)
        .into_iter()
        .filter(|(_, _, pos)| pos.shape() == tree.rules.shape())
        .map(|(depth, estimate, pos)| ((pos.position::<B>(), depth), estimate))
        .collect()
}

/// Adds an entry of the record to `tree` (a job split, or what a job proved) and to `totals`
/// (the job's work): as a coordinator learns it when the job ends, and as a run started again
/// or `--merge` reads it from the record.
pub(super) fn learn_entry<B: Bits>(
    tree: &mut Tree<B>,
    totals: &mut Totals,
    entry: &Entry,
) -> anyhow::Result<()> {
    let job = match entry {
        Entry::Split(position) => {
            if position.shape() != tree.rules.shape() {
                bail!("{position}: a position of another board");
            }
            tree.split(&position.position::<B>());
            return Ok(());
        }
        Entry::Job(job) => job,
    };
    totals.nodes = totals.nodes.saturating_add(job.nodes);
    match &job.found {
        Some(found) => {
            learn(tree, &job.position, job.task, found.score, &found.line)
                .with_context(|| format!("job {} ({})", job.id, job.position))?;
            totals.jobs += 1;
            totals.seconds.push(job.seconds());
        }
        None => totals.cancelled += 1,
    }
    Ok(())
}

/// Adds to `tree` what a job proved of `position`: a fail-soft `score` of its window, or a
/// `line` of the value its task gives.
pub(super) fn learn<B: Bits>(
    tree: &mut Tree<B>,
    position: &PositionString,
    task: Task,
    score: i32,
    line: &MoveList,
) -> anyhow::Result<()> {
    let rules = &tree.rules;
    if position.shape() != rules.shape() {
        bail!("a position of another board");
    }
    let cells = rules.geometry.cell_count() as i32;
    if score.abs() > cells {
        bail!("a score of {score}, beyond the {cells} cells of the board");
    }
    let pos = position.position::<B>();
    match task {
        Task::Window { alpha, beta } => tree.learn(&pos, score, alpha, beta),
        Task::Line { value } => {
            let g = &rules.geometry;
            let line = line
                .0
                .iter()
                .map(|m| match m {
                    Move::Play(sq) => g.index(*sq).map(Some).context("a line move off the board"),
                    Move::Pass => Ok(None),
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            tree.learn_line(&pos, value, line);
            Ok(())
        }
    }
}

/// Prints the report of a settled solve of `root`, as a direct solve prints it, with the work
/// of `totals`.
pub(super) fn write_report<B: Bits>(
    tree: &mut Tree<B>,
    plan: &Plan,
    root: &Position<B>,
    outcome: Settled,
    totals: &Totals,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let rules = tree.rules.clone();
    let g = &rules.geometry;
    // Moves of equal value in the order a direct solve lists them.
    let order = tree.root_order(root);
    let place = |m: usize| order.iter().position(|&o| o == m);
    let mut moves = outcome.moves;
    moves.sort_by_key(|&(m, v)| (std::cmp::Reverse(v), place(m)));
    let line: Vec<Move> = outcome
        .line
        .iter()
        .map(|s| s.map_or(Move::Pass, |m| Move::Play(g.square(m))))
        .collect();
    let end = play_out(&rules, root, &MoveList(line.clone()))?;
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
    Ok(())
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
