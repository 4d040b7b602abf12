//! What the search's tests share: engines, positions drawn as text or at random, reference
//! values by plain minimax, and the variants under test.

pub(super) use super::config::{Config, Scoring};
pub(super) use super::endgame::{RootMoves, Solved};
pub(super) use super::engine::Engine;
pub(super) use super::journal::Journal;
pub(super) use super::progress::{SolveProgress, PROGRESS_EVERY};
pub(super) use super::score::{Score, DISC, INFINITY};
pub(super) use super::shared::SEARCHED_BY_ALL;
pub(super) use crate::random::splitmix;
pub(super) use crate::rules::{Bits, Color, Position, RuleSet, Rules, Square, Variant, Words};
pub(super) use proptest::prelude::*;
pub(super) use std::sync::Arc;
pub(super) use std::time::Instant;

pub(super) fn engine<B: Bits>(
    rows: usize,
    cols: usize,
    variant: Variant,
    config: Config,
) -> Engine<B> {
    Engine::new(rules_for(rows, cols, variant), config)
}

pub(super) const FULL: Variant = Variant {
    rule_set: RuleSet::Full,
    place_anywhere: false,
    misere: false,
};

pub(super) const MISERE: Variant = Variant {
    misere: true,
    ..FULL
};

pub(super) const PLACE_ANYWHERE: Variant = Variant {
    place_anywhere: true,
    ..FULL
};

pub(super) const SIMPLE: Variant = Variant {
    rule_set: RuleSet::Simple,
    ..FULL
};

pub(super) const SIMPLE_MISERE: Variant = Variant {
    misere: true,
    ..SIMPLE
};

/// The rules of a `rows` x `cols` board under `variant`.
pub(super) fn rules_for<B: Bits>(rows: usize, cols: usize, variant: Variant) -> Rules<B> {
    Rules::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap()
}

/// A position drawn as rows of `B` (black), `W` (white) and `.` (empty), cells separated by
/// spaces, row 1 at the top. Returns the rows, the columns and the position.
pub(super) fn board(rows: &[&str], to_move: Color) -> (usize, usize, Position<u64>) {
    let cells: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.split_whitespace().collect())
        .collect();
    let cols = cells[0].len();
    let mut pos = Position {
        black: 0,
        white: 0,
        to_move,
    };
    for (r, row) in cells.iter().enumerate() {
        assert_eq!(row.len(), cols, "row {} of {rows:?}", r + 1);
        for (c, &cell) in row.iter().enumerate() {
            match cell {
                "B" => pos.black |= u64::bit(r * cols + c),
                "W" => pos.white |= u64::bit(r * cols + c),
                "." => {}
                other => panic!("{other:?} in {rows:?}"),
            }
        }
    }
    (cells.len(), cols, pos)
}

/// The index of a cell in standard notation: column letter, then row from 1 at the top (`c2`).
pub(super) fn cell(cols: usize, name: &str) -> usize {
    let col = (name.as_bytes()[0] - b'a') as usize;
    let row: usize = name[1..].parse().unwrap();
    (row - 1) * cols + col
}

/// A cell index in standard notation, for messages.
pub(super) fn name(cols: usize, index: usize) -> String {
    Square::new((index / cols) as u8, (index % cols) as u8).to_string()
}

/// The moves of `solved.moves` with the best value, in standard notation, sorted.
pub(super) fn best_moves(cols: usize, solved: &Solved) -> Vec<String> {
    let top = solved.moves[0].1;
    let mut best: Vec<String> = solved
        .moves
        .iter()
        .filter(|&&(_, v)| v == top)
        .map(|&(m, _)| name(cols, m))
        .collect();
    best.sort();
    best
}

/// The exact value of a position for its side to move, by exhaustive minimax: no pruning, no
/// table, no move ordering, and the result of a finished game worked out from [`Rules::winner`].
pub(super) fn minimax<B: Bits>(rules: &Rules<B>, pos: &Position<B>, scoring: Scoring) -> i32 {
    let moves = rules.moves(pos);
    if moves.is_empty() {
        let passed = rules.pass(pos);
        if !rules.moves(&passed).is_empty() {
            return -minimax(rules, &passed, scoring);
        }
        let (black, white) = pos.score();
        let mut margin = black.abs_diff(white) as i32;
        if scoring == Scoring::EmptiesToWinner && margin > 0 {
            margin += rules.empty(pos).count() as i32;
        }
        return match rules.winner(pos).color() {
            None => 0,
            Some(c) if c == pos.to_move => margin,
            Some(_) => -margin,
        };
    }
    moves
        .iter()
        .map(|m| -minimax(rules, &rules.play_unchecked(pos, m), scoring))
        .max()
        .unwrap()
}

