use anyhow::Context;
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use othello::commands;
use othello::notation::{MoveList, PositionString};
use othello::players::{self, PlayerSpec};
use othello::protocol::{self, Computer, Ending, Options, RunError, Sides};
use othello::referee::{self, Protocol, SideSpec};
use othello::rules::{Color, Game, Move, Passes, RuleSet, Setup, Shape, Variant};
use othello::search::{Config, RootMoves, Scoring};
use othello::tournament;
use othello::{gtp, nboard};
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
    /// Search with this many threads [default: every core, or 1 with --depth alone, so that
    /// a depth-limited game repeats exactly].
    #[arg(long, requires = "computer", value_parser = threads_arg)]
    threads: Option<usize>,
}

impl SearchArgs {
    fn config(&self) -> Config {
        search_config(
            self.depth,
            self.move_time,
            self.hash_mb,
            self.seed,
            self.threads,
        )
    }
}

/// A thread count from 1 to 1024.
fn threads_arg(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..=1024) => Ok(n),
        _ => Err(format!(
            "a thread count is a whole number from 1 to 1024, not {text:?}"
        )),
    }
}

/// Every core the system lets this process use.
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A depth alone means no time limit; no limit at all means the default time.
/// Threads: as asked, else every core, but one for a depth alone (which then repeats exactly).
fn search_config(
    depth: Option<u32>,
    move_time: Option<Duration>,
    hash_mb: usize,
    seed: Option<u64>,
    threads: Option<usize>,
) -> Config {
    let move_time = match (depth, move_time) {
        (Some(_), None) => None,
        (_, Some(t)) => Some(t),
        (None, None) => Config::default().move_time,
    };
    let threads = threads.unwrap_or(if move_time.is_none() { 1 } else { all_cores() });
    Config {
        depth,
        move_time,
        hash_mb,
        seed,
        scoring: Scoring::Plain,
        threads,
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
        #[arg(long, conflicts_with_all = ["position", "moves", "all_moves", "misere", "progress", "rows", "cols", "first", "top_left"])]
        file: Option<std::path::PathBuf>,
        #[command(flatten)]
        start: StartArgs,
        /// Solve the position after these moves (standard notation, such as f5d6c3 or
        /// "c4 e3 pa", row 1 at the top).
        #[arg(long, default_value = "")]
        moves: MoveList,
        /// Give every legal move its exact value, not only the best ones.
        #[arg(long)]
        all_moves: bool,
        /// Show progress on stderr even when it is not a terminal.
        #[arg(long)]
        progress: bool,
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 256, value_parser = players::parse_hash_mb)]
        hash_mb: usize,
        /// Solve with this many threads [default: every core]. The value is exact with any
        /// number; with more than one, which of several best moves is shown first may vary.
        #[arg(long, value_parser = threads_arg)]
        threads: Option<usize>,
        /// Refuse a position with more empty cells than this: far beyond it an exact solve
        /// does not finish in any useful time (FFO #59, 34 empty cells, takes hours).
        #[arg(long, default_value_t = 40)]
        max_empties: usize,
    },
    /// Play a move list and print every step: the move, its flips, passes, the position after.
    ///
    /// Moves are squares in standard notation, a column letter and a row counted from the top
    /// (B1, f5), run together or apart, in either case; pa is a pass. The game starts from
    /// --position, or else from the four-disc start of --rows/--cols/--first/--top-left.
    Show {
        /// The moves, such as `B1 A1 C4` or `f5d6c3`; all arguments together make one list.
        moves: Vec<MoveList>,
        #[command(flatten)]
        start: StartArgs,
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
    /// Play one side of a seed 001 tournament game: moves such as (W D 3) on stdin and stdout.
    ///
    /// Rows count from the bottom and White moves first, from D5 and E4. The program writes its
    /// moves (a pass is (W P 1)) and reads the opponent's; a line that is not the opponent's
    /// legal move is named on stderr and ends the program with status 1. With --move-time T
    /// the search stops a tenth of T (at least 10 ms) early, so the move reaches a referee that
    /// allows T.
    Engine {
        /// The colour this program plays.
        #[arg(long, value_enum)]
        color: Side,
        #[command(flatten)]
        search: EngineArgs,
        #[command(flatten)]
        board: TournamentBoard,
        /// Moves already played, in standard notation with the same square names as the
        /// triples (f5d6c3 is (W F 5) (B D 6) (W C 3)); pa is a pass.
        #[arg(long, default_value = "")]
        opening: MoveList,
    },
    /// Referee games between two programs under seed 001's rules.
    ///
    /// Each program is a shell command started afresh for every game. A triples program gets
    /// its colour as `--color W|B` (or wherever the command says {color}) and a non-empty
    /// opening as `--opening f5d6` (or at {opening}). An illegal move or pass, a malformed
    /// line, a crash or a move over the time limit loses the game on the spot.
    Match {
        /// The first program's command.
        #[arg(long)]
        a: String,
        /// The second program's command.
        #[arg(long)]
        b: String,
        #[arg(long, default_value = "triples")]
        a_protocol: Protocol,
        #[arg(long, default_value = "triples")]
        b_protocol: Protocol,
        #[arg(long, default_value = "A")]
        a_name: String,
        #[arg(long, default_value = "B")]
        b_name: String,
        #[arg(long, default_value_t = 2)]
        games: usize,
        /// Games played at the same time; keep it at most the number of cores, or the programs
        /// slow each other down.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: u16,
        /// The longest a move may take.
        #[arg(long, default_value = "1s", value_parser = players::parse_duration)]
        move_time: Duration,
        /// The first program's limit, if it differs.
        #[arg(long, value_parser = players::parse_duration)]
        a_move_time: Option<Duration>,
        /// The second program's limit, if it differs.
        #[arg(long, value_parser = players::parse_duration)]
        b_move_time: Option<Duration>,
        /// Opening lines, one per line (f5d6c3); each is played twice with colours swapped.
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// Write every game here: its moves (f5d6c3...), the sides in order, the discs.
        #[arg(long)]
        games_out: Option<std::path::PathBuf>,
        #[command(flatten)]
        board: TournamentBoard,
    },
    /// Play over the Go Text Protocol, as Othello programs speak it (gtp-rhino, Quarry).
    Gtp {
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Play over the NBoard protocol (the NBoard GUI and the programs that drive Edax).
    Nboard {
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Search a fixed set of positions to a fixed depth; report nodes, speed and time.
    Bench {
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
        hash_mb: usize,
        /// Search with this many threads (node counts repeat exactly only with 1).
        #[arg(long, default_value_t = 1, value_parser = threads_arg)]
        threads: usize,
    },
    /// The perfect-play value of every small board from the standard start, as markdown.
    ///
    /// Every board of at most --max-cells cells with rows <= columns (CxR is the same game
    /// turned over), or the --boards given, under each rule set, goal and placement asked for.
    /// An entry not solved within its time limit is reported as such. With --cache, each
    /// finished entry is added to the file at once, and a later run takes it from there (an
    /// unsolved one is tried again only with a larger limit). Progress goes to stderr.
    PerfectPlay {
        /// Every board of at most this many cells, rows <= columns.
        #[arg(long, default_value_t = 36, value_parser = clap::value_parser!(u16).range(9..=676))]
        max_cells: u16,
        /// These boards instead, such as 4x4,5x6 (rows x columns, 3 to 26).
        #[arg(long, value_delimiter = ',', conflicts_with = "max_cells")]
        boards: Vec<Shape>,
        /// The rule sets, full and/or simple.
        #[arg(long, value_enum, value_delimiter = ',', default_values_t = [RulesArg::Full, RulesArg::Simple])]
        rule_sets: Vec<RulesArg>,
        /// normal (more discs win) and/or misere (fewer discs win).
        #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Goal::Normal, Goal::Misere])]
        goals: Vec<Goal>,
        /// standard (a move must flip) and/or anywhere (place-anywhere).
        #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Placement::Standard, Placement::Anywhere])]
        placements: Vec<Placement>,
        /// The longest any entry may take, such as 10m or 1h [default: no limit].
        #[arg(long, value_parser = players::parse_duration)]
        limit: Option<Duration>,
        /// The longest a place-anywhere entry may take (within --limit).
        #[arg(long, default_value = "1h", value_parser = players::parse_duration)]
        place_anywhere_limit: Duration,
        /// Add each finished entry to this file, and take entries found earlier from it.
        #[arg(long)]
        cache: Option<std::path::PathBuf>,
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 256, value_parser = players::parse_hash_mb)]
        hash_mb: usize,
        /// Solve each entry with this many threads [default: every core].
        #[arg(long, value_parser = threads_arg)]
        threads: Option<usize>,
    },
}

