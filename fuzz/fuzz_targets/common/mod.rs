//! What the targets share: lines cut as the program cuts them, a quick search configuration,
//! a file's bytes with its checksum made right, and a scratch file for the readers that only
//! take a path.
#![allow(dead_code)]

use othello::lines::{LineReader, Unreadable};
use othello::search::{Config, Evaluation};
use std::path::PathBuf;
use std::time::Duration;

/// Every line of `data` as the protocols read it (bounded, `Err` for a line that is not text),
/// handed to `f` until it returns `false`. Returns the number of lines read.
pub fn each_line(data: &[u8], mut f: impl FnMut(Result<&str, Unreadable>) -> bool) -> usize {
    let mut reader = LineReader::new(data);
    let mut count = 0;
    while let Ok(Some(line)) = reader.next_line() {
        count += 1;
        if !f(line) {
            break;
        }
    }
    count
}

/// A search that answers in well under a millisecond on a small board, so that a move the
/// program makes costs the fuzzer little; the move time bounds the largest boards.
pub fn quick() -> Config {
    Config::default()
        .with_limits(Some(1), Some(Duration::from_millis(20)))
        .with_hash_mb(1)
        .with_eval(Evaluation::Classic)
}

/// The input after its first byte, with `sum` of it appended when that byte's low bit is set,
/// so that a target reaches past a file's checksum. `None` for an empty input.
pub fn checksummed<const N: usize>(data: &[u8], sum: impl Fn(&[u8]) -> [u8; N]) -> Option<Vec<u8>> {
    let (&choice, input) = data.split_first()?;
    let mut bytes = input.to_vec();
    if choice & 1 == 1 {
        bytes.extend_from_slice(&sum(input));
    }
    Some(bytes)
}

/// The built-in opening book at margin 0, as the engine plays it by default.
pub fn book() -> Option<othello::players::BookUse> {
    othello::opening::book::built_in().map(|b| othello::players::BookUse::new(b, 0, 1))
}

/// A file of this process (libFuzzer's workers are processes) in memory, holding `bytes`, for
/// a reader that takes a path.
pub fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let path = dir.join(format!("othello-fuzz-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("the scratch file can be written");
    path
}
