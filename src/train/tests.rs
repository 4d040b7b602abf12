use super::data::{self, Board, Sample};
use super::fit::{fit, measure, FitOptions};
use super::generate::{generate, GenOptions};
use crate::rules::{Bits, Setup, Shape, Variant};
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    dir
}

fn options(rows: usize, cols: usize, games: u32, threads: usize) -> GenOptions {
    GenOptions {
        setup: Setup::standard(Shape::new(rows, cols).unwrap(), Variant::default()),
        games,
        seed: 7,
        random_moves: 2,
        random_rate: 10,
        depth: 2,
        exact_empties: 8,
        threads,
        hash_mb: 1,
    }
}

fn sorted(path: &std::path::Path) -> Vec<Sample> {
    let mut samples: Vec<Sample> = data::read(path)
        .unwrap()
        .records
        .iter()
        .map(|r| r.to_sample())
        .collect();
    samples.sort_by(|a, b| (a.game, &a.black, &a.white).cmp(&(b.game, &b.black, &b.white)));
    samples
}

#[test]
fn games_are_the_same_on_any_threads_and_a_stopped_run_resumes() {
    let (one, two) = (scratch("one"), scratch("two"));
    let report = generate(&options(5, 6, 12, 1), &one, false).unwrap();
    assert_eq!((report.games, report.skipped), (12, 0));
    // Half the games, then the rest on two threads.
    generate(&options(5, 6, 6, 1), &two, false).unwrap();
    let report = generate(&options(5, 6, 12, 2), &two, false).unwrap();
    assert_eq!((report.games, report.skipped), (6, 6));
    assert_eq!(sorted(&one), sorted(&two));
    // A torn last record is dropped when the file is taken up again.
    let len = std::fs::metadata(&one).unwrap().len();
    let file = std::fs::OpenOptions::new().append(true).open(&one).unwrap();
    file.set_len(len - 5).unwrap();
    let torn = data::read(&one).unwrap();
    assert_eq!(torn.torn, torn.records.board().record_len() - 5);
    let report = generate(&options(5, 6, 12, 1), &one, false).unwrap();
    // The torn game's other records remain, so the game counts as present.
    assert_eq!(report.games, 0);
    assert_eq!(data::read(&one).unwrap().torn, 0);
    for path in [one, two] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn labels_are_exact_near_the_end_and_from_the_movers_side() {
    let path = scratch("labels");
    generate(&options(4, 5, 6, 1), &path, false).unwrap();
    let file = data::read(&path).unwrap();
    let board = file.records.board();
    assert_eq!(
        board,
        Board {
            shape: Shape::new(4, 5).unwrap(),
            variant: Variant::default()
        }
    );
    crate::with_bits!(board.shape, |B| {
        let rules = crate::rules::Rules::<B>::new(board.shape, board.variant).unwrap();
        let mut engine =
            crate::search::Engine::new(rules.clone(), crate::search::Config::default());
        for s in file.records.iter().map(|r| r.to_sample()) {
            let pos = s.position::<B>();
            let empties = rules.empty(&pos).count();
            assert_eq!(s.exact, empties <= 8, "{s:?}");
            if s.exact {
                assert_eq!(engine.solve_exact(&pos, false).score, s.label as i32);
            }
        }
    });
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_fit_beats_knowing_nothing_on_held_out_games() {
    let path = scratch("fit");
    let mut o = options(4, 4, 300, 2);
    o.exact_empties = 12;
    o.random_moves = 3;
    generate(&o, &path, false).unwrap();
    let file = data::read(&path).unwrap();
    let fit_options = FitOptions {
        phases: 3,
        epochs: 40,
        held_out: 5,
        regularize: 1.0,
        threads: 2,
    };
    let (weights, reports) = fit(&file.records, &fit_options).unwrap();
    // The weights file reads back.
    let back = crate::search::weights::Weights::from_bytes(&weights.to_bytes()).unwrap();
    assert_eq!(back, weights);
    // Better than always guessing zero on the exactly labelled held-out positions.
    let mut guess_zero = 0.0;
    let mut count = 0;
    for r in file
        .records
        .iter()
        .filter(|r| r.game() % 5 == 0 && r.exact())
    {
        guess_zero += (r.label() as f64).abs();
        count += 1;
    }
    let error: f64 = reports
        .iter()
        .map(|r| r.exact_error * r.exact as f64)
        .sum::<f64>()
        / count as f64;
    assert!(
        count > 0 && error < guess_zero / count as f64,
        "{reports:?}"
    );
    // `train test` measures the same, and with 1 every position.
    assert_eq!(measure(&file.records, &weights, 5).unwrap(), reports);
    let all = measure(&file.records, &weights, 1).unwrap();
    let tested: usize = all.iter().map(|r| r.test).sum();
    assert_eq!(
        (tested, all.iter().map(|r| r.train).sum()),
        (file.records.len(), 0)
    );
    // Weights made for another board are refused.
    let other = crate::search::weights::Weights::zero(4, 5, Variant::default(), 3);
    assert!(measure(&file.records, &other, 5).is_err());
    std::fs::remove_file(path).unwrap();
}
