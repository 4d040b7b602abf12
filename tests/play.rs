//! Golden transcripts of `othello play` with its input piped (no prompt, no colour): for every
//! `tests/play/NAME.args` (the arguments after `play`, one a line) the binary reads `NAME.in`
//! and its output must equal `NAME.out` exactly, with nothing on stderr and exit status 0 (the
//! same runner as `tests/show.rs`: `tests/golden`).
//! Each case runs in a scratch directory holding copies of `tests/play/*.game`, so `save` and
//! `load` name files there. `tests/play/README.md` says what each case shows.

mod golden;

use assert_cmd::Command;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// Runs one case in a scratch directory holding copies of the `*.game` files; returns what
/// differs.
fn check(args_file: &Path) -> Vec<String> {
    let name = args_file.file_stem().unwrap().to_string_lossy();
    let scratch = std::env::temp_dir().join(format!("othello-play-{name}-{}", std::process::id()));
    fs::create_dir_all(&scratch).unwrap();
    for entry in fs::read_dir(args_file.parent().unwrap()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "game") {
            fs::copy(&path, scratch.join(path.file_name().unwrap())).unwrap();
        }
    }
    let problems =
        golden::check_args_case("play", args_file, Some(&scratch), Duration::from_secs(60));
    fs::remove_dir_all(&scratch).unwrap();
    problems
}

#[test]
fn play_transcripts() {
    golden::check_all(&golden::cases("play", "args", 8), check);
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
