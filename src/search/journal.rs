//! Proved bounds on the values of positions that took many nodes to solve, kept from one solve
//! to the next: a solve stopped part way (at a time limit, or killed) leaves them behind, and a
//! later solve of a position on the same board under the same variant reads them back and
//! skips every search they settle, so it goes on about where the first one stopped.
//!
//! Only searches of at least [`Journal::min_nodes`] are kept, so the journal stays small and
//! costs nothing near the leaves; what is lost at a stop is the unfinished searches smaller
//! than that, and the unfinished parts of the larger ones.
//!
//! A position is looked up as its images under the board's symmetries too, which have its
//! value: a search's table shares entries between images only while they stay in it.

use crate::rules::{Bits, Geometry, Position, Rules};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Mutex;

/// The exact value of a position, in discs for its side to move, lies in `low..=high`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub low: i32,
    pub high: i32,
}

impl Bounds {
    /// The value itself, when the bounds meet.
    pub fn exact(self) -> Option<i32> {
        (self.low == self.high).then_some(self.low)
    }

    /// The same bounds for the other side: a value for one side is minus the other's.
    pub fn turned_over(self) -> Bounds {
        Bounds {
            low: -self.high,
            high: -self.low,
        }
    }

    /// What both say.
    fn meet(self, other: Bounds) -> Bounds {
        Bounds {
            low: self.low.max(other.low),
            high: self.high.min(other.high),
        }
    }
}

/// A position and its images under a board's symmetries: at most eight.
const MAX_IMAGES: usize = 8;

/// Where newly proved bounds go (the solve command writes them to a file).
pub type Sink<B> = Box<dyn FnMut(&Position<B>, Bounds) + Send>;

/// The bounds known so far, shared by every thread of a solve.
pub struct Journal<B> {
    cells: u32,
    /// The board's symmetries other than the identity (see [`Geometry::symmetries`]).
    maps: Vec<Vec<usize>>,
    min_nodes: u64,
    /// The fewest empty cells of any position known: a position with fewer is not looked up.
    fewest_empties: AtomicU32,
    inner: Mutex<Inner<B>>,
}

struct Inner<B> {
    known: HashMap<Position<B>, Bounds>,
    sink: Option<Sink<B>>,
}

impl<B: Bits> Journal<B> {
    /// An empty journal for positions on the board of `geometry` that keeps searches of at
    /// least `min_nodes` nodes.
    pub fn new(geometry: &Geometry<B>, min_nodes: u64) -> Self {
        Journal {
            cells: geometry.cell_count() as u32,
            maps: {
                let maps = geometry.symmetries();
                assert!(
                    maps.len() < MAX_IMAGES,
                    "a board has at most seven symmetries"
                );
                maps
            },
            min_nodes,
            fewest_empties: AtomicU32::new(u32::MAX),
            inner: Mutex::new(Inner {
                known: HashMap::new(),
                sink: None,
            }),
        }
    }

    /// The journal, handing each bound that a search proves from now on to `sink`.
    pub fn with_sink(self, sink: Sink<B>) -> Self {
        self.lock().sink = Some(sink);
        self
    }

    /// The smallest search, in nodes, whose result is kept.
    pub fn min_nodes(&self) -> u64 {
        self.min_nodes
    }

