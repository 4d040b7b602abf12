//! The coordinated solve as one MPI job (`othello solve --work DIR --mpi`, started by
//! `mpirun -n K`): rank 0 runs the coordinator, every other rank is a worker with its own
//! solver kept from job to job, and the workers of one node share one table. The ranks say
//! the lines of [`super::messages`] to each other as point-to-point messages of bytes; the work
//! folder, which every rank sees, holds the jobs' journals and the coordinator's record, as in
//! a local run.
//!
//! Only each process's main thread calls MPI (`MPI_THREAD_FUNNELED`): a worker solves on a
//! thread of its own while its main thread watches for a cancel.

use super::coordinator::{coordinate, Cores, Workers};
use super::folder::{Folder, Job, Plan};
use super::job::{JobEnd, JobOptions, KeptSolver};
use super::local::solve_assigned;
use super::merge::Totals;
use super::messages::{Ended, Order, Report};
use crate::search::Table;
use anyhow::{bail, Context};
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::ffi::CStr;
use std::io::Write;
use std::ops::ControlFlow;
use std::os::fd::FromRawFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How often a worker looks for a cancel while it solves.
const POLL: Duration = Duration::from_millis(20);

/// The next message from `source` and the rank it came from, waiting until `until` (for ever
/// when `None`). Polled, not a blocking receive: Open MPI's spins, and a rank waiting for its
/// next job or report would burn a core. For the first [`SOON`] the pauses between looks grow
/// from 10 µs to 100 µs, so that an answer that comes at once (a report, the next job) is seen
/// within microseconds; a longer wait costs a look a millisecond.
fn next_message(source: &impl Source, until: Option<Instant>) -> Option<(Vec<u8>, i32)> {
    let begun = Instant::now();
    let mut pause = Duration::from_micros(10);
    loop {
        if let Some(probed) = source.immediate_matched_probe() {
            let (bytes, status) = probed.matched_receive_vec::<u8>();
            return Some((bytes, status.source_rank()));
        }
        let left = until.map(|u| u.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return None;
        }
        std::thread::sleep(left.map_or(pause, |l| l.min(pause)));
        pause = match begun.elapsed() < SOON {
            true => (pause * 2).min(Duration::from_micros(100)),
            false => Duration::from_millis(1),
        };
    }
}

/// How long a rank waiting for a message looks for it often: a report or a job that follows
/// at once comes within it (5x6, 1,100 jobs of a few milliseconds: pauses of up to 1 ms from
/// the start added about 1.4 ms a job, a run of 4.0 s against 2.5 s with threads).
const SOON: Duration = Duration::from_millis(20);

/// Runs this process's part of an MPI solve of the work folder `dir`: the report (or the stop)
/// on rank 0, `None` on a worker.
pub fn run_mpi(
    dir: &Path,
    options: &JobOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Option<Result<Totals, JobEnd>>> {
    let Some((universe, _)) = mpi::initialize_with_threading(mpi::Threading::Funneled) else {
        bail!("MPI cannot be started twice in one process");
    };
    let world = universe.world();
    if world.size() < 2 {
        bail!(
            "an MPI solve needs 2 ranks or more (mpirun -n K, K >= 2): rank 0 coordinates, \
             the others solve"
        );
    }
    let node = world.split_shared(world.rank());
    let table = node_table(&world, &node, options.search.hash_mb);
    let cores = node_cores(&world, &node, options.cores);
    if world.rank() != 0 {
        serve(&world, dir, options, table)?;
        return Ok(None);
    }
    let mut ranks = Ranks {
        world: &world,
        cores: cores.expect("rank 0 gathers the cores"),
    };
    let solved = coordinate(dir, &mut ranks, options, out);
    if solved.is_err() {
        // The workers wait for orders: tell them to end, so that every rank finalizes.
        for worker in 0..ranks.cores.workers() {
            let _ = ranks.send(worker, Order::Finish);
        }
    }
    solved.map(Some)
}

/// The worker ranks, as the coordinator sees them: worker `w` is rank `w + 1`.
struct Ranks<'a> {
    world: &'a SimpleCommunicator,
    cores: Cores,
}

