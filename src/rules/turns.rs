//! A game in which a pass is a move the player makes, as in game records and on the wire,
//! rather than something the rules do for them.

use super::{Color, DynGame, IllegalMove, Played, Square};

/// Why a move or pass was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalTurn {
    #[error("{0} has no legal move and must pass")]
    MustPass(Color),
    #[error("{0} passed with legal moves to play")]
    Pass(Color),
    #[error("it is not {0}'s turn")]
    NotToMove(Color),
    #[error(transparent)]
    Move(#[from] IllegalMove),
}

/// A [`DynGame`] plus the pass its player to move may owe.
pub struct Turns {
    game: Box<dyn DynGame>,
    owes_pass: Option<Color>,
}

impl Turns {
    pub fn new(game: Box<dyn DynGame>) -> Turns {
        Turns {
            game,
            owes_pass: None,
        }
    }

    pub fn game(&self) -> &dyn DynGame {
        &*self.game
    }

    /// Who moves next, pass or not; `None` once the game is over.
    pub fn mover(&self) -> Option<Color> {
        self.owes_pass.or_else(|| self.game.to_move())
    }

    /// Whether the next move must be a pass.
    pub fn must_pass(&self) -> bool {
        self.owes_pass.is_some()
    }

    /// Plays `square`, or passes with `None`, for `color`.
    pub fn play(
        &mut self,
        color: Color,
        square: Option<Square>,
    ) -> Result<Option<Played>, IllegalTurn> {
        if self.mover() != Some(color) {
            return Err(match self.mover() {
                None => IllegalMove::GameOver.into(),
                Some(_) => IllegalTurn::NotToMove(color),
            });
        }
        match (self.owes_pass.is_some(), square) {
            (true, None) => {
                self.owes_pass = None;
                Ok(None)
            }
            (true, Some(_)) => Err(IllegalTurn::MustPass(color)),
            (false, None) => Err(IllegalTurn::Pass(color)),
            (false, Some(square)) => {
                let played = self.game.try_play(square)?;
                self.owes_pass = played.passed;
                Ok(Some(played))
            }
        }
    }

    /// Plays a listed move for whoever is to move; a pass the list leaves out is implied.
    pub fn play_listed(&mut self, square: Option<Square>) -> Result<Option<Played>, IllegalTurn> {
        if self.owes_pass.is_some() && square.is_some() {
            self.owes_pass = None;
        }
        let mover = self.mover().ok_or(IllegalMove::GameOver)?;
        self.play(mover, square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Setup;

    #[test]
    fn passes_are_moves() {
        // 4x4, seed 000's sample game: black has no move after white's D2 (move 10).
        let setup = Setup {
            rows: 4,
            cols: 4,
            ..Setup::default()
        };
        let mut turns = Turns::new(setup.new_game().unwrap());
        let sq = |s: &str| {
            let b = s.as_bytes();
            Some(Square::new(b[1] - b'1', b[0] - b'A'))
        };
        for m in ["B1", "A1", "C4", "D4", "D3", "B4", "A4", "C1", "D1", "D2"] {
            turns.play_listed(sq(m)).unwrap();
        }
        assert_eq!(turns.mover(), Some(Color::Black));
        assert!(turns.must_pass());
        assert_eq!(
            turns.play(Color::Black, sq("A3")),
            Err(IllegalTurn::MustPass(Color::Black))
        );
        assert_eq!(
            turns.play(Color::White, sq("A3")),
            Err(IllegalTurn::NotToMove(Color::White))
        );
        turns.play(Color::Black, None).unwrap();
        assert_eq!(
            turns.play(Color::White, None),
            Err(IllegalTurn::Pass(Color::White))
        );
        turns.play(Color::White, sq("A3")).unwrap();
        turns.play_listed(sq("A2")).unwrap();
        assert_eq!(turns.mover(), None);
        assert_eq!(turns.game().score(), (4, 12));
    }
}
