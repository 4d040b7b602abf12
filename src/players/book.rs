//! The opening book at the engine's side: where the book has the position, its move is played
//! without a search.

use crate::opening::book::{Book, BookMove};
use crate::random::splitmix;
use crate::rules::{Bits, Game};
use std::sync::Arc;

/// A book and how freely the engine plays from it.
#[derive(Clone, Debug)]
pub struct BookUse {
    book: Arc<Book>,
    /// Moves within this many discs of the book's best may be played; 0 plays the best.
    margin: u32,
    /// The state of the draws among the moves within the margin.
    rng: u64,
}

/// The same book (the one read, not an equal copy) and margin; the draws' state aside.
impl PartialEq for BookUse {
    fn eq(&self, other: &BookUse) -> bool {
        Arc::ptr_eq(&self.book, &other.book) && self.margin == other.margin
    }
}

impl Eq for BookUse {}

impl BookUse {
    pub fn new(book: Arc<Book>, margin: u32, seed: u64) -> BookUse {
        BookUse {
            book,
            margin,
            rng: seed,
        }
    }

    /// The book itself.
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// The book itself, shared.
    pub fn shared(&self) -> Arc<Book> {
        Arc::clone(&self.book)
    }

    /// The book's move at the game's position, `None` where the book has none. With margin 0
    /// the best (the first of equal ones, so that play repeats); otherwise drawn evenly among
    /// the moves within the margin of the best.
    pub fn choose<B: Bits>(&mut self, game: &Game<B>) -> Option<BookMove> {
        let moves: Vec<BookMove> = self
            .book
            .moves(game)
            .into_iter()
            .filter(|m| game.check(m.played).is_ok())
            .collect();
        let best = moves.first()?.value;
        let near = moves
            .iter()
            .take_while(|m| m.value >= best - self.margin as i32)
            .count();
        let i = if self.margin == 0 {
            0
        } else {
            (splitmix(&mut self.rng) % near as u64) as usize
        };
        Some(moves[i])
    }
}