impl Workers for Ranks<'_> {
    fn cores(&self) -> Cores {
        self.cores.clone()
    }

    fn send(&mut self, worker: usize, order: Order) -> anyhow::Result<()> {
        let rank = i32::try_from(worker + 1).context("a worker beyond the ranks")?;
        self.world
            .process_at_rank(rank)
            .send(order.to_string().as_bytes());
        Ok(())
    }

    fn receive(&mut self, wait: Duration) -> anyhow::Result<Option<Report>> {
        let until = Some(Instant::now() + wait);
        let Some((bytes, rank)) = next_message(&self.world.any_process(), until) else {
            return Ok(None);
        };
        let report: Report = text(&bytes)
            .and_then(str::parse)
            .with_context(|| format!("a message from rank {rank}"))?;
        if report.worker + 1 != rank as usize {
            bail!("rank {rank} reports as worker {}", report.worker);
        }
        Ok(Some(report))
    }
}

fn text(bytes: &[u8]) -> anyhow::Result<&str> {
    std::str::from_utf8(bytes).context("not UTF-8 text")
}

/// The table that the worker ranks of this node share: `None` on rank 0, which solves nothing,
/// and on a rank that cannot map it (it says why and keeps a table of its own). Jobs that run
/// at the same time share subtrees, and ranks with a table each solve them again (4x7 SIMPLE
/// on 7 workers: 2.27 G nodes, against 0.93 G on one). Every rank calls this (it is
/// collective). The table is a POSIX shared-memory object that the node's first rank names;
/// it is unlinked once every rank of the node has mapped it, so that nothing is left behind
/// however the run ends.
fn node_table(
    world: &SimpleCommunicator,
    node: &SimpleCommunicator,
    megabytes: usize,
) -> Option<Arc<Table>> {
    let mut name = [0u8; 64];
    if node.rank() == 0 {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let text = format!("/othello-table-{}-{nanos}", std::process::id());
        name[..text.len()].copy_from_slice(text.as_bytes());
    }
    node.process_at_rank(0).broadcast_into(&mut name[..]);
    let name = CStr::from_bytes_until_nul(&name).expect("a name ended by a nul");
    let table = (world.rank() != 0).then(|| shared_table(name, megabytes));
    node.barrier();
    // SAFETY: a plain call with a nul-terminated name; a name already unlinked is an error
    // that changes nothing.
    unsafe { libc::shm_unlink(name.as_ptr()) };
    match table? {
        Ok(table) => Some(Arc::new(table)),
        Err(e) => {
            eprintln!(
                "othello: rank {}: no table shared with the node's other ranks ({e}); \
                 this rank keeps its own",
                world.rank()
            );
            None
        }
    }
}

/// Where the workers run, on rank 0 (`None` on the others): each worker rank's node, and each
/// node's cores, `cores` where given, else the CPUs its worker ranks may run on between them
/// (the union of their affinity masks). Every rank calls this (it is collective).
fn node_cores(
    world: &SimpleCommunicator,
    node: &SimpleCommunicator,
    cores: Option<usize>,
) -> Option<Cores> {
    // Rank 0 coordinates: the cores it may run on are not a worker's.
    let mask = match world.rank() {
        0 => [0; CPU_WORDS],
        _ => cpu_mask(),
    };
    let mut union = [0u64; CPU_WORDS];
    node.all_reduce_into(&mask[..], &mut union[..], SystemOperation::bitwise_or());
    let found = union.iter().map(|w| w.count_ones() as u64).sum::<u64>();
    // A node is named by its first rank in the world.
    let mut first = world.rank();
    node.process_at_rank(0).broadcast_into(&mut first);
    let mine = [i64::from(first), cores.map_or(found, |n| n as u64) as i64];
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_into(&mine[..]);
        return None;
    }
    let mut all = vec![0i64; 2 * world.size() as usize];
    root.gather_into_root(&mine[..], &mut all[..]);
    // Worker `w` is rank `w + 1`.
    let workers = &all[2..];
    let labels: Vec<i64> = workers.chunks(2).map(|c| c[0]).collect();
    let counts: Vec<usize> = workers.chunks(2).map(|c| c[1].max(1) as usize).collect();
    Some(Cores::by_label(&labels, &counts))
}

