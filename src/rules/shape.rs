//! Board sizes, checked once, and the one place a size picks the bit set that holds its board.
//!
//! Everything that plays is generic over [`Bits`]. [`with_bits!`](crate::with_bits) runs generic
//! code at the width a [`Shape`] needs; [`AnyWidth`] keeps a generic value whose width is known only
//! at run time (a protocol session whose board size arrives on the wire), and
//! [`on_erased!`](crate::on_erased) opens it again.

use super::bits::{Bits, Words};
use std::fmt;
use std::str::FromStr;

/// The smallest number of rows or columns.
pub const MIN_SIDE: usize = 3;
/// The largest number of rows or columns (columns are lettered `A`..`Z`).
pub const MAX_SIDE: usize = 26;

/// A cell by 0-based row (from the top) and column (from the left). It is read and printed in
/// standard notation (`f5`) by `crate::notation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
    pub const fn new(row: u8, col: u8) -> Self {
        Square { row, col }
    }
}

/// A board size from 3x3 to 26x26. Holding one means the size was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

/// Why a board size was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("a board needs {MIN_SIDE} to {MAX_SIDE} rows and columns, not {rows}x{cols}")]
    OutOfRange { rows: usize, cols: usize },
    #[error("a {rows}x{cols} board does not fit in {capacity} bits")]
    TooBig {
        rows: usize,
        cols: usize,
        capacity: usize,
    },
}

impl Shape {
    /// The standard 8x8 board.
    pub const STANDARD: Shape = Shape { rows: 8, cols: 8 };