    /// How many positions have bounds.
    pub fn len(&self) -> usize {
        self.lock().known.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds what an earlier solve proved, without handing it to the sink. Bounds that leave
    /// no value possible with those known already are refused: the bounds known come back.
    pub fn insert(&self, pos: &Position<B>, bounds: Bounds) -> Result<(), Bounds> {
        self.add(pos, bounds, false)
    }

    /// Whether a position with this many empty cells may have bounds here: none with fewer
    /// empty cells than the fewest of any position known.
    #[inline]
    pub(super) fn may_know(&self, empties: u32) -> bool {
        empties >= self.fewest_empties.load(Relaxed)
    }

    /// The bounds known of `pos` and its images, looked up only when a position of its size
    /// may be known.
    #[inline]
    pub(super) fn bounds(&self, pos: &Position<B>, empties: u32) -> Option<Bounds> {
        if !self.may_know(empties) {
            return None;
        }
        // The images are made before the lock is taken, so that other threads wait less.
        let images = images(pos, &self.maps);
        known_of(&self.lock().known, &images[..=self.maps.len()])
    }

    /// Keeps what a search of `pos` proved: the fail-soft `score` of a search in the window
    /// `(alpha, beta)`.
    pub(super) fn record(&self, pos: &Position<B>, score: i32, alpha: i32, beta: i32) {
        let most = self.cells as i32;
        let bounds = Bounds {
            low: if score > alpha { score } else { -most },
            high: if score < beta { score } else { most },
        };
        let added = self.add(pos, bounds, true);
        debug_assert!(added.is_ok(), "{pos:?}: {bounds:?} against {added:?}");
    }

    fn add(&self, pos: &Position<B>, bounds: Bounds, to_sink: bool) -> Result<(), Bounds> {
        let empties = self.cells - (pos.black | pos.white).count();
        let mut inner = self.lock();
        let old = inner.known.get(pos).copied();
        let new = old.map_or(bounds, |old| old.meet(bounds));
        if let (Some(old), true) = (old, new.low > new.high) {
            return Err(old);
        }
        if old == Some(new) {
            return Ok(());
        }
        inner.known.insert(*pos, new);
        if to_sink {
            if let Some(sink) = &mut inner.sink {
                sink(pos, new);
            }
        }
        self.fewest_empties.fetch_min(empties, Relaxed);
        Ok(())
    }

    /// What the journal proves of the value of `pos` for its side to move (plain disc
    /// counts, as `perfect-play` solves): its own bounds, met with what the bounds of the
    /// positions up to `plies` moves after it prove by minimax. A position is also looked up
    /// as its images under the board's symmetries, which have its value (a solve searches
    /// only one of two such root moves).
    pub fn proved(&self, rules: &Rules<B>, pos: &Position<B>, plies: u32) -> Bounds {
        self.with_proof(rules, |proof| proof.bounds(pos, plies))
    }

    /// As [`Journal::proved`], with what it proves of each move of `pos`: the bounds of the
    /// position after it, `plies - 1` moves deep, turned over to the side to move in `pos`.
    /// One minimax serves both, so the positions after the moves are looked at once.
    pub fn proved_with_moves(
        &self,
        rules: &Rules<B>,
        pos: &Position<B>,
        plies: u32,
    ) -> (Bounds, Vec<(usize, Bounds)>) {
        self.with_proof(rules, |proof| {
            let moves = rules
                .moves(pos)
                .iter()
                .map(|m| {
                    let child = rules.play_flips(pos, m, rules.flips(pos, m));
                    let value = proof.bounds(&child, plies.saturating_sub(1));
                    (m, value.turned_over())
                })
                .collect();
            (proof.bounds(pos, plies), moves)
        })
    }

    /// Runs `f` with a minimax over the journal's bounds under `rules`.
    fn with_proof<R>(&self, rules: &Rules<B>, f: impl FnOnce(&mut Proof<'_, B>) -> R) -> R {
        let inner = self.lock();
        f(&mut Proof {
            known: &inner.known,
            rules,
            maps: &self.maps,
            most: self.cells as i32,
            seen: HashMap::new(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<B>> {
        // A thread that panicked left the map whole: every change is one insert.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `pos` and its images under `maps`, in the first `1 + maps.len()` places.
fn images<B: Bits>(pos: &Position<B>, maps: &[Vec<usize>]) -> [Position<B>; MAX_IMAGES] {
    let mut images = [*pos; MAX_IMAGES];
    for (image, map) in images[1..].iter_mut().zip(maps) {
        *image = pos.mapped(map);
    }
    images
}

/// What `known` proves of the value shared by `images`: the bounds of all it holds, met.
fn known_of<B: Bits>(
    known: &HashMap<Position<B>, Bounds>,
    images: &[Position<B>],
) -> Option<Bounds> {
    images
        .iter()
        .filter_map(|image| known.get(image).copied())
        .reduce(Bounds::meet)
}

/// A minimax over the bounds a journal knows (see [`Journal::proved`]).
struct Proof<'a, B> {
    known: &'a HashMap<Position<B>, Bounds>,
    rules: &'a Rules<B>,
    maps: &'a [Vec<usize>],
    most: i32,
    /// Positions done, with the plies they were looked at to.
    seen: HashMap<Position<B>, (u32, Bounds)>,
}

impl<B: Bits> Proof<'_, B> {
    fn bounds(&mut self, pos: &Position<B>, plies: u32) -> Bounds {
        if let Some(&(done, bounds)) = self.seen.get(pos) {
            if done >= plies {
                return bounds;
            }
        }
        let unknown = Bounds {
            low: -self.most,
            high: self.most,
        };
        let images = images(pos, self.maps);
        let mut bounds =
            known_of(self.known, &images[..=self.maps.len()]).map_or(unknown, |b| b.meet(unknown));
        let rules = self.rules;
        let moves = rules.moves(pos);
        if moves.is_empty() {
            if rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                let lead = pos.mover().count() as i32 - pos.opponent().count() as i32;
                let value = if rules.variant.misere { -lead } else { lead };
                bounds = Bounds {
                    low: value,
                    high: value,
                };
            } else {
                let after = self.bounds(&rules.pass(pos), plies);
                bounds = bounds.meet(after.turned_over());
            }
        } else if plies > 0 && bounds.low < bounds.high {
            // The best move is worth at least what any move is proved worth, and at most what
            // the best of them may be worth.
            let (mut low, mut high) = (-self.most, -self.most);
            for m in moves.iter() {
                let child = rules.play_flips(pos, m, rules.flips(pos, m));
                let value = self.bounds(&child, plies - 1).turned_over();
                low = low.max(value.low);
                high = high.max(value.high);
            }
            bounds = bounds.meet(Bounds { low, high });
        }
        self.seen.insert(*pos, (plies, bounds));
        bounds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    /// A solve stopped part way leaves bounds in its journal that hold (each is checked by a solve
    /// of its own position), and a later solve that reads them finds the value and best moves of a
    /// plain solve with less work.
    #[test]
    fn a_journal_carries_a_stopped_solve_on() {
        use std::ops::ControlFlow;
        use std::sync::Mutex;
        let simple_anywhere = Variant {
            place_anywhere: true,
            ..SIMPLE
        };
        for (rows, cols, variant) in [
            (3, 8, SIMPLE),
            (4, 5, SIMPLE_MISERE),
            (5, 5, MISERE),
            (4, 6, simple_anywhere),
        ] {
            let (rules, start, config, plain) = solved_start(rows, cols, variant);
            // The stop below comes at the first look at the progress after half the nodes.
            let half = plain.nodes / 2;
            assert!(half > 2 * PROGRESS_EVERY, "{rows}x{cols}: {plain:?}");
            let kept = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&kept);
            let journal = Journal::new(&rules.geometry, 200_000)
                .with_sink(Box::new(move |pos, b| sink.lock().unwrap().push((*pos, b))));
            let journal = Arc::new(journal);
            let mut first = Engine::new(rules.clone(), config.clone());
            first.keep_journal(Some(Arc::clone(&journal)));
            first.observe(Some(Box::new(move |p: &SolveProgress| {
                if p.nodes >= half {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })));
            assert_eq!(first.solve_root_within(&start, RootMoves::Ties, None), None);
            let proved = kept.lock().unwrap().clone();
            assert!(!proved.is_empty(), "{rows}x{cols}");
            let at_start = journal.proved(&rules, &start, 3);
            assert!(
                at_start.low <= plain.score && plain.score <= at_start.high,
                "{rows}x{cols}: {at_start:?}, not {}",
                plain.score
            );
            for (pos, b) in &proved {
                let value = Engine::new(rules.clone(), config.clone())
                    .solve_exact(pos, false)
                    .score;
                assert!(
                    b.low <= value && value <= b.high,
                    "{pos:?}: {b:?}, not {value}"
                );
            }
            // A later solve reading `journal` finds what the plain solve found, with less work.
            let resumes = |journal: Arc<Journal<u64>>, from: &str| {
                let mut engine = Engine::new(rules.clone(), config.clone());
                engine.keep_journal(Some(journal));
                let resumed = engine.solve_root(&start, RootMoves::Ties);
                assert_eq!(
                    (resumed.score, &resumed.moves),
                    (plain.score, &plain.moves),
                    "{rows}x{cols}, {from}"
                );
                assert!(
                    resumed.nodes < plain.nodes,
                    "{rows}x{cols}: {} nodes {from}, {} in one go",
                    resumed.nodes,
                    plain.nodes
                );
            };
            resumes(journal, "after the stop");
            // The same bounds kept for the images of their positions under the half turn serve
            // as well: the solve looks a position up as its images too.
            let half_turn = &rules.geometry.symmetries()[2];
            let turned = Journal::new(&rules.geometry, 200_000);
            for (pos, b) in &proved {
                turned.insert(&pos.mapped(half_turn), *b).unwrap();
            }
            resumes(Arc::new(turned), "from the images' bounds");
        }
    }

    /// A position one of whose moves leads to a position the journal settles is cut off at once,
    /// whatever the order would have tried first: with a null window at its value, a search of
    /// the position after the best first move visits that one node when the journal holds the
    /// value of the position after the best reply, and many without it.
    #[test]
    fn a_journal_cuts_off_through_a_move() {
        for variant in [FULL, SIMPLE, SIMPLE_MISERE] {
            let rules = rules_for::<u64>(4, 5, variant);
            let start = rules.start(Color::Black, Color::White);
            let config = Config::default();
            let exact = |pos: &Position<u64>| {
                Engine::new(rules.clone(), config.clone())
                    .solve_exact(pos, false)
                    .score
            };
            let play = |pos: &Position<u64>, m| rules.play_flips(pos, m, rules.flips(pos, m));
            let after_first = play(&start, rules.moves(&start).lowest().unwrap());
            let value = exact(&after_first);
            let replies = rules.moves(&after_first);
            assert!(replies.count() > 1, "{variant:?}");
            let (best, after_best) = replies
                .iter()
                .map(|m| (m, play(&after_first, m)))
                .find(|(_, pos)| -exact(pos) == value)
                .unwrap();
            for known in [false, true] {
                let journal = Journal::new(&rules.geometry, u64::MAX);
                if known {
                    let v = -value;
                    journal
                        .insert(&after_best, Bounds { low: v, high: v })
                        .unwrap();
                }
                let mut engine = Engine::new(rules.clone(), config.clone());
                engine.keep_journal(Some(Arc::new(journal)));
                let key = engine.zobrist.key(&after_first);
                let score = engine.solve(&after_first, key, value - 1, value, 0);
                assert!(
                    score >= value,
                    "{variant:?}, {known}: {score} below {value}"
                );
                let nodes = engine.ctx.nodes;
                if known {
                    assert_eq!(nodes, 1, "{variant:?}: the cut through {best}");
                } else {
                    assert!(nodes > 1, "{variant:?}: {nodes}");
                }
            }
        }
    }

    /// What a journal proves of a position: the minimax of its bounds over the moves after it,
    /// with positions looked up under the board's symmetries, and the game's end scored as the
    /// solver scores it (misère too).
    #[test]
    fn a_journal_proves_what_its_bounds_imply() {
        let config = Config::default();
        for (rows, cols, variant) in [
            (4, 4, FULL),
            (4, 4, MISERE),
            (4, 4, SIMPLE),
            (4, 4, SIMPLE_MISERE),
            (4, 4, PLACE_ANYWHERE),
            (4, 6, FULL),
        ] {
            let rules = rules_for::<u64>(rows, cols, variant);
            let start = rules.start(Color::Black, Color::White);
            let exact = |pos: &Position<u64>| {
                Engine::new(rules.clone(), config.clone())
                    .solve_exact(pos, false)
                    .score
            };
            let value = exact(&start);
            let cells = (rows * cols) as i32;
            let journal = Journal::new(&rules.geometry, 1);
            let unknown = Bounds {
                low: -cells,
                high: cells,
            };
            assert_eq!(journal.proved(&rules, &start, 1), unknown);
            // Each first move's exact value, one move of each kind: its twins are found as images.
            let maps = rules.geometry.symmetries();
            let mut known: Vec<Position<u64>> = Vec::new();
            for m in rules.moves(&start).iter() {
                let child = rules.play_flips(&start, m, rules.flips(&start, m));
                if known
                    .iter()
                    .any(|k| maps.iter().any(|map| child.mapped(map) == *k))
                {
                    // A twin's bounds are found as its image's.
                    let empties = rules.empty(&child).count();
                    let twin = journal.bounds(&child, empties);
                    assert!(twin.and_then(Bounds::exact).is_some(), "{twin:?}");
                    continue;
                }
                let v = exact(&child);
                journal.insert(&child, Bounds { low: v, high: v }).unwrap();
                known.push(child);
            }
            let name = format!("{rows}x{cols} {variant:?}");
            assert!(
                known.len() < rules.moves(&start).count() as usize,
                "{name}: no twins"
            );
            let both = Bounds {
                low: value,
                high: value,
            };
            assert_eq!(journal.proved(&rules, &start, 1), both, "{name}");
            // The start's own bounds alone, with no moves looked through.
            assert_eq!(journal.proved(&rules, &start, 0), unknown, "{name}");
        }
        // Looking through every move to the end of a 3x3 game is a plain minimax.
        for variant in [FULL, MISERE, SIMPLE, SIMPLE_MISERE, PLACE_ANYWHERE] {
            let rules = rules_for::<u64>(3, 3, variant);
            let start = rules.start(Color::Black, Color::White);
            let value = Engine::new(rules.clone(), config.clone())
                .solve_exact(&start, false)
                .score;
            let proved = Journal::new(&rules.geometry, 1).proved(&rules, &start, 9);
            assert_eq!((proved.low, proved.high), (value, value), "{variant:?}");
        }
    }
}
