//! Position strings: `(T row row ...)`, where `T` is the side to move (`b` or `w`) and
//! each row, top row first, is a string of `b` (black), `w` (white) and `-` (empty). The board
//! size is read from the string: 3 to 26 rows of 3 to 26 cells, all rows the same length.
//!
//! Input may use either case and any white space around and between the parts; output is the
//! canonical `(w -b-- -bb- -bw- ----)`.

use crate::rules::{
    Bits, Color, Game, Geometry, Passes, Position, Rules, Shape, ShapeError, Square, Variant,
    MAX_SIDE, MIN_SIDE,
};
use crate::wording::Counted;
use std::fmt;
use std::str::FromStr;

/// A board of any size with its discs and the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PositionString {
    to_move: Color,
    shape: Shape,
    /// Row-major, top row first.
    cells: Vec<Option<Color>>,
}

/// Why a position string was refused; rows and columns count from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("empty position string; expected one such as (b ---- -wb- -bw- ----)")]
    Empty,
    #[error("a position string starts with '(', not '{0}'")]
    MissingOpen(char),
    #[error("missing ')' at the end of the position string")]
    MissingClose,
    #[error("unexpected text after ')': \"{0}\"")]
    AfterClose(String),
    #[error("no side to move after '('; it must be b or w")]
    NoSide,
    #[error("side to move must be b or w, not \"{0}\"")]
    Side(String),
    #[error("{}; a board has {MIN_SIDE} to {MAX_SIDE}", Counted(*.0, "row"))]
    RowCount(usize),
    #[error("row {row} has {}; a row has {MIN_SIDE} to {MAX_SIDE}", Counted(*cells, "cell"))]
    RowLength { row: usize, cells: usize },
    #[error("row {row} has {}, row 1 has {first}", Counted(*cells, "cell"))]
    Ragged {
        row: usize,
        cells: usize,
        first: usize,
    },
    #[error("unexpected character '{found}' in row {row}, column {col}; a cell is b, w or -")]
    Cell { found: char, row: usize, col: usize },
    #[error("{} do not make {} of {cols}", Counted(*cells, "cell"), Counted(*rows, "row"))]
    CellCount {
        rows: usize,
        cols: usize,
        cells: usize,
    },
}

impl PositionString {
    /// A position of `rows` x `cols` cells (row-major, top row first).
    pub fn new(
        to_move: Color,
        rows: usize,
        cols: usize,
        cells: Vec<Option<Color>>,
    ) -> Result<Self, PositionError> {
        let shape = Shape::new(rows, cols).map_err(|_| {
            if (MIN_SIDE..=MAX_SIDE).contains(&rows) {
                PositionError::RowLength {
                    row: 1,
                    cells: cols,
                }
            } else {
                PositionError::RowCount(rows)
            }
        })?;
        if cells.len() != rows * cols {
            return Err(PositionError::CellCount {
                rows,
                cols,
                cells: cells.len(),
            });
        }
        Ok(PositionString {
            to_move,
            shape,
            cells,
        })
    }

    /// The position of a game's board.
    pub fn from_position<B: Bits>(geometry: &Geometry<B>, position: &Position<B>) -> Self {
        PositionString {
            to_move: position.to_move,
            shape: geometry.shape(),
            cells: (0..geometry.cell_count())
                .map(|i| position.color_at(i))
                .collect(),
        }
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }
    pub fn shape(&self) -> Shape {
        self.shape
    }
    pub fn rows(&self) -> usize {
        self.shape.rows()
    }
    pub fn cols(&self) -> usize {
        self.shape.cols()
    }
    /// Every cell, row-major, top row first.
    pub fn cells(&self) -> &[Option<Color>] {
        &self.cells
    }
    /// The disc on `square`; `None` for an empty cell or one off the board.
    pub fn disc(&self, square: Square) -> Option<Color> {
        self.shape.index(square).and_then(|i| self.cells[i])
    }
    /// The same discs with `to_move` to move.
    pub fn with_to_move(mut self, to_move: Color) -> Self {
        self.to_move = to_move;
        self
    }

    /// The rules of this board under `variant`, if `B` holds it.
    pub fn rules<B: Bits>(&self, variant: Variant) -> Result<Rules<B>, ShapeError> {
        Rules::new(self.shape, variant)
    }

    /// The position in bit sets of type `B`, which must hold `rows * cols` cells (see
    /// [`PositionString::rules`], which checks that).
    pub fn position<B: Bits>(&self) -> Position<B> {
        Position::from_cells(self.cells.iter().copied(), self.to_move)
    }