/// Whether a game is won with more discs or, under misère, fewer.
#[derive(Clone, Copy, ValueEnum)]
enum Goal {
    Normal,
    Misere,
}

/// Whether a move must flip (standard) or may go on any empty cell (place-anywhere).
#[derive(Clone, Copy, ValueEnum)]
enum Placement {
    Standard,
    Anywhere,
}

/// How a program side searches (`engine`, `gtp`, `nboard`).
#[derive(clap::Args)]
struct EngineArgs {
    /// Search this many moves ahead (instead of a time limit).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    depth: Option<u32>,
    /// Time for each move, such as 250ms or 2s [default: 1s, or none with --depth].
    #[arg(long, value_parser = players::parse_duration)]
    move_time: Option<Duration>,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
    hash_mb: usize,
    /// Vary the play with this seed (the same seed plays the same way).
    #[arg(long)]
    seed: Option<u64>,
    /// Search with this many threads [default: every core, or 1 with --depth alone].
    #[arg(long, value_parser = threads_arg)]
    threads: Option<usize>,
}

impl EngineArgs {
    fn config(&self) -> Config {
        search_config(
            self.depth,
            self.move_time,
            self.hash_mb,
            self.seed,
            self.threads,
        )
    }
}

/// Where a game starts: a position string, or the start of a board; and whether misère.
#[derive(clap::Args)]
struct StartArgs {
    /// Start from this position string, such as "(b ---- -wb- -bw- ----)", instead of the
    /// four-disc start of --rows/--cols/--first/--top-left.
    #[arg(long, conflicts_with_all = ["rows", "cols", "first", "top_left"])]
    position: Option<PositionString>,
    #[command(flatten)]
    board: BoardArgs,
    /// The player with fewer discs wins.
    #[arg(long)]
    misere: bool,
}

