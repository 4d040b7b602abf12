//! The result of one job of a split solve, as `--merge` reads it: a result that reads writes
//! back as itself, and a merge over it (every other job's result in place) ends in a value, a
//! next round or a one-line refusal, never a panic. When the first byte's low bit is set, the
//! input gets the check line a result ends with, so that the fuzzer reaches past it.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::solve::work::{self, Batch, JobOptions, JobResult};
use othello::interrupt::Interrupt;
use othello::start::Start;
use othello::notation::MoveList;
use othello::rules::{Color, RuleSet, Setup, Shape, Variant};
use othello::search::{Config, Evaluation, RootMoves};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A 4x4 work folder of this process, split and every round-1 job solved once.
fn folder() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::scratch_file("result-dir", b"");
        let _ = std::fs::remove_file(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        let start = Start::Setup(Setup {
            shape: Shape::new(4, 4).expect("a board"),
            variant: Variant {
                rule_set: RuleSet::Full,
                place_anywhere: false,
                misere: false,
            },
            first: Color::Black,
            top_left: Color::White,
        });
        let interrupt = Interrupt::default();
        let eval = Evaluation::Classic;
        let asked = work::SplitAsked {
            start: &start,
            moves: &MoveList::default(),
            which: RootMoves::Ties,
            jobs: 4,
        };
        work::split(asked, &eval, &dir, &interrupt, &mut std::io::sink())
            .expect("the split is written");
        let options = JobOptions {
            search: Config::solver(1, 1, eval),
            limit: None,
            interrupt,
            split_after: work::SPLIT_AFTER,
            speculate: false,
        };
        let all = Batch {
            index: 0,
            size: 1 << 20,
        };
        work::run_jobs(&dir, Some(1), all, &options, &mut |_, _| Ok(())).expect("jobs solved");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let mut text = String::from_utf8_lossy(input).into_owned();
    if choice & 1 == 1 {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let sum = othello::search::weights::fnv1a(text.as_bytes());
        text += &format!("check: {sum:016x}\n");
    }
    if let Ok(result) = JobResult::parse(&text) {
        let written = result.text();
        let again = JobResult::parse(&written).expect("a written result reads back");
        assert_eq!(again.text(), written);
    }
    let dir = folder();
    let result = dir.join("round-1").join("job-0.result");
    std::fs::write(&result, text.as_bytes()).expect("the scratch folder can be written");
    let _ = work::merge(dir, &Evaluation::Classic, &mut std::io::sink());
    // What a merge may have added is taken back, so that every input meets the same folder.
    let _ = std::fs::remove_file(dir.join("round-2.jobs"));
    let _ = std::fs::remove_dir_all(dir.join("round-2"));
});
