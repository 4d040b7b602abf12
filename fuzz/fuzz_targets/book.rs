//! Opening book files, as `--book FILE`, `book show` and the built-in book are read: never a
//! panic, and what reads writes back as itself. The first byte's low bit says whether the
//! target adds the checksum, so that the fuzzer reaches past it.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::opening::book::{checksum, from_bytes, to_bytes};

fuzz_target!(|data: &[u8]| {
    let Some(bytes) = common::checksummed(data, |b| checksum(b).to_le_bytes()) else {
        return;
    };
    if let Ok(book) = from_bytes(&bytes) {
        let again = from_bytes(&to_bytes(&book)).expect("a written book reads back");
        assert_eq!(again, book);
    }
});
