//! The long-lived engine: rules, evaluation, keys, table and what its threads share, kept from
//! one search to the next; the state of the current call is its [`Context`].

use super::config::{Config, Scoring};
use super::context::Context;
use super::endgame::{Subsets, Symmetries, ORDER_FROM, SUBSETS_FROM};
use super::eval::Evaluator;
use super::journal::Journal;
use super::keys::Zobrist;
use super::moves::Candidate;
use super::progress::{Observer, SolveProgress, PROGRESS_EVERY};
use super::score::Score;
use super::shared::Shared;
use super::table::Table;
use super::time;
use crate::random::splitmix;
use crate::rules::{Bits, Position, Rules};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often (in nodes, minus one) the clock is read: some microseconds.
const CLOCK_EVERY: u64 = 255;

/// A search engine for one board shape and variant. It keeps its table between moves.
///
/// Its public entry points, one line each:
/// - [`Engine::new`]: an engine for `rules` that searches as a [`Config`] says.
/// - [`Engine::rules`], [`Engine::config`]: what it was made with.
/// - [`Engine::set_limits`]: another depth and time for later searches.
/// - [`Engine::nodes`]: nodes searched since the current search began.
/// - [`Engine::clear`]: forgets every stored result.
/// - [`Engine::evaluate`]: the static estimate of a position.
/// - [`Engine::observe`]: calls an observer as solves go.
/// - [`Engine::keep_journal`]: keeps proved bounds from one solve to the next.
/// - [`Engine::search`], [`Engine::search_since`]: the best move within the limits.
/// - [`Engine::search_among`]: the best move among some moves only (for an opening book).
/// - [`Engine::solve_exact`], [`Engine::solve_root`]: exact values, whatever the time.
/// - [`Engine::solve_root_within`]: the same, giving up at a time limit.
/// - [`Engine::solve_window_within`]: a value within a window, for a split solve's jobs.
/// - [`Engine::root_order`]: the order in which a solve tries the root's moves.
/// - [`Engine::prepare_for`]: what a solve of a root prepares, for lines after it.
/// - [`Engine::perfect_line`], [`Engine::perfect_line_within`]: a proved line to the end.
/// - [`Engine::line_order`]: the order in which such a line tries moves.
pub struct Engine<B> {
    pub(super) rules: Rules<B>,
    pub(super) eval: Evaluator<B>,
    pub(super) zobrist: Zobrist,
    pub(super) table: Arc<Table>,
    /// Whether each search marks the table's entries as older (see [`Engine::one_solve`]).
    pub(super) ages_table: bool,
    pub(super) config: Config,
    /// 0 for the thread that answers; helpers count from 1.
    pub(super) id: usize,
    pub(super) shared: Arc<Shared>,
    /// Move-ordering weight of each cell: corners first, cells next to empty corners last.
    pub(super) square_weight: Vec<i32>,
    /// The cells by square weight: those of equal weight together, heaviest first.
    pub(super) square_order: Arc<[B]>,
    /// The board cut in four (rows and columns halved), for parity in the endgame: the quarter
    /// of each cell, and for each set of quarters (one bit each) the cells of those quarters.
    pub(super) quarter_of: Vec<u8>,
    pub(super) quarter_cells: [B; 16],
    pub(super) observer: Option<Observer>,
    /// What only the exact solver reads.
    pub(super) solver: SolverTables<B>,
    /// The state of the current call.
    pub(super) ctx: Context<B>,
}

/// What the exact solver keeps beside the engine's table, shared with the helper threads.
#[derive(Clone)]
pub(super) struct SolverTables<B> {
    /// Bounds kept from one solve to the next, if the solve keeps them.
    pub(super) journal: Option<Arc<Journal<B>>>,
    /// The board's symmetries, for the solver's table.
    pub(super) images: Arc<Symmetries>,
    /// Under SIMPLE rules, the values of the sets of a solve's empty cells, and from how many
    /// empty cells on a solve works them out: under place-anywhere, where they answer it
    /// ([`SUBSETS_FROM`]), and in the normal game under standard placement, where they order
    /// its moves ([`ORDER_FROM`]).
    pub(super) subsets: Option<Arc<Subsets<B>>>,
    pub(super) subsets_from: u32,
    pub(super) order_from: u32,
}

