//! Weights files, as `--weights FILE` and the built-in weights are read: what reads writes back
//! as itself. The first byte's low bit says whether the target adds the checksum, so that the
//! fuzzer reaches past it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::search::weights::{fnv1a, Weights};

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let mut bytes = input.to_vec();
    if choice & 1 == 1 {
        bytes.extend_from_slice(&fnv1a(input).to_le_bytes());
    }
    if let Ok(weights) = Weights::from_bytes(&bytes) {
        let again = Weights::from_bytes(&weights.to_bytes()).expect("written weights read back");
        assert_eq!(again, weights);
    }
});
