//! Solve journals, as `solve --journal FILE` opens them (the file, or its sealed `.gz` part),
//! and the journal lines they hold: a line that reads writes back as itself. The first byte
//! picks the board and rules the journal is opened for, and which part holds the input.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::solve::JournalFile;
use othello::notation::JournalLine;
use othello::rules::{Bits, RuleSet, Rules, Shape, Variant};
use std::io::Write;
use std::path::Path;

const BOARDS: [(usize, usize); 4] = [(4, 4), (6, 6), (8, 8), (4, 5)];

fn open<B: Bits>(path: &Path, shape: Shape, variant: Variant) {
    let rules = Rules::<B>::new(shape, variant).expect("the board fits");
    let _ = JournalFile::open(path, &rules);
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    if let Ok(text) = std::str::from_utf8(input) {
        for line in text.lines() {
            if let Ok(parsed) = line.parse::<JournalLine>() {
                let written = parsed.to_string();
                let again: JournalLine = written.parse().expect("a written line reads back");
                assert_eq!(again.to_string(), written);
            }
        }
    }
    let (rows, cols) = BOARDS[usize::from(choice & 3)];
    let shape = Shape::new(rows, cols).expect("a board from the list");
    let variant = Variant {
        rule_set: if choice & 4 == 0 {
            RuleSet::Full
        } else {
            RuleSet::Simple
        },
        place_anywhere: choice & 8 != 0,
        misere: choice & 16 != 0,
    };
    let path = common::scratch_file("journal", b"");
    let sealed = Path::new(&format!("{}.gz", path.display())).to_path_buf();
    let _ = std::fs::remove_file(&sealed);
    if choice & 32 == 0 {
        std::fs::write(&path, input).expect("the scratch file can be written");
    } else {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(input).expect("memory never fails");
        std::fs::write(&sealed, gz.finish().expect("memory never fails")).expect("writable");
    }
    othello::with_bits!(shape, |B| open::<B>(&path, shape, variant));
    // A damaged journal is set aside as NAME.damaged (and its sealed part beside it).
    for leftover in [&path, &sealed] {
        let _ = std::fs::remove_file(leftover);
        let _ = std::fs::remove_file(format!("{}.damaged", leftover.display()));
    }
});
