//! The `othello` binary: parse the command line, run the command, exit with its status.

mod cli;
mod error;
mod run;

use cli::Command;
use error::{AppError, Outcome};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A tournament referee times a first move from the program's start: parsing and reading
    // weights count.
    let started = std::time::Instant::now();
    error::exit(cli::parse().and_then(|cli| dispatch(cli, started)))
}

/// Runs the command asked for. Every error, and the status it gives, is left to [`error::exit`].
fn dispatch(cli: cli::Cli, started: std::time::Instant) -> Result<Outcome, AppError> {
    let rules = cli.rules;
    let eval = &cli.evaluation().map_err(AppError::Input)?;
    let books = cli.book.clone();
    let book = || books.load().map_err(AppError::Input);
    match cli.command {
        None => return run::play(rules, cli.computer, &cli.search, eval, book()?),
        Some(Command::Perft(args)) => run::perft(args, rules),
        Some(Command::Solve(args)) => run::solve(args, rules, eval),
        Some(Command::Analyze(args)) => run::analyze(args, rules, eval),
        Some(Command::Show(args)) => run::show(args, rules),
        Some(Command::Play(args)) => run::play_game(args, rules, eval, book()?),
        Some(Command::Selfplay(args)) => run::selfplay(args, rules, eval, book()?),
        Some(Command::Engine(args)) => run::engine(args, rules, eval, book()?, started),
        Some(Command::Match(args)) => run::referee_match(args, rules),
        Some(Command::Gtp(search)) => run::gtp(search, rules, eval, book()?),
        Some(Command::Nboard(search)) => run::nboard(search, rules, eval, book()?),
        Some(Command::Bench(args)) => run::bench(args, eval),
        Some(Command::PerfectPlay(args)) => run::perfect_play(args, eval),
        Some(Command::Book(args)) => run::book(args, rules, eval),
        Some(Command::Train(args)) => run::train(args, rules, eval, &cli.weights),
        Some(Command::Completions(args)) => print(&cli::completions(args.shell)),
        Some(Command::Manpage) => print(&cli::manpage()?),
    }?;
    Ok(Outcome::Done)
}

/// Text made whole before it is written, so that a closed stdout is a quiet end, not a panic
/// inside the generator.
fn print(text: &[u8]) -> Result<(), AppError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text)?;
    Ok(stdout.flush()?)
}
