//! The checked layer: a game that only legal moves change, with its history for undo.

use super::bits::Bits;
use super::color::{ByColor, Color, Winner};
use super::legal::Rules;
use super::position::{Move, Position};
use super::shape::Square;
use super::shape::{Shape, ShapeError};
use super::variant::{RuleSet, Variant};

/// Everything that fixes a game before its first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub shape: Shape,
    pub variant: Variant,
    /// Who moves first.
    pub first: Color,
    /// The colour on the top-left (and bottom-right) cell of the starting 2x2 block.
    pub top_left: Color,
}

impl Default for Setup {
    /// The standard 8x8 game: black first, white on d4 and e5.
    fn default() -> Self {
        Setup::standard(Shape::STANDARD, Variant::default())
    }
}

impl Setup {
    /// The usual start on `shape`: black first, white on the top-left of the centre block.
    pub fn standard(shape: Shape, variant: Variant) -> Setup {
        Setup {
            shape,
            variant,
            first: Color::Black,
            top_left: Color::White,
        }
    }
}

/// Who makes a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// The game passes for a player with no legal move (the line protocol, a person at play).
    Automatic,
    /// A pass is a move the player must make (game records and the engine protocols).
    Explicit,
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
    #[error("{0} has no legal move and must pass")]
    MustPass(Color),
    #[error("{0} may not pass: it has a legal move")]
    PassWithMoves(Color),
}

/// What a legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played<B> {
    pub color: Color,
    pub played: Move,
    /// The discs turned over.
    pub flips: B,
    /// The player the game passed for after the move, under [`Passes::Automatic`].
    pub passed: Option<Color>,
}

/// One entry of the history: the position before a move (whose side to move undo restores),
/// who moved, the move, and whether the game made it (an automatic pass) rather than a player,
/// and if so whether a move list recorded it.
#[derive(Clone, Copy, Debug)]
struct Step<B> {
    before: Position<B>,
    color: Color,
    played: Move,
    automatic: bool,
    listed: bool,
}

/// A game in progress: a position that only legal moves change, the moves that led to it, and
/// who makes passes.
#[derive(Clone, Debug)]
pub struct Game<B> {
    rules: Rules<B>,
    passes: Passes,
    position: Position<B>,
    over: bool,
    history: Vec<Step<B>>,
}

impl<B: Bits> Game<B> {
    /// The game of `setup`, if its board fits in `B`.
    pub fn new(setup: &Setup, passes: Passes) -> Result<Self, ShapeError> {
        let rules = Rules::new(setup.shape, setup.variant)?;
        let position = rules.start(setup.first, setup.top_left);
        Ok(Self::from_position(rules, position, passes))
    }

