//! What a split solve will cost, before it runs: `--split N --estimate`.
//!
//! Every round is simulated with a deeper estimate standing in for each job's value, so the
//! merges ask for what they would ask for if the estimates were right; then a sample of the
//! simulated jobs is solved for real, each kind of job (exact, test, line) sampled on its
//! own, and each kind's mean time stands for all of its jobs. A sampled job its `--limit`
//! stops is projected from how the solve time grows with the empty cells along a line of
//! play from it: a split of its own would count every job its alpha-beta parent cuts, an error
//! that multiplies with each level.
//! The estimates are less often wrong than the real values are, so the rounds and the
//! tests at wrong values that the real solve meets are under-counted: the projection is an
//! order of magnitude, measured against finished solves in docs/performance.md.

use super::folder::{Folder, Task};
use super::job::{plan_root, run_loaded_job, spread, JobEnd, JobOptions, KeptSolver};
use super::merge::plan_tree;
use super::outcome::pass;
use super::tree::Tree;
use crate::rules::{Bits, Position, Rules};
use crate::search::{Engine, RootMoves};
use crate::solve::position::interruptible;
use crate::wording::Counted;
use anyhow::{bail, Context};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The most rounds a simulation runs before it says the estimates do not settle.
const MAX_ROUNDS: u32 = 100_000;
/// How deep the estimates that choose a stopped job's line of play search: a plausible line,
/// not the best one, is all the growth needs.
const LINE_DEPTH: u32 = 6;
/// How many moves the line goes down from the job: far below the cells a limit allows.
const LINE_MOVES: usize = 24;
/// Solves shorter than this are too noisy to measure growth by.
const TIMED_FLOOR: f64 = 0.01;

/// The CPU seconds this process has used, user and system: what a projection counts, since
/// wall time on a busy machine counts the other work too.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0.0;
        }
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The kinds of job sampled apart: their times differ by orders of magnitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// A window wider than three discs: the value itself is asked for.
    Exact,
    /// A window of one to three discs: a test, or tests merged.
    Test,
    /// A line of perfect play at a known value.
    Line,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Exact, Kind::Test, Kind::Line];

    /// `n` jobs of this kind in words: "3 exact", "1 test", "2 lines".
    fn counted(self, n: usize) -> String {
        match self {
            Kind::Exact => format!("{n} exact"),
            Kind::Test => Counted(n, "test").to_string(),
            Kind::Line => Counted(n, "line").to_string(),
        }
    }
}

/// A job a simulated round asks for.
struct Simulated<B> {
    round: u32,
    position: Position<B>,
    window: (i32, i32),
    kind: Kind,
}

/// The rounds of a simulated solve.
struct Simulation<B> {
    rounds: u32,
    jobs: Vec<Simulated<B>>,
    /// The simulation's own CPU time, about what the merges of the real solve take.
    seconds: f64,
}

/// Runs the rounds of a split solve of `root` for `goal`, with `tree`'s frontier, each job's
/// result taken from the estimate that [`Tree::guess`] makes of its position.
fn simulate<B: Bits>(
    tree: &mut Tree<B>,
    root: &Position<B>,
    which: RootMoves,
) -> anyhow::Result<Simulation<B>> {
    let clock = cpu_seconds();
    let most = tree.rules.geometry.cell_count() as i32;
    let mut jobs = Vec::new();
    for round in 1..=MAX_ROUNDS {
        if pass(tree, root, which)?.is_some() {
            return Ok(Simulation {
                rounds: round - 1,
                jobs,
                seconds: cpu_seconds() - clock,
            });
        }
        let wants = tree.wants();
        let lines = tree.lines_asked.clone();
        if wants.is_empty() && lines.is_empty() {
            bail!("internal error: a simulated round settles nothing and asks for nothing");
        }
        for w in wants {
            // An evaluation may overshoot the board: no result can.
            let value = tree.guess(&w.position).clamp(-most, most);
            tree.learn(&w.position, value, w.alpha, w.beta)?;
            jobs.push(Simulated {
                round,
                position: w.position,
                window: (w.alpha, w.beta),
                kind: if w.beta - w.alpha > 3 {
                    Kind::Exact
                } else {
                    Kind::Test
                },
            });
        }
        for (position, value) in lines {
            tree.learn_line(&position, value, Vec::new());
            jobs.push(Simulated {
                round,
                position,
                window: (-most - 1, most + 1),
                kind: Kind::Line,
            });
        }
    }
    bail!("the estimates did not settle the value in {MAX_ROUNDS} simulated rounds")
}

