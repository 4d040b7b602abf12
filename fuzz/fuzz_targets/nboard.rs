//! NBoard: a session carrying out each input line as `othello nboard` does (GGF records,
//! moves, hints, `go`); every `===` answer reads back as itself, and so does one on the input.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::protocols::nboard::{Chosen, Session, Settings};
use othello::rules::{RuleSet, Variant};

/// A `===` answer read back, written again and read again: the move and evaluation hold.
fn round_trip(text: &str) {
    if let Ok(chosen) = text.parse::<Chosen>() {
        let again: Chosen = chosen.to_string().parse().expect("an answer reads back");
        assert_eq!(
            (again.played, again.eval),
            (chosen.played, chosen.eval),
            "{text:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let variant = Variant {
        rule_set: if choice & 1 == 0 {
            RuleSet::Full
        } else {
            RuleSet::Simple
        },
        place_anywhere: choice & 2 != 0,
        misere: choice & 4 != 0,
    };
    let mut session = Session::new(Settings {
        variant,
        config: common::quick(),
        book: common::book(),
    });
    common::each_line(input, |line| {
        let Ok(text) = line else {
            return true;
        };
        round_trip(text);
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let go_on = session
            .handle(text, &mut out, &mut notes)
            .expect("memory never fails");
        let out = String::from_utf8(out).expect("the engine writes text");
        let notes = String::from_utf8(notes).expect("notes are text");
        assert!(notes.lines().count() <= 2, "{notes:?}");
        // At most a line per legal move (a hint) and the status lines around them.
        assert!(out.lines().count() <= 4 + 26 * 26, "{out:?}");
        for answer in out.lines().filter(|l| l.starts_with("===")) {
            assert!(answer.parse::<Chosen>().is_ok(), "{answer:?}");
            round_trip(answer);
        }
        go_on
    });
});
