//! A game that another program drives, with the engine at the table: the engine protocols (GTP,
//! NBoard) keep one. Either colour may be told to move at any time, passes are explicit moves,
//! every move can be taken back, and the engine analyses the position for either colour.

use crate::rules::{Bits, Color, Erased, Family, Game, IllegalMove, Move, Passes, Played};
use crate::rules::{Position, Rules, Setup, Shape, Variant};
use crate::search::{Config, Engine};
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
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line from `best` on, passes included.
    pub pv: Vec<Move>,
}

/// A driven game with the engine at the table, for any bit set.
pub struct Table<B> {
    game: Game<B>,
    engine: Engine<B>,
}

/// [`Table`] without its bit set, for [`AnyTable`].
pub struct TableOf;

impl Family for TableOf {
    type Of<B: Bits> = Table<B>;
}

/// A [`Table`] of any board size: the engine protocols change the size at run time. Open it with
/// [`on_erased!`](crate::on_erased).
pub type AnyTable = Erased<TableOf>;

impl AnyTable {
    /// A table on a `shape` board in `variant`, at the four-disc start with black to move, and
    /// an engine with `config`.
    pub fn new(shape: Shape, variant: Variant, config: Config) -> AnyTable {
        crate::erase!(shape, |B| Table::<B>::new(shape, variant, config))
    }

    pub fn shape(&self) -> Shape {
        crate::on_erased!(self, |t| t.game.shape())
    }
}

impl<B: Bits> Table<B> {
    /// A table on a `shape` board in `variant`, at the four-disc start with black to move.
    ///
    /// # Panics
    /// If `B` does not hold the board: build through [`AnyTable::new`].
    pub fn new(shape: Shape, variant: Variant, config: Config) -> Self {
        let game = Game::new(&Setup::standard(shape, variant), Passes::Explicit)
            .expect("AnyTable picks a bit set that holds the board");
        Table {
            engine: Engine::new(game.rules().clone(), config),
            game,
        }
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

    /// Plays `played` for `color`, whoever's turn it was.
    pub fn play(&mut self, color: Color, played: Move) -> Result<Played<B>, IllegalMove> {
        self.game.try_play_as(color, played)
    }

    /// Plays `played` for the side to move, with a pass first if it has no move (GUIs do not
    /// always send the pass).
    pub fn play_listed(&mut self, played: Move) -> Result<Played<B>, IllegalMove> {
        self.game.play_listed(played)
    }

    /// Takes back the last move; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        self.game.undo().is_some()
    }

    /// Starts again from `position`, then plays `moves`; on a refused move nothing changes and
    /// the move's index is returned.
    pub fn load(
        &mut self,
        position: Position<B>,
        moves: &[(Color, Move)],
    ) -> Result<(), (usize, IllegalMove)> {
        let mut game = Game::from_position(self.rules().clone(), position, Passes::Explicit);
        for (i, &(color, played)) in moves.iter().enumerate() {
            game.try_play_as(color, played).map_err(|e| (i, e))?;
        }
        self.game = game;
        Ok(())
    }

    /// Starts again from the standard four-disc start, black to move.
    pub fn restart(&mut self) {
        let start = self.rules().start(Color::Black, Color::White);
        self.game = Game::from_position(self.rules().clone(), start, Passes::Explicit);
    }

    /// Changes how long and how deep the engine searches.
    pub fn set_limits(&mut self, depth: Option<u32>, move_time: Option<Duration>) {
        self.engine.set_limits(depth, move_time);
    }

    pub fn limits(&self) -> (Option<u32>, Option<Duration>) {
        let c = self.engine.config();
        (c.depth, c.move_time)
    }

    /// `line` as moves from `pos`, with a pass wherever the side to move had none.
    fn with_passes(&self, pos: &Position<B>, line: &[usize]) -> Vec<Move> {
        let rules = self.rules();
        let mut pos = *pos;
        let mut moves = Vec::new();
        for &m in line {
            if rules.moves(&pos).is_empty() {
                moves.push(Move::Pass);
                pos = rules.pass(&pos);
            }
            if !rules.is_legal(&pos, m) {
                break;
            }
            moves.push(Move::Play(self.square(m)));
            pos = rules.play_unchecked(&pos, m);
        }
        moves
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
        let pv = self.with_passes(pos, &report.pv);
        Analysis {
            best: report
                .best
                .map_or(Move::Pass, |m| Move::Play(self.square(m))),
            score: report.score,
            depth: report.depth,
            exact: report.exact,
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

    /// The engine's best move for `color` in the current position.
    pub fn analyse(&mut self, color: Color) -> Analysis {
        let pos = self.for_color(color);
        self.search(&pos)
    }

    /// The engine's view of up to `count` moves for `color`, best first: each legal move is
    /// searched one move less deep (and within an equal share of the time).
    pub fn analyse_moves(&mut self, color: Color, count: usize) -> Vec<Analysis> {
        let pos = self.for_color(color);
        let moves = self.rules().moves(&pos);
        if count <= 1 || moves.count() <= 1 {
            return vec![self.search(&pos)];
        }
        let (depth, move_time) = self.limits();
        let share = move_time.map(|t| (t / moves.count()).max(Duration::from_millis(1)));
        self.engine
            .set_limits(depth.map(|d| d.saturating_sub(1).max(1)), share);
        let mut lines: Vec<Analysis> = moves
            .iter()
            .map(|m| {
                let child = self.rules().play_unchecked(&pos, m);
                let reply = self.search(&child);
                let mut pv = vec![Move::Play(self.square(m))];
                pv.extend(reply.pv);
                Analysis {
                    best: Move::Play(self.square(m)),
                    score: -reply.score,
                    depth: reply.depth + 1,
                    exact: reply.exact,
                    nodes: reply.nodes + 1,
                    elapsed: reply.elapsed,
                    pv,
                }
            })
            .collect();
        self.engine.set_limits(depth, move_time);
        // Best first; equal scores keep board order, so the list is the same every time.
        lines.sort_by_key(|a| std::cmp::Reverse(a.score));
        // Where several moves share the best score, the one the engine would play (`analyse`)
        // comes first, so that the first line and the move played agree.
        if lines[1].score == lines[0].score {
            let chosen = self.search(&pos).best;
            if let Some(i) = lines.iter().position(|a| a.best == chosen) {
                if lines[i].score == lines[0].score {
                    lines[..=i].rotate_right(1);
                }
            }
        }
        lines.truncate(count);
        lines
    }
}