    /// A game from any position. Under [`Passes::Automatic`] a side to move that cannot is
    /// passed over at once.
    pub fn from_position(rules: Rules<B>, position: Position<B>, passes: Passes) -> Self {
        let mut game = Game {
            rules,
            passes,
            position,
            over: false,
            history: Vec::new(),
        };
        game.settle();
        game
    }

    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }
    pub fn shape(&self) -> Shape {
        self.rules.shape()
    }
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }
    pub fn passes(&self) -> Passes {
        self.passes
    }
    pub fn position(&self) -> &Position<B> {
        &self.position
    }

    /// The player to move (pass or not), or `None` once neither side can move.
    pub fn to_move(&self) -> Option<Color> {
        (!self.over).then_some(self.position.to_move)
    }
    pub fn is_over(&self) -> bool {
        self.over
    }
    /// Whether the next move must be a pass (only under [`Passes::Explicit`]).
    pub fn must_pass(&self) -> bool {
        !self.over && self.rules.moves(&self.position).is_empty()
    }
    /// The squares the player to move may play (none once the game is over).
    pub fn legal_moves(&self) -> B {
        if self.over {
            B::ZERO
        } else {
            self.rules.moves(&self.position)
        }
    }
    pub fn disc(&self, square: Square) -> Option<Color> {
        self.rules
            .geometry
            .index(square)
            .and_then(|i| self.position.color_at(i))
    }
    /// The discs of each colour.
    pub fn score(&self) -> ByColor<u32> {
        ByColor::new(|c| self.position.discs(c).count())
    }
    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Winner> {
        self.over.then(|| self.rules.winner(&self.position))
    }

    /// Why `played` is not a legal move now, if it is not; the cell index of a square. Under
    /// explicit passes a finished game still takes passes (engine protocols pass at the end).
    pub fn check(&self, played: Move) -> Result<Option<usize>, IllegalMove> {
        if self.over {
            return match (played, self.passes) {
                (Move::Pass, Passes::Explicit) => Ok(None),
                _ => Err(IllegalMove::GameOver),
            };
        }
        let color = self.position.to_move;
        let square = match played {
            Move::Pass if self.must_pass() => return Ok(None),
            Move::Pass => return Err(IllegalMove::PassWithMoves(color)),
            Move::Play(_) if self.must_pass() => return Err(IllegalMove::MustPass(color)),
            Move::Play(square) => square,
        };
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
                RuleSet::Full => IllegalMove::FlanksNothing(square),
                RuleSet::Simple => IllegalMove::TouchesNothing(square),
            });
        }
        Ok(Some(index))
    }

    /// Plays `played` for the player to move if it is legal.
    pub fn try_play(&mut self, played: Move) -> Result<Played<B>, IllegalMove> {
        let index = self.check(played)?;
        let color = self.position.to_move;
        let before = self.position;
        let flips = match index {
            Some(index) => {
                let flips = self.rules.flips(&before, index);
                self.position = self.rules.play_flips(&before, index, flips);
                flips
            }
            None => {
                self.position = self.rules.pass(&before);
                B::ZERO
            }
        };
        self.history.push(Step {
            before,
            color,
            played,
            automatic: false,
            listed: false,
        });
        let passed = self.settle();
        Ok(Played {
            color,
            played,
            flips,
            passed,
        })
    }

    /// Plays `played` for `color`, whoever's turn it was (the engine protocols let either side
    /// move at any time). Undo gives the turn back.
    pub fn try_play_as(&mut self, color: Color, played: Move) -> Result<Played<B>, IllegalMove> {
        // Whether the game is over does not depend on the side to move.
        let (position, at) = (self.position, self.history.len());
        self.position.to_move = color;
        let result = self.try_play(played);
        match &result {
            Ok(_) => self.history[at].before = position,
            Err(_) => self.position = position,
        }
        result
    }

    /// Plays the next move of a list in which a pass may be written or left out: a square
    /// where the player to move must pass is played after that pass, and a pass that the game
    /// has just made by itself is taken as recording it.
    pub fn play_listed(&mut self, played: Move) -> Result<Played<B>, IllegalMove> {
        if played == Move::Pass {
            if let Some(step) = self.history.last_mut().filter(|s| s.automatic && !s.listed) {
                step.listed = true;
                return Ok(Played {
                    color: step.color,
                    played,
                    flips: B::ZERO,
                    passed: None,
                });
            }
        }
        if matches!(played, Move::Play(_)) && self.must_pass() {
            self.try_play(Move::Pass)?;
            let result = self.try_play(played);
            if result.is_err() {
                self.undo();
            }
            return result;
        }
        self.try_play(played)
    }

    /// Takes back the last move a player made (with the passes the game made after it); `None`
    /// when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.history.iter().rposition(|s| !s.automatic)?;
        let step = self.history[last];
        self.history.truncate(last);
        self.position = step.before;
        self.over = self.rules.is_over(&self.position);
        Some(step.played)
    }

    /// The moves since the start, passes included (those the game made too).
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|s| s.played)
    }

    /// The moves since the start, each with the colour that made it.
    pub fn record(&self) -> impl ExactSizeIterator<Item = (Color, Move)> + '_ {
        self.history.iter().map(|s| (s.color, s.played))
    }

    /// The position before the first move.
    pub fn start(&self) -> &Position<B> {
        self.history.first().map_or(&self.position, |s| &s.before)
    }

    /// Decides whether the game is over, and under automatic passes passes for a side without
    /// a move; returns who was passed over.
    fn settle(&mut self) -> Option<Color> {
        // A side with a move means the game goes on; only otherwise ask whether it is over.
        let can_move = !self.rules.moves(&self.position).is_empty();
        self.over = !can_move && self.rules.is_over(&self.position);
        if can_move || self.over || self.passes == Passes::Explicit {
            return None;
        }
        let passed = self.position.to_move;
        self.history.push(Step {
            before: self.position,
            color: self.position.to_move,
            played: Move::Pass,
            automatic: true,
            listed: false,
        });
        self.position = self.rules.pass(&self.position);
        Some(passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Move {
        let b = text.as_bytes();
        Move::Play(Square::new(b[1] - b'1', b[0] - b'A'))
    }

    /// 4x4, the sample game of the rules: black has no move after white's D2 (move 10).
    const SAMPLE: [&str; 10] = ["B1", "A1", "C4", "D4", "D3", "B4", "A4", "C1", "D1", "D2"];

    fn small(passes: Passes) -> Game<u64> {
        let setup = Setup::standard(Shape::square(4).unwrap(), Variant::default());
        Game::new(&setup, passes).unwrap()
    }

    #[test]
    fn explicit_passes_are_moves() {
        let mut game = small(Passes::Explicit);
        for m in SAMPLE {
            game.try_play(sq(m)).unwrap();
        }
        assert_eq!(game.to_move(), Some(Color::Black));
        assert!(game.must_pass());
        assert_eq!(
            game.try_play(sq("A3")),
            Err(IllegalMove::MustPass(Color::Black))
        );
        game.try_play(Move::Pass).unwrap();
        assert_eq!(
            game.try_play(Move::Pass),
            Err(IllegalMove::PassWithMoves(Color::White))
        );
        game.try_play(sq("A3")).unwrap();
        game.play_listed(sq("A2")).unwrap();
        assert_eq!(game.to_move(), None);
        assert_eq!(
            game.score(),
            ByColor {
                black: 4,
                white: 12
            }
        );
        assert_eq!(game.try_play(sq("A2")), Err(IllegalMove::GameOver));
        assert_eq!(game.moves().len(), 13);
    }

    #[test]
    fn automatic_passes_are_recorded_and_undone_with_their_move() {
        let mut game = small(Passes::Automatic);
        for m in &SAMPLE[..9] {
            game.try_play(sq(m)).unwrap();
        }
        let played = game.try_play(sq("D2")).unwrap();
        assert_eq!(played.passed, Some(Color::Black));
        assert_eq!(game.to_move(), Some(Color::White));
        assert_eq!(game.moves().last(), Some(Move::Pass));
        assert_eq!(game.undo(), Some(sq("D2")));
        assert_eq!(game.to_move(), Some(Color::White));
        assert_eq!(game.moves().len(), 9);
    }

    #[test]
    fn a_listed_move_implies_a_pass_left_out() {
        let mut game = small(Passes::Explicit);
        for m in SAMPLE {
            game.play_listed(sq(m)).unwrap();
        }
        game.play_listed(sq("A3")).unwrap();
        assert_eq!(game.moves().nth(10), Some(Move::Pass));
        // A refused move after an implied pass leaves the game as it was.
        let before = game.moves().len();
        assert!(game.play_listed(sq("A3")).is_err());
        assert_eq!(game.moves().len(), before);
    }

    #[test]
    fn either_side_may_be_told_to_move() {
        let mut game = small(Passes::Explicit);
        let start = *game.position();
        let g = &game.rules().geometry;
        let white = game.rules().moves_for(start.white, start.black);
        let (legal, illegal) = (g.square(white.lowest().unwrap()), Square::new(0, 0));
        assert_eq!(
            game.try_play_as(Color::White, Move::Play(illegal)),
            Err(IllegalMove::FlanksNothing(illegal))
        );
        assert_eq!(game.position(), &start);
        game.try_play_as(Color::White, Move::Play(legal)).unwrap();
        assert_eq!(game.to_move(), Some(Color::Black));
        assert_eq!(
            game.record().next(),
            Some((Color::White, Move::Play(legal)))
        );
        game.undo();
        assert_eq!(game.position(), &start);
    }
}
