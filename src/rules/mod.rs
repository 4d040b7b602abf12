//! The game itself: board shapes, discs, variants, legal moves, flips, passes, the end and the winner.
//!
//! [`Rules`] holds what does not change during a game (shape and variant) and answers questions
//! about a [`Position`] without checking them; [`Game`] is the checked layer on top that refuses
//! illegal moves and passes automatically.

mod bits;
mod game;
mod geometry;
mod kernel;
mod perft;
mod shape;
mod simd;

pub use bits::{BitIter, Bits, Words};
pub use game::{Game, IllegalMove, Passes, Played, Setup};
pub use geometry::{Geometry, AXES};
pub use kernel::{Flips, KernelWork, WithFlips, Work};
pub use perft::perft;
pub use shape::{Erased, Family, Shape, ShapeError, Square, Width, MAX_SIDE, MIN_SIDE};

use std::fmt;
use std::str::FromStr;

/// The colour of a disc, and of the player who owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `B` or `W`, as headers and position strings write a colour.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// `Black` or `White`, as a sentence starts.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// The colour a one-letter text names: `B` or `W`, in either case.
    pub fn from_letter(text: &str) -> Option<Color> {
        match text {
            "B" | "b" => Some(Color::Black),
            "W" | "w" => Some(Color::White),
            _ => None,
        }
    }
}

/// A move: a disc placed on a square, or a pass. Read and printed in standard notation (`f5`,
/// `pa`) by `crate::notation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Square),
    Pass,
}

/// One value for each colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    pub black: T,
    pub white: T,
}

impl<T> ByColor<T> {
    pub fn new(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            black: f(Color::Black),
            white: f(Color::White),
        }
    }
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            black: f(self.black),
            white: f(self.white),
        }
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}

/// How moves are legal and which discs they flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// Othello: a move flanks lines of opponent discs in any of the eight directions.
    #[default]
    Full,
    /// A move touches an opponent disc and flips exactly the opponent discs next to it.
    Simple,
}

/// A rule set and its rule changes (place-anywhere, misère).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Variant {
    pub rule_set: RuleSet,
    /// Any empty cell is a legal move; there are no passes; the game ends on a full board.
    pub place_anywhere: bool,
    /// The player with fewer discs wins.
    pub misere: bool,
}

/// Who won a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    Black,
    White,
    Tie,
}

impl Winner {
    pub fn color(self) -> Option<Color> {
        match self {
            Winner::Black => Some(Color::Black),
            Winner::White => Some(Color::White),
            Winner::Tie => None,
        }
    }
}

/// The discs on the board and the side to move. Passes are explicit: see [`Rules::pass`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B> {
    pub black: B,
    pub white: B,
    pub to_move: Color,
}

impl<B: Bits> Position<B> {
    /// The position with these discs, one per cell in row-major order from the top-left.
    pub fn from_cells(cells: impl IntoIterator<Item = Option<Color>>, to_move: Color) -> Self {
        let mut pos = Position {
            black: B::ZERO,
            white: B::ZERO,
            to_move,
        };
        for (i, disc) in cells.into_iter().enumerate() {
            match disc {
                Some(Color::Black) => pos.black |= B::bit(i),
                Some(Color::White) => pos.white |= B::bit(i),
                None => {}
            }
        }
        pos
    }

    /// The position under a symmetry of the board (see [`Geometry::symmetries`]): the disc
    /// on cell `i` goes to cell `map[i]`.
    pub fn mapped(&self, map: &[usize]) -> Self {
        let image = |set: B| set.iter().fold(B::ZERO, |out, i| out | B::bit(map[i]));
        Position {
            black: image(self.black),
            white: image(self.white),
            to_move: self.to_move,
        }
    }

    pub fn discs(&self, color: Color) -> B {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
    /// The discs of the side to move.
    pub fn mover(&self) -> B {
        self.discs(self.to_move)
    }
    /// The discs of the side not to move.
    pub fn opponent(&self) -> B {
        self.discs(self.to_move.opposite())
    }
    pub fn occupied(&self) -> B {
        self.black | self.white
    }
    pub fn color_at(&self, index: usize) -> Option<Color> {
        if self.black.contains(index) {
            Some(Color::Black)
        } else if self.white.contains(index) {
            Some(Color::White)
        } else {
            None
        }
    }
    /// Disc counts `(black, white)`.
    pub fn score(&self) -> (u32, u32) {
        (self.black.count(), self.white.count())
    }
    /// The number of discs of each colour.
    pub fn discs_count(&self) -> ByColor<u32> {
        ByColor {
            black: self.black.count(),
            white: self.white.count(),
        }
    }
}

/// The shape and variant of a game: everything that decides what a position allows.
#[derive(Clone, Debug)]
pub struct Rules<B> {
    pub geometry: Geometry<B>,
    pub variant: Variant,
}

impl<B: Bits> Rules<B> {
    /// The rules of `variant` on a board of `shape`, if the board fits in `B`.
    pub fn new(shape: Shape, variant: Variant) -> Result<Self, ShapeError> {
        Ok(Rules {
            geometry: Geometry::new(shape)?,
            variant,
        })
    }

    pub fn shape(&self) -> Shape {
        self.geometry.shape()
    }

