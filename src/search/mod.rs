//! The computer player's search: negamax alpha-beta with principal-variation search, iterative
//! deepening, a transposition table and an exact endgame solver, for every size and variant.
//!
//! Scores are from the side to move's point of view. Estimates are in hundredths of a disc
//! ([`DISC`]) of expected final difference; a finished game scores [`Outcome`]'s value, beyond
//! every estimate, so a proven win is never traded for a good-looking position. Reports convert
//! back to hundredths of a disc.

mod endgame;
mod eval;
mod journal;
pub mod patterns;
mod shallow;
mod subsets;
mod table;
mod threads;
pub mod time;
pub mod weights;

pub use endgame::{Observer, Progress, RootMoves, RootValue, Solved, Windowed};
pub use eval::{EvalKind, Evaluator, DISC};
pub use journal::{Bounds, Journal, Sink};
use threads::{Shared, SEARCHED_BY_ALL};

/// Where the scores of finished games start: beyond every estimate.
const WON: i32 = 10_000_000;

/// The exact final disc difference of a game, and its place on the search's score scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome(pub i32);

impl Outcome {
    /// The search score: a win beats every estimate, a loss is below every one, and between
    /// outcomes more discs are better.
    pub fn score(self) -> i32 {
        self.0.signum() * WON + self.0 * DISC
    }

    /// The largest difference whose score is at most `score`.
    pub fn at_most(score: i32) -> i32 {
        if score >= WON + DISC {
            (score - WON).div_euclid(DISC)
        } else if score >= 0 {
            0
        } else if score >= -WON - DISC {
            -1
        } else {
            (score + WON).div_euclid(DISC)
        }
    }

    /// The smallest difference whose score is at least `score`.
    pub fn at_least(score: i32) -> i32 {
        -Self::at_most(-score)
    }

    /// A search score read back as hundredths of a disc: outcomes lose their offset.
    pub fn to_hundredths(score: i32) -> i32 {
        if score > WON / 2 {
            score - WON
        } else if score < -WON / 2 {
            score + WON
        } else {
            score
        }
    }
}
pub use table::{splitmix, Bound, Entry, Part, Table, Zobrist, MAX_DEPTH, SOLVED};

use crate::rules::{Bits, Flips, KernelWork, Position, RuleSet, Rules};
use patterns::Indices;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How final scores count empty cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Discs only: the seed protocols' count.
    #[default]
    Plain,
    /// Empty cells go to the winner, as tournament results and the FFO test scores count them.
    EmptiesToWinner,
}

/// What a search may spend and how it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Deepest iteration, in moves.
    pub depth: Option<u32>,
    /// Time for one move: the move comes back within it.
    pub move_time: Option<Duration>,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Varied play: a small, seed-dependent adjustment of every estimate.
    pub seed: Option<u64>,
    pub scoring: Scoring,
    /// Threads searching together (lazy SMP over one shared table); one is deterministic.
    pub threads: usize,
    /// Learned weights where the board has some, or the classic evaluation.
    pub eval: EvalKind,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: None,
            move_time: Some(Duration::from_secs(1)),
            hash_mb: 16,
            seed: None,
            scoring: Scoring::Plain,
            threads: 1,
            eval: EvalKind::default(),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move to play (a cell index), or `None` when the side to move must pass.
    pub best: Option<usize>,
    /// Its score in hundredths of a disc; exact when `exact` is set.
    pub score: i32,
    /// The last iteration completed.
    pub depth: u32,
    /// Whether the score is the exact outcome under best play.
    pub exact: bool,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line, starting with `best`.
    pub pv: Vec<usize>,
}

/// Beyond every score.
const INFINITY: i32 = i32::MAX / 4;
/// How often (in nodes, minus one) the clock is read: some microseconds.
const CLOCK_EVERY: u64 = 255;

/// A node of the search this many moves from its horizon or more reads and writes the table; a node
/// nearer, with at most [`TABLE_MOVES`] moves, does not read it and writes only an exact value (few
/// nodes have one, and the line shown is read from the table). Its subtree costs little more to
/// search again than a probe's cache miss, and its results, many (the solver's sorts by search run
/// such searches at every node far from the end), most likely took the slots of deeper results:
/// fewer nodes too. Against every node (`othello solve --threads 1`, interleaved): FFO #20-#39
/// 209.3 M -> 167.8 M nodes (5.9 s -> 4.7 s), #40-#44 159.5 M -> 136.9 M, #45-#49 1,526 M -> 1,304
/// M (40.2-40.7 s -> 33.9-34.7 s), #50-#52 2,809 M -> 2,080 M (86 s -> 66 s), the 6x6 position
/// after c2 b4 c5 312 M -> 285 M; `othello bench` 5,485,521 -> 4,907,599 nodes, its midgame and 6x6
/// searches 21-56% less time. Leaving out only the nodes 1 move from the horizon changed nearly
/// nothing; up to 3 moves, about what up to 2 did.
const TABLE_DEPTH: i32 = 3;

/// Where a node near the horizon has more moves than this (place-anywhere), it still uses
/// the table: there its subtree is large and transpositions many (`othello bench`'s
/// place-anywhere search: 82% more nodes without them; 20 and 32 alike).
const TABLE_MOVES: u32 = 20;

/// From this many moves from the horizon on, a node first looks in the table for a move whose
/// position is stored deep enough with a value that cuts off here (enhanced transposition
/// cut-off, as the solver does near the end). Session 42, one thread, `othello bench
/// --positions openings/8x8.txt --depth 11` and the same on `bench/positions/full-24.txt`:
/// 38.07 M nodes against 39.73 M, 4.61 s against 4.84 s (medians of five runs in turn); the
/// openings to depth 13, 131.8 M against 136.5 M. From 3 moves about as many nodes, from 5 or
/// 6 more.
const ETC_DEPTH: i32 = 4;

/// How far [`Engine::order`] looks at each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    /// The square weights and the opponent's replies after the move.
    Replies,
    /// For the exact solver: also the discs it makes safe, where that pays.
    Solve,
}

