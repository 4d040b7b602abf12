//! The named openings of 8x8 (`names.txt`). A game follows a named opening when its position
//! after as many moves as the opening's line is the line's position, up to the board's
//! symmetries: so rotations and reflections of a line, and transpositions of it, have its
//! name. A game's opening is the longest named line it has followed.

use super::book::Frame;
use crate::notation::MoveList;
use crate::rules::{Bits, Game, Move, Passes, Position, RuleSet, Rules, Shape, Variant};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The list: a line of moves from the standard start, then the name.
const LIST: &str = include_str!("names.txt");

/// A named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its name, or its names with commas between.
    pub name: &'static str,
    /// Its moves from the standard start, Black first from f5.
    pub line: Vec<Move>,
}

impl std::fmt::Display for Opening {
    /// The name, then the line: `Tiger (f5d6c3d3c4)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (", self.name)?;
        for m in &self.line {
            write!(f, "{m}")?;
        }
        write!(f, ")")
    }
}

/// The openings, and each one's position keyed under the board's symmetries.
struct Named {
    openings: Vec<Opening>,
    by_key: HashMap<Vec<u8>, usize>,
    /// Every position on the way to a named one, keyed alike: the opening reached soonest from
    /// it (the first listed of equal ones) and how many moves on.
    on_the_way: HashMap<Vec<u8>, (usize, usize)>,
}

fn named() -> &'static Named {
    static NAMED: OnceLock<Named> = OnceLock::new();
    NAMED.get_or_init(|| {
        let rules =
            Rules::<u64>::new(Shape::STANDARD, Variant::default()).expect("8x8 fits in 64 bits");
        let frame = Frame::new(rules.clone());
        let mut named = Named {
            openings: Vec::new(),
            by_key: HashMap::new(),
            on_the_way: HashMap::new(),
        };
        for line in LIST
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (moves, name) = line.split_once(' ').expect("names.txt: moves, then a name");
            let moves: MoveList = moves.parse().expect("names.txt: a move list");
            let mut game = Game::from_position(
                rules.clone(),
                rules.start(crate::rules::Color::Black, crate::rules::Color::White),
                Passes::Automatic,
            );
            let mut keys = Vec::new();
            for &m in moves.iter() {
                game.play_listed(m).expect("names.txt: legal moves");
                keys.push(frame.canonical(game.position()).0);
            }
            let index = named.openings.len();
            for (i, key) in keys.iter().enumerate() {
                let left = keys.len() - 1 - i;
                let soonest = named.on_the_way.entry(key.clone()).or_insert((index, left));
                if left < soonest.1 {
                    *soonest = (index, left);
                }
            }
            let key = frame.canonical(game.position()).0;
            named.by_key.insert(key, named.openings.len());
            named.openings.push(Opening {
                name,
                line: moves.0,
            });
        }
        named
    })
}

/// Every named opening, in the list's order.
pub fn all() -> &'static [Opening] {
    &named().openings
}

/// The opening of this name (any of its names, in any case).
pub fn by_name(name: &str) -> Option<&'static Opening> {
    all().iter().find(|o| {
        o.name
            .split(", ")
            .any(|n| n.eq_ignore_ascii_case(name.trim()))
    })
}

/// Whether names can apply to games of this board and variant: 8x8 under the full rules,
/// where moves are placed by flipping (either goal).
fn applies(shape: Shape, variant: Variant) -> bool {
    shape == Shape::STANDARD && variant.rule_set == RuleSet::Full && !variant.place_anywhere
}

/// The longest named opening the game has followed, if any.
pub fn of_game<B: Bits>(game: &Game<B>) -> Option<&'static Opening> {
    if !applies(game.shape(), game.variant()) {
        return None;
    }
    let frame = Frame::new(game.rules().clone());
    let mut replay = Game::from_position(game.rules().clone(), *game.start(), Passes::Automatic);
    let mut found = None;
    for m in game.moves() {
        if replay.play_listed(m).is_err() {
            break;
        }
        found = named_at(&frame, replay.position()).or(found);
    }
    found
}

/// The named opening whose position the game is at now (just reached), if any.
pub fn here<B: Bits>(game: &Game<B>) -> Option<&'static Opening> {
    if !applies(game.shape(), game.variant()) {
        return None;
    }
    named_at(&Frame::new(game.rules().clone()), game.position())
}

