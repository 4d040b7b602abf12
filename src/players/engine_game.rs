//! A game with the engine at the table: the one place a game meets its search engine. The engine
//! protocols (GTP, NBoard) drive one with explicit passes, telling either colour to move at any
//! time and asking the engine's analysis for either colour; the terminal game plays at one with
//! the passes made by the game, and watches the engine think. Every move can be taken back.

use super::book::BookUse;
use crate::opening::book::Level;
use crate::rules::{
    AnyWidth, Bits, Color, Game, GenericOverBits, IllegalMove, Move, Passes, Played,
};
use crate::rules::{Position, Rules, Setup, Shape, Variant};
use crate::search::{
    Config, Engine, Horizon, MoveValue, Observer, Report, RootMoves, SolveProgress, ValuedMove,
};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// What the engine found for one move of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move (a pass when the side must pass, or when the game is over).
    pub best: Move,
    /// The expected final disc difference for the side analysed, in hundredths of a disc; exact
    /// when `exact` is set.
    pub score: i32,
    /// Moves searched ahead (the last iteration completed).
    pub depth: u32,
    pub exact: bool,
    /// Whether the value is the opening book's.
    pub book: bool,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line from `best` on, passes included.
    pub pv: Vec<Move>,
}

/// A game with the engine at the table, for any bit set.
pub struct EngineGame<B> {
    game: Game<B>,
    engine: Engine<B>,
    book: Option<BookUse>,
}

/// [`EngineGame`] without its bit set, for [`AnyEngineGame`].
pub struct EngineGameOf;

impl GenericOverBits for EngineGameOf {
    type Of<B: Bits> = EngineGame<B>;
}

/// A [`EngineGame`] of any board size: the engine protocols change the size at run time. Open it with
/// [`on_erased!`](crate::on_erased).
pub type AnyEngineGame = AnyWidth<EngineGameOf>;

impl AnyEngineGame {
    /// A table on a `shape` board in `variant`, at the four-disc start with black to move, and
    /// an engine with `config`.
    pub fn new(shape: Shape, variant: Variant, config: Config) -> AnyEngineGame {
        crate::erase!(shape, |B| EngineGame::<B>::new(shape, variant, config))
    }

    /// This table, playing from `book` where it has the position.
    pub fn with_book(mut self, book: Option<BookUse>) -> AnyEngineGame {
        crate::on_erased!(&mut self, |t| t.book = book);
        self
    }

    pub fn shape(&self) -> Shape {
        crate::on_erased!(self, |t| t.game.shape())
    }
}

impl<B: Bits> EngineGame<B> {
    /// A table on a `shape` board in `variant`, at the four-disc start with black to move.
    ///
    /// # Panics
    /// If `B` does not hold the board: build through [`AnyEngineGame::new`].
    pub fn new(shape: Shape, variant: Variant, config: Config) -> Self {
        let game = Game::new(&Setup::standard(shape, variant), Passes::Explicit)
            .expect("AnyEngineGame picks a bit set that holds the board");
        EngineGame::from_game(game, config)
    }

    /// `game` as it stands, with an engine with `config` for its rules. The game's pass policy
    /// stays the table's: `load` and `restart` keep it.
    pub fn from_game(game: Game<B>, config: Config) -> Self {
        EngineGame {
            engine: Engine::new(game.rules().clone(), config),
            game,
            book: None,
        }
    }

    /// This table, playing from `book` where it has the position.
    pub fn with_book(self, book: Option<BookUse>) -> Self {
        EngineGame { book, ..self }
    }

    /// The book the table plays from.
    pub fn book(&self) -> Option<Arc<crate::opening::book::Book>> {
        self.book.as_ref().map(BookUse::shared)
    }

    /// The book's move for `color`, as a search would report it (the book's value, no
    /// nodes); `None` where the book has no move or `color` is not to move.
    pub fn book_move(&mut self, color: Color) -> Option<Report> {
        if color != self.game.position().to_move {
            return None;
        }
        let played = self.book.as_mut()?.choose(&self.game)?;
        let Move::Play(square) = played.played else {
            return None;
        };
        let cell = self.rules().geometry.index(square)?;
        let empties = self.rules().empty(self.game.position()).count();
        let (depth, exact) = book_level(played.level, empties);
        Some(Report {
            best: Some(cell),
            score: played.value * crate::search::DISC,
            depth,
            exact,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![cell],
        })
    }

