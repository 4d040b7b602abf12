//! `othello engine` (the tournament protocol's triples): the transcripts in
//! tests/sessions/engine_*.txt replayed against the real program line by line (`<` is sent, `>`
//! must come back in that order, and nothing more), and the one-line errors for input it cannot trust.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn othello() -> &'static str {
    env!("CARGO_BIN_EXE_othello")
}

fn replay(name: &str) {
    let path = format!("{}/tests/sessions/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let args = lines
        .next()
        .and_then(|l| l.strip_prefix("# othello engine "))
        .expect("the first line names the arguments");
    let mut child = Command::new(othello())
        .arg("engine")
        .args(args.split_whitespace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut expected_exit = None;
    for (i, line) in lines.enumerate() {
        let at = format!("{name} line {}", i + 2);
        if let Some(sent) = line.strip_prefix("< ") {
            writeln!(stdin, "{sent}").unwrap();
            stdin.flush().unwrap();
        } else if let Some(wanted) = line.strip_prefix("> ") {
            let got = rx
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|e| panic!("{at}: no line from the engine ({e})"));
            assert_eq!(got, wanted, "{at}");
        } else if let Some(code) = line.strip_prefix("# exit ") {
            expected_exit = Some(code.parse::<i32>().unwrap());
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(
        rx.try_iter().collect::<Vec<_>>(),
        Vec::<String>::new(),
        "{name}: extra output"
    );
    assert_eq!(status.code(), expected_exit, "{name}");
}

#[test]
fn engine_plays_white_on_8x8() {
    replay("engine_8x8_white.txt");
}

#[test]
fn engine_plays_black_on_8x8() {
    replay("engine_8x8_black.txt");
}

#[test]
fn engine_passes_on_4x4() {
    replay("engine_4x4_passes.txt");
}

#[test]
fn engine_plays_misere_on_6x6() {
    replay("engine_6x6_misere.txt");
}

#[test]
fn engine_starts_after_an_opening() {
    replay("engine_8x8_opening.txt");
}

/// Runs the engine on `input`; its exit code, stdout and stderr.
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(othello())
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn untrusted_input_is_named_and_ends_the_engine() {
    let cases = [
        ("(W D 3\n", "is not a move"),
        ("(B E 7)\n", "traps no line of opponent discs"),
        ("(B D 5)\n", "not empty"),
        ("(B P 1)\n", "a pass while B has legal moves"),
        ("(W C 3)\n", "the opponent plays B"),
        ("(B Q 3)\n", "off the board"),
        ("hello\n", "is not a move"),
    ];
    for (input, message) in cases {
        let (code, stdout, stderr) = run(&["--color", "W", "--depth", "1"], input);
        assert_eq!(code, Some(1), "{input:?}: {stderr}");
        // The engine's own first move came out before the bad line arrived.
        assert_eq!(stdout.lines().count(), 1, "{input:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{input:?}: {stderr}");
        assert!(stderr.contains(message), "{input:?}: {stderr}");
        assert!(stderr.contains("line 1"), "{input:?}: {stderr}");
    }
}

#[test]
fn input_that_ends_early_is_not_an_error() {
    let (code, stdout, stderr) = run(&["--color", "B", "--depth", "1"], "(W D 3)\n");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.lines().count(), 1);
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["--color", "X"][..],
        &["--color", "W", "--opening", "z9z9"],
        &["--color", "W", "--opening", "a1"],
    ] {
        let (code, _, stderr) = run(args, "");
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        // One line of ours, or clap's error with the pointer to --help.
        let ours = stderr.starts_with("othello: ") && stderr.lines().count() == 1;
        assert!(
            ours || stderr.contains("try '--help'"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn engine_writes_its_own_passes() {
    replay("engine_8x8_own_pass.txt");
}
