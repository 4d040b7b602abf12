//! How a command ends, and the one place that turns it into a message and an exit status.
//!
//! The statuses (README.md, "Exit status"): 0 when the command did its work, also when the input
//! ended before the game did or the reader of stdout closed it; 2 for a bad command line or a
//! bad header; 128 plus the signal's number for a solve stopped by SIGINT or SIGTERM (its work
//! kept); 1 for anything else.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// How a command that did not fail ended.
#[must_use]
pub enum CommandEnd {
    /// It did all it was asked.
    Done,
    /// The line protocol's input ended before the game did: a notice on stderr, status 0.
    InputEnded,
}

/// Why a command stopped early. Each carries what stderr gets, if anything.
#[derive(Debug)]
pub enum AppError {
    /// What clap reports: `--help` and `--version` (on stdout, status 0) and a bad command line
    /// (on stderr with its usage line and the pointer to `--help`, status 2).
    Clap(clap::Error),
    /// A bad command line, including a position or opening that cannot be set up.
    Usage(String),
    /// Input on stdin that starts no game: a bad header line.
    Input(String),
    /// Stdout was closed by its reader: the program ends quietly.
    ClosedOutput,
    /// A signal stopped a long solve, whose work is kept (see [`othello::interrupt::Interrupt`]).
    Stopped { signal: i32, message: String },
    /// A step of a split solve that left work to do: a job stopped by its limit, a merge
    /// that wrote the next round or found results missing (see `othello::solve::work`). The status
    /// says which; the message, if any, goes to stderr.
    Unfinished { status: u8, message: Option<String> },
    /// Anything else that stopped the command.
    Failed(String),
}

impl AppError {
    /// The exit status of each kind of error.
    pub fn status(&self) -> u8 {
        match self {
            AppError::Clap(e) if !e.use_stderr() => 0,
            AppError::ClosedOutput => 0,
            AppError::Clap(_) => 2,
            AppError::Failed(_) => 1,
            AppError::Unfinished { status, .. } => *status,
            AppError::Usage(_) | AppError::Input(_) => 2,
            // As the shell reports a program the signal ended.
            AppError::Stopped { signal, .. } => (128 + signal).clamp(0, 255) as u8,
        }
    }
}

/// Says how the command ended (at most one line on stderr, or clap's text as clap renders it)
/// and gives its exit status.
pub fn exit(result: Result<CommandEnd, AppError>) -> ExitCode {
    match result {
        Ok(CommandEnd::Done) => ExitCode::SUCCESS,
        Ok(CommandEnd::InputEnded) => {
            say("input ended before the game was finished");
            ExitCode::SUCCESS
        }
        Err(e) => {
            match &e {
                AppError::Clap(clap) => {
                    let _ = clap.print();
                }
                AppError::ClosedOutput | AppError::Unfinished { message: None, .. } => {}
                AppError::Unfinished {
                    message: Some(message),
                    ..
                } => say(message),
                AppError::Usage(message)
                | AppError::Input(message)
                | AppError::Failed(message)
                | AppError::Stopped { message, .. } => say(message),
            }
            ExitCode::from(e.status())
        }
    }
}

/// One line on stderr; a closed stderr is ignored rather than a panic.
fn say(message: &str) {
    let _ = writeln!(io::stderr(), "othello: {message}");
}

/// Everything clap reports is printed as clap renders it: a bad command line keeps its usage
/// line and the pointer to `--help`, which say what to type instead.
impl From<clap::Error> for AppError {
    fn from(e: clap::Error) -> AppError {
        AppError::Clap(e)
    }
}

/// A failed command: its error with the whole chain of causes; a closed stdout anywhere in the
/// chain is a quiet end.
impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> AppError {
        if is_closed_pipe(&e) {
            AppError::ClosedOutput
        } else if let Some(&othello::interrupt::Stopped { signal }) = e.downcast_ref() {
            AppError::Stopped {
                signal,
                message: e.to_string(),
            }
        } else {
            AppError::Failed(format!("{e:#}"))
        }
    }
}

/// A failed read or write; a closed stdout is a quiet end.
impl From<io::Error> for AppError {
    fn from(e: io::Error) -> AppError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            AppError::ClosedOutput
        } else {
            AppError::Failed(e.to_string())
        }
    }
}

/// `e` as `status` with its message where it is a [`othello::start::BadPosition`] (an illegal move, a
/// position that does not exist), else as the error it is.
pub fn bad_position_as(e: anyhow::Error, status: fn(String) -> AppError) -> AppError {
    match e.downcast_ref::<othello::start::BadPosition>() {
        Some(_) => status(format!("{e:#}")),
        None => e.into(),
    }
}

/// The bytes of a list file, read whole up to [`othello::lines::MAX_LIST_FILE`], so that a huge or
/// endless one (`/dev/zero`) is refused rather than read without end. Its lines are read as
/// text one by one, so that one that is not names its number. A file over the cap is bad
/// input (status 2), as a game piped in over it is; a file that cannot be read at all is a
/// failure (status 1).
pub fn read_list(path: &Path, what: &str) -> Result<Vec<u8>, AppError> {
    othello::files::read_capped(path, othello::lines::MAX_LIST_FILE, what).map_err(|e| {
        let message = format!("cannot read {}: {e}", path.display());
        match e.kind() {
            io::ErrorKind::InvalidData => AppError::Input(message),
            _ => AppError::Failed(message),
        }
    })
}

/// Whether an I/O error only means the reader went away (`| head`).
fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// A file a command would not replace (see [`othello::files::check_replaceable`]) as its
/// error: one that could not be looked at is a failure (status 1); one of another kind, or no
/// regular file, a refusal (status 2) worded by `refused` from why.
pub fn not_replaced(
    path: &Path,
    e: othello::files::NotReplaced,
    refused: impl Fn(&str) -> String,
) -> AppError {
    use othello::files::NotReplaced;
    match e {
        NotReplaced::Io(e) => AppError::Failed(format!("{}: {e}", path.display())),
        NotReplaced::NotRegular => AppError::Usage(refused("not a regular file")),
        NotReplaced::Foreign(why) => AppError::Usage(refused(&why)),
    }
}
