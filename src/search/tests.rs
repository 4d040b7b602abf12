use super::*;
use crate::rules::{Color, RuleSet, Square, Variant, Words};
use proptest::prelude::*;
use std::time::{Duration, Instant};

fn engine<B: Bits>(rows: usize, cols: usize, variant: Variant, config: Config) -> Engine<B> {
    Engine::new(
        Rules::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap(),
        config,
    )
}

fn depth(d: u32) -> Config {
    Config {
        depth: Some(d),
        move_time: None,
        ..Config::default()
    }
}

const FULL: Variant = Variant {
    rule_set: RuleSet::Full,
    place_anywhere: false,
    misere: false,
};
const MISERE: Variant = Variant {
    misere: true,
    ..FULL
};
const PLACE_ANYWHERE: Variant = Variant {
    place_anywhere: true,
    ..FULL
};
const SIMPLE: Variant = Variant {
    rule_set: RuleSet::Simple,
    ..FULL
};
const SIMPLE_MISERE: Variant = Variant {
    misere: true,
    ..SIMPLE
};

/// A position drawn as rows of `B` (black), `W` (white) and `.` (empty), cells separated by
/// spaces, row 1 at the top. Returns the rows, the columns and the position.
fn board(rows: &[&str], to_move: Color) -> (usize, usize, Position<u64>) {
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
fn cell(cols: usize, name: &str) -> usize {
    let col = (name.as_bytes()[0] - b'a') as usize;
    let row: usize = name[1..].parse().unwrap();
    (row - 1) * cols + col
}

/// A cell index in standard notation, for messages.
fn name(cols: usize, index: usize) -> String {
    Square::new((index / cols) as u8, (index % cols) as u8).to_string()
}

/// The moves of `solved.moves` with the best value, in standard notation, sorted.
fn best_moves(cols: usize, solved: &Solved) -> Vec<String> {
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
fn minimax<B: Bits>(rules: &Rules<B>, pos: &Position<B>, scoring: Scoring) -> i32 {
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
pub(crate) fn random_position<B: Bits>(rules: &Rules<B>, seed: u64, empties: u32) -> Position<B> {
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
fn random_move<B: Bits>(moves: B, rng: &mut u64) -> usize {
    let moves: Vec<usize> = moves.iter().collect();
    moves[(splitmix(rng) % moves.len() as u64) as usize]
}

/// The same discs in another bit-set width.
fn widen<B: Bits>(pos: &Position<u64>) -> Position<B> {
    let convert = |set: u64| set.iter().fold(B::ZERO, |acc, i| acc | B::bit(i));
    Position {
        black: convert(pos.black),
        white: convert(pos.white),
        to_move: pos.to_move,
    }
}

#[test]
fn four_by_four_start_is_a_white_win_by_eleven_to_three() {
    let mut e = engine::<u64>(4, 4, Variant::default(), depth(20));
    let start = e.rules().start(Color::Black, Color::White);
    let solved = e.solve_exact(&start, true);
    // Black to move loses 3-11.
    assert_eq!(solved.score, 3 - 11);
    assert!(solved.moves.iter().all(|&(_, s)| s <= -8));
    let report = e.search(&start);
    assert!(report.exact);
    assert_eq!(report.score, -8 * DISC);
}

/// Positions where exactly one move wins, the winning move, and its exact value.
const FORCED_WINS: &[(&[&str], Color, &str, i32)] = &[
    // 4x4: only d4 (flipping c3 and d3) wins; the other moves lose.
    (
        &[". . . .", ". B B B", ". W W W", ". . . ."],
        Color::Black,
        "d4",
        8,
    ),
    // 5x5: b5 flips b3 and b4, the only white discs: a wipeout, 12-0 with 14 cells empty.
    (
        &[
            ". . . B .",
            ". B B B B",
            "B W B . B",
            ". W . . .",
            ". . B . .",
        ],
        Color::Black,
        "b5",
        12,
    ),
    // 6x6: a5 flips all three white discs (b4 and c3 diagonally, b5 along the row).
    (
        &[
            "B . . . . .",
            "B B B B B .",
            "B B W . B B",
            "B W . B . .",
            ". W B B B B",
            ". B . B B .",
        ],
        Color::Black,
        "a5",
        23,
    ),
    // 5x6: the corner a1 wins by 28; everything else loses.
    (
        &[
            ". W W W B .",
            "W B B B B .",
            "B W B W B .",
            ". . W . . .",
            ". W W W . .",
        ],
        Color::Black,
        "a1",
        28,
    ),
    // 6x6, white to move: the corner a1 wins by 7, the rest lose by 8 or more.
    (
        &[
            ". B W . B .",
            "B W W B B B",
            "B B W W B B",
            "B B B B B B",
            "B . B W W B",
            ". . . W . .",
        ],
        Color::White,
        "a1",
        7,
    ),
];

#[test]
fn forced_wins_are_found_at_shallow_depth() {
    for &(rows, to_move, win, value) in FORCED_WINS {
        let (r, c, pos) = board(rows, to_move);
        let mut e = engine::<u64>(r, c, FULL, depth(64));
        let solved = e.solve_exact(&pos, true);
        let winners: Vec<String> = solved
            .moves
            .iter()
            .filter(|&&(_, v)| v > 0)
            .map(|&(m, _)| name(c, m))
            .collect();
        assert_eq!(winners, [win], "{rows:?}: {:?}", solved.moves);
        assert_eq!(solved.score, value, "{rows:?}");
        assert_eq!(solved.best, Some(cell(c, win)));
        for d in 1..=3 {
            let report = engine::<u64>(r, c, FULL, depth(d)).search(&pos);
            assert_eq!(
                report.best.map(|m| name(c, m)).as_deref(),
                Some(win),
                "depth {d} on {rows:?}: {report:?}"
            );
        }
    }
}

/// Black's c2 turns over b2, b3 and c3, every white disc: the game ends 10-0 with seven cells
/// empty. Every other move loses (a1 by 2). A move that ends the game with a win must beat any
/// estimate of a game still going on, so even a one-move search has to find it.
#[test]
fn a_wipeout_beats_every_estimate() {
    let rows = [". . . .", "B W . B", ". W W .", "B B B B"];
    let (r, c, pos) = board(&rows, Color::Black);
    let mut e = engine::<u64>(r, c, FULL, depth(64));
    let solved = e.solve_exact(&pos, true);
    assert_eq!(solved.moves[0], (cell(c, "c2"), 10));
    assert!(solved.moves[1..].iter().all(|&(_, v)| v < 0));
    let after = e.rules().play_unchecked(&pos, cell(c, "c2"));
    assert!(after.white.is_empty());
    let chosen: Vec<(u32, String, i32)> = (1..=3)
        .map(|d| {
            let report = engine::<u64>(r, c, FULL, depth(d)).search(&pos);
            (d, name(c, report.best.unwrap()), report.score)
        })
        .collect();
    assert!(
        chosen.iter().all(|(_, m, _)| m == "c2"),
        "(depth, move, score): {chosen:?}"
    );
}

/// White's a1 turns over b1 and leaves black without a move, so white moves twice in a
/// row; it wins by 18 and every other move loses by 16 or more.
#[test]
fn a_forced_pass_is_searched_through() {
    let rows = [". B W . .", "W W B . .", "W B B B .", "B . . . ."];
    let (r, c, pos) = board(&rows, Color::White);
    let empties = 10;
    let mut e = engine::<u64>(r, c, FULL, depth(empties));
    let rules = e.rules().clone();
    assert_eq!(rules.empty(&pos).count(), empties);
    let solved = e.solve_exact(&pos, true);
    assert_eq!(solved.moves[0], (cell(c, "a1"), 18));
    assert!(solved.moves[1..].iter().all(|&(_, v)| v <= -16));
    let after = rules.play_unchecked(&pos, cell(c, "a1"));
    assert!(rules.moves(&after).is_empty(), "black must pass");
    assert!(!rules.is_over(&after));

    for report in [
        e.search(&pos),
        engine::<u64>(r, c, FULL, depth(empties)).search(&pos),
    ] {
        assert!(report.exact, "{report:?}");
        assert_eq!(report.score, 18 * DISC);
        assert_eq!(report.best, Some(cell(c, "a1")));
        // The line goes on with white's second move, after black's pass.
        assert_eq!(report.pv[0], cell(c, "a1"), "{report:?}");
        assert!(report.pv.len() >= 2, "{report:?}");
        assert!(rules.moves(&rules.pass(&after)).contains(report.pv[1]));
        // The whole line is playable, passes made where forced.
        let mut line = pos;
        for &m in &report.pv {
            if rules.moves(&line).is_empty() {
                line = rules.pass(&line);
            }
            assert!(rules.moves(&line).contains(m), "{:?}", report.pv);
            line = rules.play_unchecked(&line, m);
        }
    }
    // A shallow search sees the pass too: white's second move follows at once.
    let report = engine::<u64>(r, c, FULL, depth(2)).search(&pos);
    assert_eq!(report.best, Some(cell(c, "a1")));
    assert_eq!(report.pv.len(), 2, "{report:?}");
    assert!(rules.moves(&rules.pass(&after)).contains(report.pv[1]));
}

/// White to move, seven cells empty. In the normal game c1 (flipping b1, b2 and c2) wins by 12;
/// under misère the same c1 is white's worst move (lost by 11)
/// and d2, worth +2, is the only win.
#[test]
fn misere_changes_the_best_move() {
    let rows = ["W B . .", "W B B .", "W B W .", ". B . ."];
    let (r, c, pos) = board(&rows, Color::White);
    let mut normal = engine::<u64>(r, c, FULL, depth(64));
    let mut misere = engine::<u64>(r, c, MISERE, depth(64));
    let n = normal.solve_exact(&pos, true);
    let m = misere.solve_exact(&pos, true);
    let values = |s: &Solved| -> Vec<(String, i32)> {
        s.moves.iter().map(|&(x, v)| (name(c, x), v)).collect()
    };
    assert_eq!(
        values(&n),
        [("c1".to_string(), 12), ("d2".into(), 10), ("c4".into(), -2)]
    );
    assert_eq!(
        values(&m),
        [("d2".to_string(), 2), ("c4".into(), -4), ("c1".into(), -11)]
    );
    assert_eq!(minimax(normal.rules(), &pos, Scoring::Plain), 12);
    assert_eq!(minimax(misere.rules(), &pos, Scoring::Plain), 2);
    let (rn, rm) = (normal.search(&pos), misere.search(&pos));
    assert_eq!(
        (rn.best, rn.score, rn.exact),
        (Some(cell(c, "c1")), 12 * DISC, true)
    );
    assert_eq!(
        (rm.best, rm.score, rm.exact),
        (Some(cell(c, "d2")), 2 * DISC, true)
    );
}

/// White to move, four cells empty. In the normal game white has a4, a5 and b5 and loses by 3
/// at best (a4); with place-anywhere the corner a1, which flanks nothing, wins by 1.
#[test]
fn place_anywhere_changes_the_best_move() {
    let rows = [
        ". W W B B",
        "B W W B B",
        "B W W B W",
        ". B W W W",
        ". . B B W",
    ];
    let (r, c, pos) = board(&rows, Color::White);
    let mut normal = engine::<u64>(r, c, FULL, depth(64));
    let mut anywhere = engine::<u64>(r, c, PLACE_ANYWHERE, depth(64));
    let a1 = cell(c, "a1");
    assert!(!normal.rules().moves(&pos).contains(a1));
    let n = normal.solve_exact(&pos, true);
    let p = anywhere.solve_exact(&pos, true);
    assert_eq!(n.score, -3);
    assert_eq!(best_moves(c, &n), ["a4"]);
    assert_eq!((p.score, p.best), (1, Some(a1)));
    assert_eq!(best_moves(c, &p), ["a1"]);
    assert_eq!(p.moves.len(), 4, "every empty cell is a move");
    assert!(anywhere.rules().flips(&pos, a1).is_empty());
    assert_eq!(minimax(anywhere.rules(), &pos, Scoring::Plain), 1);
    let report = anywhere.search(&pos);
    assert_eq!(
        (report.best, report.score, report.exact),
        (Some(a1), DISC, true)
    );
}

/// Search to the end and the solver agree on `pos`; returns the exact value.
fn check_exact<B: Bits>(rules: &Rules<B>, pos: &Position<B>, scoring: Scoring) -> i32 {
    let empties = rules.empty(pos).count();
    let config = Config {
        scoring,
        ..depth(empties.max(1))
    };
    let legal = rules.moves(pos);
    let mut e = Engine::new(rules.clone(), config);
    let report = e.search(pos);
    let solved = e.solve_exact(pos, true);
    let fresh = Engine::new(rules.clone(), config).solve_exact(pos, false);
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

#[test]
fn stable_discs_found_from_those_before_a_move_are_the_same() {
    for variant in [FULL, PLACE_ANYWHERE, SIMPLE] {
        for (rows, cols) in [(4, 4), (3, 7), (5, 6), (8, 8)] {
            let e = engine::<u64>(rows, cols, variant, depth(1));
            let (rules, eval) = (&e.rules, &e.eval);
            let mut seen = 0;
            for seed in 0..8 {
                let cells = rules.geometry.cell_count() as u32;
                let pos = random_position(rules, seed, cells / 4);
                let before = eval.stable(rules, pos.mover(), rules.empty(&pos));
                seen += before.count();
                for m in rules.moves(&pos).iter() {
                    let child = rules.play_unchecked(&pos, m);
                    let (mine, empty) = (child.opponent(), rules.empty(&child));
                    let fresh = eval.stable(rules, mine, empty);
                    assert_eq!(fresh & before, before, "{rows}x{cols} {variant:?}");
                    assert_eq!(eval.stable_from(rules, mine, empty, before), fresh);
                }
            }
            // The positions are far enough on to hold stable discs.
            assert!(seen > 0, "{rows}x{cols} {variant:?}");
        }
    }
}

#[test]
fn discs_stable_near_the_end_never_turn() {
    // Random games from positions near the end: no disc counted stable, with the full lines
    // or without, ever changes colour, and the full lines only add discs.
    for variant in [FULL, PLACE_ANYWHERE, SIMPLE] {
        let mut added = 0;
        for (rows, cols) in [(4, 4), (3, 7), (5, 6), (8, 8)] {
            let e = engine::<u64>(rows, cols, variant, depth(1));
            let (rules, eval) = (&e.rules, &e.eval);
            let mut found = 0;
            for seed in 0..40 {
                let cells = rules.geometry.cell_count() as u32;
                let start = random_position(rules, seed, (cells / 4).min(10));
                let empty = rules.empty(&start);
                let black = eval.stable_near_end(rules, start.black, empty);
                let white = eval.stable_near_end(rules, start.white, empty);
                for (near_end, discs) in [(black, start.black), (white, start.white)] {
                    let plain = eval.stable(rules, discs, empty);
                    assert_eq!(near_end & plain, plain, "{rows}x{cols} {variant:?}");
                    found += near_end.count();
                    added += (near_end & !plain).count();
                }
                let mut rng = seed;
                for _ in 0..20 {
                    let mut pos = start;
                    while !rules.is_over(&pos) {
                        let moves = rules.moves(&pos);
                        pos = if moves.is_empty() {
                            rules.pass(&pos)
                        } else {
                            rules.play_unchecked(&pos, random_move(moves, &mut rng))
                        };
                        assert_eq!(pos.black & black, black, "{rows}x{cols} {variant:?} {seed}");
                        assert_eq!(pos.white & white, white, "{rows}x{cols} {variant:?} {seed}");
                    }
                }
            }
            assert!(found > 0, "{rows}x{cols} {variant:?}");
        }
        // The full lines find discs the plain count does not (under SIMPLE rules the count
        // is exact already).
        assert_eq!(
            added > 0,
            variant.rule_set != RuleSet::Simple,
            "{variant:?}"
        );
    }
}

#[test]
fn a_count_of_stable_discs_reaching_a_need_agrees_with_the_whole_count() {
    // Yes exactly when the whole count reaches the need, with a count between the two.
    for variant in [FULL, PLACE_ANYWHERE, SIMPLE] {
        for (rows, cols) in [(4, 4), (3, 7), (5, 6), (8, 8)] {
            let e = engine::<u64>(rows, cols, variant, depth(1));
            let (rules, eval) = (&e.rules, &e.eval);
            let cells = rules.geometry.cell_count() as u32;
            let mut reached = 0;
            for seed in 0..60 {
                let pos = random_position(rules, seed, (cells / 4).min(10));
                let empty = rules.empty(&pos);
                for discs in [pos.black, pos.white] {
                    let all = eval.stable_near_end(rules, discs, empty).count();
                    for need in 0..=discs.count() + 1 {
                        match eval.stable_near_end_reaching(rules, discs, empty, need) {
                            Some(count) => {
                                assert!(need <= count && count <= all, "{rows}x{cols} {seed}");
                                reached += u32::from(need > 0);
                            }
                            None => assert!(all < need, "{rows}x{cols} {variant:?} {seed}"),
                        }
                    }
                }
            }
            assert!(reached > 0, "{rows}x{cols} {variant:?}");
        }
    }
}

#[test]
fn simple_rules_search_and_solver_agree() {
    for misere in [false, true] {
        let variant = Variant {
            rule_set: RuleSet::Simple,
            misere,
            place_anywhere: false,
        };
        // The whole 4x4 game.
        let rules = Rules::<u64>::new(crate::rules::Shape::new(4, 4).unwrap(), variant).unwrap();
        check_exact(
            &rules,
            &rules.start(Color::Black, Color::White),
            Scoring::Plain,
        );
        for (rows, cols) in [(3, 3), (3, 5), (4, 4), (4, 5), (5, 5), (6, 6)] {
            let rules =
                Rules::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
            for seed in 0..6 {
                let pos = random_position(&rules, seed, 11);
                let exact = check_exact(&rules, &pos, Scoring::Plain);
                if rules.empty(&pos).count() <= 7 {
                    assert_eq!(minimax(&rules, &pos, Scoring::Plain), exact);
                }
            }
        }
    }
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
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

fn scoring_strategy() -> impl Strategy<Value = Scoring> {
    prop_oneof![3 => Just(Scoring::Plain), 1 => Just(Scoring::EmptiesToWinner)]
}

/// The case count of a property test: `default`, or `PROPTEST_CASES` for long soak runs.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(96)))]

    /// On random positions with at most ten empty cells, a search as deep as the empty cells is
    /// exact and agrees with the solver, in every variant, whatever the bit-set width.
    #[test]
    fn search_to_the_end_agrees_with_the_solver(
        rows in 3..=6usize,
        cols in 3..=6usize,
        variant in variant_strategy(),
        scoring in scoring_strategy(),
        empties in 0..=10u32,
        seed in any::<u64>(),
    ) {
        let rules = Rules::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
        let pos = random_position(&rules, seed, empties);
        let exact = check_exact(&rules, &pos, scoring);
        let wide = Rules::<Words<4>>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
        let config = Config { scoring, ..depth(64) };
        let solved = Engine::new(wide, config).solve_exact(&widen(&pos), false);
        prop_assert_eq!(solved.score, exact);
    }

    /// The solver against exhaustive minimax on random positions with at most seven empty
    /// cells, for every move, and from the other side's point of view (a pass, possibly).
    #[test]
    fn solver_agrees_with_plain_minimax(
        rows in 3..=6usize,
        cols in 3..=6usize,
        variant in variant_strategy(),
        scoring in scoring_strategy(),
        empties in 0..=7u32,
        seed in any::<u64>(),
    ) {
        let rules = Rules::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
        let pos = random_position(&rules, seed, empties);
        let config = Config { scoring, ..depth(64) };
        let mut e = Engine::new(rules.clone(), config);
        let solved = e.solve_exact(&pos, true);
        prop_assert_eq!(solved.score, minimax(&rules, &pos, scoring));
        for &(m, value) in &solved.moves {
            let child = rules.play_unchecked(&pos, m);
            prop_assert_eq!(value, -minimax(&rules, &child, scoring), "move {}", name(cols, m));
        }
        let other = rules.pass(&pos);
        let solved = e.solve_exact(&other, true);
        prop_assert_eq!(solved.score, minimax(&rules, &other, scoring));
        prop_assert_eq!(solved.best.is_none(), rules.moves(&other).is_empty());
    }
}

/// A search with a 20 ms limit, from a position a few moves into a game, on `rows` x `cols`.
fn timed_search<B: Bits>(rows: usize, cols: usize) {
    let rules = Rules::<B>::new(crate::rules::Shape::new(rows, cols).unwrap(), FULL).unwrap();
    let cells = (rows * cols) as u32;
    let pos = random_position(&rules, 3, cells - 14);
    let config = Config {
        depth: None,
        move_time: Some(Duration::from_millis(20)),
        ..Config::default()
    };
    let mut e = Engine::new(rules.clone(), config);
    let clock = Instant::now();
    let report = e.search(&pos);
    let took = clock.elapsed();
    assert!(rules.moves(&pos).contains(report.best.unwrap()));
    assert!(report.depth >= 1, "{report:?}");
    // The bar is 25 ms, measured elsewhere; this only catches a search that ignores the clock.
    assert!(took < Duration::from_millis(100), "{rows}x{cols}: {took:?}");
    assert!(report.elapsed <= took);
}

#[test]
fn a_time_limit_is_kept_on_the_largest_board() {
    timed_search::<Words<11>>(26, 26);
}

#[test]
fn a_time_limit_is_kept_on_eight_by_eight() {
    timed_search::<u64>(8, 8);
}

#[test]
fn searches_repeat_exactly() {
    let rules = Rules::<u64>::new(crate::rules::Shape::new(8, 8).unwrap(), FULL).unwrap();
    let pos = random_position(&rules, 11, 50);
    for config in [
        depth(5),
        Config {
            seed: Some(9),
            ..depth(5)
        },
    ] {
        let first = Engine::new(rules.clone(), config).search(&pos);
        let second = Engine::new(rules.clone(), config).search(&pos);
        let key = |r: &Report| (r.best, r.score, r.depth, r.exact, r.nodes, r.pv.clone());
        assert_eq!(key(&first), key(&second));
        assert!(first.nodes > 0);
    }
}

/// A whole game between two engines with the same settings on 6x6.
fn engine_game(config: Config) -> Vec<usize> {
    let rules = Rules::<u64>::new(crate::rules::Shape::new(6, 6).unwrap(), FULL).unwrap();
    let mut e = Engine::new(rules.clone(), config);
    let mut pos = rules.start(Color::Black, Color::White);
    let mut moves = Vec::new();
    while !rules.is_over(&pos) {
        if rules.moves(&pos).is_empty() {
            pos = rules.pass(&pos);
            continue;
        }
        let m = e.search(&pos).best.unwrap();
        assert!(rules.moves(&pos).contains(m));
        moves.push(m);
        pos = rules.play_unchecked(&pos, m);
    }
    moves
}

#[test]
fn seeds_vary_the_play_and_repeat_it() {
    let seeded = |s| Config {
        seed: Some(s),
        ..depth(2)
    };
    assert_eq!(engine_game(depth(2)), engine_game(depth(2)));
    assert_eq!(engine_game(seeded(4)), engine_game(seeded(4)));
    let mut games: Vec<Vec<usize>> = (1..=6).map(|s| engine_game(seeded(s))).collect();
    games.sort();
    games.dedup();
    assert!(games.len() >= 2, "six seeds, one game");
}

/// A finished game is worth its final difference; a side that must pass has no move to play.
#[test]
fn finished_and_passing_positions() {
    // White has no disc: the game is over, black is 5 ahead (or behind, under misère).
    let (r, c, over) = board(&[". . .", ". B B", "B B B"], Color::White);
    for (variant, want) in [(FULL, -5), (MISERE, 5)] {
        let mut e = engine::<u64>(r, c, variant, depth(9));
        assert!(e.rules().is_over(&over));
        let solved = e.solve_exact(&over, true);
        assert_eq!((solved.score, solved.best), (want, None));
        assert!(solved.moves.is_empty());
        let report = e.search(&over);
        assert_eq!(report.best, None);
        assert!(!report.exact || report.score == want * DISC, "{report:?}");
    }
    // Black cannot move, white can.
    let (r, c, pass) = board(&["W W .", "W B .", ". . ."], Color::Black);
    let mut e = engine::<u64>(r, c, FULL, depth(9));
    assert!(e.rules().moves(&pass).is_empty());
    assert!(!e.rules().is_over(&pass));
    let solved = e.solve_exact(&pass, true);
    assert_eq!(solved.best, None);
    assert_eq!(solved.score, minimax(e.rules(), &pass, Scoring::Plain));
    // The search has nothing to choose; whatever it reports is not wrong if it claims to be exact.
    let report = e.search(&pass);
    assert_eq!(report.best, None);
    assert!(
        !report.exact || report.score == solved.score * DISC,
        "{report:?}"
    );
}

#[test]
fn a_timed_solve_gives_up_or_agrees_with_an_untimed_one() {
    let mut e = engine::<u64>(5, 6, FULL, Config::default());
    let start = e.rules().start(Color::Black, Color::White);
    // 5x6 takes seconds: 10 ms is not enough.
    let clock = Instant::now();
    assert_eq!(
        e.solve_root_within(&start, RootMoves::Best, Some(Duration::from_millis(10))),
        None
    );
    assert!(clock.elapsed() < Duration::from_millis(500));
    let mut e = engine::<u64>(4, 4, FULL, Config::default());
    let start = e.rules().start(Color::Black, Color::White);
    let timed = e
        .solve_root_within(&start, RootMoves::Ties, Some(Duration::from_secs(60)))
        .unwrap();
    e.clear();
    let untimed = e.solve_root(&start, RootMoves::Ties);
    assert_eq!((timed.score, &timed.moves), (untimed.score, &untimed.moves));
}

#[test]
fn a_line_after_a_timed_solve_is_not_cut_short_by_its_limit() {
    let mut e = engine::<u64>(4, 4, FULL, Config::default());
    let start = e.rules().start(Color::Black, Color::White);
    let limit = Duration::from_millis(200);
    let solved = e
        .solve_root_within(&start, RootMoves::Best, Some(limit))
        .unwrap();
    // The solve's deadline passes before the line is searched.
    std::thread::sleep(limit + Duration::from_millis(50));
    let line = e.perfect_line(&start, solved.score);
    let mut pos = start;
    for step in line {
        pos = match step {
            Some(m) => e.rules().play_unchecked(&pos, m),
            None => e.rules().pass(&pos),
        };
    }
    assert!(e.rules().is_over(&pos));
    assert_eq!(pos.score(), (3, 11));
}

/// The rules and start of a `rows`x`cols` board under `variant`, a one-thread configuration
/// with a small table, and a solve of the start that names every best move.
fn solved_start(
    rows: usize,
    cols: usize,
    variant: Variant,
) -> (Rules<u64>, Position<u64>, Config, endgame::Solved) {
    let rules = Rules::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
    let start = rules.start(Color::Black, Color::White);
    let config = Config {
        threads: 1,
        hash_mb: 16,
        ..Config::default()
    };
    let plain = Engine::new(rules.clone(), config).solve_root(&start, RootMoves::Ties);
    (rules, start, config, plain)
}

/// A solve stopped part way leaves bounds in its journal that hold (each is checked by a solve
/// of its own position), and a later solve that reads them finds the value and best moves of a
/// plain solve with less work.
#[test]
fn a_journal_carries_a_stopped_solve_on() {
    use std::ops::ControlFlow;
    use std::sync::Mutex;
    let simple_anywhere = Variant {
        place_anywhere: true,
        ..SIMPLE
    };
    for (rows, cols, variant) in [
        (3, 8, SIMPLE),
        (4, 5, SIMPLE_MISERE),
        (5, 5, MISERE),
        (4, 6, simple_anywhere),
    ] {
        let (rules, start, config, plain) = solved_start(rows, cols, variant);
        // The stop below comes at the first look at the progress after half the nodes.
        let half = plain.nodes / 2;
        assert!(
            half > 2 * endgame::PROGRESS_EVERY,
            "{rows}x{cols}: {plain:?}"
        );
        let kept = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&kept);
        let journal = Journal::new(&rules.geometry, 200_000)
            .with_sink(Box::new(move |pos, b| sink.lock().unwrap().push((*pos, b))));
        let journal = Arc::new(journal);
        let mut first = Engine::new(rules.clone(), config);
        first.keep_journal(Some(Arc::clone(&journal)));
        first.observe(Some(Box::new(move |p: &Progress| {
            if p.nodes >= half {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })));
        assert_eq!(first.solve_root_within(&start, RootMoves::Ties, None), None);
        let proved = kept.lock().unwrap().clone();
        assert!(!proved.is_empty(), "{rows}x{cols}");
        let at_start = journal.proved(&rules, &start, 3);
        assert!(
            at_start.low <= plain.score && plain.score <= at_start.high,
            "{rows}x{cols}: {at_start:?}, not {}",
            plain.score
        );
        for (pos, b) in &proved {
            let value = Engine::new(rules.clone(), config)
                .solve_exact(pos, false)
                .score;
            assert!(
                b.low <= value && value <= b.high,
                "{pos:?}: {b:?}, not {value}"
            );
        }
        // A later solve reading `journal` finds what the plain solve found, with less work.
        let resumes = |journal: Arc<Journal<u64>>, from: &str| {
            let mut engine = Engine::new(rules.clone(), config);
            engine.keep_journal(Some(journal));
            let resumed = engine.solve_root(&start, RootMoves::Ties);
            assert_eq!(
                (resumed.score, &resumed.moves),
                (plain.score, &plain.moves),
                "{rows}x{cols}, {from}"
            );
            assert!(
                resumed.nodes < plain.nodes,
                "{rows}x{cols}: {} nodes {from}, {} in one go",
                resumed.nodes,
                plain.nodes
            );
        };
        resumes(journal, "after the stop");
        // The same bounds kept for the images of their positions under the half turn serve
        // as well: the solve looks a position up as its images too.
        let half_turn = &rules.geometry.symmetries()[2];
        let turned = Journal::new(&rules.geometry, 200_000);
        for (pos, b) in &proved {
            turned.insert(&pos.mapped(half_turn), *b).unwrap();
        }
        resumes(Arc::new(turned), "from the images' bounds");
    }
}

/// A position one of whose moves leads to a position the journal settles is cut off at once,
/// whatever the order would have tried first: with a null window at its value, a search of
/// the position after the best first move visits that one node when the journal holds the
/// value of the position after the best reply, and many without it.
#[test]
fn a_journal_cuts_off_through_a_move() {
    for variant in [FULL, SIMPLE, SIMPLE_MISERE] {
        let rules = Rules::<u64>::new(crate::rules::Shape::new(4, 5).unwrap(), variant).unwrap();
        let start = rules.start(Color::Black, Color::White);
        let config = Config {
            threads: 1,
            hash_mb: 16,
            ..Config::default()
        };
        let exact = |pos: &Position<u64>| {
            Engine::new(rules.clone(), config)
                .solve_exact(pos, false)
                .score
        };
        let play = |pos: &Position<u64>, m| rules.play_flips(pos, m, rules.flips(pos, m));
        let after_first = play(&start, rules.moves(&start).lowest().unwrap());
        let value = exact(&after_first);
        let replies = rules.moves(&after_first);
        assert!(replies.count() > 1, "{variant:?}");
        let (best, after_best) = replies
            .iter()
            .map(|m| (m, play(&after_first, m)))
            .find(|(_, pos)| -exact(pos) == value)
            .unwrap();
        for known in [false, true] {
            let journal = Journal::new(&rules.geometry, u64::MAX);
            if known {
                let v = -value;
                journal
                    .insert(&after_best, Bounds { low: v, high: v })
                    .unwrap();
            }
            let mut engine = Engine::new(rules.clone(), config);
            engine.keep_journal(Some(Arc::new(journal)));
            let key = engine.zobrist.key(&after_first);
            let score = engine.solve(&after_first, key, value - 1, value, 0);
            assert!(
                score >= value,
                "{variant:?}, {known}: {score} below {value}"
            );
            let nodes = engine.nodes;
            if known {
                assert_eq!(nodes, 1, "{variant:?}: the cut through {best}");
            } else {
                assert!(nodes > 1, "{variant:?}: {nodes}");
            }
        }
    }
}

/// A solve that wants every best move and keeps a journal proves the value before it tests
/// the other moves for a tie: stopped as that round begins, it has named the best value, and
/// its journal (which keeps every root move's search, however small) proves exactly that
/// value. Run to the end, it finds the same best moves as a solve that tests for ties at once.
#[test]
fn the_value_is_proved_before_the_ties() {
    use std::ops::ControlFlow;
    use std::sync::Mutex;
    for (rows, cols, variant) in [
        (4, 6, SIMPLE),
        (3, 8, SIMPLE),
        (5, 5, FULL),
        (4, 5, SIMPLE_MISERE),
    ] {
        let (rules, start, config, plain) = solved_start(rows, cols, variant);
        let journal = Arc::new(Journal::new(&rules.geometry, u64::MAX));
        let mut first = Engine::new(rules.clone(), config);
        first.keep_journal(Some(Arc::clone(&journal)));
        let seen = Arc::new(Mutex::new(None));
        let at_ties = Arc::clone(&seen);
        first.observe(Some(Box::new(move |p: &Progress| {
            if p.ties {
                *at_ties.lock().unwrap() = Some(p.clone());
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })));
        assert_eq!(first.solve_root_within(&start, RootMoves::Ties, None), None);
        let at_ties = seen.lock().unwrap().clone();
        let at_ties = at_ties.unwrap_or_else(|| panic!("{rows}x{cols}: no round of ties"));
        assert_eq!(
            at_ties.best.map(|(_, v)| v),
            Some(plain.score),
            "{rows}x{cols}"
        );
        assert!(
            at_ties.total >= 1 && at_ties.done == 0,
            "{rows}x{cols}: {at_ties:?}"
        );
        let at_start = journal.proved(&rules, &start, 1);
        assert_eq!(
            (at_start.low, at_start.high),
            (plain.score, plain.score),
            "{rows}x{cols}"
        );
        assert!(plain.moves.len() > 1, "{rows}x{cols}: {plain:?}");
        // Ties found afterwards are those found in the window, with helpers too.
        for threads in [1, 2] {
            let mut engine = Engine::new(rules.clone(), Config { threads, ..config });
            let journal = Journal::new(&rules.geometry, u64::MAX);
            engine.keep_journal(Some(Arc::new(journal)));
            let afterwards = engine.solve_root(&start, RootMoves::Ties);
            assert_eq!(
                (afterwards.score, &afterwards.moves),
                (plain.score, &plain.moves),
                "{rows}x{cols}, {threads} threads"
            );
        }
    }
}

/// What a journal proves of a position: the minimax of its bounds over the moves after it,
/// with positions looked up under the board's symmetries, and the game's end scored as the
/// solver scores it (misère too).
#[test]
fn a_journal_proves_what_its_bounds_imply() {
    let config = Config {
        threads: 1,
        hash_mb: 16,
        ..Config::default()
    };
    for (rows, cols, variant) in [
        (4, 4, FULL),
        (4, 4, MISERE),
        (4, 4, SIMPLE),
        (4, 4, SIMPLE_MISERE),
        (4, 4, PLACE_ANYWHERE),
        (4, 6, FULL),
    ] {
        let rules =
            Rules::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
        let start = rules.start(Color::Black, Color::White);
        let exact = |pos: &Position<u64>| {
            Engine::new(rules.clone(), config)
                .solve_exact(pos, false)
                .score
        };
        let value = exact(&start);
        let cells = (rows * cols) as i32;
        let journal = Journal::new(&rules.geometry, 1);
        let unknown = Bounds {
            low: -cells,
            high: cells,
        };
        assert_eq!(journal.proved(&rules, &start, 1), unknown);
        // Each first move's exact value, one move of each kind: its twins are found as images.
        let maps = rules.geometry.symmetries();
        let mut known: Vec<Position<u64>> = Vec::new();
        for m in rules.moves(&start).iter() {
            let child = rules.play_flips(&start, m, rules.flips(&start, m));
            if known
                .iter()
                .any(|k| maps.iter().any(|map| child.mapped(map) == *k))
            {
                // A twin's bounds are found as its image's.
                let empties = rules.empty(&child).count();
                let twin = journal.bounds(&child, empties);
                assert!(twin.and_then(Bounds::exact).is_some(), "{twin:?}");
                continue;
            }
            let v = exact(&child);
            journal.insert(&child, Bounds { low: v, high: v }).unwrap();
            known.push(child);
        }
        let name = format!("{rows}x{cols} {variant:?}");
        assert!(
            known.len() < rules.moves(&start).count() as usize,
            "{name}: no twins"
        );
        let both = Bounds {
            low: value,
            high: value,
        };
        assert_eq!(journal.proved(&rules, &start, 1), both, "{name}");
        // The start's own bounds alone, with no moves looked through.
        assert_eq!(journal.proved(&rules, &start, 0), unknown, "{name}");
    }
    // Looking through every move to the end of a 3x3 game is a plain minimax.
    for variant in [FULL, MISERE, SIMPLE, SIMPLE_MISERE, PLACE_ANYWHERE] {
        let rules = Rules::<u64>::new(crate::rules::Shape::new(3, 3).unwrap(), variant).unwrap();
        let start = rules.start(Color::Black, Color::White);
        let value = Engine::new(rules.clone(), config)
            .solve_exact(&start, false)
            .score;
        let proved = Journal::new(&rules.geometry, 1).proved(&rules, &start, 9);
        assert_eq!((proved.low, proved.high), (value, value), "{variant:?}");
    }
}

/// The line of perfect play tries one move of each kind where a symmetry of the board fixes
/// the position: the solve searched one, and its twin's search could take as long again.
#[test]
fn a_line_of_perfect_play_tries_one_move_of_each_kind() {
    let e = engine::<u64>(4, 8, SIMPLE_MISERE, Config::default());
    let start = e.rules().start(Color::Black, Color::White);
    let mut list = Vec::new();
    let names = |list: &[Candidate<u64>]| -> Vec<String> {
        let g = &e.rules().geometry;
        list.iter().map(|c| g.square(c.cell).to_string()).collect()
    };
    // The start is the same after a half turn, which maps d1 to e4, e1 to d4, c1 to f4, c2 to
    // f3 and f2 to c3.
    e.line_candidates(&start, e.rules().moves(&start), &mut list);
    assert_eq!(e.rules().moves(&start).count(), 10);
    assert_eq!(names(&list), ["d1", "e1", "c1", "c2", "f2"]);
    // After c1 nothing is symmetric: every move is tried.
    let c1 = e.rules().geometry.index(Square::new(0, 2)).unwrap();
    let after = e.rules().play_unchecked(&start, c1);
    e.line_candidates(&after, e.rules().moves(&after), &mut list);
    assert_eq!(list.len(), e.rules().moves(&after).count() as usize);
}

/// Under SIMPLE rules a disc with no empty cell beside it never changes, so the table keys
/// positions without its colour: a position that differs from a solved one only there is
/// solved mostly from the table, and its value is the other's moved by that disc.
#[test]
fn simple_positions_differing_in_settled_discs_share_the_table() {
    for variant in [SIMPLE, SIMPLE_MISERE] {
        let rules = Rules::<u64>::new(crate::rules::Shape::new(4, 6).unwrap(), variant).unwrap();
        let g = &rules.geometry;
        let (pos, settled) = (0..)
            .map(|seed| random_position(&rules, seed, 12))
            .find_map(|pos| {
                let empty = rules.empty(&pos);
                let settled = (pos.black | pos.white) & !(g.neighbours(empty) | empty);
                settled.lowest().map(|cell| (pos, cell))
            })
            .unwrap();
        let mut turned = pos;
        turned.black ^= u64::bit(settled);
        turned.white ^= u64::bit(settled);
        let mut e = engine::<u64>(4, 6, variant, depth(64));
        let first = e.solve_exact(&pos, false);
        let again = e.solve_exact(&turned, false);
        let fresh = engine::<u64>(4, 6, variant, depth(64)).solve_exact(&turned, false);
        let what = format!("{variant:?} {pos:?}, {} turned over", name(6, settled));
        assert_eq!(again.score, fresh.score, "{what}");
        assert_eq!(
            fresh.score,
            minimax(&rules, &turned, Scoring::Plain),
            "{what}"
        );
        // The mover's disc turned to the opponent's costs it two discs, and gains two under misère.
        let mover_lost = pos.mover() & u64::bit(settled) != 0;
        let change = if mover_lost == variant.misere { 2 } else { -2 };
        assert_eq!(fresh.score, first.score + change, "{what}");
        assert!(
            again.nodes * 4 < fresh.nodes,
            "{what}: {} nodes after the first, {} fresh",
            again.nodes,
            fresh.nodes
        );
    }
}

/// Under SIMPLE rules a position of many empty cells shares its table entry with its images
/// under the board's symmetries: the image of a solved position is solved mostly from the
/// table, to the same value, and the best move the table gives it is a move of the image.
#[test]
fn simple_positions_share_the_table_with_their_images() {
    for (rows, cols, variant) in [(4, 6, SIMPLE), (4, 6, SIMPLE_MISERE), (5, 5, SIMPLE)] {
        let rules =
            Rules::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
        let pos = random_position(&rules, 7, 14);
        for map in rules.geometry.symmetries() {
            let image = pos.mapped(&map);
            let mut e = engine::<u64>(rows, cols, variant, depth(64));
            let first = e.solve_exact(&pos, true);
            let again = e.solve_exact(&image, true);
            let fresh = engine::<u64>(rows, cols, variant, depth(64)).solve_exact(&image, true);
            let what = format!("{variant:?} {pos:?} under {map:?}");
            assert_eq!(again.score, first.score, "{what}");
            assert_eq!(fresh.score, first.score, "{what}");
            let mapped: Vec<(usize, i32)> = first.moves.iter().map(|&(m, v)| (map[m], v)).collect();
            let sorted = |mut moves: Vec<(usize, i32)>| {
                moves.sort();
                moves
            };
            assert_eq!(sorted(again.moves.clone()), sorted(mapped), "{what}");
            assert!(rules.moves(&image).contains(again.best.unwrap()), "{what}");
            assert!(
                again.nodes * 4 < fresh.nodes,
                "{what}: {} nodes after the first, {} fresh",
                again.nodes,
                fresh.nodes
            );
        }
    }
}

/// Under place-anywhere SIMPLE rules every empty cell is a move whatever the colours, and a
/// disc ends up the colour of whoever fills the last empty cell beside it: positions that
/// differ only in the colour of a disc with an empty cell beside it are worth the same, and
/// the solver's table keys them as one.
#[test]
fn place_anywhere_simple_positions_differing_in_any_disc_share_the_table() {
    for misere in [false, true] {
        let variant = Variant {
            place_anywhere: true,
            misere,
            ..SIMPLE
        };
        let rules = Rules::<u64>::new(crate::rules::Shape::new(4, 6).unwrap(), variant).unwrap();
        let g = &rules.geometry;
        let pos = random_position(&rules, 3, 10);
        let empty = rules.empty(&pos);
        let unsettled = (pos.black | pos.white) & g.neighbours(empty);
        assert!(unsettled.count() >= 3, "{pos:?}");
        for cell in unsettled.iter().take(3) {
            let mut turned = pos;
            turned.black ^= u64::bit(cell);
            turned.white ^= u64::bit(cell);
            let mut e = engine::<u64>(4, 6, variant, depth(64));
            let first = e.solve_exact(&pos, false);
            let again = e.solve_exact(&turned, false);
            let fresh = engine::<u64>(4, 6, variant, depth(64)).solve_exact(&turned, false);
            let what = format!("{variant:?} {pos:?}, {} turned over", name(6, cell));
            assert_eq!(
                fresh.score,
                minimax(&rules, &turned, Scoring::Plain),
                "{what}"
            );
            assert_eq!(fresh.score, first.score, "{what}");
            assert_eq!(again.score, first.score, "{what}");
            assert!(
                again.nodes * 20 < fresh.nodes,
                "{what}: {} nodes after the first, {} fresh",
                again.nodes,
                fresh.nodes
            );
        }
    }
}

/// The values of the sets of a place-anywhere SIMPLE position's empty cells are those the
/// search finds (minimax, where few cells are empty), for the position and for positions
/// below it whatever the colours of their discs, under both goals.
#[test]
fn subsets_value_place_anywhere_simple_positions_as_the_search_does() {
    let boards = [(4, 4, 8), (3, 6, 12), (4, 5, 14), (5, 5, 16), (3, 7, 17)];
    for (seed, (rows, cols, empties)) in (1u64..).zip(boards) {
        for misere in [false, true] {
            let variant = Variant {
                place_anywhere: true,
                misere,
                ..SIMPLE
            };
            let rules =
                Rules::<u64>::new(crate::rules::Shape::new(rows, cols).unwrap(), variant).unwrap();
            let mut pos = random_position(&rules, seed, empties);
            let subsets = subsets::Subsets::new(&rules, rules.empty(&pos), 1, |_| false).unwrap();
            let mut e = engine::<u64>(rows, cols, variant, depth(64));
            let mut rng = seed;
            loop {
                let empty = rules.empty(&pos);
                let want = if empty.count() <= 7 {
                    minimax(&rules, &pos, Scoring::Plain)
                } else {
                    e.solve_exact(&pos, false).score
                };
                let what = format!("{variant:?} {rows}x{cols} {pos:?}");
                assert_eq!(subsets.value(&rules, &pos, empty), Some(want), "{what}");
                if empty.is_empty() {
                    break;
                }
                // Turn a disc over, then play a move, both at random.
                let discs: Vec<usize> = (pos.black | pos.white).iter().collect();
                let cell = discs[splitmix(&mut rng) as usize % discs.len()];
                pos.black ^= u64::bit(cell);
                pos.white ^= u64::bit(cell);
                let moves: Vec<usize> = rules.moves(&pos).iter().collect();
                pos = rules.play_unchecked(&pos, moves[splitmix(&mut rng) as usize % moves.len()]);
            }
            // A cell that was not empty at the root is not among the sets.
            let mut outside = random_position(&rules, seed, empties);
            let disc = (outside.black | outside.white).lowest().unwrap();
            outside.black &= !u64::bit(disc);
            outside.white &= !u64::bit(disc);
            assert_eq!(subsets.value(&rules, &outside, rules.empty(&outside)), None);
        }
    }
}

/// The sets are valued alike on any number of threads, and counted once each.
#[test]
fn subsets_are_the_same_on_any_number_of_threads() {
    let rules = Rules::<u64>::new(
        crate::rules::Shape::new(4, 6).unwrap(),
        Variant {
            place_anywhere: true,
            ..SIMPLE
        },
    )
    .unwrap();
    let start = rules.start(Color::Black, Color::White);
    let empty = rules.empty(&start);
    let build = |threads| {
        let mut counted = 0;
        let subsets = subsets::Subsets::new(&rules, empty, threads, |sets| {
            counted += sets;
            false
        })
        .unwrap();
        assert_eq!(counted, 1 << 20, "{threads} threads");
        subsets
    };
    let one = build(1);
    for threads in [2, 5] {
        assert!(one.values == build(threads).values, "{threads} threads");
    }
    // Stopped at the first report, it keeps nothing.
    assert!(subsets::Subsets::new(&rules, empty, 2, |_| true).is_none());
}

/// A solve from enough empty cells answers from the sets of them, with the values, best
/// moves and line of the search; and it searches where the table's memory would not hold them.
#[test]
fn place_anywhere_simple_solves_from_the_sets_of_empty_cells_as_the_search_does() {
    for misere in [false, true] {
        let variant = Variant {
            place_anywhere: true,
            misere,
            ..SIMPLE
        };
        let rules = Rules::<u64>::new(crate::rules::Shape::new(4, 5).unwrap(), variant).unwrap();
        let pos = random_position(&rules, 11, 15);
        assert_eq!(rules.empty(&pos).count(), 15);
        let solve = |from, hash_mb| {
            let mut e = engine::<u64>(
                4,
                5,
                variant,
                Config {
                    hash_mb,
                    ..depth(64)
                },
            );
            e.subsets_from = from;
            let solved = e.solve_exact(&pos, true);
            let line = e.perfect_line(&pos, solved.score);
            let mut moves = solved.moves.clone();
            moves.sort();
            (solved.score, moves, line, solved.nodes)
        };
        let (score, moves, line, nodes) = solve(10, 1);
        let search = solve(subsets::SUBSETS_FROM, 1);
        assert!((1 << 15..(1 << 15) + 100).contains(&nodes), "{nodes}");
        assert!(search.3 > 1 << 15, "{}", search.3);
        assert_eq!(
            (score, &moves, &line),
            (search.0, &search.1, &search.2),
            "{variant:?}"
        );
        // 2^15 sets take 32 KB: with less memory than that, the solve searches.
        let tight = solve(10, 0);
        assert!(tight.3 > (1 << 15) + 100, "{}", tight.3);
        assert_eq!(
            (tight.0, tight.1, tight.2),
            (score, moves, line),
            "{variant:?}"
        );
    }
}

/// In the normal SIMPLE game under standard placement, the solver orders its moves by what
/// each would be worth were every empty cell a move: the same values, in far fewer nodes over
/// random 5x6 positions 18 cells from the end.
#[test]
fn simple_normal_moves_ordered_by_their_worth_under_place_anywhere_take_fewer_nodes() {
    let rules = Rules::<u64>::new(crate::rules::Shape::new(5, 6).unwrap(), SIMPLE).unwrap();
    let (mut with, mut without) = (0, 0);
    for seed in 1..=5 {
        let pos = random_position(&rules, seed, 18);
        let solve = |order_from| {
            let mut e = engine::<u64>(5, 6, SIMPLE, depth(64));
            e.order_from = order_from;
            let solved = e.solve_exact(&pos, true);
            let mut moves = solved.moves.clone();
            moves.sort();
            (solved.score, moves, solved.nodes)
        };
        let ordered = solve(subsets::ORDER_FROM);
        let plain = solve(u32::MAX);
        assert_eq!((ordered.0, &ordered.1), (plain.0, &plain.1), "{pos:?}");
        with += ordered.2;
        without += plain.2;
    }
    assert!(
        with * 5 < without * 4,
        "{with} nodes with the order, {without} without"
    );
}

/// How far shallow searches miss the exact value near the end of 8x8 games, with the built-in
/// weights and with the classic evaluation: positions from the engine's own games (12 random
/// moves, then the engine 3 moves deep) at 12 to 22 empty cells whose exact value lies within
/// 16 discs, where the solver's windows mostly are. Prints the standard deviation and mean
/// absolute error in discs per depth (`docs/performance.md` quotes them); summed over
/// every count and depth, the learned weights must miss by less.
#[test]
#[ignore = "solves about 200 positions of 12-22 empty cells, about two minutes in release: cargo test --release --lib -- --ignored"]
fn learned_estimates_miss_less_than_classic_near_the_end() {
    // The program turns the built-in weights on; the library's tests leave them off. This is
    // the library's only ignored test, so it runs alone.
    weights::use_built_in(true);
    let config = |eval| Config {
        depth: Some(3),
        move_time: None,
        hash_mb: 64,
        eval,
        ..Config::default()
    };
    let mut learned = engine::<u64>(8, 8, FULL, config(EvalKind::Learned));
    let mut classic = engine::<u64>(8, 8, FULL, config(EvalKind::Classic));
    let depths = [0, 2, 4, 6, 8];
    let mut rng = 11u64;
    // Mean absolute errors summed over every count of empty cells and depth: learned, classic.
    let mut totals = [0.0; 2];
    for empties in (12..=22).step_by(2) {
        let mut positions = Vec::new();
        for _ in 0..80 {
            let e = &mut learned;
            let mut pos = e.rules().start(Color::Black, Color::White);
            let mut plies = 0;
            while e.rules().empty(&pos).count() > empties && !e.rules().is_over(&pos) {
                let moves = e.rules().moves(&pos);
                if moves.is_empty() {
                    pos = e.rules().pass(&pos);
                    continue;
                }
                let m = if plies < 12 {
                    random_move(moves, &mut rng)
                } else {
                    e.search(&pos).best.unwrap()
                };
                pos = e.rules().play_unchecked(&pos, m);
                plies += 1;
            }
            if e.rules().moves(&pos).is_empty() {
                continue;
            }
            e.clear();
            let exact = e.solve_exact(&pos, false).score;
            if exact.abs() <= 16 {
                positions.push((pos, exact));
            }
        }
        let engines = [("learned", &mut learned), ("classic", &mut classic)];
        for (total, (name, e)) in totals.iter_mut().zip(engines) {
            let mut line = format!(
                "{empties} empty cells, {} positions, {name}:",
                positions.len()
            );
            for &depth in &depths {
                let errors: Vec<f64> = positions
                    .iter()
                    .map(|(pos, exact)| {
                        e.clear();
                        e.begin(Instant::now(), None);
                        let key = e.zobrist.key(pos);
                        let v = e.pvs(pos, key, depth, -INFINITY, INFINITY, 0);
                        *exact as f64 - Outcome::to_hundredths(v) as f64 / DISC as f64
                    })
                    .collect();
                let n = errors.len() as f64;
                let mean = errors.iter().sum::<f64>() / n;
                let sd = (errors.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
                let mae = errors.iter().map(|x| x.abs()).sum::<f64>() / n;
                line += &format!("  depth {depth} sd {sd:.1} mae {mae:.1}");
                *total += mae;
            }
            println!("{line}");
        }
    }
    assert!(
        totals[0] < totals[1],
        "learned weights miss by {:.1} in all, the classic evaluation by {:.1}",
        totals[0],
        totals[1]
    );
}

/// Listing near the horizon in square order is the stable sort of the plain list by square
/// weight, with the table's move kept first: the order the search had before it listed so.
#[test]
fn moves_listed_by_square_are_the_plain_list_sorted_by_square() {
    let mut seed = 41u64;
    for (rows, cols, variant) in [
        (8, 8, FULL),
        (6, 6, FULL),
        (3, 3, FULL),
        (5, 7, SIMPLE),
        (4, 9, PLACE_ANYWHERE),
    ] {
        let e = engine::<u64>(rows, cols, variant, depth(1));
        for _ in 0..60 {
            let empties = (splitmix(&mut seed) % (rows * cols - 3) as u64) as u32;
            let pos = random_position(e.rules(), splitmix(&mut seed), empties);
            let moves = e.rules().moves(&pos);
            let table_move = moves.iter().nth(splitmix(&mut seed) as usize % 4);
            let (mut listed, mut sorted) = (Vec::new(), Vec::new());
            e.list_by_square(moves, table_move, &mut listed);
            e.list_moves(moves, table_move, &mut sorted);
            let first = usize::from(table_move.is_some());
            sorted[first..].sort_by_key(|c| std::cmp::Reverse(e.square_weight[c.cell]));
            let cells = |list: &[Candidate<u64>]| list.iter().map(|c| c.cell).collect::<Vec<_>>();
            assert_eq!(cells(&listed), cells(&sorted), "{rows}x{cols} {pos:?}");
        }
    }
}

/// At a node whose moves the threads share, a thread searches the first `SEARCHED_BY_ALL`
/// moves in turn even where other threads are in them; of the later ones, it puts off those
/// another thread is in until it has searched the rest.
#[test]
fn threads_put_off_only_later_moves_that_another_thread_is_in() {
    let mut e = engine::<u64>(8, 8, FULL, depth(1));
    e.shared = Arc::new(Shared::new(2));
    let mut seed = 43u64;
    let pos = std::iter::repeat_with(|| random_position(e.rules(), splitmix(&mut seed), 30))
        .find(|pos| e.rules().moves(pos).count() >= 8)
        .unwrap();
    let key = e.zobrist.key(&pos);
    let mut list = Vec::new();
    e.list_moves(e.rules().moves(&pos), None, &mut list);
    // Another thread is in the position after every second move.
    let cells: Vec<usize> = list.iter().map(|c| c.cell).collect();
    for c in list.iter().skip(1).step_by(2) {
        let (_, child_key) = e.after(&pos, key, c.cell, c.flips(&e.rules, &pos));
        e.shared.busy_slot(child_key).fetch_add(1, Relaxed);
    }
    let mut searched = Vec::new();
    let (score, _) = e.best_of(
        &pos,
        key,
        &mut list,
        -INFINITY,
        INFINITY,
        true,
        |_, _| {},
        |_, child, _, _| {
            searched.push(child.cell);
            0
        },
    );
    assert_eq!(score, 0);
    let (busy, free): (Vec<usize>, Vec<usize>) =
        (SEARCHED_BY_ALL..cells.len()).partition(|i| i % 2 == 1);
    let expected: Vec<usize> = (0..SEARCHED_BY_ALL)
        .chain(free)
        .chain(busy)
        .map(|i| cells[i])
        .collect();
    assert_eq!(searched, expected);
}

/// The progress of a solve on several threads counts the helpers' nodes as they go, not only
/// at the end: never more than the solve's total, and near the end most of it (each helper
/// has at most `PROGRESS_EVERY` nodes unpublished, while the main thread alone searched about a
/// third of them).
#[test]
fn progress_counts_the_helpers_nodes() {
    use std::ops::ControlFlow;
    use std::sync::Mutex;
    let rules = Rules::<u64>::new(crate::rules::Shape::new(5, 5).unwrap(), MISERE).unwrap();
    let start = rules.start(Color::Black, Color::White);
    let config = Config {
        threads: 3,
        hash_mb: 16,
        ..Config::default()
    };
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let mut engine = Engine::new(rules.clone(), config);
    engine.observe(Some(Box::new(move |p: &Progress| {
        sink.lock().unwrap().push(p.nodes);
        ControlFlow::Continue(())
    })));
    let solved = engine.solve_root(&start, RootMoves::Ties);
    let seen = seen.lock().unwrap();
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(
        seen.iter().all(|&n| n <= solved.nodes),
        "{seen:?} {solved:?}"
    );
    assert!(
        solved.nodes > 8 * endgame::PROGRESS_EVERY && seen.last() > Some(&(solved.nodes / 2)),
        "{seen:?} {solved:?}"
    );
}
