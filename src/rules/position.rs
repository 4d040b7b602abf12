//! Moves, and the discs on the board with the side to move.

use super::bits::Bits;
use super::color::{ByColor, Color};
use super::shape::Square;

/// A move: a disc placed on a square, or a pass. Read and printed in standard notation (`f5`,
/// `pa`) by `crate::notation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Square),
    Pass,
}

/// The discs on the board and the side to move. Passes are explicit: see
/// [`Rules::pass`](crate::rules::Rules::pass).
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

    /// The position under a symmetry of the board (see
    /// [`Geometry::symmetries`](crate::rules::Geometry::symmetries)): the disc on cell `i` goes
    /// to cell `map[i]`.
    pub fn mapped(&self, map: &[usize]) -> Self {
        let image = |set: B| set.iter().fold(B::ZERO, |out, i| out | B::bit(map[i]));
        Position {
            black: image(self.black),
            white: image(self.white),
            to_move: self.to_move,
        }
    }

    /// The image of the position under `maps` (the board's symmetries) that stands for all of
    /// them: the least by its discs, cell by cell, Black's first. With it, which map made it
    /// (`None`: the position itself).
    pub fn canonical(&self, maps: &[Vec<usize>]) -> (Self, Option<usize>) {
        let order = |p: &Self, q: &Self| {
            (p.black.iter().cmp(q.black.iter())).then_with(|| p.white.iter().cmp(q.white.iter()))
        };
        let mut best = (*self, None);
        for (k, map) in maps.iter().enumerate() {
            let image = self.mapped(map);
            if order(&image, &best.0).is_lt() {
                best = (image, Some(k));
            }
        }
        best
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
