//! The top of the game tree of a split solve, and what the jobs' results prove of it.
//!
//! Positions with more empty cells than the frontier are merged from their moves by minimax;
//! the others are jobs. A value is settled as principal variation search settles it: the
//! first move by estimate exactly, each other one by a test against the best so far ("at
//! least t", shown by one move, or "at most t", by every move), settled in turn only when its
//! test shows it better. Tests that cannot be decided yet become the next round's jobs, each
//! with a window just wide enough for the tests asked of it, so a round asks only what the
//! results so far leave open, and a value is never guessed.

use crate::rules::{Bits, Position, Rules};
use crate::search::{Config, Engine, Evaluation, DISC};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// What a search must show of a position, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    AtLeast(i32),
    AtMost(i32),
}

impl Test {
    /// Whether bounds `(low, high)` decide the test.
    fn decided(self, (low, high): (i32, i32)) -> bool {
        match self {
            Test::AtLeast(t) => low >= t || high < t,
            Test::AtMost(t) => high <= t || low > t,
        }
    }

    /// The narrowest window whose fail-soft score decides the test.
    fn window(self) -> (i32, i32) {
        match self {
            Test::AtLeast(t) => (t - 1, t),
            Test::AtMost(t) => (t, t + 1),
        }
    }
}

/// When a pass asks for tests at estimates before the values they depend on are known: the
/// tests of a move's siblings against the first move's estimate while the first move waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guesses {
    /// While no result is known: a split's first round, so that it holds many jobs. Once
    /// results come in, a test at an estimate that turns out wrong costs more than the round
    /// it saves.
    FirstRound,
    /// Never: a coordinator's default, since a test at a wrong estimate is work thrown away
    /// (decisions.md, "Estimates of jobs, the span, and tiny jobs").
    Never,
    /// Always: a coordinator told to `--speculate` while it has idle workers.
    Always,
}

/// Estimates by canonical position and depth: kept from one merge to the next by a caller
/// that merges many times ([`Tree::take_estimates`]).
pub type Estimates<B> = Map<(Position<B>, u32), i32>;

/// The tree's maps, by position: a pass looks each position it meets up several times, and
/// the standard maps' SipHash (a guard against keys made to collide, needless here) was a
/// third of a coordinator's time on jobs of a millisecond.
pub type Map<K, V> = HashMap<K, V, BuildHasherDefault<Mixer>>;
type Set<K> = HashSet<K, BuildHasherDefault<Mixer>>;

/// A hasher of words: each folded in with a multiply, the sum mixed once at the end.
#[derive(Default)]
pub struct Mixer(u64);

impl Mixer {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Mixer {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^ (x >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(n.into());
    }

