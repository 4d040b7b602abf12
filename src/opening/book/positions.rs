//! The book itself: its positions, each kept once for all its images (`Frame`), their links,
//! leaves and values, the games learned below them, and the negamax that redoes the values.

use crate::rules::{Bits, Game, Move, Position, Rules, Shape, Variant};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// How far a value was looked at: a search of some depth, or to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// A search this many moves deep (Edax's "level").
    Depth(u8),
    /// Perfect play to the end of the game.
    Exact,
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Level::Depth(d) => write!(f, "depth {d}"),
            Level::Exact => f.write_str("exact"),
        }
    }
}

/// The learned games below a position, from its side to move's view: those that ended in a
/// known result (wins, draws, losses), and every line, finished or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Games {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub lines: u32,
}

impl Games {
    /// The same games from the other side's view.
    pub fn turned(self) -> Games {
        Games {
            wins: self.losses,
            losses: self.wins,
            ..self
        }
    }

    /// Games with a known result.
    pub fn games(self) -> u64 {
        self.wins as u64 + self.draws as u64 + self.losses as u64
    }

    fn add(&mut self, other: Games) {
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
        self.lines = self.lines.saturating_add(other.lines);
    }

    /// One line ending in an exact value `value` for the side to move (a result), or in a
    /// searched one (no result).
    fn line(value: i16, exact: bool) -> Games {
        let mut games = Games {
            lines: 1,
            ..Games::default()
        };
        if exact {
            match value.cmp(&0) {
                std::cmp::Ordering::Greater => games.wins = 1,
                std::cmp::Ordering::Equal => games.draws = 1,
                std::cmp::Ordering::Less => games.losses = 1,
            }
        }
        games
    }
}

/// A move to another position of the book, with its value for the side to move (the next
/// position's value, turned over unless the opponent had to pass), kept up to date by
/// [`Book::fix`]. The cell is in the frame of the position's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Link {
    pub cell: u16,
    pub value: i16,
}

/// The best move that leads out of the book, with its searched value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Leaf {
    pub cell: u16,
    pub value: i16,
    pub level: Level,
}

/// What the book holds of one position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BookPosition {
    /// In discs for the side to move: the best of the links and the leaf (a finished game:
    /// its margin).
    pub value: i16,
    /// The least of the levels the value rests on: exact only where every move is.
    pub level: Level,
    pub games: Games,
    pub links: Vec<Link>,
    pub leaf: Option<Leaf>,
}

impl BookPosition {
    /// A position known only by the search of its best move.
    pub fn from_leaf(leaf: Leaf) -> BookPosition {
        BookPosition {
            value: leaf.value,
            level: leaf.level,
            games: Games::line(leaf.value, leaf.level == Level::Exact),
            links: Vec::new(),
            leaf: Some(leaf),
        }
    }

    /// A finished game, worth `margin` to the side to move.
    pub fn finished(margin: i16) -> BookPosition {
        BookPosition {
            value: margin,
            level: Level::Exact,
            games: Games::line(margin, true),
            links: Vec::new(),
            leaf: None,
        }
    }

    pub(super) fn links_cell(&self, cell: u16) -> bool {
        self.links.iter().any(|l| l.cell == cell)
    }

    /// The cells of its links, as a set.
    pub(super) fn linked<B: Bits>(&self) -> B {
        cells_of(&self.links)
    }
}

/// The cells of `links`, as a set.
pub(super) fn cells_of<B: Bits>(links: &[Link]) -> B {
    links
        .iter()
        .fold(B::ZERO, |set, l| set | B::bit(l.cell as usize))
}

/// The game a book is for: its board, its rules and its start (as a key, see [`Frame::key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub shape: Shape,
    pub variant: Variant,
    /// The start: the discs of the side to move, then the other's, row by row.
    pub start: Vec<u8>,
    /// Who moves at the start.
    pub first: crate::rules::Color,
}

/// Why a book does not serve a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    #[error("the book is for a {book} board, the game is on {game}")]
    Board { book: Shape, game: Shape },
    #[error("the book is for {book}, the game is played under {game}")]
    Variant { book: Variant, game: Variant },
    #[error("the book starts from another position than the game")]
    Start,
}

/// A move of the book at a position, in the game's own frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub played: Move,
    /// In discs for the side to move.
    pub value: i32,
    pub level: Level,
    /// The learned games below the move, from the side to move's view (none for the leaf).
    pub games: Games,
    /// Whether the move leads to a position of the book (else it is the leaf: the best move
    /// out of the book).
    pub linked: bool,
}

