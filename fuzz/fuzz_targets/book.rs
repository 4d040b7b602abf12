//! Opening book files, as `--book FILE`, `book show` and the built-in book are read: never a
//! panic, and what reads writes back as itself. The first byte's low bit says whether the
//! target adds the checksum, so that the fuzzer reaches past it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::opening::book::{checksum, from_bytes, to_bytes};

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let mut bytes = input.to_vec();
    if choice & 1 == 1 {
        bytes.extend_from_slice(&checksum(input).to_le_bytes());
    }
    if let Ok(book) = from_bytes(&bytes) {
        let again = from_bytes(&to_bytes(&book)).expect("a written book reads back");
        assert_eq!(again, book);
    }
});
