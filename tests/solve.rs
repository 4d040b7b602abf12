//! `othello solve`: perfect play from a position, checked against known results, an independent
//! alpha-beta search written here, and the 8x8 line of perfect play of Takizawa's solution.

use assert_cmd::Command;
use othello::interrupt::Interrupt;
use othello::notation::MoveList;
use othello::rules::Variant;
use othello::rules::{Bits, Color, Game, Move, Passes, Position, RuleSet, Rules, Setup, Shape};
use othello::search::{Config, Evaluation, RootMoves};
use othello::solve::{solve_from, solve_position, PositionSolved, SolveOptions};
use othello::start::Start;
use std::path::Path;

fn setup(rows: usize, cols: usize, variant: Variant) -> Setup {
    Setup::standard(Shape::new(rows, cols).unwrap(), variant)
}

fn options(which: RootMoves) -> SolveOptions {
    SolveOptions {
        which,
        search: Config::solver(16, 1, Evaluation::default()),
        max_empties: None,
        journal: None,
        limit: None,
        interrupt: Interrupt::default(),
    }
}

/// Solves the start of `setup` (after `moves`) as the command does, keeping the printed text.
fn solve(setup: &Setup, moves: &str, which: RootMoves) -> (PositionSolved, String) {
    let mut out = Vec::new();
    let moves: MoveList = moves.parse().unwrap();
    let start = Start::Setup(*setup);
    let solved = solve_from(&start, &moves, &options(which), None, false, &mut out).unwrap();
    (solved.unwrap(), String::from_utf8(out).unwrap())
}

