//! The exact endgame solver: searches to the end of the game and returns the final disc
//! difference (in whole discs) for the side to move.

use super::shallow::SORTED_MAX;
use super::table::{LaneKeys, Zobrist, ZobristLanes, LANES};
use super::{
    Bound, Candidate, Engine, Entry, Journal, Look, Outcome, Part, DISC, INFINITY, SOLVED,
};
use crate::rules::{Bits, Position, RuleSet, Rules};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// From this many empty cells on, the solver orders moves by a search of each,
/// [`SORT_DEPTH`] moves deep (measured on 5x6: 4 beat 1-6; deeper searches near the root did
/// not pay), under FULL rules only: under SIMPLE rules the evaluation foresees too little,
/// and the static order alone took 46% fewer nodes on two 6x6 positions 20 cells from the end
/// (learned weights), 45% on the 3x9 start, 19% on 4x6. 18 was best until the static order
/// weighed estimates (see `ESTIMATE_FROM`); since then 20 (interleaved runs, one thread,
/// against 18): FFO #45-#49 39.2-40.1 s against 43.7-44.4 s, 6x6 after c2 b4 c5 13.9-14.8 s
/// against 18.1-18.9 s, FFO #40-#44, #20-#39 and 5x6 misère within 2%; 21 and 22 were quicker
/// on 6x6 and slower on #45-#49.
///
/// Session 41, not kept: skipping the sort where a node is expected to fail low (Knuth's node
/// types: the first child of a node expected to cut; every other child is expected to cut),
/// one thread: FFO #45-#49 1.7% fewer nodes, but #57 and #58 25% more (4.35 G against
/// 3.47 G); skipping only the estimate in the static order there, #45-#49 1.5% more nodes.
const SORT_BY_SEARCH: u32 = 20;
const SORT_DEPTH: i32 = 4;

/// From this many empty cells on, the sort by search looks [`DEEPER_SORT_DEPTH`] moves deep
/// instead of [`SORT_DEPTH`] (one thread, against 4 everywhere: FFO #45-#49 9% fewer nodes,
/// median 36.7 s against 39.0; 6x6 after c2 b4 c5 14% fewer nodes, after c2 b4 c5 d2 4.5%,
/// after c2 b4 c5 d2 e4 17%, each 5-10% less time; FFO #50-#52 2.6% more nodes, 1% more
/// time; FFO #20-#39 and #40-#44, mostly below it, 1-2% more nodes. From 24: about half the
/// gain; from 20, or 8 deep from 22, more nodes; 5 deep about as many as 4). Session 35,
/// against 4 and 6 from 22: 5 deep, and 7 from 21, took FFO #45-#49 14% fewer nodes and
/// 7-13% less time (#45, #46 and #49 10-20% fewer each) but `bench/positions/full-24.txt`
/// 1.3% fewer nodes and 2-8% more time, FFO #50-#52 1.1% fewer nodes; 5 and 7 from 22, 5
/// and 8, 6 and 7 or 8, or 7 only from 24, less well. Session 40, a third depth on FFO #53,
/// #54 and #56-#58 (one thread, 2 GB; 10.60 G nodes, 516 s): 8 deep from 26, 10.19 G and
/// 507 s (#58 23% fewer nodes, #53 and #56 2-5% more); 10 from 26, 10.36 G and 546 s; 8 from
/// 28, 10.57 G and 513 s (two runs at a time on the two cores): none kept, no gain beyond noise.
const DEEPER_SORT_FROM: u32 = 22;
const DEEPER_SORT_DEPTH: i32 = 6;

/// Where the solver sorts by search, its root orders the moves by searches 1 to this many
/// moves deep, and the first is solved in a narrow window around its estimate (FFO #20-#39:
/// 42% fewer nodes, #40-#44: 26%, #45-#49: 15%; 6x6 positions 24 cells from the end: 42%).
/// Session 43, one thread, 10 rather than 8: FFO #40-#59 30.18 G nodes against 30.76 G (#40-#52
/// 4-11% fewer, #53-#59 1% fewer, with single positions from 18% fewer to 22% more), #20-#39
/// 26% more (#39, won by 64, took 38.0 M nodes against 0.35 M); 12: #40-#44 17% more, #50-#52
/// 7% more. Not kept: the main thread sorts the root alone before the others start, so on many
/// threads a deeper sort costs more than the 2% it saves.
const ROOT_SORT_DEPTH: i32 = 8;

/// Where the solver's tools take over, in empty cells. They pay sooner where a move is cheap
/// to find and the same position is reached by many orders of moves.
pub(super) struct Reach {
    /// Up to this many, the solver skips the table and the weighed move list (see `shallow`):
    /// they cost more than they save so near the end.
    shallow: u32,
    /// Whether, and from how many on, the shallow solver sorts a node's moves.
    pub(super) sorted: Option<ShallowSort>,
    /// From this many on, the solver looks for a cut-off in the table entries of the positions
    /// after each move before searching any (enhanced transposition cut-off); from
    /// `shallow + 2` at the least, since only positions above `shallow` are stored.
    transposition_cuts: u32,
    /// From how many on, if at all, the shallow solver looks for a cut-off from the discs that
    /// can never change colour, as the solver does above it (see [`Engine::stability_cut`]).
    pub(super) shallow_stability: Option<u32>,
}

/// The shallow solver's sort (see `shallow`): a node of `from` empty cells or more (and no
/// more than `Reach::shallow`) tries its moves in the order `by` gives, fewest first.
#[derive(Clone, Copy)]
pub(super) struct ShallowSort {
    pub(super) from: u32,
    pub(super) by: SortKey,
}

/// What the shallow sort weighs each move by.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SortKey {
    /// The opponent's replies after the move, a corner counting twice.
    Replies,
    /// The discs the move turns (cheap under SIMPLE rules, where flips are one mask).
    Flips,
}

/// FULL rules (FFO #20-#39: cut-offs from 9 empty cells took 4% fewer nodes, about 10% more
/// time). The shallow solver up to 9 empty cells, sorting from 7 (session 34, one thread,
/// interleaved): FFO #45-#49 36.4 s and 35.9 s against 39.4 s and 39.8 s, #40-#44 3.85 s,
/// 3.50 s and 3.47 s against 3.87 s, 4.07 s and 4.03 s (#45-#49 3.6% more nodes, #40-#44
/// 4.1% fewer). Up to 7 and sorting from 7, 17% fewer nodes but no less time; up to 10, or
/// sorting from 8, no better than 9 and 7. In that sort (session 35, FFO #20-#49 nodes): a
/// move outside the odd quarters counted as one reply more, 6-9% more nodes; each turned disc
/// an eighth of a reply, #45-#49 0.8% fewer, #20-#44 1.1% more.
///
/// The stability cut-off in the shallow solver from 6 cells (session 44, one thread, three
/// interleaved runs, user time): FFO #45-#49 23% fewer nodes (0.93 G against 1.21 G), median
/// 30.8 s against 32.7 s; #20-#39 2.5% fewer nodes, #40-#44 5.0%; #50-#52 15% fewer (1.60 G
/// against 1.89 G) but as long (65.2-67.3 s against 65.1-67.0 s). From 7, 15% fewer nodes on
/// #45-#49 and as fast; from 8, 31.7 s; from 5 and 4, 31.0 s and 32.0 s (29% and 40% fewer
/// nodes, each bound costing more than it saves). Once the count of stable discs stopped as
/// soon as it could answer (`Evaluator::stable_near_end_reaching`), from 5 took as long as
/// from 6 (30.1-31.0 s against 30.3-30.8 s), and from 7 on #50-#52 took 65.7-66.5 s. With
/// the cut-off, the shallow solver up to 10 cells: #45-#49 30.8-31.4 s against 31.0-31.2 s,
/// #50-#52 65.0-65.2 s against 64.7-65.5 s (two runs each in turn): no gain, 9 stays.
const FULL_REACH: Reach = Reach {
    shallow: 9,
    sorted: Some(ShallowSort {
        from: 7,
        by: SortKey::Replies,
    }),
    transposition_cuts: 12,
    shallow_stability: Some(6),
};

