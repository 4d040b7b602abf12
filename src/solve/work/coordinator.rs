//! One long solve of a work folder: a coordinator holds the tree of the solve and hands each
//! worker a job the moment one is needed, with the window the results so far call for. There
//! are no rounds: a result updates the tree at once, may cancel jobs it made pointless, and
//! frees its worker for the next job. The workers are threads of this process
//! ([`super::run_local`]) or the ranks of an MPI job; [`Workers`] is all the coordinator knows
//! of them.
//!
//! What it decides, each time something changed:
//! 1. Pass over the tree (as a merge does): the value and the report when the results settle
//!    them, else the jobs still wanted, in the order the search meets them. The other moves
//!    of an "at most" test wait for its first move's (young brothers wait), where rounds ask
//!    for them all at once.
//! 2. Hand the wanted jobs to idle workers, in order, one job per position at a time, and no
//!    more jobs on a machine than its cores ([`Cores`]).
//! 3. Cancel a running job whose window the results have decided, whose position the tree
//!    now asks for in a window the job's does not hold, or whose position the pass no longer
//!    asks for at all (a sibling's result refuted the test it served).
//! 4. Told to `--speculate`, with a worker still free to start, pass again asking also for
//!    tests at estimates (as a split's first round does): work only where workers would wait
//!    anyway, but thrown away where an estimate is wrong.
//! 5. With a worker still free to start, split the job that has run longest (it holds
//!    the rest up): from then on the tree merges it from its moves, whose jobs the idle workers
//!    share, and the job itself is cancelled.
//!
//! Every job that ends, and every split, goes into the folder's record at once
//! ([`super::record`]); a run started again learns it and goes on, losing at most the jobs
//! that were running.

use super::folder::{Folder, Job, Plan, Task};
use super::job::{plan_root, JobEnd, JobOptions};
use super::merge::{kept_estimates, learn, learn_entry, plan_tree, write_report, Totals};
use super::messages::{Ended, Order, Report};
use super::outcome::pass;
use super::record::{now_ms, Entry, JobEntry, Record};
use super::round::{estimate_entries, evaluation_mark, line_job, window_job};
use super::tree::{Guesses, Tree, Want};
use crate::files::LockKind;
use crate::rules::{Bits, Position};
use anyhow::{bail, Context};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// The workers a coordinator hands jobs to.
pub trait Workers {
    /// Where the workers run: their count, and the cores each machine gives them.
    fn cores(&self) -> Cores;
    fn send(&mut self, worker: usize, order: Order) -> anyhow::Result<()>;
    /// The next report, waiting at most `wait` for one.
    fn receive(&mut self, wait: Duration) -> anyhow::Result<Option<Report>>;
}

/// The workers by machine, and each machine's cores: a machine runs at most as many jobs at
/// once as it has cores. Workers beyond them (ranks started with `--oversubscribe`, threads
/// past the cores) would only take turns on the same cores, and every job run beside
/// another is a guess that sequential search might have cut off (4x7 SIMPLE, when measured:
/// 1.73 times the direct solve's nodes on 7 workers sharing 2 cores, 1.43 times on 2;
/// decisions.md, "A job a core"). A held-up job is split only while a core is free, for the
/// same reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cores {
    /// By worker: its machine.
    machine: Vec<usize>,
    /// By machine: its cores.
    cores: Vec<usize>,
}

impl Cores {
    /// `workers` on one machine of `cores` cores.
    pub fn one_machine(workers: usize, cores: usize) -> Cores {
        Cores {
            machine: vec![0; workers],
            cores: vec![cores.max(1)],
        }
    }

    /// Workers whose machines are given by any labels (`labels[w]` for worker `w`), with the
    /// cores of each worker's machine (`cores[w]`, the same for every worker of a machine).
    pub fn by_label<L: PartialEq>(labels: &[L], cores: &[usize]) -> Cores {
        let mut seen: Vec<&L> = Vec::new();
        let mut machine = Vec::with_capacity(labels.len());
        let mut counts = Vec::new();
        for (label, &n) in labels.iter().zip(cores) {
            let m = match seen.iter().position(|&l| l == label) {
                Some(m) => m,
                None => {
                    seen.push(label);
                    counts.push(n.max(1));
                    seen.len() - 1
                }
            };
            machine.push(m);
        }
        Cores {
            machine,
            cores: counts,
        }
    }

