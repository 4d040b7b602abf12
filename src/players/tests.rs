use super::*;
use std::time::Duration;

#[test]
fn specs_parse_and_print() {
    assert_eq!("random".parse(), Ok(PlayerSpec::Random));
    let spec: PlayerSpec = "depth=6,hash=8".parse().unwrap();
    assert_eq!(spec.to_string(), "depth=6,hash=8");
    let spec: PlayerSpec = "time=50ms,seed=3".parse().unwrap();
    assert_eq!(spec.to_string(), "time=50ms,hash=16,seed=3");
    let spec: PlayerSpec = "depth=4,threads=3".parse().unwrap();
    assert_eq!(spec.to_string(), "depth=4,hash=16,threads=3");
    assert!("threads=many".parse::<PlayerSpec>().is_err());
    assert!("depth=x".parse::<PlayerSpec>().is_err());
    assert!("speed=3".parse::<PlayerSpec>().is_err());
}

#[test]
fn a_bare_number_is_refused_with_the_units_to_write() {
    for bare in ["2", "40", "1.5", " 7 "] {
        let refused = crate::durations::parse(bare).unwrap_err();
        let n = bare.trim();
        assert!(refused.contains(&format!("{n}s")), "{refused}");
        assert!(refused.contains(&format!("{n}ms")), "{refused}");
        assert!(!refused.contains('\n'), "{refused}");
    }
    let spec = "time=50".parse::<PlayerSpec>().unwrap_err();
    assert!(spec.to_string().contains("50ms"), "{spec}");
    let spec: PlayerSpec = "time=2s".parse().unwrap();
    assert_eq!(spec.to_string(), "time=2000ms,hash=16");
}

use crate::rules::{Color, Game, Move, Passes, RuleSet, Setup, Shape, Variant, Winner};

/// A setup with black first and white on the top-left of the start block.
fn setup(rows: usize, cols: usize, rule_set: RuleSet, place_anywhere: bool, misere: bool) -> Setup {
    let variant = Variant {
        rule_set,
        place_anywhere,
        misere,
    };
    Setup::standard(Shape::new(rows, cols).unwrap(), variant)
}

/// The boards and variants every player plays on.
fn setups() -> Vec<Setup> {
    use RuleSet::{Full, Simple};
    vec![
        setup(3, 3, Full, false, false),
        setup(4, 4, Full, false, false),
        setup(6, 6, Full, false, false),
        setup(5, 7, Full, false, false),
        setup(6, 6, Full, false, true),
        setup(8, 8, Full, true, false),
        setup(5, 5, Full, true, true),
        setup(4, 4, Simple, false, false),
        setup(6, 6, Simple, false, true),
        setup(5, 7, Simple, true, false),
        // 81 cells: the u128 build.
        setup(9, 9, Full, false, false),
    ]
}