/// SIMPLE rules, whose flips are one mask: 12% fewer nodes and 12% less time from 9 empty
/// cells (four 5x6 and three 6x6 positions 20 cells from the end, the 4x6 and 3x9 starts,
/// 4x6 misère). The table from 7 empty cells took 20-35% fewer nodes but no less time until
/// the shallow solver got cheaper (90e56d2); then 31-36% fewer nodes and 13% less time on
/// eleven random SIMPLE positions about 19 cells from the end. Since session 36 the shallow
/// solver (as fast as session 34 made it) takes 7 cells, the table from 8: 47% more nodes
/// but 9% less time on the first nine positions of `bench/positions/simple-misere-20.txt`
/// (medians of 6, one thread),
/// 8-12% less on three 6x6 misère positions of 23 cells (two threads, 1 GB; with the misère
/// order of session 36 both ways, 2-5% less in two more interleaved pairs), 10% less on
/// `bench/positions/simple-19.txt` under misère, about as long on it in the normal game and
/// on the 4x6, 5x5 and 3x9 starts; sorting from 7 or 8 by replies, no better. Session 40,
/// whether a large table (whose misses cost more) wants the cut-offs later: under misère,
/// simple-misere-20 with 4 GB, two runs at a time, 3.59 G nodes and 64-88 s from 9, 3.6% more
/// nodes and about 1% more time from 10, 8.1% more and about 3% more time from 11.
///
/// The stability cut-off in the shallow solver from 5 cells (session 44, one thread):
/// `bench/positions/simple-19.txt` 18% fewer nodes (187.5 M against 228.3 M), 2.53-2.65 s
/// against 3.18-3.73 s over three runs in turn; from 4, 189.4 M nodes, 2.59-2.91 s; from 6,
/// 211.9 M.
const SIMPLE_REACH: Reach = Reach {
    shallow: 7,
    sorted: None,
    transposition_cuts: 9,
    shallow_stability: Some(5),
};

/// SIMPLE misère: as [`SIMPLE_REACH`], the shallow solver sorting at 7 cells, the moves that
/// turn the fewest discs first, as the solver's order does above it (session 39, one thread,
/// three interleaved runs: `bench/positions/simple-misere-20.txt` 8.0% fewer nodes, median
/// 36.5 s against 37.0 s; three 6x6 positions of 23 cells 4.9% fewer, 112.2 s against 114.3
/// s; simple-19 under misère 9.1% fewer, about as long). From 6, 14% fewer nodes but 3-6%
/// more time than from 7; from 5, 18% fewer and more time again; counting the replies as
/// well, no fewer. In the normal game any sort at 7 took 3-13% more nodes on simple-19.
/// Without the shallow solver's stability cut-off: the side to move's own discs count against
/// it, and they are seldom few enough (session 44, from 4, 5 and 6 cells:
/// `bench/positions/simple-misere-20.txt` 1.6%, 0.3% and 0.2% fewer nodes, as long).
const SIMPLE_MISERE_REACH: Reach = Reach {
    sorted: Some(ShallowSort {
        from: 7,
        by: SortKey::Flips,
    }),
    shallow_stability: None,
    ..SIMPLE_REACH
};

/// Whether the shallow sort's list holds the moves of every node the reach sorts.
const fn sort_fits(reach: &Reach) -> bool {
    reach.sorted.is_none() || reach.shallow <= SORTED_MAX
}

const _: () = assert!(
    sort_fits(&FULL_REACH)
        && sort_fits(&SIMPLE_REACH)
        && sort_fits(&SIMPLE_MISERE_REACH)
        && sort_fits(&ANYWHERE_REACH)
);

/// Place-anywhere, where every empty cell is a move and transpositions abound: half the time
/// of the FULL settings on seven boards of 18-21 cells (both rule sets, misère too). The
/// shallow solver up to 5 cells rather than 4 took 9-19% less time on the 3x8 and 4x6 starts
/// and 13-18% on the 4x5 and 3x7 misère ones (both rule sets); 6 took about as long as 4.
/// The stability cut-off there from 4 cells (session 44, one thread, two runs each): the 4x6
/// full start 33% fewer nodes but as long (1.53-1.55 s), 3x8 full misère 3% fewer and 2%
/// longer (39.5-39.8 s against 38.8-39.1 s); so none.
const ANYWHERE_REACH: Reach = Reach {
    shallow: 5,
    sorted: None,
    transposition_cuts: 7,
    shallow_stability: None,
};

/// Up to this many empty cells, the solver keeps a position in the table's near-the-end part
/// (see [`super::Table`]): FFO #40-#44 12% less CPU with a 4 GB table, the SIMPLE 4x7 and
/// misère 3x9 starts 18-21% (the README's speed section); up to 11 took less off, 15 as much.
const NEAR_END: u32 = 13;

/// From this many empty cells on, threads that meet in a position share out its moves: after
/// the first move, a move whose position another thread is searching is left for later.
const SPLIT: u32 = 12;

/// From this many empty cells on, a SIMPLE position shares its table entry with its images
/// under the board's symmetries (see [`Engine::place`]).
const SYMMETRIC_FROM: u32 = 12;

/// A symmetry of the board, as the solver's table reads it.
#[derive(Debug)]
struct Image {
    /// The cell each cell goes to, and the cell each comes from.
    to: Vec<usize>,
    from: Vec<usize>,
}

/// The symmetries of the board that the solver's table uses (at most seven), and the keys
/// of a position under the table's Zobrist and each image's: lane 0 the table's, lane `i + 1`
/// that of `maps[i]` (the key of the image, found without making it). All lanes in one pass
/// over the discs, and a transposition cut-off's children's from the parent's, rather than
/// each image's key from scratch (session 51, one thread, instructions counted by valgrind):
/// the four 6x6 positions of `bench/positions/simple-19.txt` 5.7% fewer, its four 5x7 ones
/// (three images) 1.6%, three of `simple-misere-20.txt` 2.6%.
#[derive(Debug)]
pub(super) struct Images {
    maps: Vec<Image>,
    keys: ZobristLanes,
}