    fn write_u32(&mut self, n: u32) {
        self.add(n.into());
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

/// A job the tests ask for: a position's value within a window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Want<B> {
    /// The position as first reached (any image of it has the same value).
    pub position: Position<B>,
    pub alpha: i32,
    pub beta: i32,
    pub estimate: i32,
}

/// How deep the estimates that order moves look: enough to order well, cheap beside a job.
/// (6x6 after c2 b4 c5, 50 jobs asked: 8 deep, 16 rounds and 585 M nodes; 4 deep, 56 rounds
/// and 717 M; 2 deep, 78 rounds and 2.6 G.)
const ESTIMATE_DEPTH: u32 = 8;

/// How deep the estimates that order jobs (positions solved whole) look. A job's estimate
/// orders it among its siblings and guesses the window of a test; it need not see as far as
/// those of the positions above, and a pass makes many (5x6, 200 jobs asked: 3,300 estimates
/// beside 871 jobs, each 8 deep costing as much as the median job).
const JOB_ESTIMATE_DEPTH: u32 = 2;

/// Jobs of at least this many empty cells take a second or more, and the estimates 8 deep
/// that order the positions above them cost little beside them; shallower ones there cost
/// more than they save (5x7 split 40, jobs of 26 empty cells: 3.5 times the direct solve's
/// nodes against 1.2). Smaller jobs (5x6 split 200, 19 empty cells, jobs of a millisecond)
/// have the positions just above them estimated less deep.
const LARGE_JOB_EMPTIES: u32 = 24;

/// The nodes an estimate may take: it deepens towards its depth only while the next
/// iteration, foreseen from the last two, keeps within them. Under the full rules a depth of 8
/// takes far fewer; SIMPLE positions have three times the moves, and 8 deep an estimate would
/// cost more than the jobs it orders (4x6 SIMPLE misère, 200 jobs asked: 9 s to split a board
/// solved directly in 1.2 s).
const ESTIMATE_NODES: u64 = 20_000;

/// An estimator's observer: stops at `interrupt`, and before an iteration that would take the
/// search past [`ESTIMATE_NODES`].
fn within_budget(interrupt: Option<crate::interrupt::Interrupt>) -> crate::search::Observer {
    // The nodes at the end of the last iteration, and what it cost.
    let (mut depth, mut nodes, mut cost) = (0, 0u64, 0u64);
    Box::new(move |p: &crate::search::SolveProgress| {
        if interrupt.as_ref().is_some_and(|i| i.signal().is_some()) || p.nodes > ESTIMATE_NODES {
            return std::ops::ControlFlow::Break(());
        }
        if p.depth != depth {
            let last = p.nodes.saturating_sub(nodes);
            // Iterations grow by about the ratio of the last two (at least 2).
            let growth = match cost {
                0 => 4,
                _ => (last / cost).max(2),
            };
            (depth, nodes, cost) = (p.depth, p.nodes, last.max(1));
            if p.nodes.saturating_add(last.saturating_mul(growth)) > ESTIMATE_NODES {
                return std::ops::ControlFlow::Break(());
            }
        }
        std::ops::ControlFlow::Continue(())
    })
}

/// The table of the solve whose lines and order of best moves a merge gives: `othello
/// solve`'s default, whose size decides whether a SIMPLE solve orders moves by the values of
/// sets of empty cells.
pub const LINE_HASH_MB: usize = 256;

/// How deep the estimate of a position whose value is settled by a sequence of tests looks:
/// a better first guess saves rounds.
pub const GUESS_DEPTH: u32 = 10;

/// The positions after the moves of a position (`None` for a pass), in the order a pass tries them.
type Children<B> = Arc<[(Option<usize>, Position<B>)]>;

/// A window a job must search a position in.
struct Asked<B> {
    canonical: Position<B>,
    /// The position as first reached.
    position: Position<B>,
    window: (i32, i32),
}

pub struct Tree<B: Bits> {
    pub rules: Rules<B>,
    maps: Vec<Vec<usize>>,
    /// Positions with at most this many empty cells are jobs.
    frontier: u32,
    most: i32,
    /// What the results prove, by canonical position: `(low, high)`.
    known: Map<Position<B>, (i32, i32)>,
    /// Lines of perfect play found by jobs, by position as played, with the value they keep.
    lines: Map<Position<B>, (i32, Vec<Option<usize>>)>,
    estimator: Engine<B>,
    /// An engine as a direct solve of the root sets one up, for the order of lines.
    liner: Engine<B>,
    estimates: Estimates<B>,
    decided: Map<(Position<B>, Test), (i32, i32)>,
    /// The windows waiting for a job, in the order met.
    asked: Vec<Asked<B>>,
    /// Values settled in this pass, by canonical position.
    settled: Map<Position<B>, i32>,
    /// Lines asked for: the position as played and its value.
    pub lines_asked: Vec<(Position<B>, i32)>,
    /// Positions within the frontier merged from their moves all the same, each with all its
    /// images (so that a pass finds them without working out canonical positions): jobs that
    /// held the rest up, split so that more workers share them.
    split: Set<Position<B>>,
    /// When a pass asks for tests at estimates before the values they depend on are known
    /// (see [`Tree::settle`]).
    pub guesses: Guesses,
    /// Whether the other moves of an "at most" test wait for its first move's test (young
    /// brothers wait, as parallel alpha-beta does): a coordinator, which hands out jobs as
    /// they are needed, so that a first move that refutes the test leaves no sibling's job
    /// thrown away; rounds ask for them all at once, so that a round holds more.
    pub eldest_first: bool,
    /// Stops the estimates' searches (see [`Tree::stop_on`]).
    interrupt: Option<crate::interrupt::Interrupt>,
    /// The canonical image of each position met so far.
    canonicals: std::cell::RefCell<Map<Position<B>, Position<B>>>,
    /// The positions after the moves of each position met (as reached), ordered: estimates
    /// depend on the position alone, so the order holds until a split makes jobs of
    /// positions merged before.
    orders: Map<Position<B>, Children<B>>,
}

impl<B: Bits> Tree<B> {
    /// A tree of `rules`' positions solved as jobs at `frontier` empty cells or fewer, with
    /// estimates and lines from `eval`.
    pub fn new(rules: Rules<B>, frontier: u32, eval: &Evaluation) -> Tree<B> {
        let maps = rules.geometry.symmetries();
        let most = rules.geometry.cell_count() as i32;
        let estimator = Engine::new(
            rules.clone(),
            Config::to_depth(ESTIMATE_DEPTH)
                .with_hash_mb(4)
                .with_eval(eval.clone()),
        );
        let liner = Engine::new(rules.clone(), Config::solver(LINE_HASH_MB, 1, eval.clone()));
        Tree {
            liner,
            rules,
            maps,
            frontier,
            most,
            known: Map::default(),
            lines: Map::default(),
            estimator,
            estimates: Map::default(),
            decided: Map::default(),
            asked: Vec::new(),
            settled: Map::default(),
            lines_asked: Vec::new(),
            split: Set::default(),
            guesses: Guesses::FirstRound,
            eldest_first: false,
            interrupt: None,
            canonicals: Default::default(),
            orders: Map::default(),
        }
    }

