//! The program as a player in the line protocol (`--computer`), as a process: whole games under a
//! time limit, and the search options it refuses.

use assert_cmd::Command;
use std::process::Output;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(60);

fn othello(args: &[&str], stdin: &str) -> Output {
    Command::cargo_bin("othello")
        .unwrap()
        .args(args)
        .write_stdin(stdin)
        .timeout(TIMEOUT)
        .output()
        .unwrap()
}

/// A line the program prints for its own move: `row col`.
fn is_move_line(line: &str) -> bool {
    let parts: Vec<&str> = line.split(' ').collect();
    parts.len() == 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The program plays both sides of a game on `rows` x `cols` with 30 ms a move. The game must
/// end with a WINNER line, and typing the program's moves into the referee (no `--computer`)
/// must give the same output less those move lines: every move was legal.
fn plays_a_whole_game(rows: usize, cols: usize) {
    let header = format!("{rows}\n{cols}\nB\nW\n>\n");
    let clock = Instant::now();
    let output = othello(&["--computer", "both", "--move-time", "30ms"], &header);
    let took = clock.elapsed();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("WINNER: "),
        "{rows}x{cols} ended with {last:?}"
    );

    let lines: Vec<&str> = stdout.lines().collect();
    let moves: Vec<&str> = lines.iter().copied().filter(|l| is_move_line(l)).collect();
    assert!(moves.len() >= 4, "{moves:?}");
    assert!(moves.len() <= rows * cols - 4);
    for (i, line) in lines.iter().enumerate() {
        if is_move_line(line) {
            assert_eq!(lines.get(i + 1), Some(&"VALID"), "after {line:?}");
        }
    }
    assert!(!stdout.contains("INVALID"));
    // Each move within its 30 ms (with room for a slow, busy machine), not seconds.
    let budget = Duration::from_millis(100) * moves.len() as u32 + Duration::from_secs(2);
    assert!(took < budget, "{} moves in {took:?}", moves.len());

    let replay = header + &moves.join("\n") + "\n";
    let refereed = othello(&[], &replay);
    let without_moves: String = lines
        .iter()
        .filter(|l| !is_move_line(l))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(String::from_utf8(refereed.stdout).unwrap(), without_moves);
    assert_eq!(refereed.status.code(), Some(0));
}

#[test]
fn the_program_plays_a_whole_8x8_game_against_itself() {
    plays_a_whole_game(8, 8);
}

#[test]
fn the_program_plays_a_whole_10x10_game_against_itself() {
    plays_a_whole_game(10, 10);
}

/// Search options the program refuses, and the option at fault.
const REFUSED: [(&[&str], &str); 5] = [
    (&["--computer", "X"], "--computer"),
    (&["--computer", "W", "--move-time", "0ms"], "--move-time"),
    (&["--computer", "both", "--move-time", "0ms"], "--move-time"),
    (&["--computer", "W", "--depth", "0"], "--depth"),
    (
        &["--computer", "B", "--depth", "0", "--move-time", "30ms"],
        "--depth",
    ),
];

#[test]
fn bad_search_options_are_refused_with_status_2() {
    for (args, option) in REFUSED {
        let output = othello(args, "4\n4\nB\nW\n>\n");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: the protocol started");
        assert!(stderr.contains(option), "{args:?}: {stderr}");
    }
}

#[test]
fn bad_search_options_are_named_as_clap_names_them() {
    for (args, _) in REFUSED {
        let output = othello(args, "4\n4\nB\nW\n>\n");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with("error: "), "{args:?}:\n{stderr}");
        assert!(stderr.contains("try '--help'"), "{args:?}:\n{stderr}");
        assert!(stderr.ends_with('\n'), "{args:?}: {stderr:?}");
    }
}

#[test]
fn good_search_options_are_accepted() {
    for args in [
        &["--computer", "W", "--depth", "1"][..],
        &["--computer", "w", "--move-time", "5ms"],
        &[
            "--computer",
            "B",
            "--depth",
            "2",
            "--hash-mb",
            "1",
            "--seed",
            "7",
        ],
        &["--computer", "both", "--move-time", "1ms"],
    ] {
        let output = othello(args, "4\n4\nB\nW\n>\n");
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(stdout.starts_with("FULL\n"), "{args:?}: {stdout}");
    }
}
