//! `othello solve`: perfect play from a position, every position of an OBF file, or a solve
//! split into jobs (`--work`).

use super::options::{all_cores, array_index, threads_arg, EngineDefaults, GameRules};
use super::options::{ResourceArgs, StartArgs};
use crate::cli::error::{bad_position_as, read_list, AppError};
use othello::interrupt::{Interrupt, Stopped};
use othello::notation::MoveList;
use othello::search::{Evaluation, RootMoves};
use othello::solve::{self, work};
use othello::wording::Counted;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The options of `othello solve`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::SOLVE.in_help()))]
pub struct Args {
    /// An OBF file (the FFO test format, 8x8): solve every line, compare with its scores.
    #[arg(long, conflicts_with_all = ["position", "moves", "all_moves", "misere", "progress", "rows", "cols", "first", "top_left", "rules", "place_anywhere", "journal", "limit", "work"])]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub start: StartArgs,
    /// Solve the position after these moves (standard notation, such as f5d6c3 or
    /// "c4 e3 pa", row 1 at the top).
    #[arg(long, default_value = "")]
    pub moves: MoveList,
    /// Give every legal move its exact value, not only the best ones.
    #[arg(long)]
    pub all_moves: bool,
    /// Show progress on stderr even when it is not a terminal.
    #[arg(long)]
    pub progress: bool,
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// Refuse a position with more empty cells than this: far beyond it an exact solve
    /// does not finish in any useful time (FFO #59, 34 empty cells, takes hours). With
    /// --file, such positions are skipped, each on a line that says so.
    #[arg(long, default_value_t = 40)]
    pub max_empties: usize,
    /// Keep the bounds this solve proves in this file (created if missing), and take those
    /// of earlier solves on the same board and rules from it: a solve that was stopped goes
    /// on where it was when run again with the same file.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Give up after this long, such as 90m or 2h, printing the work done [default: no limit];
    /// with --journal, the next run goes on from there.
    #[arg(long, value_name = "DURATION", value_parser = othello::durations::parse)]
    pub limit: Option<Duration>,
    /// Split the solve into about N independent jobs, written to a new --work folder, for
    /// many machines (see cluster/README.md): each is run with --work DIR --job I, and
    /// --merge combines their results.
    #[arg(long, value_name = "N", requires = "work", conflicts_with = "journal", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=work::MAX_SPLIT as u64))]
    pub split: Option<usize>,
    /// The work folder of a split solve. With neither --split, --merge nor --run-local: solve
    /// one job of it (--job, else the index in SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)
    /// on one thread unless --threads says more; exit status 3 when --limit stopped it (run
    /// it again to go on).
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// The job to solve, from 0.
    #[arg(long, value_name = "I", requires = "work", conflicts_with_all = ["split", "merge", "run_local", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"])]
    pub job: Option<usize>,
    /// Solve S jobs in turn, one solver kept through them: --job I (or the array index) is
    /// then batch I, jobs I*S to I*S+S-1 of the round, and an array of M jobs needs M/S
    /// tasks, rounded up. Each job's result is written as it ends.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "work", value_parser = clap::value_parser!(u32).range(1..=1_000_000), conflicts_with_all = ["split", "merge", "run_local"])]
    pub batch: u32,
    /// The round the job is of [default: the latest].
    #[arg(long, value_name = "R", requires = "work", conflicts_with_all = ["split", "merge", "run_local", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"])]
    pub round: Option<u32>,
    /// Merge the results of the --work folder: print the report when they settle the value
    /// (status 0), or write the next round's jobs (status 4; stdout's last line is `round R:
    /// M jobs`); results missing are listed (status 5) and nothing is written.
    #[arg(long, requires = "work", conflicts_with_all = ["split", "run_local", "limit", "journal", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"])]
    pub merge: bool,
    /// Solve the --work folder here (after --split, if given) and print the report: a
    /// coordinator hands the jobs to --workers threads the moment each is needed. Run again,
    /// it goes on from what the folder records.
    #[arg(long, requires = "work", conflicts_with_all = ["journal"], group = "coordinated")]
    pub run_local: bool,
    /// What the record of a --run-local says of the solve's parallelism: the work, the span
    /// (the longest chain of jobs that waited on each other), and the wall time they predict
    /// for 16 to 1024 workers.
    #[arg(long, requires = "work", conflicts_with_all = ["split", "merge", "run_local", "job", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"])]
    pub span: bool,
    /// Solve the --work folder as one MPI job, started by `mpirun -n K` (K >= 2): rank 0
    /// coordinates as --run-local does, the other ranks solve; run again, it goes on from
    /// what the folder records. Needs a build with `--features mpi`.
    #[arg(long, requires = "work", conflicts_with_all = ["split", "merge", "run_local", "job", "span", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"], group = "coordinated")]
    pub mpi: bool,
    /// With --run-local or --mpi: split a job that has run this long while workers are idle
    /// into the jobs of its moves, which the idle workers share [default: 2s].
    #[arg(long, value_name = "DURATION", value_parser = othello::durations::parse, requires = "coordinated")]
    pub split_after: Option<Duration>,
    /// With --run-local or --mpi: while workers are idle, have them test moves against
    /// estimates before the values those tests depend on are known. Less wall time where
    /// estimates are good and cores many; more CPU where estimates are off.
    #[arg(long, requires = "coordinated")]
    pub speculate: bool,
    /// Worker threads of --run-local [default: every core].
    #[arg(long, value_name = "K", requires = "run_local", value_parser = threads_arg)]
    pub workers: Option<usize>,
    /// With --run-local or --mpi: the cores of each machine, at most one job a core at once;
    /// workers beyond them wait [default: the CPUs the machine's workers may run on].
    #[arg(long, value_name = "N", requires = "coordinated", value_parser = threads_arg)]
    pub cores: Option<usize>,
    /// With --split: project the CPU time of every round: the rounds run with estimates for
    /// the jobs' values, a sample of their jobs solved (round 1's into the folder), a job
    /// stopped by --limit projected from a split of its own.
    #[arg(long, requires = "split", conflicts_with = "run_local")]
    pub estimate: bool,
    /// About how many jobs --estimate solves.
    #[arg(long, value_name = "K", requires = "estimate", default_value_t = 20)]
    pub sample: usize,
}

