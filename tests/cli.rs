//! Process-level behaviour that a golden transcript cannot show: pipes that close early, output
//! that must arrive before the next input is written, subcommands and flags.

use assert_cmd::Command;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

fn spawn(args: &[&str]) -> Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the othello binary starts")
}

/// Waits for the child to exit, killing it (and failing) after [`TIMEOUT`].
fn wait(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("othello did not exit within {TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// A complete 26x26 place-anywhere game: every empty cell in reading order. Its output is about a
/// megabyte, far more than a pipe holds.
fn long_game() -> String {
    let mut input = String::from("26\n26\nB\nW\n>\n");
    for row in 1..=26 {
        for col in 1..=26 {
            if !(13..=14).contains(&row) || !(13..=14).contains(&col) {
                input += &format!("{row} {col}\n");
            }
        }
    }
    input
}

#[test]
fn the_long_game_runs_to_the_end() {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .arg("--place-anywhere")
        .write_stdin(long_game())
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.len() > 500_000, "{} bytes", stdout.len());
    assert_eq!(stdout.matches("VALID\n").count(), 26 * 26 - 4);
    assert!(stdout.ends_with("WINNER: B\n") || stdout.ends_with("WINNER: W\n"));
    assert!(output.stderr.is_empty());
}

#[test]
fn a_closed_stdout_ends_the_game_quietly() {
    let mut child = spawn(&["--place-anywhere"]);
    let mut stdin = child.stdin.take().unwrap();
    // The input fits in a pipe, but write it from a thread anyway: the process may stop
    // reading at any moment, and then the write fails, which is fine.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(long_game().as_bytes());
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for expected in [
        "FULL\n",
        "B: 2  W: 2\n",
        ". . . . . . . . . . . . . . . . . . . . . . . . . .\n",
    ] {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, expected);
    }
    drop(stdout);
    let mut stderr = child.stderr.take().unwrap();
    let status = wait(&mut child);
    writer.join().unwrap();
    let mut errors = String::new();
    stderr.read_to_string(&mut errors).unwrap();
    assert!(!errors.contains("panicked"), "stderr: {errors}");
    assert!(errors.is_empty(), "stderr: {errors}");
    assert_eq!(status.code(), Some(0));
}

/// Reads stdout lines on a thread, so that the test can wait for them with a timeout.
fn line_channel(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        for line in stdout.lines() {
            if send.send(line.expect("stdout is text")).is_err() {
                break;
            }
        }
    });
    receive
}

/// The lines up to and including the first one that starts with `prefix`.
fn read_until(lines: &mpsc::Receiver<String>, prefix: &str) -> Vec<String> {
    let deadline = Instant::now() + TIMEOUT;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let done = line.starts_with(prefix);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(e) => panic!("no line starting with {prefix:?} ({e:?}); got {seen:?}"),
        }
    }
}