    /// Stops the estimates' searches once `interrupt` is raised, so that a split, thousands
    /// of estimates long, ends soon after a signal: each search left stops at its next
    /// iteration, and the caller checks `interrupt` between passes.
    pub fn stop_on(&mut self, interrupt: &crate::interrupt::Interrupt) {
        self.interrupt = Some(interrupt.clone());
    }

    /// Takes estimates made before (by a tree of the same rules).
    pub fn keep_estimates(&mut self, estimates: Estimates<B>) {
        self.estimates = estimates;
    }

    /// The estimates made so far, for the next tree.
    pub fn take_estimates(&mut self) -> Estimates<B> {
        std::mem::take(&mut self.estimates)
    }

    /// Positions with at most `frontier` empty cells become jobs; forgets what was decided.
    pub fn set_frontier(&mut self, frontier: u32) {
        self.frontier = frontier;
        self.orders.clear();
        self.forget();
    }

    /// Forgets what this pass decided and asked (not what the results prove).
    pub fn forget(&mut self) {
        self.decided.clear();
        self.settled.clear();
        self.asked.clear();
        self.lines_asked.clear();
    }

    /// The image of `pos` that stands for all of them: the least by its discs, cell by cell.
    pub fn canonical(&self, pos: &Position<B>) -> Position<B> {
        // A pass asks this of every position it meets, and of most of them every time.
        if let Some(&c) = self.canonicals.borrow().get(pos) {
            return c;
        }
        let best = pos.canonical(&self.maps).0;
        self.canonicals.borrow_mut().insert(*pos, best);
        best
    }

    /// Adds what a result proves: a fail-soft `score` of a search in `(alpha, beta)`.
    pub fn learn(
        &mut self,
        pos: &Position<B>,
        score: i32,
        alpha: i32,
        beta: i32,
    ) -> anyhow::Result<()> {
        let (mut low, mut high) = (-self.most, self.most);
        if score > alpha {
            low = score;
        }
        if score < beta {
            high = score;
        }
        let c = self.canonical(pos);
        let old = self
            .known
            .get(&c)
            .copied()
            .unwrap_or((-self.most, self.most));
        let new = (old.0.max(low), old.1.min(high));
        if new.0 > new.1 {
            anyhow::bail!(
                "results that disagree: this one proves the position's value in [{low}, {high}], \
                 the results before it in [{}, {}]",
                old.0,
                old.1
            );
        }
        self.known.insert(c, new);
        Ok(())
    }

