//! The bitboard library against the plain grid reference of `tests/common`, on random board
//! shapes, rule sets, colours and positions, at the width the product picks and at wider ones.

mod common;

use common::{cases, Cell, Colour, RefBoard, RefGame, RefVariant, Rng, DIRECTIONS};
use othello::rules::{
    Bits, Color, Game, IllegalMove, Move, Passes, Position, RuleSet, Rules, Setup, Shape, Square,
    Variant, Winner, Words,
};
use othello::with_bits;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;

type Checked = Result<(), TestCaseError>;

fn color(c: Colour) -> Color {
    match c {
        Colour::Black => Color::Black,
        Colour::White => Color::White,
    }
}

fn variant(v: RefVariant) -> Variant {
    Variant {
        rule_set: if v.simple {
            RuleSet::Simple
        } else {
            RuleSet::Full
        },
        place_anywhere: v.place_anywhere,
        misere: v.misere,
    }
}

fn winner(w: Option<Colour>) -> Winner {
    match w {
        Some(Colour::Black) => Winner::Black,
        Some(Colour::White) => Winner::White,
        None => Winner::Tie,
    }
}

fn square((r, c): Cell) -> Square {
    Square::new(r as u8, c as u8)
}

fn cell(sq: Square) -> Cell {
    (sq.row.into(), sq.col.into())
}

fn cells_of<B: Bits>(cols: usize, set: B) -> Vec<Cell> {
    set.iter().map(|i| (i / cols, i % cols)).collect()
}

/// The library position holding the reference's discs, built bit by bit so that a stray bit
/// outside the board in a library result shows up as a difference.
fn position_of<B: Bits>(board: &RefBoard) -> Position<B> {
    let mut pos = Position {
        black: B::ZERO,
        white: B::ZERO,
        to_move: color(board.to_move),
    };
    for (r, row) in board.cells.iter().enumerate() {
        for (c, disc) in row.iter().enumerate() {
            match disc {
                Some(Colour::Black) => pos.black |= B::bit(r * board.cols + c),
                Some(Colour::White) => pos.white |= B::bit(r * board.cols + c),
                None => {}
            }
        }
    }
    pos
}

/// Every board shape whose cell count is in `lo..=hi`.
fn shapes(lo: usize, hi: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for r in 3..=26 {
        for c in 3..=26 {
            if (lo..=hi).contains(&(r * c)) {
                out.push((r, c));
            }
        }
    }
    out
}

/// Shapes leaning towards small boards (fast, and where edge effects are dense), but reaching
/// every storage width: u64, u128, 4, 7 and 11 words.
fn shape() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![
        4 => select(shapes(9, 36)),
        3 => select(shapes(37, 64)),
        2 => select(shapes(65, 128)),
        1 => select(shapes(129, 256)),
        1 => select(shapes(257, 448)),
        1 => select(shapes(449, 676)),
    ]
}

fn colour() -> impl Strategy<Value = Colour> {
    prop_oneof![Just(Colour::Black), Just(Colour::White)]
}

fn ref_variant() -> impl Strategy<Value = RefVariant> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(simple, place_anywhere, misere)| {
        RefVariant {
            simple,
            place_anywhere,
            misere,
        }
    })
}

/// A game from the start: `plies` random legal moves (passes do not count), or to the end.
#[derive(Clone, Debug)]
struct GameCase {
    rows: usize,
    cols: usize,
    variant: RefVariant,
    first: Colour,
    top_left: Colour,
    plies: usize,
    seed: u64,
}

impl GameCase {
    fn start(&self) -> RefBoard {
        RefBoard::start(
            self.rows,
            self.cols,
            self.variant,
            self.first,
            self.top_left,
        )
    }
    fn setup(&self) -> Setup {
        Setup {
            shape: Shape::new(self.rows, self.cols).unwrap(),
            variant: variant(self.variant),
            first: color(self.first),
            top_left: color(self.top_left),
        }
    }
}