    pub fn game(&self) -> &Game<B> {
        &self.game
    }

    fn rules(&self) -> &Rules<B> {
        self.game.rules()
    }

    fn square(&self, index: usize) -> crate::rules::Square {
        self.rules().geometry.square(index)
    }

    /// Plays `played` for the side to move.
    pub fn try_play(&mut self, played: Move) -> Result<Played<B>, IllegalMove> {
        self.game.try_play(played)
    }

    /// Plays `played` for `color`, whoever's turn it was.
    pub fn play(&mut self, color: Color, played: Move) -> Result<Played<B>, IllegalMove> {
        self.game.try_play_as(color, played)
    }

    /// Plays `played` for the side to move, with a pass first if it has no move (GUIs do not
    /// always send the pass).
    pub fn play_listed(&mut self, played: Move) -> Result<Played<B>, IllegalMove> {
        self.game.play_listed(played)
    }

    /// Takes back the last move a player made (with the passes the game made after it); `None`
    /// if there is none.
    pub fn undo(&mut self) -> Option<Move> {
        self.game.undo()
    }

    /// Starts again from `position`, then plays `moves`; on a refused move nothing changes and
    /// the move's index is returned.
    pub fn load(
        &mut self,
        position: Position<B>,
        moves: &[(Color, Move)],
    ) -> Result<(), (usize, IllegalMove)> {
        let mut game = Game::from_position(self.rules().clone(), position, self.game.passes());
        for (i, &(color, played)) in moves.iter().enumerate() {
            game.try_play_as(color, played).map_err(|e| (i, e))?;
        }
        self.game = game;
        Ok(())
    }

    /// Starts again from the standard four-disc start, black to move.
    pub fn restart(&mut self) {
        let start = self.rules().start(Color::Black, Color::White);
        self.game = Game::from_position(self.rules().clone(), start, self.game.passes());
    }

    /// Changes how long and how deep the engine searches.
    pub fn set_limits(&mut self, depth: Option<u32>, move_time: Option<Duration>) {
        self.engine.set_limits(depth, move_time);
    }

    pub fn limits(&self) -> (Option<u32>, Option<Duration>) {
        let c = self.engine.config();
        (c.depth, c.move_time)
    }

    /// Gives the next searches `budget` (a game clock's target and limit); `set_limits`
    /// takes it back.
    pub fn set_budget(&mut self, budget: crate::search::time::Budget) {
        self.engine.set_budget(budget);
    }

    /// The engine's own search of the position as it stands, for the side to move, with `watch`
    /// seeing its progress; a stop from `watch` ends the search with the best found so far. The
    /// terminal game shows its thinking this way.
    pub fn search_watched(&mut self, watch: Observer) -> Report {
        self.engine.observe(Some(watch));
        let report = self.engine.search(self.game.position());
        self.engine.observe(None);
        report
    }

    /// `line` as moves from `pos`, with a pass wherever the side to move had none.
    fn with_passes(&self, pos: &Position<B>, line: &[usize]) -> Vec<Move> {
        self.rules().line(pos, line)
    }

    /// The engine's best move for the side to move in `pos`, passing for it if it must.
    fn search(&mut self, pos: &Position<B>) -> Analysis {
        let rules = self.rules();
        if rules.is_over(pos) {
            let mut diff = rules.margin(pos, pos.to_move);
            if self.engine.config().scoring == crate::search::Scoring::EmptiesToWinner {
                diff += diff.signum() * rules.empty(pos).count() as i32;
            }
            return Analysis {
                best: Move::Pass,
                score: diff * crate::search::DISC,
                depth: 0,
                exact: true,
                book: false,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
            };
        }
        if rules.moves(pos).is_empty() {
            let passed = rules.pass(pos);
            let mut reply = self.search(&passed);
            reply.score = -reply.score;
            reply.pv.insert(0, Move::Pass);
            reply.best = Move::Pass;
            return reply;
        }
        let report = self.engine.search(pos);
        self.analysis(pos, report, false)
    }

    /// A search's report at `pos` as moves.
    fn analysis(&self, pos: &Position<B>, report: Report, book: bool) -> Analysis {
        let pv = self.with_passes(pos, &report.pv);
        Analysis {
            best: report
                .best
                .map_or(Move::Pass, |m| Move::Play(self.square(m))),
            score: report.score,
            depth: report.depth,
            exact: report.exact,
            book,
            nodes: report.nodes,
            elapsed: report.elapsed,
            pv,
        }
    }

