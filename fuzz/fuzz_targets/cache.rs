//! The perfect-play cache, as `perfect-play --from-cache --cache FILE` reads it: every line
//! checked (a solved entry's line is replayed), then the table listed from it.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::interrupt::Interrupt;
use othello::solve::{perfect_play, PerfectPlayOptions};
use othello::rules::{RuleSet, Shape};

fuzz_target!(|data: &[u8]| {
    let path = common::scratch_file("cache", data);
    let options = PerfectPlayOptions {
        boards: [(4, 4), (4, 5), (6, 6), (3, 8)]
            .map(|(r, c)| Shape::new(r, c).expect("a board"))
            .to_vec(),
        rule_sets: vec![RuleSet::Full, RuleSet::Simple],
        misere: vec![false, true],
        place_anywhere: vec![false, true],
        limit: None,
        place_anywhere_limit: None,
        search: othello::search::Config::solver(1, 1, othello::search::Evaluation::Classic),
        cache: Some(path.clone()),
        journals: None,
        from_cache: true,
        progress: false,
        command_line: "othello perfect-play --from-cache".to_string(),
        interrupt: Interrupt::default(),
    };
    let (mut out, mut log) = (Vec::new(), Vec::new());
    if let Ok(table) = perfect_play(&options, &mut out, &mut log) {
        assert_eq!(table.len(), 4 * 8);
        assert!(!out.is_empty());
    }
    let _ = std::fs::remove_file(path);
});