impl<B: Bits> Engine<B> {
    pub fn new(rules: Rules<B>, config: Config) -> Self {
        let eval = Evaluator::new(&rules, &config.eval);
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
        let solver = SolverTables {
            journal: None,
            images: Symmetries::new(&rules, &zobrist).into(),
            subsets: None,
            subsets_from: SUBSETS_FROM,
            order_from: ORDER_FROM,
        };
        Engine {
            solver,
            quarter_of,
            quarter_cells,
            zobrist,
            table: Arc::new(Table::new(config.hash_mb)),
            ages_table: true,
            id: 0,
            shared: Arc::default(),
            eval,
            rules,
            config,
            square_weight,
            square_order,
            observer: None,
            ctx: Context::new(Instant::now()),
        }
    }

    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the depth and time limits of later searches (no target: see
    /// [`Config::target_time`]); the table is kept.
    pub fn set_limits(&mut self, depth: Option<u32>, move_time: Option<Duration>) {
        self.config.depth = depth;
        self.config.move_time = move_time;
        self.config.target_time = None;
    }

    /// Gives the next searches `budget`: a target and a limit, as a game clock does.
    pub fn set_budget(&mut self, budget: time::Budget) {
        self.config.move_time = Some(budget.limit);
        self.config.target_time = Some(budget.target);
    }

    /// Nodes searched since the current search began.
    pub fn nodes(&self) -> u64 {
        self.ctx.nodes
    }

    /// Whether the last search or solve was stopped (by its time or its observer) before it
    /// finished.
    pub fn stopped(&self) -> bool {
        self.ctx.stopped
    }

    /// Forgets every stored result. An engine that shares its table with others (see
    /// [`Engine::share_table`]) leaves it to them and starts one of its own.
    pub fn clear(&mut self) {
        match Arc::get_mut(&mut self.table) {
            Some(table) => table.clear(),
            None => self.table = Arc::new(Table::new(self.config.hash_mb)),
        }
    }

    /// Later searches use `table`, which other engines may use at the same time (workers of
    /// one split solve): its entries hold for any engine of the same rules and scoring.
    pub fn share_table(&mut self, table: Arc<Table>) {
        self.table = table;
    }

    /// Later solves are parts of one solve (the jobs of a split solve, many at once where
    /// workers share a table): they leave the table's entries as current as their own, as one
    /// direct solve does. Each would otherwise mark every entry before it as older, to be
    /// replaced first, including those of the jobs running beside it (docs/decisions.md, "Jobs
    /// that do not age one another's entries").
    pub fn one_solve(&mut self) {
        self.ages_table = false;
    }

    /// The estimate of `pos` for its side to move.
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        self.eval.evaluate(&self.rules, pos)
    }

    /// Calls `observer` as solves go (see [`SolveProgress`]); `None` stops the calls.
    pub fn observe(&mut self, observer: Option<Observer>) {
        self.observer = observer;
    }

    /// Later solves look up and add to `journal` (see [`Journal`]); `None` stops that. Its
    /// bounds are values under this engine's rules and scoring, so a journal serves engines
    /// that agree on both.
    pub fn keep_journal(&mut self, journal: Option<Arc<Journal<B>>>) {
        self.solver.journal = journal;
    }

    /// Resets the counters for a search started at `clock` with `limit` to spend.
    pub(super) fn begin(&mut self, clock: Instant, limit: Option<Duration>) {
        if self.ages_table {
            self.table.new_search();
        }
        self.ctx.nodes = 0;
        self.ctx.stopped = false;
        self.ctx.started = clock;
        self.ctx.progress = SolveProgress::default();
        self.ctx.deadline = limit.map(|t| clock + t.saturating_sub(time::margin(t)));
    }