/// The named opening the game is on the way to, reached soonest from its position (under the
/// board's symmetries), and how many moves on: 0 where the game has just reached it.
pub fn toward<B: Bits>(game: &Game<B>) -> Option<(&'static Opening, usize)> {
    if !applies(game.shape(), game.variant()) {
        return None;
    }
    let named = named();
    let key = Frame::new(game.rules().clone())
        .canonical(game.position())
        .0;
    let &(i, left) = named.on_the_way.get(&key)?;
    Some((&named.openings[i], left))
}

/// The named opening whose line ends at `pos` (under the board's symmetries), if any.
fn named_at<B: Bits>(frame: &Frame<B>, pos: &Position<B>) -> Option<&'static Opening> {
    let named = named();
    let i = *named.by_key.get(&frame.canonical(pos).0)?;
    Some(&named.openings[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Setup;

    fn game_of(moves: &str) -> Game<u64> {
        played(&moves.parse::<MoveList>().unwrap().0)
    }

    fn played(moves: &[Move]) -> Game<u64> {
        let setup = Setup::standard(Shape::STANDARD, Variant::default());
        let mut game = Game::new(&setup, Passes::Automatic).unwrap();
        for &m in moves {
            game.play_listed(m).unwrap();
        }
        game
    }

    #[test]
    fn every_line_of_the_list_is_legal_and_its_names_are_distinct() {
        let all = all();
        assert_eq!(all.len(), 77);
        for (i, o) in all.iter().enumerate() {
            assert!(
                all[..i].iter().all(|p| p.name != o.name),
                "{} twice",
                o.name
            );
            assert_eq!(of_game(&played(&o.line)), Some(o));
        }
        for name in ["tiger", "Rose", "buffalo", "Heath", "cow", "Tobidashi"] {
            assert!(by_name(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_game_on_the_way_to_a_named_opening_says_which_and_how_far() {
        assert_eq!(toward(&game_of("")), None);
        let (o, left) = toward(&game_of("f5d6c3d3c4")).unwrap();
        assert_eq!((o.name, left), ("Tiger", 0));
        // One move short of the Tiger, and no other named line ends sooner.
        let (o, left) = toward(&game_of("f5d6c3d3")).unwrap();
        assert_eq!((o.name, left), ("Tiger", 1));
        assert_eq!(
            toward(&game_of("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1")),
            None
        );
    }

    #[test]
    fn a_game_has_the_name_of_the_longest_line_it_followed() {
        assert_eq!(of_game(&game_of("")), None);
        assert_eq!(of_game(&game_of("f5")), None);
        assert_eq!(
            of_game(&game_of("f5d6")).unwrap().name,
            "Perpendicular Opening"
        );
        assert_eq!(of_game(&game_of("f5d6c3d3c4")).unwrap().name, "Tiger");
        assert_eq!(here(&game_of("f5d6c3d3c4")).unwrap().name, "Tiger");
        assert_eq!(here(&game_of("f5d6c3d3c4f4c5")), None);
        // Past the line, the game keeps its name until it follows a longer one.
        assert_eq!(of_game(&game_of("f5d6c3d3c4f4c5")).unwrap().name, "Tiger");
        assert_eq!(
            of_game(&game_of("f5d6c3d3c4f4c5b3c2")).unwrap().name,
            "Rose-Bill"
        );
    }

    #[test]
    fn rotations_and_reflections_of_a_line_have_its_name() {
        // The tiger from each of Black's four first moves: as listed, reflected in either
        // diagonal, and turned half round.
        for line in ["f5d6c3d3c4", "e6f4c3c4d3", "d3c5f6f5e6", "c4e3f6e6f5"] {
            assert_eq!(of_game(&game_of(line)).unwrap().name, "Tiger", "{line}");
        }
    }

    #[test]
    fn names_apply_to_8x8_under_the_full_rules_only() {
        let moves: MoveList = "f5d6c3d3c4".parse().unwrap();
        for variant in [
            Variant {
                rule_set: RuleSet::Simple,
                ..Variant::default()
            },
            Variant {
                place_anywhere: true,
                ..Variant::default()
            },
        ] {
            let setup = Setup::standard(Shape::STANDARD, variant);
            let mut game: Game<u64> = Game::new(&setup, Passes::Automatic).unwrap();
            for &m in moves.iter() {
                let _ = game.play_listed(m);
            }
            assert_eq!(of_game(&game), None);
        }
        let misere = Variant {
            misere: true,
            ..Variant::default()
        };
        let setup = Setup::standard(Shape::STANDARD, misere);
        let mut game: Game<u64> = Game::new(&setup, Passes::Automatic).unwrap();
        for &m in moves.iter() {
            game.play_listed(m).unwrap();
        }
        assert_eq!(of_game(&game).unwrap().name, "Tiger");
    }
}
