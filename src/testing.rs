//! What the library's own tests share across modules.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A writer whose bytes a test can read back while another owner (a progress display, an
/// observer) writes to its clone.
#[derive(Clone, Default)]
pub struct SharedWriter(Arc<Mutex<Vec<u8>>>);

impl SharedWriter {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        String::from_utf8(bytes).expect("the writers under test write text")
    }
}

impl Write for SharedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