fn game_case(shape: impl Strategy<Value = (usize, usize)>) -> impl Strategy<Value = GameCase> {
    let plies = prop_oneof![0..=12usize, 0..=700usize, Just(usize::MAX)];
    (
        shape,
        ref_variant(),
        colour(),
        colour(),
        plies,
        any::<u64>(),
    )
        .prop_map(
            |((rows, cols), variant, first, top_left, plies, seed)| GameCase {
                rows,
                cols,
                variant,
                first,
                top_left,
                plies,
                seed,
            },
        )
}

/// A random scatter of discs with a random side to move: positions no game reaches, such as
/// one-colour boards, full boards and stranded discs.
#[derive(Clone, Debug)]
struct PositionCase {
    rows: usize,
    cols: usize,
    variant: RefVariant,
    to_move: Colour,
    /// Percent of cells left empty, then percent of discs that are black.
    empty: usize,
    black: usize,
    seed: u64,
}

impl PositionCase {
    fn board(&self) -> RefBoard {
        let mut board = RefBoard::empty(self.rows, self.cols, self.variant, self.to_move);
        let mut rng = Rng(self.seed);
        for row in &mut board.cells {
            for disc in row.iter_mut() {
                *disc = if rng.below(100) < self.empty {
                    None
                } else if rng.below(100) < self.black {
                    Some(Colour::Black)
                } else {
                    Some(Colour::White)
                };
            }
        }
        board
    }
}

fn position_case() -> impl Strategy<Value = PositionCase> {
    let percent = || prop_oneof![1 => Just(0usize), 1 => Just(100usize), 6 => 0..=100usize];
    (
        shape(),
        ref_variant(),
        colour(),
        percent(),
        percent(),
        any::<u64>(),
    )
        .prop_map(
            |((rows, cols), variant, to_move, empty, black, seed)| PositionCase {
                rows,
                cols,
                variant,
                to_move,
                empty,
                black,
                seed,
            },
        )
}

/// The unchecked rules against the reference in one position. `thorough` also plays every
/// legal move and asks about every cell, which is slow on big boards.
fn check_position<B: Bits>(
    rules: &Rules<B>,
    pos: &Position<B>,
    reference: &RefBoard,
    thorough: bool,
) -> Checked {
    let cols = reference.cols;
    prop_assert_eq!(*pos, position_of::<B>(reference));
    prop_assert_eq!(pos.score(), reference.score());

    let moves = reference.legal_moves();
    prop_assert_eq!(cells_of(cols, rules.moves(pos)), moves.clone());
    let theirs = reference.legal_moves_for(reference.to_move.other());
    prop_assert_eq!(
        cells_of(cols, rules.moves_for(pos.opponent(), pos.mover())),
        theirs
    );
    for &m in &moves {
        let index = m.0 * cols + m.1;
        prop_assert_eq!(
            cells_of(cols, rules.flips(pos, index)),
            reference.flips(m),
            "{:?}",
            m
        );
        if thorough {
            let mut after = reference.clone();
            after.play(m);
            prop_assert_eq!(
                rules.play_unchecked(pos, index),
                position_of::<B>(&after),
                "{:?}",
                m
            );
        }
    }
    prop_assert_eq!(rules.is_over(pos), reference.is_over());
    prop_assert_eq!(rules.winner(pos), winner(reference.winner()));
    let mut passed = reference.clone();
    passed.pass();
    prop_assert_eq!(rules.pass(pos), position_of::<B>(&passed));

    if thorough {
        for r in 0..reference.rows {
            for c in 0..cols {
                let index = r * cols + c;
                prop_assert_eq!(rules.is_legal(pos, index), moves.contains(&(r, c)));
                // Flips of an empty cell are defined whether or not the move is legal.
                if reference.at((r, c)).is_none() {
                    let want = reference.flips((r, c));
                    prop_assert_eq!(cells_of(cols, rules.flips(pos, index)), want);
                }
            }
        }
        prop_assert!(!rules.is_legal(pos, reference.rows * cols));
    }
    Ok(())
}

