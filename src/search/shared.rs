//! What the threads of one search share besides the table.

use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed,
};

/// What the threads of one search share besides the table.
#[derive(Debug, Default)]
pub(super) struct Shared {
    /// Set when the main thread has its answer: the helpers stop.
    pub(super) stop: AtomicBool,
    /// A lower bound on the root's value: the best that any thread has proved so far, for the
    /// other threads' windows.
    pub(super) alpha: AtomicI32,
    /// Whether the main thread has solved the first root move.
    pub(super) first_done: AtomicBool,
    /// The next root move (by its place in the main thread's list) no thread has taken.
    pub(super) next: AtomicUsize,
    /// Root moves (by their place in the list, the first 64) whose values are known.
    pub(super) finished: AtomicU64,
    /// Set when the main thread begins a solve's round of ties, with `ties` holding the root
    /// moves it tests (by place, the first 64) and `alpha` the root's value.
    pub(super) tie_round: AtomicBool,
    pub(super) ties: AtomicU64,
    /// The root move (its place in the list, plus one; 0 for none) that a thread is searching
    /// again for its value, having found it better than the best so far: helpers join it.
    pub(super) resolving: AtomicUsize,
    /// How many threads are searching each position, by a hash of its key (collisions only
    /// cost a deferral): the solver's threads leave a position another is in for later.
    pub(super) busy: Box<[AtomicU8]>,
    /// Each helper's node count (by id; the main thread's slot stays 0), published every
    /// [`PROGRESS_EVERY`](super::progress::PROGRESS_EVERY) nodes so that the main thread's
    /// progress counts them.
    pub(super) helper_nodes: Box<[AtomicU64]>,
}

impl Shared {
    pub(super) fn new(threads: usize) -> Shared {
        let slots = if threads > 1 { BUSY_SLOTS } else { 0 };
        Shared {
            busy: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            helper_nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            ..Shared::default()
        }
    }

    /// Marks the root move at place `i` of the list as having its value known.
    pub(super) fn finish(&self, i: usize) {
        if i < 64 {
            self.finished.fetch_or(1 << i, Relaxed);
        }
    }

    /// The nodes the helpers have published so far.
    pub(super) fn helper_nodes(&self) -> u64 {
        self.helper_nodes.iter().map(|n| n.load(Relaxed)).sum()
    }

    pub(super) fn busy_slot(&self, key: u64) -> &AtomicU8 {
        &self.busy[(key >> 40) as usize & (BUSY_SLOTS - 1)]
    }
}

/// Slots of [`Shared::busy`]: many more than positions searched at once, so few collide.
const BUSY_SLOTS: usize = 1 << 16;

/// At a node whose moves the threads share (see [`Engine::best_of`](crate::search::Engine::best_of)), every thread there
/// searches this many moves in turn before it puts off one that another thread is in: a
/// cut-off comes most often from the first moves, and a thread that went on to a later one
/// meanwhile would mostly search it in vain (young brothers wait, as in YBWC).
pub(super) const SEARCHED_BY_ALL: usize = 2;