/// The tree of a split of `root` into about `jobs` jobs: at the shallowest
/// frontier whose first round asks for that many. Returns the depth of the split and the
/// first round's jobs and lines, asked for in the tree.
pub(super) fn first_round<B: Bits>(
    tree: &mut Tree<B>,
    root: &Position<B>,
    which: RootMoves,
    jobs: usize,
    interrupt: &crate::interrupt::Interrupt,
) -> anyhow::Result<u32> {
    let empties = tree.rules.empty(root).count();
    tree.stop_on(interrupt);
    for depth in 1..=empties.max(1) {
        tree.set_frontier(empties.saturating_sub(depth));
        let settled = pass(tree, root, which)?.is_some();
        if let Some(signal) = interrupt.signal() {
            return Err(
                anyhow::Error::from(crate::interrupt::Stopped { signal }).context(format!(
                    "the split stopped by {} before it wrote its folder; nothing is kept",
                    crate::interrupt::signal_name(signal)
                )),
            );
        }
        let count = tree.wants().len() + tree.lines_asked.len();
        if count >= jobs || settled || depth >= empties {
            return Ok(depth);
        }
    }
    Ok(empties.max(1))
}

/// What the jobs of a simulated solve are projected to take.
struct Projected {
    seconds: f64,
    /// Whether a sampled job was stopped by its limit too deep to split again: `seconds` is
    /// then a floor.
    at_least: bool,
    /// Each sampled job's seconds, as solved or projected.
    sampled: Vec<f64>,
    /// How many sampled jobs were projected from the growth of their solve time.
    grown: usize,
    /// The sampled times of each kind of job, in order.
    by_kind: BTreeMap<Kind, Vec<f64>>,
}

impl Projected {
    /// The span the simulated rounds predict for a coordinator: a round's jobs wait on the
    /// round before, so each round adds its largest job, expected as the largest of as many
    /// draws from each kind's sampled times as the round holds of that kind.
    fn span<B>(&self, sim: &Simulation<B>) -> f64 {
        let mut counts: BTreeMap<(u32, Kind), i32> = BTreeMap::new();
        for job in &sim.jobs {
            *counts.entry((job.round, job.kind)).or_default() += 1;
        }
        let mut by_round: BTreeMap<u32, f64> = BTreeMap::new();
        for (&(round, kind), &k) in &counts {
            let times = self.by_kind.get(&kind).map_or(&[][..], Vec::as_slice);
            let longest = by_round.entry(round).or_default();
            *longest = longest.max(expected_largest(times, k));
        }
        by_round.values().sum()
    }
}

/// The expected largest of `k` draws from `sorted` (times in increasing order): the i-th of m
/// is the largest with chance (i/m)^k - ((i-1)/m)^k.
fn expected_largest(sorted: &[f64], k: i32) -> f64 {
    let m = sorted.len() as f64;
    sorted
        .iter()
        .enumerate()
        .map(|(i, t)| t * (((i + 1) as f64 / m).powi(k) - (i as f64 / m).powi(k)))
        .sum()
}