impl StartArgs {
    fn start(self, variant: impl Fn(bool) -> Variant) -> commands::Start {
        match self.position {
            Some(p) => commands::Start::Position(p, variant(self.misere)),
            None => commands::Start::Setup(self.board.setup(variant(self.misere))),
        }
    }
}

/// The board of a tournament game: its size and whether misère; the start is the standard one.
#[derive(clap::Args)]
struct TournamentBoard {
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(3..=26))]
    rows: u8,
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(3..=26))]
    cols: u8,
    /// The player with fewer discs wins.
    #[arg(long)]
    misere: bool,
}

impl TournamentBoard {
    fn setup(&self, variant: impl Fn(bool) -> Variant) -> Setup {
        Setup {
            shape: board_shape(self.rows, self.cols),
            variant: variant(self.misere),
            first: Color::Black,
            top_left: Color::White,
        }
    }
}

/// The board of two sides that clap has checked.
fn board_shape(rows: u8, cols: u8) -> Shape {
    Shape::new(rows.into(), cols.into()).expect("clap checks both sides")
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
            shape: board_shape(self.rows, self.cols),
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

impl From<RulesArg> for RuleSet {
    fn from(r: RulesArg) -> RuleSet {
        match r {
            RulesArg::Full => RuleSet::Full,
            RulesArg::Simple => RuleSet::Simple,
        }
    }
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
    // The matches are kept to tell options given from defaults (perfect-play refuses --rules).
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(e),
    };
    let rule_set = RuleSet::from(cli.rules);
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
                    .unwrap_or_else(|| commands::default_opening_plies(setup.shape)),
                seed,
            };
            let mut stderr = io::stderr();
            let progress = progress_on_terminal(&mut stderr);
            let result = commands::selfplay(&series, &mut io::stdout().lock(), progress);
            finish(result.map(|_| ()))
        }
        Some(Command::Engine {
            color,
            search,
            board,
            opening,
        }) => engine(
            board.setup(variant),
            // Seed 001's colours are the standard ones swapped (see `tournament`).
            Color::from(color).opposite(),
            search.config(),
            &opening,
        ),
        Some(Command::Match {
            a,
            b,
            a_protocol,
            b_protocol,
            a_name,
            b_name,
            games,
            jobs,
            move_time,
            a_move_time,
            b_move_time,
            openings,
            games_out,
            board,
        }) => {
            let setup = board.setup(variant);
            let sides = [
                SideSpec {
                    name: a_name,
                    command: a,
                    protocol: a_protocol,
                    move_time: a_move_time.unwrap_or(move_time),
                },
                SideSpec {
                    name: b_name,
                    command: b,
                    protocol: b_protocol,
                    move_time: b_move_time.unwrap_or(move_time),
                },
            ];
            finish(referee_match(
                sides,
                (games, jobs.into()),
                setup,
                openings,
                games_out,
            ))
        }
        Some(Command::Show { moves, start }) => {
            let start = start.start(variant);
            let moves: MoveList = moves.into_iter().flat_map(|list| list.0).collect();
            let result = commands::show(&start, &moves, &mut io::stdout().lock());
            finish(result.map(|_| ()))
        }
        Some(Command::Gtp { engine }) => {
            let settings = gtp::Settings {
                variant: variant(false),
                config: engine.config(),
            };
            serve(gtp::run(settings, io::stdin().lock(), io::stdout().lock()))
        }
        Some(Command::Nboard { engine }) => {
            let settings = nboard::Settings {
                variant: variant(false),
                config: engine.config(),
            };
            let (input, output) = (io::stdin().lock(), io::stdout().lock());
            serve(nboard::run(settings, input, output, io::stderr()))
        }
        Some(Command::Bench { hash_mb, threads }) => {
            finish(commands::bench(hash_mb, threads, &mut io::stdout().lock()).map(|_| ()))
        }
        Some(Command::PerfectPlay {
            max_cells,
            boards,
            rule_sets,
            goals,
            placements,
            limit,
            place_anywhere_limit,
            cache,
            hash_mb,
            threads,
        }) => {
            let given = |id| {
                let sub = matches.subcommand_matches("perfect-play");
                sub.and_then(|m| m.value_source(id)) == Some(ValueSource::CommandLine)
            };
            // The global options name one variant; the table takes lists of them.
            if given("rules") || given("place_anywhere") {
                say("perfect-play takes --rule-sets, --goals and --placements, not --rules or --place-anywhere");
                return ExitCode::from(2);
            }
            let options = commands::PerfectPlayOptions {
                boards: if boards.is_empty() {
                    commands::boards_up_to(max_cells.into())
                } else {
                    boards
                },
                rule_sets: rule_sets.into_iter().map(RuleSet::from).collect(),
                misere: goals.iter().map(|g| matches!(g, Goal::Misere)).collect(),
                place_anywhere: placements
                    .iter()
                    .map(|p| matches!(p, Placement::Anywhere))
                    .collect(),
                limit,
                place_anywhere_limit: Some(place_anywhere_limit),
                hash_mb,
                threads: threads.unwrap_or_else(all_cores),
                cache,
                command_line: command_line(),
            };
            let (mut out, mut log) = (io::stdout().lock(), io::stderr());
            finish(commands::perfect_play(&options, &mut out, &mut log).map(|_| ()))
        }
        Some(Command::Solve {
            file: Some(file),
            hash_mb,
            threads,
            ..
        }) => {
            let threads = threads.unwrap_or_else(all_cores);
            let result = std::fs::File::open(&file)
                .with_context(|| format!("cannot read {}", file.display()))
                .and_then(|f| {
                    let input = io::BufReader::new(f);
                    commands::solve_file(input, hash_mb, threads, &mut io::stdout().lock())
                })
                .map(|_| ());
            finish(result)
        }
        Some(Command::Solve {
            file: None,
            start,
            moves,
            all_moves,
            progress,
            hash_mb,
            threads,
            max_empties,
        }) => {
            let start = start.start(variant);
            let options = commands::SolveOptions {
                which: if all_moves {
                    RootMoves::All
                } else {
                    RootMoves::Ties
                },
                hash_mb,
                threads: threads.unwrap_or_else(all_cores),
                max_empties: Some(max_empties),
            };
            let terminal = io::stderr().is_terminal();
            let progress: Option<Box<dyn Write + Send>> =
                (terminal || progress).then(|| Box::new(io::stderr()) as _);
            let result = commands::solve_from(
                &start,
                &moves,
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

fn engine(setup: Setup, me: Color, mut config: Config, opening: &MoveList) -> ExitCode {
    othello::with_bits!(setup.shape, |B| engine_in::<B>(
        setup,
        me,
        &mut config,
        &opening.0
    ))
}

fn engine_in<B: othello::rules::Bits>(
    setup: Setup,
    me: Color,
    config: &mut Config,
    opening: &[Move],
) -> ExitCode {
    config.move_time = config.move_time.map(tournament::search_budget);
    let game = match Game::<B>::new(&setup, Passes::Explicit) {
        Ok(game) => game,
        Err(e) => {
            say(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let player = PlayerSpec::Engine(*config).build(game.rules().clone(), 0);
    let session = match tournament::EngineSession::new(game, me, player, opening) {
        Ok(session) => session,
        Err(e) => {
            say(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin().lock();
    match tournament::run(session, stdin, io::stdout().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(tournament::EngineError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            say(&e.to_string());
            ExitCode::FAILURE
        }
    }
}

/// The end of an engine protocol session: a closed output is a normal end.
fn serve(result: io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            say(&e.to_string());
            ExitCode::FAILURE
        }
    }
}

fn referee_match(
    sides: [SideSpec; 2],
    (games, jobs): (usize, usize),
    setup: Setup,
    openings: Option<std::path::PathBuf>,
    games_out: Option<std::path::PathBuf>,
) -> anyhow::Result<()> {
    let openings = match openings {
        Some(path) => {
            let file = std::fs::File::open(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            commands::read_openings(io::BufReader::new(file), &setup)
                .with_context(|| path.display().to_string())?
        }
        None => Vec::new(),
    };
    let mut games_out = match games_out {
        Some(path) => Some(io::BufWriter::new(
            std::fs::File::create(&path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => None,
    };
    referee::end_contestants_on_signals().context("cannot watch for signals")?;
    let m = referee::Match {
        sides,
        games,
        setup,
        openings,
        jobs,
    };
    let mut stderr = io::stderr();
    let progress = progress_on_terminal(&mut stderr);
    referee::run_match(
        &m,
        &mut io::stdout().lock(),
        games_out.as_mut().map(|w| w as &mut dyn Write),
        progress,
    )?;
    Ok(())
}

/// Where progress goes: stderr when it is a terminal, nowhere otherwise.
fn progress_on_terminal(stderr: &mut io::Stderr) -> Option<&mut dyn Write> {
    if stderr.is_terminal() {
        Some(stderr)
    } else {
        None
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

/// The command line as a shell would take it back, the program named `othello`.
fn command_line() -> String {
    let quote = |arg: String| {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
        if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', r"'\''"))
        }
    };
    std::iter::once("othello".to_string())
        .chain(std::env::args().skip(1).map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One line on stderr; a closed stderr is ignored rather than a panic.
fn say(message: &str) {
    let _ = writeln!(io::stderr(), "othello: {message}");
}