    pub fn workers(&self) -> usize {
        self.machine.len()
    }

    /// The idle workers that may start a job now, lowest first: on each machine, as many as
    /// its cores leave room for beside the jobs running there (`busy[w]`).
    fn free(&self, busy: impl Iterator<Item = bool>) -> Vec<usize> {
        let busy: Vec<bool> = busy.collect();
        let mut room = self.cores.clone();
        for (w, _) in busy.iter().enumerate().filter(|(_, &b)| b) {
            let m = self.machine[w];
            room[m] = room[m].saturating_sub(1);
        }
        let mut free = Vec::new();
        for (w, _) in busy.iter().enumerate().filter(|(_, &b)| !b) {
            let m = self.machine[w];
            if room[m] > 0 {
                room[m] -= 1;
                free.push(w);
            }
        }
        free
    }
}

/// A job too small to be worth splitting: below this many empty cells it ends in well under
/// a second.
const MIN_SPLIT_EMPTIES: u32 = 16;

/// How long the workers have to stop their jobs once the solve is settled or stopped.
const STOP_WAIT: Duration = Duration::from_secs(30);

/// Solves the work folder `dir` with `workers`, going on from what its record (and any
/// rounds' results) hold, and prints the report on `out`.
pub fn coordinate(
    dir: &Path,
    workers: &mut dyn Workers,
    options: &JobOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Result<Totals, JobEnd>> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
    let _lock = folder.lock(LockKind::Exclusive)?;
    crate::with_bits!(plan.start.shape(), |B| {
        Coordinator::<B>::new(&folder, &plan, workers.cores(), options)?.run(workers, out)
    })
}

/// A job the last pass asks for: a window of a position's value, or a line of play.
enum Asked<'a, B> {
    Window(&'a Want<B>),
    Line(Position<B>, i32),
}

impl<B: Copy> Asked<'_, B> {
    fn position(&self) -> Position<B> {
        match self {
            Asked::Window(want) => want.position,
            Asked::Line(pos, _) => *pos,
        }
    }
}

/// A job handed to a worker.
struct Running<B> {
    id: u64,
    job: Job,
    position: Position<B>,
    canonical: Position<B>,
    after: Option<u64>,
    start_ms: u64,
    started: Instant,
    cancelled: bool,
}

struct Coordinator<'a, B: Bits> {
    folder: &'a Folder,
    plan: &'a Plan,
    options: &'a JobOptions,
    tree: Tree<B>,
    root: Position<B>,
    record: Record,
    /// By worker: the job it runs.
    running: Vec<Option<Running<B>>>,
    cores: Cores,
    next_id: u64,
    /// The last job whose result the tree learned.
    last_learned: Option<u64>,
    /// By canonical position, for each job the passes ask for and no worker has yet: the
    /// last result learned before it was first asked for (the job it waits on, as `--span`
    /// weighs it), and the step that last asked for it.
    asked_since: HashMap<Position<B>, (Option<u64>, u64)>,
    /// Counts the steps (each time something changed), to forget what no pass asks for now.
    step: u64,
    totals: Totals,
    mark: String,
    estimates_known: usize,
}