/// An opening book for one board, variant and start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub(super) header: Header,
    pub(super) entries: HashMap<Box<[u8]>, BookPosition>,
    unused: UnusedNotice,
}

/// The file a book given by name was read from, so that a game it cannot serve says so once
/// rather than play without it in silence. Not part of what the book holds: any two are equal.
#[derive(Clone, Debug, Default)]
struct UnusedNotice(Option<Arc<(PathBuf, AtomicBool)>>);

impl PartialEq for UnusedNotice {
    fn eq(&self, _: &UnusedNotice) -> bool {
        true
    }
}

impl Eq for UnusedNotice {}

/// The board's frame: its rules, its symmetries (the identity first) and their inverses.
pub(crate) struct Frame<B> {
    pub rules: Rules<B>,
    pub(super) maps: Vec<Vec<usize>>,
    pub(super) inverses: Vec<Vec<usize>>,
    pub(super) bytes: usize,
}

impl<B: Bits> Frame<B> {
    pub fn new(rules: Rules<B>) -> Frame<B> {
        let cells = rules.geometry.cell_count();
        let mut maps = vec![(0..cells).collect::<Vec<usize>>()];
        maps.extend(rules.geometry.symmetries());
        let inverses = maps
            .iter()
            .map(|map| {
                let mut inverse = vec![0; cells];
                for (i, &to) in map.iter().enumerate() {
                    inverse[to] = i;
                }
                inverse
            })
            .collect();
        Frame {
            rules,
            maps,
            inverses,
            bytes: cells.div_ceil(8),
        }
    }

    /// The discs of the side to move, then the other side's, a bit a cell from the first
    /// byte's lowest bit.
    pub fn key(&self, pos: &Position<B>) -> Vec<u8> {
        let mut key = vec![0u8; 2 * self.bytes];
        for i in pos.mover().iter() {
            key[i / 8] |= 1 << (i % 8);
        }
        for i in pos.opponent().iter() {
            key[self.bytes + i / 8] |= 1 << (i % 8);
        }
        key
    }

    /// The position of a key, Black to move. `None` when it names a cell off the board or
    /// the same cell twice.
    pub fn position(&self, key: &[u8]) -> Option<Position<B>> {
        let cells = self.rules.geometry.cell_count();
        if key.len() != 2 * self.bytes {
            return None;
        }
        let set = |bytes: &[u8]| -> Option<B> {
            let mut set = B::ZERO;
            for (i, &byte) in bytes.iter().enumerate() {
                for bit in 0..8 {
                    if byte >> bit & 1 == 1 {
                        let cell = 8 * i + bit;
                        if cell >= cells {
                            return None;
                        }
                        set |= B::bit(cell);
                    }
                }
            }
            Some(set)
        };
        let (black, white) = (set(&key[..self.bytes])?, set(&key[self.bytes..])?);
        (black & white).is_empty().then_some(Position {
            black,
            white,
            to_move: crate::rules::Color::Black,
        })
    }

    /// The key of `pos` in the book (the smallest of its images') and the symmetry that
    /// takes `pos` there.
    pub fn canonical(&self, pos: &Position<B>) -> (Vec<u8>, usize) {
        let mut best = (self.key(pos), 0);
        for (s, map) in self.maps.iter().enumerate().skip(1) {
            let key = self.key(&pos.mapped(map));
            if key < best.0 {
                best = (key, s);
            }
        }
        best
    }

    /// A cell of the position's frame in the frame of its key (symmetry `s`), and back.
    pub fn key_cell(&self, s: usize, cell: usize) -> usize {
        self.maps[s][cell]
    }
    pub fn game_cell(&self, s: usize, cell: usize) -> usize {
        self.inverses[s][cell]
    }

    /// `pos` with the turn passed where its side to move has no move and the game goes on.
    pub fn settle(&self, pos: Position<B>) -> Position<B> {
        self.rules.settle(&pos)
    }

    /// The position after `cell`, settled, and whether the opponent had to pass.
    pub fn child(&self, pos: &Position<B>, cell: usize) -> (Position<B>, bool) {
        let next = self.rules.play_unchecked(pos, cell);
        let settled = self.settle(next);
        (settled, settled.to_move == pos.to_move)
    }

    /// The moves of `pos`, other than `cells`, whose positions after them are images under
    /// the board's symmetries of the position after one of `cells`: the same move seen another
    /// way (f5 and e6 from the standard start), which must not stand beside it as another.
    pub fn images_of(&self, pos: &Position<B>, cells: B) -> B {
        if cells.is_empty() {
            return B::ZERO;
        }
        let after = |m: usize| self.canonical(&self.child(pos, m).0).0;
        let keys: Vec<Vec<u8>> = cells.iter().map(after).collect();
        let others = self.rules.moves(pos) & !cells;
        others
            .iter()
            .filter(|&m| keys.contains(&after(m)))
            .fold(B::ZERO, |set, m| set | B::bit(m))
    }

