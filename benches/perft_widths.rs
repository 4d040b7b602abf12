//! Perft speed of each bit-set storage on the same boards, measured side by side.
//!
//! `cargo bench --bench perft_widths`. Runs are interleaved and the median of several is
//! reported, so that a noisy machine affects every storage alike; compare the ratios.

use othello::rules::{perft, Bits, Color, Rules, Variant, Words};
use std::time::{Duration, Instant};

fn time<B: Bits>(rows: usize, cols: usize, depth: u32) -> (u64, Duration) {
    let rules = Rules::<B>::new(
        othello::rules::Shape::new(rows, cols).unwrap(),
        Variant::default(),
    )
    .unwrap();
    let start = rules.start(Color::Black, Color::White);
    let clock = Instant::now();
    let nodes = perft(&rules, &start, depth);
    (nodes, clock.elapsed())
}

type Runner = fn(usize, usize, u32) -> (u64, Duration);

fn main() {
    const RUNS: usize = 5;
    let cases: [(usize, usize, u32); 2] = [(8, 8, 9), (6, 6, 10)];
    let storages: [(&str, Runner); 4] = [
        ("u64", time::<u64>),
        ("u128", time::<u128>),
        ("Words<4>", time::<Words<4>>),
        ("Words<11>", time::<Words<11>>),
    ];
    for (rows, cols, depth) in cases {
        let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); storages.len()];
        let mut nodes = 0;
        for _ in 0..RUNS {
            for (i, (_, run)) in storages.iter().enumerate() {
                let (n, took) = run(rows, cols, depth);
                nodes = n;
                samples[i].push(took);
            }
        }
        println!("perft {rows}x{cols} depth {depth}: {nodes} leaves, median of {RUNS} runs");
        let base = median(&mut samples[0].clone());
        for ((name, _), runs) in storages.iter().zip(&mut samples) {
            let m = median(runs);
            println!(
                "  {name:>10}: {:8.3} s  {:6.1} M leaves/s  x{:.2} of u64",
                m.as_secs_f64(),
                nodes as f64 / m.as_secs_f64() / 1e6,
                m.as_secs_f64() / base.as_secs_f64()
            );
        }
    }
}

fn median(runs: &mut [Duration]) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}