/// A random game with the unchecked rules, passing by hand as the reference does.
fn rules_along_game<B: Bits>(case: &GameCase) -> Checked {
    let rules = Rules::<B>::new(
        othello::rules::Shape::new(case.rows, case.cols).unwrap(),
        variant(case.variant),
    )
    .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut reference = case.start();
    let mut pos = rules.start(color(case.first), color(case.top_left));
    let mut rng = Rng(case.seed);
    let mut plies = 0;
    loop {
        check_position(&rules, &pos, &reference, rng.below(8) == 0)?;
        if plies == case.plies || reference.is_over() {
            break;
        }
        let moves = reference.legal_moves();
        if moves.is_empty() {
            prop_assert!(!case.variant.place_anywhere, "a pass under place-anywhere");
            pos = rules.pass(&pos);
            reference.pass();
            continue;
        }
        let m = moves[rng.below(moves.len())];
        pos = rules.play_unchecked(&pos, m.0 * case.cols + m.1);
        reference.play(m);
        plies += 1;
    }
    check_position(&rules, &pos, &reference, true)
}

/// The checked game's whole visible state against the reference game.
fn check_game<B: Bits>(game: &Game<B>, reference: &RefGame) -> Checked {
    let board = &reference.board;
    let shape = game.shape();
    prop_assert_eq!((shape.rows(), shape.cols()), (board.rows, board.cols));
    prop_assert_eq!(game.variant(), variant(board.variant));
    prop_assert_eq!(game.to_move(), reference.turn.map(color));
    prop_assert_eq!(game.winner(), reference.outcome().map(winner));
    prop_assert_eq!((game.score().black, game.score().white), board.score());
    let lines: Vec<String> = othello::protocols::line::board_lines(game).collect();
    prop_assert_eq!(lines, board.board_rows());
    let g = &game.rules().geometry;
    let moves: Vec<Cell> = game
        .legal_moves()
        .iter()
        .map(|i| cell(g.square(i)))
        .collect();
    prop_assert_eq!(moves, reference.legal_moves());
    for r in 0..board.rows {
        for c in 0..board.cols {
            prop_assert_eq!(game.disc(square((r, c))), board.at((r, c)).map(color));
        }
    }
    prop_assert_eq!(game.disc(square((board.rows, 0))), None);
    prop_assert_eq!(game.disc(square((0, board.cols))), None);
    Ok(())
}

/// Illegal moves of every kind are refused, with the right reason, and change nothing.
fn check_refusals<B: Bits>(game: &mut Game<B>, reference: &RefGame, rng: &mut Rng) -> Checked {
    let board = &reference.board;
    let (rows, cols) = (board.rows, board.cols);
    let mut tries: Vec<(Square, IllegalMove)> = Vec::new();
    for sq in [
        Square::new(rows as u8, rng.below(cols) as u8),
        Square::new(rng.below(rows) as u8, cols as u8),
        Square::new(u8::MAX, u8::MAX),
    ] {
        tries.push((sq, IllegalMove::OffBoard(sq)));
    }
    let all: Vec<Cell> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .collect();
    let occupied: Vec<Cell> = all
        .iter()
        .copied()
        .filter(|&x| board.at(x).is_some())
        .collect();
    if !occupied.is_empty() {
        let sq = square(occupied[rng.below(occupied.len())]);
        tries.push((sq, IllegalMove::Occupied(sq)));
    }
    let legal = reference.legal_moves();
    let idle: Vec<Cell> = all
        .iter()
        .copied()
        .filter(|&x| board.at(x).is_none() && !legal.contains(&x))
        .collect();
    if !idle.is_empty() {
        let sq = square(idle[rng.below(idle.len())]);
        let why = if board.variant.simple {
            IllegalMove::TouchesNothing(sq)
        } else {
            IllegalMove::FlanksNothing(sq)
        };
        tries.push((sq, why));
    }
    if reference.is_over() {
        // Once the game is over every move is refused for that reason, even on an empty cell.
        for t in &mut tries {
            t.1 = IllegalMove::GameOver;
        }
        if let Some(&empty) = idle.first() {
            tries.push((square(empty), IllegalMove::GameOver));
        }
    }
    for (sq, why) in tries {
        prop_assert_eq!(game.try_play(Move::Play(sq)), Err(why));
    }
    check_game(game, reference)
}

