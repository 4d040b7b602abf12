//! The Slurm drivers of `cluster/slurm/` on a real one-node cluster that each test starts for
//! itself: its own slurm.conf, munge key, sockets, ports, pid files and spool under a temporary
//! folder (munged, slurmctld and slurmd, as root), stopped when the test ends, failed or not.
//!
//! Setup, once, as root (Debian 12): `apt-get update && apt-get install -y slurm-wlm munge`
//! Run: `cargo test --release --test slurm -- --ignored` (about three minutes; `.ci/run` does both).
//! Built with `--features mpi` (and Open MPI installed), the MPI batch script's tests run too.
//! Without the packages each test prints "skipped: slurm-wlm not installed" and passes; when not
//! run as root, "skipped: starting a cluster needs root".

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const OTHELLO: &str = env!("CARGO_BIN_EXE_othello");
const SOLVE_DRIVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/cluster/slurm/othello-solve");
#[cfg(feature = "mpi")]
const MPI_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/cluster/slurm/othello-solve.sbatch"
);
const TRAIN_DRIVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/cluster/slurm/othello-train-gen"
);

/// One cluster at a time: each test's daemons are stopped before the next test starts its own.
static SERIAL: Mutex<()> = Mutex::new(());
static CLUSTERS: AtomicU16 = AtomicU16::new(0);

/// A program of the packages, on PATH or in the sbin folders a plain user's PATH leaves out.
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A one-node cluster of its own; dropping it cancels its jobs and stops its daemons.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    /// The pid files of the daemons started, in the order they were started.
    pid_files: Vec<PathBuf>,
}