/// Words of a CPU mask: Linux's `cpu_set_t`, 1,024 CPUs.
const CPU_WORDS: usize = 16;

/// The CPUs this process may run on, a bit each; every CPU where the system does not say.
fn cpu_mask() -> [u64; CPU_WORDS] {
    // SAFETY: a zeroed `cpu_set_t` is an empty set; the call fills at most its size.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        match libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) {
            0 => Some(set),
            _ => None,
        }
    };
    let Some(set) = set else {
        return [u64::MAX; CPU_WORDS];
    };
    let mut mask = [0u64; CPU_WORDS];
    for cpu in 0..CPU_WORDS * 64 {
        // SAFETY: `cpu` is within the set's size.
        if unsafe { libc::CPU_ISSET(cpu, &set) } {
            mask[cpu / 64] |= 1 << (cpu % 64);
        }
    }
    mask
}

/// The table of `megabytes` in the shared-memory object `name`, made if it is not there.
fn shared_table(name: &CStr, megabytes: usize) -> std::io::Result<Table> {
    // SAFETY: a plain call with a nul-terminated name; the descriptor is checked below.
    let fd = unsafe { libc::shm_open(name.as_ptr(), libc::O_CREAT | libc::O_RDWR, 0o600) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: a descriptor just opened, owned by nothing else.
    let file = unsafe { std::fs::File::from_raw_fd(fd) };
    Table::in_file(megabytes, &file)
}

/// A worker rank: solves each job it is handed, in turn, until told there are no more.
fn serve(
    world: &SimpleCommunicator,
    dir: &Path,
    options: &JobOptions,
    table: Option<Arc<Table>>,
) -> anyhow::Result<()> {
    let folder = Folder::new(dir);
    let plan = folder.plan()?;
    let worker = world.rank() as usize - 1;
    let coordinator = world.process_at_rank(0);
    let mut warm = table.map_or_else(KeptSolver::many, KeptSolver::sharing);
    loop {
        let bytes = loop {
            if let Some((bytes, _)) = next_message(&coordinator, None) {
                break bytes;
            }
        };
        let order: Order = text(&bytes).and_then(str::parse)?;
        let (id, job) = match order {
            Order::Finish => return Ok(()),
            // For a job that ended before the cancel came.
            Order::Cancel { .. } => continue,
            Order::Solve { id, job } => (id, job),
        };
        let (ended, nodes, finish) =
            solve_watching(world, &folder, &plan, &job, id, options, &mut warm);
        if finish {
            return Ok(());
        }
        let report = Report {
            worker,
            id,
            ended,
            nodes,
        };
        coordinator.send(report.to_string().as_bytes());
    }
}

/// Solves job `id` on a thread of its own while this thread reads the coordinator's orders: a
/// cancel of the job stops it, and so does the end of the work (then `finish` is true).
fn solve_watching(
    world: &SimpleCommunicator,
    folder: &Folder,
    plan: &Plan,
    job: &Job,
    id: u64,
    options: &JobOptions,
    warm: &mut KeptSolver,
) -> (Ended, u64, bool) {
    let coordinator = world.process_at_rank(0);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut finish = false;
    let (ended, nodes) = std::thread::scope(|scope| {
        let (done, solved) = channel();
        let stop_flag = Arc::clone(&cancel);
        scope.spawn(move || {
            let stop: crate::search::Observer = Box::new(move |_| match stop_flag.load(Relaxed) {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            });
            let _ = done.send(solve_assigned(folder, plan, job, options, warm, stop));
        });
        loop {
            match solved.recv_timeout(POLL) {
                Ok(solved) => return solved,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return (Ended::Failed("the solver thread ended".to_string()), 0)
                }
            }
            while let Some((bytes, _)) = next_message(&coordinator, Some(Instant::now())) {
                match text(&bytes).and_then(str::parse::<Order>) {
                    Ok(Order::Cancel { id: c }) if c == id => cancel.store(true, Relaxed),
                    Ok(Order::Finish) => {
                        finish = true;
                        cancel.store(true, Relaxed);
                    }
                    // A cancel of a job that ended before; nothing else comes mid-job.
                    _ => {}
                }
            }
        }
    });
    (ended, nodes, finish)
}