    /// Adds a line of perfect play from `pos`, whose value is `value`.
    pub fn learn_line(&mut self, pos: &Position<B>, value: i32, line: Vec<Option<usize>>) {
        self.lines.insert(*pos, (value, line));
    }

    /// The final value of `pos` for its side to move, once the game is over.
    pub fn over_value(&self, pos: &Position<B>) -> Option<i32> {
        self.rules
            .is_over(pos)
            .then(|| self.rules.margin(pos, pos.to_move))
    }

    /// Whether `pos` is merged from its moves rather than a job.
    pub fn expanded(&self, pos: &Position<B>) -> bool {
        if self.rules.is_over(pos) {
            return false;
        }
        self.rules.empty(pos).count() > self.frontier || self.split.contains(pos)
    }

    /// Merges `pos` (and its images) from its moves from now on, rather than solving it as one
    /// job; forgets what this pass decided.
    pub fn split(&mut self, pos: &Position<B>) {
        self.split.insert(*pos);
        let images: Vec<Position<B>> = self.maps.iter().map(|map| pos.mapped(map)).collect();
        self.split.extend(images);
        self.orders.clear();
        self.forget();
    }

    /// What the results prove of `pos` (any image of it): `(low, high)`.
    pub fn bounds(&self, pos: &Position<B>) -> (i32, i32) {
        let c = self.canonical(pos);
        self.known
            .get(&c)
            .copied()
            .unwrap_or((-self.most, self.most))
    }

    /// The positions after each move of `pos`, or after its pass.
    pub fn children(&self, pos: &Position<B>) -> Vec<(Option<usize>, Position<B>)> {
        let moves = self.rules.moves(pos);
        if moves.is_empty() {
            return vec![(None, self.rules.pass(pos))];
        }
        moves
            .iter()
            .map(|m| (Some(m), self.rules.play_unchecked(pos, m)))
            .collect()
    }

    /// The engine's estimate of `pos`, `depth` moves deep, in discs for its side to move. From
    /// an empty table, so that an estimate depends on its position alone: every pass, and
    /// every merge whether or not the estimates file was kept, orders moves alike.
    pub fn estimate(&mut self, pos: &Position<B>, depth: u32) -> i32 {
        if let Some(v) = self.over_value(pos) {
            return v;
        }
        if self.rules.moves(pos).is_empty() {
            return -self.estimate(&self.rules.pass(pos), depth);
        }
        let c = self.canonical(pos);
        if let Some(&e) = self.estimates.get(&(c, depth)) {
            return e;
        }
        self.estimator.clear();
        self.estimator.set_limits(Some(depth), None);
        self.estimator
            .observe(Some(within_budget(self.interrupt.clone())));
        let report = self.estimator.search(&c);
        let e = (report.score + DISC / 2).div_euclid(DISC);
        self.estimates.insert((c, depth), e);
        e
    }

    /// The estimate that orders `pos` among its siblings: shallower for a job than for a
    /// position merged from its moves.
    pub fn order_estimate(&mut self, pos: &Position<B>) -> i32 {
        let depth = match self.expanded(pos) {
            true if self.frontier >= LARGE_JOB_EMPTIES => ESTIMATE_DEPTH,
            // As deep as the jobs below and theirs: just above jobs of milliseconds, an
            // estimate 8 deep costs as much as the jobs it orders.
            true => {
                let height = self.rules.empty(pos).count().saturating_sub(self.frontier);
                (JOB_ESTIMATE_DEPTH + height.max(1)).min(ESTIMATE_DEPTH)
            }
            false => JOB_ESTIMATE_DEPTH,
        };
        self.estimate(pos, depth)
    }