#[test]
fn output_is_flushed_before_each_read() {
    let mut child = spawn(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let lines = line_channel(&mut child);
    // stdin stays open throughout: the referee waits for input with everything printed.
    stdin.write_all(b"8\n8\nB\nW\n>\n").unwrap();
    stdin.flush().unwrap();
    let first = read_until(&lines, "TURN:");
    assert_eq!(first.first().map(String::as_str), Some("FULL"));
    assert_eq!(first.last().map(String::as_str), Some("TURN: B"));
    assert_eq!(first.len(), 1 + 1 + 8 + 1);

    stdin.write_all(b"1 1\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(read_until(&lines, "INVALID"), ["INVALID"]);

    stdin.write_all(b"3 4\n").unwrap();
    stdin.flush().unwrap();
    let second = read_until(&lines, "TURN:");
    assert_eq!(second[0], "VALID");
    assert_eq!(second[1], "B: 4  W: 1");
    assert_eq!(second.last().map(String::as_str), Some("TURN: W"));

    drop(stdin);
    assert_eq!(wait(&mut child).code(), Some(0));
}

#[test]
fn perft_counts_the_standard_tree() {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["perft", "--depth", "5"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.lines().any(|l| l.starts_with("5 1396 ")), "{stdout}");
    assert!(stdout.contains("5 1396"));
}

#[test]
fn colours_are_accepted_in_either_case() {
    for (first, top_left, heading) in [
        ("B", "W", "black first, white on the top-left"),
        ("w", "b", "white first, black on the top-left"),
    ] {
        let output = Command::cargo_bin("othello")
            .unwrap()
            .args([
                "perft",
                "--depth",
                "1",
                "--first",
                first,
                "--top-left",
                top_left,
            ])
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        assert!(output.status.success(), "{first} {top_left}");
        assert!(String::from_utf8(output.stdout).unwrap().contains(heading));
    }
}

#[test]
fn help_describes_the_protocol_and_the_options() {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    for word in ["Usage", "--rules", "--place-anywhere", "perft"] {
        assert!(stdout.contains(word), "no {word:?} in:\n{stdout}");
    }
}

#[test]
fn commands_with_rules_of_their_own_refuse_a_variant() {
    // An OBF file is an 8x8 FULL-rules position; bench's cases each carry their rules.
    for (args, option) in [
        (
            vec!["solve", "--file", "x.obf", "--rules", "simple"],
            "--rules",
        ),
        (
            vec!["solve", "--file", "x.obf", "--place-anywhere"],
            "--place-anywhere",
        ),
        (vec!["bench", "--rules", "simple"], "--rules"),
        (vec!["bench", "--place-anywhere"], "--place-anywhere"),
    ] {
        let output = Command::cargo_bin("othello")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(
            stderr.lines().next().unwrap().contains(option),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("\nUsage: othello "), "{args:?}: {stderr}");
    }
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    Command::cargo_bin("othello")
        .unwrap()
        .arg("--no-such-flag")
        .write_stdin("4\n4\nB\nB\n>\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("--no-such-flag"));
    // Clap's error as clap renders it: what went wrong, the usage, the pointer to --help.
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["perft", "--dpeth", "3"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("error: unexpected argument '--dpeth'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("tip: a similar argument exists: '--depth'"),
        "{stderr}"
    );
    assert!(stderr.contains("Usage: othello perft"), "{stderr}");
    assert!(
        stderr.contains("For more information, try '--help'."),
        "{stderr}"
    );
    Command::cargo_bin("othello")
        .unwrap()
        .args(["--rules", "fancy"])
        .assert()
        .code(2)
        .stdout("");
}

#[test]
fn the_example_game_scripts_play_to_the_end() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut scripts = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "txt") {
            continue;
        }
        scripts += 1;
        let output = Command::cargo_bin("othello")
            .unwrap()
            .pipe_stdin(&path)
            .unwrap()
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let name = path.display();
        assert!(output.status.success(), "{name}");
        assert!(output.stderr.is_empty(), "{name}: {:?}", output.stderr);
        assert!(
            stdout.lines().last().unwrap_or("").starts_with("WINNER: "),
            "{name}"
        );
    }
    assert!(scripts >= 3, "{scripts} game scripts in {}", dir.display());
}

#[test]
fn the_engine_refuses_a_huge_line_without_echoing_it() {
    let mut line = vec![b'x'; 8 << 20];
    line.push(b'\n');
    let mut input = b"(W D 3)\n".to_vec();
    input.extend_from_slice(&line);
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["engine", "--color", "B", "--depth", "1"])
        .write_stdin(input)
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 2: a line over 4096 bytes"),
        "{stderr}"
    );
    assert!(stderr.len() < 200, "{} bytes on stderr", stderr.len());
}

#[test]
fn solve_refuses_a_position_it_cannot_finish() {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["solve", "--rows", "26", "--cols", "26"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("672 empty cells"), "{stderr}");
    assert!(stderr.contains("--max-empties 40"), "{stderr}");
    assert!(output.stdout.is_empty());
    // A lower limit refuses smaller positions too; a higher one lets them through.
    Command::cargo_bin("othello")
        .unwrap()
        .args(["solve", "--rows", "4", "--cols", "4", "--max-empties", "11"])
        .timeout(TIMEOUT)
        .assert()
        .code(1);
    Command::cargo_bin("othello")
        .unwrap()
        .args(["solve", "--rows", "4", "--cols", "4", "--max-empties", "12"])
        .args(["--threads", "1"])
        .timeout(TIMEOUT)
        .assert()
        .success();
}

#[test]
fn a_long_solve_says_so_when_no_progress_is_shown() {
    // 28 empty cells: the solve starts with a notice on stderr (stopped here by the timeout).
    let mut child = spawn(&["solve", "--rows", "4", "--cols", "8", "--threads", "1"]);
    let mut stderr = child.stderr.take().unwrap();
    let mut first = [0u8; 60];
    stderr.read_exact(&mut first).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let text = String::from_utf8_lossy(&first);
    assert!(
        text.starts_with("othello solve: 28 empty cells to solve exactly"),
        "{text}"
    );
}

