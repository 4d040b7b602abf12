//! `othello match` against small misbehaving players (tests/players/*.sh): each loses for the
//! right reason, the referee goes on, and no process is left behind.

use std::path::{Path, PathBuf};
use std::process::Command;

fn othello() -> &'static str {
    env!("CARGO_BIN_EXE_othello")
}

fn player(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/players")
        .join(name);
    format!("sh {}", path.display())
}

struct Outcome {
    stdout: String,
    games: Vec<String>,
}

/// Runs a match with the games written to a file; returns the table and the game lines.
fn referee(args: &[&str], out_name: &str) -> Outcome {
    referee_watched(args, out_name).0
}

/// Two games (one per colour) of `bad` against the engine: both lost by `bad` for `reason`.
fn loses_for(bad: &str, reason: &str, extra: &[&str]) -> Outcome {
    let engine = format!("{} engine --depth 1", othello());
    // The games file is named by the player: several players lose for the same reason.
    let out_name = bad.trim_end_matches(".sh").to_string();
    let bad = player(bad);
    let mut args = vec![
        "--a", &engine, "--b", &bad, "--a-name", "good", "--b-name", "bad", "--games", "2",
    ];
    args.extend_from_slice(extra);
    let outcome = referee(&args, &out_name);
    assert_eq!(outcome.games.len(), 2, "{}", outcome.stdout);
    for line in &outcome.games {
        assert!(
            line.ends_with(&format!("forfeit:bad:{reason}")),
            "{line}\n{}",
            outcome.stdout
        );
    }
    assert!(
        outcome
            .stdout
            .contains(&format!("forfeits by bad: {reason} 2")),
        "{}",
        outcome.stdout
    );
    let good = outcome
        .stdout
        .lines()
        .find(|l| l.starts_with("good "))
        .unwrap();
    let fields: Vec<&str> = good.split_whitespace().collect();
    assert_eq!(&fields[1..4], ["2", "0", "0"], "{good}");
    outcome
}

#[test]
fn an_illegal_move_loses() {
    let o = loses_for("illegal.sh", "illegal-move", &[]);
    // The loser's side moved first in game 2: nothing but the opening position was played.
    assert!(o.games[1].starts_with(" bad-good 2-2"), "{}", o.games[1]);
}

#[test]
fn a_pass_with_moves_to_play_loses() {
    loses_for("passer.sh", "illegal-pass", &[]);
}

#[test]
fn garbage_loses() {
    let o = loses_for("garbage.sh", "malformed", &[]);
    assert!(o.stdout.contains("somewhere in the middle"), "{}", o.stdout);
}

#[test]
fn a_move_of_the_other_colour_loses() {
    loses_for("wrong_color.sh", "illegal-move", &[]);
}

#[test]
fn leaving_mid_game_loses() {
    let o = loses_for("quitter.sh", "crash", &[]);
    // Three moves of its own were played before it left.
    for line in &o.games {
        let moves = line.split(' ').next().unwrap();
        assert!(moves.len() >= 2 * 5, "{line}");
        assert!(!line.contains("timeout"), "{line}");
    }
}

fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(marker) {
                found.push(cmdline);
            }
        }
    }
    found
}

/// The processes still running with `marker`, after allowing a moment for SIGKILL to take
/// effect (it does when the process next runs).
fn processes_left(marker: &str) -> Vec<String> {
    let mut left = processes_with(marker);
    for _ in 0..20 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        left = processes_with(marker);
    }
    left
}

/// Two games of a player that sleeps `seconds` before its first move against the engine, under
/// the time options `limits`: both lost by the sleeper on time, and its sleep ended. The sleep's
/// length, one no other test uses, marks the sleeper's child process.
fn sleeper_loses(seconds: &str, limits: &[&str], out_name: &str) -> Outcome {
    let engine = format!("{} engine --depth 1", othello());
    let bad = format!("SLEEP_FOR={seconds} {}", player("sleeper.sh"));
    let mut args = vec![
        "--a", &engine, "--b", &bad, "--b-name", "bad", "--games", "2",
    ];
    args.extend_from_slice(limits);
    let o = referee(&args, out_name);
    for line in &o.games {
        assert!(line.ends_with("forfeit:bad:timeout"), "{line}");
    }
    assert_eq!(
        processes_left(&format!("sleep {seconds}")),
        Vec::<String>::new()
    );
    o
}