    /// A game from this position under `variant` (see [`Game::from_position`]).
    pub fn game<B: Bits>(&self, variant: Variant, passes: Passes) -> Result<Game<B>, ShapeError> {
        Ok(Game::from_position(
            self.rules(variant)?,
            self.position(),
            passes,
        ))
    }
}

impl FromStr for PositionString {
    type Err = PositionError;
    fn from_str(text: &str) -> Result<Self, PositionError> {
        let text = text.trim();
        let first = text.chars().next().ok_or(PositionError::Empty)?;
        let inner = text
            .strip_prefix('(')
            .ok_or(PositionError::MissingOpen(first))?;
        let (inner, after) = inner.split_once(')').ok_or(PositionError::MissingClose)?;
        if !after.trim().is_empty() {
            return Err(PositionError::AfterClose(after.trim().to_string()));
        }
        let mut parts = inner.split_whitespace();
        let to_move = match parts.next() {
            None => return Err(PositionError::NoSide),
            Some(s) if s.eq_ignore_ascii_case("b") => Color::Black,
            Some(s) if s.eq_ignore_ascii_case("w") => Color::White,
            Some(s) => return Err(PositionError::Side(s.to_string())),
        };
        let rows: Vec<&str> = parts.collect();
        if !(MIN_SIDE..=MAX_SIDE).contains(&rows.len()) {
            return Err(PositionError::RowCount(rows.len()));
        }
        let cols = rows[0].chars().count();
        let mut cells = Vec::with_capacity(rows.len() * cols);
        for (r, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if !(MIN_SIDE..=MAX_SIDE).contains(&len) {
                return Err(PositionError::RowLength {
                    row: r + 1,
                    cells: len,
                });
            }
            if len != cols {
                return Err(PositionError::Ragged {
                    row: r + 1,
                    cells: len,
                    first: cols,
                });
            }
            for (c, ch) in row.chars().enumerate() {
                cells.push(match ch.to_ascii_lowercase() {
                    'b' => Some(Color::Black),
                    'w' => Some(Color::White),
                    '-' => None,
                    _ => {
                        return Err(PositionError::Cell {
                            found: ch,
                            row: r + 1,
                            col: c + 1,
                        })
                    }
                });
            }
        }
        PositionString::new(to_move, rows.len(), cols, cells)
    }
}

