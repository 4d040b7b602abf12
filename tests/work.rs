//! `othello solve --split N --work DIR`: a solve cut into jobs, each run on its own, merged in
//! rounds, on small boards of every variant, each compared with the direct solve.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A new folder for one test (the work folder goes inside it).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-work-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn othello(args: &[&str]) -> Output {
    Command::cargo_bin("othello")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

/// A new work folder split with the `solve` options, in a scratch folder of its own.
fn split_folder(name: &str, solve: &[&str]) -> PathBuf {
    let dir = scratch(name).join("w");
    let mut args = vec!["solve"];
    args.extend(solve);
    args.extend(["--work", dir.to_str().unwrap()]);
    let out = othello(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A report without its `Nodes:` line, whose counts differ from run to run.
fn report(out: &Output) -> String {
    text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("Nodes:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `global` before `solve`, `solve` options after: the direct solve's report.
fn direct(global: &[&str], solve: &[&str]) -> String {
    let mut args: Vec<&str> = global.to_vec();
    args.push("solve");
    args.extend(solve);
    args.extend(["--threads", "1"]);
    let out = othello(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    report(&out)
}

fn with_work<'a>(global: &[&'a str], solve: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    let mut args: Vec<&str> = global.to_vec();
    args.push("solve");
    args.extend(solve);
    args.extend(rest);
    args
}

#[test]
fn the_local_runner_gives_the_direct_solve_on_every_variant() {
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &["--rows", "4", "--cols", "4"]),
        (&[], &["--rows", "4", "--cols", "5", "--first", "W"]),
        (&[], &["--rows", "4", "--cols", "5", "--misere"]),
        (&["--rules", "simple"], &["--rows", "4", "--cols", "5"]),
        (
            &["--rules", "simple"],
            &["--rows", "4", "--cols", "4", "--misere"],
        ),
        // 20 empty cells: the solve orders its moves by the values of sets of empty cells.
        (&["--rules", "simple"], &["--rows", "4", "--cols", "6"]),
        (
            &["--rules", "simple", "--place-anywhere"],
            &["--rows", "3", "--cols", "4"],
        ),
        (
            &["--place-anywhere"],
            &["--rows", "3", "--cols", "4", "--misere"],
        ),
        (&[], &["--position", "(w ---- -wb- -bb- -b--)"]),
        (&[], &["--rows", "5", "--cols", "5", "--moves", "d3d2"]),
        (&[], &["--rows", "4", "--cols", "6", "--all-moves"]),
    ];
    let root = scratch("variants");
    for (n, (global, solve)) in cases.iter().enumerate() {
        let dir = root.join(format!("case-{n}"));
        let dir_text = dir.to_str().unwrap();
        let mut rest = vec![
            "--split",
            "12",
            "--work",
            dir_text,
            "--run-local",
            "--workers",
            "2",
            "--cores",
            "2",
        ];
        // Every other case guesses with the idle worker.
        if n % 2 == 1 {
            rest.push("--speculate");
        }
        let args = with_work(global, solve, &rest);
        let out = othello(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(report(&out), direct(global, solve), "{args:?}");
    }
}

/// Runs every job of the latest round as a job array would: each task with its index in the
/// environment or on the command line, solving `batch` jobs (`--batch`).
fn run_round(dir: &str, batch: usize, ways: &mut usize) {
    let jobs = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_prefix("round-")?
                .strip_suffix(".jobs")?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap();
    let listing =
        std::fs::read_to_string(Path::new(dir).join(format!("round-{jobs}.jobs"))).unwrap();
    let count = listing
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    let batch_text = batch.to_string();
    for i in 0..count.div_ceil(batch) {
        let mut cmd = Command::cargo_bin("othello").unwrap();
        cmd.args(["solve", "--work", dir]);
        if batch > 1 {
            cmd.args(["--batch", &batch_text]);
        }
        let index = i.to_string();
        match *ways % 3 {
            0 => cmd.args(["--job", &index]),
            1 => cmd.env("SLURM_ARRAY_TASK_ID", &index),
            _ => cmd.env("JOB_COMPLETION_INDEX", &index),
        };
        *ways += 1;
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "task {i}: {}", text(&out.stderr));
        // One line a job of the batch, the last batch cut short by the end of the round.
        let solved = (batch * i..count.min(batch * (i + 1)))
            .map(|j| format!(" job {j}: "))
            .collect::<Vec<_>>();
        let said = text(&out.stdout);
        assert_eq!(said.lines().count(), solved.len(), "{said}");
        for (line, job) in said.lines().zip(&solved) {
            // A job done before says so: `job J: its result is already there`.
            let said = line.contains(job.as_str()) || line.starts_with(job.trim_start());
            assert!(said, "{line:?} is not{job}");
        }
    }
}

/// Solves the folder `dir` round by round, as a job array and its merges would: the merge that
/// settles it.
fn solve_by_rounds(dir: &str) -> Output {
    let mut ways = 0;
    for _ in 0..200 {
        run_round(dir, 1, &mut ways);
        let out = othello(&["solve", "--work", dir, "--merge"]);
        match out.status.code() {
            Some(0) => return out,
            Some(4) => {}
            _ => panic!("merge: {:?} {}", out.status, text(&out.stderr)),
        }
    }
    panic!("no end to the rounds")
}

#[test]
fn jobs_run_one_by_one_or_in_batches_and_merged_in_rounds_give_the_direct_solve() {
    // The global options, the solve's, and how many jobs a task solves.
    let cases: &[(&[&str], &[&str], usize)] = &[
        (&[], &["--rows", "4", "--cols", "5"], 1),
        (
            &["--rules", "simple"],
            &["--rows", "4", "--cols", "5", "--misere"],
            1,
        ),
        (&[], &["--rows", "5", "--cols", "5"], 3),
        (&["--rules", "simple"], &["--rows", "4", "--cols", "6"], 4),
    ];
    let root = scratch("rounds");
    let mut ways = 0;
    for (n, (global, solve, batch)) in cases.iter().enumerate() {
        let dir = root.join(format!("case-{n}"));
        let dir_text = dir.to_str().unwrap();
        let out = othello(&with_work(
            global,
            solve,
            &["--split", "8", "--work", dir_text],
        ));
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout)
            .lines()
            .last()
            .unwrap()
            .starts_with("round 1: "));
        let mut rounds = 1;
        let merged = loop {
            run_round(dir_text, *batch, &mut ways);
            let out = othello(&["solve", "--work", dir_text, "--merge"]);
            match out.status.code() {
                Some(0) => break out,
                Some(4) => {
                    rounds += 1;
                    let last = text(&out.stdout).lines().last().unwrap().to_string();
                    assert!(last.starts_with(&format!("round {rounds}: ")), "{last}");
                }
                _ => panic!("merge: {:?} {}", out.status, text(&out.stderr)),
            }
            assert!(rounds < 200, "no end to the rounds");
        };
        assert_eq!(report(&merged), direct(global, solve));
        // A settled folder merges to the same report again.
        let again = othello(&["solve", "--work", dir_text, "--merge"]);
        assert_eq!(report(&again), report(&merged));
    }
}