impl<'a, B: Bits> Coordinator<'a, B> {
    fn new(
        folder: &'a Folder,
        plan: &'a Plan,
        cores: Cores,
        options: &'a JobOptions,
    ) -> anyhow::Result<Self> {
        let eval = &options.search.eval;
        let (rules, root) = plan_root::<B>(plan)?;
        let mut tree = plan_tree(plan, &rules, &root, eval);
        tree.stop_on(&options.interrupt);
        tree.eldest_first = true;
        let mark = evaluation_mark(eval, &rules);
        let estimates = kept_estimates(folder, &tree, &mark);
        let estimates_known = estimates.len();
        tree.keep_estimates(estimates);
        let mut totals = Totals::default();
        // What runs before proved: the rounds' results (of job arrays) and the record.
        for round in folder.rounds()? {
            for (i, job) in round.jobs.iter().enumerate() {
                if let Some(r) = folder.result(round.number, i, job)? {
                    let name = || folder.result_path(round.number, i).display().to_string();
                    learn(&mut tree, &r.position, r.task, r.score, &r.line).with_context(name)?;
                    totals.jobs += 1;
                    totals.nodes = totals.nodes.saturating_add(r.nodes);
                    totals.seconds.push(r.seconds);
                }
            }
        }
        let (record, entries) = Record::open(folder)?;
        let mut next_id = 0;
        let mut last_learned = None;
        for entry in entries {
            if let Entry::Job(job) = &entry {
                next_id = next_id.max(job.id + 1);
                if job.found.is_some() {
                    last_learned = Some(job.id);
                }
            }
            learn_entry(&mut tree, &mut totals, &entry)
                .with_context(|| Record::path(folder).display().to_string())?;
        }
        Ok(Coordinator {
            folder,
            plan,
            options,
            tree,
            root,
            record,
            running: (0..cores.workers()).map(|_| None).collect(),
            cores,
            next_id,
            last_learned,
            asked_since: HashMap::new(),
            step: 0,
            totals,
            mark,
            estimates_known,
        })
    }

    fn run(
        mut self,
        workers: &mut dyn Workers,
        out: &mut dyn Write,
    ) -> anyhow::Result<Result<Totals, JobEnd>> {
        if self.running.is_empty() {
            bail!("no worker to solve the jobs");
        }
        let mut changed = true;
        loop {
            if let Some(signal) = self.options.interrupt.signal() {
                self.stop_all(workers)?;
                self.keep_estimates()?;
                return Ok(Err(JobEnd::Stopped {
                    signal: Some(signal),
                }));
            }
            if changed {
                changed = false;
                self.step += 1;
                self.tree.guesses = Guesses::Never;
                if let Some(outcome) = pass(&mut self.tree, &self.root, self.plan.which)? {
                    self.stop_all(workers)?;
                    self.keep_estimates()?;
                    let totals = std::mem::take(&mut self.totals);
                    write_report(&mut self.tree, self.plan, &self.root, outcome, &totals, out)?;
                    return Ok(Ok(totals));
                }
                let asked = self.hand_out(workers)?;
                // A cancelled job frees its worker only once it reports, so cancelling after
                // the hand-out loses no job. The guessing pass below asks for its jobs only
                // while workers are idle, so under `--speculate` a job the normal pass does
                // not ask for is kept.
                self.cancel_pointless(workers, (!self.options.speculate).then_some(&asked))?;
                // Workers still idle: the tests at estimates are work that would otherwise
                // wait. The same pass again, guessing where values are not known yet.
                if self.options.speculate && !self.free_workers().is_empty() {
                    self.tree.guesses = Guesses::Always;
                    pass(&mut self.tree, &self.root, self.plan.which)?;
                    self.hand_out(workers)?;
                }
                let step = self.step;
                self.asked_since.retain(|_, (_, asked)| *asked == step);
            }
            if !self.free_workers().is_empty() && self.split_longest(workers)? {
                changed = true;
                continue;
            }
            let wait = Duration::from_millis(200);
            let mut entries = Vec::new();
            if let Some(report) = workers.receive(wait)? {
                self.take(report, &mut entries)?;
                // Whatever else has ended, taken in the same pass.
                while let Some(report) = workers.receive(Duration::ZERO)? {
                    self.take(report, &mut entries)?;
                }
                changed = true;
            }
            self.record.add(&entries)?;
            self.record.sync_due()?;
        }
    }

