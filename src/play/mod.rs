//! `othello play`: a game for people at a terminal. The board with letters and numbers, legal
//! moves marked, moves typed as `f5` or `row col`, reasons for refused moves, passes and the
//! end in words, and commands (undo, redo, hint, save, load, ...).
//!
//! [`Session::handle`] is the pure core: one typed line in, the lines to print out. [`run`] does
//! the reading and writing around it. The line protocol (`othello` with no subcommand) is the
//! one graders diff; this is the one people read, so its words may change.
//!
//! The game and its engine are a [`EngineGame`](crate::players::EngineGame); the board around it keeps
//! what play adds (what undo took back, the program's sides, a resignation, how the board is
//! shown).
//!
//! Each file uses only the files listed before it:
//! - `text.rs`: the words printed (the help, the board drawn, moves announced and refused).
//! - `files.rs`: games saved to and loaded from files.
//! - `command.rs`: a typed line read into a `Command`.
//! - `options.rs`: how a game is set up.
//! - `terminal.rs`: where typed lines come from (the `Keyboard`: a terminal or piped lines).
//! - `board.rs`: the game on the board, and the moves and commands carried out on it.
//! - `session.rs`: the `Session`, which reads each line and hands the game's part to the board.
//! - `mod.rs`: [`run`], reading a `Keyboard` and writing what the `Session` answers.

mod board;
mod command;
mod files;
mod options;
mod session;
mod terminal;
mod text;

pub use options::Options;
pub use session::Session;
pub use terminal::{Keyboard, Terminal, Typed};
pub use text::rules_text;

use std::io::{self, Write};

/// How play ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `quit`, or the end of input.
    Left,
    /// Ctrl-C (SIGINT), at the prompt or while the program thought: the command ends with
    /// status 130, as a program the signal stopped.
    Interrupted,
}

/// Plays `session` out, reading `keyboard` and writing `output`. At the end of input or a Ctrl-C
/// the moves so far are printed, so nothing is lost.
pub fn run(
    mut session: Session,
    keyboard: &mut impl Keyboard,
    mut output: impl Write,
) -> io::Result<Ending> {
    writeln!(output, "{}.", rules_text(&session.options.start))?;
    for line in keyboard.busy(|| session.greeting()) {
        writeln!(output, "{line}")?;
    }
    while !session.is_over() {
        output.flush()?;
        let typed = if session.ctrl_c_pressed() {
            Typed::Interrupted
        } else {
            keyboard.read("> ")?
        };
        let replies = match typed {
            Typed::Line(text) => keyboard.busy(|| session.handle(&text)),
            Typed::Unreadable(unreadable) => vec![format!("Ignored {unreadable}.")],
            Typed::End => {
                writeln!(output, "{}", session.moves_line())?;
                break;
            }
            Typed::Interrupted => {
                writeln!(output, "{}", session.moves_line())?;
                output.flush()?;
                return Ok(Ending::Interrupted);
            }
        };
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
    }
    output.flush()?;
    Ok(if session.stopped_by_ctrl_c() {
        Ending::Interrupted
    } else {
        Ending::Left
    })
}

#[cfg(test)]
mod tests;