#[test]
fn merges_keep_their_estimates_and_a_lost_or_damaged_file_changes_nothing() {
    let root = scratch("estimates");
    // Every round's jobs and the report, with the estimates file spoiled before each merge.
    let solve = |name: &str, spoil: &dyn Fn(&Path)| -> (Vec<String>, String) {
        let dir = root.join(name);
        let d = dir.to_str().unwrap();
        let out = othello(&[
            "solve", "--rows", "5", "--cols", "5", "--split", "12", "--work", d,
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let kept = std::fs::read_to_string(dir.join("estimates.txt")).unwrap();
        assert!(kept.contains("format: othello-solve-estimates 1"), "{kept}");
        let mut ways = 0;
        let mut rounds = Vec::new();
        for round in 1.. {
            rounds.push(std::fs::read_to_string(dir.join(format!("round-{round}.jobs"))).unwrap());
            run_round(d, 1, &mut ways);
            spoil(&dir.join("estimates.txt"));
            let out = othello(&["solve", "--work", d, "--merge"]);
            match out.status.code() {
                Some(0) => return (rounds, report(&out)),
                Some(4) => {}
                _ => panic!("merge: {:?} {}", out.status, text(&out.stderr)),
            }
            assert!(round < 200, "no end to the rounds");
        }
        unreachable!()
    };
    let kept = solve("kept", &|_| {});
    assert!(kept.0.len() > 1, "one round: nothing to keep");
    let lost = solve("lost", &|path| std::fs::remove_file(path).unwrap());
    let damaged = solve("damaged", &|path| {
        let text = std::fs::read_to_string(path).unwrap();
        std::fs::write(path, text.replace("entries: ", "entries: 1")).unwrap();
    });
    assert_eq!(lost, kept);
    assert_eq!(damaged, kept);
    assert_eq!(kept.1, direct(&[], &["--rows", "5", "--cols", "5"]));
}

#[test]
fn a_batch_skips_the_jobs_done_and_one_past_the_round_is_refused() {
    let dir = split_folder("batch", &["--rows", "4", "--cols", "5", "--split", "6"]);
    let d = dir.to_str().unwrap();
    assert!(othello(&["solve", "--work", d, "--job", "1"])
        .status
        .success());
    let batch = othello(&["solve", "--work", d, "--job", "0", "--batch", "3"]);
    assert!(batch.status.success(), "{}", text(&batch.stderr));
    let said = text(&batch.stdout);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 3, "{said}");
    assert!(lines[0].starts_with("round 1 job 0: score "), "{said}");
    assert_eq!(lines[1], "job 1: its result is already there");
    assert!(lines[2].starts_with("round 1 job 2: score "), "{said}");
    let jobs = (0..)
        .take_while(|i| {
            let listing = std::fs::read_to_string(dir.join("round-1.jobs")).unwrap();
            listing.lines().any(|l| l.starts_with(&format!("{i} ")))
        })
        .count();
    let past = jobs.div_ceil(3).to_string();
    let refused = othello(&["solve", "--work", d, "--job", &past, "--batch", "3"]);
    assert_eq!(refused.status.code(), Some(1));
    let err = text(&refused.stderr);
    assert!(
        err.contains(&format!(
            "batch {past}: round 1 has {jobs} jobs, {past} batches of 3"
        )) || err.contains(&format!(
            "batch {past}: round 1 has {jobs} jobs, 1 batch of 3"
        )),
        "{err}"
    );
    let conflict = othello(&["solve", "--work", d, "--merge", "--batch", "3"]);
    assert_eq!(conflict.status.code(), Some(2));
}

#[test]
fn a_job_run_twice_changes_nothing_and_missing_results_are_listed() {
    let root = scratch("twice");
    let dir = root.join("w");
    let d = dir.to_str().unwrap();
    let out = othello(&[
        "solve", "--rows", "4", "--cols", "5", "--split", "6", "--work", d,
    ]);
    assert!(out.status.success());
    let merge = othello(&["solve", "--work", d, "--merge"]);
    assert_eq!(merge.status.code(), Some(5));
    let err = text(&merge.stderr);
    assert!(
        err.contains("results missing") && err.contains("round 1 jobs 0-"),
        "{err}"
    );
    assert!(!dir.join("round-2.jobs").exists());
    let first = othello(&["solve", "--work", d, "--job", "0"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let result = dir.join("round-1").join("job-0.result");
    let bytes = std::fs::read(&result).unwrap();
    let second = othello(&["solve", "--work", d, "--job", "0"]);
    assert!(second.status.success());
    assert!(text(&second.stdout).contains("already there"));
    assert_eq!(std::fs::read(&result).unwrap(), bytes);
    let merge = othello(&["solve", "--work", d, "--merge"]);
    assert_eq!(merge.status.code(), Some(5));
    assert!(
        !text(&merge.stderr).contains("jobs 0-"),
        "{}",
        text(&merge.stderr)
    );
    // Job numbers past the round's are refused.
    let past = othello(&["solve", "--work", d, "--job", "100000"]);
    assert_eq!(past.status.code(), Some(1));
    assert!(
        text(&past.stderr).contains("round 1 has"),
        "{}",
        text(&past.stderr)
    );
}

/// A copy of the folder `from` (files and folders only) at `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs `othello` with each of `runs`' arguments at once, and gives their outputs.
fn at_once(runs: &[Vec<String>]) -> Vec<Output> {
    let children: Vec<_> = runs
        .iter()
        .map(|args| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("othello"))
                .args(args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

/// The board lines of the journals under `dir`: one a journal, however many runs wrote it.
fn board_lines(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "journal"))
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with("board "))
                .count()
        })
        .sum()
}

