//! The checked layer: a game that refuses illegal moves and passes for a player who cannot move.

use super::bits::{Bits, Words};
use super::geometry::{ShapeError, Square};
use super::{Color, Position, Rules, Variant, Winner};

/// Everything that fixes a game before its first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub rows: usize,
    pub cols: usize,
    pub variant: Variant,
    /// Who moves first.
    pub first: Color,
    /// The colour on the top-left (and bottom-right) cell of the starting 2x2 block.
    pub top_left: Color,
}

impl Default for Setup {
    /// The standard 8x8 game: black first, white on d4 and e5.
    fn default() -> Self {
        Setup {
            rows: 8,
            cols: 8,
            variant: Variant::default(),
            first: Color::Black,
            top_left: Color::White,
        }
    }
}

impl Setup {
    /// A game of this setup, stored in the narrowest bit set that holds the board.
    pub fn new_game(&self) -> Result<Box<dyn DynGame>, ShapeError> {
        struct NewGame(Setup);
        impl BitsVisitor for NewGame {
            type Output = Result<Box<dyn DynGame>, ShapeError>;
            fn visit<B: Bits>(self) -> Self::Output {
                Ok(Box::new(Game::<B>::new(&self.0)?))
            }
        }
        with_bits(self.rows * self.cols, NewGame(*self))
    }
}

/// Code that works for any [`Bits`] width; see [`with_bits`].
pub trait BitsVisitor {
    type Output;
    fn visit<B: Bits>(self) -> Self::Output;
}

/// Runs `visitor` with the narrowest bit set that holds `cells` cells (at most 26 x 26).
pub fn with_bits<V: BitsVisitor>(cells: usize, visitor: V) -> V::Output {
    match cells {
        0..=64 => visitor.visit::<u64>(),
        65..=128 => visitor.visit::<u128>(),
        129..=256 => visitor.visit::<Words<4>>(),
        257..=448 => visitor.visit::<Words<7>>(),
        _ => visitor.visit::<Words<11>>(),
    }
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is off the board")]
    OffBoard(Square),
    #[error("{0} is not empty")]
    Occupied(Square),
    #[error("{0} flanks no line of opponent discs")]
    FlanksNothing(Square),
    #[error("{0} touches no opponent disc")]
    TouchesNothing(Square),
}

/// What a legal move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub color: Color,
    pub square: Square,
    /// The discs turned over, in board order.
    pub flips: Vec<Square>,
    /// The player passed over after the move because they had no legal move, if any.
    pub passed: Option<Color>,
}

/// A game in progress: a position that only legal moves change. After every move the turn goes
/// to the opponent if they can move, back to the mover if only they can, and nowhere if the game
/// is over.
#[derive(Clone, Debug)]
pub struct Game<B> {
    rules: Rules<B>,
    position: Position<B>,
    over: bool,
}

impl<B: Bits> Game<B> {
    pub fn new(setup: &Setup) -> Result<Self, ShapeError> {
        let rules = Rules::new(setup.rows, setup.cols, setup.variant)?;
        let position = rules.start(setup.first, setup.top_left);
        Ok(Self::from_position(rules, position))
    }

    /// A game from any position; the side to move is passed over at once if it cannot move.
    pub fn from_position(rules: Rules<B>, position: Position<B>) -> Self {
        let mut game = Game {
            rules,
            position,
            over: false,
        };
        game.settle();
        game
    }

    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }
    pub fn position(&self) -> &Position<B> {
        &self.position
    }

    /// Passes for a side without moves; returns who was passed over.
    fn settle(&mut self) -> Option<Color> {
        // A side with a move means the game goes on; only otherwise ask whether it is over.
        let can_move = !self.rules.moves(&self.position).is_empty();
        self.over = !can_move && self.rules.is_over(&self.position);
        if can_move || self.over {
            return None;
        }
        let passed = self.position.to_move;
        self.position = self.rules.pass(&self.position);
        Some(passed)
    }

    /// Why `square` is not a legal move now, if it is not.
    pub fn check(&self, square: Square) -> Result<usize, IllegalMove> {
        if self.over {
            return Err(IllegalMove::GameOver);
        }
        let index = self
            .rules
            .geometry
            .index(square)
            .ok_or(IllegalMove::OffBoard(square))?;
        if self.position.occupied().contains(index) {
            return Err(IllegalMove::Occupied(square));
        }
        if !self.rules.is_legal(&self.position, index) {
            return Err(match self.rules.variant.rule_set {
                super::RuleSet::Full => IllegalMove::FlanksNothing(square),
                super::RuleSet::Simple => IllegalMove::TouchesNothing(square),
            });
        }
        Ok(index)
    }

    pub fn try_play(&mut self, square: Square) -> Result<Played, IllegalMove> {
        let index = self.check(square)?;
        let flips = self.rules.flips(&self.position, index);
        let color = self.position.to_move;
        self.position = self.rules.play_flips(&self.position, index, flips);
        let passed = self.settle();
        let g = &self.rules.geometry;
        Ok(Played {
            color,
            square,
            flips: flips.iter().map(|i| g.square(i)).collect(),
            passed,
        })
    }
}

/// A game of any board size, behind one object-safe interface.
pub trait DynGame: Send {
    fn rows(&self) -> usize;
    fn cols(&self) -> usize;
    fn variant(&self) -> Variant;
    /// The player to move, or `None` once the game is over.
    fn to_move(&self) -> Option<Color>;
    /// The winner, once the game is over.
    fn winner(&self) -> Option<Winner>;
    /// Disc counts `(black, white)`.
    fn score(&self) -> (u32, u32);
    fn disc(&self, square: Square) -> Option<Color>;
    /// The legal moves of the player to move.
    fn legal_moves(&self) -> Vec<Square>;
    fn try_play(&mut self, square: Square) -> Result<Played, IllegalMove>;
}

impl<B: Bits> DynGame for Game<B> {
    fn rows(&self) -> usize {
        self.rules.geometry.rows()
    }
    fn cols(&self) -> usize {
        self.rules.geometry.cols()
    }
    fn variant(&self) -> Variant {
        self.rules.variant
    }
    fn to_move(&self) -> Option<Color> {
        (!self.over).then_some(self.position.to_move)
    }
    fn winner(&self) -> Option<Winner> {
        self.over.then(|| self.rules.winner(&self.position))
    }
    fn score(&self) -> (u32, u32) {
        self.position.score()
    }
    fn disc(&self, square: Square) -> Option<Color> {
        self.rules
            .geometry
            .index(square)
            .and_then(|i| self.position.color_at(i))
    }
    fn legal_moves(&self) -> Vec<Square> {
        if self.over {
            return Vec::new();
        }
        let g = &self.rules.geometry;
        self.rules
            .moves(&self.position)
            .iter()
            .map(|i| g.square(i))
            .collect()
    }
    fn try_play(&mut self, square: Square) -> Result<Played, IllegalMove> {
        Game::try_play(self, square)
    }
}