#[test]
fn a_late_move_loses_and_the_sleeper_is_ended() {
    let started = std::time::Instant::now();
    sleeper_loses("37.25", &["--move-time", "300ms"], "timeout");
    assert!(started.elapsed().as_secs() < 20, "the referee waited");
}

#[test]
fn a_move_past_the_game_clock_loses_on_time() {
    // Within the per-move limit, past the clock: the clock decides.
    let o = sleeper_loses("1.625", &["--move-time", "10s", "--time", "1s"], "clock");
    assert!(o.stdout.contains("left on its clock"), "{}", o.stdout);
}

#[test]
fn an_engine_under_a_game_clock_keeps_to_it() {
    // The engine spreads 4 s over its moves, with 100 ms more a move; a clock this short would
    // be spent by a tenth of the moves at a second each.
    let clocked = format!("{} engine --time 4s --inc 100ms", othello());
    let other = format!("{} engine --depth 2", othello());
    let o = referee(
        &[
            "--a", &clocked, "--b", &other, "--a-name", "clocked", "--games", "2", "--time", "4s",
            "--inc", "100ms",
        ],
        "clocked",
    );
    assert_eq!(o.games.len(), 2, "{}", o.stdout);
    for line in &o.games {
        assert!(!line.contains("forfeit"), "{line}\n{}", o.stdout);
    }
}

/// Runs `othello match` with `args`, killed if it runs past 30 s: its status, stdout, stderr.
fn match_output(args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(othello())
        .arg("match")
        .args(args)
        .env("OTHELLO", othello())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() >= 30 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("othello match {args:?} ran on for 30 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A folder of its own for a test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-referee-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_program_that_cannot_start_stops_the_match_and_names_its_side() {
    let engine = format!("{} engine --depth 1", othello());
    for (a, b, side, command) in [
        ("./nope", "./nope2", "A", "./nope"),
        (
            engine.as_str(),
            "/nonexistent/othello-program",
            "B",
            "/nonexistent/othello-program",
        ),
    ] {
        let (status, _, stderr) = match_output(&["--a", a, "--b", b, "--games", "2"]);
        assert_eq!(status, Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("othello: side {side} cannot start \"{command}")),
            "{stderr}"
        );
    }
}

