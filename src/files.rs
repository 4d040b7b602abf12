//! Whole files read with a cap on their size, so that a huge or endless one (`/dev/zero`) is
//! refused once past the cap rather than read until memory runs out.

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
            format!("over {} MiB, too large for {what}", cap >> 20),
        ));
    }
    Ok(bytes)
}
