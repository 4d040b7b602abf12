//! The FFO endgame test set (`tests/data/fforum-*.obf`): the exact solver
//! must find a best move and the exact score of every one, counted as the file counts (empty
//! cells to the winner).

use othello::search::{Config, Evaluation};
use othello::solve::solve_file;
use std::fs::File;
use std::io::BufReader;

fn solve_all(name: &str) -> othello::solve::FileTotals {
    solve_with(name, 1)
}

fn solve_with(name: &str, threads: usize) -> othello::solve::FileTotals {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = BufReader::new(File::open(path).unwrap());
    let mut report = Vec::new();
    let totals = solve_file(
        file,
        &Config::solver(64, threads, Evaluation::default()),
        &mut report,
    )
    .unwrap();
    print!("{}", String::from_utf8_lossy(&report));
    totals
}

#[test]
fn ffo_1_to_19_solve_to_their_scores() {
    let totals = solve_all("fforum-1-19.obf");
    assert_eq!(totals.positions, 19);
    assert_eq!(totals.agreed, 19);
}

#[test]
fn ffo_1_to_19_solve_to_their_scores_with_four_threads() {
    let totals = solve_with("fforum-1-19.obf", 4);
    assert_eq!(totals.positions, 19);
    assert_eq!(totals.agreed, 19);
}

#[test]
#[ignore = "#20-#38 take about 80 s in release, #39 (26 empties) far longer; run: cargo test --release --test ffo -- --ignored"]
fn ffo_20_to_39_solve_to_their_scores() {
    let totals = solve_all("fforum-20-39.obf");
    assert_eq!(totals.positions, 20);
    assert_eq!(totals.agreed, 20);
}
