//! The published perft table of 8x8 Othello (`tests/data/perft-8x8.txt`). Depths 1-9 run in
//! `cargo test`; the deeper ones take seconds to minutes in a release build:
//! `cargo test --release --test perft -- --ignored`.

use othello::rules::{perft, Color, Rules, Variant};

const TABLE: [u64; 14] = [
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390216,
    3005288,
    24571284,
    212258800,
    1939886636,
    18429641748,
    184042084512,
];

fn check(depth: u32) {
    let rules = Rules::<u64>::new(
        othello::rules::Shape::new(8, 8).unwrap(),
        Variant::default(),
    )
    .unwrap();
    let start = rules.start(Color::Black, Color::White);
    assert_eq!(
        perft(&rules, &start, depth),
        TABLE[depth as usize - 1],
        "depth {depth}"
    );
}

#[test]
fn depths_1_to_9() {
    for depth in 1..=9 {
        check(depth);
    }
}

#[test]
#[ignore = "slow: about 2 s at depth 11 in release"]
fn depths_10_and_11() {
    check(10);
    check(11);
}

#[test]
#[ignore = "slow: about 15 s in release"]
fn depth_12() {
    check(12);
}

#[test]
#[ignore = "very slow: depth 13 about 2.5 minutes, depth 14 about 25 minutes in release"]
fn depths_13_and_14() {
    check(13);
    check(14);
}

/// The table's convention for passes and finished games matters from depth 9 on; on small boards
/// games end early, so every depth past the end must count the finished game once.
#[test]
fn finished_games_count_once_at_every_depth() {
    let rules = Rules::<u64>::new(
        othello::rules::Shape::new(4, 4).unwrap(),
        Variant::default(),
    )
    .unwrap();
    let start = rules.start(Color::Black, Color::White);
    // 4x4 games last at most 12 moves plus passes, so deep counts stop growing.
    let deep = perft(&rules, &start, 40);
    assert_eq!(perft(&rules, &start, 41), deep);
    assert!(deep > perft(&rules, &start, 8));
}
