//! Disc differences in words, as every report writes them.

/// A disc difference with its sign: `+3`, `0`, `-8`.
pub(crate) fn signed(n: i32) -> String {
    if n == 0 {
        "0".to_string()
    } else {
        format!("{n:+}")
    }
}