impl Images {
    /// None but under SIMPLE rules (see [`Engine::place`]).
    pub(super) fn new<B: Bits>(rules: &Rules<B>, zobrist: &Zobrist) -> Images {
        let to = if rules.variant.rule_set == RuleSet::Simple {
            rules.geometry.symmetries()
        } else {
            Vec::new()
        };
        let zobrists: Vec<Zobrist> = std::iter::once(zobrist.clone())
            .chain(to.iter().map(|to| zobrist.mapped(to)))
            .collect();
        let maps = to
            .into_iter()
            .map(|to| {
                let mut from = vec![0; to.len()];
                for (cell, &image) in to.iter().enumerate() {
                    from[image] = cell;
                }
                Image { to, from }
            })
            .collect();
        Images {
            maps,
            keys: ZobristLanes::new(&zobrists),
        }
    }
}

/// Where a position's value is kept in the solver's table: the key, what the stored value
/// leaves out, and the symmetry under which the entry reads the position, if any.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place {
    key: u64,
    offset: i32,
    /// Its place among the engine's images (at most seven; kept small, as the enhanced
    /// transposition cut-off holds an array of places).
    image: Option<u8>,
    part: Part,
}

impl Place {
    /// The cut-off that `e`, the table entry at this place of the position after a move,
    /// proves for the position before it against `beta`, if any.
    #[inline]
    fn cut(&self, e: Entry, beta: i32) -> Option<i32> {
        if e.depth == SOLVED && e.bound != Bound::Lower {
            // The child is worth at most this to its mover, so at least its negation here.
            let score = -(Outcome::at_most(e.score) + self.offset);
            if score >= beta {
                return Some(score);
            }
        }
        None
    }

    /// A move as the entry stores it.
    fn write(&self, images: &Images, m: usize) -> usize {
        self.image.map_or(m, |i| images.maps[usize::from(i)].to[m])
    }

    /// A move the entry stores, as a move of the position.
    fn read(&self, images: &Images, m: usize) -> usize {
        self.image
            .map_or(m, |i| images.maps[usize::from(i)].from[m])
    }
}

/// How a solve that wants every best move tells a tie from a worse root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TieTest {
    /// None are wanted ([`RootMoves::Best`], [`RootMoves::All`]).
    None,
    /// Within the first search of each move: a window a disc either side of the best value so
    /// far tells worse, tie and better apart at once.
    InWindow,
    /// In a second round, once every move has been searched against the best and the value is
    /// known (see [`Engine::test_ties`]). For a solve that keeps a journal: stopped among the
    /// ties, it has proved its value (3x9 SIMPLE: known after 140 M of its 200 M nodes).
    /// Nodes in all within 1% of `InWindow` on the 4x5-3x10 starts, both rule sets and
    /// misère, but 3% more over FFO #20-#44, so a solve that keeps no journal tests in the
    /// window.
    Afterwards,
}

/// The window in which a root move after the first is searched first, when `alpha` is the
/// best value so far: one above it shows a move no better (or, with ties tested in the window,
/// worse) than the best; a tie lies inside the window for ties; a move above it is searched
/// again.
fn probe_window(ties: TieTest, alpha: i32) -> (i32, i32) {
    if ties == TieTest::InWindow {
        (alpha - 1, alpha + 1)
    } else {
        (alpha, alpha + 1)
    }
}

/// A root move's estimate from the root's sort by search, in whole discs.
fn in_discs(weight: i32) -> i32 {
    (Outcome::to_hundredths(weight) + DISC / 2).div_euclid(DISC)
}

/// An exact result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Final disc difference for the side to move under best play (see [`super::Scoring`]).
    pub score: i32,
    /// A best move, or `None` when the side to move must pass or the game is over.
    pub best: Option<usize>,
    /// The moves proved exact, best first: every legal move ([`RootMoves::All`]), the best
    /// ones ([`RootMoves::Ties`]) or none ([`RootMoves::Best`]).
    pub moves: Vec<(usize, i32)>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// What a search of one position within a window proved (see
/// [`Engine::solve_window_within`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Windowed {
    /// The fail-soft score: exact strictly inside the window, a bound on or outside it.
    pub score: i32,
    /// A move that reaches the score (when it is above the window's floor: below it, every
    /// move was shown no better, and this is only the one that came nearest).
    pub best: Option<usize>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Which root moves a solve proves exact values for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootMoves {
    /// One best move.
    Best,
    /// Every move as good as the best (later moves are tested against the best value itself,
    /// not just above it).
    Ties,
    /// Every legal move.
    All,
}

/// How far a solve has got, for a progress display.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Root moves finished, and how many there are.
    pub done: usize,
    pub total: usize,
    /// The root move being searched.
    pub current: Option<usize>,
    /// In a solve that wants every best move and keeps a journal, the round after the value is
    /// known, which tests the moves found no better than the best for a tie: `done` and
    /// `total` count those.
    pub ties: bool,
    /// The best root move so far and its value: in a solve, in discs (exact once
    /// `done == total`, or `ties`); in an iterative search, in hundredths of a disc.
    pub best: Option<(usize, i32)>,
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

/// What a root move's search proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootValue {
    Exact(i32),
    /// At most this: the move is worse than the best so far.
    AtMost(i32),
}

/// Called as a search goes: at every root move of a solve, at every iteration of a search,
/// and every [`PROGRESS_EVERY`] nodes. `Break` stops the search (as a deadline would).
pub type Observer = Box<dyn FnMut(&Progress) -> ControlFlow<()> + Send>;

/// Nodes between progress calls, minus one.
pub(super) const PROGRESS_EVERY: u64 = (1 << 20) - 1;

impl<B: Bits> Engine<B> {
    /// Solves `pos` exactly, ignoring the time limit. With `all_moves`, every move gets its
    /// exact value; otherwise only the best one is proved.
    pub fn solve_exact(&mut self, pos: &Position<B>, all_moves: bool) -> Solved {
        let which = if all_moves {
            RootMoves::All
        } else {
            RootMoves::Best
        };
        self.solve_root(pos, which)
    }

    /// Calls `observer` as solves go (see [`Progress`]); `None` stops the calls.
    pub fn observe(&mut self, observer: Option<Observer>) {
        self.observer = observer;
    }

    /// Later solves look up and add to `journal` (see [`Journal`]); `None` stops that. Its
    /// bounds are values under this engine's rules and scoring, so a journal serves engines
    /// that agree on both.
    pub fn keep_journal(&mut self, journal: Option<Arc<Journal<B>>>) {
        self.journal = journal;
    }

    /// Solves `pos` exactly, ignoring the time limit, proving the values `which` asks for.
    /// `Solved::moves` holds the moves proved exact (none for [`RootMoves::Best`]), best first.
    pub fn solve_root(&mut self, pos: &Position<B>, which: RootMoves) -> Solved {
        self.solve_root_within(pos, which, None)
            .expect("a solve without a time limit always finishes")
    }

    /// As [`Engine::solve_root`], giving up (`None`) once `limit` has passed.
    pub fn solve_root_within(
        &mut self,
        pos: &Position<B>,
        which: RootMoves,
        limit: Option<Duration>,
    ) -> Option<Solved> {
        let clock = Instant::now();
        self.begin(clock, limit);
        self.prepare_subsets(pos);
        if self.stopped {
            return None;
        }
        // Every thread goes through the root moves in this order.
        let (list, guess) = self.root_list(pos);
        let mut solved = self.with_helpers(
            |e| e.solve_root_inner(pos, which, clock, &list, guess),
            |h| h.help_solve(pos, which, &list, guess),
        );
        solved.nodes = self.nodes;
        (!self.stopped).then_some(solved)
    }

