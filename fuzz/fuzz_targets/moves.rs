//! Move lists (`f5d6c3`, `F5 D6 PA`) and squares: what reads writes back as itself, in both
//! the compact and the spaced form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::notation::MoveList;
use othello::rules::{Move, Square};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(square) = text.parse::<Square>() {
        let again: Square = square.to_string().parse().expect("a square reads back");
        assert_eq!(again, square);
        assert_eq!(format!("{square:#}").parse::<Square>(), Ok(square));
    }
    if let Ok(played) = text.parse::<Move>() {
        assert_eq!(played.to_string().parse::<Move>().ok(), Some(played));
    }
    if let Ok(list) = text.parse::<MoveList>() {
        for written in [list.to_string(), format!("{list:#}")] {
            let again: MoveList = written.parse().expect("a written list reads back");
            assert_eq!(again, list, "{written}");
        }
    }
});