    /// The estimate a sequence of tests starts from.
    pub fn guess(&mut self, pos: &Position<B>) -> i32 {
        self.estimate(pos, GUESS_DEPTH)
    }

    /// Lines are ordered as a solve of `root` orders them.
    pub fn prepare_lines(&mut self, root: &Position<B>) {
        self.liner.prepare_for(root);
    }

    /// The root's moves in the order a direct solve of it lists moves of equal value.
    pub fn root_order(&mut self, root: &Position<B>) -> Vec<usize> {
        self.liner.root_order(root)
    }

    /// The order in which a line of perfect play tries the moves of `pos`.
    pub fn line_order(&self, pos: &Position<B>) -> Vec<usize> {
        self.liner.line_order(pos)
    }

    /// The bounds that decide `test` of `pos`, or `None` while jobs are needed (asked for).
    pub fn decide(&mut self, pos: &Position<B>, test: Test) -> Option<(i32, i32)> {
        let c = self.canonical(pos);
        if let Some(&bounds) = self.decided.get(&(c, test)) {
            return Some(bounds);
        }
        let bounds = self.decide_here(pos, c, test)?;
        debug_assert!(test.decided(bounds));
        self.decided.insert((c, test), bounds);
        Some(bounds)
    }

    fn decide_here(&mut self, pos: &Position<B>, c: Position<B>, test: Test) -> Option<(i32, i32)> {
        if let Some(v) = self.over_value(pos) {
            return Some((v, v));
        }
        let known = self
            .known
            .get(&c)
            .copied()
            .unwrap_or((-self.most, self.most));
        if test.decided(known) {
            return Some(known);
        }
        if !self.expanded(pos) {
            self.asked.push(Asked {
                canonical: c,
                position: *pos,
                window: test.window(),
            });
            return None;
        }
        let children = self.ordered_children(pos);
        match test {
            // One move at most -t shows it; each is tried only once the one before fails,
            // the best by estimate (the lowest for the opponent) first.
            Test::AtLeast(t) => {
                let mut high = -self.most;
                for (_, child) in children.iter() {
                    let (low_c, high_c) = self.decide(child, Test::AtMost(-t))?;
                    if high_c <= -t {
                        return Some((-high_c, known.1));
                    }
                    high = high.max(-low_c);
                }
                Some((known.0, high.min(known.1)))
            }
            // Every move must be at least -t; one below shows the test fails, and then the
            // jobs the others asked for are not needed.
            Test::AtMost(t) => {
                let mark = self.asked.len();
                let mut high = -self.most;
                let mut waiting = false;
                for (i, (_, child)) in children.iter().enumerate() {
                    match self.decide(child, Test::AtLeast(-t)) {
                        Some((low_c, _)) if low_c >= -t => high = high.max(-low_c),
                        Some((_, high_c)) => {
                            self.asked.truncate(mark);
                            return Some((known.0.max(-high_c), known.1));
                        }
                        None if i == 0 && self.eldest_first => return None,
                        None => waiting = true,
                    }
                }
                (!waiting).then_some((known.0, high.min(known.1)))
            }
        }
    }

    /// The positions after the moves of `pos`, the best for its side by estimate first (the
    /// lowest for the opponent).
    fn ordered_children(&mut self, pos: &Position<B>) -> Children<B> {
        if let Some(children) = self.orders.get(pos) {
            return Arc::clone(children);
        }
        let children = self.children(pos);
        let children: Children<B> = match children.len() {
            0 | 1 => children.into(),
            _ => {
                // Under SIMPLE rules the solver orders by the values of the sets of empty
                // cells, which tell a move's worth better than estimates a few moves deep:
                // ordered so, 4x7 SIMPLE took 689 M nodes on one worker with 40 jobs asked,
                // against 900 M ordered by estimates (under FULL rules the solver's order,
                // without those values, took 2.4 times the nodes on 5x7).
                let keys: Vec<i32> = match self.liner.order_by_sets(pos) {
                    Some(order) => (children.iter())
                        .map(|(m, _)| {
                            let rank = m.and_then(|m| order.iter().position(|&o| o == m));
                            rank.map_or(i32::MAX, |i| i as i32)
                        })
                        .collect(),
                    None => (children.iter())
                        .map(|(_, child)| self.order_estimate(child))
                        .collect(),
                };
                let mut keyed: Vec<_> = keys
                    .into_iter()
                    .zip(children)
                    .map(|(key, (m, child))| (key, m, child))
                    .collect();
                keyed.sort_by_key(|&(key, m, _)| (key, m));
                keyed.into_iter().map(|(_, m, child)| (m, child)).collect()
            }
        };
        self.orders.insert(*pos, Arc::clone(&children));
        children
    }

