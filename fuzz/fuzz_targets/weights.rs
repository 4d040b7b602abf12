//! Weights files, as `--weights FILE` and the built-in weights are read: what reads writes back
//! as itself. The first byte's low bit says whether the target adds the checksum, so that the
//! fuzzer reaches past it.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::search::weights::{fnv1a, Weights};

fuzz_target!(|data: &[u8]| {
    let Some(bytes) = common::checksummed(data, |b| fnv1a(b).to_le_bytes()) else {
        return;
    };
    if let Ok(weights) = Weights::from_bytes(&bytes) {
        let again = Weights::from_bytes(&weights.to_bytes()).expect("written weights read back");
        assert_eq!(again, weights);
    }
});