    /// Takes a worker's report: what its job proved goes into the tree, and the job into
    /// `entries`; its worker is idle again.
    fn take(&mut self, report: Report, entries: &mut Vec<Entry>) -> anyhow::Result<()> {
        let slot = self
            .running
            .get_mut(report.worker)
            .with_context(|| format!("a report from worker {}, who is not one", report.worker))?;
        let Some(running) = slot.take_if(|r| r.id == report.id) else {
            bail!(
                "worker {} reports job {}, which it was not given",
                report.worker,
                report.id
            );
        };
        let found = match report.ended {
            Ended::Solved(found) => Some(found),
            Ended::Stopped => None,
            Ended::Failed(why) => bail!(
                "worker {}: job {} ({}): {why}",
                report.worker,
                running.id,
                running.job.position
            ),
        };
        let entry = JobEntry {
            id: running.id,
            worker: report.worker,
            after: running.after,
            start_ms: running.start_ms,
            end_ms: now_ms().max(running.start_ms),
            nodes: report.nodes,
            task: running.job.task,
            found,
            position: running.job.position.clone(),
        };
        if entry.found.is_some() {
            self.last_learned = Some(entry.id);
        }
        let entry = Entry::Job(entry);
        learn_entry(&mut self.tree, &mut self.totals, &entry)?;
        entries.push(entry);
        Ok(())
    }

    /// Cancels the running window jobs whose results are no longer needed: those whose window
    /// the results have decided, and, given the canonical positions the last pass asked for
    /// (`asked`), those whose position it no longer asks for at all. There a result refuted
    /// the test they served (one move failing an "at most" test settles it, and its other
    /// moves' jobs are thrown away); their entries stay in the table, should a later pass ask
    /// for them again. (4x7 SIMPLE on 7 workers: 49 jobs that one worker never needed, 211 M
    /// nodes beside 934 M in all, ran to their end.)
    fn cancel_pointless(
        &mut self,
        workers: &mut dyn Workers,
        asked: Option<&HashSet<Position<B>>>,
    ) -> anyhow::Result<()> {
        for (worker, slot) in self.running.iter_mut().enumerate() {
            let Some(r) = slot.as_mut().filter(|r| !r.cancelled) else {
                continue;
            };
            let Task::Window { alpha, beta } = r.job.task else {
                continue;
            };
            let (low, high) = self.tree.bounds(&r.position);
            let decided = low >= beta || high <= alpha || low == high;
            let unasked = asked.is_some_and(|asked| !asked.contains(&r.canonical));
            if decided || unasked {
                r.cancelled = true;
                workers.send(worker, Order::Cancel { id: r.id })?;
            }
        }
        Ok(())
    }

    /// Hands the jobs the last pass wants to idle workers, in order, one job per position (and
    /// its images) at a time; the canonical positions it asked for.
    fn hand_out(&mut self, workers: &mut dyn Workers) -> anyhow::Result<HashSet<Position<B>>> {
        let mut asked_positions = HashSet::new();
        let mut free = self.free_workers().into_iter();
        let wants = self.tree.wants();
        let lines = self.tree.lines_asked.clone();
        let asked = (wants.iter().map(Asked::Window))
            .chain(lines.iter().map(|&(pos, value)| Asked::Line(pos, value)));
        for asked in asked {
            let position = asked.position();
            let canonical = self.tree.canonical(&position);
            asked_positions.insert(canonical);
            let slot = self
                .running
                .iter()
                .position(|r| r.as_ref().is_some_and(|r| r.canonical == canonical));
            if let Some(worker) = slot {
                // A job of this position in a window that does not hold the one asked now (a
                // test at an estimate the results have shown wrong) answers a question no
                // longer asked: stop it, so the test asked now can have a worker.
                if let (Some(r), Asked::Window(want)) = (self.running[worker].as_mut(), &asked) {
                    if let Task::Window { alpha, beta } = r.job.task {
                        if !r.cancelled && (want.alpha < alpha || want.beta > beta) {
                            r.cancelled = true;
                            workers.send(worker, Order::Cancel { id: r.id })?;
                        }
                    }
                }
                continue;
            }
            let (since, step) = self
                .asked_since
                .entry(canonical)
                .or_insert((self.last_learned, self.step));
            *step = self.step;
            let since = *since;
            let Some(worker) = free.next() else {
                continue;
            };
            self.asked_since.remove(&canonical);
            let job = match asked {
                Asked::Window(want) => window_job(&self.tree, want),
                Asked::Line(pos, value) => line_job(&self.tree, &pos, value),
            };
            let id = self.next_id;
            self.next_id += 1;
            workers.send(
                worker,
                Order::Solve {
                    id,
                    job: job.clone(),
                },
            )?;
            self.running[worker] = Some(Running {
                id,
                job,
                position,
                canonical,
                after: since,
                start_ms: now_ms(),
                started: Instant::now(),
                cancelled: false,
            });
        }
        Ok(asked_positions)
    }

