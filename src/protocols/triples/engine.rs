//! `othello engine`: one side of a tournament game. It writes its own moves as triples and reads
//! the opponent's, one per line; a pass is a move, written by the side that has no legal move.

use super::triple::{seed_letter, Triple, TripleError};
use crate::players::Player;
use crate::rules::{Bits, Color, Game, IllegalMove, Move};
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
        why: crate::lines::Unreadable,
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
/// program plays (see [`super::triple`] for how the tournament names it).
pub struct EngineSession<B> {
    game: Game<B>,
    me: Color,
    player: Box<dyn Player<B>>,
    lines: usize,
}

impl<B: Bits> EngineSession<B> {
    /// A session from the game's current position (explicit passes); `opening` moves are played
    /// first, by whichever side is to move, passes included in the list or implied. `started`
    /// is when the program started: a referee times a first move from then.
    pub fn new(
        mut game: Game<B>,
        me: Color,
        mut player: Box<dyn Player<B>>,
        opening: &[Move],
        started: std::time::Instant,
    ) -> Result<Self, EngineError> {
        for (i, &played) in opening.iter().enumerate() {
            game.play_listed(played)
                .map_err(|e| EngineError::Opening(format!("move {}: {}", i + 1, why(e))))?;
        }
        if game.to_move() == Some(me) {
            player.owed_since(started);
        }
        Ok(EngineSession {
            game,
            me,
            player,
            lines: 0,
        })
    }

    pub fn game(&self) -> &Game<B> {
        &self.game
    }

    /// The program's moves from here until it is the opponent's turn or the game is over.
    pub fn our_moves(&mut self) -> Vec<Triple> {
        let mut moves = Vec::new();
        while self.game.to_move() == Some(self.me) {
            let Some(played) = self.player.choose(&self.game) else {
                break;
            };
            if self.game.try_play(played).is_err() {
                // The player chooses among legal moves; never play on from a board in doubt.
                break;
            }
            moves.push(Triple::from_standard(self.me, played));
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
        match self.game.to_move() {
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
        let played = triple.move_on(self.game.shape().cols(), self.game.must_pass());
        self.game
            .try_play(played)
            .map(|_| ())
            .map_err(|e| illegal(why(e)))
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }
}

/// What is wrong with a move, in the tournament's colour names.
fn why(e: IllegalMove) -> String {
    match e {
        IllegalMove::MustPass(c) => format!("{} has no legal move and must pass", seed_letter(c)),
        IllegalMove::PassWithMoves(c) => format!("a pass while {} has legal moves", seed_letter(c)),
        IllegalMove::OffBoard(_) => "the square is off the board".into(),
        IllegalMove::Occupied(_) => "the square is not empty".into(),
        IllegalMove::FlanksNothing(_) => "the move traps no line of opponent discs".into(),
        IllegalMove::TouchesNothing(_) => "the move touches no opponent disc".into(),
        IllegalMove::GameOver => "the game is over".into(),
    }
}

/// Plays a whole game on `input`/`output`, flushing every move as it is written.
pub fn run<B: Bits>(
    mut session: EngineSession<B>,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<Ending, EngineError> {
    write_ours(&mut session, &mut output)?;
    if session.is_over() {
        return Ok(Ending::Finished);
    }
    let mut reader = crate::lines::LineReader::new(input);
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

fn write_ours<B: Bits>(session: &mut EngineSession<B>, output: &mut impl Write) -> io::Result<()> {
    for triple in session.our_moves() {
        writeln!(output, "{triple}")?;
        output.flush()?;
    }
    Ok(())
}
