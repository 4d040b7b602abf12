//! The five header lines: rows, columns, first player, top-left colour, `>` or `<`.

use crate::lines::Unreadable;
use crate::rules::{Color, Shape, MAX_SIDE, MIN_SIDE};
use std::fmt;

/// One line of the header, in the order they are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderField {
    Rows,
    Cols,
    FirstPlayer,
    TopLeft,
    WinCondition,
}

impl HeaderField {
    const ORDER: [HeaderField; 5] = [
        HeaderField::Rows,
        HeaderField::Cols,
        HeaderField::FirstPlayer,
        HeaderField::TopLeft,
        HeaderField::WinCondition,
    ];

    /// 1-based line number within the header.
    pub fn line(self) -> usize {
        Self::ORDER.iter().position(|f| *f == self).unwrap_or(0) + 1
    }

    fn name(self) -> &'static str {
        match self {
            HeaderField::Rows => "rows",
            HeaderField::Cols => "columns",
            HeaderField::FirstPlayer => "first player",
            HeaderField::TopLeft => "top-left colour",
            HeaderField::WinCondition => "win condition",
        }
    }

    fn accepts(self) -> String {
        match self {
            HeaderField::Rows | HeaderField::Cols => {
                format!("an integer from {MIN_SIDE} to {MAX_SIDE}")
            }
            HeaderField::FirstPlayer | HeaderField::TopLeft => "B or W".to_string(),
            HeaderField::WinCondition => "> (most discs wins) or < (fewest discs wins)".to_string(),
        }
    }
}

impl fmt::Display for HeaderField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "header line {} ({})", self.line(), self.name())
    }
}

/// A header line that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("{0}: expected {accepts}, got {1}", accepts = .0.accepts())]
    Invalid(HeaderField, String),
    #[error("{0}: input ended before the header was complete (expected {accepts})", accepts = .0.accepts())]
    Ended(HeaderField),
}

/// The header values once all five lines are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderValues {
    pub shape: Shape,
    pub first: Color,
    pub top_left: Color,
    pub misere: bool,
}

/// The header read so far.
#[derive(Clone, Debug, Default)]
pub struct Header {
    rows: Option<usize>,
    cols: Option<usize>,
    first: Option<Color>,
    top_left: Option<Color>,
}

impl Header {
    /// The line the header waits for next.
    pub fn next_field(&self) -> HeaderField {
        HeaderField::ORDER[[
            self.rows.is_some(),
            self.cols.is_some(),
            self.first.is_some(),
            self.top_left.is_some(),
        ]
        .iter()
        .filter(|set| **set)
        .count()]
    }

    /// Takes the next line; returns the values once the fifth is in.
    pub fn feed(
        &mut self,
        line: Result<&str, Unreadable>,
    ) -> Result<Option<HeaderValues>, HeaderError> {
        let field = self.next_field();
        let invalid = |text: &str| HeaderError::Invalid(field, describe(text));
        let text = match line {
            Ok(text) => text.trim_ascii(),
            Err(unreadable) => return Err(HeaderError::Invalid(field, unreadable.to_string())),
        };
        match field {
            HeaderField::Rows | HeaderField::Cols => {
                let side = text
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (MIN_SIDE..=MAX_SIDE).contains(n) && !text.starts_with('+'))
                    .ok_or_else(|| invalid(text))?;
                if field == HeaderField::Rows {
                    self.rows = Some(side);
                } else {
                    self.cols = Some(side);
                }
            }
            HeaderField::FirstPlayer | HeaderField::TopLeft => {
                let color = Color::from_letter(text).ok_or_else(|| invalid(text))?;
                if field == HeaderField::FirstPlayer {
                    self.first = Some(color);
                } else {
                    self.top_left = Some(color);
                }
            }
            HeaderField::WinCondition => {
                let misere = match text {
                    ">" => false,
                    "<" => true,
                    _ => return Err(invalid(text)),
                };
                // Each side was checked on its own line.
                let shape = Shape::new(self.rows.unwrap_or(0), self.cols.unwrap_or(0))
                    .map_err(|e| HeaderError::Invalid(HeaderField::Rows, e.to_string()))?;
                return Ok(Some(HeaderValues {
                    shape,
                    first: self.first.unwrap_or(Color::Black),
                    top_left: self.top_left.unwrap_or(Color::White),
                    misere,
                }));
            }
        }
        Ok(None)
    }
}

/// The offending text, quoted and cut short so that the error stays on one line.
fn describe(text: &str) -> String {
    if text.is_empty() {
        return "an empty line".to_string();
    }
    let short: String = text.chars().take(40).collect();
    let cut = if short.len() < text.len() { "..." } else { "" };
    format!("{:?}{cut}", short)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_all(lines: &[&str]) -> Result<Option<HeaderValues>, HeaderError> {
        let mut h = Header::default();
        let mut last = Ok(None);
        for l in lines {
            last = h.feed(Ok(l));
            last.as_ref().map_err(Clone::clone)?;
        }
        last
    }

    #[test]
    fn accepts_trimmed_and_lower_case_values() {
        let v = feed_all(&[" 26 ", "3\r", "w", " b", "< "])
            .unwrap()
            .unwrap();
        assert_eq!(
            v,
            HeaderValues {
                shape: Shape::new(26, 3).unwrap(),
                first: Color::White,
                top_left: Color::Black,
                misere: true
            }
        );
    }

    #[test]
    fn names_the_line_and_what_it_accepts() {
        let e = feed_all(&["8", "27"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "header line 2 (columns): expected an integer from 3 to 26, got \"27\""
        );
        let e = feed_all(&["8", "8", "B", "B", "="]).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("header line 5 (win condition): expected >"));
        assert!(feed_all(&["+8"]).is_err());
        assert!(feed_all(&["2"]).is_err());
        assert!(feed_all(&["8", "8", "X"]).is_err());
        let long = "x".repeat(5000);
        let e = feed_all(&[&long]).unwrap_err().to_string();
        assert!(e.len() < 120, "{e}");
    }
}