/// The exact value for the side to move by plain alpha-beta over the rules: no table, no move
/// ordering, nothing shared with the engine. Fail-hard, so exact within `(alpha, beta)`.
fn reference<B: Bits>(rules: &Rules<B>, pos: &Position<B>, mut alpha: i32, beta: i32) -> i32 {
    let moves = rules.moves(pos);
    if moves.is_empty() {
        let passed = rules.pass(pos);
        if rules.moves(&passed).is_empty() {
            let (black, white) = pos.score();
            let lead = black as i32 - white as i32;
            let lead = if pos.to_move == Color::Black {
                lead
            } else {
                -lead
            };
            return if rules.variant.misere { -lead } else { lead };
        }
        return -reference(rules, &passed, -beta, -alpha);
    }
    for m in moves.iter() {
        let value = -reference(rules, &rules.play_unchecked(pos, m), -beta, -alpha);
        if value > alpha {
            alpha = value;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

fn exact<B: Bits>(rules: &Rules<B>, pos: &Position<B>) -> i32 {
    reference(rules, pos, -100, 100)
}

/// Checks a solved start position against the reference: the value, every listed move's value,
/// and the line of perfect play, played out move by move with the value kept at every step.
fn check_against_reference(rows: usize, cols: usize, variant: Variant) {
    let rules =
        Rules::<u64>::new(othello::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
    let start = rules.start(Color::Black, Color::White);
    let solved = solve_position(&rules, &start, &options(RootMoves::All), None).unwrap();
    let what = format!("{rows}x{cols} {variant:?}");
    assert_eq!(solved.score, exact(&rules, &start), "{what}");
    assert_eq!(solved.moves.len(), rules.moves(&start).count() as usize);
    for &(square, value) in &solved.moves {
        let m = rules.geometry.index(square).unwrap();
        let child = rules.play_unchecked(&start, m);
        assert_eq!(value, -exact(&rules, &child), "{what}: {square}");
    }
    let (mut pos, mut value) = (start, solved.score);
    for step in &solved.line {
        pos = match step {
            Move::Play(square) => {
                rules.play_unchecked(&pos, rules.geometry.index(*square).unwrap())
            }
            Move::Pass => rules.pass(&pos),
        };
        value = -value;
        assert_eq!(exact(&rules, &pos), value, "{what}: after {step:?}");
    }
    assert!(rules.is_over(&pos), "{what}: the line ends the game");
    assert_eq!(pos.score(), (solved.black, solved.white), "{what}");
}

const FULL: Variant = Variant {
    rule_set: RuleSet::Full,
    place_anywhere: false,
    misere: false,
};

#[test]
fn four_by_four_start_is_a_white_win_11_to_3() {
    let (solved, text) = solve(&setup(4, 4, FULL), "", RootMoves::Ties);
    assert_eq!(solved.score, -8);
    assert_eq!((solved.black, solved.white, solved.empty), (3, 11, 2));
    // The four opening moves are one move up to symmetry.
    assert_eq!(solved.moves.len(), 4);
    assert!(solved.moves.iter().all(|&(_, v)| v == -8));
    assert!(text.contains("Black to move: loses by 8\n"), "{text}");
    assert!(
        text.contains("Perfect play: White wins 11-3, 2 empty\n"),
        "{text}"
    );
}

#[test]
fn small_boards_agree_with_plain_alpha_beta() {
    for (rows, cols) in [
        (3, 3),
        (3, 4),
        (4, 3),
        (4, 4),
        (4, 5),
        (5, 4),
        (3, 6),
        (6, 3),
    ] {
        check_against_reference(rows, cols, FULL);
    }
}

#[test]
fn variants_agree_with_plain_alpha_beta() {
    for rule_set in [RuleSet::Full, RuleSet::Simple] {
        for misere in [false, true] {
            for place_anywhere in [false, true] {
                let variant = Variant {
                    rule_set,
                    place_anywhere,
                    misere,
                };
                // Placing anywhere leaves every empty cell open: a smaller board keeps the
                // reference quick.
                let (rows, cols) = if place_anywhere { (3, 4) } else { (4, 4) };
                check_against_reference(rows, cols, variant);
            }
        }
    }
}

/// 4x6 and 5x5 are too big for the reference: each move's value is checked against a separate
/// solve of the position after it, and the best moves against every move's value.
#[test]
fn every_move_agrees_with_a_solve_of_its_position() {
    for (rows, cols) in [(4, 6), (6, 4), (5, 5)] {
        let (all, _) = solve(&setup(rows, cols, FULL), "", RootMoves::All);
        let (ties, _) = solve(&setup(rows, cols, FULL), "", RootMoves::Ties);
        assert_eq!(all.score, ties.score);
        let best: Vec<_> = all.moves.iter().filter(|m| m.1 == all.score).collect();
        assert_eq!(best, ties.moves.iter().collect::<Vec<_>>());
        for &(square, value) in &all.moves {
            let (child, _) = solve(
                &setup(rows, cols, FULL),
                &square.to_string(),
                RootMoves::Best,
            );
            assert_eq!(value, -child.score, "{rows}x{cols} {square}");
        }
    }
}

#[test]
fn known_values_of_small_boards() {
    // (rows, cols, Black's value, Black's and White's final discs)
    for (rows, cols, score, black, white) in [
        (4, 5, 16, 18, 2),
        (5, 4, 16, 18, 2),
        (4, 6, 16, 20, 4),
        (6, 4, 16, 20, 4),
        (5, 5, 13, 19, 6),
    ] {
        let (solved, _) = solve(&setup(rows, cols, FULL), "", RootMoves::Best);
        assert_eq!(
            (solved.score, solved.black, solved.white),
            (score, black, white),
            "{rows}x{cols}"
        );
    }
}

/// The 8x8 line of perfect play of Takizawa's solution, a draw (`tests/data/README.md`).
const DRAW_LINE: &str = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c5 b6 d8 c6 c7 d2 b5 a5 a6 a7 g5 e3 \
    b4 c8 g6 g4 c2 e8 d1 f7 e2 g3 h4 f1 e1 f2 g1 b1 f8 g8 b3 h3 b2 h5 b7 a3 a4 a1 a2 c1 h2 h1 g2 \
    b8 a8 g7 h8 h7 h6";

#[test]
fn the_8x8_line_of_perfect_play_is_a_draw_to_its_end() {
    let list = DRAW_LINE.parse::<MoveList>().unwrap().0;
    assert_eq!(list.len(), 60);
    let mut game = Game::<u64>::new(&Setup::default(), Passes::Automatic).unwrap();
    let mut positions = Vec::new();
    for &step in &list {
        positions.push(*game.position());
        let Move::Play(square) = step else {
            panic!("no passes in the line")
        };
        game.try_play(Move::Play(square)).unwrap();
    }
    assert_eq!(game.position().score(), (32, 32));
    let rules = game.rules().clone();
    // From 18 empty cells on, every position of the line is a draw and its move keeps it one.
    for (ply, pos) in positions.iter().enumerate().skip(42) {
        let solved = solve_position(&rules, pos, &options(RootMoves::Ties), None).unwrap();
        assert_eq!(solved.score, 0, "after {ply} moves");
        assert_eq!((solved.black, solved.white), (32, 32), "after {ply} moves");
        let Move::Play(square) = list[ply] else {
            unreachable!()
        };
        assert!(
            solved.moves.iter().any(|&(s, v)| s == square && v == 0),
            "after {ply} moves, {square} is not among {:?}",
            solved.moves
        );
    }
}

#[test]
#[ignore = "about ten minutes in release: cargo test --release --test solve -- --ignored"]
fn six_by_six_start_is_a_white_win_20_to_16() {
    let mut out = Vec::new();
    let options = SolveOptions {
        which: RootMoves::Best,
        search: Config::solver(
            1024,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            Evaluation::default(),
        ),
        max_empties: None,
        journal: None,
        limit: None,
        interrupt: Interrupt::default(),
    };
    let start = Start::Setup(setup(6, 6, FULL));
    let solved = solve_from(
        &start,
        &MoveList::default(),
        &options,
        None,
        false,
        &mut out,
    )
    .unwrap()
    .unwrap();
    print!("{}", String::from_utf8_lossy(&out));
    assert_eq!(solved.score, -4);
    assert_eq!((solved.black, solved.white), (16, 20));
}

fn othello() -> Command {
    Command::cargo_bin("othello").unwrap()
}

/// The golden output of `othello solve --rows 4 --cols 5 --all-moves`, all but the last line
/// (nodes and time), which is checked for its form.
#[test]
fn all_moves_golden_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solve");
    let args = std::fs::read_to_string(dir.join("4x5-all-moves.args")).unwrap();
    let expected = std::fs::read_to_string(dir.join("4x5-all-moves.out")).unwrap();
    let output = othello().args(args.split_whitespace()).output().unwrap();
    assert!(output.status.success());
    assert!(output.stderr.is_empty());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let (body, last) = stdout.trim_end().rsplit_once('\n').unwrap();
    assert_eq!(format!("{body}\n"), expected);
    assert!(
        last.starts_with("Nodes: ") && last.ends_with(" nodes/s)"),
        "{last}"
    );
}

/// More threads give the same values, best moves and line of perfect play, in fewer or more
/// nodes: every move's value, and every best move (found in the round of ties, which the
/// helpers join).
#[test]
fn threads_change_no_value() {
    let all_moves = "solve --rows 4 --cols 5 --all-moves --threads";
    let ties = "solve --rows 4 --cols 5 --rules simple --threads";
    for (args, expected) in [
        (all_moves, "All moves: c4 +16, d3 +14,"),
        (
            ties,
            "Best moves: a1 -8, c4 -8, b4 -8, c1 -8, b1 -8, a2 -8, a3 -8, d4 -8, d2 -8, d3 -8\n",
        ),
    ] {
        // Everything but the last line, which counts nodes.
        let run = |threads: &str| {
            let output = othello()
                .args(args.split_whitespace())
                .arg(threads)
                .output()
                .unwrap();
            assert!(output.status.success());
            let text = String::from_utf8(output.stdout).unwrap();
            let (body, nodes) = text.trim_end().rsplit_once('\n').unwrap();
            assert!(nodes.starts_with("Nodes: "), "{nodes}");
            body.to_string()
        };
        let one = run("1");
        assert!(one.contains(expected), "{one}");
        for threads in ["2", "4"] {
            assert_eq!(run(threads), one, "{args} {threads}");
        }
    }
}

#[test]
fn progress_goes_to_stderr_when_asked_for() {
    let output = othello()
        .args(["solve", "--rows", "4", "--cols", "4", "--progress"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.lines().any(|l| l.starts_with("solve: move 1/4 ")),
        "{stderr}"
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("Black to move: loses by 8"));
}

#[test]
fn misere_and_moves_from_the_start() {
    let output = othello()
        .args(["solve", "--rows", "4", "--cols", "4", "--misere"])
        .args(["--moves", "b1a1"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let variant = Variant {
        misere: true,
        ..FULL
    };
    let rules = Rules::<u64>::new(othello::rules::Shape::new(4, 4).unwrap(), variant).unwrap();
    let mut game = Game::<u64>::new(&setup(4, 4, variant), Passes::Automatic).unwrap();
    for m in ["b1", "a1"] {
        let Move::Play(sq) = m.parse::<MoveList>().unwrap().0[0] else {
            unreachable!()
        };
        game.try_play(Move::Play(sq)).unwrap();
    }
    let value = exact(&rules, game.position());
    let words = match value {
        0 => "draw".to_string(),
        v if v > 0 => format!("wins by {v}"),
        v => format!("loses by {}", -v),
    };
    assert!(
        stdout.contains(&format!("Black to move: {words}\n")),
        "{stdout}"
    );
    assert!(stdout.contains("misère"), "{stdout}");
}

#[test]
fn bad_input_is_one_line_and_a_status() {
    for (args, status, message) in [
        (
            vec!["--moves", "b1 z9"],
            2,
            "move 2 (z9) is off the 4x4 board",
        ),
        (vec!["--moves", "a1"], 2, "move 1 (a1): a1 flanks no line"),
        (
            vec!["--moves", "b1 pa"],
            2,
            "move 2 (pa): white has a legal move",
        ),
        (vec!["--moves", "b1 !"], 2, "'!' is not a column letter"),
        (
            vec!["--position", "(b ---- -wb- -bw- ---)"],
            2,
            "row 4 has 3 cells",
        ),
        (vec!["--file", "x.obf"], 2, "cannot be used with"),
        (vec!["--hash-mb", "0"], 2, "hash"),
    ] {
        let board: &[&str] = if args[0] == "--position" {
            &[]
        } else {
            &["--rows", "4", "--cols", "4"]
        };
        let output = othello()
            .arg("solve")
            .args(board)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(status), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        // One line of ours, or clap's error with the pointer to --help.
        let ours = stderr.starts_with("othello: ") && stderr.lines().count() == 1;
        assert!(
            ours || stderr.contains("try '--help'"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let output = othello()
        .args(["solve", "--file", "no/such/file.obf"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8(output.stderr).unwrap().lines().count(), 1);
}

#[test]
fn a_position_string_solves_like_the_moves_that_reach_it() {
    // The rules specification's position 1 is the 4x4 start after B1.
    let run = |args: &[&str]| {
        let output = othello().arg("solve").args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        // Everything but the heading and the node count.
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("Nodes"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let from_string = run(&["--position", "(w -b-- -bb- -bw- ----)", "--all-moves"]);
    let from_moves = run(&["--rows", "4", "--cols", "4", "--moves", "b1", "--all-moves"]);
    assert_eq!(from_string, from_moves);
    assert_eq!(from_string[0], "White to move: wins by 8");
    // A position string with moves after it, and misère.
    let misere = run(&[
        "--position",
        "(w -b-- -bb- -bw- ----)",
        "--moves",
        "a1",
        "--misere",
    ]);
    let misere_moves = run(&["--rows", "4", "--cols", "4", "--moves", "b1a1", "--misere"]);
    assert_eq!(misere, misere_moves);
}

/// Ctrl-C during a long solve: the search stops as at a time limit, the journal records the
/// run, the output says how to go on, and the status is the signal's (130).
#[cfg(unix)]
#[test]
fn a_signal_stops_a_solve_and_keeps_its_work() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let journal = Path::new(env!("CARGO_TARGET_TMPDIR")).join("solve-interrupted-journal.txt");
    let _ = std::fs::remove_file(&journal);
    // The 6x6 SIMPLE start takes hours: the signal always comes during the search.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["solve", "--rows", "6", "--cols", "6", "--rules", "simple"])
        .args([
            "--threads",
            "1",
            "--hash-mb",
            "16",
            "--progress",
            "--journal",
        ])
        .arg(&journal)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    // The first progress line comes as the search begins, after the handlers are set.
    while !line.starts_with("solve: ") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "no progress line");
    }
    // SAFETY: kill has no memory effects; the pid is our live child's.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let output = child.wait_with_output().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert_eq!(output.status.code(), Some(130), "{rest}");
    assert!(
        rest.ends_with("othello: stopped by SIGINT; the work done so far is kept\n"),
        "{rest}"
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("\nStopped by SIGINT: "), "{stdout}");
    assert!(
        stdout.contains("Next: run the same command again"),
        "{stdout}"
    );
    let kept = std::fs::read_to_string(&journal).unwrap();
    let last = kept.lines().last().unwrap();
    assert!(
        last.starts_with("run nodes=") && last.ends_with(" stopped"),
        "{kept}"
    );
}

/// A fresh path under the test target directory.
fn temp_path(name: &str) -> std::path::PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// `othello solve` of the 4x4 start with `journal`: status, stdout, stderr.
fn solve_4x4_with_journal(journal: &Path) -> (Option<i32>, String, String) {
    let output = othello()
        .args(["solve", "--rows", "4", "--cols", "4", "--threads", "1"])
        .arg("--journal")
        .arg(journal)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A journal whose runs cannot be counted is damaged: set aside whole and started again.
#[test]
fn a_journal_whose_runs_cannot_be_counted_is_set_aside() {
    let journal = temp_path("solve-journal-runs.txt");
    let board = "board 4x4 full normal standard\n";
    let most = u64::MAX;
    for (runs, message) in [
        (
            "run nodes=1 seconds=1e300 solved\n".to_string(),
            "line 2: seconds=1e300 is not a number of seconds from 0 to 1000000000",
        ),
        (
            "run nodes=1 seconds=1e19 solved\nrun nodes=1 seconds=1e19 solved\n".to_string(),
            "line 2: seconds=1e19",
        ),
        (
            format!("run nodes={most} seconds=1 solved\nrun nodes=1 seconds=1 solved\n"),
            "line 3: the runs add up to more work than can be counted",
        ),
    ] {
        let text = format!("{board}{runs}");
        let aside = temp_path("solve-journal-runs.txt.damaged");
        std::fs::write(&journal, &text).unwrap();
        let (status, stdout, stderr) = solve_4x4_with_journal(&journal);
        assert_eq!(status, Some(0), "{runs}: {stderr}");
        assert!(stdout.contains("-8"), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(stderr.contains("is set aside as"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
        let fresh = std::fs::read_to_string(&journal).unwrap();
        assert!(
            fresh.starts_with(board) && fresh.ends_with(" solved\n"),
            "{fresh}"
        );
    }
    // Runs that do add up are told as the earlier work.
    std::fs::write(
        &journal,
        format!(
            "{board}run nodes={} seconds=1e9 stopped\nrun nodes=1 seconds=1e9 stopped\n",
            most - 1
        ),
    )
    .unwrap();
    let (status, stdout, stderr) = solve_4x4_with_journal(&journal);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stdout.contains(&format!(
            "Earlier runs (journal): 2, {most} nodes in 2000000000.000 s"
        )),
        "{stdout}"
    );
}

#[test]
fn a_file_that_is_not_a_journal_is_left_as_it_is() {
    let journal = temp_path("solve-not-a-journal.txt");
    // No newline at the end: the one line would be taken as cut short by a killed run.
    for text in [
        "my notes",
        "# notes\nmore notes",
        "\n\n(b ---- -wb- -bw- ----) 0",
    ] {
        std::fs::write(&journal, text).unwrap();
        let (status, stdout, stderr) = solve_4x4_with_journal(&journal);
        assert_eq!(status, Some(1), "{text:?}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("is not a solve journal"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&journal).unwrap(), text);
    }
    // A journal's last line cut short is still dropped, and the journal goes on.
    std::fs::write(&journal, "board 4x4 full normal standard\n(b ---- -wb").unwrap();
    let (status, _, stderr) = solve_4x4_with_journal(&journal);
    assert_eq!(status, Some(0), "{stderr}");
    let kept = std::fs::read_to_string(&journal).unwrap();
    assert!(
        kept.starts_with("board 4x4 full normal standard\n"),
        "{kept}"
    );
    assert!(
        !kept.contains("-wb\n") && kept.ends_with(" solved\n"),
        "{kept}"
    );
}

/// A list file with an endless line (`/dev/zero`) is refused once past the cap on its size,
/// rather than read at full speed for ever.
#[cfg(unix)]
#[test]
fn an_endless_list_file_is_refused() {
    for (args, what) in [
        (&["solve", "--file", "/dev/zero"][..], "an OBF file"),
        (
            &["bench", "--positions", "/dev/zero", "--depth", "2"][..],
            "a positions file",
        ),
    ] {
        let output = othello()
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        // Bad input, as a game piped to `analyze -` over the cap is.
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(
            stderr,
            format!("othello: cannot read /dev/zero: over 16 MiB, too large for {what}\n")
        );
    }
}

/// `--max-empties` applies to each position of a file: those with more empty cells are
/// skipped, each on its line, and the rest are solved.
#[test]
fn solve_file_skips_positions_past_max_empties() {
    let ffo = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fforum-1-19.obf"),
    )
    .unwrap();
    let first = ffo.lines().next().unwrap();
    // FFO #1 (14 empty cells), then the same with one cell more filled and no scores.
    let board = first.split_whitespace().next().unwrap();
    let fuller = board.replacen('-', "X", 1);
    let file = temp_path("solve-max-empties.obf");
    std::fs::write(&file, format!("{first}\n{fuller} X;\n")).unwrap();
    let run = |max: &str| {
        let output = othello()
            .args(["solve", "--threads", "1", "--max-empties", max, "--file"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        (
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    let (all, quiet) = run("14");
    assert!(all.contains("\n1 14 g8 +18 +18 yes "), "{all}");
    assert!(all.contains("\n2 13 "), "{all}");
    assert!(all.contains("# 2 positions, 1 of 1 agree"), "{all}");
    assert!(quiet.is_empty(), "{quiet}");
    let (some, said) = run("13");
    assert!(some.contains("\n1 14 - - +18 skipped - -\n"), "{some}");
    assert!(some.contains("\n2 13 "), "{some}");
    assert!(
        some.contains("# 1 skipped: more than 13 empty cells (--max-empties raises the limit)\n"),
        "{some}"
    );
    assert!(some.contains("# 1 positions, 0 of 0 agree"), "{some}");
    assert_eq!(
        said,
        "othello solve: 1 of the file's positions skipped: more than --max-empties 13 empty cells\n"
    );
}

/// A signal that comes once the value is known, as the line of perfect play is searched,
/// still stops the solve: it is told as stopped, with the signal, not finished quietly.
#[test]
fn a_signal_after_the_value_is_known_still_stops_the_solve() {
    use othello::search::SolveProgress;
    use othello::solve::{solve_position_within, OutOfTime};
    use std::ops::ControlFlow;
    let variant = Variant {
        rule_set: RuleSet::Simple,
        ..FULL
    };
    let rules = Rules::<u64>::new(Shape::new(4, 5).unwrap(), variant).unwrap();
    let start = rules.start(Color::Black, Color::White);
    let journal = temp_path("solve-signal-after-value.txt");
    for which in [RootMoves::Best, RootMoves::Ties, RootMoves::All] {
        let _ = std::fs::remove_file(&journal);
        let interrupt = Interrupt::default();
        let options = SolveOptions {
            interrupt: interrupt.clone(),
            journal: Some(journal.clone()),
            ..options(which)
        };
        // Raised as the last root move is done: the search has the value, the line is to come.
        let observer = Box::new(move |p: &SolveProgress| {
            if p.total > 0 && p.done == p.total {
                interrupt.raise(libc::SIGTERM);
            }
            ControlFlow::Continue(())
        });
        let solved = solve_position_within(&rules, &start, &options, Some(observer)).unwrap();
        match solved {
            Err(OutOfTime { signal, proved, .. }) => {
                assert_eq!(signal, Some(libc::SIGTERM), "{which:?}");
                // The journal keeps the value the stopped run proved (-8 for Black).
                let proved = proved.unwrap().line();
                let value = proved.as_deref().and_then(|p| p.split(' ').next());
                assert_eq!(value, Some("-8"), "{which:?}: {proved:?}");
                let kept = std::fs::read_to_string(&journal).unwrap();
                assert!(kept.ends_with(" stopped\n"), "{kept}");
            }
            Ok(solved) => panic!("{which:?}: finished despite the signal: {solved:?}"),
        }
    }
}
