use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use othello::commands;
use othello::players::{self, PlayerSpec};
use othello::protocol::{self, Computer, Ending, Options, RunError, Sides};
use othello::rules::{Color, RuleSet, Setup, Variant};
use othello::search::{Config, RootMoves, Scoring};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// Othello (Reversi) referee and player for boards from 3x3 to 26x26.
///
/// With no subcommand, plays the line protocol on standard input and output: prints FULL or
/// SIMPLE, reads five header lines (rows, columns, first player, top-left colour, > or <), then
/// one move per line ("row col", 1-based, row 1 on top).
#[derive(Parser)]
#[command(name = "othello", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Which rule set decides legal moves and flips.
    #[arg(long, value_enum, default_value_t = RulesArg::Full, global = true)]
    rules: RulesArg,
    /// Any empty cell is a legal move; no passes; the game ends when the board is full.
    #[arg(long, global = true)]
    place_anywhere: bool,
    /// The side the program plays in the line protocol: W, B or both.
    #[arg(long, value_enum)]
    computer: Option<ComputerArg>,
    #[command(flatten)]
    search: SearchArgs,
}

/// How the computer player searches.
#[derive(clap::Args)]
struct SearchArgs {
    /// Search this many moves ahead (instead of a time limit).
    #[arg(long, requires = "computer", value_parser = clap::value_parser!(u32).range(1..=1000))]
    depth: Option<u32>,
    /// Time for each move, such as 250ms or 2s; the move comes back within it [default: 1s].
    #[arg(long, requires = "computer", value_parser = players::parse_duration)]
    move_time: Option<Duration>,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
    hash_mb: usize,
    /// Vary the play with this seed (the same seed plays the same way).
    #[arg(long, requires = "computer")]
    seed: Option<u64>,
}

impl SearchArgs {
    fn config(&self) -> Config {
        let move_time = match (self.depth, self.move_time) {
            (Some(_), None) => None,
            (_, Some(t)) => Some(t),
            (None, None) => Config::default().move_time,
        };
        Config {
            depth: self.depth,
            move_time,
            hash_mb: self.hash_mb,
            seed: self.seed,
            scoring: Scoring::Plain,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ComputerArg {
    #[value(name = "B", alias = "b")]
    B,
    #[value(name = "W", alias = "w")]
    W,
    #[value(alias = "BOTH")]
    Both,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree from the start position, for depths 1 to N.
    Perft {
        #[arg(long)]
        depth: u32,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Perfect play: the value, final count, best moves and a line of perfect play from the
    /// start position (or after --moves); or every position of an OBF file.
    Solve {
        /// An OBF file (the FFO test format, 8x8): solve every line, compare with its scores.
        #[arg(long, conflicts_with_all = ["moves", "all_moves", "misere", "progress", "rows", "cols", "first", "top_left"])]
        file: Option<std::path::PathBuf>,
        /// Solve the position after these moves from the start (standard notation, such as
        /// f5d6c3 or "c4 e3 pa", row 1 at the top).
        #[arg(long)]
        moves: Option<String>,
        /// Give every legal move its exact value, not only the best ones.
        #[arg(long)]
        all_moves: bool,
        /// The player with fewer discs wins.
        #[arg(long)]
        misere: bool,
        /// Show progress on stderr even when it is not a terminal.
        #[arg(long)]
        progress: bool,
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 256, value_parser = players::parse_hash_mb)]
        hash_mb: usize,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Play a series of games between two players and report the score.
    ///
    /// A player is `random`, `greedy` (most flips), `weights` (fixed square weights) or the
    /// engine with settings such as `depth=6` or `time=50ms,hash=32,seed=3`.
    Selfplay {
        #[arg(long)]
        a: PlayerSpec,
        #[arg(long)]
        b: PlayerSpec,
        #[arg(long, default_value_t = 20)]
        games: usize,
        #[command(flatten)]
        board: BoardArgs,
        /// The player with fewer discs wins.
        #[arg(long)]
        misere: bool,
        /// Random plies before the players take over [default: cells / 16, at most 8].
        #[arg(long)]
        opening_plies: Option<usize>,
        /// Seed for the openings and the yardstick players' tie-breaks.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Search a fixed set of positions to a fixed depth; report nodes, speed and time.
    Bench {
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
        hash_mb: usize,
    },
}

/// The board and start position.
#[derive(clap::Args)]
struct BoardArgs {
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(3..=26))]
    rows: u8,
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(3..=26))]
    cols: u8,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = Side::B)]
    first: Side,
    /// The colour on the top-left and bottom-right cells of the starting 2x2 block.
    #[arg(long, value_enum, default_value_t = Side::W)]
    top_left: Side,
}