#[test]
fn a_solve_journal_is_kept_and_read_back() {
    let journal = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solve-journal.txt");
    let _ = std::fs::remove_file(&journal);
    let solve = |rules: &str| {
        Command::cargo_bin("othello")
            .unwrap()
            .args(["solve", "--rows", "4", "--cols", "4", "--threads", "1"])
            .args(["--rules", rules, "--journal"])
            .arg(&journal)
            .output()
            .unwrap()
    };
    let first = solve("simple");
    assert!(first.status.success(), "{first:?}");
    let stdout = String::from_utf8(first.stdout).unwrap();
    assert!(!stdout.contains("Earlier runs"), "{stdout}");
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "board 4x4 simple normal standard", "{text}");
    assert!(lines.last().unwrap().starts_with("run nodes="), "{text}");
    assert!(lines.last().unwrap().ends_with(" solved"), "{text}");
    // A line cut short by a killed run is dropped; the next run reads the first one's work.
    std::fs::write(&journal, format!("{text}(b ---- -wb")).unwrap();
    let second = solve("simple");
    assert!(second.status.success(), "{second:?}");
    let again = String::from_utf8(second.stdout).unwrap();
    assert!(again.contains("\nEarlier runs (journal): 1, "), "{again}");
    let same = |s: &str| s.lines().take(4).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(same(&again), same(&stdout));
    let text = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("run ")).count(), 2);
    assert!(
        !text.contains("-wb\n") && text.ends_with(" solved\n"),
        "{text}"
    );
    // Another variant's journal is refused before any work, and left as it was.
    let other = solve("full");
    assert_eq!(other.status.code(), Some(1), "{other:?}");
    assert!(other.stdout.is_empty());
    let stderr = String::from_utf8(other.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "is the journal of 4x4 simple normal standard, not of 4x4 full normal standard"
        ),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), text);
}

#[test]
fn a_solve_stops_at_its_limit_and_says_how_to_go_on() {
    // The 5x6 SIMPLE start takes minutes; a fifth of a second is far too little.
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["solve", "--rows", "5", "--cols", "6", "--rules", "simple"])
        .args(["--threads", "1", "--hash-mb", "16", "--limit", "200ms"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("# 5x6, simple rules"), "{stdout}");
    assert!(
        lines[1].starts_with("Not solved within 200ms: "),
        "{stdout}"
    );
    assert_eq!(
        lines[2],
        "Next: --journal FILE keeps the work for the next run"
    );
}

#[test]
fn a_long_journal_is_sealed_compressed_and_read_back() {
    // Past a megabyte of lines, the next run moves them into FILE.gz and empties FILE.
    let journal =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solve-journal-sealed.txt");
    let sealed = journal.with_extension("txt.gz");
    let _ = std::fs::remove_file(&sealed);
    for damaged in ["txt.damaged", "txt.gz.damaged"] {
        let _ = std::fs::remove_file(journal.with_extension(damaged));
    }
    let after_c1 = "(w --b--- --bb-- --bw-- ------ ------)";
    let padding = format!("# {}\n", "-".repeat(61)).repeat(17_000);
    std::fs::write(
        &journal,
        format!(
            "board 5x6 simple normal standard\n{after_c1} 10 10\n{padding}\
             run nodes=5 seconds=1 stopped\n"
        ),
    )
    .unwrap();
    let solve = || {
        Command::cargo_bin("othello")
            .unwrap()
            .args(["solve", "--rows", "5", "--cols", "6", "--rules", "simple"])
            .args(["--threads", "1", "--hash-mb", "16", "--limit", "1ms"])
            .arg("--journal")
            .arg(&journal)
            .output()
            .unwrap()
    };
    for runs in 1..=2 {
        let output = solve();
        assert!(output.status.success(), "{output:?}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(
            lines[2].starts_with(&format!("Earlier runs (journal): {runs}, ")),
            "{stdout}"
        );
        assert_eq!(lines[3], "Proved so far (journal): at least -10 (c1 -10)");
        // The plain file holds only what the runs after the sealing added.
        let plain = std::fs::read_to_string(&journal).unwrap();
        assert!(
            !plain.contains("board ") && !plain.contains(after_c1),
            "{plain}"
        );
        assert_eq!(
            plain.lines().filter(|l| l.starts_with("run ")).count(),
            runs
        );
    }
    assert!(std::fs::metadata(&sealed).unwrap().len() < 20_000);
    // A sealed part cut short is damage: said in one line naming it, the journal (both parts)
    // set aside whole, and the solve goes on with a new one.
    let bytes = std::fs::read(&sealed).unwrap();
    std::fs::write(&sealed, &bytes[..bytes.len() - 10]).unwrap();
    let plain = std::fs::read(&journal).unwrap();
    let output = solve();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("solve-journal-sealed.txt.gz"), "{stderr}");
    assert!(stderr.contains("set aside as"), "{stderr}");
    let aside = |name: &str| journal.with_file_name(name);
    assert_eq!(
        std::fs::read(aside("solve-journal-sealed.txt.gz.damaged")).unwrap(),
        &bytes[..bytes.len() - 10]
    );
    assert_eq!(
        std::fs::read(aside("solve-journal-sealed.txt.damaged")).unwrap(),
        plain
    );
    assert!(!sealed.exists());
    for name in [
        "solve-journal-sealed.txt.damaged",
        "solve-journal-sealed.txt.gz.damaged",
    ] {
        std::fs::remove_file(aside(name)).unwrap();
    }
}

