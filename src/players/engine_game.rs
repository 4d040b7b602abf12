//! A game that another program drives, with the engine at the table: the engine protocols (GTP,
//! NBoard) keep one. Either colour may be told to move at any time, passes are explicit moves,
//! every move can be taken back, and the engine analyses the position for either colour.

use crate::rules::{with_bits, Bits, BitsVisitor, Color, Position, Rules, ShapeError, Square};
use crate::rules::{Variant, Winner};
use crate::search::{Config, Engine};
use std::time::Duration;

/// One move of a driven game: a disc on a square, or a pass (`None`).
pub type Turn = Option<Square>;

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{0} is not a legal move for {1}")]
    Illegal(Square, Color),
    #[error("{0} may not pass: it has a legal move")]
    PassWithMoves(Color),
}

/// What the engine found for one move of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move (`None`: the side must pass, or the game is over).
    pub best: Turn,
    /// The expected final disc difference for the side analysed, in hundredths of a disc; exact
    /// when `exact` is set.
    pub score: i32,
    /// Moves searched ahead (the last iteration completed).
    pub depth: u32,
    pub exact: bool,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line from `best` on, passes included.
    pub pv: Vec<Turn>,
}

/// A driven game of any board size; see [`engine_game`].
pub trait EngineGame: Send {
    fn rows(&self) -> usize;
    fn cols(&self) -> usize;
    /// The colour whose turn the last move gave (whether or not it can move).
    fn to_move(&self) -> Color;
    /// The colour that moves next once forced passes are made, or `None` when the game is over.
    fn next_mover(&self) -> Option<Color>;
    fn disc(&self, square: Square) -> Option<Color>;
    /// Disc counts `(black, white)`.
    fn score(&self) -> (u32, u32);
    /// The winner, once neither side can move.
    fn winner(&self) -> Option<Winner>;
    fn legal_moves(&self, color: Color) -> Vec<Square>;
    /// Plays `turn` for `color`, whoever's turn it was; a pass only when `color` cannot move.
    fn play(&mut self, color: Color, turn: Turn) -> Result<(), Refusal>;
    /// Takes back the last move; `false` if there is none.
    fn undo(&mut self) -> bool;
    /// The moves played since the start position, for undo.
    fn moves_played(&self) -> usize;
    /// Starts again from `cells` (row-major from the top-left) with `to_move` to move, then
    /// plays `moves`; on a refused move nothing changes and the move's index is returned.
    fn load(
        &mut self,
        cells: &[Option<Color>],
        to_move: Color,
        moves: &[(Color, Turn)],
    ) -> Result<(), (usize, Refusal)>;
    /// Starts again from the standard four-disc start, black to move.
    fn restart(&mut self);
    /// Changes how long and how deep the engine searches.
    fn set_limits(&mut self, depth: Option<u32>, move_time: Option<Duration>);
    fn limits(&self) -> (Option<u32>, Option<Duration>);
    /// The engine's best move for `color` in the current position.
    fn analyse(&mut self, color: Color) -> Analysis;
    /// The engine's view of up to `count` moves for `color`, best first: each legal move is
    /// searched one move less deep (and within an equal share of the time).
    fn analyse_moves(&mut self, color: Color, count: usize) -> Vec<Analysis>;
}

/// A driven game on a `rows` x `cols` board in `variant`, at the four-disc start with black to
/// move, and an engine with `config`.
pub fn engine_game(
    rows: usize,
    cols: usize,
    variant: Variant,
    config: Config,
) -> Result<Box<dyn EngineGame>, ShapeError> {
    struct Build(usize, usize, Variant, Config);
    impl BitsVisitor for Build {
        type Output = Result<Box<dyn EngineGame>, ShapeError>;
        fn visit<B: Bits>(self) -> Self::Output {
            let Build(rows, cols, variant, config) = self;
            let rules = Rules::<B>::new(rows, cols, variant)?;
            let start = rules.start(Color::Black, Color::White);
            Ok(Box::new(Table {
                engine: Engine::new(rules.clone(), config),
                rules,
                history: Vec::new(),
                position: start,
            }))
        }
    }
    with_bits(rows * cols, Build(rows, cols, variant, config))
}

struct Table<B> {
    rules: Rules<B>,
    engine: Engine<B>,
    position: Position<B>,
    /// The positions before each move played.
    history: Vec<Position<B>>,
}

impl<B: Bits> Table<B> {
    fn square(&self, index: usize) -> Square {
        self.rules.geometry.square(index)
    }

    /// The position after `color` plays `turn` in `pos`, if it is legal.
    fn after(&self, pos: &Position<B>, color: Color, turn: Turn) -> Result<Position<B>, Refusal> {
        let pos = Position {
            to_move: color,
            ..*pos
        };
        match turn {
            None if self.rules.moves(&pos).is_empty() => Ok(self.rules.pass(&pos)),
            None => Err(Refusal::PassWithMoves(color)),
            Some(square) => match self.rules.geometry.index(square) {
                Some(i) if self.rules.is_legal(&pos, i) => Ok(self.rules.play_unchecked(&pos, i)),
                _ => Err(Refusal::Illegal(square, color)),
            },
        }
    }