impl BoardArgs {
    fn setup(&self, variant: Variant) -> Setup {
        Setup {
            rows: self.rows.into(),
            cols: self.cols.into(),
            variant,
            first: self.first.into(),
            top_left: self.top_left.into(),
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum RulesArg {
    Full,
    Simple,
}

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    #[value(name = "B", alias = "b")]
    B,
    #[value(name = "W", alias = "w")]
    W,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::B => Color::Black,
            Side::W => Color::White,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let rule_set = match cli.rules {
        RulesArg::Full => RuleSet::Full,
        RulesArg::Simple => RuleSet::Simple,
    };
    let variant = |misere| Variant {
        rule_set,
        place_anywhere: cli.place_anywhere,
        misere,
    };
    match cli.command {
        None => play(Options {
            rule_set,
            place_anywhere: cli.place_anywhere,
            computer: cli.computer.map(|c| Computer {
                sides: match c {
                    ComputerArg::B => Sides::Black,
                    ComputerArg::W => Sides::White,
                    ComputerArg::Both => Sides::Both,
                },
                config: cli.search.config(),
            }),
        }),
        Some(Command::Perft { depth, board }) => {
            let setup = board.setup(variant(false));
            let result = commands::perft_table(&setup, depth, &mut io::stdout().lock());
            finish(result)
        }
        Some(Command::Selfplay {
            a,
            b,
            games,
            board,
            misere,
            opening_plies,
            seed,
        }) => {
            let setup = board.setup(variant(misere));
            let series = commands::Series {
                a,
                b,
                games,
                setup,
                opening_plies: opening_plies
                    .unwrap_or_else(|| commands::default_opening_plies(setup.rows, setup.cols)),
                seed,
            };
            let mut stderr = io::stderr();
            let progress: Option<&mut dyn Write> = if stderr.is_terminal() {
                Some(&mut stderr)
            } else {
                None
            };
            let result = commands::selfplay(&series, &mut io::stdout().lock(), progress);
            finish(result.map(|_| ()))
        }
        Some(Command::Bench { hash_mb }) => {
            finish(commands::bench(hash_mb, &mut io::stdout().lock()).map(|_| ()))
        }
        Some(Command::Solve {
            file: Some(file),
            hash_mb,
            ..
        }) => {
            let result = std::fs::File::open(&file)
                .with_context(|| format!("cannot read {}", file.display()))
                .and_then(|f| {
                    commands::solve_file(io::BufReader::new(f), hash_mb, &mut io::stdout().lock())
                })
                .map(|_| ());
            finish(result)
        }
        Some(Command::Solve {
            file: None,
            moves,
            all_moves,
            misere,
            progress,
            hash_mb,
            board,
        }) => {
            let setup = board.setup(variant(misere));
            let options = commands::SolveOptions {
                which: if all_moves {
                    RootMoves::All
                } else {
                    RootMoves::Ties
                },
                hash_mb,
            };
            let terminal = io::stderr().is_terminal();
            let progress: Option<Box<dyn Write + Send>> =
                (terminal || progress).then(|| Box::new(io::stderr()) as _);
            let result = commands::solve_from_start(
                &setup,
                moves.as_deref().unwrap_or(""),
                &options,
                progress,
                terminal,
                &mut io::stdout().lock(),
            );
            match result {
                // The position asked for does not exist: a bad command line.
                Err(e) if e.downcast_ref::<commands::BadPosition>().is_some() => {
                    say(&format!("{e:#}"));
                    ExitCode::from(2)
                }
                result => finish(result.map(|_| ())),
            }
        }
    }
}

fn play(options: Options) -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::new(io::stdout().lock());
    match protocol::run(options, stdin, stdout) {
        Ok(Ending::Finished) => ExitCode::SUCCESS,
        Ok(Ending::InputEnded) => {
            say("input ended before the game was finished");
            ExitCode::SUCCESS
        }
        Err(RunError::Header(e)) => {
            say(&e.to_string());
            ExitCode::from(2)
        }
        Err(RunError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(RunError::Io(e)) => {
            say(&e.to_string());
            ExitCode::FAILURE
        }
    }
}

fn finish(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if commands::is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say(&format!("{e:#}"));
            ExitCode::FAILURE
        }
    }
}

/// `--help` and `--version` print as clap prints them; a bad command line is one line on stderr
/// and exit status 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let text = e.to_string();
    let message: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let message = message.join(" ");
    say(message.strip_prefix("error: ").unwrap_or(&message));
    ExitCode::from(2)
}

/// One line on stderr; a closed stderr is ignored rather than a panic.
fn say(message: &str) {
    let _ = writeln!(io::stderr(), "othello: {message}");
}
