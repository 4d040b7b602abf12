//! `othello book` on the command line: `book show` of the built-in book against golden files
//! (`tests/book/`), learn (made, resumed, refused for another board), fix,
//! show, export to Edax's format and import back, and the engine's --book and --no-book (the
//! draws of --book-margin are unit tests of `players`); a damaged book is a one-line error with
//! status 2.

mod golden;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn othello() -> Command {
    Command::cargo_bin("othello").unwrap()
}

/// A fresh directory of the system's temporary one for a test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("othello-book-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `othello ARGS` in `dir`; its status, stdout and stderr.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = othello().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `book show` of the built-in book: `tests/book/NAME.args` (see its README).
#[test]
fn book_show_transcripts() {
    golden::check_all(&golden::cases("book", "args", 5), |case| {
        golden::check_args_case("book", case, None, std::time::Duration::from_secs(20))
    });
}

/// A small, quick book: 6x6, shallow searches, solved from 10 empties.
const LEARN_6X6: &[&str] = &[
    "book",
    "learn",
    "six.book",
    "--rows",
    "6",
    "--cols",
    "6",
    "--depth",
    "2",
    "--exact-empties",
    "10",
    "--deviation",
    "3",
    "--margin",
    "2",
    "--threads",
    "1",
];

#[test]
fn a_book_is_learned_resumed_fixed_and_shown() {
    let dir = Scratch::new("learned");
    let (status, out, err) = run(dir.path(), LEARN_6X6);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("nothing left to explore"), "{out}");
    let positions: usize = out
        .split(", ")
        .find_map(|part| part.strip_suffix(" in the book; nothing left to explore\n"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(positions > 10, "{out}");
    // Run again, it has nothing more to do under the same options.
    let (status, again, _) = run(dir.path(), LEARN_6X6);
    assert_eq!(status, 0);
    assert!(again.starts_with("0 games, 0 positions added"), "{again}");
    let (status, fixed, _) = run(dir.path(), &["book", "fix", "six.book"]);
    assert_eq!(status, 0);
    assert_eq!(fixed, format!("0 of {positions} positions changed\n"));
    let (status, shown, err) = run(dir.path(), &["book", "show", "six.book"]);
    assert_eq!(status, 0, "{err}");
    let lines: Vec<&str> = shown.lines().collect();
    assert!(lines[0].starts_with("(b ------ ------ --wb--"), "{shown}");
    assert!(lines[1].starts_with("Black to move: "), "{shown}");
    assert!(lines[2].starts_with("move "), "{shown}");
    assert!(lines.len() >= 4, "{shown}");
    // After a move, the reply's position; an illegal move is status 1.
    let (status, after, _) = run(dir.path(), &["book", "show", "six.book", "c2"]);
    assert_eq!(status, 0);
    assert!(
        after.lines().nth(1).unwrap().starts_with("White to move"),
        "{after}"
    );
    let (status, _, err) = run(dir.path(), &["book", "show", "six.book", "a1"]);
    assert_eq!((status, err.lines().count()), (1, 1), "{err}");
}

#[test]
fn learning_into_a_book_of_another_board_is_refused() {
    let dir = Scratch::new("other_board");
    assert_eq!(run(dir.path(), LEARN_6X6).0, 0);
    let (status, _, err) = run(
        dir.path(),
        &[
            "book",
            "learn",
            "six.book",
            "--depth",
            "1",
            "--deviation",
            "1",
        ],
    );
    assert_eq!(status, 2);
    assert!(err.contains("6x6") && err.contains("8x8"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_damaged_or_foreign_book_is_one_line_and_status_2() {
    let dir = Scratch::new("damaged");
    assert_eq!(run(dir.path(), LEARN_6X6).0, 0);
    let path = dir.path().join("six.book");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(dir.path().join("damaged.book"), &bytes).unwrap();
    std::fs::write(dir.path().join("text.book"), "not a book\n").unwrap();
    for args in [
        &["book", "show", "damaged.book"][..],
        &["book", "fix", "text.book"],
        &["book", "show", "missing.book"],
        &["--book", "damaged.book", "engine", "--color", "B"],
        &["--book", "text.book", "gtp"],
    ] {
        let (status, out, err) = run(dir.path(), args);
        assert_eq!(status, 2, "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(".book"), "{args:?}: {err}");
    }
    // The damaged file is left as it was.
    assert_eq!(
        std::fs::read(dir.path().join("damaged.book")).unwrap(),
        bytes
    );
    let (status, _, err) = run(dir.path(), &["--book", "six.book", "--no-book", "gtp"]);
    assert_eq!(status, 2, "{err}");
}

#[test]
fn a_book_goes_to_edax_and_back() {
    let dir = Scratch::new("edax");
    let learn = [
        "book",
        "learn",
        "eight.book",
        "--depth",
        "1",
        "--exact-empties",
        "0",
        "--deviation",
        "3",
        "--margin",
        "1",
        "--threads",
        "1",
    ];
    assert_eq!(run(dir.path(), &learn).0, 0);
    let (status, out, err) = run(dir.path(), &["book", "export", "eight.book", "eight.dat"]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("written to eight.dat"), "{out}");
    let (status, _, err) = run(dir.path(), &["book", "import", "eight.dat", "back.book"]);
    assert_eq!(status, 0, "{err}");
    // The same values and games, move for move, along the book's best line; a position that
    // is its own image under a symmetry (the start) may name its moves by their images.
    let mut moves = String::new();
    for _ in 0..4 {
        let show = |book: &str| run(dir.path(), &["book", "show", book, &moves]).1;
        let ours = show("eight.book");
        let rows = |shown: &str| -> Vec<String> {
            shown
                .lines()
                .map(|l| match l.split_once(' ') {
                    Some((first, rest)) if first.len() == 2 => rest.to_string(),
                    _ => l.to_string(),
                })
                .collect()
        };
        assert!(ours.lines().count() >= 4, "after {moves:?}: {ours}");
        assert_eq!(rows(&show("back.book")), rows(&ours), "after {moves:?}");
        moves.push_str(ours.lines().nth(3).unwrap().split(' ').next().unwrap());
    }
    // Edax's format is 8x8 only; a file that is not Edax's is refused.
    assert_eq!(run(dir.path(), LEARN_6X6).0, 0);
    let (status, _, err) = run(dir.path(), &["book", "export", "six.book", "six.dat"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("8x8"), "{err}");
    assert!(!dir.path().join("six.dat").exists());
    let (status, _, err) = run(dir.path(), &["book", "import", "six.book", "x.book"]);
    assert_eq!(status, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn the_engine_plays_from_a_book_given_and_not_with_no_book() {
    let dir = Scratch::new("engine");
    assert_eq!(run(dir.path(), LEARN_6X6).0, 0);
    let (_, shown, _) = run(dir.path(), &["book", "show", "six.book"]);
    let best = shown
        .lines()
        .nth(3)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    // GTP on 6x6: Black's first move is the book's best, every time; without the book it
    // comes from the search. (The unit tests of `players` show the book's move winning over
    // the search's; this shows the option reaching the engine.)
    let gtp = |extra: &[&str]| {
        let mut args = extra.to_vec();
        args.extend_from_slice(&["gtp", "--depth", "1"]);
        let out = othello()
            .current_dir(dir.path())
            .args(&args)
            .write_stdin("boardsize 6\nclear_board\ngenmove b\nquit\n")
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .filter_map(|l| l.strip_prefix("= "))
            .next_back()
            .unwrap_or_else(|| panic!("{text}"))
            .to_lowercase()
    };
    for _ in 0..3 {
        assert_eq!(gtp(&["--book", "six.book"]), best.to_lowercase());
    }
    let searched = gtp(&["--no-book"]);
    assert_eq!(searched.len(), 2, "{searched}");
}

/// A book of 8x8 learned in a moment, `eight.book` in `dir`, and its export `eight.dat`.
fn eight_and_its_export(dir: &Path) {
    let learn = [
        "book",
        "learn",
        "eight.book",
        "--depth",
        "1",
        "--exact-empties",
        "0",
        "--deviation",
        "2",
        "--margin",
        "1",
        "--threads",
        "1",
    ];
    assert_eq!(run(dir, &learn).0, 0);
    let (status, _, err) = run(dir, &["book", "export", "eight.book", "eight.dat"]);
    assert_eq!(status, 0, "{err}");
}

/// Runs `args`, which must be refused in one line naming `named` with status 2, and leave the
/// file `kept` as it was.
fn refused(dir: &Path, args: &[&str], named: &str, kept: &str) {
    let before = std::fs::read(dir.join(kept)).unwrap();
    let (status, out, err) = run(dir, args);
    assert_eq!(status, 2, "{args:?}: {err}");
    assert_eq!(out, "", "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(named), "{args:?}: {err}");
    assert_eq!(std::fs::read(dir.join(kept)).unwrap(), before, "{args:?}");
}

#[test]
fn export_and_import_write_over_no_input_and_no_other_kind_of_file() {
    let dir = Scratch::new("over");
    let d = dir.path();
    eight_and_its_export(d);
    assert_eq!(run(d, LEARN_6X6).0, 0);
    std::fs::write(d.join("notes.txt"), "my notes\n").unwrap();
    // Over the input itself, under any spelling, even with --force.
    refused(
        d,
        &["book", "export", "eight.book", "eight.book"],
        "eight.book",
        "eight.book",
    );
    refused(
        d,
        &["book", "export", "eight.book", "./eight.book", "--force"],
        "eight.book",
        "eight.book",
    );
    refused(
        d,
        &["book", "import", "eight.dat", "eight.dat"],
        "eight.dat",
        "eight.dat",
    );
    // Over a file of another kind: text, our book for export, Edax's for import, a book of
    // another board.
    refused(
        d,
        &["book", "export", "eight.book", "notes.txt"],
        "notes.txt",
        "notes.txt",
    );
    refused(
        d,
        &["book", "export", "six.book", "eight.dat"],
        "six.book",
        "eight.dat",
    );
    refused(
        d,
        &["book", "import", "eight.dat", "notes.txt"],
        "notes.txt",
        "notes.txt",
    );
    refused(
        d,
        &["book", "import", "eight.dat", "six.book"],
        "six.book",
        "six.book",
    );
    std::fs::copy(d.join("eight.book"), d.join("copy.book")).unwrap();
    refused(
        d,
        &["book", "export", "eight.book", "copy.book"],
        "copy.book",
        "copy.book",
    );
    // Over a file of the kind written: replaced.
    let (status, _, err) = run(d, &["book", "export", "eight.book", "eight.dat"]);
    assert_eq!(status, 0, "{err}");
    let (status, _, err) = run(d, &["book", "import", "eight.dat", "copy.book"]);
    assert_eq!(status, 0, "{err}");
    // --force replaces anything but an input.
    let (status, _, err) = run(d, &["book", "export", "eight.book", "notes.txt", "--force"]);
    assert_eq!(status, 0, "{err}");
    let (status, _, err) = run(d, &["book", "import", "eight.dat", "six.book", "--force"]);
    assert_eq!(status, 0, "{err}");
    let (_, shown, _) = run(d, &["book", "show", "six.book"]);
    assert!(shown.starts_with("(b -------- "), "{shown}");
}

/// The options of the learners that share one 4x4 book, each below its own line.
fn learn_4x4<'a>(book: &'a str, moves: &'a str) -> Vec<&'a str> {
    vec![
        "book",
        "learn",
        book,
        "--rows",
        "4",
        "--cols",
        "4",
        "--depth",
        "2",
        "--exact-empties",
        "6",
        "--deviation",
        "3",
        "--margin",
        "4",
        "--threads",
        "1",
        "--moves",
        moves,
    ]
}

#[test]
fn a_book_is_learned_or_fixed_by_one_run_at_a_time() {
    let dir = Scratch::new("locked");
    let d = dir.path();
    assert_eq!(run(d, &learn_4x4("c.book", "c4d4")).0, 0);
    let before = std::fs::read(d.join("c.book")).unwrap();
    let held =
        othello::files::FileLock::try_take(&d.join("c.book"), othello::files::LockKind::Exclusive)
            .unwrap()
            .unwrap();
    for args in [learn_4x4("c.book", "c4d2"), vec!["book", "fix", "c.book"]] {
        let (status, out, err) = run(d, &args);
        assert_eq!(status, 1, "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("c.book: another"), "{args:?}: {err}");
    }
    drop(held);
    assert_eq!(std::fs::read(d.join("c.book")).unwrap(), before);
    assert_eq!(run(d, &["book", "fix", "c.book"]).0, 0);
}

#[test]
fn two_learners_started_together_lose_nothing() {
    let dir = Scratch::new("two");
    let d = dir.path();
    let (a, b) = ("c4d4", "c4d2");
    // What each makes alone, and the two one after the other (in either order: the same).
    let alone = |moves: &str| {
        let name = format!("alone-{moves}.book");
        assert_eq!(run(d, &learn_4x4(&name, moves)).0, 0);
        std::fs::read(d.join(name)).unwrap()
    };
    let (only_a, only_b) = (alone(a), alone(b));
    std::fs::copy(d.join(format!("alone-{a}.book")), d.join("both.book")).unwrap();
    assert_eq!(run(d, &learn_4x4("both.book", b)).0, 0);
    let both = std::fs::read(d.join("both.book")).unwrap();
    assert!(both != only_a && both != only_b);
    let mut refusals = 0;
    for try_ in 0..25 {
        for (first, second) in [(a, b), (b, a)] {
            let book = format!("c{try_}-{first}.book");
            let spawn = |moves: &str| {
                use assert_cmd::cargo::CommandCargoExt;
                std::process::Command::cargo_bin("othello")
                    .unwrap()
                    .current_dir(d)
                    .args(learn_4x4(&book, moves))
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            };
            let (one, two) = (spawn(first), spawn(second));
            let (one, two) = (
                one.wait_with_output().unwrap(),
                two.wait_with_output().unwrap(),
            );
            let codes = (one.status.code(), two.status.code());
            let text = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
            let kept = std::fs::read(d.join(&book)).unwrap();
            match codes {
                (Some(0), Some(0)) => assert!(kept == both, "try {try_}: a learner's work is lost"),
                (Some(0), Some(1)) => {
                    assert!(text(&two).contains("another"), "{}", text(&two));
                    assert!(
                        kept == if first == a {
                            only_a.clone()
                        } else {
                            only_b.clone()
                        }
                    );
                    refusals += 1;
                }
                (Some(1), Some(0)) => {
                    assert!(text(&one).contains("another"), "{}", text(&one));
                    assert!(
                        kept == if second == a {
                            only_a.clone()
                        } else {
                            only_b.clone()
                        }
                    );
                    refusals += 1;
                }
                _ => panic!("try {try_}: {codes:?}: {} {}", text(&one), text(&two)),
            }
        }
    }
    eprintln!("{refusals} of 50 tries had a learner refused");
}

/// `--deviation 0`: the book of the start alone, one position.
const ONE_POSITION: &[&str] = &[
    "book",
    "learn",
    "one.book",
    "--deviation",
    "0",
    "--depth",
    "1",
    "--threads",
    "1",
];

#[test]
fn a_signal_stops_a_learner_at_once_and_a_second_does_not_lose_the_book() {
    use assert_cmd::cargo::CommandCargoExt;
    use std::io::BufRead;
    use std::time::{Duration, Instant};
    let dir = Scratch::new("signal");
    let d = dir.path();
    assert_eq!(run(d, ONE_POSITION).0, 0);
    // Searches of depth 30 from the start: far longer than the test, unless stopped.
    let mut learner = std::process::Command::cargo_bin("othello")
        .unwrap()
        .current_dir(d)
        .args([
            "book",
            "learn",
            "one.book",
            "--deviation",
            "4",
            "--depth",
            "30",
        ])
        .args(["--exact-empties", "0", "--threads", "1"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (lines, heard) = std::sync::mpsc::channel();
    let stderr = learner.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let _ = lines.send((Instant::now(), line.unwrap()));
        }
    });
    std::thread::sleep(Duration::from_millis(1500));
    let pid = learner.id() as i32;
    let sent = Instant::now();
    unsafe { libc::kill(pid, libc::SIGINT) };
    let (at, first) = heard
        .recv_timeout(Duration::from_secs(5))
        .expect("a line at once");
    assert!(
        at - sent < Duration::from_millis(500),
        "{:?}: {first}",
        at - sent
    );
    assert!(first.contains("saving the book"), "{first}");
    // A second signal while it stops: the book is saved all the same.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = learner.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = learner.kill();
            panic!("the learner did not stop within 10 s of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let rest: Vec<String> = heard.try_iter().map(|(_, l)| l).collect();
    assert_eq!(status.code(), Some(130), "{rest:?}");
    assert!(
        rest.last().is_some_and(|l| l.contains("the book is saved")),
        "{rest:?}"
    );
    let (status, shown, err) = run(d, &["book", "show", "one.book"]);
    assert_eq!(status, 0, "{err}");
    assert!(
        shown.lines().nth(1).unwrap().starts_with("Black to move: "),
        "{shown}"
    );
}

#[test]
fn every_error_of_a_book_file_names_it() {
    let dir = Scratch::new("named");
    let d = dir.path();
    eight_and_its_export(d);
    for (args, named) in [
        (
            &["book", "export", "eight.book", "nowhere/x.dat"][..],
            "nowhere/x.dat",
        ),
        (
            &["book", "import", "eight.dat", "nowhere/x.book"],
            "nowhere/x.book",
        ),
        (
            &["book", "import", "nowhere/x.dat", "x.book"],
            "nowhere/x.dat",
        ),
        (&["book", "fix", "nowhere/x.book"], "nowhere/x.book"),
        (
            &[
                "book",
                "learn",
                "nowhere/x.book",
                "--rows",
                "4",
                "--cols",
                "4",
            ],
            "nowhere/x.book",
        ),
    ] {
        let (status, _, err) = run(d, args);
        assert_ne!(status, 0, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
    }
    // A file that is not a regular one is not written, and is named.
    let (status, _, err) = run(d, &["book", "export", "eight.book", "/dev/full", "--force"]);
    assert_ne!(status, 0);
    assert!(err.contains("/dev/full"), "{err}");
}

#[test]
fn an_endless_file_is_refused_by_its_first_bytes() {
    let dir = Scratch::new("endless");
    let d = dir.path();
    for (args, why) in [
        (&["--book", "/dev/zero", "gtp"][..], "not an opening book"),
        (&["book", "show", "/dev/zero"], "not an opening book"),
        (
            &["book", "import", "/dev/zero", "x.book"],
            "not an Edax book",
        ),
    ] {
        let started = std::time::Instant::now();
        let (status, _, err) = run(d, args);
        assert_eq!(status, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero") && err.contains(why),
            "{args:?}: {err}"
        );
        assert!(started.elapsed().as_secs_f64() < 5.0, "{args:?}");
    }
}

#[test]
fn a_book_for_another_game_is_said_to_go_unused_once() {
    let dir = Scratch::new("unused");
    let d = dir.path();
    assert_eq!(run(d, LEARN_6X6).0, 0);
    let gtp = |extra: &[&str], input: &str| {
        let out = othello()
            .current_dir(d)
            .args(extra)
            .args(["gtp", "--depth", "1"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // On 8x8, then under the simple rules on 6x6: one line each, however many moves.
    let moves = "genmove b\ngenmove w\ngenmove b\nquit\n";
    let err = gtp(&["--book", "six.book"], moves);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("six.book") && err.contains("6x6") && err.contains("8x8"),
        "{err}"
    );
    let err = gtp(
        &["--book", "six.book", "--rules", "simple"],
        &format!("boardsize 6\nclear_board\n{moves}"),
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("six.book") && err.contains("simple"), "{err}");
    // On its own board and rules: not a word.
    let err = gtp(
        &["--book", "six.book"],
        &format!("boardsize 6\nclear_board\n{moves}"),
    );
    assert_eq!(err, "");
}

#[test]
fn a_book_of_one_position_is_written_read_and_counted_in_the_singular() {
    let dir = Scratch::new("one");
    let d = dir.path();
    let (status, out, err) = run(d, ONE_POSITION);
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        "0 games, 1 position added, 1 in the book; nothing left to explore\n"
    );
    let (status, out, err) = run(d, &["book", "fix", "one.book"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(out, "0 of 1 position changed\n");
    let (status, out, err) = run(d, &["book", "export", "one.book", "one.dat"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(out, "1 position of ours, 1 of Edax's written to one.dat\n");
    let (status, out, err) = run(d, &["book", "import", "one.dat", "back.book"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        "1 position of Edax's, 1 of ours written to back.book\n"
    );
}

/// `book add` takes the games of a move-list file (a game a line) and of a GGF file, leaving
/// out and counting those of another game; `merge` joins two books; `prune` cuts one down to
/// its first moves without changing the start's value; each refuses what it cannot use in
/// one line.
#[test]
fn books_are_added_to_merged_and_pruned() {
    let dir = Scratch::new("edit");
    let six = ["--rows", "6", "--cols", "6"];
    let quick = ["--depth", "2", "--exact-empties", "10", "--threads", "1"];
    std::fs::write(
        dir.path().join("games.txt"),
        "# two 6x6 games\nc2 b2 b3\nd5e5f5\n\n",
    )
    .unwrap();
    // A GGF file: a 6x6 game, an anti game and an 8x8 one, left out.
    std::fs::write(
        dir.path().join("games.ggf"),
        "(;GM[Othello]TY[6]BO[6 ------ ------ --OX-- --XO-- ------ ------ *]B[c2]W[b2];)\n\
         (;GM[Othello]TY[6a]BO[6 ------ ------ --OX-- --XO-- ------ ------ *]B[c2];)\n\
         (;GM[Othello]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- \
         -------- -------- *]B[f5];)\n",
    )
    .unwrap();
    let args = |verb: &str, book: &str, files: &[&str]| -> Vec<String> {
        let mut a = vec!["book".to_string(), verb.to_string(), book.to_string()];
        a.extend(files.iter().map(|f| f.to_string()));
        a.extend(six.iter().chain(quick.iter()).map(|s| s.to_string()));
        a
    };
    let strs = |a: &[String]| a.iter().map(String::as_str).collect::<Vec<_>>().join(" ");
    let go = |a: Vec<String>| {
        let v: Vec<&str> = a.iter().map(String::as_str).collect();
        let r = run(dir.path(), &v);
        (r, strs(&a))
    };
    let ((status, out, err), cmd) = go(args("add", "a.book", &["games.txt"]));
    assert_eq!(status, 0, "{cmd}: {err}");
    // The second game begins as the first turned half round: its first two positions are
    // the first game's.
    assert!(
        out.starts_with("2 games, 5 positions added, 5 in the book"),
        "{out}"
    );
    let ((status, out, err), _) = go(args("add", "b.book", &["games.ggf"]));
    assert_eq!(status, 0, "{err}");
    assert!(out.starts_with("1 game, 3 positions added"), "{out}");
    assert_eq!(
        err.trim(),
        "othello: 2 games left out: for another board, rules or start than the book's"
    );
    // A move that is not legal: status 2, one line naming the game and the move.
    std::fs::write(dir.path().join("bad.txt"), "c2 b2\nc2 c2\n").unwrap();
    let ((status, _, err), _) = go(args("add", "a.book", &["bad.txt"]));
    assert_eq!((status, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("game 2, move 2 (c2)"), "{err}");
    let (status, out, err) = run(dir.path(), &["book", "merge", "a.book", "b.book"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(out, "0 positions added, 0 changed, 5 in the book\n");
    // Another board's book is refused, and a book is not merged into itself.
    let (status, _, _) = run(
        dir.path(),
        &[
            "book",
            "learn",
            "e.book",
            "--depth",
            "1",
            "--games",
            "1",
            "--threads",
            "1",
            "--exact-empties",
            "0",
            "--rows",
            "4",
            "--cols",
            "4",
        ],
    );
    assert_eq!(status, 0);
    let (status, _, err) = run(dir.path(), &["book", "merge", "a.book", "e.book"]);
    assert_eq!((status, err.lines().count()), (2, 1), "{err}");
    let (status, _, err) = run(dir.path(), &["book", "merge", "a.book", "./a.book"]);
    assert_eq!((status, err.lines().count()), (2, 1), "{err}");
    let value = |book: &str| {
        let (_, shown, _) = run(dir.path(), &["book", "show", book]);
        shown.lines().nth(1).unwrap_or_default().to_string()
    };
    let before = value("a.book");
    let (status, out, err) = run(dir.path(), &["book", "prune", "a.book", "--plies", "2"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(out, "3 positions dropped, 2 kept\n");
    assert_eq!(value("a.book").split(';').next(), before.split(';').next());
}