/// What [`Engine::order`] counts for a move (see [`Engine::order_weights`]): the square's
/// weight or not, and per reply, per empty cell next to the mover's discs (taken from the
/// weight), per safe disc of the mover's and per disc the move turns (added), per disc of
/// the move's value were any empty cell a move (added, where the solve has valued the sets of
/// its empty cells), and per disc of the static estimate of the position after the move (for
/// the opponent: taken, from [`ESTIMATE_FROM`] empty cells on).
#[derive(Clone, Copy, Debug)]
struct OrderWeights {
    squares: bool,
    replies: i32,
    exposed: i32,
    safe_discs: i32,
    flipped: i32,
    anywhere_value: i32,
    estimate: i32,
    /// For a move into a quarter of the board that holds an odd number of empty cells (an
    /// even number under misère), as the shallow solver orders its moves.
    parity: i32,
}

/// From this many empty cells on, the solver's order weighs the static estimate of each
/// move's position where [`Engine::order_weights`] asks for it: an estimate per move costs
/// about what the nodes it saves do nearer the end (FFO #20-#39: from 12, 15% fewer nodes and
/// 4% less time; from 10, 18% fewer nodes and more time; from 14, 9% and no less time).
/// Session 35, with the replies weighing more below 12 as now: from 10, FFO #20-#39 6.6%
/// fewer nodes, #40-#44 7.3%, #45-#49 4.7%, but #40-#44 about 10% more time; from 11, 4-5%
/// fewer; from 13, 2.5-4% more.
const ESTIMATE_FROM: u32 = 12;

/// A move in a search's list: its cell, the discs it turns when the ordering had to find them
/// (so they are found once), and its weight in the order, larger first.
#[derive(Clone, Copy, Debug)]
struct Candidate<B> {
    cell: usize,
    flips: Option<B>,
    weight: i32,
}

impl<B: Bits> Candidate<B> {
    /// The discs the move turns in `pos`.
    #[inline]
    fn flips(&self, rules: &Rules<B>, pos: &Position<B>) -> B {
        self.flips.unwrap_or_else(|| rules.flips(pos, self.cell))
    }

    /// Whether this is the table's move, listed first (see [`Engine::list_moves`]): no weight
    /// the order gives reaches its weight.
    fn is_table_move(&self) -> bool {
        self.weight == INFINITY
    }
}

/// [`Engine::weigh`] before the sort, as work for the rules' kernel.
struct Weighing<'a, B> {
    engine: &'a Engine<B>,
    pos: &'a Position<B>,
    move_count: u32,
    look: Look,
    list: &'a mut [Candidate<B>],
}

impl<B: Bits> KernelWork<B> for Weighing<'_, B> {
    type Output = ();

    #[inline(always)]
    fn work<F: Flips<B>>(self, kernel: F) {
        let Weighing {
            engine,
            pos,
            move_count,
            look,
            list,
        } = self;
        engine.weigh_with(kernel, pos, move_count, look, list);
    }
}

/// A position [`Engine::best_of`] hands its `value`: the position after a move, its key, and
/// the move's cell and the discs it turned.
#[derive(Clone, Copy)]
struct Child<'a, B> {
    pos: &'a Position<B>,
    key: u64,
    cell: usize,
    flips: B,
}

/// The moves of `list` still to order: all but the table's move at its head.
fn unordered<B: Bits>(list: &mut [Candidate<B>]) -> &mut [Candidate<B>] {
    let skip = usize::from(list.first().is_some_and(Candidate::is_table_move));
    &mut list[skip..]
}

/// A search engine for one board shape and variant. It keeps its table between moves.
pub struct Engine<B> {
    rules: Rules<B>,
    eval: Evaluator<B>,
    zobrist: Zobrist,
    table: Arc<Table>,
    config: Config,
    /// 0 for the thread that answers; helpers count from 1.
    id: usize,
    shared: Arc<Shared>,
    /// Move-ordering weight of each cell: corners first, cells next to empty corners last.
    square_weight: Vec<i32>,
    /// The cells by square weight: those of equal weight together, heaviest first.
    square_order: Arc<[B]>,
    /// The board cut in four (rows and columns halved), for parity in the endgame: the quarter
    /// of each cell, and for each set of quarters (one bit each) the cells of those quarters.
    quarter_of: Vec<u8>,
    quarter_cells: [B; 16],
    /// One reusable move list per ply, so the search does not allocate as it goes.
    lists: Vec<Vec<Candidate<B>>>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// While a root move of a solve is searched against a floor: the shared lower bound on
    /// the root's value above which that search is out of date, so it stops (`outdated`) and
    /// the move is searched again against the higher floor.
    watch: Option<i32>,
    outdated: bool,
    /// When the current search began.
    started: Instant,
    observer: Option<Observer>,
    progress: Progress,
    /// Bounds kept from one solve to the next, if the solve keeps them.
    journal: Option<Arc<Journal<B>>>,
    /// The board's symmetries, for the solver's table.
    images: Arc<endgame::Images>,
    /// Under SIMPLE rules, the values of the sets of a solve's empty cells, and from how many
    /// empty cells on a solve works them out: under place-anywhere, where they answer it
    /// ([`subsets::SUBSETS_FROM`]), and in the normal game under standard placement, where
    /// they order its moves ([`subsets::ORDER_FROM`]).
    subsets: Option<Arc<subsets::Subsets<B>>>,
    subsets_from: u32,
    order_from: u32,
}

