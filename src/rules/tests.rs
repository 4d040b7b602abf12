use super::*;

/// A position from rows of `*`/`X`/`B` (black), `O`/`W` (white) and `.`/`-` (empty).
fn position<B: Bits>(rows: &[&str], to_move: Color) -> (Rules<B>, Position<B>) {
    position_with(rows, to_move, Variant::default())
}

fn position_with<B: Bits>(
    rows: &[&str],
    to_move: Color,
    variant: Variant,
) -> (Rules<B>, Position<B>) {
    let cells: Vec<Vec<char>> = rows
        .iter()
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let rules = Rules::new(
        crate::rules::Shape::new(cells.len(), cells[0].len()).unwrap(),
        variant,
    )
    .unwrap();
    let mut pos = Position {
        black: B::ZERO,
        white: B::ZERO,
        to_move,
    };
    for (r, row) in cells.iter().enumerate() {
        for (c, ch) in row.iter().enumerate() {
            let bit = B::bit(r * row.len() + c);
            match ch {
                '*' | 'X' | 'B' => pos.black |= bit,
                'O' | 'W' => pos.white |= bit,
                _ => {}
            }
        }
    }
    (rules, pos)
}

/// `c6` style, row 1 at the top.
fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    Square::new(
        name[1..].parse::<u8>().unwrap() - 1,
        b[0].to_ascii_lowercase() - b'a',
    )
}

#[test]
fn c6_flips_five_discs_and_no_chain_reaction() {
    let figure6 = [
        "..**....", "...*O*..", ".O**OOO*", "**OOO*OO", "*OOO***O", "*O.OO.O*", "...O*...",
        "....*...",
    ];
    let figure7 = [
        "..**....", "...*O*..", ".O**OOO*", "***OO*OO", "***O***O", "***OO.O*", "...**...",
        "....*...",
    ];
    let (rules, pos) = position::<u64>(&figure6, Color::Black);
    let (_, want) = position::<u64>(&figure7, Color::White);
    let c6 = rules.geometry.index(sq("c6")).unwrap();
    assert!(rules.is_legal(&pos, c6));
    let mut flipped: Vec<String> = rules
        .flips(&pos, c6)
        .iter()
        .map(|i| rules.geometry.square(i).to_string())
        .collect();
    flipped.sort();
    assert_eq!(flipped, ["b5", "b6", "c4", "c5", "d7"]);
    assert_eq!(rules.play_unchecked(&pos, c6), want);
}

#[test]
fn the_standard_start_has_four_symmetric_moves() {
    let rules =
        Rules::<u64>::new(crate::rules::Shape::new(8, 8).unwrap(), Variant::default()).unwrap();
    let pos = rules.start(Color::Black, Color::White);
    let mut moves: Vec<String> = rules
        .moves(&pos)
        .iter()
        .map(|i| rules.geometry.square(i).to_string())
        .collect();
    moves.sort();
    assert_eq!(moves, ["c4", "d3", "e6", "f5"]);
    let f5 = rules.geometry.index(sq("f5")).unwrap();
    let after = rules.play_unchecked(&pos, f5);
    assert_eq!(after.score(), (4, 1));
}

#[test]
fn the_4x4_sample_game_white_wins_12_to_4_after_black_passes() {
    let setup = Setup::standard(Shape::square(4).unwrap(), Variant::default());
    let mut game = Game::<u64>::new(&setup, Passes::Automatic).unwrap();
    // (move, flips) as the seed tells them.
    let script: [(&str, &[&str]); 12] = [
        ("b1", &["b2"]),
        ("a1", &["b2"]),
        ("c4", &["c3"]),
        ("d4", &["c3"]),
        ("d3", &["c3"]),
        ("b4", &["b3", "c4"]),
        ("a4", &["b3"]),
        ("c1", &["b1", "c2", "c3"]),
        ("d1", &["c2"]),
        ("d2", &["c2", "d3"]),
        ("a3", &["b3"]),
        ("a2", &["a3"]),
    ];
    let mut passes = Vec::new();
    for (mv, flips) in script {
        let played = game
            .try_play(Move::Play(sq(mv)))
            .unwrap_or_else(|e| panic!("{mv}: {e}"));
        let g = &game.rules().geometry;
        let mut got: Vec<String> = played
            .flips
            .iter()
            .map(|i| g.square(i).to_string())
            .collect();
        got.sort();
        assert_eq!(got, flips, "flips of {mv}");
        passes.extend(played.passed);
    }
    assert_eq!(passes, [Color::Black]);
    assert_eq!(game.to_move(), None);
    assert_eq!(
        game.score(),
        ByColor {
            black: 4,
            white: 12
        }
    );
    assert_eq!(game.winner(), Some(Winner::White));
}