#[test]
fn a_program_found_but_not_executable_cannot_start_either() {
    let dir = scratch("not-executable");
    let program = dir.join("program");
    std::fs::write(&program, "#!/bin/sh\necho hello\n").unwrap();
    let program = program.to_str().unwrap();
    let (status, _, stderr) = match_output(&["--a", program, "--b", program, "--games", "1"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stderr.contains("side A cannot start"), "{stderr}");
    assert!(stderr.contains("126"), "{stderr}");
}

#[test]
fn a_side_that_cannot_play_the_board_is_refused_before_the_match() {
    let engine = format!("{} engine --depth 1", othello());
    for (protocol, board, why) in [
        (
            "gtp",
            ["--rows", "6", "--cols", "8"],
            "GTP plays square boards only (boardsize N), not 6x8",
        ),
        (
            "nboard",
            ["--rows", "6", "--cols", "6"],
            "NBoard plays 8x8 only, not 6x6",
        ),
    ] {
        // The program would leave a file behind if it were started.
        let dir = scratch(protocol);
        let touched = dir.join("started");
        let program = format!("touch {}", touched.display());
        let mut args = vec![
            "--a",
            &program,
            "--a-protocol",
            protocol,
            "--b",
            &engine,
            "--games",
            "2",
        ];
        args.extend_from_slice(&board);
        let (status, stdout, stderr) = match_output(&args);
        assert!(!touched.exists(), "{protocol}: the side was started");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(status, Some(2), "{stderr}");
        assert_eq!(stdout, "");
        assert_eq!(
            stderr,
            format!("othello: side A speaks {protocol}: {why}\n"),
            "{stderr}"
        );
    }
}

#[test]
fn an_endless_openings_file_is_refused_at_once() {
    let started = std::time::Instant::now();
    let (status, _, stderr) = match_output(&["--a", "x", "--b", "y", "--openings", "/dev/zero"]);
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "othello: cannot read /dev/zero: over 16 MiB, too large for an openings file\n"
    );
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn the_games_file_is_never_an_input_nor_replaced_by_a_match_that_played_nothing() {
    let dir = scratch("games-file");
    let openings = dir.join("my.txt");
    std::fs::write(&openings, "f5d6c3\n").unwrap();
    let path = openings.to_str().unwrap();
    let engine = format!("{} engine --depth 1", othello());
    let (status, _, stderr) = match_output(&[
        "--a",
        &engine,
        "--b",
        &engine,
        "--openings",
        path,
        "--games-out",
        path,
    ]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("is also an input"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&openings).unwrap(), "f5d6c3\n");
    // A match that cannot start plays no game: the old games file stands.
    let games = dir.join("games.txt");
    std::fs::write(&games, "old games\n").unwrap();
    let (status, _, stderr) = match_output(&[
        "--a",
        "./nope",
        "--b",
        &engine,
        "--games-out",
        games.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(std::fs::read_to_string(&games).unwrap(), "old games\n");
    let (status, _, stderr) = match_output(&[
        "--a",
        &engine,
        "--b",
        &engine,
        "--games",
        "2",
        "--games-out",
        games.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(std::fs::read_to_string(&games).unwrap().lines().count(), 2);
    let names = std::fs::read_dir(&dir).unwrap().count();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(names, 2, "no temporary file is left");
}

#[test]
fn a_match_stopped_by_a_signal_keeps_its_whole_games() {
    use std::io::BufRead;
    let dir = scratch("games-stopped");
    let games = dir.join("games.txt");
    std::fs::write(&games, "old games\n").unwrap();
    let engine = format!("{} engine --depth 1", othello());
    let mut child = Command::new(othello())
        .args(["match", "--a", &engine, "--b", &engine, "--games", "10000"])
        .arg("--games-out")
        .arg(&games)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The header, then the first game: stopped after it.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for _ in 0..2 {
        line.clear();
        stdout.read_line(&mut line).unwrap();
    }
    assert!(line.starts_with("   1 "), "{line}");
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15));
    let text = std::fs::read_to_string(&games).unwrap();
    let names = std::fs::read_dir(&dir).unwrap().count();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        text.ends_with('\n') && !text.contains("old games"),
        "{text}"
    );
    assert!(!text.is_empty());
    for game in text.lines() {
        assert!(game.contains(" A-B ") || game.contains(" B-A "), "{game}");
    }
    assert_eq!(names, 1, "no temporary file is left");
}

#[test]
fn progress_is_not_shown_where_stderr_is_not_a_terminal() {
    let engine = format!("{} engine --depth 1", othello());
    let (status, stdout, stderr) = match_output(&["--a", &engine, "--b", &engine, "--games", "2"]);
    assert_eq!(status, Some(0));
    assert_eq!(stderr, "");
    assert!(stdout.contains("time used"), "{stdout}");
}

#[test]
fn the_engine_against_itself_plays_whole_games() {
    let a = format!("{} engine --depth 2", othello());
    let b = format!("{} engine --depth 1", othello());
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/8x8.txt");
    let o = referee(
        &[
            "--a",
            &a,
            "--b",
            &b,
            "--games",
            "4",
            "--openings",
            openings.to_str().unwrap(),
        ],
        "self",
    );
    assert_eq!(o.games.len(), 4);
    let mut discs = [0u32; 2];
    for (i, line) in o.games.iter().enumerate() {
        assert!(!line.contains("forfeit"), "{line}");
        let fields: Vec<&str> = line.split(' ').collect();
        let [moves, sides, score] = fields[..] else {
            panic!("{line}")
        };
        let expected = if i % 2 == 0 { "A-B" } else { "B-A" };
        assert_eq!(sides, expected);
        // Games 1 and 2 share an opening, colours swapped.
        if i % 2 == 1 {
            let first = o.games[i - 1].split(' ').next().unwrap();
            let opening_len = 2 * 6;
            assert_eq!(moves[..opening_len], first[..opening_len]);
        }
        let (x, y) = score_discs(score);
        let first_is_a = i % 2 == 0;
        discs[if first_is_a { 0 } else { 1 }] += x;
        discs[if first_is_a { 1 } else { 0 }] += y;
        // Replay the record through the plain referee of the rules: every move legal, the
        // discs as recorded.
        let show = replay(moves);
        assert_eq!(show, (x, y), "{line}");
    }
    let a_line = o.stdout.lines().find(|l| l.starts_with("A ")).unwrap();
    let a_discs: u32 = a_line.split_whitespace().nth(5).unwrap().parse().unwrap();
    assert_eq!(a_discs, discs[0], "{}", o.stdout);
}

/// The discs of a games-file score, `35-29`: the first mover's, then the second's.
fn score_discs(score: &str) -> (u32, u32) {
    let (x, y) = score.split_once('-').unwrap();
    (x.parse().unwrap(), y.parse().unwrap())
}

/// Plays a record (`f5d6...pa...`) on a standard 8x8 board; the final disc counts of the
/// first and second mover.
fn replay(moves: &str) -> (u32, u32) {
    use othello::notation::MoveList;
    use othello::rules::{Game, Passes, Setup};
    let mut game = Game::<u64>::new(&Setup::default(), Passes::Explicit).unwrap();
    for m in moves.parse::<MoveList>().unwrap().0 {
        assert!(game.to_move().is_some(), "the game goes on");
        game.try_play(m).unwrap();
    }
    assert!(game.is_over(), "the record ends the game");
    (game.score().black, game.score().white)
}

#[test]
fn the_engine_plays_the_same_games_through_every_protocol() {
    // At a fixed depth the engine is deterministic, so the same match through the tournament
    // protocol's triples, GTP and NBoard must give the same games, passes and discs included.
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/8x8.txt");
    let b = format!("{} engine --depth 1", othello());
    let mut records = Vec::new();
    for (subcommand, protocol) in [("engine", "triples"), ("gtp", "gtp"), ("nboard", "nboard")] {
        let a = format!("{} {subcommand} --depth 2", othello());
        let o = referee(
            &[
                "--a",
                &a,
                "--a-protocol",
                protocol,
                "--b",
                &b,
                "--games",
                "4",
                "--jobs",
                "2",
                "--openings",
                openings.to_str().unwrap(),
            ],
            protocol,
        );
        assert_eq!(o.games.len(), 4, "{protocol}: {}", o.stdout);
        for line in &o.games {
            assert!(!line.contains("forfeit"), "{protocol}: {line}");
            replay(line.split(' ').next().unwrap());
        }
        records.push((protocol, o.games));
    }
    let triples = &records[0].1;
    assert_eq!(&records[1].1, triples, "gtp against triples");
    // NBoard counts the empty cells for the winner, as tournament results do, so from the
    // solved end of a game that leaves cells empty its moves may part from the others (moves
    // equal in its count, not on the board). Games that fill the board are the same, and
    // every game has the same winner.
    for (nboard, triples) in records[2].1.iter().zip(triples) {
        let last = |line: &str| line.rsplit(' ').next().unwrap().to_string();
        let ((a, b), (c, d)) = (score_discs(&last(nboard)), score_discs(&last(triples)));
        if c + d == 64 {
            assert_eq!(nboard, triples, "nboard against triples");
        }
        assert_eq!(
            a.cmp(&b),
            c.cmp(&d),
            "nboard against triples: {nboard} / {triples}"
        );
    }
}

#[test]
fn an_illegal_gtp_move_loses() {
    loses_for("gtp_illegal.sh", "illegal-move", &["--b-protocol", "gtp"]);
}

#[test]
fn a_garbled_nboard_move_loses() {
    loses_for(
        "nboard_garbage.sh",
        "malformed",
        &["--b-protocol", "nboard"],
    );
}

/// Runs a match like [`referee`], watching the referee's peak memory (kB, from /proc where it
/// exists) and its time.
fn referee_watched(args: &[&str], out_name: &str) -> (Outcome, u64, std::time::Duration) {
    let out: PathBuf = std::env::temp_dir().join(format!(
        "othello-referee-{}-{out_name}.txt",
        std::process::id()
    ));
    let started = std::time::Instant::now();
    let mut child = Command::new(othello())
        .arg("match")
        .args(args)
        .arg("--games-out")
        .arg(&out)
        .env("OTHELLO", othello())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0;
    while child.try_wait().unwrap().is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_file) {
            if let Some(kb) = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak_kb = peak_kb.max(kb);
            }
        }
        // A referee that runs away is stopped before it takes the machine down with it:
        // SIGTERM first, on which it ends its contestants' process groups.
        if started.elapsed().as_secs() >= 30 || peak_kb >= 16 * FLOOD_PEAK_KB {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            std::thread::sleep(std::time::Duration::from_millis(500));
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the referee ran away: {peak_kb} kB after {:?}",
                started.elapsed()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let _ = std::fs::remove_file(&out);
    (Outcome { stdout, games }, peak_kb, elapsed)
}

/// The most memory the referee may reach against a flooder: a bounded queue of capped lines.
const FLOOD_PEAK_KB: u64 = 64 * 1024;

#[test]
fn a_gtp_program_that_floods_its_replies_loses_at_once_in_bounded_memory() {
    let engine = format!("{} engine --depth 1", othello());
    let (o, peak_kb, elapsed) = referee_watched(
        &[
            "--a",
            &engine,
            "--b",
            "yes '=' #",
            "--b-protocol",
            "gtp",
            "--b-name",
            "bad",
            "--games",
            "2",
        ],
        "gtp-flood",
    );
    for line in &o.games {
        assert!(line.ends_with("forfeit:bad:malformed"), "{line}");
    }
    assert!(elapsed.as_secs() < 20, "took {elapsed:?}");
    assert!(peak_kb < FLOOD_PEAK_KB, "the referee reached {peak_kb} kB");
}

#[test]
fn a_triples_program_that_floods_loses_in_bounded_memory() {
    // `yes` writes "y" lines as fast as it can, on its turn and off it: either way it loses
    // (the `#` comments out the colour and opening the referee adds to the command).
    let engine = format!("{} engine --depth 1", othello());
    let (o, peak_kb, elapsed) = referee_watched(
        &[
            "--a", &engine, "--b", "yes #", "--b-name", "bad", "--games", "2",
        ],
        "triples-flood",
    );
    for line in &o.games {
        assert!(
            line.ends_with("forfeit:bad:protocol-error") || line.ends_with("forfeit:bad:malformed"),
            "{line}\n{}",
            o.stdout
        );
    }
    assert!(elapsed.as_secs() < 20, "took {elapsed:?}");
    assert!(peak_kb < FLOOD_PEAK_KB, "the referee reached {peak_kb} kB");
}

#[test]
fn lines_written_out_of_turn_are_a_forfeit() {
    // The engine moves first and takes its time; meanwhile the flooder writes 5000 lines.
    let engine = format!("{} engine --move-time 300ms --threads 1", othello());
    let bad = player("flooder.sh");
    let (o, peak_kb, _) = referee_watched(
        &[
            "--a",
            &engine,
            "--b",
            &bad,
            "--b-name",
            "bad",
            "--games",
            "1",
            "--move-time",
            "2s",
        ],
        "out-of-turn",
    );
    assert_eq!(o.games.len(), 1);
    assert!(
        o.games[0].ends_with("forfeit:bad:protocol-error"),
        "{}",
        o.games[0]
    );
    assert!(peak_kb < FLOOD_PEAK_KB, "the referee reached {peak_kb} kB");
}

#[test]
fn the_first_clock_starts_when_both_sides_are_ready() {
    // The GTP side takes 1.5 s to start; the triples side, moving first with 1 s a move, must
    // not have lost that time.
    let engine = format!("{} engine --depth 1", othello());
    let slow = player("slow_gtp.sh");
    let o = referee(
        &[
            "--a",
            &engine,
            "--b",
            &slow,
            "--b-protocol",
            "gtp",
            "--games",
            "1",
            "--move-time",
            "1s",
        ],
        "slow-start",
    );
    assert_eq!(o.games.len(), 1);
    assert!(!o.games[0].contains("forfeit"), "{}", o.games[0]);
}

#[test]
fn a_process_started_in_a_new_session_does_not_outlive_the_game() {
    let have_setsid = Command::new("sh")
        .args(["-c", "command -v setsid"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_setsid {
        eprintln!("skipped: setsid (util-linux) is not installed");
        return;
    }
    let marker = "sleep 61.75";
    let engine = format!("{} engine --depth 1", othello());
    let bad = format!("SLEEP_FOR=61.75 {}", player("setsid.sh"));
    let o = referee(&["--a", &engine, "--b", &bad, "--games", "2"], "setsid");
    assert_eq!(o.games.len(), 2);
    assert_eq!(processes_left(marker), Vec::<String>::new());
    // An orphan in a session of its own with its environment cleared keeps no tie to its
    // program but its place in the process tree.
    let marker = "sleep 62.75";
    let bad = format!("SLEEP_FOR=62.75 {}", player("escaper.sh"));
    let o = referee(&["--a", &engine, "--b", &bad, "--games", "2"], "escaper");
    assert_eq!(o.games.len(), 2);
    assert!(!o.stdout.contains(" loses: "), "{}", o.stdout);
    assert_eq!(processes_left(marker), Vec::<String>::new());
}