    /// The four-disc start: the 2x2 block at row `rows/2 - 1`, column `cols/2 - 1`, with
    /// `top_left` on its top-left and bottom-right cells.
    pub fn start(&self, first: Color, top_left: Color) -> Position<B> {
        let g = &self.geometry;
        let (r, c) = (g.rows() / 2 - 1, g.cols() / 2 - 1);
        let at = |dr: usize, dc: usize| B::bit((r + dr) * g.cols() + c + dc);
        let diagonal = at(0, 0) | at(1, 1);
        let anti = at(0, 1) | at(1, 0);
        let (black, white) = match top_left {
            Color::Black => (diagonal, anti),
            Color::White => (anti, diagonal),
        };
        Position {
            black,
            white,
            to_move: first,
        }
    }

    pub fn empty(&self, pos: &Position<B>) -> B {
        self.geometry.cells() & !pos.occupied()
    }

    /// Every legal move of the side to move (never a pass).
    #[inline]
    pub fn moves(&self, pos: &Position<B>) -> B {
        self.moves_for(pos.mover(), pos.opponent())
    }

    /// The legal moves of the player owning `mine` against `theirs`.
    #[inline]
    pub fn moves_for(&self, mine: B, theirs: B) -> B {
        let g = &self.geometry;
        let empty = g.cells() & !(mine | theirs);
        if self.variant.place_anywhere {
            return empty;
        }
        match self.variant.rule_set {
            RuleSet::Full => g.flanking_moves(mine, theirs),
            RuleSet::Simple => g.neighbours(theirs) & empty,
        }
    }

    /// The discs a disc of the side to move on `index` would flip. Legality is not checked.
    #[inline]
    pub fn flips(&self, pos: &Position<B>, index: usize) -> B {
        self.flips_for(index, pos.mover(), pos.opponent())
    }

    /// The discs of `theirs` that a disc of the player owning `mine` on `index` would flip.
    #[inline]
    pub fn flips_for(&self, index: usize, mine: B, theirs: B) -> B {
        let g = &self.geometry;
        match self.variant.rule_set {
            RuleSet::Full => g.flanked(index, mine, theirs),
            RuleSet::Simple => g.adjacent(index) & theirs,
        }
    }

    pub fn is_legal(&self, pos: &Position<B>, index: usize) -> bool {
        index < self.geometry.cell_count() && self.moves(pos).contains(index)
    }

    /// Place a disc for the side to move on `index`, flip, and hand the turn over. The move is
    /// not checked, and a following pass is not made: that is for the caller.
    #[inline]
    pub fn play_unchecked(&self, pos: &Position<B>, index: usize) -> Position<B> {
        let flips = self.flips(pos, index);
        self.play_flips(pos, index, flips)
    }

    /// As [`Rules::play_unchecked`], with the flips already known.
    #[inline]
    pub fn play_flips(&self, pos: &Position<B>, index: usize, flips: B) -> Position<B> {
        let placed = B::bit(index) | flips;
        let (black, white) = match pos.to_move {
            Color::Black => (pos.black | placed, pos.white & !flips),
            Color::White => (pos.black & !flips, pos.white | placed),
        };
        Position {
            black,
            white,
            to_move: pos.to_move.opposite(),
        }
    }

    /// The same discs with the other side to move.
    pub fn pass(&self, pos: &Position<B>) -> Position<B> {
        Position {
            to_move: pos.to_move.opposite(),
            ..*pos
        }
    }

    /// Whether neither side can move (under place-anywhere: whether the board is full).
    pub fn is_over(&self, pos: &Position<B>) -> bool {
        if self.variant.place_anywhere {
            return self.empty(pos).is_empty();
        }
        self.moves(pos).is_empty() && self.moves_for(pos.opponent(), pos.mover()).is_empty()
    }

    /// How far `color` is ahead by the goal of the variant: its discs less the opponent's, or
    /// the reverse under misère. Empty cells are not counted. Final once [`Rules::is_over`].
    pub fn margin(&self, pos: &Position<B>, color: Color) -> i32 {
        let (b, w) = pos.score();
        let black_ahead = b as i32 - w as i32;
        let ahead = if color == Color::Black {
            black_ahead
        } else {
            -black_ahead
        };
        if self.variant.misere {
            -ahead
        } else {
            ahead
        }
    }

    /// The winner by disc count, more discs winning (fewer under misère). Meaningful once
    /// [`Rules::is_over`].
    pub fn winner(&self, pos: &Position<B>) -> Winner {
        match self.margin(pos, Color::Black).cmp(&0) {
            std::cmp::Ordering::Greater => Winner::Black,
            std::cmp::Ordering::Less => Winner::White,
            std::cmp::Ordering::Equal => Winner::Tie,
        }
    }
}

/// `black` or `white`.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A colour's name or letter, in any case: `black`, `W`.
impl FromStr for Color {
    type Err = String;
    fn from_str(text: &str) -> Result<Color, String> {
        match text.to_ascii_lowercase().as_str() {
            "black" | "b" => Ok(Color::Black),
            "white" | "w" => Ok(Color::White),
            _ => Err(format!("{text:?} is not a colour (black or white)")),
        }
    }
}

/// `full` or `simple`.
impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Full => "full",
            RuleSet::Simple => "simple",
        })
    }
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(text: &str) -> Result<RuleSet, String> {
        match text {
            "full" => Ok(RuleSet::Full),
            "simple" => Ok(RuleSet::Simple),
            _ => Err(format!("{text:?} is not a rule set (full or simple)")),
        }
    }
}

/// The variant as a heading gives it: `full rules`, `simple rules, place-anywhere, misère`.
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} rules", self.rule_set)?;
        if self.place_anywhere {
            f.write_str(", place-anywhere")?;
        }
        if self.misere {
            f.write_str(", misère")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