impl fmt::Display for PositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.to_move.letter().to_ascii_lowercase())?;
        for row in self.cells.chunks(self.cols()) {
            f.write_str(" ")?;
            for cell in row {
                f.write_str(match cell {
                    Some(Color::Black) => "b",
                    Some(Color::White) => "w",
                    None => "-",
                })?;
            }
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Setup;
    use proptest::prelude::*;

    const POSITION_1: &str = "(w -b-- -bb- -bw- ----)";

    #[test]
    fn position_1_of_the_rules_sample() {
        let p: PositionString = POSITION_1.parse().unwrap();
        assert_eq!((p.rows(), p.cols(), p.to_move()), (4, 4, Color::White));
        assert_eq!(p.disc(Square::new(0, 1)), Some(Color::Black));
        assert_eq!(p.disc(Square::new(2, 2)), Some(Color::White));
        assert_eq!(p.disc(Square::new(0, 0)), None);
        assert_eq!(p.disc(Square::new(25, 25)), None);
        assert_eq!(p.to_string(), POSITION_1);
    }

    #[test]
    fn loose_spellings_print_canonically() {
        for text in [
            "  (w -b-- -bb- -bw- ----)\n",
            "(w   -b--  -bb-\t-bw- ----)",
            "( W -B-- -BB- -BW- ---- )",
        ] {
            let p: PositionString = text.parse().unwrap();
            assert_eq!(p.to_string(), POSITION_1, "{text:?}");
        }
    }

    #[test]
    fn broken_strings_say_what_is_wrong_and_where() {
        let err = |s: &str| s.parse::<PositionString>().unwrap_err().to_string();
        assert_eq!(
            err("  "),
            "empty position string; expected one such as (b ---- -wb- -bw- ----)"
        );
        assert_eq!(
            err("w -b-- -bb- -bw- ----)"),
            "a position string starts with '(', not 'w'"
        );
        assert_eq!(
            err("(w -b-- -bb- -bw- ----"),
            "missing ')' at the end of the position string"
        );
        assert_eq!(
            err("(w -b-- -bb- -bw- ----) b"),
            "unexpected text after ')': \"b\""
        );
        assert_eq!(err("()"), "no side to move after '('; it must be b or w");
        assert_eq!(
            err("(x -b-- -bb- -bw- ----)"),
            "side to move must be b or w, not \"x\""
        );
        assert_eq!(
            err("(-b-- -bb- -bw- ----)"),
            "side to move must be b or w, not \"-b--\""
        );
        assert_eq!(err("(b --- ---)"), "2 rows; a board has 3 to 26");
        assert_eq!(err("(b ---)"), "1 row; a board has 3 to 26");
        assert_eq!(err("(b - - -)"), "row 1 has 1 cell; a row has 3 to 26");
        assert_eq!(
            err(&format!("(b{})", " ---".repeat(27))),
            "27 rows; a board has 3 to 26"
        );
        assert_eq!(err("(b -- -- --)"), "row 1 has 2 cells; a row has 3 to 26");
        assert_eq!(
            err("(w -b-- -bb- -bw-- ----)"),
            "row 3 has 5 cells, row 1 has 4"
        );
        assert_eq!(
            err("(w -b-- -bb- -bw- ---)"),
            "row 4 has 3 cells, row 1 has 4"
        );
        assert_eq!(
            err("(w -b-- -bx- -bw- ----)"),
            "unexpected character 'x' in row 2, column 3; a cell is b, w or -"
        );
        assert_eq!(
            err("(w -b-- -b.- -bw- ----)"),
            "unexpected character '.' in row 2, column 3; a cell is b, w or -"
        );
    }

    #[test]
    fn built_positions_are_checked() {
        assert_eq!(
            PositionString::new(Color::Black, 3, 3, vec![None; 8]),
            Err(PositionError::CellCount {
                rows: 3,
                cols: 3,
                cells: 8
            })
        );
        assert_eq!(
            PositionString::new(Color::Black, 2, 3, vec![None; 6]),
            Err(PositionError::RowCount(2))
        );
        assert!(PositionString::new(Color::Black, 3, 27, vec![None; 81]).is_err());
    }

    #[test]
    fn games_start_from_strings() {
        let start = Setup::standard(Shape::square(4).unwrap(), Variant::default());
        let game = Game::<u64>::new(&start, Passes::Explicit).unwrap();
        let text = PositionString::from_position(&game.rules().geometry, game.position());
        assert_eq!(text.to_string(), "(b ---- -wb- -bw- ----)");
        let again = text
            .game::<u64>(Variant::default(), Passes::Explicit)
            .unwrap();
        assert_eq!(again.position(), game.position());

        // The rules specification's position 1: white, to move, answers B1 on A1 among others.
        let p: PositionString = POSITION_1.parse().unwrap();
        let game = p
            .game::<u64>(Variant::default(), Passes::Automatic)
            .unwrap();
        assert_eq!(game.shape(), Shape::square(4).unwrap());
        assert_eq!(game.to_move(), Some(Color::White));
        assert_eq!(game.score(), crate::rules::ByColor { black: 4, white: 1 });
        assert!(game.legal_moves().contains(0));

        // The bit set must hold the board.
        let big: PositionString = format!("(b{})", format!(" {}", "-".repeat(26)).repeat(26))
            .parse()
            .unwrap();
        assert!(big
            .game::<u64>(Variant::default(), Passes::Explicit)
            .is_err());
        let rows = crate::with_bits!(big.shape(), |B| big
            .game::<B>(Variant::default(), Passes::Explicit)
            .unwrap()
            .shape()
            .rows());
        assert_eq!(rows, 26);
    }

    fn any_position() -> impl Strategy<Value = PositionString> {
        (3usize..=26, 3usize..=26, any::<bool>()).prop_flat_map(|(rows, cols, black)| {
            let cell = prop_oneof![
                Just(None),
                Just(Some(Color::Black)),
                Just(Some(Color::White))
            ];
            prop::collection::vec(cell, rows * cols).prop_map(move |cells| {
                let side = if black { Color::Black } else { Color::White };
                PositionString::new(side, rows, cols, cells).unwrap()
            })
        })
    }

    proptest! {
        #[test]
        fn strings_round_trip(p in any_position()) {
            let text = p.to_string();
            prop_assert_eq!(text.parse::<PositionString>(), Ok(p.clone()));
            prop_assert_eq!(text.to_uppercase().parse::<PositionString>(), Ok(p.clone()));
            prop_assert_eq!(text.len(), 3 + p.rows() * (p.cols() + 1));
        }

        #[test]
        fn strings_round_trip_through_bit_sets(p in any_position()) {
            let back = crate::with_bits!(p.shape(), |B| {
                let rules = p.rules::<B>(Variant::default()).unwrap();
                PositionString::from_position(&rules.geometry, &p.position::<B>())
            });
            prop_assert_eq!(back, p);
        }
    }
}
