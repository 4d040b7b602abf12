//! Where typed lines come from: a terminal with line editing and history, or lines piped in.
//! The terminal also decides when Ctrl-C is a signal (while the program thinks) and when it is
//! a key (at the prompt).

use crate::lines::{LineReader, Unreadable, MAX_LINE};
use std::io::{self, BufRead};

/// What one read of the keyboard gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    Line(String),
    Unreadable(Unreadable),
    /// End of input (or Ctrl-D).
    End,
    /// Ctrl-C at the prompt.
    Interrupted,
}

/// Where typed lines come from.
pub trait Keyboard {
    /// The next line, after showing `prompt` where the keyboard shows one.
    fn read(&mut self, prompt: &str) -> io::Result<Typed>;

    /// Runs `work`, the program's turn between two reads (a reply, perhaps a search).
    fn busy<T>(&mut self, work: impl FnOnce() -> T) -> T {
        work()
    }
}

/// Piped input: plain bounded lines, no prompt.
impl<R: BufRead> Keyboard for LineReader<R> {
    fn read(&mut self, _prompt: &str) -> io::Result<Typed> {
        Ok(match self.next_line()? {
            None => Typed::End,
            Some(Ok(text)) => Typed::Line(text.to_string()),
            Some(Err(unreadable)) => Typed::Unreadable(unreadable),
        })
    }
}

/// A terminal: line editing and history.
///
/// Ctrl-C is a signal (SIGINT) only while the program is busy, where it stops a search; at all
/// other times the terminal passes it on as a key, so one typed between a reply and the next
/// prompt waits in the input for the line editor, which ends play, instead of coming as a
/// signal that nothing is waiting for.
pub struct Terminal {
    editor: rustyline::DefaultEditor,
    /// The terminal's settings as found, restored at the end; `None` when stdin has none.
    found: Option<libc::termios>,
}

impl Terminal {
    pub fn new() -> io::Result<Terminal> {
        let editor = rustyline::DefaultEditor::new().map_err(io::Error::other)?;
        let mut found = std::mem::MaybeUninit::<libc::termios>::uninit();
        // SAFETY: tcgetattr fills the termios it is given when it returns 0.
        let found = (unsafe { libc::tcgetattr(libc::STDIN_FILENO, found.as_mut_ptr()) } == 0)
            .then(|| unsafe { found.assume_init() });
        let terminal = Terminal { editor, found };
        terminal.ctrl_c_signals(false);
        Ok(terminal)
    }

    /// Whether the terminal turns Ctrl-C (and Ctrl-\, Ctrl-Z) into signals.
    fn ctrl_c_signals(&self, on: bool) {
        if let Some(mut settings) = self.found {
            if !on {
                settings.c_lflag &= !libc::ISIG;
            }
            // SAFETY: settings is a valid termios read from this terminal. A failure leaves the
            // terminal as it was, where Ctrl-C still stops a search.
            unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &settings) };
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.ctrl_c_signals(true);
    }
}

impl Keyboard for Terminal {
    fn read(&mut self, prompt: &str) -> io::Result<Typed> {
        use rustyline::error::ReadlineError;
        match self.editor.readline(prompt) {
            Ok(text) if text.len() > MAX_LINE => Ok(Typed::Unreadable(Unreadable::TooLong)),
            Ok(text) => {
                if !text.trim().is_empty() {
                    let _ = self.editor.add_history_entry(text.as_str());
                }
                Ok(Typed::Line(text))
            }
            Err(ReadlineError::Eof) => Ok(Typed::End),
            Err(ReadlineError::Interrupted) => Ok(Typed::Interrupted),
            Err(ReadlineError::Io(e)) => Err(e),
            Err(e) => Err(io::Error::other(e)),
        }
    }

    fn busy<T>(&mut self, work: impl FnOnce() -> T) -> T {
        self.ctrl_c_signals(true);
        let done = work();
        self.ctrl_c_signals(false);
        done
    }
}
