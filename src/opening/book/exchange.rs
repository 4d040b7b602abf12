//! Our book to Edax's and back (`othello book export` / `import`). Edax knows 8x8 under the
//! standard rules only. Both keep a position once for its symmetries, each in its own chosen
//! orientation, so every position and its moves are turned from one orientation to the other.
//! Edax keeps a position whose side must pass, linked by a pass; ours skips over the pass.

use super::edax::{self, EdaxBook, EdaxLink, EdaxOptions, EdaxPosition, NO_MOVE, PASS};
use super::{Book, BookPosition, Frame, Games, Leaf, Level, Link};
use crate::rules::{Bits, Color, Position, Rules, Shape, Variant};
use std::collections::HashMap;

/// The level Edax is given for an exact value: deeper than any position of 8x8 has empties.
const EXACT_LEVEL: u8 = 60;

/// Why a book cannot go to Edax, or come from it.
#[derive(Debug, thiserror::Error)]
pub enum ExchangeError {
    #[error("Edax's books are for 8x8 under the standard rules, not {0}")]
    Board(String),
    #[error("{0}")]
    Edax(#[from] edax::EdaxError),
}

fn standard() -> Rules<u64> {
    Rules::new(Shape::STANDARD, Variant::default()).expect("8x8 fits in 64 bits")
}

/// The two halves of an 8x8 key: a cell a bit, cell 0 the lowest (Edax's numbering too).
fn words(key: &[u8]) -> (u64, u64) {
    let word = |b: &[u8]| b.iter().rev().fold(0u64, |w, &byte| w << 8 | byte as u64);
    (word(&key[..8]), word(&key[8..16]))
}

/// Edax's level byte for a level of ours.
fn edax_level(level: Level) -> u8 {
    match level {
        Level::Exact => EXACT_LEVEL,
        Level::Depth(d) => d,
    }
}

/// The bounds Edax keeps on a value: where the truth may lie given the error of the searches
/// below it.
type Bounds = (i16, i16);

/// The bounds of every position, as Edax's negamax gives them, so that Edax reads them as
/// its own without a `book fix`: a solved leaf is its value; a searched one its value give
/// or take `midgame_error`, less the bias of an odd depth against the parity of the empty
/// cells; a link takes its position's bounds, turned over; a position the greatest of its
/// moves' lower bounds and of their upper ones.
fn negamax_bounds(
    book: &Book,
    frame: &Frame<u64>,
    options: &EdaxOptions,
) -> HashMap<Vec<u8>, Bounds> {
    let mut keys: Vec<&[u8]> = book.entries().map(|(k, _)| k).collect();
    let discs = |k: &[u8]| k.iter().map(|b| b.count_ones()).sum::<u32>();
    // Every move adds a disc: children come first.
    keys.sort_by(|a, b| discs(b).cmp(&discs(a)).then(a.cmp(b)));
    let clamp = |v: i32| v.clamp(-64, 64) as i16;
    let mut bounds: HashMap<Vec<u8>, Bounds> = HashMap::new();
    for key in keys {
        let (Some(pos), Some(entry)) = (frame.position(key), book.entry(key)) else {
            continue;
        };
        if frame.rules.is_over(&pos) {
            bounds.insert(key.to_vec(), (entry.value, entry.value));
            continue;
        }
        let mut best: Option<Bounds> = None;
        let mut raise = |(lo, hi): Bounds| {
            best = Some(best.map_or((lo, hi), |(l, h)| (l.max(lo), h.max(hi))));
        };
        if let Some(leaf) = frame.open_leaf(&pos, entry.leaf, entry.linked()) {
            let v = leaf.value as i32;
            match leaf.level {
                Level::Exact => raise((leaf.value, leaf.value)),
                Level::Depth(d) => {
                    let empties = frame.rules.empty(&pos).count() as i32;
                    let bias = (d as i32 & 1) - (empties & 1);
                    let error = options.midgame_error;
                    raise((clamp(v - error - bias), clamp(v + error - bias)));
                }
            }
        }
        for link in &entry.links {
            let (child, passed) = frame.child(&pos, link.cell as usize);
            if let Some(&(lo, hi)) = bounds.get(&frame.canonical(&child).0) {
                raise(if passed { (lo, hi) } else { (-hi, -lo) });
            }
        }
        let unknown = (-edax::SCORE_INF, edax::SCORE_INF);
        bounds.insert(key.to_vec(), best.unwrap_or(unknown));
    }
    bounds
}

impl Book {
    /// This book as Edax's: every position in Edax's orientation, games and values as they
    /// are, and a position of its own for each side that must pass after a link.
    pub fn to_edax(&self) -> Result<EdaxBook, ExchangeError> {
        if self.header.shape != Shape::STANDARD || self.header.variant != Variant::default() {
            let h = &self.header;
            return Err(ExchangeError::Board(format!(
                "{} with {}",
                h.shape, h.variant
            )));
        }
        let frame = Frame::new(standard());
        let rules = &frame.rules;
        let options = EdaxOptions::default();
        let bounds = negamax_bounds(self, &frame, &options);
        let unknown = (-edax::SCORE_INF, edax::SCORE_INF);
        let mut out: HashMap<(u64, u64), EdaxPosition> = HashMap::new();
        for (key, entry) in self.entries() {
            let (player, opponent) = words(key);
            let Some(pos) = frame.position(key) else {
                continue;
            };
            let mut p = EdaxPosition::new(player, opponent);
            (p.wins, p.draws, p.losses, p.lines) = (
                entry.games.wins,
                entry.games.draws,
                entry.games.losses,
                entry.games.lines,
            );
            p.value = entry.value;
            p.level = edax_level(entry.level);
            (p.lower, p.upper) = bounds.get(key).copied().unwrap_or(unknown);
            for link in &entry.links {
                let square = link.cell as u8;
                p.links.push(EdaxLink {
                    score: link.value.clamp(-64, 64) as i8,
                    square,
                });
                // After this move the opponent must pass: Edax keeps that position, linked
                // to ours by the pass.
                let flips = rules.flips_for(square as usize, player, opponent);
                let (np, no) = (opponent & !flips, player | flips | 1 << square);
                if rules.moves_for(np, no) == 0 && rules.moves_for(no, np) != 0 {
                    let mut passing = EdaxPosition::new(np, no);
                    passing.value = -link.value;
                    passing.level = p.level;
                    let child = frame.canonical(&frame.child(&pos, square as usize).0).0;
                    let (lo, hi) = bounds.get(&child).copied().unwrap_or(unknown);
                    (passing.lower, passing.upper) = (-hi, -lo);
                    passing.links.push(EdaxLink {
                        score: (-link.value).clamp(-64, 64) as i8,
                        square: PASS,
                    });
                    let passing = passing.unique();
                    out.insert((passing.player, passing.opponent), passing);
                }
            }
            if let Some(leaf) = entry.leaf {
                p.leaf = EdaxLink {
                    score: leaf.value.clamp(-64, 64) as i8,
                    square: leaf.cell as u8,
                };
            }
            let p = p.unique();
            out.insert((p.player, p.opponent), p);
        }
        let mut book = EdaxBook::new(options);
        book.positions = out.into_values().collect();
        book.positions.sort_by_key(|p| (p.player, p.opponent));
        book.check()?;
        Ok(book)
    }

