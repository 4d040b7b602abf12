//! Move lists in standard notation: squares run together (`f5d6c3`) or separated by
//! spaces or commas (`F5 D6, C3`), in either case; `pa` (or `pass`) is a pass. Printed compact
//! and lowercase: `f5d6c3pa`.

use super::square::SquareError;
use crate::rules::Move;
use std::fmt;
use std::str::FromStr;

impl FromStr for Move {
    type Err = SquareError;
    fn from_str(text: &str) -> Result<Self, SquareError> {
        if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        text.parse().map(Move::Play)
    }
}

impl fmt::Display for Move {
    /// `f5` or `pa`; `F5` or `PA` with `{:#}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, f.alternate()) {
            (Move::Play(sq), _) => fmt::Display::fmt(sq, f),
            (Move::Pass, false) => f.write_str("pa"),
            (Move::Pass, true) => f.write_str("PA"),
        }
    }
}

/// A sequence of moves, such as a game record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveList(pub Vec<Move>);

/// Why a move list was refused: which move, where it starts, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} (character {at}, \"{found}\"): {reason}")]
pub struct MoveListError {
    /// 1-based position of the move in the list.
    pub number: usize,
    /// 1-based character position where the move starts.
    pub at: usize,
    /// The text of the broken move.
    pub found: String,
    pub reason: SquareError,
}

impl FromStr for MoveList {
    type Err = MoveListError;
    fn from_str(text: &str) -> Result<Self, MoveListError> {
        let mut moves = Vec::new();
        let mut rest = text;
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
            if rest.is_empty() {
                return Ok(MoveList(moves));
            }
            let start = text.len() - rest.len();
            // A move is a pass word, or one character (the column) and the digits after it.
            let len = ["pass", "pa"]
                .into_iter()
                .find(|word| {
                    rest.get(..word.len())
                        .is_some_and(|w| w.eq_ignore_ascii_case(word))
                })
                .map_or_else(
                    || {
                        let first = rest.chars().next().map_or(0, char::len_utf8);
                        first + rest[first..].bytes().take_while(u8::is_ascii_digit).count()
                    },
                    str::len,
                );
            let token = &rest[..len];
            let listed = token.parse().map_err(|reason| MoveListError {
                number: moves.len() + 1,
                at: text[..start].chars().count() + 1,
                found: token.to_string(),
                reason,
            })?;
            moves.push(listed);
            rest = &rest[len..];
        }
    }
}

impl fmt::Display for MoveList {
    /// Compact and lowercase (`f5d6c3pa`); uppercase and spaced (`F5 D6 C3 PA`) with `{:#}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.0.iter().enumerate() {
            if f.alternate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{m:#}")?;
            } else {
                write!(f, "{m}")?;
            }
        }
        Ok(())
    }
}

impl MoveList {
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> Self {
        MoveList(iter.into_iter().collect())
    }
}

/// `moves` apart, at most `most` of them, then `...` where there are more: a line as a
/// review or a hint shows it.
pub fn first_moves(moves: &[Move], most: usize) -> String {
    let mut text: Vec<String> = moves.iter().take(most).map(Move::to_string).collect();
    if moves.len() > most {
        text.push("...".to_string());
    }
    text.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;
    use proptest::prelude::*;

    fn play(row: u8, col: u8) -> Move {
        Move::Play(Square::new(row, col))
    }

    #[test]
    fn lists_in_every_spelling() {
        let expected = MoveList(vec![play(4, 5), play(5, 3), play(2, 2)]);
        for text in ["f5d6c3", "F5 D6 C3", "F5D6C3", "  f5, d6,c3 ", "f5\td6\nc3"] {
            assert_eq!(text.parse(), Ok(expected.clone()), "{text:?}");
        }
        let list: MoveList = "f5 pa D6 PASS c3Pa a10z26".parse().unwrap();
        assert_eq!(
            list.0,
            vec![
                play(4, 5),
                Move::Pass,
                play(5, 3),
                Move::Pass,
                play(2, 2),
                Move::Pass,
                play(9, 0),
                play(25, 25),
            ]
        );
        assert_eq!(list.to_string(), "f5pad6pac3paa10z26");
        assert_eq!(format!("{list:#}"), "F5 PA D6 PA C3 PA A10 Z26");
        assert_eq!("".parse(), Ok(MoveList::default()));
        assert_eq!(" , ".parse(), Ok(MoveList::default()));
        // A column p is not a pass.
        assert_eq!("p5".parse(), Ok(MoveList(vec![play(4, 15)])));
    }

    #[test]
    fn broken_lists_name_the_move_and_where_it_is() {
        let err = |s: &str| s.parse::<MoveList>().unwrap_err().to_string();
        assert_eq!(
            err("f5 !9"),
            "move 2 (character 4, \"!9\"): '!' is not a column letter a to z"
        );
        assert_eq!(
            err("f5d6 c"),
            "move 3 (character 6, \"c\"): \"c\" has no row number after its column letter"
        );
        assert_eq!(
            err("f5d6c3a27"),
            "move 4 (character 7, \"a27\"): \"27\" is not a row number from 1 to 26"
        );
        assert_eq!(
            err("é5 f0"),
            "move 1 (character 1, \"é5\"): 'é' is not a column letter a to z"
        );
        assert_eq!(
            err("f5 é0"),
            "move 2 (character 4, \"é0\"): 'é' is not a column letter a to z"
        );
        assert_eq!(
            err("a1 b0"),
            "move 2 (character 4, \"b0\"): \"0\" is not a row number from 1 to 26"
        );
    }

    #[test]
    fn single_moves_round_trip() {
        for text in ["pa", "a1", "z26", "h8"] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        assert_eq!("PASS".parse(), Ok(Move::Pass));
        assert_eq!(format!("{:#}", Move::Pass), "PA");
        assert!("pa5".parse::<Move>().is_err());
    }

    fn listed() -> impl Strategy<Value = Move> {
        prop_oneof![
            1 => Just(Move::Pass),
            8 => (0u8..26, 0u8..26).prop_map(|(r, c)| play(r, c)),
        ]
    }

    proptest! {
        #[test]
        fn lists_round_trip(moves in prop::collection::vec(listed(), 0..40)) {
            let list = MoveList(moves);
            prop_assert_eq!(list.to_string().parse::<MoveList>(), Ok(list.clone()));
            prop_assert_eq!(format!("{list:#}").parse::<MoveList>(), Ok(list.clone()));
            prop_assert_eq!(list.to_string().to_uppercase().parse::<MoveList>(), Ok(list));
        }
    }
}