/// A random game through the checked interface: moves, flips, automatic passes, refusals.
fn walk_checked<B: Bits>(
    game: &mut Game<B>,
    mut reference: RefGame,
    plies: usize,
    seed: u64,
) -> Checked {
    let mut rng = Rng(seed);
    check_game(game, &reference)?;
    for _ in 0..plies {
        if rng.below(4) == 0 {
            check_refusals(game, &reference, &mut rng)?;
        }
        let moves = reference.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let got = game
            .try_play(Move::Play(square(m)))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let want = reference
            .try_play(m)
            .expect("a legal move of the reference");
        prop_assert_eq!(got.color, color(want.colour));
        prop_assert_eq!(got.played, Move::Play(square(m)));
        let g = &game.rules().geometry;
        let flips: Vec<Cell> = got.flips.iter().map(|i| cell(g.square(i))).collect();
        prop_assert_eq!(flips, want.flips, "flips of {:?}", m);
        prop_assert_eq!(got.passed, want.passed.map(color));
        check_game(game, &reference)?;
    }
    check_refusals(game, &reference, &mut rng)
}

fn random_position<B: Bits>(case: &PositionCase) -> Checked {
    {
        let reference = case.board();
        let rules = Rules::<B>::new(
            othello::rules::Shape::new(case.rows, case.cols).unwrap(),
            variant(case.variant),
        )
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let pos = position_of::<B>(&reference);
        check_position(&rules, &pos, &reference, true)?;
        // The checked layer from the same position: it must pass at once for a side that
        // cannot move, as the reference flow does at the start of a game.
        let mut game = Game::from_position(rules, pos, Passes::Automatic);
        walk_checked(&mut game, RefGame::new(reference), 40, case.seed)
    }
}

/// The unchecked rules at every width that holds the board, not just the narrowest.
fn rules_at_every_width(case: &GameCase) -> Checked {
    let cells = case.rows * case.cols;
    if cells <= 64 {
        rules_along_game::<u64>(case)?;
    }
    if cells <= 128 {
        rules_along_game::<u128>(case)?;
    }
    if cells <= 256 {
        rules_along_game::<Words<4>>(case)?;
    }
    if cells <= 448 {
        rules_along_game::<Words<7>>(case)?;
    }
    rules_along_game::<Words<11>>(case)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(160)))]

    #[test]
    fn rules_agree_along_random_games(case in game_case(shape())) {
        with_bits!(Shape::new(case.rows, case.cols).unwrap(), |B| rules_along_game::<B>(&case))?;
    }

    #[test]
    fn checked_games_agree(case in game_case(shape())) {
        let setup = case.setup();
        with_bits!(setup.shape, |B| {
            let mut game = Game::<B>::new(&setup, Passes::Automatic)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            walk_checked(&mut game, RefGame::new(case.start()), case.plies, case.seed)
        })?;
    }
}

proptest! {
    // One position and a short game each: cheap, so more of them.
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn random_positions_agree(case in position_case()) {
        with_bits!(Shape::new(case.rows, case.cols).unwrap(), |B| random_position::<B>(&case))?;
    }
}

proptest! {
    // Up to five widths per case, so fewer cases, on boards that leave room to spare.
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    #[test]
    fn wider_storage_agrees(case in game_case(select(shapes(9, 448)))) {
        rules_at_every_width(&case)?;
        let mut game = Game::<Words<11>>::new(&case.setup(), Passes::Automatic)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        walk_checked(&mut game, RefGame::new(case.start()), case.plies, case.seed)?;
    }
}

fn standard_8x8(seed: u64) -> GameCase {
    GameCase {
        rows: 8,
        cols: 8,
        variant: RefVariant::default(),
        first: Colour::Black,
        top_left: Colour::White,
        plies: usize::MAX,
        seed,
    }
}

