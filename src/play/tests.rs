use super::files::MAX_FILE;
use super::*;
use crate::lines::LineReader;
use crate::notation::MoveList;
use crate::protocols::line::Sides;
use crate::rules::{Setup, Shape, Variant};
use crate::search::Config;
use crate::start::Start;
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

fn session(rows: usize, cols: usize, computer: Option<Sides>) -> Session {
    let shape = Shape::new(rows, cols).unwrap();
    Session::new(Options {
        start: Start::Setup(Setup::standard(shape, Variant::default())),
        moves: MoveList::default(),
        book: None,
        computer,
        config: Config::to_depth(2).with_hash_mb(1),
        colour: false,
        thinking: false,
    })
    .unwrap()
}

#[test]
fn moves_in_either_notation_and_refusals_say_why() {
    let mut s = session(8, 8, None);
    let out = s.handle("F5");
    assert_eq!(out[0], "Black plays f5, flipping e5.");
    assert!(out.last().unwrap().ends_with("White to move."), "{out:?}");
    let out = s.handle("6 4");
    assert_eq!(out[0], "White plays d6, flipping d5.", "{out:?}");
    assert_eq!(s.handle("d4"), ["d4 is occupied."]);
    assert_eq!(s.handle("a1"), ["a1 flips nothing."]);
    assert_eq!(s.handle("z9"), ["z9 is off the 8x8 board."]);
    assert_eq!(s.handle("9 9"), ["9 9 is off the 8x8 board."]);
    assert_eq!(
        s.handle("hello"),
        ["\"hello\" is not a move or a command (type help)."]
    );
    assert_eq!(s.moves_text(), "f5d6");
}

#[test]
fn undo_takes_back_the_computers_reply_too_and_redo_plays_again() {
    let mut s = session(6, 6, Some(Sides::White));
    s.greeting();
    let out = s.handle("c2");
    assert!(out[1].starts_with("White (computer) plays"), "{out:?}");
    assert_eq!(s.moves_text().len(), 4);
    let out = s.handle("undo");
    assert!(out[0].starts_with("Took back c2 "), "{out:?}");
    assert_eq!(s.moves_text(), "(none)");
    assert_eq!(s.handle("undo"), ["Nothing to take back."]);
    let out = s.handle("redo");
    assert_eq!(out[0], "Black plays c2, flipping c3.", "{out:?}");
    assert_eq!(s.moves_text().len(), 4);
    assert!(s.handle("hint")[0].starts_with("Hint: "));
}

#[test]
fn passes_and_the_end_are_said_in_words() {
    // The 4x4 sample game: black passes after white's d2, white wins 12-4.
    let mut s = session(4, 4, None);
    let mut all = Vec::new();
    for m in [
        "b1", "a1", "c4", "d4", "d3", "b4", "a4", "c1", "d1", "d2", "a3", "a2",
    ] {
        all.extend(s.handle(m));
    }
    assert!(all.contains(&"Black has no legal move and passes.".to_string()));
    assert!(
        all.last()
            .unwrap()
            .ends_with("Game over: White wins 12-4, by 8."),
        "{all:?}"
    );
    assert_eq!(s.moves_text(), "b1a1c4d4d3b4a4c1d1d2paa3a2");
    assert_eq!(s.handle("a1"), ["The game is over (new starts again)."]);
}