    /// The exact value of `pos`, or `None` while jobs are needed: as principal variation
    /// search finds it. The first move (by estimate) is settled; each other one is tested
    /// against the best so far, and settled only if the test shows it better. While the
    /// first move waits for its jobs, the others are tested against its estimate in the same
    /// round, so that a round holds many jobs; tests at a wrong estimate are asked again at
    /// the value once it is known.
    pub fn settle(&mut self, pos: &Position<B>) -> anyhow::Result<Option<i32>> {
        if let Some(v) = self.over_value(pos) {
            return Ok(Some(v));
        }
        let c = self.canonical(pos);
        if let Some(&v) = self.settled.get(&c) {
            return Ok(Some(v));
        }
        if let Some(&(low, high)) = self.known.get(&c) {
            if low == high {
                return Ok(Some(low));
            }
        }
        if !self.expanded(pos) {
            let limit = self.most + 1;
            self.asked.push(Asked {
                canonical: c,
                position: *pos,
                window: (-limit, limit),
            });
            return Ok(None);
        }
        let children = self.ordered_children(pos);
        let first = self.settle(&children[0].1)?;
        let speculate = match self.guesses {
            Guesses::FirstRound => self.known.is_empty(),
            Guesses::Never => false,
            Guesses::Always => true,
        };
        let mut best = match first {
            Some(v) => -v,
            None if !speculate => return Ok(None),
            None => -self.order_estimate(&children[0].1),
        };
        let mut waiting = first.is_none();
        for (_, child) in &children[1..] {
            match self.decide(child, Test::AtLeast(-best)) {
                Some((low, _)) if low >= -best => {}
                // Better than a first move still waiting: its value is needed first.
                Some(_) if first.is_none() => {}
                Some(_) => match self.settle(child)? {
                    Some(v) => best = best.max(-v),
                    None => waiting = true,
                },
                None => waiting = true,
            }
        }
        if waiting {
            return Ok(None);
        }
        self.settled.insert(c, best);
        Ok(Some(best))
    }

    /// The jobs asked for so far, one per position and its images, each with the window its
    /// tests need.
    pub fn wants(&mut self) -> Vec<Want<B>> {
        let mut order = Vec::new();
        let mut windows: Map<Position<B>, (Position<B>, i32, i32)> = Map::default();
        for &Asked {
            canonical: c,
            position: pos,
            window: (a, b),
        } in &self.asked
        {
            windows
                .entry(c)
                .and_modify(|w| (w.1, w.2) = (w.1.min(a), w.2.max(b)))
                .or_insert_with(|| {
                    order.push(c);
                    (pos, a, b)
                });
        }
        let limit = self.most + 1;
        order
            .into_iter()
            .map(|c| {
                let (position, alpha, beta) = windows[&c];
                Want {
                    position,
                    alpha: alpha.max(-limit),
                    beta: beta.min(limit),
                    estimate: self.order_estimate(&position),
                }
            })
            .collect()
    }

