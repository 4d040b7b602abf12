//! `othello engine`: one side of a seed 001 game. It writes its own moves as triples and reads
//! the opponent's, one per line; a pass is a move, written by the side that has no legal move.

use super::triple::{Triple, TripleError};
use crate::players::Player;
use crate::rules::{Color, DynGame, IllegalMove, Square};
use std::io::{self, BufRead, Write};

/// Why the engine stopped trusting the game: the opponent's line, and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("line {line}: {text:?} is not a move: {source}")]
    Malformed {
        line: usize,
        text: String,
        source: TripleError,
    },
    #[error("line {line}: {text} is not the opponent's move: {why}")]
    Illegal {
        line: usize,
        text: String,
        why: String,
    },
    #[error("the opening: {0}")]
    Opening(String),
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// How a session ended without an error.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    Finished,
    InputEnded,
}

/// A game between this program and an opponent on the wire. `me` is the standard colour the
/// program plays (see [`super::triple`] for how seed 001 names it).
pub struct EngineSession {
    game: Box<dyn DynGame>,
    me: Color,
    player: Box<dyn Player>,
    /// The side that has no legal move and owes a pass on the wire.
    owes_pass: Option<Color>,
    lines: usize,
}

impl EngineSession {
    /// A session from the game's current position; `opening` moves are played first (by
    /// whichever side is to move, passes included in the list or implied).
    pub fn new(
        game: Box<dyn DynGame>,
        me: Color,
        player: Box<dyn Player>,
        opening: &[Option<Square>],
    ) -> Result<EngineSession, EngineError> {
        let mut session = EngineSession {
            game,
            me,
            player,
            owes_pass: None,
            lines: 0,
        };
        for (i, &square) in opening.iter().enumerate() {
            let mover = session.mover().ok_or_else(|| {
                EngineError::Opening(format!("move {} comes after the game ended", i + 1))
            })?;
            // A pass the list leaves out is implied.
            if session.owes_pass == Some(mover) && square.is_some() {
                session.owes_pass = None;
            }
            let mover = session.mover().unwrap_or(mover);
            session
                .apply(mover, square)
                .map_err(|why| EngineError::Opening(format!("move {}: {why}", i + 1)))?;
        }
        Ok(session)
    }

    /// The side whose move is next on the wire, pass or not; `None` once the game is over.
    pub fn mover(&self) -> Option<Color> {
        self.owes_pass.or_else(|| self.game.to_move())
    }

    pub fn game(&self) -> &dyn DynGame {
        &*self.game
    }

    /// Plays `square` (or a pass) for `mover`, who must be the side to move.
    fn apply(&mut self, mover: Color, square: Option<Square>) -> Result<(), String> {
        let name = |c: Color| Triple::from_standard(c, None).color;
        match (self.owes_pass == Some(mover), square) {
            (true, None) => {
                self.owes_pass = None;
                Ok(())
            }
            (true, Some(_)) => Err(format!(
                "{} has no legal move and must pass",
                color_letter(name(mover))
            )),
            (false, None) => Err(format!(
                "a pass while {} has legal moves",
                color_letter(name(mover))
            )),
            (false, Some(square)) => {
                let played = self.game.try_play(square).map_err(|e| match e {
                    IllegalMove::OffBoard(_) => "the square is off the board".to_string(),
                    IllegalMove::Occupied(_) => "the square is not empty".to_string(),
                    IllegalMove::FlanksNothing(_) => {
                        "the move traps no line of opponent discs".to_string()
                    }
                    IllegalMove::TouchesNothing(_) => {
                        "the move touches no opponent disc".to_string()
                    }
                    IllegalMove::GameOver => "the game is over".to_string(),
                })?;
                self.owes_pass = played.passed;
                Ok(())
            }
        }
    }

    /// The program's moves from here until it is the opponent's turn or the game is over.
    pub fn our_moves(&mut self) -> Vec<Triple> {
        let mut moves = Vec::new();
        while self.mover() == Some(self.me) {
            let square = if self.owes_pass.is_some() {
                None
            } else {
                let Some(square) = self.player.choose(&*self.game) else {
                    break;
                };
                Some(square)
            };
            self.apply(self.me, square)
                .expect("the player chooses among legal moves");
            moves.push(Triple::from_standard(self.me, square));
        }
        moves
    }

    /// Reads one line from the opponent. Blank lines are skipped.
    pub fn receive(&mut self, text: &str) -> Result<(), EngineError> {
        self.lines += 1;
        let line = self.lines;
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        let triple: Triple = text.parse().map_err(|source| EngineError::Malformed {
            line,
            text: text.to_string(),
            source,
        })?;
        let illegal = |why: String| EngineError::Illegal {
            line,
            text: text.to_string(),
            why,
        };
        let opponent = self.me.opposite();
        match self.mover() {
            None => return Err(illegal("the game is over".into())),
            Some(c) if c == self.me => return Err(illegal("it is the program's turn".into())),
            Some(_) => {}
        }
        if triple.standard_color() != opponent {
            return Err(illegal(format!(
                "the opponent plays {}",
                color_letter(opponent.opposite())
            )));
        }
        let square = triple.square_on(self.game.cols(), self.owes_pass.is_some());
        self.apply(opponent, square).map_err(illegal)
    }

    pub fn is_over(&self) -> bool {
        self.mover().is_none()
    }
}

fn color_letter(seed_color: Color) -> char {
    match seed_color {
        Color::White => 'W',
        Color::Black => 'B',
    }
}

/// Plays a whole game on `input`/`output`, flushing every move as it is written.
pub fn run(
    mut session: EngineSession,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<Ending, EngineError> {
    write_ours(&mut session, &mut output)?;
    if session.is_over() {
        return Ok(Ending::Finished);
    }
    for line in input.lines() {
        session.receive(&line?)?;
        write_ours(&mut session, &mut output)?;
        if session.is_over() {
            return Ok(Ending::Finished);
        }
    }
    Ok(Ending::InputEnded)
}

fn write_ours(session: &mut EngineSession, output: &mut impl Write) -> io::Result<()> {
    for triple in session.our_moves() {
        writeln!(output, "{triple}")?;
        output.flush()?;
    }
    Ok(())
}
