//! `othello play` in a real pseudo-terminal (through `expectrl`, no outside program): colour on,
//! line editing, moves typed, `undo`, `hint`, the computer's thinking summed up, Ctrl-C
//! leaving with the moves printed and status 130, both at the prompt and while the computer
//! thinks, and Ctrl-C during a hint stopping only the hint.
#![cfg(unix)]

use expectrl::process::unix::WaitStatus;
use expectrl::{ControlCode, Eof, Expect, Regex, Session};
use std::process::Command;
use std::time::Duration;

/// `othello play` with `args`, on a fresh terminal that takes colour. Without the opening
/// book: these tests watch the search think, and the book would answer at once.
fn spawn(args: &[&str]) -> expectrl::session::OsSession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_othello"));
    command
        .arg("play")
        .arg("--no-book")
        .args(args)
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    let mut session = Session::spawn(command).expect("a pseudo-terminal");
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    session
}

/// Waits for the end; the exit status, as a program stopped by SIGINT gives it: 130.
fn ends_interrupted(session: &mut expectrl::session::OsSession) {
    session.expect(Eof).expect("the program ends");
    match session.get_process().wait().expect("the exit status") {
        WaitStatus::Exited(_, code) => assert_eq!(code, 130),
        other => panic!("ended by {other:?}"),
    }
}

/// What the screen got up to and including `needle`, as text.
fn until(session: &mut expectrl::session::OsSession, needle: &str) -> String {
    let found = session
        .expect(needle)
        .unwrap_or_else(|e| panic!("waiting for {needle:?}: {e}"));
    let mut text = String::from_utf8_lossy(found.before()).into_owned();
    text.push_str(needle);
    text
}

#[test]
fn a_person_plays_takes_back_and_asks_for_a_hint() {
    let mut p = spawn(&["--computer", "white", "--level", "3"]);
    let first = until(&mut p, "Black to move.");
    // Discs and legal moves in colour, the letters plain.
    assert!(
        first.contains("\x1b["),
        "no colour on a terminal: {first:?}"
    );
    assert!(first.contains("    a b c d e f g h"), "{first:?}");

    p.send_line("f5").unwrap();
    until(&mut p, "Black plays f5, flipping e5.");
    let reply = until(&mut p, "Black to move.");
    assert!(reply.contains("White (computer) plays "), "{reply:?}");
    // On a terminal the computer's thinking is summed up after its move.
    assert!(reply.contains("for White (depth 3)"), "{reply:?}");
    assert!(reply.contains("expects "), "{reply:?}");

    p.send_line("undo").unwrap();
    let undone = until(&mut p, "Black to move.");
    assert!(undone.contains("Took back f5 "), "{undone:?}");

    p.send_line("hint").unwrap();
    p.expect(Regex(
        "Hint: [a-h][1-8]( \\([^)]*\\))?, [+-][0-9.]+ discs for Black \\(depth 3; then [a-h1-8 .]+\\)\\.",
    ))
    .expect("a hint");

    // Ctrl-C at the prompt leaves, printing the game so far, with status 130.
    p.send(ControlCode::EndOfText).unwrap();
    until(&mut p, "Moves: (none)");
    ends_interrupted(&mut p);
}

#[test]
fn ctrl_c_during_a_hint_stops_the_hint_not_the_game() {
    let mut p = spawn(&["--computer", "none", "--move-time", "60s"]);
    until(&mut p, "Black to move.");
    p.send_line("hint").unwrap();
    until(&mut p, "Black thinks: depth ");
    p.send(ControlCode::EndOfText).unwrap();
    until(&mut p, "Hint stopped.");
    p.send_line("f5").unwrap();
    until(&mut p, "White to move.");
    p.send_line("quit").unwrap();
    until(&mut p, "Moves: f5");
    p.expect(Eof).expect("the program ends");
    match p.get_process().wait().expect("the exit status") {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0),
        other => panic!("ended by {other:?}"),
    }
}

#[test]
fn ctrl_c_while_the_computer_thinks_keeps_the_game() {
    let mut p = spawn(&["--computer", "white", "--move-time", "60s"]);
    until(&mut p, "Black to move.");
    p.send_line("d3").unwrap();
    // The live line shows the search going deeper.
    until(&mut p, "White thinks: depth ");
    p.send(ControlCode::EndOfText).unwrap();
    let end = until(&mut p, "Moves: d3");
    assert!(end.contains("Interrupted."), "{end:?}");
    ends_interrupted(&mut p);
}

/// A Ctrl-C that comes as a signal while no line is being read (the terminal turns it into
/// SIGINT outside line editing, as between a reply and the next prompt) ends play at the
/// next read, with the moves printed: it is not swallowed because an earlier search had caught
/// SIGINT. Input piped, so the moment is exact: the signal comes after the computer's reply.
#[test]
fn a_ctrl_c_between_prompts_ends_play_with_the_moves() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::Stdio;
    use std::sync::mpsc;

    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["play", "--computer", "white", "--level", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("othello runs");
    let mut stdin = child.stdin.take().unwrap();
    let (sender, lines) = mpsc::channel();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        let mut line = String::new();
        while stdout.read_line(&mut line).is_ok_and(|n| n > 0) {
            let _ = sender.send(std::mem::take(&mut line));
        }
        let mut rest = String::new();
        let _ = stdout.read_to_string(&mut rest);
    });
    let wait_for = |needle: &str| loop {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("waiting for {needle:?}: {e}"));
        if line.contains(needle) {
            return line;
        }
    };
    writeln!(stdin, "f5").unwrap();
    wait_for("White (computer) plays ");
    wait_for("Black to move.");
    // SAFETY: kill has no memory effects; the pid is our live child's.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    // One more line, which wakes play waiting for input: it ends (answering the
    // line or not, as the signal comes before or after its check) without waiting for the end
    // of input.
    writeln!(stdin, "help").unwrap();
    let end = wait_for("Moves: ");
    assert!(end.starts_with("Moves: f5"), "{end:?}");
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait());
    });
    let status = finished
        .recv_timeout(Duration::from_secs(60))
        .expect("play ends while its input is still open");
    assert_eq!(status.unwrap().code(), Some(130));
    drop(stdin);
}
