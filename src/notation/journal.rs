//! Solve journals (`othello solve --journal`): the bounds a solve proved on the values of
//! positions, one a line, so that a later solve goes on where a stopped one ended. Three kinds
//! of line; `#` lines are comments:
//!
//! ```text
//! board 4x8 simple misere standard
//! (w --bwb--- -bbbb--- -wwwb--- --------) -2 32
//! run nodes=4123456789 seconds=61.250 stopped
//! ```
//!
//! The board and variant of every position; a position's least and most final margin for its
//! side to move (reversed under misère); what one solve did. More: docs/solving.md.

use super::position::PositionString;
use crate::rules::{RuleSet, Shape, Variant};
use std::fmt;
use std::str::FromStr;

/// The most seconds a run line may give, about 31 years: far beyond any solve, and small
/// enough that the runs of a journal add up to a time the program can hold.
pub const MAX_RUN_SECONDS: f64 = 1e9;

/// A variant in three words: `full normal standard`, `simple misere anywhere`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantWords(pub Variant);

impl fmt::Display for VariantWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let rules = v.rule_set;
        let goal = if v.misere { "misere" } else { "normal" };
        let placement = if v.place_anywhere {
            "anywhere"
        } else {
            "standard"
        };
        write!(f, "{rules} {goal} {placement}")
    }
}

impl FromStr for VariantWords {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [rules, goal, placement] = words.as_slice() else {
            return Err(format!(
                "{text:?} is not a variant such as \"full normal standard\""
            ));
        };
        let rule_set: RuleSet = rules.parse()?;
        let misere = match *goal {
            "normal" => false,
            "misere" => true,
            other => return Err(format!("{other:?} is not normal or misere")),
        };
        let place_anywhere = match *placement {
            "standard" => false,
            "anywhere" => true,
            other => return Err(format!("{other:?} is not standard or anywhere")),
        };
        Ok(VariantWords(Variant {
            rule_set,
            place_anywhere,
            misere,
        }))
    }
}

/// One line of a journal.
#[derive(Clone, Debug, PartialEq)]
pub enum JournalLine {
    /// The board and variant of every position in the journal (its first line).
    Board { shape: Shape, variant: Variant },
    /// The value of `position` for its side to move lies in `low..=high`.
    Bounds {
        position: PositionString,
        low: i32,
        high: i32,
    },
    /// One solve's work, and whether it solved its position.
    Run {
        nodes: u64,
        seconds: f64,
        solved: bool,
    },
}

impl fmt::Display for JournalLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalLine::Board { shape, variant } => {
                write!(f, "board {shape} {}", VariantWords(*variant))
            }
            JournalLine::Bounds {
                position,
                low,
                high,
            } => write!(f, "{position} {low} {high}"),
            JournalLine::Run {
                nodes,
                seconds,
                solved,
            } => write!(
                f,
                "run nodes={nodes} seconds={seconds:.3} {}",
                if *solved { "solved" } else { "stopped" }
            ),
        }
    }
}

impl FromStr for JournalLine {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Some(rest) = text.strip_prefix("board ") {
            let (shape, variant) = rest.trim().split_once(' ').unwrap_or((rest, ""));
            return Ok(JournalLine::Board {
                shape: shape.parse()?,
                variant: variant.parse::<VariantWords>()?.0,
            });
        }
        if let Some(rest) = text.strip_prefix("run ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let [nodes, seconds, end] = words.as_slice() else {
                return Err(format!("{text:?} is not a run line"));
            };
            let field = |word: &str, key: &str| {
                word.strip_prefix(key)
                    .ok_or_else(|| format!("{word:?} is not {key}N"))
                    .map(str::to_string)
            };
            let nodes = field(nodes, "nodes=")?;
            let seconds = field(seconds, "seconds=")?;
            return Ok(JournalLine::Run {
                nodes: nodes
                    .parse()
                    .map_err(|_| format!("nodes={nodes} is not a count"))?,
                seconds: seconds
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (0.0..=MAX_RUN_SECONDS).contains(s))
                    .ok_or_else(|| {
                        format!(
                            "seconds={seconds} is not a number of seconds from 0 to \
                             {MAX_RUN_SECONDS:.0}"
                        )
                    })?,
                solved: match *end {
                    "solved" => true,
                    "stopped" => false,
                    other => return Err(format!("{other:?} is not solved or stopped")),
                },
            });
        }
        let Some((position, bounds)) = text.split_once(')') else {
            return Err(format!(
                "{text:?} is not a board, run or position line of a journal"
            ));
        };
        let position: PositionString =
            format!("{position})").parse().map_err(|e| format!("{e}"))?;
        let numbers: Vec<&str> = bounds.split_whitespace().collect();
        let bound = |n: &str| {
            n.parse::<i32>()
                .map_err(|_| format!("{n:?} is not a whole number of discs"))
        };
        let [low, high] = numbers.as_slice() else {
            return Err(format!("{text:?}: a position is followed by two bounds"));
        };
        let (low, high) = (bound(low)?, bound(high)?);
        let most = position.cells().len() as i32;
        if !(-most <= low && low <= high && high <= most) {
            return Err(format!(
                "bounds {low} {high} are not in order within -{most}..{most}"
            ));
        }
        Ok(JournalLine::Bounds {
            position,
            low,
            high,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_as_written() {
        for text in [
            "board 4x8 simple misere standard",
            "board 6x6 full normal anywhere",
            "(w --bw -wb- -bw- ----) -2 16",
            "(b ---- -wb- -bw- ----) 4 4",
            "run nodes=123456 seconds=61.250 stopped",
            "run nodes=0 seconds=0.000 solved",
        ] {
            let line: JournalLine = text.parse().unwrap();
            assert_eq!(line.to_string(), text);
        }
    }

    #[test]
    fn bad_lines_say_why() {
        for (text, why) in [
            ("board 4x8 simple", "not a variant"),
            ("board 4x2 full normal standard", "2"),
            ("(b ---- -wb- -bw- ----) 5 4", "not in order"),
            ("(b ---- -wb- -bw- ----) -17 4", "not in order"),
            ("(b ---- -wb- -bw- ----) 4", "two bounds"),
            ("(b ---- -wb- -bw- ----) x 4", "whole number"),
            ("(b ---- -wb- -bx- ----) 0 4", "unexpected character"),
            ("run nodes=12 seconds=-1 solved", "seconds=-1"),
            ("run nodes=1 seconds=1e300 solved", "from 0 to 1000000000"),
            ("run nodes=1 seconds=1e19 solved", "seconds=1e19"),
            ("run nodes=1 seconds=inf solved", "seconds=inf"),
            ("run nodes=1 seconds=NaN solved", "seconds=NaN"),
            (
                "run nodes=18446744073709551616 seconds=1 solved",
                "not a count",
            ),
            ("run nodes=12 seconds=1 done", "solved or stopped"),
            ("hello", "not a board, run or position line"),
        ] {
            let err = text.parse::<JournalLine>().unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }
}
