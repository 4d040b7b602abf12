//! What a search tells its observer as it goes.

use super::score::DISC;
use std::ops::ControlFlow;
use std::time::Duration;

/// How far a solve has got, for a progress display.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveProgress {
    /// Root moves finished, and how many there are.
    pub done: usize,
    pub total: usize,
    /// The root move being searched.
    pub current: Option<usize>,
    /// In a solve that wants every best move and keeps a journal, the round after the value is
    /// known, which tests the moves found no better than the best for a tie: `done` and
    /// `total` count those.
    pub ties: bool,
    /// The best root move so far and its value: in a solve, whole discs (exact once
    /// `done == total`, or `ties`); in an iterative search, an estimate.
    pub best: Option<(usize, MoveValue)>,
    /// The last root move finished and what is known of its value.
    pub last: Option<(usize, RootValue)>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// In an iterative search: the last depth completed (moves ahead) and its expected line,
    /// starting with the best move. Zero and empty in an exact solve.
    pub depth: u32,
    pub pv: Vec<usize>,
    /// While a place-anywhere SIMPLE solve values the sets of its empty cells, how many there
    /// are (`nodes` counts those done); zero otherwise.
    pub sets: u64,
}

/// A root move's value in the unit of the search that found it, so that neither is read as
/// the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveValue {
    /// A solve's final disc difference.
    Discs(i32),
    /// An iterative search's estimate, in hundredths of a disc.
    Hundredths(i32),
}

impl MoveValue {
    /// The value in hundredths of a disc, whichever unit it came in.
    pub fn hundredths(self) -> i32 {
        match self {
            MoveValue::Discs(discs) => discs * DISC,
            MoveValue::Hundredths(hundredths) => hundredths,
        }
    }

    /// The whole-disc value of a solve; `None` for an estimate.
    pub fn discs(self) -> Option<i32> {
        match self {
            MoveValue::Discs(discs) => Some(discs),
            MoveValue::Hundredths(_) => None,
        }
    }
}

/// The same value for the other side.
impl std::ops::Neg for MoveValue {
    type Output = MoveValue;
    fn neg(self) -> MoveValue {
        match self {
            MoveValue::Discs(discs) => MoveValue::Discs(-discs),
            MoveValue::Hundredths(h) => MoveValue::Hundredths(-h),
        }
    }
}

/// Discs as `+4`, an estimate as discs to two places, `+0.43`.
impl std::fmt::Display for MoveValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            MoveValue::Discs(discs) => write!(f, "{discs:+}"),
            MoveValue::Hundredths(h) => write!(f, "{:+.2}", h as f64 / DISC as f64),
        }
    }
}

/// What a root move's search proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootValue {
    Exact(i32),
    /// At most this: the move is worse than the best so far.
    AtMost(i32),
}

/// Called as a search goes: at every root move of a solve, at every iteration of a search,
/// and every [`PROGRESS_EVERY`] nodes. `Break` stops the search (as a deadline would).
pub type Observer = Box<dyn FnMut(&SolveProgress) -> ControlFlow<()> + Send>;

/// Nodes between progress calls, minus one.
pub(super) const PROGRESS_EVERY: u64 = (1 << 20) - 1;
