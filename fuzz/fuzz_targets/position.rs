//! Position strings (`(b -bw- ...)`): what reads writes back as itself, and sets up a game
//! under every rule variant without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::notation::PositionString;
use othello::rules::{Passes, RuleSet, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(position) = text.parse::<PositionString>() else {
        return;
    };
    let written = position.to_string();
    let again: PositionString = written.parse().expect("a written position reads back");
    assert_eq!(again, position, "{written}");
    assert_eq!(again.to_string(), written);
    assert_eq!(position.cells().len(), position.rows() * position.cols());
    for bits in 0..8u8 {
        let variant = Variant {
            rule_set: if bits & 1 == 0 {
                RuleSet::Full
            } else {
                RuleSet::Simple
            },
            place_anywhere: bits & 2 != 0,
            misere: bits & 4 != 0,
        };
        othello::with_bits!(position.shape(), |B| {
            let game = position
                .game::<B>(variant, Passes::Explicit)
                .expect("the board fits");
            let back = PositionString::from_position(&game.rules().geometry, game.start());
            assert_eq!(back, position);
        });
    }
});