/// Every position of an OBF file (`--file`), or the one position of the command line.
pub fn run(args: Args, rules: GameRules, eval: &Evaluation) -> Result<(), AppError> {
    let search = args.resources.solver(EngineDefaults::SOLVE, eval);
    if let Some(path) = args.file {
        let text = read_list(&path, "an OBF file")?;
        let (out, max) = (&mut io::stdout().lock(), Some(args.max_empties));
        let totals = solve::solve_file_up_to(&text[..], &search, max, out)?;
        if totals.skipped > 0 {
            let _ =
                writeln!(std::io::stderr(),
                "othello solve: {} of the file's positions skipped: more than --max-empties {} \
                 empty cells",
                totals.skipped, args.max_empties
            );
        }
        return Ok(());
    }
    if let Some(dir) = args.work.clone() {
        return solve_work(args, rules, eval, &dir);
    }
    let start = args.start.start(rules);
    let options = solve::SolveOptions {
        which: if args.all_moves {
            RootMoves::All
        } else {
            RootMoves::Ties
        },
        search,
        max_empties: Some(args.max_empties),
        journal: args.journal,
        limit: args.limit,
        interrupt: Interrupt::on_signals()?,
    };
    let terminal = io::stderr().is_terminal();
    let progress: Option<Box<dyn Write + Send>> =
        (terminal || args.progress).then(|| Box::new(io::stderr()) as _);
    let mut stdout = io::stdout().lock();
    match solve::solve_from(
        &start,
        &args.moves,
        &options,
        progress,
        terminal,
        &mut stdout,
    ) {
        Ok(Err(solve::OutOfTime {
            signal: Some(signal),
            ..
        })) => Err(anyhow::Error::from(Stopped { signal }).into()),
        Ok(_) => Ok(()),
        // The position asked for does not exist: a bad command line.
        Err(e) => Err(bad_position_as(e, AppError::Usage)),
    }
}

