//! Move triples: `othello engine` as one side of a tournament game, reading the opponent's
//! lines; a triple on the input reads back as itself once written. The first byte picks the
//! board, the rules and the program's colour.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::players::PlayerSpec;
use othello::protocols::triples::{EngineSession, Triple};
use othello::rules::{Bits, Color, Game, Passes, RuleSet, Setup, Shape, Variant};
use std::time::Instant;

/// Boards of every bit-set width, small ones more often (they reach the ends of games).
const BOARDS: [(usize, usize); 8] = [
    (4, 4),
    (3, 5),
    (6, 6),
    (8, 8),
    (5, 7),
    (10, 10),
    (12, 9),
    (26, 26),
];

fn play<B: Bits>(setup: &Setup, me: Color, input: &[u8]) {
    let game = Game::<B>::new(setup, Passes::Explicit).expect("the board fits");
    let player =
        PlayerSpec::Engine(common::quick()).build(game.rules().clone(), 0, common::book().as_ref());
    let Ok(mut session) = EngineSession::new(game, me, player, &[], Instant::now()) else {
        return;
    };
    // Passes are written as moves, so the program never owes more than one move in a row.
    assert!(session.our_moves().len() <= 1);
    common::each_line(input, |line| {
        let Ok(text) = line else {
            return false;
        };
        if let Ok(triple) = text.trim().parse::<Triple>() {
            let again: Triple = triple.to_string().parse().expect("a triple reads back");
            assert_eq!(again, triple);
        }
        if session.receive(text).is_err() {
            return false;
        }
        assert!(session.our_moves().len() <= 1);
        !session.is_over()
    });
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let (rows, cols) = BOARDS[usize::from(choice & 7)];
    let shape = Shape::new(rows, cols).expect("a board from the list");
    let variant = Variant {
        rule_set: if choice & 8 == 0 {
            RuleSet::Full
        } else {
            RuleSet::Simple
        },
        place_anywhere: choice & 16 != 0,
        misere: choice & 32 != 0,
    };
    let me = if choice & 64 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let setup = Setup::standard(shape, variant);
    othello::with_bits!(shape, |B| play::<B>(&setup, me, input));
});
