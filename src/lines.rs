//! Reading input lines with a length cap, so that a huge or binary line cannot exhaust memory.

use std::io::{self, BufRead};

/// The largest list file read (`solve --file`, `bench --positions`): a line is some 80 bytes,
/// so this holds hundreds of thousands of positions, each a solve or a search. A larger or
/// endless file (`/dev/zero`) is refused once past it, not read without end.
pub const MAX_LIST_FILE: u64 = 16 << 20;

/// The longest line read as text; a longer one is unreadable.
pub const MAX_LINE: usize = 4096;

/// A line that cannot be taken as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// Over [`MAX_LINE`] bytes, not counting the newline.
    TooLong,
    /// Not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::TooLong => write!(f, "a line over {MAX_LINE} bytes"),
            Unreadable::NotUtf8 => f.write_str("a line that is not UTF-8 text"),
        }
    }
}

/// Splits input into lines (`\n`-terminated; a last line without one counts too).
pub struct LineReader<R> {
    input: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            buf: Vec::with_capacity(256),
        }
    }

    /// The next line without its newline, or `Ok(None)` at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Result<&str, Unreadable>>> {
        self.buf.clear();
        let mut too_long = false;
        let mut read_any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !read_any {
                    return Ok(None);
                }
                break;
            }
            read_any = true;
            let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            if !too_long {
                if self.buf.len() + part.len() > MAX_LINE {
                    too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(part);
                }
            }
            self.input.consume(used);
            if done {
                break;
            }
        }
        if too_long {
            return Ok(Some(Err(Unreadable::TooLong)));
        }
        Ok(Some(
            std::str::from_utf8(&self.buf).map_err(|_| Unreadable::NotUtf8),
        ))
    }
}

/// The text of a line of a file read as a list, trimmed, or none for a blank line or a note
/// (a line whose text starts with `#`).
pub fn list_entry(line: &str) -> Option<&str> {
    let text = line.trim();
    (!text.is_empty() && !text.starts_with('#')).then_some(text)
}

/// The entries of a file read as a list (positions, openings, OBF lines; see [`list_entry`]),
/// each with its line's number from 1, as text or as the reason it is not: bounded as
/// [`LineReader`] is, so that a huge or binary file cannot exhaust memory. A line that is not
/// text is an error naming its number.
pub fn list_entries<R: BufRead>(input: R) -> impl Iterator<Item = anyhow::Result<(usize, String)>> {
    let mut reader = LineReader::new(input);
    let mut number = 0;
    let mut failed = false;
    std::iter::from_fn(move || loop {
        if failed {
            return None;
        }
        let line = match reader.next_line() {
            Ok(None) => return None,
            Ok(Some(line)) => line,
            Err(e) => {
                failed = true;
                return Some(Err(e.into()));
            }
        };
        number += 1;
        match line {
            Ok(text) => {
                if let Some(entry) = list_entry(text) {
                    return Some(Ok((number, entry.to_string())));
                }
            }
            Err(why) => {
                failed = true;
                return Some(Err(anyhow::anyhow!("line {number}: {why}")));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<String, Unreadable>> {
        let mut r = LineReader::new(io::BufReader::with_capacity(7, input));
        let mut out = Vec::new();
        while let Some(line) = r.next_line().unwrap() {
            out.push(line.map(str::to_string));
        }
        out
    }

    #[test]
    fn splits_lines_and_keeps_a_last_unterminated_one() {
        assert_eq!(
            lines(b"1 2\r\n\nlast"),
            [Ok("1 2\r".into()), Ok(String::new()), Ok("last".into())]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn marks_long_and_binary_lines_unreadable() {
        let mut input = vec![b'9'; MAX_LINE + 1];
        input.extend_from_slice(b"\n\xff\xfe\n2 3\n");
        assert_eq!(
            lines(&input),
            [
                Err(Unreadable::TooLong),
                Err(Unreadable::NotUtf8),
                Ok("2 3".into())
            ]
        );
        let exact = vec![b'1'; MAX_LINE];
        assert_eq!(lines(&exact).len(), 1);
        assert!(lines(&exact)[0].is_ok());
    }

    #[test]
    fn numbers_a_files_entries_past_blanks_and_notes_and_stops_at_one_that_is_not_text() {
        let read = |input: &[u8]| -> Vec<Result<(usize, String), String>> {
            list_entries(io::BufReader::with_capacity(5, input))
                .map(|line| line.map_err(|e| e.to_string()))
                .collect()
        };
        assert_eq!(
            read(b"# c\n\n  f5d6 \n  # d\ne6\n"),
            [Ok((3, "f5d6".into())), Ok((5, "e6".into()))]
        );
        let mut long = b"a\n".to_vec();
        long.extend(vec![b'x'; MAX_LINE + 1]);
        long.extend_from_slice(b"\nb\n");
        assert_eq!(
            read(&long),
            [
                Ok((1, "a".into())),
                Err(format!("line 2: a line over {MAX_LINE} bytes"))
            ]
        );
        assert_eq!(
            read(b"\xff\nb\n"),
            [Err("line 1: a line that is not UTF-8 text".to_string())]
        );
    }
}