impl<B: Bits> Engine<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        let eval = Evaluator::new(&rules, config.eval);
        let cells = rules.geometry.cell_count();
        let square_weight: Vec<i32> = (0..cells).map(|i| eval.square_weight(B::bit(i))).collect();
        let mut distinct = square_weight.clone();
        distinct.sort_unstable_by_key(|&w| std::cmp::Reverse(w));
        distinct.dedup();
        let square_order = distinct
            .iter()
            .map(|&w| {
                (0..cells)
                    .filter(|&i| square_weight[i] == w)
                    .fold(B::ZERO, |group, i| group | B::bit(i))
            })
            .collect();
        let g = &rules.geometry;
        let quarter_of: Vec<u8> = (0..cells)
            .map(|i| {
                let sq = g.square(i);
                2 * u8::from(2 * sq.row as usize >= g.rows())
                    + u8::from(2 * sq.col as usize >= g.cols())
            })
            .collect();
        let quarter_cells = std::array::from_fn(|set| {
            (0..cells)
                .filter(|&i| set & (1 << quarter_of[i]) != 0)
                .fold(B::ZERO, |cells, i| cells | B::bit(i))
        });
        let zobrist = Zobrist::new(cells);
        Engine {
            images: endgame::Images::new(&rules, &zobrist).into(),
            quarter_of,
            quarter_cells,
            zobrist,
            table: Arc::new(Table::new(config.hash_mb)),
            id: 0,
            shared: Arc::default(),
            eval,
            rules,
            config,
            square_weight,
            square_order,
            lists: Vec::new(),
            nodes: 0,
            deadline: None,
            stopped: false,
            watch: None,
            outdated: false,
            started: Instant::now(),
            observer: None,
            progress: Progress::default(),
            journal: None,
            subsets: None,
            subsets_from: subsets::SUBSETS_FROM,
            order_from: subsets::ORDER_FROM,
        }
    }

    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the depth and time limits of later searches; the table is kept.
    pub fn set_limits(&mut self, depth: Option<u32>, move_time: Option<Duration>) {
        self.config.depth = depth;
        self.config.move_time = move_time;
    }

    /// Nodes searched since the current search began.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        match Arc::get_mut(&mut self.table) {
            Some(table) => table.clear(),
            None => unreachable!("helpers hold the table only while a search runs"),
        }
    }

    /// The estimate of `pos` for its side to move.
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        self.eval.evaluate(&self.rules, pos)
    }

    /// Searches `pos` within the configured limits and returns the best move found.
    pub fn search(&mut self, pos: &Position<B>) -> Report {
        self.search_since(pos, Instant::now())
    }

    /// [`Engine::search`] for a move owed since `clock`: the move time counts from then.
    pub fn search_since(&mut self, pos: &Position<B>, clock: Instant) -> Report {
        self.begin(clock, self.config.move_time);
        let mut report = self.with_helpers(|e| e.search_main(pos, clock), |h| h.help_search(pos));
        report.nodes = self.nodes;
        report.elapsed = clock.elapsed();
        report
    }

    /// A helper's part of a search: iterative deepening of its own, every other helper a move
    /// deeper and each trying the root moves from a different one, so that the threads spread
    /// over the tree and meet through the table.
    fn help_search(&mut self, pos: &Position<B>) {
        self.nodes = 0;
        let key = self.zobrist.key(pos);
        let empties = self.rules.empty(pos).count();
        let mut root: Vec<usize> = self.rules.moves(pos).iter().collect();
        if root.is_empty() {
            return;
        }
        root.sort_by_key(|&m| std::cmp::Reverse(self.square_weight[m]));
        let n = root.len();
        root.rotate_left(self.id % n);
        // No deeper than the depth asked for: a helper's deeper values in the shared table
        // would make a depth-limited search depend on the threads' timing.
        let last = self.config.depth.unwrap_or(u32::MAX).max(1);
        let mut depth = (1 + (self.id % 2) as u32).min(last);
        while !self.stopped {
            self.root_iteration(pos, key, depth as i32, &mut root);
            if depth >= empties || depth >= last {
                break;
            }
            depth += 1;
        }
    }

    fn search_main(&mut self, pos: &Position<B>, clock: Instant) -> Report {
        let key = self.zobrist.key(pos);
        let empties = self.rules.empty(pos).count();
        // Square weights order the first iteration; each iteration puts its best move first.
        let mut root: Vec<usize> = self.rules.moves(pos).iter().collect();
        root.sort_by_key(|&m| std::cmp::Reverse(self.square_weight[m]));
        let mut report = Report {
            best: root.first().copied(),
            score: 0,
            depth: 0,
            exact: false,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        // No move: nothing to think about.
        if root.is_empty() && self.config.depth.is_none() {
            report.elapsed = clock.elapsed();
            return report;
        }
        // One move: it is played soon, within a tenth of the time, but searched all the same,
        // so that its value is a real one.
        let mut limit = self.config.move_time;
        if root.len() == 1 && self.config.depth.is_none() {
            limit = limit.map(|t| t / 10);
            self.deadline = limit.map(|t| clock + t.saturating_sub(time::margin(t)));
        }
        let last = self.config.depth.unwrap_or(u32::MAX).max(1);
        // How long the last two iterations took, to foresee the next.
        let mut latest = Duration::ZERO;
        for depth in 1..=last {
            let began = clock.elapsed();
            let (score, best, complete) = self.root_iteration(pos, key, depth as i32, &mut root);
            if let Some(best) = best {
                report.best = Some(best);
                report.score = Outcome::to_hundredths(score);
                if complete {
                    report.depth = depth;
                    report.exact = depth >= empties;
                }
            }
            if complete && self.observer.is_some() {
                self.progress.best = best.map(|m| (m, report.score));
                self.progress.depth = depth;
                self.progress.pv = self.principal_variation(pos, key, best, depth as usize);
                self.notify();
            }
            if !complete || report.exact || self.stopped {
                break;
            }
            let previous = std::mem::replace(&mut latest, clock.elapsed() - began);
            if let Some(limit) = limit {
                if !time::worth_another(clock.elapsed(), previous, latest, limit) {
                    break;
                }
            }
        }
        // The table may hold a longer line from earlier searches; only this search's depth is
        // backed by it (all of it when exact).
        let length = if report.exact {
            empties as usize
        } else {
            report.depth.max(1) as usize
        };
        report.pv = self.principal_variation(pos, key, report.best, length);
        report
    }

    /// Resets the counters for a search started at `clock` with `limit` to spend.
    fn begin(&mut self, clock: Instant, limit: Option<Duration>) {
        self.table.new_search();
        self.nodes = 0;
        self.stopped = false;
        self.started = clock;
        self.progress = Progress::default();
        self.deadline = limit.map(|t| clock + t.saturating_sub(time::margin(t)));
    }

    /// One iteration over the root moves, best first. Returns the best score and move, and
    /// whether every move was searched; an interrupted iteration still returns its best move if
    /// the first (previously best) move was searched in full.
    fn root_iteration(
        &mut self,
        pos: &Position<B>,
        key: u64,
        depth: i32,
        root: &mut [usize],
    ) -> (i32, Option<usize>, bool) {
        let mut alpha = -INFINITY;
        let mut best = None;
        for i in 0..root.len() {
            let m = root[i];
            let (child, child_key) = self.after(pos, key, m, self.rules.flips(pos, m));
            let score = if i == 0 {
                -self.pvs(&child, child_key, depth - 1, -INFINITY, -alpha, 1)
            } else {
                let probe = -self.pvs(&child, child_key, depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha && !self.stopped {
                    -self.pvs(&child, child_key, depth - 1, -INFINITY, -alpha, 1)
                } else {
                    probe
                }
            };
            if self.stopped {
                return (alpha, best, false);
            }
            if score > alpha {
                alpha = score;
                best = Some(m);
                // Keep the best move first for the next iteration.
                root[..=i].rotate_right(1);
            }
        }
        if let Some(m) = best {
            self.store(key, depth, alpha, Bound::Exact, Some(m));
        }
        (alpha, best, true)
    }

    fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, best: Option<usize>) {
        let depth = depth.clamp(0, MAX_DEPTH as i32) as u8;
        self.table.store(
            Part::Main,
            key,
            Entry {
                score,
                best,
                depth,
                bound,
                cost: 0,
            },
        );
    }

    /// Reads the clock now and then; once past the deadline every node returns at once.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.count_nodes(1)
    }

    /// Counts `n` more nodes, looking at the clock, the other threads, the observer and the
    /// watched floor (see [`Engine::watch`]) each time the count passes a multiple of their
    /// intervals. True when the search must stop.
    #[inline(always)]
    fn count_nodes(&mut self, n: u64) -> bool {
        let before = self.nodes;
        self.nodes += n;
        if before | CLOCK_EVERY < self.nodes {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
            if self.id > 0 && self.shared.stop.load(Relaxed) {
                self.stopped = true;
            }
            if before | endgame::PROGRESS_EVERY < self.nodes {
                if self.observer.is_some() {
                    self.notify();
                } else if let Some(slot) = self
                    .shared
                    .helper_nodes
                    .get(self.id)
                    .filter(|_| self.id > 0)
                {
                    slot.store(self.nodes, Relaxed);
                }
            }
            if let (Some(floor), false) = (self.watch, self.stopped) {
                if self.shared.alpha.load(Relaxed) > floor {
                    self.outdated = true;
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn pvs(
        &mut self,
        pos: &Position<B>,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.count_node() {
            return 0;
        }
        let empties = self.rules.empty(pos).count() as i32;
        if empties <= depth {
            // Everything below is reached: solve exactly, in whole discs, within the window's
            // outcomes.
            let limit = self.rules.geometry.cell_count() as i32 + 1;
            let a = Outcome::at_most(alpha).clamp(-limit, limit);
            let b = Outcome::at_least(beta).clamp(-limit, limit);
            return Outcome(self.solve(pos, key, a, b, ply)).score();
        }
        let moves = self.rules.moves(pos);
        if moves.is_empty() {
            if self.rules.moves_for(pos.opponent(), pos.mover()).is_empty() {
                return Outcome(self.final_score(pos)).score();
            }
            let passed = self.rules.pass(pos);
            let key = self.zobrist.after_pass(key);
            return -self.pvs(&passed, key, depth, -beta, -alpha, ply + 1);
        }
        if depth <= 0 {
            return self.estimate(pos, key, moves);
        }

        let mut table_move = None;
        let tabled = depth >= TABLE_DEPTH || moves.count() > TABLE_MOVES;
        if let Some(e) = tabled.then(|| self.table.probe(Part::Main, key)).flatten() {
            table_move = e.best.filter(|&m| moves.contains(m));
            if e.depth as i32 >= depth && e.bound.settles(e.score, alpha, beta) {
                return e.score;
            }
        }

        let mut list = self.take_list(ply);
        // Near the leaves the square weights alone order the moves: they come listed in order.
        let by_square = depth < 3;
        if by_square {
            self.list_by_square(moves, table_move, &mut list);
        } else {
            self.list_moves(moves, table_move, &mut list);
        }
        if depth >= ETC_DEPTH {
            if let Some(score) = self.table_cut(pos, key, depth, beta, &mut list) {
                self.lists[ply] = list;
                return score;
            }
        }
        // At depth 1, the placements of `pos` read for the opponent, once one child is read
        // (see `frontier_child`).
        let mut before = None;
        let (best_score, best_move) = self.best_of(
            pos,
            key,
            &mut list,
            alpha,
            beta,
            false,
            |e, list| {
                if !by_square {
                    e.weigh(pos, moves.count(), Look::Replies, list);
                }
            },
            |e, child, a, b| {
                if depth == 1 {
                    e.frontier_child(child, &mut before, a, b, ply + 1)
                } else {
                    e.pvs(child.pos, child.key, depth - 1, a, b, ply + 1)
                }
            },
        );
        self.lists[ply] = list;
        if self.stopped {
            return 0;
        }
        let bound = Bound::of(best_score, alpha, beta);
        if tabled || bound == Bound::Exact {
            self.store(key, depth, best_score, bound, best_move);
        }
        best_score
    }

    /// The principal-variation loop: the first move of `list` with the full window, the others
    /// with a null window and a second look when they beat `alpha`. `value` gives a child's
    /// value for its own side to move within a window. Returns the best score (fail-soft) and
    /// move; stops at a cut-off or when the search is stopped.
    ///
    /// With `share`, threads that meet here share the moves out: every thread searches the
    /// first [`SEARCHED_BY_ALL`] moves in turn; after them, a move whose position another
    /// thread is searching is put off until the others are done, when the table most likely
    /// holds its value (ABDADA, Weill 1996). Lists longer than 64 moves put off none past the
    /// 64th.
    /// Tried in session 41 and not kept: the moves put off taken again in turn by how many
    /// threads are in them (a free one first, else the one with the fewest), not in order.
    /// FFO #40-#59 on 16 cores took 173.2 s and 41.6 G nodes against 148.9 s and 39.6 G in
    /// the same call (#53, #57 and #58 alone, twice each: 50.4 and 48.0 s against 52.0 and
    /// 51.5 s).
    ///
    /// `order` orders the moves before any is searched, except that the table's move at the
    /// head of the list (see [`Engine::list_moves`]) is searched first and the others are
    /// ordered only once it has not cut off: their ordering is saved wherever it is enough.
    #[allow(clippy::too_many_arguments)]
    fn best_of(
        &mut self,
        pos: &Position<B>,
        key: u64,
        list: &mut [Candidate<B>],
        mut alpha: i32,
        beta: i32,
        share: bool,
        mut order: impl FnMut(&mut Self, &mut [Candidate<B>]),
        mut value: impl FnMut(&mut Self, Child<'_, B>, i32, i32) -> i32,
    ) -> (i32, Option<usize>) {
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let table_first = list.first().is_some_and(Candidate::is_table_move);
        if !table_first {
            order(self, list);
        }
        // Moves put off, by place in the list.
        let mut later = 0u64;
        for pass in 0..2 {
            for i in 0..list.len() {
                if table_first && pass == 0 && i == 1 {
                    order(self, &mut list[1..]);
                    if self.stopped {
                        return (best_score, best_move);
                    }
                }
                if pass == 1 && later & (1 << i) == 0 {
                    continue;
                }
                let c = &list[i];
                let m = c.cell;
                let flips = c.flips(&self.rules, pos);
                let (child, child_key) = self.after(pos, key, m, flips);
                let child = Child {
                    pos: &child,
                    key: child_key,
                    cell: m,
                    flips,
                };
                if share {
                    let busy = self.shared.busy_slot(child_key);
                    if pass == 0 && (SEARCHED_BY_ALL..64).contains(&i) && busy.load(Relaxed) > 0 {
                        later |= 1 << i;
                        continue;
                    }
                    busy.fetch_add(1, Relaxed);
                }
                let mut score;
                if i == 0 {
                    score = -value(self, child, -beta, -alpha);
                } else {
                    score = -value(self, child, -alpha - 1, -alpha);
                    if score > alpha && score < beta && !self.stopped {
                        score = -value(self, child, -beta, -alpha);
                    }
                }
                if share {
                    self.shared.busy_slot(child_key).fetch_sub(1, Relaxed);
                }
                if self.stopped {
                    return (best_score, best_move);
                }
                if score > best_score {
                    best_score = score;
                    best_move = Some(m);
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return (best_score, best_move);
                        }
                    }
                }
            }
            if later == 0 {
                break;
            }
        }
        (best_score, best_move)
    }

    /// A cut-off at a node `depth` moves from the horizon proved by the table alone: a move of
    /// `list` whose position after it is stored at least `depth - 1` deep with a value for its
    /// mover at most `-beta`. Each move's flips are kept in `list` for the search after.
    fn table_cut(
        &self,
        pos: &Position<B>,
        key: u64,
        depth: i32,
        beta: i32,
        list: &mut [Candidate<B>],
    ) -> Option<i32> {
        let children = list.iter_mut().map(|c| {
            let flips = c.flips(&self.rules, pos);
            c.flips = Some(flips);
            self.zobrist.after_move(key, pos.to_move, c.cell, flips)
        });
        self.table.first_cut(
            children,
            |&child_key| (Part::Main, child_key),
            |_, e| {
                let deep = e.depth as i32 >= depth - 1 && e.bound != Bound::Lower;
                (deep && -e.score >= beta).then_some(-e.score)
            },
        )
    }

    /// [`Engine::pvs`] of `child` at depth 0, with the estimate read from `before` (see
    /// [`Evaluator::evaluate_after`]) where the child's side has moves: the same value for a
    /// few additions per child rather than a whole read.
    fn frontier_child(
        &mut self,
        child: Child<'_, B>,
        before: &mut Option<Indices>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let moves = self.rules.moves(child.pos);
        if moves.is_empty() {
            return self.pvs(child.pos, child.key, 0, alpha, beta, ply);
        }
        if self.count_node() {
            return 0;
        }
        let score = self.eval.evaluate_after(
            &self.rules,
            before,
            child.cell,
            child.flips,
            child.pos,
            weights::both_moves(&self.rules, child.pos, moves),
        );
        self.varied(score, child.key)
    }

    /// The position after the side to move plays `m`, turning `flips`, and its key.
    #[inline]
    fn after(&self, pos: &Position<B>, key: u64, m: usize, flips: B) -> (Position<B>, u64) {
        let child_key = self.zobrist.after_move(key, pos.to_move, m, flips);
        (self.rules.play_flips(pos, m, flips), child_key)
    }

    fn take_list(&mut self, ply: usize) -> Vec<Candidate<B>> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        std::mem::take(&mut self.lists[ply])
    }

    /// Fills `list` with `moves`, most promising first: the table's move, then corners and moves
    /// that leave the opponent few replies (see [`Engine::order_weights`]).
    fn order(
        &self,
        pos: &Position<B>,
        moves: B,
        table_move: Option<usize>,
        look: Look,
        list: &mut Vec<Candidate<B>>,
    ) {
        self.list_moves(moves, table_move, list);
        self.weigh(pos, moves.count(), look, unordered(list));
    }

    /// Fills `list` with `moves` unweighed, the table's move first (weighed above every other
    /// move), so that weighing the others ([`Engine::weigh`]) can wait until that move has been
    /// searched (see [`Engine::best_of`]).
    fn list_moves(&self, moves: B, table_move: Option<usize>, list: &mut Vec<Candidate<B>>) {
        self.list_in_groups(moves, table_move, &[moves], list);
    }

    /// [`Engine::list_moves`] with the moves after the table's in the order of their square
    /// weights alone, as a stable sort by them would leave the list (by cell among equals).
    fn list_by_square(&self, moves: B, table_move: Option<usize>, list: &mut Vec<Candidate<B>>) {
        self.list_in_groups(moves, table_move, &self.square_order, list);
    }

    /// Fills `list` with `moves`: the table's move first (weighed above every other move),
    /// then the others group by group of `groups`, by cell within each, with their square
    /// weights.
    fn list_in_groups(
        &self,
        moves: B,
        table_move: Option<usize>,
        groups: &[B],
        list: &mut Vec<Candidate<B>>,
    ) {
        list.clear();
        let first = table_move.filter(|&m| moves.contains(m));
        list.extend(first.map(|cell| Candidate {
            cell,
            flips: None,
            weight: INFINITY,
        }));
        let rest = first.map_or(moves, |m| moves & !B::bit(m));
        for &group in groups {
            list.extend((rest & group).iter().map(|cell| Candidate {
                cell,
                flips: None,
                weight: self.square_weight[cell],
            }));
        }
    }

    /// Weighs the moves of `list` as [`Engine::order`] does and sorts them, best first;
    /// `move_count` is how many moves the position has in all.
    fn weigh(&self, pos: &Position<B>, move_count: u32, look: Look, list: &mut [Candidate<B>]) {
        self.rules.in_kernel(Weighing {
            engine: self,
            pos,
            move_count,
            look,
            list: &mut *list,
        });
        list.sort_unstable_by_key(|c| std::cmp::Reverse(c.weight));
    }

    /// [`Engine::weigh`] before the sort, with the rules' kernel `kernel`, run through it so
    /// that the moves and flips it finds for each move are found inline (session 52, one
    /// thread, instructions counted by valgrind: FFO #40-#44 1.7% fewer, 29.87 G against
    /// 30.38 G; handing the estimate both sides' moves from here, 0.3% fewer again, though
    /// 0.6% more on `bench/positions/simple-19.txt` and `simple-misere-20.txt`, which make no
    /// estimate: the code laid out otherwise).
    #[inline(always)]
    fn weigh_with<F: Flips<B>>(
        &self,
        kernel: F,
        pos: &Position<B>,
        move_count: u32,
        look: Look,
        list: &mut [Candidate<B>],
    ) {
        // Counting replies costs a move generation per move: worth it on small move lists.
        let look_ahead = move_count <= 48;
        let empties = self.rules.empty(pos).count();
        let w = self.order_weights(look, empties);
        let weigh_estimate = w.estimate != 0 && empties >= ESTIMATE_FROM;
        // The placements of `pos` read for the opponent, once the first move is weighed.
        let mut before = None;
        let first_quarters = if w.parity != 0 {
            self.parity_quarters(self.rules.empty(pos))
        } else {
            0
        };
        // The mover's stable discs stay stable after any of its moves: each move's count
        // starts from them.
        let safe_now = if w.safe_discs != 0 && look_ahead {
            self.eval
                .stable(&self.rules, pos.mover(), self.rules.empty(pos))
        } else {
            B::ZERO
        };
        for c in list.iter_mut() {
            let m = c.cell;
            let mut score = if w.squares { self.square_weight[m] } else { 0 };
            if first_quarters & 1 << self.quarter_of[m] != 0 {
                score += w.parity;
            }
            if look_ahead {
                let turned = c
                    .flips
                    .unwrap_or_else(|| kernel.flips(m, pos.mover(), pos.opponent()));
                c.flips = Some(turned);
                let child = self.rules.play_flips(pos, m, turned);
                let replies = self.rules.moves_by(kernel, child.mover(), child.opponent());
                let corner_replies = (replies & self.eval.corners()).count() as i32;
                let empty = self.rules.empty(&child);
                score -= w.replies * replies.count() as i32 + 200 * corner_replies;
                if w.exposed != 0 {
                    // Empty cells next to the mover's discs: the opponent's future replies.
                    let exposed = self.rules.geometry.neighbours(child.opponent()) & empty;
                    score -= w.exposed * exposed.count() as i32;
                }
                score += w.flipped * turned.count() as i32;
                if w.safe_discs != 0 {
                    let safe =
                        self.eval
                            .stable_from(&self.rules, child.opponent(), empty, safe_now);
                    score += w.safe_discs * safe.count() as i32;
                }
                if weigh_estimate {
                    // The mover's moves again after its move, for the estimate's mobility.
                    let again = self.rules.moves_by(kernel, child.opponent(), child.mover());
                    let estimate = self.eval.evaluate_after(
                        &self.rules,
                        &mut before,
                        m,
                        turned,
                        &child,
                        [replies, again],
                    );
                    score -= w.estimate * estimate / DISC;
                }
                if let (true, Some(subsets)) = (w.anywhere_value != 0, &self.subsets) {
                    if let Some(value) = subsets.value(&self.rules, &child, empty) {
                        score -= w.anywhere_value * value;
                    }
                }
            }
            c.weight = score;
        }
    }

    /// The weights of [`Engine::order`] for `look` under these rules. The midgame search
    /// uses the first set everywhere, but with 40 an empty cell next to the mover's discs
    /// rather than 20 and -20 a disc the move turns (session 42, one thread, `othello bench
    /// --positions F --depth 11`: `openings/8x8.txt` 19.60 M nodes against 20.69 M,
    /// `bench/positions/full-24.txt` 16.99 M against 17.38 M; the openings to depth 13 124.8 M
    /// against 131.8 M; FFO #20-#39 to depth 9 1.57 M against 1.55 M; `othello bench` 4.85 M
    /// against 5.06 M, fewer on its 8x8 and SIMPLE searches, 1.5% more on 6x6; each term alone
    /// did half as well, 30 or -40 about as well, 150 or 70 a reply no better). The exact
    /// solver ([`Look::Solve`]) changes the first set where the rules make a term tell little
    /// (measured by nodes, `othello solve --threads 1`):
    /// - safe discs (no longer flippable after the move), 400 each, under SIMPLE rules (a disc
    ///   with no empty cell beside it) and place-anywhere: 60% fewer nodes on four 5x6 SIMPLE
    ///   positions 20 cells from the end, 76% on three 6x6 ones, 54-59% on the 4x6 and 3x9
    ///   SIMPLE starts, 44-94% on seven place-anywhere boards of 18-21 cells (200, 700 and
    ///   1000 did about as well); -400 under misère, where they count against the mover (59%
    ///   fewer on four 5x6 SIMPLE misère positions). Under FULL rules, with stability from the
    ///   corners only, they cost nodes (FFO #20-#39: 25% more at 100);
    /// - 300 a reply instead of 100 under SIMPLE misère, where the safe discs alone ordered too
    ///   many moves first: 24% fewer nodes on eleven random SIMPLE misère positions of 5x6, 4x8
    ///   and 6x6 boards about 19 cells from the end, 13-19% on the 4x6, 3x8 and 3x7 starts (400
    ///   did about as well, 1000 worse; in the normal game 400 cost 4%); and there 80 an empty
    ///   cell next to the mover's discs instead of 20: 4.6% fewer nodes on those positions, 2-3%
    ///   on the 4x6, 3x8, 3x9, 5x5 and 4x7 starts (60 did as well, 40 and 100-300 less well);
    ///   and there -200 a disc the move turns, so that moves turning few come first: 17% fewer
    ///   nodes on sixteen random SIMPLE misère positions of 4x8, 5x6, 3x11 and 4x9 boards 21
    ///   cells from the end, fewer on each board (-100 and -300 12-16% in all, -600 10%,
    ///   -1000 5% more; in the normal game +25 to +100 changed little either way);
    /// - under place-anywhere, where any empty cell is a reply, neither square weights nor the
    ///   empty cells next to the mover's discs: 17-52% fewer nodes on seven place-anywhere
    ///   starts of 20-24 cells (4x5, 3x7, 4x6, 3x8; both rule sets and goals); and under
    ///   the full rules' misère -50 a disc the move turns (few first, mostly among moves
    ///   otherwise equal): 31-48% fewer nodes on the 3x6, 4x5, 3x7 and 3x8 starts (-20 to
    ///   -200 about as well); under SIMPLE misère it cost 34-63%, and in the normal game
    ///   +50 and -50 both cost nodes;
    /// - under SIMPLE rules in the normal game, 200 a disc of what the move would be worth
    ///   were every empty cell a move from then on (read off the sets of the root's empty
    ///   cells, see `subsets`): 29% fewer nodes on eight SIMPLE positions 19 cells from the
    ///   end, 71% on the 5x5 start, 36% on 3x9 and 37% on 4x7, 11% on 4x6 (100 and 400 did
    ///   less well); under misère it cost 2-6% on those positions at 30 and 100;
    /// - under FULL rules, standard placement or place-anywhere misère, 20 a disc of the
    ///   static estimate after the move (see [`ESTIMATE_FROM`]): FFO #20-#39 15% fewer nodes,
    ///   #40-#44 13%, #45-#49 12%, the 5x6 start 6%, 5x6 misère 25%, 6x6 after c2 b4 c5 22%;
    ///   place-anywhere misère starts 3x8 31%, 4x6 26% (10 and 40 did about as well). It cost
    ///   nodes in the place-anywhere normal game (3x8, 4x6: 20-26% more) and under SIMPLE
    ///   rules (eight positions 19 cells from the end: 8% more; misère 1% fewer, more time).
    ///   Under standard placement 30 since the third-round 8x8 weights: against 20, FFO
    ///   #20-#39 2.5% fewer nodes, #40-#44 2.3%, #45-#49 0.7%, `bench/positions/full-24.txt`
    ///   3.0%, 6x6 after c2 b4 c5 2.6%, 6x6 misère after c2 b4 c5 d2 16%, 5x6 misère after b2
    ///   9%, at the same time a node (35 and 40 did as well, 12 cost 5%);
    /// - below [`ESTIMATE_FROM`] empty cells, where no estimate is weighed, the replies weigh
    ///   more: 300 a reply instead of 100 under FULL rules (standard placement), 600 instead of
    ///   300 under SIMPLE misère; and under those FULL rules, at every depth, -20 a disc the
    ///   move turns. FULL (session 34, against 100 and 0): FFO #20-#39 6.7% fewer nodes,
    ///   #40-#44 7.8%, #45-#49 8.0%, `bench/positions/full-24.txt` 6.9%, 6x6 after c2 b4 c5
    ///   4.7%, 5x6 misère after b2 17%. FFO #20-#44 took 264.5 M nodes, against 285.2 M
    ///   before, 270.3 M with the reply weight alone, 269.6 M with the turned discs counted
    ///   only below 12 cells, 265.1 M and 268.3 M at -30 and -40 a disc; 200 or 500 a reply
    ///   did no better than 300. A bonus for a cell in a quarter of odd parity gained 1-3% on
    ///   FFO and cost 0.6% on full-24. SIMPLE misère: the eight positions of
    ///   `bench/positions/simple-19.txt` 6-17% fewer nodes each, 11% in all, the 4x6, 3x8
    ///   and 3x9 starts 6-9% (5x5 3.6% more, 4x5 0.8%); below 10 or 14 cells, 10% and 8%; in
    ///   the normal game 1-8% more nodes.
    ///
    /// Session 35, FULL rules, each against the weights above on FFO #20-#39, #40-#44 and
    /// #45-#49 (nodes, one thread): 0 or 60 an exposed cell, near the end or above it, 0 or
    /// 400 a corner reply, no square weights, 150 a reply above 12 cells, 0 or -60 a turned
    /// disc above 12 cells: none fewer by more than 0.5% on any set, most 1-5% more.
    ///
    /// Session 45, FULL rules below [`ESTIMATE_FROM`]: 100 for a move into a quarter the
    /// parity order tries first (see [`Engine::parity_quarters`]; session 34's bonus above was
    /// at every depth). One thread, nodes: FFO #40-#44 1.3% fewer (114.8 M against 116.4 M),
    /// #20-#39 0.8%, #45-#49 0.6%, #50-#53 0.6%, `bench/positions/full-24.txt` 0.55%, 6x6 after
    /// c2 b4 c5 0.7%; 5x6 misère after b2 as many (with the even quarters first, as here, or
    /// the odd ones). 150 about as well; 100 below 11 cells, or 50 to 400 or -100 at every
    /// depth, less well.
    ///
    /// Session 36, SIMPLE misère: 200 a reply instead of 300 from 12 empty cells on, and -300
    /// a turned disc instead of -200 at every depth. Nodes, one thread, on the two halves of
    /// `bench/positions/simple-misere-20.txt` (from the 6x6 table run): 5.5% and 12% fewer;
    /// on three of 23 cells 1.0%; on the 4x6, 5x5, 3x9, 3x8 and 4x5 starts 1.5%; but 1.7% more
    /// on `bench/positions/simple-19.txt` (100 a reply: 4.2% and 14% fewer, but 8% more on the
    /// starts; 150: 2.9% and 15% fewer, 1% more on the starts). Then, on the whole file: near
    /// the end -200 or -450 a turned disc, 40 or 150 an exposed cell, 450 or 800 a reply; above
    /// 12 cells 40 or 150 an exposed cell, -600 a safe disc: each within 3% of its nodes.
    ///
    /// Session 38, SIMPLE misère with learned weights (`weights/6x6-simple-misere.weights`), 60 a
    /// disc of the static estimate from [`ESTIMATE_FROM`] cells on: simple-misere-20 8.3% fewer
    /// nodes, eight positions of 22 cells from the same run 12% (fewer on seven; with weights from
    /// a third of the data, 186.6 s against 202.4 s). 20, 40, 80 and 110 took 4-9% fewer, 160 2%,
    /// 300 19% more; at 80, from 10 cells 10% fewer but more time, from 15 6%. With the classic
    /// evaluation 80 cost 30% more nodes, hence only where weights are learned. Sorting by search
    /// from 20 or 22 cells, with those weights, cost 28% and 1.4% more nodes on the 22-cell
    /// positions.
    fn order_weights(&self, look: Look, empties: u32) -> OrderWeights {
        let usual = OrderWeights {
            squares: true,
            replies: 100,
            exposed: 20,
            safe_discs: 0,
            flipped: 0,
            anywhere_value: 0,
            estimate: 0,
            parity: 0,
        };
        let variant = &self.rules.variant;
        if look != Look::Solve {
            return OrderWeights {
                exposed: 40,
                flipped: -20,
                ..usual
            };
        }
        let near_end = empties < ESTIMATE_FROM;
        if variant.rule_set == RuleSet::Full && !variant.place_anywhere {
            return OrderWeights {
                replies: if near_end { 300 } else { 100 },
                flipped: -20,
                estimate: 30,
                parity: if near_end { 100 } else { 0 },
                ..usual
            };
        }
        let sign = if variant.misere { -1 } else { 1 };
        let solve = OrderWeights {
            safe_discs: 400 * sign,
            ..usual
        };
        if variant.place_anywhere {
            let full_misere = variant.misere && variant.rule_set == RuleSet::Full;
            OrderWeights {
                squares: false,
                exposed: 0,
                flipped: if full_misere { -50 } else { 0 },
                estimate: if full_misere { 20 } else { 0 },
                ..solve
            }
        } else if variant.misere {
            OrderWeights {
                replies: if near_end { 600 } else { 200 },
                exposed: 80,
                flipped: -300,
                estimate: if self.eval.is_learned() { 60 } else { 0 },
                ..solve
            }
        } else {
            OrderWeights {
                anywhere_value: 200,
                ..solve
            }
        }
    }

    /// The static estimate of `pos`, whose side to move has `moves`, with the seed's
    /// adjustment when varied play is asked for.
    fn estimate(&self, pos: &Position<B>, key: u64, moves: B) -> i32 {
        self.varied(self.eval.evaluate_with_moves(&self.rules, pos, moves), key)
    }

    /// `score`, the static estimate of the position of `key`, with the seed's adjustment when
    /// varied play is asked for, kept clear of won and lost scores.
    fn varied(&self, mut score: i32, key: u64) -> i32 {
        if let Some(seed) = self.config.seed {
            let mut state = key ^ seed;
            score += (splitmix(&mut state) % 41) as i32 - 20;
        }
        score.clamp(-WON / 2, WON / 2)
    }

    /// The final disc difference for the side to move, under the variant and scoring.
    fn final_score(&self, pos: &Position<B>) -> i32 {
        self.final_score_of(pos.mover(), pos.opponent())
    }

    /// [`Engine::final_score`] of the side owning `mine`.
    #[inline]
    fn final_score_of(&self, mine: B, theirs: B) -> i32 {
        let mut d = mine.count() as i32 - theirs.count() as i32;
        if self.rules.variant.misere {
            d = -d;
        }
        if self.config.scoring == Scoring::EmptiesToWinner {
            let e = self.rules.geometry.cell_count() as i32 - (mine | theirs).count() as i32;
            d += d.signum() * e;
        }
        d
    }

    /// Follows the table's best moves from `pos`, for at most `length` moves.
    fn principal_variation(
        &self,
        pos: &Position<B>,
        key: u64,
        first: Option<usize>,
        length: usize,
    ) -> Vec<usize> {
        let mut line = Vec::new();
        let (mut pos, mut key) = (*pos, key);
        let mut next = first;
        while let Some(m) = next {
            if line.len() >= length || !self.rules.moves(&pos).contains(m) {
                break;
            }
            line.push(m);
            (pos, key) = self.after(&pos, key, m, self.rules.flips(&pos, m));
            if self.rules.moves(&pos).is_empty() {
                pos = self.rules.pass(&pos);
                key = self.zobrist.after_pass(key);
            }
            next = self.table.probe(Part::Main, key).and_then(|e| e.best);
        }
        line
    }
}

#[cfg(test)]
mod tests;
