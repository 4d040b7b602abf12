//! Rule sets and their variants (place-anywhere, misère), with their names.

use std::fmt;
use std::str::FromStr;

/// How moves are legal and which discs they flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// Othello: a move flanks lines of opponent discs in any of the eight directions.
    #[default]
    Full,
    /// A move touches an opponent disc and flips exactly the opponent discs next to it.
    Simple,
}

/// A rule set and its rule changes (place-anywhere, misère).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Variant {
    pub rule_set: RuleSet,
    /// Any empty cell is a legal move; there are no passes; the game ends on a full board.
    pub place_anywhere: bool,
    /// The player with fewer discs wins.
    pub misere: bool,
}

/// `full` or `simple`.
impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Full => "full",
            RuleSet::Simple => "simple",
        })
    }
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(text: &str) -> Result<RuleSet, String> {
        match text {
            "full" => Ok(RuleSet::Full),
            "simple" => Ok(RuleSet::Simple),
            _ => Err(format!("{text:?} is not a rule set (full or simple)")),
        }
    }
}

/// The variant as a heading gives it: `full rules`, `simple rules, place-anywhere, misère`.
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} rules", self.rule_set)?;
        if self.place_anywhere {
            f.write_str(", place-anywhere")?;
        }
        if self.misere {
            f.write_str(", misère")?;
        }
        Ok(())
    }
}