    /// The root moves of a solve of `pos` in the order it tries them, and, where it sorts them
    /// by search, the estimate of the first in discs.
    fn root_list(&mut self, pos: &Position<B>) -> (Vec<Candidate<B>>, Option<i32>) {
        let mut list = Vec::new();
        let key = self.zobrist.key(pos);
        let deepen = self.sorts_by_search(self.rules.empty(pos).count());
        // The searches below find the table's move again if it is any good.
        let table_move = if deepen {
            None
        } else {
            self.table.probe(Part::Main, key).and_then(|e| e.best)
        };
        self.order(
            pos,
            self.rules.moves(pos),
            table_move,
            Look::Solve,
            &mut list,
        );
        let mut guess = None;
        if deepen && !list.is_empty() {
            for depth in 1..=ROOT_SORT_DEPTH {
                self.sort_by_search(pos, key, &mut list, depth, 0);
            }
            guess = Some(in_discs(list[0].weight));
        }
        (list, guess)
    }

    /// The root moves in the order a solve of `pos` from an empty table tries them: among
    /// moves of equal value, the order in which a solve lists them.
    pub fn root_order(&mut self, pos: &Position<B>) -> Vec<usize> {
        self.clear();
        self.begin(Instant::now(), None);
        self.root_list(pos).0.iter().map(|c| c.cell).collect()
    }

    /// The moves a line of perfect play tries at `pos`, in its order (see
    /// [`Engine::perfect_line`]): the first that keeps the value is the line's.
    pub fn line_order(&self, pos: &Position<B>) -> Vec<usize> {
        let mut list = Vec::new();
        self.line_candidates(pos, self.rules.moves(pos), &mut list);
        list.iter().map(|c| c.cell).collect()
    }

    /// What `pos` is worth within the window `(alpha, beta)`: fail-soft, so a score at or
    /// below `alpha` is an upper bound and one at or above `beta` a lower bound. Gives up
    /// (`None`) once `limit` has passed or the observer stops it; with a journal, what the
    /// search proved is kept there, the root's bound too, for the next run to go on from.
    pub fn solve_window_within(
        &mut self,
        pos: &Position<B>,
        alpha: i32,
        beta: i32,
        limit: Option<Duration>,
    ) -> Option<Windowed> {
        let clock = Instant::now();
        self.begin(clock, limit);
        self.prepare_subsets(pos);
        if self.stopped {
            return None;
        }
        let key = self.zobrist.key(pos);
        let (list, _) = self.root_list(pos);
        let (score, best) = self.with_helpers(
            |e| e.solve_window_inner(pos, key, &list, alpha, beta),
            |h| {
                h.nodes = 0;
                h.solve(pos, key, alpha, beta, 0);
            },
        );
        if self.stopped {
            return None;
        }
        if let Some(journal) = &self.journal {
            journal.record(pos, score, alpha, beta);
        }
        Some(Windowed {
            score,
            best,
            nodes: self.nodes,
            elapsed: clock.elapsed(),
        })
    }

