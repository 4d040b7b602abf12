//! Training data files, as `train fit` and `train test` read them: the header, the records,
//! and each record's position and sample.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::train::data;

fuzz_target!(|data: &[u8]| {
    let path = common::scratch_file("train", data);
    // At most a million records: a header may promise any number.
    if let Ok(records) = data::read_all(&[&path], |_| 1 << 20, |_| {}) {
        let board = records.board();
        // Every record read is whole: the bytes read are a whole number of records.
        assert!(data.len() >= records.len() * board.record_len());
        othello::with_bits!(board.shape, |B| {
            for record in records.iter() {
                let _ = record.position::<B>();
                let sample = record.to_sample();
                let mut bytes = Vec::new();
                sample.write(&mut bytes);
                assert_eq!(bytes.len(), board.record_len());
            }
        });
    }
    let _ = std::fs::remove_file(path);
});
