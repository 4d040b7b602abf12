//! `book show`: the book's moves at a position, best first, with their values and the games
//! learned below each.

use super::{Book, BookMove, Frame, Games, Level};
use crate::notation::PositionString;
use crate::rules::{Bits, Color, Game, Move, Passes, Rules};
use crate::start::BadPosition;
use crate::wording::{Counted, Signed};

/// What the book knows of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The position, as a position string.
    pub position: PositionString,
    /// Who is to move, if the game is not over.
    pub to_move: Option<Color>,
    /// The position's value, level and games, if it is in the book.
    pub known: Option<(i32, Level, Games)>,
    pub moves: Vec<BookMove>,
}

/// The book's knowledge of the position after `moves` from `from` (or from the book's start):
/// a position string of another board is a [`BadPosition`], as is a move that is not legal.
pub fn show(
    book: &Book,
    from: Option<&PositionString>,
    moves: &[Move],
) -> Result<Shown, BadPosition> {
    crate::with_bits!(book.header.shape, |B| show_in::<B>(book, from, moves))
}

fn show_in<B: Bits>(
    book: &Book,
    from: Option<&PositionString>,
    moves: &[Move],
) -> Result<Shown, BadPosition> {
    let header = &book.header;
    let rules =
        Rules::<B>::new(header.shape, header.variant).map_err(|e| BadPosition(e.to_string()))?;
    let frame = Frame::new(rules.clone());
    let start = match from {
        Some(p) if p.shape() != header.shape => {
            return Err(BadPosition(format!(
                "the position is on a {} board, the book on {}",
                p.shape(),
                header.shape
            )))
        }
        Some(p) => p.position::<B>(),
        None => book.start(&frame),
    };
    let mut game = Game::from_position(rules.clone(), start, Passes::Automatic);
    for (i, &m) in moves.iter().enumerate() {
        game.play_listed(m)
            .map_err(|e| BadPosition(format!("move {} ({m}): {e}", i + 1)))?;
    }
    let pos = *game.position();
    let known = book
        .find(&frame, &pos)
        .map(|(e, _)| (e.value as i32, e.level, e.games));
    Ok(Shown {
        position: PositionString::from_position(&rules.geometry, &pos),
        to_move: game.to_move(),
        known,
        moves: book.moves(&game),
    })
}

/// The position, its value, then a move a line: value, level, games, wins, draws, losses,
/// lines; the leaf marked as out of the book.
pub fn write_show(shown: &Shown, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    writeln!(out, "{}", shown.position)?;
    let Some(color) = shown.to_move else {
        return writeln!(out, "The game is over.");
    };
    let Some((value, level, games)) = shown.known else {
        return writeln!(
            out,
            "{} to move; the position is not in the book.",
            color.name()
        );
    };
    writeln!(
        out,
        "{} to move: {} ({level}); {}: {}, {}, {}; {}.",
        color.name(),
        Signed(value),
        Counted(games.games(), "game"),
        Counted(games.wins, "win"),
        Counted(games.draws, "draw"),
        Counted(games.losses, "loss"),
        Counted(games.lines, "line"),
    )?;
    writeln!(
        out,
        "{:<5} {:>6}  {:<9} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "move", "value", "level", "games", "wins", "draws", "losses", "lines"
    )?;
    for m in &shown.moves {
        let g = m.games;
        if m.linked {
            writeln!(
                out,
                "{:<5} {:>6}  {:<9} {:>7} {:>7} {:>7} {:>7} {:>7}",
                m.played.to_string(),
                Signed(m.value),
                m.level.to_string(),
                g.games(),
                g.wins,
                g.draws,
                g.losses,
                g.lines
            )?;
        } else {
            writeln!(
                out,
                "{:<5} {:>6}  {:<9} (best move out of the book)",
                m.played.to_string(),
                Signed(m.value),
                m.level.to_string(),
            )?;
        }
    }
    Ok(())
}
