//! The state of one search call: its counters, clock and move lists, apart from the engine that
//! lives from one call to the next.

use super::moves::Candidate;
use super::progress::SolveProgress;
use crate::rules::Bits;
use std::time::Instant;

/// What one search call keeps as it goes; each thread has its own.
pub(super) struct Context<B> {
    /// One reusable move list per ply, so the search does not allocate as it goes.
    pub(super) lists: Vec<Vec<Candidate<B>>>,
    pub(super) nodes: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) stopped: bool,
    /// While a root move of a solve is searched against a floor: the shared lower bound on
    /// the root's value above which that search is out of date, so it stops (`outdated`) and
    /// the move is searched again against the higher floor.
    pub(super) watch: Option<i32>,
    pub(super) outdated: bool,
    /// When the current search began.
    pub(super) started: Instant,
    pub(super) progress: SolveProgress,
    /// While an iteration solves selectively: the solver cuts its null-window nodes where the
    /// weights have end fits (see [`super::probcut`] and `Engine::end_cut`), and stores their
    /// values as searches as deep as their empty cells, which only such a solve reads.
    pub(super) selective_end: bool,
}

impl<B: Bits> Context<B> {
    /// A call that has not begun, started at `started` for the progress it reports.
    pub(super) fn new(started: Instant) -> Self {
        Context {
            lists: Vec::new(),
            nodes: 0,
            deadline: None,
            stopped: false,
            watch: None,
            outdated: false,
            started,
            progress: SolveProgress::default(),
            selective_end: false,
        }
    }
}