#[test]
fn commands_save_load_level_swap_resign_quit() {
    let dir = std::env::temp_dir().join(format!("othello-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    let path = file.to_str().unwrap();
    let mut s = session(8, 8, None);
    s.handle("f5");
    assert_eq!(
        s.handle(&format!("save {path}")),
        [format!("Saved to {path}.")]
    );
    s.handle("new");
    assert_eq!(s.moves_text(), "(none)");
    assert_eq!(
        s.handle(&format!("load {path}"))[0],
        format!("Loaded {path}.")
    );
    assert_eq!(s.moves_text(), "f5");
    assert!(s.handle("load /no/such/file")[0].starts_with("Cannot load"));
    // A file past the cap is refused whole, not read in part: the game in hand stays.
    let big = dir.join("big.txt");
    let mut text = "f5 ".repeat(MAX_FILE as usize / 3);
    text.push_str("d6 c3 d3 c4");
    std::fs::write(&big, text).unwrap();
    let big = big.to_str().unwrap();
    assert_eq!(
        s.handle(&format!("load {big}")),
        [format!(
            "Cannot load {big}: over 64 KiB, too large for a saved game."
        )]
    );
    assert_eq!(s.moves_text(), "f5");
    assert_eq!(
        s.handle("level 3"),
        ["The computer now searches 3 moves ahead."]
    );
    assert_eq!(s.handle("swap")[0], "The computer plays Black.");
    let out = s.handle("resign");
    assert_eq!(out[0], "White resigns; Black wins.");
    assert!(!s.is_over());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resign_ends_the_game_not_play() {
    let mut s = session(6, 6, Some(Sides::White));
    s.greeting();
    s.handle("c2");
    let out = s.handle("resign");
    assert_eq!(out[0], "Black resigns; White wins.", "{out:?}");
    assert!(
        out.last()
            .unwrap()
            .ends_with("Game over: Black resigned; White wins."),
        "{out:?}"
    );
    assert!(!s.is_over());
    // The game is over: no move, no hint, no second resignation; the computer does not move.
    let before = s.moves_text();
    assert_eq!(s.handle("b4"), ["The game is over (new starts again)."]);
    assert_eq!(s.handle("hint"), ["The game is over: no hint."]);
    assert_eq!(s.handle("resign"), ["The game is already over."]);
    assert!(s.handle("swap").last().unwrap().contains("resigned"));
    assert_eq!(s.moves_text(), before);
    // undo takes the resignation back; new starts again.
    s.handle("swap");
    let out = s.handle("undo");
    assert_eq!(out[0], "Black takes back the resignation.", "{out:?}");
    assert!(out.last().unwrap().ends_with("Black to move."), "{out:?}");
    s.handle("resign");
    assert_eq!(s.handle("new")[0], "New game.");
    assert!(s.handle("c2")[0].starts_with("Black plays c2"));
}

#[test]
fn level_alone_says_how_the_computer_searches() {
    let mut s = session(8, 8, None);
    assert_eq!(
        s.handle("level"),
        ["Level 2: the computer searches 2 moves ahead."]
    );
    s.handle("level 5");
    assert_eq!(
        s.handle("level"),
        ["Level 5: the computer searches 5 moves ahead."]
    );
    s.options.config.depth = None;
    s.options.config.move_time = Some(std::time::Duration::from_millis(1500));
    assert_eq!(
        s.handle("level"),
        ["The computer thinks for 1500ms a move (level N sets a depth)."]
    );
    assert_eq!(s.handle("level 3 4"), ["Give one level: level 6."]);
}

/// Ctrl-C (the SIGINT flag raised) while a hint is searched stops the hint; the game goes on.
/// While the computer thinks it ends play, which says so.
#[test]
fn ctrl_c_stops_a_hint_but_ends_play_while_the_computer_thinks() {
    let mut s = session(8, 8, Some(Sides::White));
    s.greeting();
    s.ctrl_c.store(true, Relaxed);
    assert_eq!(s.handle("hint"), ["Hint stopped."]);
    assert!(!s.is_over() && !s.ctrl_c_pressed() && !s.stopped_by_ctrl_c());
    assert!(s.handle("hint")[0].starts_with("Hint: "));
    s.ctrl_c.store(true, Relaxed);
    let out = s.handle("f5");
    assert_eq!(
        out[out.len() - 2..],
        ["Interrupted.", "Moves: f5"],
        "{out:?}"
    );
    assert!(s.is_over() && s.stopped_by_ctrl_c());
}

/// How play ends: quit or the end of input leave; Ctrl-C at the prompt is an interruption.
#[test]
fn run_tells_an_interruption_from_leaving() {
    struct Keys(Vec<Typed>);
    impl Keyboard for Keys {
        fn read(&mut self, _prompt: &str) -> io::Result<Typed> {
            Ok(self.0.pop().unwrap_or(Typed::End))
        }
    }
    let mut out = Vec::new();
    let mut keys = Keys(vec![Typed::Interrupted, Typed::Line("f5".into())]);
    let ending = run(session(8, 8, None), &mut keys, &mut out).unwrap();
    assert_eq!(ending, Ending::Interrupted);
    assert!(String::from_utf8(out).unwrap().ends_with("Moves: f5\n"));
    let mut keys = Keys(vec![Typed::Line("quit".into())]);
    let ending = run(session(8, 8, None), &mut keys, &mut Vec::new()).unwrap();
    assert_eq!(ending, Ending::Left);
    let ending = run(session(8, 8, None), &mut Keys(Vec::new()), &mut Vec::new()).unwrap();
    assert_eq!(ending, Ending::Left);
}

/// One typed line for the fuzz test: noise, long lines, moves and commands (never `save` or
/// `load`, which touch files, nor a deep `level`).
fn typed_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..64),
        prop::collection::vec(any::<u8>(), 4000..9000),
        "[a-zA-Z]{1,2}[0-9]{1,3}".prop_map(String::into_bytes),
        "[0-9]{1,3} [0-9]{1,3}".prop_map(String::into_bytes),
        "(undo|redo|hint|moves|new|swap|help|resign|level [0-3]|quit|\\?|  )"
            .prop_map(String::into_bytes),
    ]
    .prop_filter("no file commands", |line| {
        let text = String::from_utf8_lossy(line)
            .trim_start()
            .to_ascii_lowercase();
        !text.starts_with("save") && !text.starts_with("load")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any input, on any board: no panic, and play ends with the moves so far.
    #[test]
    fn any_input_ends_with_the_moves(
        rows in 3usize..=26,
        cols in 3usize..=26,
        lines in prop::collection::vec(typed_line(), 0..40),
    ) {
        let input = lines.join(&b'\n');
        let mut keyboard = LineReader::new(&input[..]);
        let mut output = Vec::new();
        run(session(rows, cols, Some(Sides::White)), &mut keyboard, &mut output).unwrap();
        let text = String::from_utf8(output).unwrap();
        let last = text.lines().last().unwrap_or_default();
        prop_assert!(last.starts_with("Moves: "), "{}", last);
    }
}

#[test]
fn colour_marks_discs_and_never_changes_the_letters() {
    let mut s = session(4, 4, None);
    s.options.colour = true;
    s.handle("new");
    let out = s.handle("b1");
    assert!(out.iter().any(|l| l.contains("\u{1b}[")), "{out:?}");
    let plain: Vec<String> = out.iter().map(|l| strip(l)).collect();
    let mut t = session(4, 4, None);
    assert_eq!(plain, t.handle("b1"));
}

/// `text` without its escape sequences.
fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A forced move is searched like any other: the hint and the computer's summary give its true
/// value, not `+0.0 discs (depth 0)`. The 4x4 sample game where Black's only move, a2, loses by 8.
#[test]
fn a_forced_move_has_a_true_value() {
    let shape = Shape::new(4, 4).unwrap();
    let options = |computer| Options {
        start: Start::Setup(Setup::standard(shape, Variant::default())),
        moves: "b1a1c4d4d3b4a4c1d1d2paa3".parse().unwrap(),
        book: None,
        computer,
        config: Config::default().with_hash_mb(1),
        colour: false,
        thinking: true,
    };
    let mut s = Session::new(options(None)).unwrap();
    assert_eq!(
        s.handle("hint"),
        ["Hint: a2, Black loses by 8 with perfect play."]
    );
    let mut s = Session::new(options(Some(Sides::Black))).unwrap();
    let out = s.greeting();
    let summary = out.iter().find(|l| l.starts_with("  (")).unwrap();
    assert!(
        summary.starts_with("  (Black loses by 8 with perfect play, "),
        "{out:?}"
    );
}

/// `hint N` lists the N best moves, best first, with exact values where the search reaches the
/// end: on 4x4 the start is lost by 8 whatever Black plays (the four moves are images of one
/// another), and after b1 a1 c4 White's two best, c1 and d4, win by 14.
#[test]
fn hint_n_lists_the_best_moves_with_their_values() {
    let mut s = session(4, 4, None);
    s.handle("level 20");
    let out = s.handle("hint 4");
    assert_eq!(out.len(), 4, "{out:?}");
    for (i, line) in out.iter().enumerate() {
        assert!(line.starts_with(&format!("Hint {}: ", i + 1)), "{out:?}");
        assert!(
            line.ends_with(", Black loses by 8 with perfect play."),
            "{out:?}"
        );
    }
    for m in ["b1", "a1", "c4"] {
        s.handle(m);
    }
    let out = s.handle("hint 2");
    assert_eq!(
        out,
        [
            "Hint 1: c1, White wins by 14 with perfect play.",
            "Hint 2: d4, White wins by 14 with perfect play."
        ],
    );
    assert_eq!(
        s.handle("hint 0"),
        ["hint N lists the N best moves, N from 1 to 64."]
    );
}

/// A typed line of moves plays them all, for whoever is to move, and stops at the first that
/// cannot be played; a typed pass is taken only as saying a forced pass happened.
#[test]
fn a_line_of_moves_is_played_and_a_pass_is_only_acknowledged() {
    let mut s = session(4, 4, None);
    let out = s.handle("b1a1c4");
    assert_eq!(out[0], "Black plays b1, flipping b2.", "{out:?}");
    assert_eq!(s.moves_text(), "b1a1c4");
    let out = s.handle("d4 d3 a1");
    assert!(out.contains(&"a1 is occupied.".to_string()), "{out:?}");
    assert_eq!(s.moves_text(), "b1a1c4d4d3");
    assert_eq!(
        s.handle("pass"),
        ["White has a move and cannot pass (a side with none is passed over by itself)."]
    );
    // Black has no move after d2: the game passes for it.
    s.handle("b4a4c1d1d2");
    assert!(s.moves_text().ends_with("d2pa"), "{}", s.moves_text());
    assert_eq!(s.handle("pa"), ["Noted: Black had no move and has passed."]);
}

/// `save` writes the saved-game form, GGF (asked for, or by a `.ggf` name) and a move list;
/// each loads back as the same game. A move list is refused for a game from its own position.
#[test]
fn a_game_saves_as_ggf_and_as_a_move_list_and_loads_back() {
    let dir = std::env::temp_dir().join(format!("othello-play-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = session(4, 4, None);
    s.handle("b1 a1 c4");
    for (name, form) in [
        ("a.ggf", ""),
        ("b.txt", " ggf"),
        ("c", " moves"),
        ("d", " game"),
    ] {
        let path = dir.join(name);
        let path = path.to_str().unwrap();
        assert_eq!(
            s.handle(&format!("save {path}{form}")),
            [format!("Saved to {path}.")]
        );
        let text = std::fs::read_to_string(path).unwrap();
        match form {
            "" | " ggf" => assert!(
                text.starts_with("(;GM[Othello]PC[othello]") && text.contains("]BO[4 "),
                "{text}"
            ),
            " moves" => assert_eq!(text, "b1a1c4\n"),
            _ => assert!(text.starts_with("(b "), "{text}"),
        }
        let mut other = session(4, 4, None);
        assert_eq!(
            other.handle(&format!("load {path}"))[0],
            format!("Loaded {path}.")
        );
        assert_eq!(other.moves_text(), "b1a1c4", "{name}{form}");
    }
    let path = dir.join("e");
    let path = path.to_str().unwrap();
    assert_eq!(
        s.handle(&format!("save {path} sgf")),
        [format!(
            "Cannot save to {path}: \"sgf\" is not a form: game, ggf or moves."
        )]
    );
    // Loaded from a GGF record, the game starts at its own position: no move list then.
    s.handle(&format!("load {}", dir.join("a.ggf").display()));
    assert_eq!(
        s.handle(&format!("save {path} moves")),
        [format!(
            "Cannot save to {path}: a move list cannot hold this game's start position; \
             save it as game or ggf."
        )]
    );
    assert!(!Path::new(path).exists());
    let mut wide = session(4, 5, None);
    let out = wide.handle(&format!("save {path} ggf"));
    assert!(out[0].contains("GGF holds square boards only"), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C while `hint N` searches stops the search in hand at once (level 30 would otherwise
/// search for hours); the game goes on and the next hint is whole.
#[test]
fn ctrl_c_stops_a_hint_of_several_moves_while_it_searches() {
    let mut s = session(8, 8, None);
    s.handle("level 30");
    let flag = Arc::clone(&s.ctrl_c);
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Relaxed);
    });
    assert_eq!(s.handle("hint 3"), ["Hint stopped."]);
    raiser.join().unwrap();
    assert!(!s.is_over() && !s.ctrl_c_pressed());
    s.handle("level 2");
    let out = s.handle("hint 2");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("Hint 1: "), "{out:?}");
}

#[test]
fn a_level_of_one_searches_one_move_ahead() {
    let mut s = session(8, 8, None);
    assert_eq!(
        s.handle("level 1"),
        ["The computer now searches 1 move ahead."]
    );
    assert_eq!(
        s.handle("level"),
        ["Level 1: the computer searches 1 move ahead."]
    );
    assert_eq!(
        s.handle("level 2"),
        ["The computer now searches 2 moves ahead."]
    );
}

/// A file's name with a space is given in quotes, double or single; a quote left open is
/// refused and nothing is written.
#[test]
fn save_and_load_take_a_quoted_name_with_spaces() {
    let dir = std::env::temp_dir().join(format!("othello-play-quotes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = session(4, 4, None);
    s.handle("b1 a1 c4");
    let path = dir.join("my game.ggf");
    let path = path.to_str().unwrap();
    assert_eq!(
        s.handle(&format!("save \"{path}\" moves")),
        [format!("Saved to {path}.")]
    );
    assert_eq!(std::fs::read_to_string(path).unwrap(), "b1a1c4\n");
    let mut other = session(4, 4, None);
    assert_eq!(
        other.handle(&format!("load '{path}'"))[0],
        format!("Loaded {path}.")
    );
    assert_eq!(other.moves_text(), "b1a1c4");
    let open = dir.join("open game");
    let out = s.handle(&format!("save \"{}", open.display()));
    assert_eq!(
        out,
        ["A quote is left open: put the file's name between two \" or two '."]
    );
    assert!(!open.exists());
    assert!(!dir.join("\"open").exists());
    assert_eq!(
        s.handle("save a b c d"),
        ["Name a file: save FILE [game|ggf|moves], load FILE (a name with spaces in quotes)."]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file made write-protected is not replaced, as `cp` would not; it is the owner's mode that
/// counts, so the test holds when run as root too.
#[test]
fn save_refuses_a_write_protected_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("othello-play-444-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kept.txt");
    std::fs::write(&path, "f5\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut s = session(8, 8, None);
    s.handle("f5 d6");
    let shown = path.display();
    assert_eq!(
        s.handle(&format!("save {shown} moves")),
        [format!(
            "Cannot save to {shown}: write-protected, so not replaced (make it writable first)."
        )]
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "f5\n");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(
        s.handle(&format!("save {shown} moves")),
        [format!("Saved to {shown}.")]
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "f5d6\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `load` reads a record as `analyze` does: a byte-order mark skipped, a stray byte or a move
/// out of turn in a GGF record refused where it stands, the game in hand kept.
#[test]
fn load_skips_a_byte_order_mark_and_refuses_a_broken_ggf_record() {
    let dir = std::env::temp_dir().join(format!("othello-play-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = session(8, 8, None);
    let bom = dir.join("bom.txt");
    std::fs::write(&bom, "\u{feff}f5 d6\n").unwrap();
    assert_eq!(
        s.handle(&format!("load {}", bom.display()))[0],
        format!("Loaded {}.", bom.display())
    );
    assert_eq!(s.moves_text(), "f5d6");
    let start = "---------------------------O*------*O---------------------------";
    for (text, why) in [
        (
            format!("(;GM[Othello]BO[8 {start} *]B[f5]\0W[d6]B[f4];)"),
            "GGF: character 91: \"\\0\" is not a property",
        ),
        (
            format!("(;GM[Othello]BO[8 {start} *]B[f5]B[d6];)"),
            "GGF: character 91: move 2 is Black's, but White is to move",
        ),
    ] {
        let path = dir.join("g.ggf");
        std::fs::write(&path, text).unwrap();
        let out = s.handle(&format!("load {}", path.display()));
        let said = format!("Cannot load {}: {why}", path.display());
        assert!(out[0].starts_with(&said), "{out:?}");
        assert_eq!(s.moves_text(), "f5d6");
    }
    let list = dir.join("list.txt");
    std::fs::write(&list, "f5 d6 c3 xx\n").unwrap();
    let out = s.handle(&format!("load {}", list.display()));
    assert!(
        out[0].contains("line 1: move 4 (character 10, \"x\")"),
        "{out:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// In the book, `hint`, `hint 1` and `hint N` give the book's moves and values, labelled as
/// the book's, with the book's line after each, and the named opening a move reaches or is on
/// the way to; out of it, `hint N` labels each value with its depth.
#[test]
fn hints_label_the_book_and_the_depth() {
    let book = crate::opening::book::built_in().expect("the built-in book");
    let mut s = Session::new(Options {
        start: Start::Setup(Setup::standard(Shape::STANDARD, Variant::default())),
        moves: "f5d6c3d3c4".parse().unwrap(),
        book: Some(crate::players::BookUse::new(book, 0, 0)),
        computer: None,
        config: Config::to_depth(4).with_hash_mb(1).with_threads(1),
        colour: false,
        thinking: false,
    })
    .unwrap();
    let one = s.handle("hint");
    assert_eq!(one.len(), 1, "{one:?}");
    assert_eq!(
        s.handle("hint 1"),
        [one[0].replacen("Hint: ", "Hint 1: ", 1)]
    );
    assert!(one[0].contains(" (book; then "), "{one:?}");
    // The book holds three moves here: two linked, and the leaf; `hint 4` lists those three.
    let three = s.handle("hint 4");
    assert_eq!(three.len(), 3, "{three:?}");
    assert_eq!(three[0], one[0].replacen("Hint: ", "Hint 1: ", 1));
    assert!(
        three[2].ends_with("(book)."),
        "the leaf has no line: {three:?}"
    );
    for line in &three {
        assert!(line.contains(" discs for White (book"), "{three:?}");
    }
    // A move that reaches a named opening, or is on the way to one, says which.
    s.handle("new");
    s.handle("f5d6c3d3");
    assert!(s.handle("hint")[0].starts_with("Hint: c4 (Tiger), "));
    s.handle("new");
    s.handle("f5d6c3");
    let toward = s.handle("hint 2");
    assert!(toward.iter().any(|l| l.contains(" (toward ")), "{toward:?}");
    s.handle("new");
    s.handle("f5d6c3d3c4f4f6f3e6e7c6d7e3");
    let listed = s.handle("hint 2");
    assert_eq!(listed.len(), 2, "{listed:?}");
    for line in &listed {
        assert!(
            line.contains(" discs for White (depth 4; then "),
            "{listed:?}"
        );
    }
}

/// A value that rounds to nothing reads `+0.0`, never `-0.0`.
#[test]
fn a_value_near_zero_has_no_minus_sign() {
    use super::text::{value_text, Label};
    use crate::rules::Color;
    assert_eq!(
        value_text(Color::Black, -4, Label::Depth(6)),
        "+0.0 discs for Black (depth 6)"
    );
    assert_eq!(
        value_text(Color::White, -5, Label::Book),
        "-0.1 discs for White (book)"
    );
    assert_eq!(
        value_text(Color::White, 1250, Label::Depth(3)),
        "+12.5 discs for White (depth 3)"
    );
}

/// A GGF record loaded and saved again keeps its players, date, type and other properties; a
/// game of the program's own is saved with the program, the date, the players, GGS's game type
/// and, once it is over, the result for Black. A file of several games loads its first and
/// says so.
#[test]
fn a_ggf_record_keeps_its_properties_and_a_new_one_gets_the_usual_ones() {
    let dir = std::env::temp_dir().join(format!("othello-play-ggs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";
    let loaded = dir.join("in.ggf");
    std::fs::write(
        &loaded,
        format!(
            "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alpha]PW[beta]TY[8]RE[?]\
             BO[{board}]B[f5//1.20]W[d6/-1.50/0.80];)\n(;GM[Othello]BO[{board}]B[d3];)\n"
        ),
    )
    .unwrap();
    let mut s = session(8, 8, None);
    let loaded = loaded.to_str().unwrap();
    assert_eq!(
        s.handle(&format!("load {loaded}"))[0],
        format!("Loaded {loaded} (the first of 2 games).")
    );
    s.handle("c3");
    let saved = dir.join("out.ggf");
    let saved = saved.to_str().unwrap();
    s.handle(&format!("save {saved}"));
    let text = std::fs::read_to_string(saved).unwrap();
    assert!(
        text.starts_with(
            "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alpha]PW[beta]TY[8]RE[?]BO[8 "
        ),
        "{text}"
    );
    assert!(text.ends_with("B[f5]W[d6]B[c3];)\n"), "{text}");

    let mut own = session(4, 4, None);
    own.handle("b1a1c4d4d3b4a4c1d1d2a3a2");
    let path = dir.join("own.ggf");
    let path = path.to_str().unwrap();
    own.handle(&format!("save {path}"));
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("(;GM[Othello]PC[othello]DT[20"), "{text}");
    assert!(text.contains("]TY[4]RE[-8.000]BO[4 "), "{text}");
    assert!(!text.contains("PB[othello]"), "{text}");
    let reread: crate::notation::GgfGame = text.trim_end().parse().unwrap();
    assert_eq!(reread.property("RE"), Some("-8.000"));
    std::fs::remove_dir_all(&dir).unwrap();
}