    /// `line` as moves from `pos`, with a pass wherever the side to move had none.
    fn with_passes(&self, pos: &Position<B>, line: &[usize]) -> Vec<Turn> {
        let mut pos = *pos;
        let mut turns = Vec::new();
        for &m in line {
            if self.rules.moves(&pos).is_empty() {
                turns.push(None);
                pos = self.rules.pass(&pos);
            }
            if !self.rules.is_legal(&pos, m) {
                break;
            }
            turns.push(Some(self.square(m)));
            pos = self.rules.play_unchecked(&pos, m);
        }
        turns
    }

    /// The engine's best move for the side to move in `pos`, passing for it if it must.
    fn search(&mut self, pos: &Position<B>) -> Analysis {
        if self.rules.is_over(pos) {
            let (b, w) = pos.score();
            let mut diff = if pos.to_move == Color::Black {
                b as i32 - w as i32
            } else {
                w as i32 - b as i32
            };
            if self.rules.variant.misere {
                diff = -diff;
            }
            if self.engine.config().scoring == crate::search::Scoring::EmptiesToWinner {
                diff += diff.signum() * self.rules.empty(pos).count() as i32;
            }
            return Analysis {
                best: None,
                score: diff * crate::search::DISC,
                depth: 0,
                exact: true,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
            };
        }
        if self.rules.moves(pos).is_empty() {
            let mut reply = self.search(&self.rules.pass(pos));
            reply.score = -reply.score;
            reply.pv.insert(0, None);
            reply.best = None;
            return reply;
        }
        let report = self.engine.search(pos);
        let pv = self.with_passes(pos, &report.pv);
        Analysis {
            best: report.best.map(|m| self.square(m)),
            score: report.score,
            depth: report.depth,
            exact: report.exact,
            nodes: report.nodes,
            elapsed: report.elapsed,
            pv,
        }
    }
}

impl<B: Bits> EngineGame for Table<B> {
    fn rows(&self) -> usize {
        self.rules.geometry.rows()
    }
    fn cols(&self) -> usize {
        self.rules.geometry.cols()
    }
    fn to_move(&self) -> Color {
        self.position.to_move
    }
    fn next_mover(&self) -> Option<Color> {
        if self.rules.is_over(&self.position) {
            None
        } else if self.rules.moves(&self.position).is_empty() {
            Some(self.position.to_move.opposite())
        } else {
            Some(self.position.to_move)
        }
    }
    fn disc(&self, square: Square) -> Option<Color> {
        self.rules
            .geometry
            .index(square)
            .and_then(|i| self.position.color_at(i))
    }
    fn score(&self) -> (u32, u32) {
        self.position.score()
    }
    fn winner(&self) -> Option<Winner> {
        self.rules
            .is_over(&self.position)
            .then(|| self.rules.winner(&self.position))
    }
    fn legal_moves(&self, color: Color) -> Vec<Square> {
        let pos = Position {
            to_move: color,
            ..self.position
        };
        let moves = self.rules.moves(&pos);
        moves.iter().map(|i| self.square(i)).collect()
    }
    fn play(&mut self, color: Color, turn: Turn) -> Result<(), Refusal> {
        let next = self.after(&self.position, color, turn)?;
        self.history.push(self.position);
        self.position = next;
        Ok(())
    }
    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(pos) => {
                self.position = pos;
                true
            }
            None => false,
        }
    }
    fn moves_played(&self) -> usize {
        self.history.len()
    }
    fn load(
        &mut self,
        cells: &[Option<Color>],
        to_move: Color,
        moves: &[(Color, Turn)],
    ) -> Result<(), (usize, Refusal)> {
        let mut pos = Position::from_cells(
            cells.iter().copied().take(self.rules.geometry.cell_count()),
            to_move,
        );
        let mut history = Vec::with_capacity(moves.len());
        for (i, &(color, turn)) in moves.iter().enumerate() {
            let next = self.after(&pos, color, turn).map_err(|e| (i, e))?;
            history.push(pos);
            pos = next;
        }
        self.history = history;
        self.position = pos;
        Ok(())
    }
    fn restart(&mut self) {
        self.history.clear();
        self.position = self.rules.start(Color::Black, Color::White);
    }
    fn set_limits(&mut self, depth: Option<u32>, move_time: Option<Duration>) {
        self.engine.set_limits(depth, move_time);
    }
    fn limits(&self) -> (Option<u32>, Option<Duration>) {
        let c = self.engine.config();
        (c.depth, c.move_time)
    }
    fn analyse(&mut self, color: Color) -> Analysis {
        let pos = Position {
            to_move: color,
            ..self.position
        };
        self.search(&pos)
    }
    fn analyse_moves(&mut self, color: Color, count: usize) -> Vec<Analysis> {
        let pos = Position {
            to_move: color,
            ..self.position
        };
        let moves = self.rules.moves(&pos);
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
                let child = self.rules.play_unchecked(&pos, m);
                let reply = self.search(&child);
                let mut pv = vec![Some(self.square(m))];
                pv.extend(reply.pv);
                Analysis {
                    best: Some(self.square(m)),
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
        lines.truncate(count);
        lines
    }
}