    /// `leaf`, unless it is one of the moves `linked` or the image of one: such a leaf is
    /// that link again, never a move of its own, and waits for its search among the others.
    pub fn open_leaf(&self, pos: &Position<B>, leaf: Option<Leaf>, linked: B) -> Option<Leaf> {
        let taken = linked | self.images_of(pos, linked);
        leaf.filter(|l| !taken.contains(l.cell as usize))
    }

    /// The one move that stands for `cell` and its images (the moves whose positions are
    /// images of its position under the board's symmetries): the last of them in reading
    /// order, e6 of the four first moves of 8x8. So the move played from a book does not
    /// depend on which image a file keeps, or on the order it keeps them in.
    pub fn representative(&self, pos: &Position<B>, cell: usize) -> usize {
        let images = self.images_of(pos, B::bit(cell)) | B::bit(cell);
        images.iter().max().unwrap_or(cell)
    }

    /// The margin of a finished game for its side to move.
    pub fn margin(&self, pos: &Position<B>) -> i16 {
        self.rules.margin(pos, pos.to_move) as i16
    }
}

impl Book {
    /// An empty book for games on `rules` from `start`.
    pub fn new<B: Bits>(rules: &Rules<B>, start: &Position<B>) -> Book {
        let frame = Frame::new(rules.clone());
        Book {
            header: Header {
                shape: rules.shape(),
                variant: rules.variant,
                start: frame.key(start),
                first: start.to_move,
            },
            entries: HashMap::new(),
            unused: UnusedNotice::default(),
        }
    }

