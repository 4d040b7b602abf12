//! Which evaluation a search uses, as its configuration says.

use super::weights::{self, Weights};
use crate::rules::Variant;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The evaluation a search uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Learned pattern weights where a set fits the board and variant: the sets held here
    /// (read from files) first, then those built into the program; the classic terms on
    /// every other board.
    Learned(Vec<Arc<Weights>>),
    /// The hand-weighted terms, everywhere.
    Classic,
}

impl Default for Evaluation {
    /// The built-in learned weights, as the program plays by default.
    fn default() -> Self {
        Evaluation::Learned(Vec::new())
    }
}

impl Evaluation {
    /// The learned evaluation with the weights of these files (made by `othello train fit`)
    /// before the built-in ones; a later file for the same board and rules replaces an earlier
    /// one. A missing or damaged file is an error naming it.
    pub fn learned_from(paths: &[std::path::PathBuf]) -> Result<Evaluation, String> {
        let mut sets: Vec<Arc<Weights>> = Vec::new();
        for path in paths {
            let read = weights::read(path)?;
            sets.retain(|w| (w.rows, w.cols, w.variant) != (read.rows, read.cols, read.variant));
            sets.push(Arc::new(read));
        }
        Ok(Evaluation::Learned(sets))
    }

    /// The learned weights this evaluation uses on a `rows` x `cols` board under `variant`,
    /// if any.
    pub fn weights_for(&self, rows: usize, cols: usize, variant: Variant) -> Option<Arc<Weights>> {
        match self {
            Evaluation::Classic => None,
            Evaluation::Learned(sets) => sets
                .iter()
                .find(|w| (w.rows, w.cols, w.variant) == (rows, cols, variant))
                .cloned()
                .or_else(|| weights::built_in(rows, cols, variant)),
        }
    }

    /// This choice made within the program's `chosen` one: the classic terms stay classic;
    /// learned takes the program's weights, or its classic terms where it asked for those
    /// everywhere.
    pub fn within(&self, chosen: &Evaluation) -> Evaluation {
        match self {
            Evaluation::Classic => Evaluation::Classic,
            Evaluation::Learned(_) => chosen.clone(),
        }
    }
}

/// `learned` or `classic`, as options and player descriptions write it.
impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Evaluation::Learned(_) => "learned",
            Evaluation::Classic => "classic",
        })
    }
}

impl FromStr for Evaluation {
    type Err = String;
    /// `learned` (with the built-in weights) or `classic`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "learned" => Ok(Evaluation::default()),
            "classic" => Ok(Evaluation::Classic),
            _ => Err(format!(
                "the evaluation is learned or classic, not {text:?}"
            )),
        }
    }
}
