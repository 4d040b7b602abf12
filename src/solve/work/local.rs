//! `--run-local`: the whole split solve in this process, the coordinator handing its jobs to
//! worker threads, each with its own solver kept from job to job, all of them with one table.

use super::coordinator::{coordinate, Cores, Workers};
use super::folder::{Folder, Job, Plan};
use super::job::{handed_out_journal, plan_root, solve_job, JobEnd, JobOptions, KeptSolver};
use super::merge::Totals;
use super::messages::{Ended, Order, Report};
use crate::search::Table;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Solves the work folder `dir` here with `workers` threads, going on from what it holds, and
/// prints the report.
pub fn run_local(
    dir: &Path,
    workers: usize,
    options: &JobOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Result<Totals, JobEnd>> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
    // Dropped at the end, the threads are told to finish and joined.
    let mut threads = Threads::start(&folder, &plan, workers.max(1), options);
    coordinate(dir, &mut threads, options, out)
}

/// The cancel that stops any job: the threads are told to end.
const CANCEL_ALL: u64 = u64::MAX - 1;

/// A worker thread: its orders, and the job it is asked to cancel.
struct Thread {
    orders: Sender<Order>,
    cancel: Arc<AtomicU64>,
    handle: Option<JoinHandle<()>>,
}

/// Worker threads, as the coordinator sees them.
struct Threads {
    threads: Vec<Thread>,
    reports: Receiver<Report>,
    cores: usize,
}

impl Threads {
    fn start(folder: &Folder, plan: &Plan, count: usize, options: &JobOptions) -> Threads {
        let (report_to, reports) = channel();
        // One table for all: jobs that run at the same time share subtrees (under SIMPLE
        // rules most of all), and with a table each, each solved them again.
        let table = Arc::new(Table::new(options.search.hash_mb));
        let threads = (0..count)
            .map(|worker| {
                let (orders, inbox) = channel();
                let cancel = Arc::new(AtomicU64::new(u64::MAX));
                let mut solver = ThreadSolver {
                    worker,
                    folder: folder.clone(),
                    plan: plan.clone(),
                    options: options.clone(),
                    warm: KeptSolver::sharing(Arc::clone(&table)),
                    cancel: Arc::clone(&cancel),
                };
                let report_to: Sender<Report> = report_to.clone();
                let handle = std::thread::spawn(move || {
                    while let Ok(order) = inbox.recv() {
                        let Order::Solve { id, job } = order else {
                            return;
                        };
                        let report = solver.solve(id, &job);
                        if report_to.send(report).is_err() {
                            return;
                        }
                    }
                });
                Thread {
                    orders,
                    cancel,
                    handle: Some(handle),
                }
            })
            .collect();
        // The threads may run on every CPU this process may.
        let cores = options.cores.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        Threads {
            threads,
            reports,
            cores,
        }
    }

    /// Tells every thread there is no more work and waits for them.
    fn finish(&mut self) {
        for thread in &mut self.threads {
            thread.cancel.store(CANCEL_ALL, Relaxed);
            let _ = thread.orders.send(Order::Finish);
        }
        for thread in &mut self.threads {
            if let Some(handle) = thread.handle.take() {
                let _ = handle.join();
            }
        }
    }
}

impl Drop for Threads {
    fn drop(&mut self) {
        self.finish();
    }
}

impl Workers for Threads {
    fn cores(&self) -> Cores {
        Cores::one_machine(self.threads.len(), self.cores)
    }

    fn send(&mut self, worker: usize, order: Order) -> anyhow::Result<()> {
        let thread = &self.threads[worker];
        match order {
            // A thread busy solving reads no orders: its solver watches this instead.
            Order::Cancel { id } => thread.cancel.store(id, Relaxed),
            order => thread
                .orders
                .send(order)
                .map_err(|_| anyhow::anyhow!("worker thread {worker} has ended"))?,
        }
        Ok(())
    }

    fn receive(&mut self, wait: Duration) -> anyhow::Result<Option<Report>> {
        match self.reports.recv_timeout(wait) {
            Ok(report) => Ok(Some(report)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => anyhow::bail!("every worker thread has ended"),
        }
    }
}

/// What a worker thread keeps from job to job.
struct ThreadSolver {
    worker: usize,
    folder: Folder,
    plan: Plan,
    options: JobOptions,
    warm: KeptSolver,
    cancel: Arc<AtomicU64>,
}

impl ThreadSolver {
    fn solve(&mut self, id: u64, job: &Job) -> Report {
        let cancel = Arc::clone(&self.cancel);
        let stop: crate::search::Observer = Box::new(move |_| {
            if matches!(cancel.load(Relaxed), c if c == id || c == CANCEL_ALL) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let (ended, nodes) = solve_assigned(
            &self.folder,
            &self.plan,
            job,
            &self.options,
            &mut self.warm,
            stop,
        );
        Report {
            worker: self.worker,
            id,
            ended,
            nodes,
        }
    }
}

/// Solves a job a coordinator handed out, with the kept solver, its work kept in its journal;
/// `stop` cancels it. How it ended and its nodes: an error, or a panic, is a failed job, not a
/// coordinator waiting for ever.
pub(super) fn solve_assigned(
    folder: &Folder,
    plan: &Plan,
    job: &Job,
    options: &JobOptions,
    warm: &mut KeptSolver,
    stop: crate::search::Observer,
) -> (Ended, u64) {
    let solved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        solve_in(folder, plan, job, options, warm, stop)
    }));
    match solved {
        Ok(Ok(solved)) => solved,
        Ok(Err(e)) => (Ended::Failed(format!("{e:#}")), 0),
        Err(_) => (Ended::Failed("the solver panicked".to_string()), 0),
    }
}

fn solve_in(
    folder: &Folder,
    plan: &Plan,
    job: &Job,
    options: &JobOptions,
    warm: &mut KeptSolver,
    stop: crate::search::Observer,
) -> anyhow::Result<(Ended, u64)> {
    crate::with_bits!(plan.start.shape(), |B| {
        let (rules, root) = plan_root::<B>(plan)?;
        let journal = handed_out_journal(folder, job, &rules)?;
        let solved = solve_job(&rules, &root, job, journal, options, warm, Some(stop))?;
        let ended = match solved.found {
            Some(found) => Ended::Solved(found),
            None => Ended::Stopped,
        };
        Ok((ended, solved.nodes))
    })
}