/// A sample of `jobs` by kind, `sample` in all: each kind's first job (by round) and then a
/// fixed shuffle of the rest, at least one of each kind present. For each kind present: how
/// many jobs it has, and the indices of those sampled.
fn sampled_by_kind<B>(jobs: &[Simulated<B>], sample: usize) -> Vec<(usize, Vec<usize>)> {
    let mut state = 0x5eed_u64;
    let mut groups = Vec::new();
    for kind in Kind::ALL {
        let mut of_kind: Vec<usize> = (0..jobs.len()).filter(|&i| jobs[i].kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        let n = of_kind.len();
        for i in (2..n).rev() {
            let j = 1 + (crate::search::splitmix(&mut state) % i as u64) as usize;
            of_kind.swap(i, j);
        }
        let share = match kind {
            Kind::Line => 1,
            Kind::Exact => sample.div_ceil(3),
            Kind::Test => sample,
        };
        of_kind.truncate(share.clamp(1, n));
        groups.push((n, of_kind));
    }
    groups
}

/// How a projection runs: the job options, the real folder whose round 1 it may solve into.
struct Projector<'a> {
    options: &'a JobOptions,
    folder: &'a Folder,
    plan: &'a super::Plan,
    round_one: &'a super::Round,
}

impl Projector<'_> {
    /// Solves the sample of `sim`'s jobs and projects them all. `top` is whether the jobs
    /// are those of the folder's own solve, whose round-1 jobs are solved into it.
    fn project<B: Bits>(
        &self,
        rules: &Rules<B>,
        sim: &Simulation<B>,
        sample: usize,
        top: bool,
    ) -> anyhow::Result<Result<Projected, JobEnd>> {
        let mut projected = Projected {
            seconds: 0.0,
            at_least: false,
            sampled: Vec::new(),
            grown: 0,
            by_kind: BTreeMap::new(),
        };
        for (n, chosen) in sampled_by_kind(&sim.jobs, sample) {
            let mut times = Vec::new();
            for &i in &chosen {
                let job = &sim.jobs[i];
                let seconds = match self.solve(rules, job, top)? {
                    Err(end) => return Ok(Err(end)),
                    Ok(Some(s)) => s,
                    Ok(None) => {
                        let growth = match self.grown(rules, job)? {
                            Ok(g) => g,
                            Err(end) => return Ok(Err(end)),
                        };
                        projected.grown += 1;
                        match growth {
                            Some(s) => s,
                            None => {
                                projected.at_least = true;
                                self.options.limit.map_or(0.0, |l| l.as_secs_f64())
                            }
                        }
                    }
                };
                times.push(seconds);
            }
            let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
            projected.seconds += mean * n as f64;
            if let Some(&first) = chosen.first() {
                let kind = projected.by_kind.entry(sim.jobs[first].kind).or_default();
                kind.extend(&times);
                kind.sort_by(f64::total_cmp);
            }
            projected.sampled.extend(times);
        }
        Ok(Ok(projected))
    }

    /// The CPU seconds `job` took, `None` when its limit stopped it.
    fn solve<B: Bits>(
        &self,
        rules: &Rules<B>,
        job: &Simulated<B>,
        top: bool,
    ) -> anyhow::Result<Result<Option<f64>, JobEnd>> {
        // A job of the real round 1 is solved into the folder: it counts when the solve
        // goes on.
        if top && job.round == 1 && job.kind != Kind::Line {
            let g = &rules.geometry;
            let text = crate::notation::PositionString::from_position(g, &job.position);
            let real = self.round_one.jobs.iter().position(|j| {
                j.position == text
                    && j.task
                        == Task::Window {
                            alpha: job.window.0,
                            beta: job.window.1,
                        }
            });
            if let Some(i) = real {
                let r1 = self.round_one;
                let clock = cpu_seconds();
                return Ok(
                    match run_loaded_job(
                        self.folder,
                        self.plan,
                        r1,
                        i,
                        self.options,
                        &mut KeptSolver::default(),
                    )? {
                        JobEnd::Done(_) => Ok(Some(cpu_seconds() - clock)),
                        JobEnd::AlreadyDone => Ok(self
                            .folder
                            .result(r1.number, i, &r1.jobs[i])?
                            .map(|r| r.seconds)),
                        JobEnd::Stopped { signal: None } => Ok(None),
                        end @ JobEnd::Stopped { .. } => Err(end),
                    },
                );
            }
        }
        self.timed(rules, &job.position, job.window)
    }

    /// The CPU seconds a solve of `pos` in `window` took, `None` when the limit stopped it.
    fn timed<B: Bits>(
        &self,
        rules: &Rules<B>,
        pos: &Position<B>,
        window: (i32, i32),
    ) -> anyhow::Result<Result<Option<f64>, JobEnd>> {
        let clock = cpu_seconds();
        let mut engine = Engine::new(rules.clone(), self.options.search.clone());
        engine.observe(Some(interruptible(self.options.interrupt.clone(), None)));
        let found = engine.solve_window_within(pos, window.0, window.1, self.options.limit);
        engine.observe(None);
        if let Some(signal) = self.options.interrupt.signal() {
            return Ok(Err(JobEnd::Stopped {
                signal: Some(signal),
            }));
        }
        Ok(Ok(found.map(|_| cpu_seconds() - clock)))
    }

    /// The projected seconds of `job`, which its limit stopped, from the growth of the solve
    /// time with the empty cells: positions along a line of play from it are solved from the
    /// fewest empty cells up, each in a window like the job's (the whole range for an exact
    /// job, a test at its estimate for a test), until the next would pass the limit; the
    /// rate per cell between the first and the last solve long enough to time carries the
    /// last one up to the job. `None` when fewer than two were long enough.
    fn grown<B: Bits>(
        &self,
        rules: &Rules<B>,
        job: &Simulated<B>,
    ) -> anyhow::Result<Result<Option<f64>, JobEnd>> {
        let mut tree = Tree::new(rules.clone(), 0, &self.options.search.eval);
        let most = rules.geometry.cell_count() as i32;
        let empties = |p: &Position<B>| rules.empty(p).count() as i32;
        let mut line = Vec::new();
        let mut pos = job.position;
        while line.len() < LINE_MOVES && !rules.is_over(&pos) {
            let children = tree.children(&pos);
            let (_, next) = children
                .into_iter()
                .min_by_key(|(_, child)| tree.estimate(child, LINE_DEPTH))
                .expect("a position not over has a move or a pass");
            pos = next;
            line.push(pos);
        }
        let limit = self
            .options
            .limit
            .map_or(f64::INFINITY, |l| l.as_secs_f64());
        let exact = job.window.1 - job.window.0 > 3;
        let mut timed: Vec<(i32, f64)> = Vec::new();
        for p in line.iter().rev() {
            if rules.is_over(p) || timed.last().is_some_and(|&(e, _)| e == empties(p)) {
                continue;
            }
            // The next solve would pass the limit at the growth seen so far.
            if let [.., (e0, t0), (e1, t1)] = timed[..] {
                if t1 * (t1 / t0).powf(1.0 / f64::from(e1 - e0)) > limit {
                    break;
                }
            }
            let window = if exact {
                (-most - 1, most + 1)
            } else {
                let g = tree.guess(p).clamp(-most, most);
                (g - 1, g)
            };
            match self.timed(rules, p, window)? {
                Err(end) => return Ok(Err(end)),
                Ok(None) => break,
                Ok(Some(t)) if t >= TIMED_FLOOR => timed.push((empties(p), t)),
                Ok(Some(_)) => {}
            }
        }
        Ok(Ok(carried(&timed, empties(&job.position))))
    }
}