/// `othello solve --work DIR`: a split solve's split, one job, a merge, or all of it here.
fn solve_work(args: Args, rules: GameRules, eval: &Evaluation, dir: &Path) -> Result<(), AppError> {
    use work::{JobEnd, Merged};
    let which = if args.all_moves {
        RootMoves::All
    } else {
        RootMoves::Ties
    };
    let options = work::JobOptions {
        search: args.resources.solver(EngineDefaults::SOLVE_JOB, eval),
        limit: args.limit,
        interrupt: Interrupt::on_signals()?,
        split_after: args.split_after.unwrap_or(work::SPLIT_AFTER),
        speculate: args.speculate,
        cores: args.cores,
    };
    let mut stdout = io::stdout().lock();
    if args.span {
        return Ok(work::span(dir, &mut stdout)?);
    }
    let bad_position = |e: anyhow::Error| bad_position_as(e, AppError::Usage);
    if let Some(jobs) = args.split {
        let start = args.start.start(rules);
        // Before --run-local, what the split did goes to stderr: stdout is the report alone.
        let mut stderr = io::stderr();
        let said: &mut dyn Write = if args.run_local {
            &mut stderr
        } else {
            &mut stdout
        };
        let asked = work::SplitAsked {
            start: &start,
            moves: &args.moves,
            which,
            jobs,
        };
        work::split(asked, eval, dir, &options.interrupt, said).map_err(bad_position)?;
        if args.estimate {
            let report = work::estimate(dir, args.sample, &options, &mut stdout)?;
            return report.map_err(stopped_job);
        }
        if !args.run_local {
            return Ok(());
        }
    }
    if args.merge {
        return match work::merge(dir, eval, &mut stdout)? {
            Merged::Settled(totals) => {
                // A closed stderr loses the summary, not the status: the report is out.
                let _ = writeln!(io::stderr(), "othello solve: {}", totals.summary());
                Ok(())
            }
            Merged::NextRound { round, jobs } => {
                writeln!(stdout, "round {round}: {}", Counted(jobs, "job"))?;
                Err(AppError::Unfinished {
                    status: work::STATUS_NEXT_ROUND,
                    message: None,
                })
            }
            Merged::Missing(missing) => Err(AppError::Unfinished {
                status: work::STATUS_MISSING,
                message: Some(format!(
                    "results missing, nothing merged: {}",
                    work::listed(&missing)
                )),
            }),
        };
    }
    if args.mpi {
        return solve_mpi(dir, &options, &mut stdout);
    }
    if args.run_local {
        let workers = args.workers.unwrap_or_else(all_cores);
        return match work::run_local(dir, workers, &options, &mut stdout)? {
            Ok(totals) => {
                let _ = writeln!(io::stderr(), "othello solve: {}", totals.summary());
                Ok(())
            }
            Err(end) => Err(stopped_job(end)),
        };
    }
    let index = match args.job {
        Some(i) => i,
        None => {
            let index = array_index(None, "a job index", || {
                "--work DIR alone solves one job: give --job I (or set SLURM_ARRAY_TASK_ID or \
                 JOB_COMPLETION_INDEX), or --split N, --merge or --run-local"
                    .to_string()
            })?;
            usize::try_from(index)
                .map_err(|_| AppError::Usage(format!("job {index}: no such job")))?
        }
    };
    let batch = work::Batch {
        index,
        size: args.batch as usize,
    };
    let mut said = |job: usize, end: &JobEnd| -> anyhow::Result<()> {
        match end {
            JobEnd::Done(r) => writeln!(
                stdout,
                "round {} job {}: score {:+}, {} nodes in {:.3} s",
                r.round, r.job, r.score, r.nodes, r.seconds
            )?,
            JobEnd::AlreadyDone => writeln!(stdout, "job {job}: its result is already there")?,
            JobEnd::Stopped { .. } => {}
        }
        Ok(())
    };
    match work::run_jobs(dir, args.round, batch, &options, &mut said)? {
        None => Ok(()),
        Some(end) => Err(stopped_job(end)),
    }
}

/// `--mpi`: this rank's part of the solve; rank 0 prints the report.
#[cfg(feature = "mpi")]
fn solve_mpi(dir: &Path, options: &work::JobOptions, out: &mut dyn Write) -> Result<(), AppError> {
    match work::run_mpi(dir, options, out)? {
        None => Ok(()),
        Some(Ok(totals)) => {
            let _ = writeln!(io::stderr(), "othello solve: {}", totals.summary());
            Ok(())
        }
        Some(Err(end)) => Err(stopped_job(end)),
    }
}

#[cfg(not(feature = "mpi"))]
fn solve_mpi(_: &Path, _: &work::JobOptions, _: &mut dyn Write) -> Result<(), AppError> {
    Err(AppError::Usage(
        "this othello is built without MPI: build it with `cargo build --release --features \
         mpi` (it needs Open MPI and libclang: cluster/README.md)"
            .to_string(),
    ))
}

/// A job stopped: by a signal (status 128 + its number) or by its limit (status 3).
fn stopped_job(end: work::JobEnd) -> AppError {
    match end {
        work::JobEnd::Stopped {
            signal: Some(signal),
        } => anyhow::Error::from(Stopped { signal }).into(),
        _ => AppError::Unfinished {
            status: work::STATUS_JOB_STOPPED,
            message: Some(
                "not finished within --limit: its work is kept; run the same command again to \
                 go on"
                    .to_string(),
            ),
        },
    }
}
