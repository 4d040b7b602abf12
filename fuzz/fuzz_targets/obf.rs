//! OBF lines (the FFO test files): what reads writes back as itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::notation::Obf;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        if let Ok(obf) = line.parse::<Obf>() {
            let written = obf.to_string();
            let again: Obf = written.parse().expect("a written OBF line reads back");
            assert_eq!(again, obf, "{written}");
        }
    }
});
