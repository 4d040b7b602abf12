//! Golden transcripts of `othello play` with its input piped (no prompt, no colour): for every
//! `tests/play/NAME.args` (the arguments after `play`, one a line) the binary reads `NAME.in`
//! and its output must equal `NAME.out` exactly, with nothing on stderr and exit status 0.
//! Each case runs in a scratch directory holding copies of `tests/play/*.game`, so `save` and
//! `load` name files there. `tests/play/README.md` says what each case shows.

use assert_cmd::Command;
use std::fs;
use std::path::Path;
use std::time::Duration;

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs one case; returns what differs.
fn check(args_file: &Path) -> Vec<String> {
    let args: Vec<String> = read(args_file).lines().map(String::from).collect();
    let name = args_file.file_stem().unwrap().to_string_lossy();
    let scratch = std::env::temp_dir().join(format!("othello-play-{name}-{}", std::process::id()));
    fs::create_dir_all(&scratch).unwrap();
    for entry in fs::read_dir(args_file.parent().unwrap()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "game") {
            fs::copy(&path, scratch.join(path.file_name().unwrap())).unwrap();
        }
    }
    let output = Command::cargo_bin("othello")
        .unwrap()
        .current_dir(&scratch)
        .arg("play")
        .args(&args)
        .write_stdin(read(&args_file.with_extension("in")))
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    fs::remove_dir_all(&scratch).unwrap();
    let expected = read(&args_file.with_extension("out"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut problems = Vec::new();
    if stdout != expected {
        problems.push(format!("stdout:\n{stdout}\nexpected:\n{expected}"));
    }
    if !output.stderr.is_empty() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        problems.push(format!("stderr: {stderr:?}"));
    }
    if !output.status.success() {
        problems.push(format!("status {:?}", output.status.code()));
    }
    problems
}

#[test]
fn play_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "args"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        for problem in check(case) {
            failures.push(format!("{}: {problem}", case.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_bad_start_is_a_usage_error() {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["play", "--moves", "a1"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr,
        "othello: move 1 (a1): a1 flanks no line of opponent discs\n"
    );
}
