//! The `othello` binary: parse the command line, run the command, exit with its status.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // A tournament referee times a first move from the program's start: parsing and reading
    // weights count.
    let started = std::time::Instant::now();
    cli::error::exit(cli::parse().and_then(|cli| cli::run(cli, started)))
}