/// Every kind of player, the engine with small limits.
fn specs() -> Vec<PlayerSpec> {
    [
        "random",
        "greedy",
        "weights",
        "depth=1",
        "depth=3,hash=1",
        "depth=2,seed=5",
        "time=2ms",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect()
}

/// Plays a whole game, checking every move against the game's legal moves; returns the winner.
fn play_out(setup: &Setup, black: &PlayerSpec, white: &PlayerSpec, seed: u64) -> Winner {
    crate::with_bits!(setup.shape, |B| play_out_in::<B>(setup, black, white, seed))
}

fn play_out_in<B: Bits>(
    setup: &Setup,
    black: &PlayerSpec,
    white: &PlayerSpec,
    seed: u64,
) -> Winner {
    let mut game = Game::<B>::new(setup, Passes::Explicit).unwrap();
    let rules = game.rules().clone();
    let mut players = [
        black.build(rules.clone(), seed, None),
        white.build(rules.clone(), seed + 1, None),
    ];
    let mut moves = 0;
    while let Some(color) = game.to_move() {
        let player = match color {
            Color::Black => &mut players[0],
            Color::White => &mut players[1],
        };
        let number = moves + 1;
        let what = || format!("{black} v {white} on {setup:?}, move {number}");
        let played = player
            .choose(&game)
            .unwrap_or_else(|| panic!("{}: no move chosen", what()));
        assert!(
            game.check(played).is_ok(),
            "{}: {played} is illegal",
            what()
        );
        let done = game.try_play(played).unwrap();
        assert_eq!(done.color, color);
        moves += 1;
        assert!(moves <= 2 * setup.shape.cells(), "{}", what());
    }
    // Over: nobody has a move to offer.
    for player in &mut players {
        assert_eq!(player.choose(&game), None);
    }
    if setup.variant.place_anywhere {
        let score = game.score();
        assert_eq!(
            (score.black + score.white) as usize,
            setup.shape.cells(),
            "place-anywhere fills the board"
        );
    }
    game.winner().expect("the game is over")
}

#[test]
fn every_player_plays_only_legal_moves_to_the_end() {
    let specs = specs();
    for setup in setups() {
        for (i, spec) in specs.iter().enumerate() {
            // Each player takes each side, against the next player in the list.
            let other = &specs[(i + 1) % specs.len()];
            play_out(&setup, spec, other, i as u64);
            play_out(&setup, other, spec, 100 + i as u64);
        }
    }
}

#[test]
fn engine_players_on_the_largest_board() {
    // 676 cells: the widest bit set. A few moves are enough to see the engine pick legal ones.
    let setup = setup(26, 26, RuleSet::Full, false, false);
    let mut game = Game::<crate::rules::Words<11>>::new(&setup, Passes::Explicit).unwrap();
    let mut engine = PlayerSpec::Engine(crate::search::Config::to_depth(2).with_hash_mb(1)).build(
        game.rules().clone(),
        0,
        None,
    );
    for _ in 0..12 {
        let played = engine.choose(&game).unwrap();
        assert!(game.check(played).is_ok(), "{played} is illegal");
        game.try_play(played).unwrap();
    }
}

#[test]
fn the_engine_beats_the_random_player() {
    let setup = setup(6, 6, RuleSet::Full, false, false);
    let engine: PlayerSpec = "depth=3".parse().unwrap();
    let mut wins = 0;
    for seed in 0..4 {
        wins += (play_out(&setup, &engine, &PlayerSpec::Random, seed) == Winner::Black) as u32;
        wins += (play_out(&setup, &PlayerSpec::Random, &engine, seed) == Winner::White) as u32;
    }
    assert!(wins >= 7, "{wins} wins in 8 games");
}

#[test]
fn a_move_owed_since_long_ago_comes_back_at_once() {
    // A referee's clock that ran out before the first `choose` (the process start, reading the
    // weights): the engine still answers with a legal move, and does not take a new budget.
    let setup = setup(8, 8, RuleSet::Full, false, false);
    let game = Game::<u64>::new(&setup, Passes::Explicit).unwrap();
    let budget = Duration::from_secs(10);
    let mut engine = PlayerSpec::Engine(crate::search::Config::for_time(budget).with_hash_mb(1))
        .build(game.rules().clone(), 0, None);
    let Some(long_ago) = std::time::Instant::now().checked_sub(budget) else {
        return; // a clock too young to go back 10 s: nothing to check
    };
    engine.owed_since(long_ago);
    let asked = std::time::Instant::now();
    let played = engine.choose(&game).expect("a move");
    assert!(game.check(played).is_ok(), "{played} is illegal");
    assert!(asked.elapsed() < budget / 2, "took {:?}", asked.elapsed());
}

/// The game after f5 and a book of it whose three replies are worth, for White: d6 +3, f6 +1
/// and f4 -5 (each reply's position held as a finished game of that value).
fn book_after_f5() -> (Game<u64>, std::sync::Arc<crate::opening::book::Book>) {
    use crate::opening::book::{Book, BookPosition, Frame, Level, Link};
    let setup = Setup::standard(Shape::STANDARD, Variant::default());
    let mut game: Game<u64> = Game::new(&setup, Passes::Automatic).unwrap();
    game.play_listed("f5".parse().unwrap()).unwrap();
    let frame = Frame::new(game.rules().clone());
    let mut book = Book::new(game.rules(), game.start());
    let (key, s) = frame.canonical(game.position());
    let mut links = Vec::new();
    for (reply, for_white) in [("d6", 3), ("f6", 1), ("f4", -5)] {
        let mut after = game.clone();
        after.play_listed(reply.parse().unwrap()).unwrap();
        book.insert(
            frame.canonical(after.position()).0,
            BookPosition::finished(-for_white),
        );
        let cell = game.rules().geometry.index(reply.parse().unwrap()).unwrap();
        links.push(Link {
            cell: frame.key_cell(s, cell) as u16,
            value: 0,
        });
    }
    let entry = BookPosition {
        value: 0,
        level: Level::Exact,
        games: Default::default(),
        links,
        leaf: None,
    };
    book.insert(key, entry);
    book.fix();
    (game, std::sync::Arc::new(book))
}

#[test]
fn the_engine_plays_the_books_best_move_and_varies_only_within_the_margin() {
    let (game, book) = book_after_f5();
    let d6: Move = "d6".parse().unwrap();
    let f6: Move = "f6".parse().unwrap();
    let mut best = BookUse::new(book.clone(), 0, 1);
    for _ in 0..5 {
        let chosen = best.choose(&game).unwrap();
        assert_eq!((chosen.played, chosen.value), (d6, 3));
    }
    let mut seen = std::collections::HashSet::new();
    let mut near = BookUse::new(book.clone(), 2, 7);
    for _ in 0..64 {
        seen.insert(near.choose(&game).unwrap().played);
    }
    assert_eq!(seen, [d6, f6].into_iter().collect());
    // The player plays the book's move, and searches where the book has nothing.
    let config = crate::search::Config::to_depth(1);
    let mut player = EnginePlayer::new(game.rules().clone(), config.clone())
        .with_book(Some(BookUse::new(book, 0, 1)));
    assert_eq!(player.choose(&game), Some(d6));
    let mut later = game.clone();
    later.play_listed(d6).unwrap();
    later.play_listed("c3".parse().unwrap()).unwrap();
    assert!(player
        .choose(&later)
        .is_some_and(|m| later.check(m).is_ok()));
}

#[test]
fn a_book_for_another_board_is_not_used() {
    let (_, book) = book_after_f5();
    let setup = Setup::standard(Shape::square(6).unwrap(), Variant::default());
    let game: Game<u64> = Game::new(&setup, Passes::Automatic).unwrap();
    assert_eq!(BookUse::new(book, 0, 1).choose(&game), None);
}

#[test]
fn a_spec_refuses_a_depth_out_of_range_and_a_setting_given_twice() {
    for spec in [
        "depth=0",
        "depth=61",
        "depth=99",
        "threads=0",
        "threads=5000",
    ] {
        let e = spec.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(e.contains("from 1 to"), "{spec}: {e}");
    }
    let spec: PlayerSpec = "depth=60".parse().unwrap();
    assert_eq!(spec.to_string(), "depth=60,hash=16");
    for spec in [
        "depth=4,depth=5",
        "depth=4,time=1s,depth=4",
        "seed=1, seed=2",
    ] {
        let e = spec.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(e.contains("given twice"), "{spec}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
