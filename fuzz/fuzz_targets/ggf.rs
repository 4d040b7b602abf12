//! GGF game records as NBoard sends them: what reads writes back as itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::protocols::nboard::{parse_ggf, GgfGame};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(game) = parse_ggf(text) {
        assert_eq!(game.cells.len(), game.size * game.size);
        let written = game.to_string();
        let again: GgfGame = written.parse().expect("a written record reads back");
        assert_eq!(again, game, "{written}");
    }
});
