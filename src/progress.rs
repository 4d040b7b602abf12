//! The one progress display of the long commands (`match`, `selfplay`, `solve`): drawn on
//! stderr by indicatif where stderr is a terminal, and hidden where it is not, so that piped
//! output stays exactly what the command prints; or, where asked for ([`Progress::lines`]),
//! plain lines on a stream that is not a terminal, which a log keeps.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// A progress display: a bar or a line of text, rewritten in place; or plain lines; or nothing.
pub struct Progress {
    bar: ProgressBar,
    /// Where plain lines go, if they do.
    plain: Option<Mutex<Box<dyn Write + Send>>>,
}

impl Progress {
    /// A bar counting `total` things (`unit`, plural: "games") with a message beside it, on
    /// stderr when it is a terminal; hidden otherwise.
    pub fn counter(total: u64, unit: &str) -> Progress {
        let bar = on_terminal(ProgressBar::new(total));
        let template = format!("[{{bar:30}}] {{pos}}/{{len}} {unit}  {{msg}}  {{elapsed}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("#>-"));
        }
        Progress { bar, plain: None }
    }

    /// A line of text rewritten in place on stderr when it is a terminal; hidden otherwise.
    pub fn status() -> Progress {
        let bar = on_terminal(ProgressBar::new_spinner());
        if let Ok(style) = ProgressStyle::with_template("{wide_msg}") {
            bar.set_style(style);
        }
        Progress { bar, plain: None }
    }

    /// Plain lines on `out` (not a terminal): each message and each permanent line is a line;
    /// the caller spaces them out.
    pub fn lines(out: Box<dyn Write + Send>) -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            plain: Some(Mutex::new(out)),
        }
    }

    /// Nothing shown.
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            plain: None,
        }
    }

    /// Moves a counter to `done` things, with `message` beside it.
    pub fn set(&self, done: u64, message: String) {
        self.bar.set_position(done);
        self.message(message);
    }

    /// Replaces the text shown (as plain lines: a line).
    pub fn message(&self, text: String) {
        if !self.plain_line(&text) {
            self.bar.set_message(text);
        }
    }

    /// A line that stays, above what is rewritten.
    pub fn println(&self, text: String) {
        if !self.plain_line(&text) {
            self.bar.println(text);
        }
    }

    /// Writes `text` as a plain line, if this display is plain lines.
    fn plain_line(&self, text: &str) -> bool {
        let Some(plain) = &self.plain else {
            return false;
        };
        if let Ok(mut out) = plain.lock() {
            let _ = writeln!(out, "{text}").and_then(|_| out.flush());
        }
        true
    }

    /// Runs `f` with the display out of the way, for output of its own on the same terminal.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Takes the display off the terminal, at the end.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

/// `bar` drawn on stderr when it is a terminal, hidden otherwise.
fn on_terminal(bar: ProgressBar) -> ProgressBar {
    bar.set_draw_target(if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    });
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::SharedWriter;

    #[test]
    fn plain_lines_are_whole_lines_and_a_hidden_display_writes_nothing() {
        let out = SharedWriter::default();
        let p = Progress::lines(Box::new(out.clone()));
        p.message("a count".into());
        p.println("a move finished".into());
        p.set(3, "a counter".into());
        p.finish();
        let text = out.text();
        assert_eq!(text, "a count\na move finished\na counter\n");
        // Hidden: these go nowhere, and do not fail.
        let hidden = Progress::hidden();
        hidden.set(1, "x".into());
        hidden.println("y".into());
        assert_eq!(hidden.suspend(|| 7), 7);
    }
}
