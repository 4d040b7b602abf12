//! Standard notation (seed 004): a square is a column letter and a row number counted from the
//! top (`a1`..`z26`, either case); a move list runs squares together (`f5d6c3`) or separates them
//! with spaces; `pa` is a pass.

use crate::rules::Square;

/// One move of a move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListedMove {
    Play(Square),
    Pass,
}

/// Why a move list was refused: the byte offset and the text there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at character {offset}: {found:?} is not a square such as f5 or a pass (pa)")]
pub struct MoveListError {
    pub offset: usize,
    pub found: String,
}

/// Reads a square such as `f5` or `Z26`.
pub fn parse_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let col = chars.next()?.to_ascii_lowercase();
    let digits = chars.as_str();
    if !col.is_ascii_lowercase() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let row: u8 = digits.parse().ok()?;
    (1..=26)
        .contains(&row)
        .then(|| Square::new(row - 1, col as u8 - b'a'))
}

/// Reads a move list such as `f5d6c3`, `F5 D6 C3` or `f5 pa d6`.
pub fn parse_move_list(text: &str) -> Result<Vec<ListedMove>, MoveListError> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() || bytes[i] == b',' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if text[start..].len() >= 2 && text[start..start + 2].eq_ignore_ascii_case("pa") {
            moves.push(ListedMove::Pass);
            i = start + 2;
            continue;
        }
        // A row number of one or two digits; a third digit would start no square.
        while i < bytes.len() && bytes[i].is_ascii_digit() && i - start < 3 {
            i += 1;
        }
        let square = text
            .get(start..i)
            .and_then(parse_square)
            .ok_or_else(|| MoveListError {
                offset: start,
                found: text[start..].chars().take(3).collect(),
            })?;
        moves.push(ListedMove::Play(square));
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_lists() {
        assert_eq!(parse_square("f5"), Some(Square::new(4, 5)));
        assert_eq!(parse_square("Z26"), Some(Square::new(25, 25)));
        assert_eq!(parse_square("a0"), None);
        assert_eq!(parse_square("a27"), None);
        let list = parse_move_list("f5d6 C3 pa a10").unwrap();
        assert_eq!(
            list,
            vec![
                ListedMove::Play(Square::new(4, 5)),
                ListedMove::Play(Square::new(5, 3)),
                ListedMove::Play(Square::new(2, 2)),
                ListedMove::Pass,
                ListedMove::Play(Square::new(9, 0)),
            ]
        );
        let err = parse_move_list("f5 !9").unwrap_err();
        assert!(parse_move_list("f5 a").is_err());
        assert_eq!(err.offset, 3);
    }
}