    /// Edax's book as ours, for 8x8 from the standard start. Positions whose side must pass
    /// while the game goes on are left out: ours skips over them.
    pub fn from_edax(edax: &EdaxBook) -> Result<Book, ExchangeError> {
        edax.check()?;
        let frame = Frame::new(standard());
        let start = frame.rules.start(Color::Black, Color::White);
        let mut book = Book::new(&frame.rules, &start);
        for p in &edax.positions {
            let rules = &frame.rules;
            if rules.moves_for(p.player, p.opponent) == 0
                && rules.moves_for(p.opponent, p.player) != 0
            {
                continue;
            }
            let pos: Position<u64> = edax::position_from_board(p.player, p.opponent, Color::Black);
            let (key, s) = frame.canonical(&pos);
            let cell = |square: u8| frame.key_cell(s, square as usize) as u16;
            // Edax's bounds meet at the value where it is exact, and where the errors of the
            // searches below cannot move it: only a search to the end (its level reaching the
            // empty cells) is exact.
            let empties = 64 - (p.player | p.opponent).count_ones();
            let exact = p.lower == p.value && p.upper == p.value && u32::from(p.level) >= empties;
            let level = if exact {
                Level::Exact
            } else {
                Level::Depth(p.level)
            };
            let leaf = (p.leaf.square != NO_MOVE && p.leaf.square != PASS).then(|| Leaf {
                cell: cell(p.leaf.square),
                value: p.leaf.score as i16,
                level,
            });
            let links = p
                .links
                .iter()
                .filter(|l| l.square != PASS)
                .map(|l| Link {
                    cell: cell(l.square),
                    value: l.score as i16,
                })
                .collect();
            let games = Games {
                wins: p.wins,
                draws: p.draws,
                losses: p.losses,
                lines: p.lines,
            };
            book.insert(
                key,
                BookPosition {
                    value: p.value,
                    level,
                    games,
                    links,
                    leaf,
                },
            );
        }
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::Interrupt;
    use crate::progress::Progress;
    use crate::search::{Config, Evaluation};
    use std::time::Duration;

    /// An 8x8 book learned at a tiny depth, every move within 4 discs explored for 4 plies.
    fn learned() -> Book {
        let rules = standard();
        let mut book = Book::new(&rules, &rules.start(Color::Black, Color::White));
        let options = super::super::LearnOptions {
            deviation: 4,
            margin: 4,
            exact_empties: 0,
            games: None,
            threads: 1,
            search: Config::to_depth(2)
                .with_hash_mb(1)
                .with_eval(Evaluation::Classic),
            save_every: Duration::from_secs(3600),
        };
        let (interrupt, progress) = (Interrupt::default(), Progress::hidden());
        super::super::learn(&mut book, &[], &options, &interrupt, &progress, &mut |_| {
            Ok(())
        })
        .unwrap();
        book
    }

    fn sorted(mut entry: BookPosition) -> BookPosition {
        entry.links.sort_by_key(|l| l.cell);
        entry
    }

    #[test]
    fn a_book_goes_to_edax_and_back_unchanged() {
        let book = learned();
        assert!(book.len() > 20, "{} positions", book.len());
        let edax = book.to_edax().unwrap();
        let bytes = edax::write(&edax);
        let back = Book::from_edax(&edax::read(&bytes).unwrap()).unwrap();
        assert_eq!(back.len(), book.len());
        let frame = Frame::new(standard());
        for (key, entry) in book.entries() {
            let got = back.entry(key).expect("every position comes back");
            // A position that is its own image under a symmetry may come back with its leaf
            // and links on the images of their cells: the same moves, to the same positions.
            let reached = |leaf: Option<Leaf>| {
                leaf.map(|l| {
                    let pos = frame.position(key).unwrap();
                    let child = frame.child(&pos, l.cell as usize).0;
                    (frame.canonical(&child).0, l.value, l.level)
                })
            };
            assert_eq!(reached(got.leaf), reached(entry.leaf));
            // Links likewise: each by the position it reaches and its value.
            let links = |e: &BookPosition| {
                let pos = frame.position(key).unwrap();
                let mut reached: Vec<_> = e
                    .links
                    .iter()
                    .map(|l| {
                        let child = frame.child(&pos, l.cell as usize).0;
                        (frame.canonical(&child).0, l.value)
                    })
                    .collect();
                reached.sort();
                reached
            };
            assert_eq!(links(got), links(entry));
            let bare = |e: &BookPosition| {
                sorted(BookPosition {
                    leaf: None,
                    links: Vec::new(),
                    ..e.clone()
                })
            };
            assert_eq!(bare(got), bare(entry));
        }
        // The engine plays the same moves from the book that comes back, in the same order,
        // at the start (its four first moves one, whichever image Edax kept) and after each
        // first move and reply.
        let game = crate::rules::Game::from_position(
            standard(),
            standard().start(Color::Black, Color::White),
            crate::rules::Passes::Automatic,
        );
        let played = |b: &Book, g: &crate::rules::Game<u64>| {
            b.moves(g).iter().map(|m| m.played).collect::<Vec<_>>()
        };
        assert_eq!(played(&back, &game), played(&book, &game));
        for first in game.legal_moves().iter() {
            let mut g = game.clone();
            g.try_play(crate::rules::Move::Play(frame.rules.geometry.square(first)))
                .unwrap();
            assert_eq!(played(&back, &g), played(&book, &g));
            for reply in g.legal_moves().iter() {
                let mut h = g.clone();
                h.try_play(crate::rules::Move::Play(frame.rules.geometry.square(reply)))
                    .unwrap();
                assert_eq!(played(&back, &h), played(&book, &h));
            }
        }
        // Edax finds each position in its own orientation, with the same value.
        let start = edax::position_from_board::<u64>(
            0x0000_0008_1000_0000,
            0x0000_0010_0800_0000,
            Color::Black,
        );
        let (root, _) = Frame::new(standard()).canonical(&start);
        let (p, _) = edax
            .probe(0x0000_0008_1000_0000, 0x0000_0010_0800_0000)
            .unwrap();
        assert_eq!(p.value, book.entry(&root).unwrap().value);
    }

    #[test]
    fn only_an_8x8_book_of_the_standard_rules_goes_to_edax() {
        let rules = Rules::<u64>::new(Shape::square(6).unwrap(), Variant::default()).unwrap();
        let book = Book::new(&rules, &rules.start(Color::Black, Color::White));
        let e = book.to_edax().unwrap_err();
        assert!(e.to_string().contains("8x8"), "{e}");
    }
}
