//! The command line: `othello` and its subcommands.
//!
//! [`command`] is `othello` itself: its global options and the list of subcommands. One file per
//! subcommand holds its options (`Args`) and its `run`; [`options`] the option groups several
//! share; [`parse`] the policy clap's definitions cannot say; [`manual`] the man
//! page and completions; [`error`] the one error type and its exit statuses. The library does
//! the work: a subcommand's `run` turns its options into the library's values, calls it and
//! maps its errors.

mod analyze;
mod bench;
mod book;
mod command;
mod engine;
pub mod error;
mod gtp;
mod line;
mod manual;
mod r#match;
mod nboard;
mod options;
mod parse;
mod perfect_play;
mod perft;
mod play;
mod selfplay;
mod show;
mod solve;
mod train;

pub use command::{Cli, Command};
use error::{AppError, CommandEnd};
use options::BookChoice;
use othello::players::BookUse;
use othello::search::Evaluation;
pub use parse::parse;

/// Runs the command asked for. Every error, and the status it gives, is left to [`error::exit`].
/// `started` is when the program started: a tournament referee times a first move from then.
pub fn run(cli: Cli, started: std::time::Instant) -> Result<CommandEnd, AppError> {
    let rules = cli.rules;
    let eval = &match cli.eval {
        Evaluation::Classic => Evaluation::Classic,
        Evaluation::Learned(_) => {
            Evaluation::learned_from(&cli.weights).map_err(AppError::Input)?
        }
    };
    let book = || book_use(&cli.book).map_err(AppError::Input);
    match cli.command {
        None => return line::run(rules, cli.computer, &cli.engine, eval, book()?),
        Some(Command::Perft(args)) => perft::run(args, rules),
        Some(Command::Solve(args)) => solve::run(args, rules, eval),
        Some(Command::Analyze(args)) => analyze::run(args, rules, eval, &cli.book),
        Some(Command::Show(args)) => show::run(args, rules),
        Some(Command::Play(args)) => play::run(args, rules, eval, book()?),
        Some(Command::Selfplay(args)) => selfplay::run(args, rules, eval, book()?),
        Some(Command::Engine(args)) => engine::run(args, rules, eval, book()?, started),
        Some(Command::Match(args)) => r#match::run(args, rules),
        Some(Command::Gtp(args)) => gtp::run(args, rules, eval, book()?),
        Some(Command::Nboard(args)) => nboard::run(args, rules, eval, book()?),
        Some(Command::Bench(args)) => bench::run(args, eval),
        Some(Command::PerfectPlay(args)) => perfect_play::run(args, eval),
        Some(Command::Book(args)) => book::run(args, rules, eval),
        Some(Command::Train(args)) => train::run(args, rules, eval, &cli.weights),
        Some(Command::Completions(args)) => manual::print(&manual::completions(args.shell)),
        Some(Command::Manpage) => manual::print(&manual::manpage()?),
    }?;
    Ok(CommandEnd::Done)
}

/// The book the computer plays from (`--book`'s file, else the built-in one, none with
/// `--no-book`) and how freely.
fn book_use(choice: &BookChoice) -> Result<Option<BookUse>, String> {
    if choice.no_book {
        return Ok(None);
    }
    let Some(book) = othello::opening::book::for_play(choice.book.as_deref())? else {
        return Ok(None);
    };
    // The draws among near moves differ from run to run unless the search's seed is set.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Ok(Some(BookUse::new(book, choice.book_margin, seed)))
}
