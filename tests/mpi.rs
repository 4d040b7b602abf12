//! `othello solve --work DIR --mpi` as one MPI job under Open MPI's `mpirun`: the report of
//! the direct solve on several boards, and a job whose rank was killed goes on from the
//! folder when started again. Built only with the feature (`cargo test --release --features
//! mpi --test mpi`); each test says so and passes where `mpirun` is missing.
#![cfg(feature = "mpi")]

use assert_cmd::cargo::cargo_bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-mpi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Whether `mpirun` can be run here; says why not where it cannot.
fn have_mpirun() -> bool {
    let found = Command::new("mpirun")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!("skipped: no mpirun (apt-get install openmpi-bin libopenmpi-dev)");
    }
    found
}

/// `mpirun` with `ranks` ranks, as root too and with more ranks than cores.
fn mpirun(ranks: usize) -> Command {
    let mut cmd = Command::new("mpirun");
    cmd.args([
        "--allow-run-as-root",
        "--oversubscribe",
        "-n",
        &ranks.to_string(),
    ]);
    cmd.arg(cargo_bin("othello"));
    cmd
}

fn othello(args: &[&str]) -> Output {
    Command::new(cargo_bin("othello"))
        .args(args)
        .output()
        .unwrap()
}

/// A report without its `Nodes:` line, whose counts differ from run to run.
fn report(out: &Output) -> String {
    text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("Nodes:"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn direct(global: &[&str], solve: &[&str]) -> String {
    let mut args = global.to_vec();
    args.push("solve");
    args.extend(solve);
    args.extend(["--threads", "1"]);
    let out = othello(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    report(&out)
}

fn split(global: &[&str], solve: &[&str], jobs: &str, dir: &Path) {
    let mut args = global.to_vec();
    args.push("solve");
    args.extend(solve);
    args.extend(["--split", jobs, "--work", dir.to_str().unwrap()]);
    let out = othello(&args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
}

#[test]
fn an_mpi_job_gives_the_direct_solve() {
    if !have_mpirun() {
        return;
    }
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &["--rows", "4", "--cols", "5"]),
        (
            &["--rules", "simple"],
            &["--rows", "4", "--cols", "5", "--misere"],
        ),
        (&[], &["--rows", "5", "--cols", "5", "--moves", "d3d2"]),
        (&["--place-anywhere"], &["--rows", "3", "--cols", "4"]),
    ];
    let root = scratch("boards");
    for (n, (global, solve)) in cases.iter().enumerate() {
        let dir = root.join(format!("case-{n}"));
        split(global, solve, "12", &dir);
        let out = mpirun(4)
            .args(["solve", "--work", dir.to_str().unwrap(), "--mpi"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{solve:?}: {}", text(&out.stderr));
        assert_eq!(report(&out), direct(global, solve), "{solve:?}");
    }
}

/// The pid of the rank `rank` of an MPI job on the work folder `dir`, once it runs.
fn rank_pid(dir: &Path, rank: usize) -> Option<u32> {
    let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = text(&cmdline);
        if !cmdline.contains(dir.to_str()?) || !cmdline.contains("--mpi") {
            continue;
        }
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if text(&environ).split('\0').any(|v| v == wanted) {
            return Some(pid);
        }
    }
    None
}

#[test]
fn a_job_whose_rank_was_killed_goes_on_from_the_folder() {
    if !have_mpirun() {
        return;
    }
    let solve = ["--rows", "5", "--cols", "5"];
    let dir = scratch("killed").join("w");
    split(&[], &solve, "40", &dir);
    let d = dir.to_str().unwrap();
    let record = dir.join("solve.log");
    let jobs = || {
        std::fs::read_to_string(&record)
            .map_or(0, |t| t.lines().filter(|l| l.starts_with("job ")).count())
    };
    let mut job = mpirun(3)
        .args(["solve", "--work", d, "--mpi"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A worker killed once some jobs have ended: the whole job ends with it.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut killed = false;
    while job.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the MPI job neither ended nor ran jobs"
        );
        if jobs() >= 10 {
            if let Some(pid) = rank_pid(&dir, 1) {
                killed = unsafe_kill(pid);
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let status = job.wait().unwrap();
    if killed {
        assert!(
            !status.success(),
            "an MPI job with a rank killed ended well"
        );
    }
    let before = jobs();
    let again = mpirun(3)
        .args(["solve", "--work", d, "--mpi"])
        .output()
        .unwrap();
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(report(&again), direct(&[], &solve));
    assert!(jobs() >= before);
}

/// Sends SIGKILL to `pid`; whether it was there to kill.
fn unsafe_kill(pid: u32) -> bool {
    Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .is_ok_and(|s| s.success())
}