    /// A line of perfect play from `pos`, whose value is `value`: each move the first in the
    /// line's order that keeps the value, as a direct solve chooses it, down to a job's
    /// line. `None` while jobs are needed.
    pub fn line(
        &mut self,
        pos: &Position<B>,
        value: i32,
    ) -> anyhow::Result<Option<Vec<Option<usize>>>> {
        let (mut pos, mut score) = (*pos, value);
        let mut line = Vec::new();
        loop {
            if self.rules.is_over(&pos) {
                return Ok(Some(line));
            }
            if self.rules.moves(&pos).is_empty() {
                line.push(None);
                pos = self.rules.pass(&pos);
                score = -score;
                continue;
            }
            if !self.expanded(&pos) {
                return Ok(match self.lines.get(&pos) {
                    Some((v, rest)) if *v == score => {
                        line.extend(rest);
                        Some(line)
                    }
                    _ => {
                        self.lines_asked.push((pos, score));
                        None
                    }
                });
            }
            let mut next = None;
            for m in self.line_order(&pos) {
                let child = self.rules.play_unchecked(&pos, m);
                match self.decide(&child, Test::AtMost(-score)) {
                    Some((_, high)) if high <= -score => {
                        next = Some((m, child));
                        break;
                    }
                    Some(_) => {}
                    None => return Ok(None),
                }
            }
            let Some((m, child)) = next else {
                anyhow::bail!("no move keeps the value {score:+}: results that disagree");
            };
            line.push(Some(m));
            (pos, score) = (child, -score);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Shape, Variant};

    #[test]
    fn a_split_position_is_merged_from_its_moves_in_every_image() {
        let rules = Rules::<u64>::new(Shape::square(4).unwrap(), Variant::default()).unwrap();
        let start = rules.start(Color::Black, Color::White);
        // The start (12 empty cells) is merged; every position after it is a job.
        let mut tree = Tree::new(rules.clone(), 11, &Evaluation::Classic);
        let after = |m: usize| rules.play_unchecked(&start, m);
        let moves: Vec<usize> = rules.moves(&start).iter().collect();
        let (one, other) = (after(moves[0]), after(moves[1]));
        assert!(!tree.expanded(&one) && !tree.expanded(&other));
        tree.split(&one);
        // The four first moves are one position turned over: each is split, the start is
        // merged as before, and a position of another orbit is a job still.
        for &m in &moves {
            assert!(tree.expanded(&after(m)), "move {m}");
        }
        assert_eq!(tree.canonical(&one), tree.canonical(&other));
        let second = rules.moves(&one).iter().next().unwrap();
        assert!(!tree.expanded(&rules.play_unchecked(&one, second)));
        assert!(tree.expanded(&start));
    }

    #[test]
    fn the_eldest_move_of_an_at_most_test_goes_first_when_asked_to() {
        let rules = Rules::<u64>::new(Shape::square(4).unwrap(), Variant::default()).unwrap();
        let start = rules.start(Color::Black, Color::White);
        let one = rules.play_unchecked(&start, rules.moves(&start).iter().next().unwrap());
        // After one move (11 empty cells) the position is merged; its replies are jobs.
        let asked = |eldest_first: bool| {
            let mut tree = Tree::new(rules.clone(), 10, &Evaluation::Classic);
            tree.eldest_first = eldest_first;
            assert_eq!(tree.decide(&one, Test::AtMost(0)), None);
            (tree.wants().len(), tree)
        };
        let (all, _) = asked(false);
        assert!(all > 1, "{all} replies asked");
        let (first, mut tree) = asked(true);
        assert_eq!(first, 1);
        // The first reply holds the test ("at least 0" for the opponent): now the others are
        // asked, all at once.
        let eldest = tree.wants()[0].position;
        tree.learn(&eldest, 2, -17, 17).unwrap();
        tree.forget();
        assert_eq!(tree.decide(&one, Test::AtMost(0)), None);
        assert_eq!(tree.wants().len(), all - 1);
        // It refutes the test instead: nothing more is asked.
        let (_, mut tree) = asked(true);
        tree.learn(&eldest, -2, -17, 17).unwrap();
        tree.forget();
        assert!(tree.decide(&one, Test::AtMost(0)).is_some());
        assert!(tree.wants().is_empty());
    }
}
