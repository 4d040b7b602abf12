//! The two colours, a value for each, and who won.

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