impl Cluster {
    /// Starts a cluster, `extra` added to its slurm.conf, and waits until its node is idle;
    /// None (with the reason printed) where this machine cannot.
    fn start(extra: &str) -> Option<Cluster> {
        let slurm = [
            "slurmctld",
            "slurmd",
            "sbatch",
            "sinfo",
            "scontrol",
            "scancel",
        ];
        if slurm.iter().any(|p| program(p).is_none()) {
            println!("skipped: slurm-wlm not installed");
            return None;
        }
        if program("munged").is_none() {
            println!("skipped: munge not installed");
            return None;
        }
        if unsafe { libc::geteuid() } != 0 {
            println!("skipped: starting a cluster needs root");
            return None;
        }
        let n = CLUSTERS.fetch_add(1, Ordering::Relaxed);
        let pid = std::process::id();
        let dir = std::env::temp_dir().join(format!("othello-slurm-{pid}-{n}"));
        let _ = fs::remove_dir_all(&dir);
        for sub in ["spool", "state", "log"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let mut cluster = Cluster {
            conf: dir.join("slurm.conf"),
            dir,
            pid_files: Vec::new(),
        };
        let d = cluster.dir.display().to_string();
        let host = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let host = host.trim().split('.').next().unwrap().to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Ports of its own, so that another cluster on this machine is left alone.
        let port = 21000 + (pid % 1000) as u16 * 8 + (n % 4) * 2;
        // MinJobAge under 5 s keeps `sbatch --wait` polling every 2 s (it backs off to 32 s
        // otherwise), so that a round of tiny jobs takes seconds, not half a minute.
        let conf = format!(
            "ClusterName=othello{n}\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={port}\n\
             SlurmdPort={}\n\
             AuthType=auth/munge\n\
             AuthInfo=socket={d}/munge.socket\n\
             CredType=cred/munge\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             SchedulerType=sched/backfill\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_Core\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmdSpoolDir={d}/spool\n\
             StateSaveLocation={d}/state\n\
             SlurmctldLogFile={d}/log/slurmctld.log\n\
             SlurmdLogFile={d}/log/slurmd.log\n\
             SlurmUser=root\n\
             ReturnToService=2\n\
             MinJobAge=4\n\
             NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=500\n\
             PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP\n\
             {extra}",
            port + 1
        );
        fs::write(&cluster.conf, conf).unwrap();
        let key = cluster.dir.join("munge.key");
        let mut bytes = vec![0u8; 128];
        use std::io::Read;
        fs::File::open("/dev/urandom")
            .unwrap()
            .read_exact(&mut bytes)
            .unwrap();
        fs::write(&key, bytes).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&key, fs::Permissions::from_mode(0o600)).unwrap();

        cluster.daemon(
            "munged",
            &[
                "-f".to_string(),
                format!("--key-file={d}/munge.key"),
                format!("--socket={d}/munge.socket"),
                format!("--pid-file={d}/munged.pid"),
                format!("--log-file={d}/log/munged.log"),
                format!("--seed-file={d}/munged.seed"),
            ],
            "munged.pid",
        );
        let conf = cluster.conf.display().to_string();
        cluster.daemon("slurmctld", &["-f".into(), conf.clone()], "slurmctld.pid");
        cluster.daemon(
            "slurmd",
            &["-f".into(), conf, "-N".into(), host.clone()],
            "slurmd.pid",
        );
        let start = Instant::now();
        loop {
            let state = cluster.command("sinfo").args(["-h", "-o", "%T"]).output();
            let state = state.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
            if state.as_deref().is_ok_and(|s| s == "idle") {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the node is not idle after 60 s (sinfo: {state:?})"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        Some(cluster)
    }

    /// Starts a daemon that forks into the background, its pid file noted first, so that it
    /// is stopped even when its start fails half-way.
    fn daemon(&mut self, name: &str, args: &[String], pid_file: &str) {
        self.pid_files.push(self.dir.join(pid_file));
        let out = self.command(name).args(args).output().unwrap();
        assert!(out.status.success(), "{name} did not start: {out:?}");
        let start = Instant::now();
        while !self.dir.join(pid_file).exists() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{name} wrote no pid file"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A command that speaks to this cluster.
    fn command(&self, program_name: &str) -> Command {
        let path = program(program_name).unwrap_or_else(|| PathBuf::from(program_name));
        let mut command = Command::new(path);
        command.env("SLURM_CONF", &self.conf);
        command
    }

    /// A folder of its own for a test's files.
    fn folder(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn tail_logs(&self) {
        for log in ["slurmctld.log", "slurmd.log", "munged.log"] {
            let text = fs::read_to_string(self.dir.join("log").join(log)).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            eprintln!("--- {log} (last lines)");
            for line in &lines[lines.len().saturating_sub(15)..] {
                eprintln!("{line}");
            }
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.tail_logs();
        }
        let _ = self.command("scancel").arg("--user=root").output();
        for pid_file in self.pid_files.iter().rev() {
            let Some(pid) = fs::read_to_string(pid_file)
                .ok()
                .and_then(|s| s.trim().parse::<libc::pid_t>().ok())
            else {
                continue;
            };
            // A daemon whose starting shell is gone may need a second signal, then a KILL.
            let start = Instant::now();
            let mut signalled = 0;
            while Path::new(&format!("/proc/{pid}")).exists() {
                let elapsed = start.elapsed();
                if signalled == 0 || (signalled == 1 && elapsed > Duration::from_secs(5)) {
                    unsafe { libc::kill(pid, libc::SIGTERM) };
                    signalled += 1;
                } else if elapsed > Duration::from_secs(10) {
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        if !std::thread::panicking() {
            let _ = fs::remove_dir_all(&self.dir);
        } else {
            eprintln!("the cluster's files are kept in {}", self.dir.display());
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A report less its `Nodes:` line, which differs between a direct and a split solve.
fn report(stdout: &[u8]) -> Vec<String> {
    let lines: Vec<String> = text(stdout)
        .lines()
        .filter(|l| !l.starts_with("Nodes:"))
        .map(str::to_string)
        .collect();
    assert!(
        lines.iter().any(|l| l.starts_with("Perfect play:")),
        "not a report: {lines:?}"
    );
    lines
}

fn direct_solve(args: &[&str]) -> Vec<String> {
    let out = Command::new(OTHELLO).args(args).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    report(&out.stdout)
}

fn succeeded(out: &Output) {
    assert!(
        out.status.success(),
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// An executable shell script.
fn script(path: &Path, body: &str) {
    fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
#[ignore = "needs Debian's slurm-wlm and munge, and root: cargo test --release --test slurm -- --ignored"]
fn full_normal_4x5_with_a_job_killed_on_the_way() {
    let _serial = serial();
    // Array indices up to 2 only: a round of more jobs goes as several arrays, the job being
    // the array's offset plus the index.
    let Some(cluster) = Cluster::start("MaxArraySize=3\n") else {
        return;
    };
    // Job 1 of round 1 is killed the first time it runs, before it writes anything: the
    // merge finds its result missing and the driver submits it again.
    let mark = cluster.folder("killed-once");
    let wrapper = cluster.folder("othello-killing-once");
    script(
        &wrapper,
        &format!(
            "case \" $* \" in *\" --round 1 --job 1 \"*) mkdir '{}' 2>/dev/null && kill -9 $$ ;; esac\n\
             exec '{OTHELLO}' \"$@\"\n",
            mark.display()
        ),
    );
    let work = cluster.folder("4x5");
    let out = cluster
        .command(SOLVE_DRIVER)
        .env("OTHELLO", &wrapper)
        .args(["--work", work.to_str().unwrap(), "--max-running", "2"])
        .args(["--", "--rows", "4", "--cols", "5", "--split", "4"])
        .output()
        .unwrap();
    succeeded(&out);
    let stderr = text(&out.stderr);
    assert!(mark.exists(), "the job was never killed: {stderr}");
    assert!(
        stderr.contains("round 1: 1 of its jobs without a result, submitting them again"),
        "{stderr}"
    );
    assert_eq!(
        report(&out.stdout),
        direct_solve(&["solve", "--rows", "4", "--cols", "5"])
    );
    // Every job of round 1 ran, each under its own index, its log under the work folder.
    let jobs = fs::read_to_string(work.join("round-1.jobs")).unwrap();
    let jobs: usize = jobs
        .lines()
        .find_map(|l| l.strip_prefix("jobs: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(jobs > 3, "round 1 has {jobs} jobs: one array would do");
    let mut ran: Vec<usize> = fs::read_dir(work.join("slurm/round-1"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .map(|log| {
            let first = log.lines().next().unwrap_or_default().to_string();
            let job = first
                .strip_prefix("round 1 task ")
                .and_then(|s| s.split(' ').next());
            job.unwrap_or_else(|| panic!("log begins {first:?}"))
                .parse()
                .unwrap()
        })
        .collect();
    ran.sort_unstable();
    let mut expected: Vec<usize> = (0..jobs).collect();
    expected.push(1);
    expected.sort_unstable();
    assert_eq!(ran, expected, "job 1 twice, every other job once");
}

#[test]
#[ignore = "needs Debian's slurm-wlm and munge, and root: cargo test --release --test slurm -- --ignored"]
fn simple_misere_4x5_goes_on_from_a_split_made_by_hand() {
    let _serial = serial();
    let Some(cluster) = Cluster::start("") else {
        return;
    };
    let work = cluster.folder("4x5-simple-misere");
    let w = work.to_str().unwrap();
    let board = ["--rows", "4", "--cols", "5", "--misere"];
    let split = Command::new(OTHELLO)
        .args(["--rules", "simple", "solve"])
        .args(board)
        .args(["--split", "4", "--work", w])
        .output()
        .unwrap();
    succeeded(&split);
    let last = text(&split.stdout).lines().last().unwrap().to_string();
    let jobs: usize = last
        .strip_prefix("round 1: ")
        .and_then(|s| s.strip_suffix(" jobs").or_else(|| s.strip_suffix(" job")))
        .unwrap_or_else(|| panic!("{last:?}"))
        .parse()
        .unwrap();
    let job = Command::new(OTHELLO)
        .args(["solve", "--work", w, "--job", "0"])
        .output()
        .unwrap();
    succeeded(&job);

    let run = || {
        cluster
            .command(SOLVE_DRIVER)
            .env("OTHELLO", OTHELLO)
            .args(["--work", w, "--max-running", "1", "--threads", "1"])
            .args(["--hash-mb", "16", "--batch", "2"])
            .output()
            .unwrap()
    };
    let out = run();
    succeeded(&out);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("going on with round 1"), "{stderr}");
    // The job solved here is not run again; each task solves two jobs, the first task job 1
    // alone.
    let tasks = match jobs.div_ceil(2) {
        1 => "1 task".to_string(),
        n => format!("{n} tasks"),
    };
    assert!(
        stderr.contains(&format!(
            "round 1: {} of its {jobs} jobs to run, in {tasks}",
            jobs - 1
        )),
        "{stderr}"
    );
    let direct = direct_solve(&[
        "--rules", "simple", "solve", "--rows", "4", "--cols", "5", "--misere",
    ]);
    assert_eq!(report(&out.stdout), direct);
    // Run again, it submits nothing and prints the report.
    let again = run();
    succeeded(&again);
    assert!(
        !text(&again.stderr).contains("to run"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(report(&again.stdout), direct);
}

#[test]
#[ignore = "needs Debian's slurm-wlm and munge, and root: cargo test --release --test slurm -- --ignored"]
fn a_round_whose_jobs_keep_failing_is_given_up_after_the_attempts() {
    let _serial = serial();
    let Some(cluster) = Cluster::start("") else {
        return;
    };
    let wrapper = cluster.folder("othello-failing-jobs");
    script(
        &wrapper,
        &format!(
            "case \" $* \" in *\" --job \"*) echo 'this job fails' >&2; exit 1 ;; esac\n\
             exec '{OTHELLO}' \"$@\"\n"
        ),
    );
    let work = cluster.folder("4x4");
    let out = cluster
        .command(SOLVE_DRIVER)
        .args(["--othello", wrapper.to_str().unwrap()])
        .args(["--work", work.to_str().unwrap(), "--attempts", "2"])
        .args(["--", "--rules", "simple", "--place-anywhere"])
        .args(["--rows", "4", "--cols", "4", "--split", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("still without a result after 2 submissions in a row"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("to run").count(), 2, "{stderr}");
    // The jobs' own words are in their logs.
    let logs = work.join("slurm/round-1");
    let said = fs::read_dir(&logs)
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|log| log.contains("this job fails"))
        .count();
    assert!(said > 0, "no log in {} says why", logs.display());
}

#[test]
#[ignore = "needs Debian's slurm-wlm and munge, and root: cargo test --release --test slurm -- --ignored"]
fn training_shards_made_as_an_array_fit_as_one_run() {
    let _serial = serial();
    let Some(cluster) = Cluster::start("") else {
        return;
    };
    let gen = [
        "--rows",
        "4",
        "--cols",
        "4",
        "--depth",
        "1",
        "--exact-empties",
        "6",
        "--seed",
        "9",
    ];
    let shards = cluster.folder("shards");
    let sharded = cluster.folder("shards.weights");
    let out = cluster
        .command(TRAIN_DRIVER)
        .env("OTHELLO", OTHELLO)
        .args(["--out", shards.to_str().unwrap(), "--shards", "3"])
        .args(["--shard-size", "5", "--max-running", "2"])
        .args(["--fit", sharded.to_str().unwrap(), "--fit-arg=--phases=2"])
        .arg("--")
        .args(gen)
        .output()
        .unwrap();
    succeeded(&out);
    for i in 0..3 {
        assert!(shards.join(format!("shard-{i}.dat")).is_file(), "shard {i}");
    }

    let one = cluster.folder("one.dat");
    let whole = cluster.folder("one.weights");
    let made = Command::new(OTHELLO)
        .args([
            "train",
            "gen",
            "--games",
            "15",
            "--out",
            one.to_str().unwrap(),
        ])
        .args(gen)
        .output()
        .unwrap();
    succeeded(&made);
    let fit = Command::new(OTHELLO)
        .args([
            "train",
            "fit",
            "--phases",
            "2",
            "--out",
            whole.to_str().unwrap(),
        ])
        .arg(&one)
        .output()
        .unwrap();
    succeeded(&fit);
    assert_eq!(
        fs::read(&sharded).unwrap(),
        fs::read(&whole).unwrap(),
        "the shards' weights differ from one run's"
    );
    // The fit's table (the error per phase) is the same too.
    let table = |s: &[u8]| -> Vec<String> {
        text(s)
            .lines()
            .filter(|l| l.starts_with('|'))
            .map(str::to_string)
            .collect()
    };
    assert!(!table(&fit.stdout).is_empty(), "{fit:?}");
    assert_eq!(table(&out.stdout), table(&fit.stdout));
}

/// Whether Open MPI's `mpirun` is here; says so where it is not.
#[cfg(feature = "mpi")]
fn have_mpirun() -> bool {
    let found = Command::new("mpirun").arg("--version").output();
    let found = found.is_ok_and(|o| o.status.success());
    if !found {
        println!("skipped: no mpirun (apt-get install openmpi-bin libopenmpi-dev)");
    }
    found
}

/// `sbatch` of the MPI batch script with `tasks` tasks, its output to `log`, solving `solve`
/// into `work`: waiting for its end when `wait`.
#[cfg(feature = "mpi")]
fn submit_mpi(
    cluster: &Cluster,
    tasks: u32,
    log: &Path,
    extra: &[&str],
    work: &Path,
    solve: &[&str],
    wait: bool,
) -> Output {
    let mut sbatch = cluster.command("sbatch");
    sbatch.args([
        "--parsable",
        "-n",
        &tasks.to_string(),
        "-o",
        log.to_str().unwrap(),
    ]);
    if wait {
        sbatch.arg("--wait");
    }
    sbatch
        .args(extra)
        .arg(MPI_SCRIPT)
        .args(["--work", work.to_str().unwrap(), "--othello", OTHELLO, "--"])
        .args(solve)
        .output()
        .unwrap()
}

/// A cluster for a test of the MPI batch script, one test at a time; `None` (with the reason
/// printed) where this machine cannot.
#[cfg(feature = "mpi")]
fn mpi_cluster() -> Option<(std::sync::MutexGuard<'static, ()>, Cluster)> {
    let serial = serial();
    if !have_mpirun() {
        return None;
    }
    Some((serial, Cluster::start("")?))
}

/// A 5x7 solve, long enough to be stopped on the way.
#[cfg(feature = "mpi")]
const FIVE_BY_SEVEN: [&str; 6] = ["--rows", "5", "--cols", "7", "--split", "60"];

/// Submits the 5x7 solve and returns once 20 of its jobs have ended, the job still running:
/// its work folder, its log and its job id.
#[cfg(feature = "mpi")]
fn start_5x7(cluster: &Cluster, name: &str) -> (PathBuf, PathBuf, String) {
    let work = cluster.folder(name);
    let log = cluster.folder(&format!("{name}.log"));
    let out = submit_mpi(cluster, 2, &log, &[], &work, &FIVE_BY_SEVEN, false);
    succeeded(&out);
    let said = text(&out.stdout);
    let id = said.trim().split(';').next().unwrap().to_string();
    let start = Instant::now();
    while recorded_jobs(&work) < 20 {
        assert!(job_alive(cluster, &id), "the job ended before 20 jobs did");
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no job ended in 300 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (work, log, id)
}

/// Whether the job `id` is still known to the cluster as pending or running.
#[cfg(feature = "mpi")]
fn job_alive(cluster: &Cluster, id: &str) -> bool {
    let out = cluster
        .command("squeue")
        .args(["-h", "-j", id, "-o", "%T"])
        .output()
        .unwrap();
    let state = text(&out.stdout);
    [
        "PENDING",
        "RUNNING",
        "CONFIGURING",
        "COMPLETING",
        "REQUEUED",
    ]
    .iter()
    .any(|s| state.contains(s))
}

/// The jobs the coordinator's record holds so far.
#[cfg(feature = "mpi")]
fn recorded_jobs(work: &Path) -> usize {
    fs::read_to_string(work.join("solve.log"))
        .map_or(0, |t| t.lines().filter(|l| l.starts_with("job ")).count())
}

#[cfg(feature = "mpi")]
#[test]
#[ignore = "needs Debian's slurm-wlm, munge and openmpi-bin, and root: cargo test --release --features mpi --test slurm -- --ignored"]
fn the_mpi_batch_script_solves_full_and_simple_misere_boards() {
    let Some((_serial, cluster)) = mpi_cluster() else {
        return;
    };
    let cases: [(&[&str], &[&str]); 2] = [
        (&[], &["--rows", "5", "--cols", "5"]),
        (
            &["--rules", "simple"],
            &["--rows", "4", "--cols", "5", "--misere"],
        ),
    ];
    for (n, (global, board)) in cases.iter().enumerate() {
        let work = cluster.folder(&format!("mpi-{n}"));
        let log = cluster.folder(&format!("mpi-{n}.log"));
        // The global options go where the script passes the solve's: after `--`, before
        // `solve`'s own are taken as `othello solve`'s.
        let solve: Vec<&str> = board.iter().chain(global.iter()).copied().collect();
        let out = submit_mpi(&cluster, 2, &log, &[], &work, &solve, true);
        let said = fs::read_to_string(&log).unwrap_or_default();
        assert!(out.status.success(), "{out:?}\n{said}");
        let mut args = global.to_vec();
        args.push("solve");
        args.extend(*board);
        let report_file = fs::read(work.join("report.txt")).unwrap();
        assert_eq!(report(&report_file), direct_solve(&args), "{said}");
        assert!(said.contains("2 tasks"), "{said}");
    }
}

#[cfg(feature = "mpi")]
#[test]
#[ignore = "needs Debian's slurm-wlm, munge and openmpi-bin, and root: cargo test --release --features mpi --test slurm -- --ignored"]
fn an_mpi_batch_job_cancelled_and_submitted_again_goes_on() {
    let Some((_serial, cluster)) = mpi_cluster() else {
        return;
    };
    let (work, log, id) = start_5x7(&cluster, "cancelled");
    let start = Instant::now();
    let out = cluster.command("scancel").arg(&id).output().unwrap();
    succeeded(&out);
    while job_alive(&cluster, &id) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "scancel did not end the job"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(!work.join("report.txt").exists(), "the job had finished");
    let before = recorded_jobs(&work);
    let again = submit_mpi(&cluster, 2, &log, &[], &work, &FIVE_BY_SEVEN, true);
    let said = fs::read_to_string(&log).unwrap_or_default();
    assert!(again.status.success(), "{again:?}\n{said}");
    assert!(recorded_jobs(&work) > before, "{said}");
    let report_file = fs::read(work.join("report.txt")).unwrap();
    assert_eq!(
        report(&report_file),
        direct_solve(&["solve", "--rows", "5", "--cols", "7"])
    );
}

#[cfg(feature = "mpi")]
#[test]
#[ignore = "needs Debian's slurm-wlm, munge and openmpi-bin, and root: cargo test --release --features mpi --test slurm -- --ignored"]
fn an_mpi_batch_job_at_its_time_limit_requeues_itself_and_goes_on() {
    let Some((_serial, cluster)) = mpi_cluster() else {
        return;
    };
    // The time limit's warning, as Slurm sends it (`#SBATCH --signal=B:USR1@120`), sent once
    // some jobs have ended: Slurm checks time limits only every half minute or so.
    let (work, log, id) = start_5x7(&cluster, "requeued");
    let warned = cluster
        .command("scancel")
        .args(["--signal=USR1", "--batch", &id])
        .output()
        .unwrap();
    succeeded(&warned);
    let start = Instant::now();
    while !work.join("report.txt").exists() {
        let said = fs::read_to_string(&log).unwrap_or_default();
        assert!(
            start.elapsed() < Duration::from_secs(400),
            "no report after 400 s:\n{said}"
        );
        assert!(
            job_alive(&cluster, &id) || work.join("report.txt").exists(),
            "the job ended without a report:\n{said}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let said = fs::read_to_string(&log).unwrap_or_default();
    assert!(
        said.contains("requeued"),
        "it never reached its time limit:\n{said}"
    );
    let report_file = fs::read(work.join("report.txt")).unwrap();
    assert_eq!(
        report(&report_file),
        direct_solve(&["solve", "--rows", "5", "--cols", "7"])
    );
}