/// The time a solve with `empties` empty cells takes, carried up from `timed` (empty cells
/// and seconds, the fewest cells first) at the rate per cell between its first and its last;
/// `None` without two different counts of cells to measure a rate by.
fn carried(timed: &[(i32, f64)], empties: i32) -> Option<f64> {
    let (&(e0, t0), &(e1, t1)) = (timed.first()?, timed.last()?);
    if e1 == e0 {
        return None;
    }
    let rate = (t1 / t0).powf(1.0 / f64::from(e1 - e0)).max(1.0);
    Some(t1 * rate.powf(f64::from(empties - e1)))
}

/// Simulates every round of the split solve of `dir`, solves a sample of about `sample`
/// of the simulated jobs (round-1 jobs into the folder, so that they count when the solve
/// goes on) and prints the projected CPU time. `Err` with how a job ended when a signal
/// stopped it.
pub fn estimate(
    dir: &Path,
    sample: usize,
    options: &JobOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Result<(), JobEnd>> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
    let rounds = folder.rounds()?;
    let round_one = rounds
        .first()
        .context("the work folder has no round of jobs")?;
    crate::with_bits!(plan.start.shape(), |B| {
        let (rules, root) = plan_root::<B>(&plan)?;
        let mut tree = plan_tree(&plan, &rules, &root, &options.search.eval);
        let sim = simulate(&mut tree, &root, plan.which)?;
        let count = |kind| sim.jobs.iter().filter(|j| j.kind == kind).count();
        let kinds: Vec<String> = Kind::ALL.iter().map(|&k| k.counted(count(k))).collect();
        writeln!(
            out,
            "estimate: simulated with {}-move estimates as the jobs' values: {}, {} ({}), merges about {:.0} s",
            super::tree::GUESS_DEPTH,
            Counted(sim.rounds, "round"),
            Counted(sim.jobs.len(), "job"),
            kinds.join(", "),
            sim.seconds
        )?;
        let projector = Projector {
            options,
            folder: &folder,
            plan: &plan,
            round_one,
        };
        let projected = match projector.project(&rules, &sim, sample, true)? {
            Ok(p) => p,
            Err(end) => return Ok(Err(end)),
        };
        let (median, largest) = spread(&projected.sampled);
        let grown = if projected.grown > 0 {
            format!(
                ", {} projected from the growth of their solve time along a line (their --limit stopped them)",
                projected.grown
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "estimate: {} of {} solved{grown}: median {median:.3} s, largest {largest:.3} s",
            projected.sampled.len(),
            Counted(sim.jobs.len(), "job"),
        )?;
        let total = projected.seconds + sim.seconds;
        let at_least = if projected.at_least {
            "at least (jobs stopped by --limit with too little growth to measure count as the limit) "
        } else {
            ""
        };
        writeln!(
            out,
            "projection: every round takes {at_least}{total:.0} CPU seconds ({:.2} CPU hours) on one thread a job",
            total / 3600.0
        )?;
        let span = projected.span(&sim);
        writeln!(
            out,
            "projection: span {span:.0} s (the expected largest job of each round, in turn), parallelism {}",
            super::span::parallelism(total, span)
        )?;
        super::span::write_predictions(total, span, out)?;
        anyhow::Ok(Ok(()))
    })
}

#[cfg(test)]
mod tests {
    use super::{carried, expected_largest};

    #[test]
    fn the_largest_of_k_draws_is_expected_from_the_sorted_sample() {
        assert_eq!(expected_largest(&[2.0], 5), 2.0);
        // One draw: the mean. Two of [1, 3]: 3 but when both are 1 (a quarter).
        assert_eq!(expected_largest(&[1.0, 3.0], 1), 2.0);
        assert_eq!(expected_largest(&[1.0, 3.0], 2), 2.5);
        assert_eq!(expected_largest(&[], 3), 0.0);
    }

    #[test]
    fn growth_is_carried_at_the_rate_per_cell_between_the_first_and_last_solves() {
        // 0.1 s at 10 cells, 0.4 s at 12: twice as long a cell, so 3.2 s at 15.
        let t = carried(&[(10, 0.1), (11, 0.3), (12, 0.4)], 15).unwrap();
        assert!((t - 3.2).abs() < 1e-9, "{t}");
        // A solve that got faster with more cells grows at no rate: the last time stands.
        assert_eq!(carried(&[(10, 0.5), (12, 0.2)], 20), Some(0.2));
        assert_eq!(carried(&[(10, 0.5)], 20), None);
        assert_eq!(carried(&[], 20), None);
    }
}
