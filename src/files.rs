//! Whole files read with a cap on their size, so that a huge or endless one (`/dev/zero`) is
//! refused once past the cap rather than read until memory runs out, or read in part without a
//! word.

use std::io::{self, Read};
use std::path::Path;

/// The bytes of the file at `path`, refused (`InvalidData`, naming `what` the file should be)
/// when there are more than `cap` of them. Reads no more than `cap + 1`.
pub fn read_capped(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("over {}, too large for {what}", size(cap)),
        ));
    }
    Ok(bytes)
}

/// The text of the file at `path`, as [`read_capped`], and refused (`InvalidData`) when it is
/// not UTF-8.
pub fn read_capped_text(path: &Path, cap: u64, what: &str) -> io::Result<String> {
    String::from_utf8(read_capped(path, cap, what)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// `bytes` in the largest binary unit that divides it.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_its_cap_or_not_text_is_refused_whole() {
        let path = std::env::temp_dir().join(format!("othello-capped-{}.txt", std::process::id()));
        std::fs::write(&path, "12345678\n").unwrap();
        assert_eq!(read_capped_text(&path, 9, "a test").unwrap(), "12345678\n");
        let over = read_capped_text(&path, 8, "a test").unwrap_err();
        std::fs::write(&path, b"\xff\n").unwrap();
        let binary = read_capped_text(&path, 8, "a test").unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(over.to_string(), "over 8 bytes, too large for a test");
        assert_eq!(binary.to_string(), "not UTF-8 text");
        for e in [over, binary] {
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
        }
    }

    #[test]
    fn caps_are_named_in_their_largest_whole_unit() {
        assert_eq!(size(64 << 20), "64 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(1536 << 10), "1536 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