#[test]
fn a_stopped_solve_says_what_its_journal_proves() {
    // The 5x6 SIMPLE start is worth -10 to Black, and c1 is one of its best moves: after it,
    // White to move, the discs are c1, c2, d2 and c3 for Black and d3 for White.
    let journal =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solve-journal-proved.txt");
    let after_c1 = "(w --b--- --bb-- --bw-- ------ ------)";
    std::fs::write(
        &journal,
        format!("board 5x6 simple normal standard\n{after_c1} 10 10\n"),
    )
    .unwrap();
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["solve", "--rows", "5", "--cols", "6", "--rules", "simple"])
        .args([
            "--threads",
            "1",
            "--hash-mb",
            "16",
            "--limit",
            "1ms",
            "--journal",
        ])
        .arg(&journal)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[1].starts_with("Not solved within 1ms: "), "{stdout}");
    assert_eq!(lines[2], "Proved so far (journal): at least -10 (c1 -10)");
    assert!(
        lines[3].starts_with("Next: run the same command again"),
        "{stdout}"
    );
}

/// A journal damaged within does not stop the solve for good: it is set aside whole, renamed,
/// said in one line, and the solve goes on with a new one.
#[test]
fn a_journal_that_contradicts_itself_is_set_aside() {
    let journal =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solve-journal-bad.txt");
    let aside = journal.with_file_name("solve-journal-bad.txt.damaged");
    let _ = std::fs::remove_file(&aside);
    let text = "board 4x4 full normal standard\n\
                (b ---- -wb- -bw- ----) -8 -8\n\
                (b ---- -wb- -bw- ----) 0 16\n";
    std::fs::write(&journal, text).unwrap();
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["solve", "--rows", "4", "--cols", "4", "--journal"])
        .arg(&journal)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(": line 3: 0 16 contradicts the bounds -8 -8 read before"),
        "{stderr}"
    );
    assert!(
        stderr.contains("set aside as ") && stderr.contains("solve-journal-bad.txt.damaged"),
        "{stderr}"
    );
    assert!(String::from_utf8(output.stdout).unwrap().contains("-8"));
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
    let fresh = std::fs::read_to_string(&journal).unwrap();
    assert!(
        fresh.starts_with("board 4x4 full normal standard\n"),
        "{fresh}"
    );
    assert!(fresh.ends_with(" solved\n"), "{fresh}");
}

/// `othello bench --positions PATH --depth DEPTH`.
fn bench_positions(path: &Path, depth: u32) -> std::process::Output {
    Command::cargo_bin("othello")
        .unwrap()
        .args(["bench", "--depth", &depth.to_string(), "--positions"])
        .arg(path)
        .timeout(TIMEOUT)
        .output()
        .unwrap()
}