/// Two runs of one job (a requeued task, a resubmitted array), two solves of one journal and
/// two local runners of one folder, started together again and again: the journals stay
/// whole, nothing is lost, and the job runs again as it should.
#[test]
fn runs_that_share_a_job_a_journal_or_a_folder_take_turns() {
    let root = scratch("race");
    let w0 = split_folder("race-w0", &["--rows", "4", "--cols", "5", "--split", "8"]);
    let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let direct_4x4 = direct(&[], &["--rows", "4", "--cols", "4"]);
    for k in 0..50 {
        let w = root.join(format!("w{k}"));
        copy_dir(&w0, &w);
        let d = w.to_str().unwrap();
        let job = args(&["solve", "--work", d, "--job", "0"]);
        for out in at_once(&[job.clone(), job.clone()]) {
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        }
        assert_eq!(board_lines(&w.join("journals")), 1, "try {k}");
        let result = w.join("round-1").join("job-0.result");
        assert!(result.exists());
        std::fs::remove_file(&result).unwrap();
        let again = othello(&job.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
        assert!(result.exists());

        let journal = root.join(format!("j{k}.journal"));
        let j = journal.to_str().unwrap();
        let solve = args(&["solve", "--rows", "4", "--cols", "5", "--journal", j]);
        let outs = at_once(&[solve.clone(), solve]);
        for out in &outs {
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        }
        // The run that waited reads what the other proved, and says so.
        let value = |out: &Output| {
            report(out)
                .lines()
                .filter(|l| !l.starts_with("Earlier runs"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(value(&outs[0]), value(&outs[1]));
        assert_eq!(board_lines(&root), 1 + k, "try {k}");

        let local = split_folder(
            &format!("race-local{k}"),
            &["--rows", "4", "--cols", "4", "--split", "4"],
        );
        let l = local.to_str().unwrap();
        let run = args(&["solve", "--work", l, "--run-local", "--workers", "1"]);
        let mut finished = 0;
        for out in at_once(&[run.clone(), run]) {
            let err = text(&out.stderr);
            assert!(!err.contains("internal error"), "{err}");
            match out.status.code() {
                Some(0) => {
                    assert_eq!(report(&out), direct_4x4);
                    finished += 1;
                }
                Some(1) => {
                    assert_eq!(err.lines().count(), 1, "{err}");
                    assert!(
                        err.contains("another run is working in this folder"),
                        "{err}"
                    );
                }
                _ => panic!("{out:?}"),
            }
        }
        assert!(finished >= 1, "try {k}");
    }
}

#[test]
fn a_job_stopped_by_its_limit_keeps_its_work_and_goes_on() {
    // One job a move deep on 5x6: some 25 empty cells, far beyond a millisecond.
    let dir = split_folder("limit", &["--rows", "5", "--cols", "6", "--split", "1"]);
    let d = dir.to_str().unwrap();
    let stopped = othello(&["solve", "--work", d, "--job", "0", "--limit", "1ms"]);
    assert_eq!(stopped.status.code(), Some(3), "{}", text(&stopped.stderr));
    assert!(text(&stopped.stderr).contains("run the same command again"));
    assert!(!dir.join("round-1").join("job-0.result").exists());
    // Beside it, only its lock file (hidden).
    let journals: Vec<_> = std::fs::read_dir(dir.join("journals"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.starts_with('.'))
        .collect();
    assert_eq!(journals.len(), 1, "the job's journal is kept");
    let again = othello(&["solve", "--work", d, "--job", "0"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(dir.join("round-1").join("job-0.result").exists());
}

#[test]
fn a_job_killed_mid_way_leaves_no_result_and_runs_again() {
    let root = scratch("killed");
    let dir = root.join("w");
    let d = dir.to_str().unwrap();
    let out = othello(&[
        "solve", "--rows", "6", "--cols", "6", "--split", "1", "--work", d,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bin = assert_cmd::cargo::cargo_bin("othello");
    let mut child = std::process::Command::new(&bin)
        .args(["solve", "--work", d, "--job", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    // A job of 31 empty cells on 6x6 takes minutes: it is still running.
    assert!(child.try_wait().unwrap().is_none());
    child.kill().unwrap();
    child.wait().unwrap();
    let results = dir.join("round-1");
    let left: Vec<_> = std::fs::read_dir(&results).unwrap().collect();
    assert!(
        left.is_empty(),
        "a killed job leaves nothing in {results:?}"
    );
    let stopped = othello(&["solve", "--work", d, "--job", "0", "--limit", "50ms"]);
    assert_eq!(stopped.status.code(), Some(3), "{}", text(&stopped.stderr));
}

#[test]
fn a_damaged_or_foreign_result_is_refused() {
    let root = scratch("foreign");
    let dir = root.join("w");
    let d = dir.to_str().unwrap();
    let out = othello(&[
        "solve", "--rows", "4", "--cols", "5", "--split", "6", "--work", d,
    ]);
    assert!(out.status.success());
    for i in 0..2 {
        let out = othello(&["solve", "--work", d, "--job", &i.to_string()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let results = dir.join("round-1");
    let job0 = results.join("job-0.result");
    let job1 = std::fs::read(results.join("job-1.result")).unwrap();
    std::fs::write(&job0, &job1).unwrap();
    let merge = othello(&["solve", "--work", d, "--merge"]);
    assert_eq!(merge.status.code(), Some(1));
    let err = text(&merge.stderr);
    assert!(
        err.contains("job-0.result: the result of round 1 job 1, not of round 1 job 0"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::write(&job0, b"format: othello-solve-result 1\nscore: lots\n").unwrap();
    let merge = othello(&["solve", "--work", d, "--merge"]);
    assert_eq!(merge.status.code(), Some(1));
    assert!(
        text(&merge.stderr).contains("damaged or foreign"),
        "{}",
        text(&merge.stderr)
    );
    std::fs::write(&job0, b"\x00\x01 not text").unwrap();
    let merge = othello(&["solve", "--work", d, "--merge"]);
    assert_eq!(merge.status.code(), Some(1));

    // Job 0's own result, edited: each edit is refused in one line naming the file, the job
    // and what is wrong; with its check line left as it was, any edit is.
    // Every job solved, so that the merge reads every result.
    std::fs::remove_file(&job0).unwrap();
    solve_by_rounds(d);
    let own = std::fs::read_to_string(&job0).unwrap();
    let field = |key: &str| {
        own.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}: ")))
            .unwrap()
            .to_string()
    };
    let score: i32 = field("score").parse().unwrap();
    let window = field("window");
    let edits: Vec<(String, bool, String)> = vec![
        (
            format!("score: {}", score - 2),
            false,
            "its contents do not match its check line".into(),
        ),
        (
            "program: othello 0.0.1".into(),
            true,
            "a result of othello 0.0.1, not of this program".into(),
        ),
        (
            "window: 999 1000".into(),
            true,
            format!(
                "a result of the window 999 1000, where round 1 job 0 asks for the window {window}"
            ),
        ),
        (
            "seconds: 2e19".into(),
            true,
            "seconds: 20000000000000000000 is not a number of seconds".into(),
        ),
        (
            "score: 99".into(),
            true,
            "a score of 99, beyond the 20 cells of the board".into(),
        ),
    ];
    for (edit, sealed, said) in edits {
        let key = edit.split(':').next().unwrap();
        let mut edited: String = own
            .lines()
            .filter(|l| !l.starts_with("check: "))
            .map(|l| {
                if l.starts_with(&format!("{key}: ")) {
                    format!("{edit}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        if sealed {
            let sum = othello::search::weights::fnv1a(edited.as_bytes());
            edited += &format!("check: {sum:016x}\n");
        } else {
            edited += own.lines().find(|l| l.starts_with("check: ")).unwrap();
            edited += "\n";
        }
        std::fs::write(&job0, &edited).unwrap();
        let merge = othello(&["solve", "--work", d, "--merge"]);
        assert_eq!(merge.status.code(), Some(1), "{edit}: {merge:?}");
        let err = text(&merge.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("job-0.result") && err.contains(&said),
            "{edit}: {err}"
        );
    }
    std::fs::write(&job0, &own).unwrap();
}

/// A merge whose stderr is closed still ends with its status: the summary line is lost, the
/// report is out.
#[test]
fn a_merge_with_stderr_closed_ends_as_usual() {
    let dir = split_folder("closed", &["--rows", "4", "--cols", "4", "--split", "4"]);
    let d = dir.to_str().unwrap();
    let run = solve_by_rounds(d);
    let mut merge = std::process::Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["solve", "--work", d, "--merge"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(merge.stderr.take());
    let out = merge.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(report(&out), report(&run));
}

#[test]
fn a_work_folder_holds_one_solve() {
    let root = scratch("one");
    let dir = root.join("w");
    let d = dir.to_str().unwrap();
    let out = othello(&[
        "solve", "--rows", "4", "--cols", "5", "--split", "6", "--work", d,
    ]);
    assert!(out.status.success());
    // The same split again says what is there; another is refused.
    let same = othello(&[
        "solve", "--rows", "4", "--cols", "5", "--split", "6", "--work", d,
    ]);
    assert!(same.status.success(), "{}", text(&same.stderr));
    let other = othello(&[
        "solve", "--rows", "4", "--cols", "6", "--split", "6", "--work", d,
    ]);
    assert_eq!(other.status.code(), Some(1));
    assert!(text(&other.stderr).contains("holds another solve"));
    // A folder with other files is not taken over.
    let busy = root.join("busy");
    std::fs::create_dir_all(&busy).unwrap();
    std::fs::write(busy.join("notes.txt"), b"mine").unwrap();
    let out = othello(&["solve", "--split", "6", "--work", busy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(busy.join("notes.txt")).unwrap(), b"mine");
    // A folder that is no work folder.
    let none = othello(&["solve", "--work", busy.to_str().unwrap(), "--merge"]);
    assert_eq!(none.status.code(), Some(1));
    assert!(text(&none.stderr).contains("not a work folder"));
    // --work alone with no index anywhere is a bad command line.
    let out = Command::cargo_bin("othello")
        .unwrap()
        .args(["solve", "--work", d])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The number of CPU seconds on `out`'s projection line.
fn projected_seconds(out: &Output) -> f64 {
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("projection: every round takes"))
        .unwrap_or_else(|| panic!("no projection in:\n{stdout}"));
    line.split_whitespace()
        .find_map(|w| w.parse::<f64>().ok())
        .unwrap()
}

#[test]
fn an_estimate_projects_every_round_and_keeps_its_round_one_jobs() {
    let root = scratch("estimate");
    let dir = root.join("w");
    let d = dir.to_str().unwrap();
    let board = ["--rows", "4", "--cols", "6"];
    let out = othello(&with_work(
        &[],
        &board,
        &["--split", "12", "--work", d, "--estimate", "--sample", "5"],
    ));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("estimate: simulated with 10-move estimates"));
    assert!(projected_seconds(&out) >= 0.0);
    // And the span and wall times a coordinator would see, as --span prints them: the work
    // shared by more workers, never below the span.
    assert!(stdout.contains("projection: span "), "{stdout}");
    let predicted: Vec<(u32, f64, f64)> = stdout
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            match w[..] {
                [p, a, b] => Some((p.parse().ok()?, a.parse().ok()?, b.parse().ok()?)),
                _ => None,
            }
        })
        .collect();
    let workers: Vec<u32> = predicted.iter().map(|p| p.0).collect();
    assert_eq!(workers, [16, 64, 256, 1024], "{stdout}");
    for pair in predicted.windows(2) {
        assert!(pair[1].2 <= pair[0].2 && pair[1].1 <= pair[0].1, "{stdout}");
    }
    // Job 0 of round 1, the first line's exact leaf, is always in the sample, and kept.
    assert!(dir.join("round-1").join("job-0.result").exists());
    let local = othello(&["solve", "--work", d, "--run-local", "--workers", "2"]);
    assert!(local.status.success(), "{}", text(&local.stderr));
    assert_eq!(report(&local), direct(&[], &board));
}

#[test]
fn an_estimate_projects_the_jobs_its_limit_stops_from_their_growth() {
    let root = scratch("grown");
    let dir = root.join("w");
    let d = dir.to_str().unwrap();
    // 4x6 split into 2 jobs of some 19 empty cells: a millisecond stops each one, so each
    // sampled job is projected from solves along a line of play from it.
    let out = othello(&[
        "solve",
        "--rows",
        "4",
        "--cols",
        "6",
        "--split",
        "2",
        "--work",
        d,
        "--estimate",
        "--sample",
        "2",
        "--limit",
        "1ms",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("projected from the growth of their solve time"),
        "{stdout}"
    );
    assert!(projected_seconds(&out) >= 0.0);
}

/// A split, thousands of estimates long on 8x8, stops soon after the one SIGTERM a batch
/// scheduler sends: the signal's status, one line, and no folder left half written.
#[cfg(unix)]
#[test]
fn a_split_stops_at_a_signal() {
    let root = scratch("split-signal");
    let dir = root.join("w");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["solve", "--split", "3000", "--work"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The handlers are set as the command starts, well within this.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let sent = std::time::Instant::now();
    // SAFETY: kill has no memory effects; the pid is our live child's.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let out = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < std::time::Duration::from_secs(10),
        "stopped after {:?}",
        sent.elapsed()
    );
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    let err = text(&out.stderr);
    assert_eq!(
        err,
        "othello: the split stopped by SIGTERM before it wrote its folder; nothing is kept\n"
    );
    assert!(!dir.join("work.txt").exists());
}

/// A local run killed mid-way goes on from the folder's record when started again, and ends
/// with the direct solve's report; what it recorded before the kill stays.
#[test]
fn a_local_run_killed_mid_way_goes_on_from_its_record() {
    let solve = ["--rows", "5", "--cols", "5"];
    let dir = split_folder(
        "killed-run",
        &["--rows", "5", "--cols", "5", "--split", "40"],
    );
    let d = dir.to_str().unwrap();
    let record = dir.join("solve.log");
    let jobs = || {
        std::fs::read_to_string(&record)
            .map_or(0, |t| t.lines().filter(|l| l.starts_with("job ")).count())
    };
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["solve", "--work", d, "--run-local", "--workers", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once some jobs have ended; a run that ends first proves less, but still holds.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while jobs() < 20 && child.try_wait().unwrap().is_none() {
        assert!(std::time::Instant::now() < deadline, "no job ended");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let _ = child.kill();
    child.wait().unwrap();
    let before = std::fs::read_to_string(&record).unwrap();
    let again = othello(&["solve", "--work", d, "--run-local", "--workers", "2"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(report(&again), direct(&[], &solve));
    let after = std::fs::read_to_string(&record).unwrap();
    let kept = before
        .lines()
        .filter(|l| l.ends_with(|c: char| c.is_ascii_hexdigit()));
    for line in kept.filter(|l| l.starts_with("job ")) {
        assert!(after.contains(line), "{line} is lost");
    }
    // Settled, the folder gives the same report again at once, and so does a merge, which
    // learns the record as a run does (round 1's jobs have no result files).
    let settled = othello(&["solve", "--work", d, "--run-local", "--workers", "1"]);
    assert_eq!(report(&settled), report(&again));
    let merged = othello(&["solve", "--work", d, "--merge"]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(report(&merged), report(&again));
}

/// A local run of the folder `d` with `workers` threads on `cores` cores, splitting a held-up
/// job after a millisecond.
fn splitting_soon<'a>(d: &'a str, workers: &'a str, cores: &'a str) -> [&'a str; 10] {
    [
        "solve",
        "--work",
        d,
        "--run-local",
        "--workers",
        workers,
        "--cores",
        cores,
        "--split-after",
        "1ms",
    ]
}

/// Runs `args` on the folder `dir`, checks that it gives the direct solve of `solve`, and
/// returns its output and the record it leaves.
fn run_against_direct(args: &[&str], solve: &[&str], dir: &Path) -> (Output, String) {
    let run = othello(args);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(report(&run), direct(&[], solve));
    let record = std::fs::read_to_string(dir.join("solve.log")).unwrap();
    (run, record)
}

/// Jobs split as soon as workers are idle (`--split-after 1ms`): the record keeps the splits,
/// the report is the direct solve's, and a run started again learns them.
#[test]
fn jobs_split_among_idle_workers_give_the_direct_solve() {
    let solve = ["--rows", "5", "--cols", "5"];
    let dir = split_folder(
        "split-jobs",
        &["--rows", "5", "--cols", "5", "--split", "4"],
    );
    let d = dir.to_str().unwrap();
    let args = splitting_soon(d, "3", "3");
    let (run, record) = run_against_direct(&args, &solve, &dir);
    let splits = record.lines().filter(|l| l.starts_with("split ")).count();
    assert!(splits > 0, "no job was split:\n{record}");
    let again = othello(&args);
    assert_eq!(report(&again), report(&run));
    let merged = othello(&["solve", "--work", d, "--merge"]);
    assert_eq!(report(&merged), report(&run), "{}", text(&merged.stderr));
}

/// A machine runs at most a job a core: three workers on `--cores 1` never run two jobs at
/// once (the record's times do not overlap) and split nothing, however soon they may
/// (`--split-after 1ms`); the report is the direct solve's.
#[test]
fn workers_beyond_the_cores_wait() {
    let solve = ["--rows", "4", "--cols", "6"];
    let dir = split_folder("one-core", &["--rows", "4", "--cols", "6", "--split", "12"]);
    let (_, record) = run_against_direct(
        &splitting_soon(dir.to_str().unwrap(), "3", "1"),
        &solve,
        &dir,
    );
    // job ID WORKER AFTER START-MS END-MS ...
    let mut spans: Vec<(u64, u64)> = record
        .lines()
        .filter(|l| l.starts_with("job "))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[4].parse().unwrap(), f[5].parse().unwrap())
        })
        .collect();
    assert!(spans.len() > 3, "{record}");
    // Nor is a held-up job split while no core is free.
    assert!(!record.lines().any(|l| l.starts_with("split ")), "{record}");
    spans.sort();
    for pair in spans.windows(2) {
        assert!(
            pair[1].0 >= pair[0].1,
            "two jobs at once: {pair:?}\n{record}"
        );
    }
}

/// A line's job counts its own nodes, not also those of the job its worker ran before: on
/// SIMPLE 3x7 the last test is of the position the line starts from, and the line then
/// finds that test's proof in the table (the record once gave the line the test's nodes
/// and its own). Should the tree come to end otherwise, the test says so (no such pair).
#[test]
fn a_line_counts_only_its_own_nodes() {
    let global = ["--rules", "simple"];
    let solve = ["--rows", "3", "--cols", "7"];
    let dir = scratch("line-nodes").join("w");
    let d = dir.to_str().unwrap();
    let split = with_work(&global, &solve, &["--split", "10", "--work", d]);
    assert!(othello(&split).status.success());
    let run = othello(&["solve", "--work", d, "--run-local", "--workers", "1"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(report(&run), direct(&global, &solve));
    let record = std::fs::read_to_string(dir.join("solve.log")).unwrap();
    // job ID WORKER AFTER START-MS END-MS NODES TASK ... (POSITION) ~CHECK
    let jobs: Vec<(u64, &str, &str)> = record
        .lines()
        .filter(|l| l.starts_with("job "))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let position = &l[l.find('(').unwrap()..l.rfind(" ~").unwrap()];
            (f[6].parse().unwrap(), f[7], position)
        })
        .collect();
    let after_its_test: Vec<_> = jobs
        .windows(2)
        .filter(|p| p[1].1 == "line" && p[0].2 == p[1].2)
        .collect();
    assert!(!after_its_test.is_empty(), "{record}");
    for pair in after_its_test {
        assert!(pair[1].0 < pair[0].0, "{pair:?}\n{record}");
    }
}

/// Without the cargo feature `mpi`, `--mpi` says how to get it (tests/mpi.rs runs it).
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_needs_a_build_with_the_feature() {
    let dir = split_folder("no-mpi", &["--rows", "4", "--cols", "4", "--split", "4"]);
    let out = othello(&["solve", "--work", dir.to_str().unwrap(), "--mpi"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("built without MPI") && err.contains("--features mpi"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `--span` reads a local run's record: every job that ended, a span no longer than the work
/// (one worker) and the predictions for 16 to 1024 workers.
#[test]
fn the_span_of_a_local_run_is_read_from_its_record() {
    let dir = split_folder("span", &["--rows", "4", "--cols", "5", "--split", "8"]);
    let d = dir.to_str().unwrap();
    let none = othello(&["solve", "--work", d, "--span"]);
    assert_eq!(none.status.code(), Some(1));
    assert!(
        text(&none.stderr).contains("no record of a run"),
        "{}",
        text(&none.stderr)
    );
    let run = othello(&["solve", "--work", d, "--run-local", "--workers", "1"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = othello(&["solve", "--work", d, "--span"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    let record = std::fs::read_to_string(dir.join("solve.log")).unwrap();
    let jobs = record.lines().filter(|l| l.starts_with("job ")).count();
    assert!(said.starts_with(&format!("jobs: {jobs} (")), "{said}");
    let seconds = |key: &str| -> f64 {
        let line = said.lines().find(|l| l.starts_with(key)).unwrap();
        line[key.len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(seconds("span: ") <= seconds("work: ") + 0.001, "{said}");
    assert!(said.contains("\n1024 "), "{said}");
}
