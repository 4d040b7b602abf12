//! `play`'s saved games, read by `load FILE` (a position string line and move list lines); a
//! game loaded, saved and loaded again is the same game. The first byte picks the board and
//! rules of the game.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::start::Start;
use othello::notation::MoveList;
use othello::play::{Options, Session};
use othello::rules::{RuleSet, Setup, Shape, Variant};

const BOARDS: [(usize, usize); 4] = [(8, 8), (4, 4), (6, 6), (10, 12)];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let (rows, cols) = BOARDS[usize::from(choice & 3)];
    let variant = Variant {
        rule_set: if choice & 4 == 0 {
            RuleSet::Full
        } else {
            RuleSet::Simple
        },
        place_anywhere: choice & 8 != 0,
        misere: choice & 16 != 0,
    };
    let options = Options {
        start: Start::Setup(Setup::standard(Shape::new(rows, cols).unwrap(), variant)),
        moves: MoveList::default(),
        computer: None,
        config: common::quick(),
        colour: false,
        thinking: false,
        book: None,
    };
    let mut session = Session::new(options).expect("a standard start");
    let file = common::scratch_file("save", input);
    let loaded = session.handle(&format!("load {}", file.display()));
    if loaded.first().is_some_and(|l| l.starts_with("Loaded")) {
        let (moves, board) = (session.moves_text(), session.handle(""));
        let saved = session.handle(&format!("save {}", file.display()));
        assert!(saved[0].starts_with("Saved"), "{saved:?}");
        let again = session.handle(&format!("load {}", file.display()));
        assert!(again[0].starts_with("Loaded"), "{again:?}");
        assert_eq!(session.moves_text(), moves);
        assert_eq!(session.handle(""), board);
    }
    let _ = std::fs::remove_file(file);
});
