//! Golden cases kept as files: finding them, and running the `NAME.args` kind.

// Each test crate that includes this module uses a different part of it.
#![allow(dead_code)]

use assert_cmd::Command;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The files of `tests/FOLDER` whose extension is `ext`, sorted: one per golden case. Panics
/// (failing the test) when the folder cannot be read or holds fewer than `at_least` cases.
pub fn cases(folder: &str, ext: &str, at_least: usize) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(folder);
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .collect();
    cases.sort();
    assert!(
        cases.len() >= at_least,
        "only {} *.{ext} cases in {}",
        cases.len(),
        dir.display()
    );
    cases
}

pub fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn optional(path: &Path) -> Option<String> {
    path.exists().then(|| read(path))
}

/// Runs one `NAME.args` case: `othello SUBCOMMAND` with the arguments of `NAME.args` (one a
/// line), `NAME.in` on stdin where there is one, in `dir` where given. Stdout must equal
/// `NAME.out`, stderr `NAME.err` (empty when missing), and the status `NAME.status` (0 when
/// missing). Returns what differs.
pub fn check_args_case(
    subcommand: &str,
    args_file: &Path,
    dir: Option<&Path>,
    timeout: Duration,
) -> Vec<String> {
    let args: Vec<String> = read(args_file).lines().map(String::from).collect();
    let mut command = Command::cargo_bin("othello").unwrap();
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    if let Some(input) = optional(&args_file.with_extension("in")) {
        command.write_stdin(input);
    }
    let output = command
        .arg(subcommand)
        .args(&args)
        .timeout(timeout)
        .output()
        .unwrap();
    let expected_out = read(&args_file.with_extension("out"));
    let expected_err = optional(&args_file.with_extension("err")).unwrap_or_default();
    let expected_status: i32 = optional(&args_file.with_extension("status")).map_or(0, |s| {
        s.trim().parse().expect("a status file holds a number")
    });
    let mut problems = Vec::new();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stdout != expected_out {
        problems.push(format!("stdout:\n{stdout}\nexpected:\n{expected_out}"));
    }
    if stderr != expected_err {
        problems.push(format!("stderr: {stderr:?}, expected {expected_err:?}"));
    }
    if output.status.code() != Some(expected_status) {
        problems.push(format!(
            "status {:?}, expected {expected_status}",
            output.status.code()
        ));
    }
    problems
}

/// Runs `check` on every case and fails with all that differ.
pub fn check_all(cases: &[PathBuf], check: impl Fn(&Path) -> Vec<String>) {
    let mut failures = Vec::new();
    for case in cases {
        for problem in check(case) {
            failures.push(format!("{}: {problem}", case.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