    /// The book read from `header` and `entries` (a file's).
    pub(crate) fn from_parts(header: Header, entries: HashMap<Box<[u8]>, BookPosition>) -> Book {
        Book {
            header,
            entries,
            unused: UnusedNotice::default(),
        }
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// From now on, the first game this book cannot serve (another board or rules) says so on
    /// stderr, in one line naming `path`, the file it was read from; later ones say nothing.
    pub fn say_when_unused(&mut self, path: &Path) {
        self.unused = UnusedNotice(Some(Arc::new((path.to_path_buf(), AtomicBool::new(false)))));
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every position's key and entry, in no order.
    pub fn entries(&self) -> impl Iterator<Item = (&[u8], &BookPosition)> {
        self.entries.iter().map(|(k, e)| (&k[..], e))
    }

    /// The entry of a key, in the book's frame.
    pub fn entry(&self, key: &[u8]) -> Option<&BookPosition> {
        self.entries.get(key)
    }

    /// Adds (or replaces) the entry of a key.
    pub fn insert(&mut self, key: Vec<u8>, entry: BookPosition) {
        self.entries.insert(key.into_boxed_slice(), entry);
    }

    pub(crate) fn entry_mut(&mut self, key: &[u8]) -> Option<&mut BookPosition> {
        self.entries.get_mut(key)
    }

    /// The start position of the book's games, in `B`.
    pub(crate) fn start<B: Bits>(&self, frame: &Frame<B>) -> Position<B> {
        let mut pos = frame
            .position(&self.header.start)
            .expect("a book's start is checked when it is made or read");
        if self.header.first == crate::rules::Color::White {
            pos = Position {
                black: pos.white,
                white: pos.black,
                to_move: crate::rules::Color::White,
            };
        }
        pos
    }

    /// Whether the book serves games of `rules` from `start`: the same board and variant,
    /// and the same start up to the board's symmetries and the colours.
    pub fn check<B: Bits>(&self, rules: &Rules<B>, start: &Position<B>) -> Result<(), Mismatch> {
        if rules.shape() != self.header.shape {
            return Err(Mismatch::Board {
                book: self.header.shape,
                game: rules.shape(),
            });
        }
        if rules.variant != self.header.variant {
            return Err(Mismatch::Variant {
                book: self.header.variant,
                game: rules.variant,
            });
        }
        let frame = Frame::new(rules.clone());
        if frame.canonical(start).0 != frame.canonical(&self.start(&frame)).0 {
            return Err(Mismatch::Start);
        }
        Ok(())
    }

    /// An empty book for games from a command's start.
    pub fn for_start(start: &crate::start::Start) -> Result<Book, crate::rules::ShapeError> {
        crate::with_bits!(start.shape(), |B| {
            let (rules, position) = start.rules_and_position::<B>()?;
            Ok(Book::new(&rules, &position))
        })
    }

    /// [`Book::check`] for a command's start.
    pub fn check_start(&self, start: &crate::start::Start) -> Result<(), Mismatch> {
        crate::with_bits!(start.shape(), |B| {
            match start.rules_and_position::<B>() {
                Ok((rules, position)) => self.check(&rules, &position),
                Err(_) => Err(Mismatch::Board {
                    book: self.header.shape,
                    game: start.shape(),
                }),
            }
        })
    }

    /// [`Book::check`] for a game: its rules and its start.
    pub fn check_game<B: Bits>(&self, game: &Game<B>) -> Result<(), Mismatch> {
        self.check(game.rules(), game.start())
    }

    /// The entry of `pos` and the symmetry that takes `pos` to the entry's frame.
    pub(crate) fn find<B: Bits>(
        &self,
        frame: &Frame<B>,
        pos: &Position<B>,
    ) -> Option<(&BookPosition, usize)> {
        let (key, s) = frame.canonical(pos);
        self.entries.get(&key[..]).map(|e| (e, s))
    }

    /// The book's moves at the game's position, best first (by value, then exact before
    /// searched, then linked before the leaf), in the game's frame. None where the position
    /// is not in the book, the game is over, it is for another board or variant, or the
    /// side to move must pass.
    pub fn moves<B: Bits>(&self, game: &Game<B>) -> Vec<BookMove> {
        let mismatch = if game.shape() != self.header.shape {
            Some(Mismatch::Board {
                book: self.header.shape,
                game: game.shape(),
            })
        } else if game.variant() != self.header.variant {
            Some(Mismatch::Variant {
                book: self.header.variant,
                game: game.variant(),
            })
        } else {
            None
        };
        if let (Some(why), Some(notice)) = (&mismatch, &self.unused.0) {
            let (path, said) = &**notice;
            if !said.swap(true, Relaxed) {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "othello: {}: not used: {why}",
                    path.display()
                );
            }
        }
        if mismatch.is_some() || game.is_over() || game.legal_moves().is_empty() {
            return Vec::new();
        }
        let frame = Frame::new(game.rules().clone());
        self.moves_at(&frame, game.position())
    }

    /// [`Book::moves`], the move that stands for `played` and its images (see
    /// [`Frame::representative`]) named `played`: a review shows the move as the game played
    /// it.
    pub fn moves_naming<B: Bits>(&self, game: &Game<B>, played: Move) -> Vec<BookMove> {
        let mut moves = self.moves(game);
        let geometry = &game.rules().geometry;
        let square = match played {
            Move::Play(square) => Some(square),
            Move::Pass => None,
        };
        if let Some(cell) = square.and_then(|sq| geometry.index(sq)) {
            let frame = Frame::new(game.rules().clone());
            let stands = frame.representative(game.position(), cell);
            let stands = Move::Play(geometry.square(stands));
            for m in moves.iter_mut().filter(|m| m.played == stands) {
                m.played = played;
            }
        }
        moves
    }

    /// [`Book::moves`] at a position whose side to move has a move.
    pub(crate) fn moves_at<B: Bits>(&self, frame: &Frame<B>, pos: &Position<B>) -> Vec<BookMove> {
        let Some((entry, s)) = self.find(frame, pos) else {
            return Vec::new();
        };
        // A move in the entry's frame, played as its representative in the game's.
        let square = |cell: u16| {
            let here = frame.representative(pos, frame.game_cell(s, cell as usize));
            Move::Play(frame.rules.geometry.square(here))
        };
        // The children are looked up in the entry's own frame.
        let keyed = frame.settle(pos.mapped(&frame.maps[s]));
        let mut moves: Vec<BookMove> = entry
            .links
            .iter()
            .map(|link| {
                let (child, passed) = frame.child(&keyed, link.cell as usize);
                let (level, games) = match self.find(frame, &child) {
                    Some((c, _)) if passed => (c.level, c.games),
                    Some((c, _)) => (c.level, c.games.turned()),
                    None => (Level::Depth(0), Games::default()),
                };
                BookMove {
                    played: square(link.cell),
                    value: link.value as i32,
                    level,
                    games,
                    linked: true,
                }
            })
            .collect();
        if let Some(leaf) = frame.open_leaf(&keyed, entry.leaf, entry.linked()) {
            moves.push(BookMove {
                played: square(leaf.cell),
                value: leaf.value as i32,
                level: leaf.level,
                games: Games::default(),
                linked: false,
            });
        }
        // Equal moves in the order of their cells in the entry's frame, as `fix` keeps links,
        // whatever the order of the file; two links that are images of one another are one.
        let cell = |m: &BookMove| match m.played {
            Move::Play(square) => frame
                .rules
                .geometry
                .index(square)
                .map_or(usize::MAX, |c| frame.key_cell(s, c)),
            Move::Pass => usize::MAX,
        };
        moves.sort_by(|a, b| {
            b.value
                .cmp(&a.value)
                .then(b.level.cmp(&a.level))
                .then(b.linked.cmp(&a.linked))
                .then(cell(a).cmp(&cell(b)))
        });
        let mut seen = Vec::new();
        moves.retain(|m| {
            let fresh = !seen.contains(&m.played);
            seen.push(m.played);
            fresh
        });
        moves
    }

    /// Redoes the negamax over the whole book: each position's value is the best of its
    /// leaf and its links, each link worth its position's value; levels and games come up
    /// the same way. Links to positions missing from the book are dropped, and links to
    /// images of one position but the first. Returns how many positions changed.
    pub fn fix(&mut self) -> usize {
        crate::with_bits!(self.header.shape, |B| {
            match Rules::<B>::new(self.header.shape, self.header.variant) {
                Ok(rules) => self.fix_in(&Frame::new(rules)),
                Err(_) => 0,
            }
        })
    }

    pub(crate) fn fix_in<B: Bits>(&mut self, frame: &Frame<B>) -> usize {
        // Every move adds a disc (a pass is part of the move before it), so positions with
        // more discs come first and every child is done before its parents.
        let mut keys: Vec<Box<[u8]>> = self.entries.keys().cloned().collect();
        let discs = |k: &[u8]| k.iter().map(|b| b.count_ones()).sum::<u32>();
        keys.sort_by(|a, b| discs(b).cmp(&discs(a)).then(a.cmp(b)));
        let mut changed = 0;
        for key in keys {
            let Some(pos) = frame.position(&key) else {
                continue;
            };
            let mut entry = self.entries[&key].clone();
            if frame.rules.is_over(&pos) {
                entry = BookPosition::finished(frame.margin(&pos));
            } else {
                let mut best: Option<i16> = None;
                let mut level = Level::Exact;
                let mut games = Games::default();
                // A leaf that has become a link, or is the image of one, waits for its search
                // again: not counted twice.
                if let Some(leaf) = frame.open_leaf(&pos, entry.leaf, entry.linked()) {
                    best = Some(leaf.value);
                    level = leaf.level;
                    games = Games::line(leaf.value, leaf.level == Level::Exact);
                }
                // Links whose positions are images of one another are one move: the first is
                // kept (an older book may hold them all).
                let mut reached: Vec<Vec<u8>> = Vec::new();
                entry.links.sort_by_key(|l| l.cell);
                entry.links.retain_mut(|link| {
                    let (child, passed) = frame.child(&pos, link.cell as usize);
                    let child_key = frame.canonical(&child).0;
                    if reached.contains(&child_key) {
                        return false;
                    }
                    let Some(c) = self.entries.get(&child_key[..]) else {
                        return false;
                    };
                    reached.push(child_key);
                    link.value = if passed { c.value } else { -c.value };
                    best = Some(best.map_or(link.value, |b| b.max(link.value)));
                    level = level.min(c.level);
                    games.add(if passed { c.games } else { c.games.turned() });
                    true
                });
                entry
                    .links
                    .sort_by(|a, b| b.value.cmp(&a.value).then(a.cell.cmp(&b.cell)));
                if let Some(best) = best {
                    entry.value = best;
                    entry.level = level;
                }
                entry.games = games;
            }
            if entry != self.entries[&key] {
                changed += 1;
                self.entries.insert(key, entry);
            }
        }
        changed
    }
}

/// Adds the link `cell` to the entry of `key` unless it, or an image of it, is there: true
/// when the entry's leaf was that move, which must then be searched again among the moves
/// left.
pub(crate) fn add_link<B: Bits>(book: &mut Book, frame: &Frame<B>, key: &[u8], cell: u16) -> bool {
    let Some(pos) = frame.position(key) else {
        return false;
    };
    let Some(entry) = book.entry_mut(key) else {
        return false;
    };
    let linked = entry.linked::<B>();
    if !entry.links_cell(cell) && !frame.images_of(&pos, linked).contains(cell as usize) {
        let value = entry.leaf.filter(|l| l.cell == cell).map_or(0, |l| l.value);
        entry.links.push(Link { cell, value });
    }
    entry.leaf.is_some_and(|l| l.cell == cell)
}
