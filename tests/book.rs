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
