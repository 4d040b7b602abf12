//! Whole sessions of the engine protocols: every `tests/sessions/NAME.in` is fed to the binary
//! run with the arguments in `NAME.args` (`gtp --depth 3`, `nboard --depth 1`, ...), and standard
//! output must equal `NAME.out` and standard error `NAME.err` (empty when there is no such
//! file). Fixed depths make every move and evaluation repeat exactly; the only thing that varies
//! is how long a search took, so NBoard's times (the last field of `nodestats` and of `===`) are
//! written `T` on both sides before comparing.
//!
//! To see a session: `cargo run -- $(cat tests/sessions/NAME.args) < tests/sessions/NAME.in`.

mod golden;

use assert_cmd::Command;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// NBoard's search times, replaced by `T`.
fn without_times(text: &str) -> String {
    text.lines()
        .map(|line| {
            if let Some(rest) = line.strip_prefix("nodestats ") {
                let nodes = rest.split_whitespace().next().unwrap_or("");
                format!("nodestats {nodes} T")
            } else if line.starts_with("=== ") {
                match line.rsplit_once('/') {
                    Some((head, _)) if line.matches('/').count() == 2 => format!("{head}/T"),
                    _ => line.to_string(),
                }
            } else {
                line.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect()
}

fn check(input: &Path) -> Vec<String> {
    let name = input.file_stem().unwrap().to_string_lossy().into_owned();
    let read = |ext: &str| fs::read_to_string(input.with_extension(ext));
    let args = read("args").unwrap_or_else(|_| panic!("{name}.args is missing"));
    let stdin = read("in").unwrap();
    let expected_out = read("out").unwrap_or_else(|_| panic!("{name}.out is missing"));
    let expected_err = read("err").unwrap_or_default();
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(args.split_whitespace())
        .write_stdin(stdin)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    let mut problems = Vec::new();
    if !output.status.success() {
        problems.push(format!("{name}: exit status {:?}", output.status.code()));
    }
    for (what, expected, actual) in [
        ("stdout", expected_out.as_str(), out.as_ref()),
        ("stderr", expected_err.as_str(), err.as_ref()),
    ] {
        let (e, a) = (without_times(expected), without_times(actual));
        if e != a {
            let line = e
                .lines()
                .zip(a.lines())
                .position(|(x, y)| x != y)
                .unwrap_or_else(|| e.lines().count().min(a.lines().count()));
            problems.push(format!(
                "{name} {what} differs at line {}: expected {:?}, got {:?}",
                line + 1,
                e.lines().nth(line),
                a.lines().nth(line)
            ));
        }
    }
    problems
}

#[test]
fn sessions_replay_exactly() {
    let inputs = golden::cases("sessions", "in", 8);
    let problems: Vec<String> = inputs.iter().flat_map(|p| check(p)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn times_are_the_only_thing_masked() {
    assert_eq!(
        without_times("nodestats 12 0.31\n=== F5/-1.00/0.31\n=== PA\nsearch F5 0.00 0 4\n"),
        "nodestats 12 T\n=== F5/-1.00/T\n=== PA\nsearch F5 0.00 0 4\n"
    );
}