    /// The position with `color` to move.
    fn for_color(&self, color: Color) -> Position<B> {
        Position {
            to_move: color,
            ..*self.game.position()
        }
    }

    /// The engine's best move for `color` in the current position: the book's where it has
    /// the position and `color` is to move.
    pub fn analyse(&mut self, color: Color) -> Analysis {
        let pos = self.for_color(color);
        if let Some(report) = self.book_move(color) {
            return self.analysis(&pos, report, true);
        }
        self.search(&pos)
    }

    /// The engine's view of up to `count` moves for `color`, best first: each legal move is
    /// searched one move less deep (and within an equal share of the time).
    pub fn analyse_moves(&mut self, color: Color, count: usize) -> Vec<Analysis> {
        let never = Arc::new(AtomicBool::new(false));
        self.analyse_moves_until(color, count, &never)
            .unwrap_or_default()
    }

    /// [`analyse_moves`](Self::analyse_moves), given up (`None`) as soon as `stop` is raised:
    /// the search in hand stops at once and no further move is searched.
    pub fn analyse_moves_until(
        &mut self,
        color: Color,
        count: usize,
        stop: &Arc<AtomicBool>,
    ) -> Option<Vec<Analysis>> {
        let watched = Arc::clone(stop);
        self.engine.observe(Some(Box::new(move |_: &SolveProgress| {
            if watched.load(Relaxed) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })));
        let lines = self.analyse_moves_watched(color, count, stop);
        self.engine.observe(None);
        lines.filter(|_| !stop.load(Relaxed))
    }

    fn analyse_moves_watched(
        &mut self,
        color: Color,
        count: usize,
        stop: &AtomicBool,
    ) -> Option<Vec<Analysis>> {
        let pos = self.for_color(color);
        let moves = self.rules().moves(&pos);
        if moves.is_empty() {
            return Some(vec![self.search(&pos)]);
        }
        let mut lines = self.book_lines(color);
        if lines.is_empty() {
            let cells: Vec<usize> = moves.iter().collect();
            let valued = self.value_every_move(&pos, &cells)?;
            if stop.load(Relaxed) {
                return None;
            }
            lines = valued
                .iter()
                .map(|v| Analysis {
                    best: Move::Play(self.square(v.cell)),
                    score: v.value.hundredths(),
                    depth: v.depth,
                    exact: v.value.discs().is_some(),
                    book: false,
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    pv: self.with_passes(&pos, &v.line),
                })
                .collect();
            // Best first; equal values keep board order, so the list is the same every time.
            lines.sort_by_key(|a| std::cmp::Reverse(a.score));
        }
        lines.truncate(count);
        Some(lines)
    }

    /// The book's moves for `color`, best first, each with the book's line after it; none
    /// where the book does not hold the position or `color` is not to move.
    pub fn book_lines(&self, color: Color) -> Vec<Analysis> {
        let Some(book) = self.book.as_ref() else {
            return Vec::new();
        };
        if color != self.game.position().to_move {
            return Vec::new();
        }
        let book = book.book();
        let empties = self.rules().empty(self.game.position()).count();
        book.moves(&self.game)
            .into_iter()
            .map(|m| {
                // The line: the book's best move at each position after it, while it has one.
                let mut game = self.game.clone();
                let mut pv = Vec::new();
                let mut next = Some(m.played);
                while let Some(played) = next {
                    if pv.len() >= BOOK_LINE || game.play_listed(played).is_err() {
                        break;
                    }
                    pv.push(played);
                    next = book.moves(&game).first().map(|b| b.played);
                }
                let (depth, exact) = book_level(m.level, empties);
                Analysis {
                    best: m.played,
                    score: m.value * crate::search::DISC,
                    depth,
                    exact,
                    book: true,
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    pv,
                }
            })
            .collect()
    }