/// A position from a random game (random first player and start colours, random moves, forced
/// passes made) once at most `empties` cells are empty. The side to move always has a move. If a
/// game ends too early, another is played; after many tries, the live position with the fewest
/// empty cells seen is taken.
pub(super) fn random_position<B: Bits>(rules: &Rules<B>, seed: u64, empties: u32) -> Position<B> {
    let mut rng = seed;
    let colour = |rng: &mut u64| {
        if splitmix(rng) & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    };
    let mut fewest: Option<Position<B>> = None;
    for _ in 0..200 {
        let (first, top_left) = (colour(&mut rng), colour(&mut rng));
        let mut pos = rules.start(first, top_left);
        loop {
            let moves = rules.moves(&pos);
            if moves.is_empty() {
                if rules.is_over(&pos) {
                    break;
                }
                pos = rules.pass(&pos);
                continue;
            }
            let left = rules.empty(&pos).count();
            if left <= empties {
                return pos;
            }
            if fewest.is_none_or(|f| rules.empty(&f).count() > left) {
                fewest = Some(pos);
            }
            pos = rules.play_unchecked(&pos, random_move(moves, &mut rng));
        }
    }
    fewest.expect("the start position has a move")
}

/// One of `moves`, which is not empty, chosen by `rng`.
pub(super) fn random_move<B: Bits>(moves: B, rng: &mut u64) -> usize {
    let moves: Vec<usize> = moves.iter().collect();
    moves[(splitmix(rng) % moves.len() as u64) as usize]
}

/// The same discs in another bit-set width.
pub(super) fn widen<B: Bits>(pos: &Position<u64>) -> Position<B> {
    let convert = |set: u64| set.iter().fold(B::ZERO, |acc, i| acc | B::bit(i));
    Position {
        black: convert(pos.black),
        white: convert(pos.white),
        to_move: pos.to_move,
    }
}

/// Search to the end and the solver agree on `pos`; returns the exact value.
pub(super) fn check_exact<B: Bits>(rules: &Rules<B>, pos: &Position<B>, scoring: Scoring) -> i32 {
    let empties = rules.empty(pos).count();
    let config = Config::to_depth(empties.max(1)).with_scoring(scoring);
    let legal = rules.moves(pos);
    let mut e = Engine::new(rules.clone(), config.clone());
    let report = e.search(pos);
    let solved = e.solve_exact(pos, true);
    let fresh = Engine::new(rules.clone(), config.clone()).solve_exact(pos, false);
    let what = format!("{pos:?} ({:?}): {report:?} {solved:?}", rules.variant);
    assert!(report.exact, "{what}");
    assert_eq!(report.score, solved.score * DISC, "{what}");
    assert_eq!(fresh.score, solved.score, "{what}");
    assert!(legal.contains(report.best.unwrap()), "{what}");
    assert!(legal.contains(fresh.best.unwrap()), "{what}");
    // Every legal move valued, the best first, and the search's move is one of the best.
    assert_eq!(solved.moves.len(), legal.count() as usize, "{what}");
    assert_eq!(solved.moves[0].1, solved.score, "{what}");
    let value_of = |m: usize| solved.moves.iter().find(|&&(x, _)| x == m).unwrap().1;
    assert_eq!(value_of(report.best.unwrap()), solved.score, "{what}");
    assert_eq!(value_of(fresh.best.unwrap()), solved.score, "{what}");
    assert_eq!(value_of(solved.best.unwrap()), solved.score, "{what}");
    solved.score
}

pub(super) fn variant_strategy() -> impl Strategy<Value = Variant> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(simple, place_anywhere, misere)| {
        Variant {
            rule_set: if simple {
                RuleSet::Simple
            } else {
                RuleSet::Full
            },
            place_anywhere,
            misere,
        }
    })
}

pub(super) fn scoring_strategy() -> impl Strategy<Value = Scoring> {
    prop_oneof![3 => Just(Scoring::Plain), 1 => Just(Scoring::EmptiesToWinner)]
}

/// The case count of a property test: `default`, or `PROPTEST_CASES` for long soak runs.
pub(super) fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The rules and start of a `rows`x`cols` board under `variant`, a one-thread configuration
/// with a small table, and a solve of the start that names every best move.
pub(super) fn solved_start(
    rows: usize,
    cols: usize,
    variant: Variant,
) -> (Rules<u64>, Position<u64>, Config, Solved) {
    let rules = rules_for(rows, cols, variant);
    let start = rules.start(Color::Black, Color::White);
    let config = Config::default();
    let plain = Engine::new(rules.clone(), config.clone()).solve_root(&start, RootMoves::Ties);
    (rules, start, config, plain)
}
