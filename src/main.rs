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
    // Learned weights, unless the classic evaluation is asked for everywhere.
    if cli.eval == cli::EvalArg::Learned {
        othello::search::weights::use_built_in(true);
        for path in &cli.weights {
            othello::search::weights::load(path).map_err(AppError::Input)?;
        }
    }
    match cli.command {
        None => return run::play(rules, cli.computer, &cli.search),
        Some(Command::Perft(args)) => run::perft(args, rules),
        Some(Command::Solve(args)) => run::solve(args, rules),
        Some(Command::Show(args)) => run::show(args, rules),
        Some(Command::Play(args)) => run::play_game(args, rules),
        Some(Command::Selfplay(args)) => run::selfplay(args, rules),
        Some(Command::Engine(args)) => run::engine(args, rules, started),
        Some(Command::Match(args)) => run::referee_match(args, rules),
        Some(Command::Gtp(search)) => run::gtp(search, rules),
        Some(Command::Nboard(search)) => run::nboard(search, rules),
        Some(Command::Bench(args)) => run::bench(args),
        Some(Command::PerfectPlay(args)) => run::perfect_play(args),
        Some(Command::Train(args)) => run::train(args, rules, &cli.weights),
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