    /// Every move of `cells` valued alike within the engine's limits: solved where there are
    /// [`HINT_EXACT_EMPTIES`] empty cells or fewer and the solve fits in half the time (in
    /// [`EXACT_TRY`] without one), else each position after a move searched to one depth.
    /// `None` where the observer stopped it.
    fn value_every_move(&mut self, pos: &Position<B>, cells: &[usize]) -> Option<Vec<ValuedMove>> {
        let (depth, move_time) = self.limits();
        let clock = std::time::Instant::now();
        if self.rules().empty(pos).count() <= HINT_EXACT_EMPTIES {
            let budget = move_time.map_or(EXACT_TRY, |t| t / 2);
            self.engine.set_limits(None, None);
            let solved = self
                .engine
                .solve_root_within(pos, RootMoves::All, Some(budget));
            self.engine.set_limits(depth, move_time);
            if let Some(solved) = solved {
                let empties = self.rules().empty(pos).count();
                let valued = cells.iter().filter_map(|&cell| {
                    let &(_, score) = solved.moves.iter().find(|m| m.0 == cell)?;
                    Some(ValuedMove {
                        cell,
                        value: MoveValue::Discs(score),
                        depth: empties,
                        line: vec![cell],
                    })
                });
                return Some(valued.collect());
            }
            if self.engine.stopped() {
                return None;
            }
        }
        match move_time {
            Some(t) => {
                let left = t.saturating_sub(clock.elapsed());
                self.engine.value_moves_within(pos, cells, left, depth)
            }
            None => {
                let horizon = Horizon {
                    depth: depth.unwrap_or(HINT_DEPTH),
                    exact_empties: 0,
                };
                self.engine.value_moves(pos, cells, horizon)
            }
        }
    }
}

/// How far a book value learned to `level` looks, in moves, at a position with `empties`
/// empty cells, and whether it is exact.
fn book_level(level: Level, empties: u32) -> (u32, bool) {
    match level {
        Level::Exact => (empties, true),
        Level::Depth(d) => (d as u32, false),
    }
}

/// Moves of the book's line given with a book move.
const BOOK_LINE: usize = 12;

/// Hints are solved from this many empty cells on, where the solve fits in the time.
pub const HINT_EXACT_EMPTIES: u32 = 22;

/// How long a hint tries to solve where no move time is set.
const EXACT_TRY: Duration = Duration::from_secs(10);

/// How deep hints look where neither a depth nor a time is set.
const HINT_DEPTH: u32 = 10;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;
    use std::ops::ControlFlow;

    fn config(depth: u32) -> Config {
        Config::to_depth(depth).with_hash_mb(1)
    }

    fn square(text: &str) -> Move {
        Move::Play(text.parse::<Square>().unwrap())
    }

    #[test]
    fn a_table_keeps_its_games_pass_policy() {
        let setup = Setup::standard(Shape::new(4, 4).unwrap(), Variant::default());
        let game = Game::<u64>::new(&setup, Passes::Automatic).unwrap();
        let mut table = EngineGame::from_game(game, config(2));
        // The 4x4 sample game: black must pass after white's d2, and the game passes for it.
        let moves = ["b1", "a1", "c4", "d4", "d3", "b4", "a4", "c1", "d1", "d2"];
        for m in moves {
            table.try_play(square(m)).unwrap();
        }
        assert_eq!(table.game().position().to_move, Color::White);
        assert_eq!(table.undo(), Some(square("d2")));
        assert_eq!(table.game().position().to_move, Color::White);
        table.restart();
        assert_eq!(table.game().passes(), Passes::Automatic);
        let start = *table.game().start();
        let record: Vec<_> = moves.iter().map(|m| (Color::Black, square(m))).collect();
        assert_eq!(table.load(start, &record[..1]), Ok(()));
        assert_eq!(table.game().passes(), Passes::Automatic);
        let protocol =
            EngineGame::<u64>::new(Shape::new(4, 4).unwrap(), Variant::default(), config(2));
        assert_eq!(protocol.game().passes(), Passes::Explicit);
    }

    #[test]
    fn a_watched_search_stops_when_told_and_the_next_is_not_watched() {
        let shape = Shape::new(6, 6).unwrap();
        let mut table = EngineGame::<u64>::new(shape, Variant::default(), config(6));
        let (tx, rx) = std::sync::mpsc::channel();
        let report = table.search_watched(Box::new(move |p| {
            let _ = tx.send(p.depth);
            ControlFlow::Break(())
        }));
        let seen: Vec<u32> = rx.try_iter().collect();
        assert_eq!(report.depth, 1, "{seen:?}");
        assert_eq!(seen, [1]);
        let analysis = table.analyse(Color::Black);
        assert_eq!(analysis.depth, 6);
        assert!(rx.try_recv().is_err());
    }
}
