//! `othello engine`: one side of a seed 001 game. It writes its own moves as triples and reads
//! the opponent's, one per line; a pass is a move, written by the side that has no legal move.

use super::triple::{seed_letter, Triple, TripleError};
use crate::players::Player;
use crate::rules::{Color, DynGame, IllegalMove, IllegalTurn, Square, Turns};
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
    #[error("line {line}: {why}")]
    Unreadable {
        line: usize,
        why: crate::protocol::Unreadable,
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
    turns: Turns,
    me: Color,
    player: Box<dyn Player>,
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
        let mut turns = Turns::new(game);
        for (i, &square) in opening.iter().enumerate() {
            turns
                .play_listed(square)
                .map_err(|e| EngineError::Opening(format!("move {}: {}", i + 1, why(e))))?;
        }
        Ok(EngineSession {
            turns,
            me,
            player,
            lines: 0,
        })
    }

    pub fn game(&self) -> &dyn DynGame {
        self.turns.game()
    }

    /// The program's moves from here until it is the opponent's turn or the game is over.
    pub fn our_moves(&mut self) -> Vec<Triple> {
        let mut moves = Vec::new();
        while self.turns.mover() == Some(self.me) {
            let square = if self.turns.must_pass() {
                None
            } else {
                let Some(square) = self.player.choose(self.turns.game()) else {
                    break;
                };
                Some(square)
            };
            self.turns
                .play(self.me, square)
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
        match self.turns.mover() {
            None => return Err(illegal("the game is over".into())),
            Some(c) if c == self.me => return Err(illegal("it is this program's turn".into())),
            Some(_) => {}
        }
        let opponent = self.me.opposite();
        if triple.standard_color() != opponent {
            return Err(illegal(format!(
                "the opponent plays {}",
                seed_letter(opponent)
            )));
        }
        let square = triple.square_on(self.game().cols(), self.turns.must_pass());
        self.turns
            .play(opponent, square)
            .map(|_| ())
            .map_err(|e| illegal(why(e)))
    }

    pub fn is_over(&self) -> bool {
        self.turns.mover().is_none()
    }
}

/// What is wrong with a move, in seed 001's colour names.
fn why(e: IllegalTurn) -> String {
    match e {
        IllegalTurn::MustPass(c) => format!("{} has no legal move and must pass", seed_letter(c)),
        IllegalTurn::Pass(c) => format!("a pass while {} has legal moves", seed_letter(c)),
        IllegalTurn::NotToMove(c) => format!("it is not {}'s turn", seed_letter(c)),
        IllegalTurn::Move(IllegalMove::OffBoard(_)) => "the square is off the board".into(),
        IllegalTurn::Move(IllegalMove::Occupied(_)) => "the square is not empty".into(),
        IllegalTurn::Move(IllegalMove::FlanksNothing(_)) => {
            "the move traps no line of opponent discs".into()
        }
        IllegalTurn::Move(IllegalMove::TouchesNothing(_)) => {
            "the move touches no opponent disc".into()
        }
        IllegalTurn::Move(IllegalMove::GameOver) => "the game is over".into(),
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
    let mut reader = crate::protocol::LineReader::new(input);
    while let Some(line) = reader.next_line()? {
        let line = line.map_err(|why| EngineError::Unreadable {
            line: session.lines + 1,
            why,
        })?;
        session.receive(line)?;
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