    /// The idle workers that may start a job now ([`Cores::free`]).
    fn free_workers(&self) -> Vec<usize> {
        self.cores.free(self.running.iter().map(Option::is_some))
    }

    /// Splits the window job that has run longest, when it is large enough and has run long
    /// enough to be worth sharing, and cancels it. Whether one was split.
    fn split_longest(&mut self, workers: &mut dyn Workers) -> anyhow::Result<bool> {
        let rules = &self.tree.rules;
        let longest = self
            .running
            .iter()
            .enumerate()
            .filter_map(|(w, r)| r.as_ref().map(|r| (w, r)))
            .filter(|(_, r)| {
                !r.cancelled
                    && matches!(r.job.task, Task::Window { .. })
                    && rules.empty(&r.position).count() >= MIN_SPLIT_EMPTIES
                    && r.started.elapsed() >= self.options.split_after
            })
            .min_by_key(|(_, r)| r.started);
        let Some((worker, r)) = longest else {
            return Ok(false);
        };
        let (id, position, text) = (r.id, r.position, r.job.position.clone());
        self.tree.split(&position);
        self.record.add(&[Entry::Split(text)])?;
        if let Some(r) = self.running[worker].as_mut() {
            r.cancelled = true;
        }
        workers.send(worker, Order::Cancel { id })?;
        Ok(true)
    }

    /// Cancels every running job, waits for the workers to stop (recording what they did),
    /// and tells them there is no more.
    fn stop_all(&mut self, workers: &mut dyn Workers) -> anyhow::Result<()> {
        for (worker, slot) in self.running.iter_mut().enumerate() {
            if let Some(r) = slot.as_mut().filter(|r| !r.cancelled) {
                r.cancelled = true;
                workers.send(worker, Order::Cancel { id: r.id })?;
            }
        }
        let deadline = Instant::now() + STOP_WAIT;
        let mut entries = Vec::new();
        while self.running.iter().any(Option::is_some) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            if let Some(report) = workers.receive(left.min(Duration::from_millis(200)))? {
                self.take(report, &mut entries)?;
            }
        }
        self.record.add(&entries)?;
        self.record.sync()?;
        for worker in 0..self.running.len() {
            workers.send(worker, Order::Finish)?;
        }
        Ok(())
    }

    /// Keeps the estimates made for the next run (only a cache).
    fn keep_estimates(&mut self) -> anyhow::Result<()> {
        let estimates = self.tree.take_estimates();
        if estimates.len() > self.estimates_known {
            let entries = estimate_entries(&self.tree.rules.geometry, &estimates);
            self.folder.write_estimates(&self.mark, entries)?;
        }
        self.tree.keep_estimates(estimates);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Cores;

    #[test]
    fn a_machine_starts_no_more_jobs_than_its_cores() {
        // Workers 0, 2 and 3 on machine "a" (2 cores), 1 and 4 on "b" (1 core).
        let cores = Cores::by_label(&["a", "b", "a", "a", "b"], &[2, 1, 2, 2, 1]);
        assert_eq!(cores.workers(), 5);
        let idle = [false; 5];
        assert_eq!(cores.free(idle.into_iter()), [0, 1, 2]);
        // Worker 2 busy: one more on "a"; worker 1 busy: none on "b".
        let busy = [false, true, true, false, false];
        assert_eq!(cores.free(busy.into_iter()), [0]);
        let all_busy = [true, false, true, false, false];
        assert_eq!(cores.free(all_busy.into_iter()), [1]);
        assert_eq!(
            Cores::one_machine(3, 8).free([false; 3].into_iter()),
            [0, 1, 2]
        );
    }
}