    /// Reads the clock now and then; once past the deadline every node returns at once.
    #[inline]
    pub(super) fn count_node(&mut self) -> bool {
        self.count_nodes(1)
    }

    /// Counts `n` more nodes, looking at the clock, the other threads, the observer and the
    /// watched floor (see [`Context::watch`]) each time the count passes a multiple of their
    /// intervals. True when the search must stop.
    #[inline(always)]
    pub(super) fn count_nodes(&mut self, n: u64) -> bool {
        let before = self.ctx.nodes;
        self.ctx.nodes += n;
        if before | CLOCK_EVERY < self.ctx.nodes {
            if let Some(deadline) = self.ctx.deadline {
                if Instant::now() >= deadline {
                    self.ctx.stopped = true;
                }
            }
            if self.id > 0 && self.shared.stop.load(Relaxed) {
                self.ctx.stopped = true;
            }
            if before | PROGRESS_EVERY < self.ctx.nodes {
                if self.observer.is_some() {
                    self.notify();
                } else if let Some(slot) = self
                    .shared
                    .helper_nodes
                    .get(self.id)
                    .filter(|_| self.id > 0)
                {
                    slot.store(self.ctx.nodes, Relaxed);
                }
            }
            if let (Some(floor), false) = (self.ctx.watch, self.ctx.stopped) {
                if self.shared.alpha.load(Relaxed) > floor {
                    self.ctx.outdated = true;
                    self.ctx.stopped = true;
                }
            }
        }
        self.ctx.stopped
    }

    /// Hands the observer the progress so far.
    #[cold]
    pub(super) fn notify(&mut self) {
        if let Some(observer) = &mut self.observer {
            // Helpers' nodes join `self.ctx.nodes` when they finish; until then, what they published.
            self.ctx.progress.nodes = self.ctx.nodes + self.shared.helper_nodes();
            self.ctx.progress.elapsed = self.ctx.started.elapsed();
            if observer(&self.ctx.progress).is_break() {
                self.ctx.stopped = true;
            }
        }
    }

    /// The position after the side to move plays `m`, turning `flips`, and its key.
    #[inline]
    pub(super) fn after(
        &self,
        pos: &Position<B>,
        key: u64,
        m: usize,
        flips: B,
    ) -> (Position<B>, u64) {
        let child_key = self.zobrist.after_move(key, pos.to_move, m, flips);
        (self.rules.play_flips(pos, m, flips), child_key)
    }

    pub(super) fn take_list(&mut self, ply: usize) -> Vec<Candidate<B>> {
        if self.ctx.lists.len() <= ply {
            self.ctx.lists.resize_with(ply + 1, Vec::new);
        }
        std::mem::take(&mut self.ctx.lists[ply])
    }

    /// The static estimate of `pos`, whose side to move has `moves`, with the seed's
    /// adjustment when varied play is asked for.
    pub(super) fn estimate(&self, pos: &Position<B>, key: u64, moves: B) -> Score {
        self.varied(self.eval.evaluate_with_moves(&self.rules, pos, moves), key)
    }

    /// `score`, the static estimate of the position of `key`, with the seed's adjustment when
    /// varied play is asked for, kept clear of won and lost scores.
    pub(super) fn varied(&self, mut score: i32, key: u64) -> Score {
        if let Some(seed) = self.config.seed {
            let mut state = key ^ seed;
            score += (splitmix(&mut state) % 41) as i32 - 20;
        }
        Score::estimate(score)
    }

    /// The final disc difference for the side to move, under the variant and scoring.
    pub(super) fn final_score(&self, pos: &Position<B>) -> i32 {
        self.final_score_of(pos.mover(), pos.opponent())
    }

    /// [`Engine::final_score`] of the side owning `mine`.
    #[inline]
    pub(super) fn final_score_of(&self, mine: B, theirs: B) -> i32 {
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
}