#[test]
fn whole_8x8_games_in_eleven_words() {
    for seed in 0..20 {
        let case = standard_8x8(seed);
        rules_along_game::<Words<11>>(&case).unwrap();
        let mut game = Game::<Words<11>>::new(&case.setup(), Passes::Automatic).unwrap();
        walk_checked(&mut game, RefGame::new(case.start()), usize::MAX, seed).unwrap();
    }
}

/// The reference itself on the rules specification's 4x4 sample game (white on b2 and c3, black
/// first), where black is passed over once and white wins 12 to 4.
#[test]
fn reference_plays_the_4x4_sample_game() {
    let start = RefBoard::start(4, 4, RefVariant::default(), Colour::Black, Colour::White);
    let mut game = RefGame::new(start);
    // Column letter then 1-based row from the top.
    let at = |name: &str| {
        let b = name.as_bytes();
        (usize::from(b[1] - b'1'), usize::from(b[0] - b'a'))
    };
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
            .try_play(at(mv))
            .unwrap_or_else(|| panic!("{mv} refused"));
        let mut want: Vec<Cell> = flips.iter().map(|f| at(f)).collect();
        want.sort_unstable();
        assert_eq!(played.flips, want, "flips of {mv}");
        passes.extend(played.passed);
    }
    assert_eq!(passes, [Colour::Black]);
    assert!(game.is_over());
    assert_eq!(game.board.score(), (4, 12));
    assert_eq!(game.outcome(), Some(Some(Colour::White)));
}

/// Lines of white discs from a border cell to the opposite edge, in every direction, on every
/// shape: the longest runs a board can hold, and the edges where a shifted bit set could wrap.
fn edge_lines<B: Bits>(rows: usize, cols: usize) -> Checked {
    {
        let rules = Rules::<B>::new(
            othello::rules::Shape::new(rows, cols).unwrap(),
            Variant::default(),
        )
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut board = RefBoard::empty(rows, cols, RefVariant::default(), Colour::Black);
        let border = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| r == 0 || c == 0 || r == rows - 1 || c == cols - 1);
        for start in border {
            for (dr, dc) in DIRECTIONS {
                let mut line = Vec::new();
                let mut here = start;
                while let (Some(r), Some(c)) =
                    (here.0.checked_add_signed(dr), here.1.checked_add_signed(dc))
                {
                    if r >= rows || c >= cols {
                        break;
                    }
                    line.push((r, c));
                    here = (r, c);
                }
                let Some(&end) = line.last() else { continue };
                let index = |(r, c): Cell| r * cols + c;
                // Where the same step lands in plain index arithmetic: the next row for a
                // sideways step off the edge. A black disc there must not close the line.
                let wrapped = index(end) as isize + dr * cols as isize + dc;
                let wrapped = (0..(rows * cols) as isize)
                    .contains(&wrapped)
                    .then(|| (wrapped as usize / cols, wrapped as usize % cols))
                    .filter(|w| *w != start && !line.contains(w));
                for closed in [true, false] {
                    for &x in &line {
                        board.cells[x.0][x.1] = Some(Colour::White);
                    }
                    if closed {
                        board.cells[end.0][end.1] = Some(Colour::Black);
                    } else if let Some(w) = wrapped {
                        board.cells[w.0][w.1] = Some(Colour::Black);
                    }
                    let pos = position_of::<B>(&board);
                    let what = format!("{rows}x{cols} from {start:?} by ({dr}, {dc}), {closed}");
                    let flips = cells_of(cols, rules.flips(&pos, index(start)));
                    prop_assert_eq!(flips, board.flips(start), "{}", what);
                    let legal = board.is_legal_for(Colour::Black, start);
                    prop_assert_eq!(rules.is_legal(&pos, index(start)), legal, "{}", what);
                    for row in &mut board.cells {
                        row.fill(None);
                    }
                }
            }
        }
        Ok(())
    }
}

#[test]
fn edge_to_edge_lines_on_every_shape() {
    for (rows, cols) in shapes(9, 676) {
        with_bits!(Shape::new(rows, cols).unwrap(), |B| edge_lines::<B>(
            rows, cols
        ))
        .unwrap();
    }
}