#[test]
fn bench_searches_a_file_of_positions_and_repeats_its_node_counts() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bench/positions.txt");
    let run = || {
        let output = bench_positions(&path, 3);
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8(output.stdout).unwrap()
    };
    let first = run();
    let lines: Vec<Vec<&str>> = first.lines().map(|l| l.split(' ').collect()).collect();
    // The header, the three positions by line number, the totals.
    assert_eq!(lines.len(), 5, "{first}");
    let names: Vec<&str> = lines[1..4].iter().map(|l| l[0]).collect();
    assert_eq!(names, ["line-3", "line-5", "line-8"], "{first}");
    assert!(lines[1..4].iter().all(|l| l[1] == "3"), "{first}");
    let nodes: u64 = lines[1..4]
        .iter()
        .map(|l| l[4].parse::<u64>().unwrap())
        .sum();
    assert_eq!(lines[4][..3], ["#", "total", &nodes.to_string()], "{first}");
    let counts = |out: &str| -> Vec<String> {
        out.lines()
            .skip(1)
            .take(3)
            .map(|l| l.split(' ').nth(4).unwrap().to_string())
            .collect()
    };
    assert_eq!(counts(&first), counts(&run()));
}

#[test]
fn bench_refuses_a_bad_positions_file_with_its_line() {
    let path = std::env::temp_dir().join(format!("othello-bench-{}.txt", std::process::id()));
    std::fs::write(&path, "# fine\nf5d6\nf5f5\n").unwrap();
    let output = bench_positions(&path, 2);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("line 3"), "{stderr}");
    // Either option alone is a usage error.
    for args in [
        vec!["bench", "--depth", "3"],
        vec!["bench", "--positions", "x.txt"],
    ] {
        let output = Command::cargo_bin("othello")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn files_read_as_lists_refuse_a_line_that_is_not_text() {
    let path = std::env::temp_dir().join(format!("othello-lines-{}.txt", std::process::id()));
    let mut long = b"# fine\n".to_vec();
    long.extend(vec![b'x'; 5000]);
    long.push(b'\n');
    for (args, contents, message) in [
        (
            ["bench", "--depth", "2", "--positions"],
            b"f5d6\n\xff\xfe\n".to_vec(),
            "line 2: a line that is not UTF-8 text",
        ),
        (
            ["solve", "--threads", "1", "--file"],
            long,
            "line 2: a line over 4096 bytes",
        ),
    ] {
        std::fs::write(&path, contents).unwrap();
        let output = Command::cargo_bin("othello")
            .unwrap()
            .args(args)
            .arg(&path)
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// Runs othello with these arguments to the end; its status and stderr.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(args)
        .write_stdin("")
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert!(output.stdout.is_empty(), "{args:?}");
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_duration_without_a_unit_is_refused_with_the_units_to_write() {
    for (args, number) in [
        (&["play", "--move-time", "2"][..], "2"),
        (&["solve", "--limit", "5"], "5"),
        (
            &["match", "--a", "x", "--b", "y", "--move-time", "40"],
            "40",
        ),
        (&["perfect-play", "--limit", "10"], "10"),
        (&["--computer", "W", "--move-time", "1.5"], "1.5"),
        (&["selfplay", "--a", "time=50", "--b", "random"], "50"),
    ] {
        let (status, stderr) = refused(args);
        assert_eq!(status, Some(2), "{args:?}: {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains(&format!("write {number}s for seconds or {number}ms")),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_line_protocol_option_before_the_subcommand_is_refused_with_where_it_goes() {
    let (status, stderr) = refused(&["--depth", "4", "play"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("give it after: othello play --depth 4"),
        "{stderr}"
    );
    assert!(
        stderr.contains("For more information, try '--help'."),
        "{stderr}"
    );
}

#[test]
fn completions_name_the_subcommands_and_the_man_page_has_its_sections() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = Command::cargo_bin("othello")
            .unwrap()
            .args(["completions", shell])
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        assert!(output.status.success(), "{shell}");
        let script = String::from_utf8(output.stdout).unwrap();
        for name in ["perft", "solve", "perfect-play", "manpage", "move-time"] {
            assert!(script.contains(name), "{shell}: no {name}");
        }
    }
    let (status, stderr) = refused(&["completions", "tcsh"]);
    assert_eq!(status, Some(2), "{stderr}");
    let output = Command::cargo_bin("othello")
        .unwrap()
        .arg("manpage")
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert!(output.status.success());
    let page = String::from_utf8(output.stdout).unwrap();
    assert!(page.contains("\n.TH othello 1 "), "{page}");
    for section in [
        ".SH NAME\n",
        ".SH SYNOPSIS\n",
        ".SH OPTIONS\n",
        ".SH COMMANDS\n",
    ] {
        assert!(page.contains(section), "no {section}");
    }
    for name in [
        "perft",
        "solve",
        "play",
        "match",
        "train fit",
        "completions",
    ] {
        assert!(
            page.contains(&format!(".SS \"othello {name}\"\n")),
            "no {name}"
        );
    }
}