    pub fn new(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        let side = |n: usize| (MIN_SIDE..=MAX_SIDE).contains(&n);
        if !side(rows) || !side(cols) {
            return Err(ShapeError::OutOfRange { rows, cols });
        }
        Ok(Shape {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// A square board.
    pub fn square(side: usize) -> Result<Shape, ShapeError> {
        Shape::new(side, side)
    }

    pub fn rows(self) -> usize {
        self.rows.into()
    }
    pub fn cols(self) -> usize {
        self.cols.into()
    }
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The cell index of `square` (row-major from the top-left), if it is on the board.
    pub fn index(self, square: Square) -> Option<usize> {
        (square.row < self.rows && square.col < self.cols)
            .then(|| usize::from(square.row) * self.cols() + usize::from(square.col))
    }

    /// The square of cell `index`.
    pub fn square_at(self, index: usize) -> Square {
        Square::new((index / self.cols()) as u8, (index % self.cols()) as u8)
    }

    /// Every square, row by row from the top-left.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.cells()).map(move |i| self.square_at(i))
    }

    /// Whether this board, either way round, fits inside `other`.
    pub fn fits_in(self, other: Shape) -> bool {
        (self.rows <= other.rows && self.cols <= other.cols)
            || (self.rows <= other.cols && self.cols <= other.rows)
    }

    /// The bit set width that holds this board.
    pub fn width(self) -> Width {
        match self.cells() {
            0..=64 => Width::W64,
            65..=128 => Width::W128,
            129..=256 => Width::W256,
            257..=448 => Width::W448,
            _ => Width::W704,
        }
    }
}

impl fmt::Display for Shape {
    /// `8x8`: rows, then columns.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = String;
    /// `8x8` (rows x columns) or a single side such as `6` for a square board.
    fn from_str(text: &str) -> Result<Shape, String> {
        let bad = || {
            format!(
                "{text:?} is not a board size such as 8x8 or 6 ({MIN_SIDE} to {MAX_SIDE} rows \
                 and columns)"
            )
        };
        let number = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
        let (rows, cols) = match text.trim().split_once(['x', 'X']) {
            Some((r, c)) => (number(r)?, number(c)?),
            None => {
                let side = number(text)?;
                (side, side)
            }
        };
        Shape::new(rows, cols).map_err(|_| bad())
    }
}

/// The bit sets boards are stored in, by how many cells they hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    W64,
    W128,
    W256,
    W448,
    W704,
}

/// A generic type, named without its bit set: `Of<u64>`, `Of<u128>`, ... are its instances.
pub trait GenericOverBits {
    type Of<B: Bits>;
}

/// A value of `F` at whichever width its board needs; built by [`erase!`](crate::erase) and
/// opened by [`on_erased!`](crate::on_erased).
pub enum AnyWidth<F: GenericOverBits> {
    W64(F::Of<u64>),
    W128(F::Of<u128>),
    W256(F::Of<Words<4>>),
    W448(F::Of<Words<7>>),
    W704(F::Of<Words<11>>),
}

/// Runs `$body` with `$B` naming the bit set that holds boards of `$shape` (a [`Shape`]).
#[macro_export]
macro_rules! with_bits {
    ($shape:expr, |$B:ident| $body:expr) => {
        match $crate::rules::Shape::width($shape) {
            $crate::rules::Width::W64 => {
                type $B = u64;
                $body
            }
            $crate::rules::Width::W128 => {
                type $B = u128;
                $body
            }
            $crate::rules::Width::W256 => {
                type $B = $crate::rules::Words<4>;
                $body
            }
            $crate::rules::Width::W448 => {
                type $B = $crate::rules::Words<7>;
                $body
            }
            $crate::rules::Width::W704 => {
                type $B = $crate::rules::Words<11>;
                $body
            }
        }
    };
}

/// As [`with_bits!`](crate::with_bits), keeping the value `$body` builds as an [`AnyWidth`].
#[macro_export]
macro_rules! erase {
    ($shape:expr, |$B:ident| $body:expr) => {
        match $crate::rules::Shape::width($shape) {
            $crate::rules::Width::W64 => {
                type $B = u64;
                $crate::rules::AnyWidth::W64($body)
            }
            $crate::rules::Width::W128 => {
                type $B = u128;
                $crate::rules::AnyWidth::W128($body)
            }
            $crate::rules::Width::W256 => {
                type $B = $crate::rules::Words<4>;
                $crate::rules::AnyWidth::W256($body)
            }
            $crate::rules::Width::W448 => {
                type $B = $crate::rules::Words<7>;
                $crate::rules::AnyWidth::W448($body)
            }
            $crate::rules::Width::W704 => {
                type $B = $crate::rules::Words<11>;
                $crate::rules::AnyWidth::W704($body)
            }
        }
    };
}

/// Runs `$body` with `$value` bound to the generic value inside an [`AnyWidth`] (or a reference
/// to one).
#[macro_export]
macro_rules! on_erased {
    ($erased:expr, |$value:ident| $body:expr) => {
        match $erased {
            $crate::rules::AnyWidth::W64($value) => $body,
            $crate::rules::AnyWidth::W128($value) => $body,
            $crate::rules::AnyWidth::W256($value) => $body,
            $crate::rules::AnyWidth::W448($value) => $body,
            $crate::rules::AnyWidth::W704($value) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked_once() {
        assert_eq!(Shape::new(8, 8), Ok(Shape::STANDARD));
        assert!(Shape::new(2, 8).is_err());
        assert!(Shape::new(8, 27).is_err());
        assert_eq!(
            "6x7".parse::<Shape>().map(|s| (s.rows(), s.cols())),
            Ok((6, 7))
        );
        assert_eq!("5".parse::<Shape>(), Ok(Shape::square(5).unwrap()));
        assert!("2x4"
            .parse::<Shape>()
            .unwrap_err()
            .starts_with("\"2x4\" is not a board"));
        assert!("8x".parse::<Shape>().is_err());
        assert_eq!(Shape::new(4, 6).unwrap().to_string(), "4x6");
    }

    #[test]
    fn the_width_holds_the_board() {
        for rows in MIN_SIDE..=MAX_SIDE {
            for cols in MIN_SIDE..=MAX_SIDE {
                let shape = Shape::new(rows, cols).unwrap();
                let capacity = with_bits!(shape, |B| <B as Bits>::CAPACITY);
                assert!(shape.cells() <= capacity, "{shape}");
            }
        }
    }

    #[test]
    fn squares_and_indices_agree() {
        let shape = Shape::new(3, 5).unwrap();
        for (i, sq) in shape.squares().enumerate() {
            assert_eq!(shape.index(sq), Some(i));
        }
        assert_eq!(shape.index(Square::new(3, 0)), None);
        assert_eq!(shape.index(Square::new(0, 5)), None);
    }
}