#[test]
fn simple_rules_flip_exactly_the_neighbours() {
    let rows = ["W.W..", ".BWB.", "WW...", "....."];
    let variant = Variant {
        rule_set: RuleSet::Simple,
        ..Variant::default()
    };
    let (rules, pos) = position_with::<u64>(&rows, Color::Black, variant);
    let b1 = rules.geometry.index(sq("b1")).unwrap();
    let mut flipped: Vec<String> = rules
        .flips(&pos, b1)
        .iter()
        .map(|i| rules.geometry.square(i).to_string())
        .collect();
    flipped.sort();
    // a1, c1 and c2 touch b1; a3 and b3 are two rows away.
    assert_eq!(flipped, ["a1", "c1", "c2"]);
    // e4 touches no white disc; e1 touches none either (d2 is black).
    let moves = rules.moves(&pos);
    assert!(!moves.contains(rules.geometry.index(sq("e4")).unwrap()));
    assert!(!moves.contains(rules.geometry.index(sq("e1")).unwrap()));
    assert!(moves.contains(rules.geometry.index(sq("a4")).unwrap()));
}

#[test]
fn place_anywhere_allows_every_empty_cell_and_never_passes() {
    let variant = Variant {
        place_anywhere: true,
        ..Variant::default()
    };
    let setup = Setup::standard(Shape::square(3).unwrap(), variant);
    let mut game = Game::<u64>::new(&setup, Passes::Automatic).unwrap();
    assert_eq!(game.legal_moves().count(), 5);
    // c3 flanks nothing but is legal; it flips nothing.
    let played = game.try_play(Move::Play(Square::new(2, 2))).unwrap();
    assert!(played.flips.is_empty());
    assert_eq!(played.passed, None);
    let mut count = 1;
    while let Some(m) = game.legal_moves().lowest() {
        let square = game.rules().geometry.square(m);
        game.try_play(Move::Play(square)).unwrap();
        count += 1;
    }
    assert_eq!(count, 5);
    let score = game.score();
    assert_eq!(score.black + score.white, 9);
}

#[test]
fn misere_reverses_the_winner() {
    let (rules, pos) = position::<u64>(&["BBB", "BWB", "BBB"], Color::White);
    assert!(rules.is_over(&pos));
    assert_eq!(rules.winner(&pos), Winner::Black);
    let misere = Rules::<u64>::new(
        crate::rules::Shape::new(3, 3).unwrap(),
        Variant {
            misere: true,
            ..Variant::default()
        },
    )
    .unwrap();
    assert_eq!(misere.winner(&pos), Winner::White);
}

#[test]
fn start_block_sits_up_and_left_on_odd_sides() {
    let rules =
        Rules::<u128>::new(crate::rules::Shape::new(5, 7).unwrap(), Variant::default()).unwrap();
    let pos = rules.start(Color::White, Color::Black);
    let at = |r, c| pos.color_at(rules.geometry.index(Square::new(r, c)).unwrap());
    assert_eq!(
        (at(1, 2), at(1, 3)),
        (Some(Color::Black), Some(Color::White))
    );
    assert_eq!(
        (at(2, 2), at(2, 3)),
        (Some(Color::White), Some(Color::Black))
    );
    assert_eq!(pos.occupied().count(), 4);
    assert_eq!(pos.to_move, Color::White);
}

#[test]
fn moves_do_not_wrap_around_edges() {
    // On a 4-wide board, a white line ending at the right edge must not continue on the next row.
    let (rules, pos) = position::<u64>(&["..BW", "W...", "....", "...."], Color::Black);
    assert!(rules.moves(&pos).is_empty());
    let (rules, pos) = position::<Words<4>>(&["..BW", "W...", "....", "...."], Color::Black);
    assert!(rules.moves(&pos).is_empty());
}

#[test]
fn every_width_gives_the_same_perft() {
    fn count<B: Bits>(rows: usize, cols: usize, depth: u32) -> u64 {
        let rules = Rules::<B>::new(
            crate::rules::Shape::new(rows, cols).unwrap(),
            Variant::default(),
        )
        .unwrap();
        perft(&rules, &rules.start(Color::Black, Color::White), depth)
    }
    let want = count::<u64>(8, 8, 6);
    assert_eq!(want, 8200);
    assert_eq!(count::<u128>(8, 8, 6), want);
    assert_eq!(count::<Words<4>>(8, 8, 6), want);
    assert_eq!(count::<Words<11>>(8, 8, 6), want);
    assert_eq!(count::<Words<11>>(6, 7, 6), count::<u64>(6, 7, 6));
}