    /// The main thread's part of [`Engine::solve_window_within`]: the root moves in turn,
    /// each kept in the journal, so that the best move comes back with the score.
    fn solve_window_inner(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &[Candidate<B>],
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<usize>) {
        if list.is_empty() {
            return (self.solve(pos, key, alpha, beta, 0), None);
        }
        let limit = self.rules.geometry.cell_count() as i32 + 1;
        let (mut best, mut best_move) = (-limit, None);
        for c in list {
            let (child, child_key) = self.after(pos, key, c.cell, c.flips(&self.rules, pos));
            let value = -self.solve_root_move(&child, child_key, -beta, -alpha.max(best));
            if self.stopped {
                break;
            }
            if value > best {
                (best, best_move) = (value, Some(c.cell));
                if best >= beta {
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// A helper's part of a solve. While the main thread solves the first root move, the
    /// helper solves it too (the threads share its moves out below, see [`Engine::best_of`]);
    /// then it takes root moves that no other thread has taken and searches each as the main
    /// thread would, and once all are taken it joins one whose value is still unknown. What it
    /// learns reaches the main thread through the table.
    fn help_solve(
        &mut self,
        pos: &Position<B>,
        which: RootMoves,
        list: &[Candidate<B>],
        guess: Option<i32>,
    ) {
        self.nodes = 0;
        let key = self.zobrist.key(pos);
        let limit = self.rules.geometry.cell_count() as i32 + 1;
        if list.is_empty() {
            self.solve(pos, key, -limit, limit, 0);
            return;
        }
        let child = |e: &Self, c: &Candidate<B>| e.after(pos, key, c.cell, c.flips(&e.rules, pos));
        if !self.shared.first_done.load(Relaxed) {
            let (first, first_key) = child(self, &list[0]);
            let value = self.solve_above(&first, first_key, -limit, guess, limit);
            // The main thread may not have published it yet: a move searched against an older
            // floor would be searched in a far wider window.
            if !self.stopped {
                self.shared.alpha.fetch_max(value, Relaxed);
            }
        }
        let n = list.len();
        let mut joined = (0, 0);
        while !self.stopped {
            let mut i = self.shared.next.fetch_add(1, Relaxed);
            if i >= n {
                // Every move is taken: join the search of one whose value is still unknown.
                let finished = self.shared.finished.load(Relaxed);
                match (0..n.min(64)).find(|&j| finished & (1 << j) == 0) {
                    Some(j) => i = j,
                    None => break,
                }
            }
            self.join_resolving(pos, key, list, i, guess, limit, &mut joined);
            let (next, next_key) = child(self, &list[i]);
            if i == 0 {
                self.solve_above(&next, next_key, -limit, guess, limit);
            } else if which == RootMoves::All {
                self.solve_root_move(&next, next_key, -limit, limit);
            } else {
                let estimate = guess.map(|_| in_discs(list[i].weight));
                self.probe_root_move(&next, next_key, i, which, None, estimate, limit);
            }
            if !self.stopped {
                self.shared.finish(i);
            }
        }
        if self.tie_test(which) == TieTest::Afterwards {
            self.help_test_ties(pos, key, list);
        }
    }

    /// A helper's part of the round of ties ([`Engine::test_ties`]): once the main thread has
    /// begun it, the same searches in the same order, whose positions the threads share out
    /// below the root.
    fn help_test_ties(&mut self, pos: &Position<B>, key: u64, list: &[Candidate<B>]) {
        while !self.shared.tie_round.load(Acquire) {
            if self.stopped || self.shared.stop.load(Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let alpha = self.shared.alpha.load(Relaxed);
        let places = self.shared.ties.load(Relaxed);
        for (i, c) in list.iter().enumerate().take(64) {
            if self.stopped {
                return;
            }
            if places & 1 << i != 0 {
                let (child, child_key) = self.after(pos, key, c.cell, c.flips(&self.rules, pos));
                self.solve_root_move(&child, child_key, -alpha, 1 - alpha);
            }
        }
    }

    /// The main thread's part of a solve, over the root moves in `list`'s order.
    fn solve_root_inner(
        &mut self,
        pos: &Position<B>,
        which: RootMoves,
        clock: Instant,
        list: &[Candidate<B>],
        guess: Option<i32>,
    ) -> Solved {
        let key = self.zobrist.key(pos);
        let limit = self.rules.geometry.cell_count() as i32 + 1;
        if list.is_empty() {
            let score = self.solve(pos, key, -limit, limit, 0);
            return Solved {
                score,
                best: None,
                moves: Vec::new(),
                nodes: self.nodes,
                elapsed: clock.elapsed(),
            };
        }
        self.progress = Progress {
            total: list.len(),
            ..Progress::default()
        };
        // Moves that a symmetry of the position maps onto each other have the same value:
        // each is searched once, through the first of its kind in the list.
        let twins = self.twins(pos, list);
        let mut values = Vec::new();
        let mut known: Vec<(usize, RootValue)> = Vec::new();
        let mut alpha = -limit;
        self.shared.alpha.store(alpha, Relaxed);
        // The first move is this thread's; the others go to whichever thread takes them first.
        // Moves that helpers took are searched here last, when they are mostly in the table.
        let n = list.len();
        self.shared.next.store(1, Relaxed);
        let (mut taken, mut deferred, mut done) = (0, Vec::new(), 0);
        let mut first = true;
        loop {
            let i = if first {
                0
            } else {
                let next = self.shared.next.fetch_add(1, Relaxed).min(n);
                deferred.extend(taken + 1..next);
                taken = next;
                if next < n {
                    next
                } else if !deferred.is_empty() {
                    deferred.remove(0)
                } else {
                    break;
                }
            };
            let m = list[i].cell;
            if let Some(&(_, twin)) = known.iter().find(|&&(k, _)| twins[i] == Some(k)) {
                if let RootValue::Exact(score) = twin {
                    if which != RootMoves::Best {
                        values.push((m, score));
                    }
                }
                self.shared.finish(i);
                done += 1;
                self.progress.done = done;
                self.progress.last = Some((m, twin));
                self.notify();
                continue;
            }
            self.progress.current = Some(m);
            self.notify();
            let (child, child_key) = self.after(pos, key, m, self.rules.flips(pos, m));
            let value =
                |e: &mut Self, a: i32, b: i32| -e.solve_root_move(&child, child_key, -b, -a);
            let result = if first {
                RootValue::Exact(self.solve_above(&child, child_key, -limit, guess, limit))
            } else if which == RootMoves::All {
                RootValue::Exact(value(self, -limit, limit))
            } else {
                let estimate = guess.map(|_| in_discs(list[i].weight));
                self.probe_root_move(&child, child_key, i, which, Some(alpha), estimate, limit)
            };
            if self.stopped {
                break;
            }
            self.shared.finish(i);
            known.push((m, result));
            if let RootValue::Exact(score) = result {
                values.push((m, score));
                if score > alpha {
                    alpha = score;
                    self.shared.alpha.fetch_max(alpha, Relaxed);
                    self.progress.best = Some((m, score));
                }
            }
            if first {
                first = false;
                self.shared.first_done.store(true, Relaxed);
            }
            done += 1;
            self.progress.done = done;
            self.progress.last = Some((m, result));
            self.notify();
        }
        if self.tie_test(which) == TieTest::Afterwards && !self.stopped {
            // Moves no better than the best but not shown worse; their images follow them.
            let open = RootValue::AtMost(alpha);
            let places: Vec<usize> = (0..n)
                .filter(|&i| twins[i].is_none() && known.contains(&(list[i].cell, open)))
                .collect();
            for i in self.test_ties(pos, key, list, &places, alpha) {
                let images = (0..n).filter(|&j| j == i || twins[j] == Some(list[i].cell));
                values.extend(images.map(|j| (list[j].cell, alpha)));
            }
        }
        // Among equal values the first in the list comes first, however the threads shared
        // the moves out.
        let place = |m: usize| list.iter().position(|c| c.cell == m);
        values.sort_by_key(|&(m, s)| (std::cmp::Reverse(s), place(m)));
        let Some(&(best, score)) = values.first() else {
            // Stopped before the first move was solved: nothing is known.
            return Solved {
                score: 0,
                best: None,
                moves: Vec::new(),
                nodes: self.nodes,
                elapsed: clock.elapsed(),
            };
        };
        match which {
            RootMoves::Best => values.clear(),
            RootMoves::Ties => values.retain(|&(_, s)| s == score),
            RootMoves::All => {}
        }
        if !self.stopped {
            self.table.store(
                Part::Main,
                key,
                Entry {
                    score: Outcome(score).score(),
                    best: Some(best),
                    depth: SOLVED,
                    bound: Bound::Exact,
                    cost: Entry::cost_of(self.nodes),
                },
            );
        }
        Solved {
            score,
            best: Some(best),
            moves: values,
            nodes: self.nodes,
            elapsed: clock.elapsed(),
        }
    }

    /// The second round of a solve that tests ties afterwards ([`TieTest::Afterwards`]), once
    /// `alpha`, the value of `pos`, is known: the moves at `places` of `list`, which the first
    /// round proved no better than `alpha` but not worse, are each searched in a null window
    /// just below `alpha`, which shows a move a tie or worse. The places of the ties.
    fn test_ties(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &[Candidate<B>],
        places: &[usize],
        alpha: i32,
    ) -> Vec<usize> {
        let mut ties = Vec::new();
        if places.is_empty() {
            return ties;
        }
        let helped = places.iter().filter(|&&i| i < 64);
        self.shared
            .ties
            .store(helped.fold(0, |set, &i| set | 1 << i), Relaxed);
        self.shared.tie_round.store(true, Release);
        self.progress.ties = true;
        self.progress.last = None;
        self.progress.done = 0;
        self.progress.total = places.len();
        for (done, &i) in places.iter().enumerate() {
            let m = list[i].cell;
            self.progress.current = Some(m);
            self.notify();
            let (child, child_key) = self.after(pos, key, m, list[i].flips(&self.rules, pos));
            let probe = -self.solve_root_move(&child, child_key, -alpha, 1 - alpha);
            if self.stopped {
                break;
            }
            let result = if probe >= alpha {
                ties.push(i);
                RootValue::Exact(alpha)
            } else {
                RootValue::AtMost(probe)
            };
            self.progress.done = done + 1;
            self.progress.last = Some((m, result));
            self.notify();
        }
        ties
    }

    /// How this solve, proving the values `which` asks for, tells ties from worse root moves.
    fn tie_test(&self, which: RootMoves) -> TieTest {
        match (which, &self.journal) {
            (RootMoves::Ties, Some(_)) => TieTest::Afterwards,
            (RootMoves::Ties, None) => TieTest::InWindow,
            (RootMoves::Best | RootMoves::All, _) => TieTest::None,
        }
    }

    /// [`Engine::solve`] of the position after a root move, kept in the journal however small
    /// the search: a solve stopped once every root move has been searched leaves a journal
    /// that proves the root's value.
    fn solve_root_move(&mut self, pos: &Position<B>, key: u64, alpha: i32, beta: i32) -> i32 {
        let value = self.solve(pos, key, alpha, beta, 1);
        if let (Some(journal), false) = (&self.journal, self.stopped) {
            journal.record(pos, value, alpha, beta);
        }
        value
    }

    /// Before a helper searches root move `i`: where another thread is settling the value of a
    /// move found better than the best so far, the search of that move, once for each floor.
    /// That move decides the floor of every other: helping to settle it first saves searching
    /// them against a floor too low. `joined` is the last move and floor joined.
    #[allow(clippy::too_many_arguments)]
    fn join_resolving(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &[Candidate<B>],
        i: usize,
        guess: Option<i32>,
        limit: i32,
        joined: &mut (usize, i32),
    ) {
        let resolving = self.shared.resolving.load(Relaxed);
        let floor = self.shared.alpha.load(Relaxed);
        if resolving == 0 || resolving == i + 1 || *joined == (resolving, floor) {
            return;
        }
        *joined = (resolving, floor);
        let c = &list[resolving - 1];
        let (other, other_key) = self.after(pos, key, c.cell, c.flips(&self.rules, pos));
        let estimate = guess.map(|_| in_discs(c.weight));
        self.solve_above(&other, other_key, floor - 1, estimate, limit);
    }

    /// What a search of root move `i` after the first (`pos` the position after it) proves,
    /// against the best value so far: the main thread's own (`best`), or for a helper (`None`)
    /// the floor the threads share, whose values only reach the main thread through the table.
    /// The main thread searches against the shared floor less one where that is higher than
    /// its own, so that a move as good as another thread's best is still found exact. A search
    /// whose floor another thread raises starts again from the new one.
    #[allow(clippy::too_many_arguments)]
    fn probe_root_move(
        &mut self,
        pos: &Position<B>,
        key: u64,
        i: usize,
        which: RootMoves,
        best: Option<i32>,
        estimate: Option<i32>,
        limit: i32,
    ) -> RootValue {
        loop {
            let shared = self.shared.alpha.load(Relaxed);
            let (floor, watch) = match best {
                Some(best) if best >= shared - 1 => (best, best + 1),
                Some(_) => (shared - 1, shared),
                None => (shared, shared),
            };
            let (bar, top) = probe_window(self.tie_test(which), floor);
            self.watch = Some(watch);
            let probe = -self.solve_root_move(pos, key, -top, -bar);
            self.watch = None;
            if std::mem::take(&mut self.outdated) {
                self.stopped = false;
                continue;
            }
            if probe <= bar || self.stopped {
                return RootValue::AtMost(probe);
            }
            if probe < top {
                return RootValue::Exact(probe);
            }
            self.shared.alpha.fetch_max(top, Relaxed);
            let claimed = self
                .shared
                .resolving
                .compare_exchange(0, i + 1, Relaxed, Relaxed)
                .is_ok();
            let score = self.solve_above(pos, key, floor, estimate, limit);
            if claimed {
                self.shared.resolving.store(0, Relaxed);
            }
            if self.stopped {
                return RootValue::AtMost(probe);
            }
            if score > floor {
                self.shared.alpha.fetch_max(score, Relaxed);
            }
            return RootValue::Exact(score.max(floor));
        }
    }

    /// The value, for the root's side, of a root move worth more than `floor` (`pos` the
    /// position after it; the first root move's floor is `-limit`, below every value):
    /// searched in windows a disc either side of `estimate` (at least the floor), widened as
    /// the value falls outside, the bounds each proves shared with the other threads as it
    /// goes; without an estimate, in the window above the floor.
    fn solve_above(
        &mut self,
        pos: &Position<B>,
        key: u64,
        floor: i32,
        estimate: Option<i32>,
        limit: i32,
    ) -> i32 {
        let Some(estimate) = estimate else {
            return -self.solve_root_move(pos, key, -limit, -floor.min(limit - 1));
        };
        let mut low = floor.max(estimate - 1).min(limit - 2);
        let mut high = low + 2;
        let mut width = 2;
        loop {
            let value = -self.solve_root_move(pos, key, -high, -low);
            width *= 2;
            if self.stopped {
                return value;
            }
            if value <= low && low > floor && value > floor {
                (low, high) = ((value - width).max(floor), value + 1);
            } else if value >= high && high < limit {
                self.shared.alpha.fetch_max(high, Relaxed);
                (low, high) = (value - 1, (value + width).min(limit));
            } else {
                return value;
            }
        }
    }

    /// For each move of `list`, the earlier move of `list` that a symmetry of the board
    /// fixing `pos` maps it to, if any.
    fn twins(&self, pos: &Position<B>, list: &[Candidate<B>]) -> Vec<Option<usize>> {
        let mut maps = self.rules.geometry.symmetries();
        maps.retain(|map| pos.mapped(map) == *pos);
        list.iter()
            .enumerate()
            .map(|(i, &Candidate { cell: m, .. })| {
                list[..i]
                    .iter()
                    .map(|c| c.cell)
                    .find(|&k| maps.iter().any(|map| map[m] == k))
            })
            .collect()
    }

    /// A line of perfect play from `pos`, whose exact value for its side to move is `score`, to
    /// the end of the game: `None` for a pass. Every move is proved to keep the value (by a
    /// search of the position after it with a window around the value), so the line is optimal
    /// even where the table has forgotten it.
    pub fn perfect_line(&mut self, pos: &Position<B>, score: i32) -> Vec<Option<usize>> {
        // A line is proved in full: the time limit of the solve before it no longer applies.
        // Only the observer stops it, and then the caller throws the line away.
        self.perfect_line_within(pos, score, None)
            .unwrap_or_default()
    }

    /// As [`Engine::perfect_line`], giving up (`None`) once `limit` has passed or the
    /// observer stops it.
    pub fn perfect_line_within(
        &mut self,
        pos: &Position<B>,
        score: i32,
        limit: Option<Duration>,
    ) -> Option<Vec<Option<usize>>> {
        self.deadline = limit.map(|t| Instant::now() + t.saturating_sub(super::time::margin(t)));
        self.stopped = false;
        // A line may be searched by an engine that has not solved the position first.
        self.prepare_subsets(pos);
        let mut line = Vec::new();
        let (mut pos, mut score) = (*pos, score);
        let mut key = self.zobrist.key(&pos);
        let mut list = Vec::new();
        loop {
            let moves = self.rules.moves(&pos);
            if moves.is_empty() {
                if self.rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                    break;
                }
                line.push(None);
                pos = self.rules.pass(&pos);
                key = self.zobrist.after_pass(key);
                score = -score;
                continue;
            }
            self.line_candidates(&pos, moves, &mut list);
            let mut next = None;
            for c in &list {
                let m = c.cell;
                let (child, child_key) = self.after(&pos, key, m, c.flips(&self.rules, &pos));
                // Within (-score - 1, -score + 1) only the exact value -score lies inside.
                let value = self.solve(&child, child_key, -score - 1, -score + 1, 1);
                if self.stopped {
                    return None;
                }
                if value == -score {
                    next = Some((m, child, child_key));
                    break;
                }
            }
            let Some((m, child, child_key)) = next else {
                // No move keeps the value: the caller's score was wrong.
                break;
            };
            line.push(Some(m));
            (pos, key, score) = (child, child_key, -score);
        }
        Some(line)
    }

    /// The `moves` a line of perfect play tries at `pos`, into `list`: in an order the table
    /// does not change, so that the line is the same whatever searches filled the table (and
    /// however many threads), and one move of each kind: a move that a symmetry of `pos` maps
    /// onto an earlier one has the value the earlier one was just found not to have, and its
    /// own search could be as long as the whole solve, which searched one move of each kind.
    pub(super) fn line_candidates(
        &self,
        pos: &Position<B>,
        moves: B,
        list: &mut Vec<Candidate<B>>,
    ) {
        self.order(pos, moves, None, Look::Solve, list);
        let twins = self.twins(pos, list);
        let mut twin = twins.iter();
        list.retain(|_| twin.next().is_some_and(Option::is_none));
    }

    /// Hands the observer the progress so far.
    #[cold]
    pub(super) fn notify(&mut self) {
        if let Some(observer) = &mut self.observer {
            // Helpers' nodes join `self.nodes` when they finish; until then, what they published.
            self.progress.nodes = self.nodes + self.shared.helper_nodes();
            self.progress.elapsed = self.started.elapsed();
            if observer(&self.progress).is_break() {
                self.stopped = true;
            }
        }
    }

    /// The exact value of `pos` within `(alpha, beta)`, fail-soft: a result at or below
    /// `alpha` is an upper bound, at or above `beta` a lower bound.
    pub(super) fn solve(
        &mut self,
        pos: &Position<B>,
        key: u64,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let empty = self.rules.empty(pos);
        // Under place-anywhere the sets' values are the positions' (under standard placement
        // they only order the moves).
        let exact = self
            .subsets
            .as_ref()
            .filter(|_| self.rules.variant.place_anywhere);
        if let Some(subsets) = exact {
            if let Some(value) = subsets.value(&self.rules, pos, empty) {
                self.count_node();
                return value;
            }
        }
        let empties = empty.count();
        let reach = self.reach();
        if empties <= reach.shallow {
            return self.solve_shallow(pos.mover(), pos.opponent(), alpha, beta);
        }
        let start = self.nodes;
        let place = self.place(pos, key, empty);
        self.table.prefetch(place.part, place.key);
        if self.count_node() {
            return 0;
        }
        let moves = self.rules.moves(pos);
        if moves.is_empty() {
            if self.rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                return self.final_score(pos);
            }
            let passed = self.rules.pass(pos);
            let key = self.zobrist.after_pass(key);
            return -self.solve(&passed, key, -beta, -alpha, ply + 1);
        }
        if let Some(score) = self.stability_cut(pos.mover(), pos.opponent(), empty, alpha) {
            return score;
        }
        if let (Some(m), true) = (moves.lowest(), moves.count() == 1) {
            // A forced move: nothing to order, and not worth a table entry.
            let (child, child_key) = self.after(pos, key, m, self.rules.flips(pos, m));
            return -self.solve(&child, child_key, -beta, -alpha, ply + 1);
        }
        if let Some(journal) = &self.journal {
            if let Some(b) = journal.bounds(pos, empties) {
                if b.high <= alpha || b.low == b.high {
                    return b.high;
                }
                if b.low >= beta {
                    return b.low;
                }
                // The value lies inside the bounds, so the window may shrink to them.
                alpha = alpha.max(b.low - 1);
                beta = beta.min(b.high + 1);
            }
        }
        let mut table_move = None;
        if let Some(e) = self.table.probe(place.part, place.key) {
            table_move = e
                .best
                .map(|m| place.read(&self.images, m))
                .filter(|&m| moves.contains(m));
            if e.depth == SOLVED {
                // Solved entries hold outcomes, so their scores convert back exactly.
                let score = Outcome::at_most(e.score) + place.offset;
                if e.bound.settles(score, alpha, beta) {
                    return score;
                }
            }
        }
        if empties >= reach.transposition_cuts {
            if let Some(score) = self.transposition_cut(pos, key, empty, moves, beta) {
                return score;
            }
        }
        if let Some(journal) = &self.journal {
            if let Some(score) = self.journal_cut(journal, pos, moves, empties, beta) {
                return score;
            }
        }
        let mut list = self.take_list(ply);
        let sort_depth = self
            .sorts_by_search(empties)
            .then_some(if empties >= DEEPER_SORT_FROM {
                DEEPER_SORT_DEPTH
            } else {
                SORT_DEPTH
            });
        // The table's move is searched before the others are weighed and sorted (see
        // `best_of`).
        self.list_moves(moves, table_move, &mut list);
        let share = !self.shared.busy.is_empty() && empties >= SPLIT;
        let (best_score, best_move) = self.best_of(
            pos,
            key,
            &mut list,
            alpha,
            beta,
            share,
            |e, list| {
                e.weigh(pos, moves.count(), Look::Solve, list);
                if let Some(depth) = sort_depth {
                    e.sort_by_search(pos, key, list, depth, ply);
                }
            },
            |e, child, a, b| e.solve(child.pos, child.key, a, b, ply + 1),
        );
        self.lists[ply] = list;
        if self.stopped {
            return 0;
        }
        let bound = Bound::of(best_score, alpha, beta);
        self.table.store(
            place.part,
            place.key,
            Entry {
                score: Outcome(best_score - place.offset).score(),
                best: best_move.map(|m| place.write(&self.images, m)),
                depth: SOLVED,
                bound,
                cost: Entry::cost_of(self.nodes - start),
            },
        );
        if let Some(journal) = &self.journal {
            if self.nodes - start >= journal.min_nodes() {
                journal.record(pos, best_score, alpha, beta);
            }
        }
        best_score
    }

    /// An upper bound on the value of `pos` from the discs that can never change colour, when
    /// it is no more than `alpha` (so the search fails low without looking further). The
    /// lower bound from the mover's such discs, cutting at `beta`, saved under 0.02% of the
    /// nodes (session 36: FFO #20-#44, `bench/positions/simple-misere-20.txt`, simple-19).
    /// The side to move owns `mine`, the other side `theirs`; `empty` is the rest.
    // Inline, so that in the shallow solver the stability kernel runs inline in its AVX2 code
    // (session 51, one thread, instructions: FFO #40-#44 2.1% fewer, 31.66 G against 32.33 G;
    // simple-19 1.6% fewer; simple-misere-20, which makes no such cut there, 0.4% more).
    #[inline(always)]
    pub(super) fn stability_cut(&self, mine: B, theirs: B, empty: B, alpha: i32) -> Option<i32> {
        let cells = self.rules.geometry.cell_count() as i32;
        // Discs that count against the side to move: the opponent's, or its own under misère.
        let against = if self.rules.variant.misere {
            mine
        } else {
            theirs
        };
        // The fewest stable discs of `against` that bring the bound down to alpha.
        let need = ((cells - alpha).max(0) as u32).div_ceil(2);
        // Even if every such disc were stable the bound would not reach alpha.
        if against.count() < need {
            return None;
        }
        let stable = self
            .eval
            .stable_near_end_reaching(&self.rules, against, empty, need)?;
        Some(cells - 2 * stable as i32)
    }

    /// A cut-off proved by the journal alone: a move after which the journal holds the
    /// position worth at most `-beta` to its side to move. Such a position was settled by
    /// another order of moves, in this run or an earlier one, and the order here need not try
    /// that move first; the table's own cut-off (see [`Engine::transposition_cut`]) forgets
    /// what earlier runs proved.
    // Kept out of line: inlined, it cost a solve without a journal 0.45% more instructions
    // on FFO #40-#44 (0.37% so).
    #[inline(never)]
    fn journal_cut(
        &self,
        journal: &Journal<B>,
        pos: &Position<B>,
        moves: B,
        empties: u32,
        beta: i32,
    ) -> Option<i32> {
        if !journal.may_know(empties - 1) {
            return None;
        }
        moves.iter().find_map(|m| {
            let child = self.rules.play_flips(pos, m, self.rules.flips(pos, m));
            let bounds = journal.bounds(&child, empties - 1)?;
            (-bounds.high >= beta).then_some(-bounds.high)
        })
    }

    /// A cut-off proved by the table alone: a move whose position after it is stored as
    /// solved at or above `beta` for the side to move here (enhanced transposition cut-off).
    /// Each child's bucket is a cache miss, so all are fetched before any is read and the
    /// misses overlap (eight SIMPLE positions 19 cells from the end, where the cut-offs start
    /// at 9 cells: about 15% less time).
    fn transposition_cut(
        &self,
        pos: &Position<B>,
        key: u64,
        empty: B,
        moves: B,
        beta: i32,
    ) -> Option<i32> {
        // Where the children's keys under every image are wanted, they follow from the
        // parent's, found once, as the full key does.
        let lanes = &self.images.keys;
        let colourless = self.keys_colourless();
        let keys = if colourless {
            Some(lanes.colourless(empty, pos.to_move))
        } else if self.symmetric(empty.count() - 1) {
            Some(lanes.key(pos))
        } else {
            None
        };
        let places = moves.iter().map(|m| {
            let flips = self.rules.flips(pos, m);
            let (child, child_key) = self.after(pos, key, m, flips);
            let child_empty = empty & !B::bit(m);
            let child_keys = keys.map(|keys| {
                if colourless {
                    lanes.colourless_after(keys, m)
                } else {
                    lanes.after_move(keys, pos.to_move, m, flips)
                }
            });
            self.place_with(&child, child_key, child_empty, child_keys.as_ref())
        });
        self.table
            .first_cut(places, |p| (p.part, p.key), |p, e| p.cut(e, beta))
    }

    /// Where the solver's table keeps `pos` (whose full key is `key` and empty cells
    /// `empty`). Under SIMPLE rules a disc with no empty cell beside it can never be turned
    /// over, nor make a move legal (a move needs an opponent's disc beside it), and the game
    /// ends on a full board: positions that differ only in the colour of such discs are worth
    /// the same up to their count, so they share one entry, which holds the value less that
    /// count; under place-anywhere, so do positions that differ in the colour of any disc.
    /// From [`SYMMETRIC_FROM`] empty cells on, a position also shares its entry with
    /// its images under the board's symmetries (the entry of the smallest key of them all).
    #[inline]
    fn place(&self, pos: &Position<B>, key: u64, empty: B) -> Place {
        self.place_with(pos, key, empty, None)
    }

    /// Whether the table keys positions colourless (place-anywhere SIMPLE; see [`Engine::place`]).
    fn keys_colourless(&self) -> bool {
        let variant = &self.rules.variant;
        variant.place_anywhere && variant.rule_set == RuleSet::Simple
    }

    /// Whether a position with this many empty cells shares its table entry with its images.
    fn symmetric(&self, empties: u32) -> bool {
        empties >= SYMMETRIC_FROM && !self.images.maps.is_empty()
    }

    /// [`Engine::place`], given the position's keys under every image (see [`Images`]) where
    /// the caller has them: colourless where the table keys positions so, else full.
    #[inline]
    fn place_with(&self, pos: &Position<B>, key: u64, empty: B, keys: Option<&LaneKeys>) -> Place {
        let part = if empty.count() <= NEAR_END {
            Part::NearEnd
        } else {
            Part::Main
        };
        if self.rules.variant.rule_set != RuleSet::Simple {
            return Place {
                key,
                part,
                ..Place::default()
            };
        }
        let settled = self.eval.stable(&self.rules, pos.black | pos.white, empty);
        let lead =
            (pos.mover() & settled).count() as i32 - (pos.opponent() & settled).count() as i32;
        let offset = if self.rules.variant.misere {
            -lead
        } else {
            lead
        };
        // Under place-anywhere as well, every empty cell is a move whatever the colours, and
        // each disc ends up the colour of whoever fills the last empty cell beside it, as a
        // move turns every disc beside it to the mover: no disc's colour now bears on the rest
        // of the game, so all are keyed colourless (the value less the settled discs' lead
        // depends on the empty cells and the side to move alone).
        let lanes = &self.images.keys;
        let symmetric = self.symmetric(empty.count());
        // The keys under the table's Zobrist (lane 0) and, where the images share the entry,
        // under theirs, each found once in one pass.
        let keys = if self.rules.variant.place_anywhere {
            keys.copied()
                .unwrap_or_else(|| lanes.colourless(empty, pos.to_move))
        } else if symmetric {
            let full = keys.copied().unwrap_or_else(|| lanes.key(pos));
            lanes.settled(full, pos.white, settled)
        } else {
            let mut keys = [0; LANES];
            keys[0] = self.zobrist.settled(key, pos.white, settled);
            keys
        };
        let mut place = Place {
            key: keys[0],
            offset,
            image: None,
            part,
        };
        if symmetric {
            for (i, &key) in keys[1..=self.images.maps.len()].iter().enumerate() {
                if key < place.key {
                    place.key = key;
                    place.image = Some(i as u8);
                }
            }
        }
        place
    }

    /// Where the solver's tools take over under these rules.
    pub(super) fn reach(&self) -> &'static Reach {
        let variant = &self.rules.variant;
        if variant.place_anywhere {
            &ANYWHERE_REACH
        } else if variant.rule_set == RuleSet::Simple {
            if variant.misere {
                &SIMPLE_MISERE_REACH
            } else {
                &SIMPLE_REACH
            }
        } else {
            &FULL_REACH
        }
    }

    /// Whether a position with `empties` empty cells has its moves sorted by search.
    fn sorts_by_search(&self, empties: u32) -> bool {
        empties >= SORT_BY_SEARCH && self.rules.variant.rule_set == RuleSet::Full
    }

    /// Re-orders `list` (already in static order, the table's move first) by the estimate of a
    /// `depth`-move search of each move; the table's move stays first.
    fn sort_by_search(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &mut [Candidate<B>],
        depth: i32,
        ply: usize,
    ) {
        for item in list.iter_mut() {
            if item.is_table_move() {
                continue;
            }
            let flips = item.flips(&self.rules, pos);
            let (child, child_key) = self.after(pos, key, item.cell, flips);
            let score = -self.pvs(&child, child_key, depth - 1, -INFINITY, INFINITY, ply + 1);
            item.weight = score.clamp(-INFINITY + 1, INFINITY - 1);
        }
        list.sort_by_key(|c| std::cmp::Reverse(c.weight));
    }
}
