//! The command line: clap's types and their conversions to the library's.

use crate::error::AppError;
use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{Arg, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use othello::commands::{self, analyze};
use othello::notation::{MoveList, PositionString};
use othello::opening::book;
use othello::players::{self, BookUse, PlayerSpec};
use othello::protocols::line::Sides;
use othello::referee::Protocol;
use othello::rules::{Color, RuleSet, Setup, Shape, Variant, MAX_SIDE, MIN_SIDE};
use othello::search::{weights, Config, Evaluation, Scoring};
use std::path::PathBuf;
use std::time::Duration;

/// Othello (Reversi) referee and player for boards from 3x3 to 26x26.
///
/// With no subcommand, plays the line protocol on standard input and output: prints FULL or
/// SIMPLE, reads five header lines (rows, columns, first player, top-left colour, > or <), then
/// one move per line ("row col", 1-based, row 1 on top).
#[derive(Parser)]
#[command(name = "othello", version)]
#[command(mut_args(needs_computer))]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub rules: GameRules,
    /// The side the program plays in the line protocol: black, white (or B, W) or both.
    #[arg(long, value_enum, ignore_case = true)]
    pub computer: Option<ComputerArg>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Learned evaluation weights (made by `othello train fit`), used for the board and rules
    /// they were made for instead of the built-in ones; may be given more than once.
    #[arg(long, global = true)]
    pub weights: Vec<std::path::PathBuf>,
    /// The evaluation: learned weights where the board and rules have some (built in for 8x8
    /// and 6x6, see weights/README.md, or --weights), the classic hand-weighted one elsewhere;
    /// or the classic one everywhere.
    #[arg(long, global = true, default_value = "learned", value_parser = evaluation_arg(), conflicts_with = "weights")]
    pub eval: Evaluation,
    #[command(flatten)]
    pub book: BookChoice,
}

impl Cli {
    /// The evaluation every search of the command uses: `--eval`, with the sets of `--weights`
    /// read (a missing or damaged file is an error naming it).
    pub fn evaluation(&self) -> Result<Evaluation, String> {
        match &self.eval {
            Evaluation::Classic => Ok(Evaluation::Classic),
            Evaluation::Learned(_) => {
                let mut sets: Vec<std::sync::Arc<weights::Weights>> = Vec::new();
                for path in &self.weights {
                    let read = weights::read(path)?;
                    // A later file for the same board and rules replaces an earlier one.
                    sets.retain(|w| {
                        (w.rows, w.cols, w.variant) != (read.rows, read.cols, read.variant)
                    });
                    sets.push(std::sync::Arc::new(read));
                }
                Ok(Evaluation::Learned(sets))
            }
        }
    }
}

/// Which opening book the computer plays from, and how freely.
#[derive(clap::Args, Clone)]
pub struct BookChoice {
    /// The opening book the computer plays from where it has the position (made by `othello
    /// book learn`) [default: the built-in 8x8 book].
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<std::path::PathBuf>,
    /// Play without an opening book: every move from a search.
    #[arg(long, global = true)]
    pub no_book: bool,
    /// Vary the book's play: any book move within this many discs of the best may be played
    /// (0: always the best).
    #[arg(long, global = true, value_name = "DISCS", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub book_margin: u32,
}

impl BookChoice {
    /// The book the computer plays from: `--book`'s file, else the built-in one, none with
    /// `--no-book`. A missing or damaged file is an error naming it; a file for another board
    /// or rules than the game's says so once, when the engine first looks for a move in it.
    pub fn load(&self) -> Result<Option<BookUse>, String> {
        if self.no_book {
            return Ok(None);
        }
        let book = match &self.book {
            Some(path) => {
                let mut read = book::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
                read.say_when_unused(path);
                std::sync::Arc::new(read)
            }
            None => match book::built_in() {
                Some(book) => book,
                None => return Ok(None),
            },
        };
        // The draws among near moves differ from run to run unless the search's seed is set.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Ok(Some(BookUse::new(book, self.book_margin, seed)))
    }
}

/// `--eval`'s values, listed for help and completions, read as [`Evaluation`].
fn evaluation_arg() -> impl TypedValueParser<Value = Evaluation> {
    clap::builder::PossibleValuesParser::new(["learned", "classic"])
        .try_map(|text| text.parse::<Evaluation>())
}

/// The line protocol takes a search option (all of [`SearchArgs`] but the table size) only
/// with `--computer`: the subcommands share the options, but always play a side.
fn needs_computer(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "depth" | "move_time" | "seed" | "threads" => arg.requires("computer"),
        _ => arg,
    }
}

/// The global options that a subcommand refuses (its help does not list them), and why.
const REFUSED_GLOBALS: [(&str, &str); 4] = [
    (
        "perfect-play",
        "perfect-play takes --rule-sets, --goals and --placements, not --rules or --place-anywhere",
    ),
    (
        "bench",
        "bench searches fixed cases, each under its own rules: --rules and --place-anywhere do not apply",
    ),
    ("completions", "completions takes no rules: --rules and --place-anywhere do not apply"),
    ("manpage", "manpage takes no rules: --rules and --place-anywhere do not apply"),
];

/// The options of the line protocol (no subcommand), which no subcommand takes from before its
/// name.
const LINE_PROTOCOL_ONLY: [&str; 6] = [
    "computer",
    "depth",
    "move_time",
    "hash_mb",
    "seed",
    "threads",
];

/// The whole command line as clap sees it: the derived definitions, with the global rule
/// options hidden from the help of the subcommands that refuse them. Completions and the man
/// page are made from it too.
pub fn command() -> clap::Command {
    hide_refused_globals(Cli::command())
}

fn hide_refused_globals(mut command: clap::Command) -> clap::Command {
    // A subcommand that has an option of a global's name keeps it and does not get the
    // global: a hidden copy is still parsed (and refused) but not listed.
    let hidden: Vec<Arg> = ["rules", "place_anywhere"]
        .into_iter()
        .filter_map(|id| command.get_arguments().find(|a| a.get_id() == id))
        .map(|a| a.clone().hide(true))
        .collect();
    for (name, _) in REFUSED_GLOBALS {
        command = command.mut_subcommand(name, |sub| sub.args(hidden.clone()));
    }
    command
}

/// Parses the command line. `--help`, `--version` and every bad command line come back as
/// errors (see [`AppError`]).
pub fn parse() -> Result<Cli, AppError> {
    parse_from(std::env::args_os().collect())
}

fn parse_from(args: Vec<std::ffi::OsString>) -> Result<Cli, AppError> {
    let mut command = command();
    let matches = match command.try_get_matches_from_mut(&args) {
        Ok(matches) => matches,
        Err(e) => {
            // `othello --depth 4 play` fails for want of --computer; the real mistake is
            // where the option stands, which the parse without that requirement shows.
            let relaxed = hide_refused_globals(
                Cli::command().mut_args(|a| a.requires(clap::builder::Resettable::Reset)),
            )
            .try_get_matches_from(&args);
            return Err(match relaxed.map(|m| misplaced(&mut command, &m)) {
                Ok(Some(hint)) => hint,
                _ => e.into(),
            });
        }
    };
    if let Some(hint) = misplaced(&mut command, &matches) {
        return Err(hint);
    }
    // The matches are kept to tell options given from defaults: the global options name one
    // variant, which perfect-play (lists of them) and bench (cases with their own) refuse.
    for (name, refusal) in REFUSED_GLOBALS {
        if let Some(sub) = matches.subcommand_matches(name) {
            let given = |id| sub.value_source(id) == Some(ValueSource::CommandLine);
            if given("rules") || given("place_anywhere") {
                let sub = command.find_subcommand_mut(name).expect("it was parsed");
                return Err(sub.error(ErrorKind::ArgumentConflict, refusal).into());
            }
        }
    }
    Ok(Cli::from_arg_matches(&matches)?)
}

/// A line-protocol option given before a subcommand's name, which would apply to nothing: the
/// error says where it goes (after the name, where the subcommand takes it) or that it does not
/// apply.
fn misplaced(command: &mut clap::Command, matches: &clap::ArgMatches) -> Option<AppError> {
    let name = matches.subcommand_name()?;
    let id = LINE_PROTOCOL_ONLY
        .into_iter()
        .find(|id| matches.value_source(id) == Some(ValueSource::CommandLine))?;
    let arg = command.get_arguments().find(|a| a.get_id() == id)?;
    let long = arg
        .get_long()
        .expect("every option has a long name")
        .to_string();
    let values: Vec<String> = matches
        .get_raw(id)
        .into_iter()
        .flatten()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    let sub = command.find_subcommand(name)?;
    let takes_it = sub.get_arguments().any(|a| {
        !a.is_hide_set()
            && (a.get_long() == Some(&long)
                || a.get_all_aliases()
                    .is_some_and(|l| l.contains(&long.as_str())))
    });
    let message = if takes_it {
        format!(
            "--{long} before the subcommand is an option of the line protocol; give it after: \
             othello {name} --{long} {}",
            values.join(" ")
        )
    } else {
        format!(
            "--{long} is an option of the line protocol (othello with no subcommand), which \
             {name} does not take"
        )
    };
    Some(command.error(ErrorKind::ArgumentConflict, message).into())
}

/// The global options: the rules of every game a command plays.
#[derive(clap::Args, Clone, Copy)]
pub struct GameRules {
    /// Which rule set decides legal moves and flips.
    #[arg(long, value_enum, default_value_t = RulesArg::Full, global = true)]
    pub rules: RulesArg,
    /// Any empty cell is a legal move; no passes; the game ends when the board is full.
    #[arg(long, global = true)]
    pub place_anywhere: bool,
}

impl GameRules {
    pub fn variant(self, misere: bool) -> Variant {
        Variant {
            rule_set: self.rules.into(),
            place_anywhere: self.place_anywhere,
            misere,
        }
    }
}

/// How the computer player searches (the line protocol with `--computer`, `engine`, `gtp`,
/// `nboard`).
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Search this many moves ahead (instead of a time limit).
    #[arg(long, visible_alias = "level", value_parser = clap::value_parser!(u32).range(1..=1000))]
    depth: Option<u32>,
    /// Time for each move, such as 250ms or 2s; the move comes back within it [default: 1s, or
    /// none with --depth].
    #[arg(long, value_parser = othello::durations::parse)]
    move_time: Option<Duration>,
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
    hash_mb: usize,
    /// Vary the play with this seed (the same seed plays the same way).
    #[arg(long)]
    seed: Option<u64>,
    /// Search with this many threads [default: every core, or 1 with --depth alone, so that
    /// a depth-limited game repeats exactly].
    #[arg(long, value_parser = threads_arg)]
    threads: Option<usize>,
}

impl SearchArgs {
    /// A depth alone means no time limit; no limit at all means the default time.
    /// Threads: as asked, else every core, but one for a depth alone (which then repeats
    /// exactly).
    pub fn config(&self, eval: &Evaluation) -> Config {
        let move_time = match (self.depth, self.move_time) {
            (Some(_), None) => None,
            (_, Some(t)) => Some(t),
            (None, None) => Config::default().move_time,
        };
        let threads = self
            .threads
            .unwrap_or(if move_time.is_none() { 1 } else { all_cores() });
        Config {
            depth: self.depth,
            move_time,
            hash_mb: self.hash_mb,
            seed: self.seed,
            scoring: Scoring::Plain,
            threads,
            eval: eval.clone(),
        }
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
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A number of rows or columns.
fn side() -> impl clap::builder::TypedValueParser<Value = u8> {
    clap::value_parser!(u8).range(MIN_SIDE as i64..=MAX_SIDE as i64)
}

/// The sides the program plays in the line protocol. A colour is spelled black or B, white or
/// W, in any case, wherever the command line takes one.
#[derive(Clone, Copy, ValueEnum)]
pub enum ComputerArg {
    /// Black (or B).
    #[value(alias = "B")]
    Black,
    /// White (or W).
    #[value(alias = "W")]
    White,
    /// Both sides.
    Both,
}

impl From<ComputerArg> for Sides {
    fn from(c: ComputerArg) -> Sides {
        match c {
            ComputerArg::Black => Sides::Black,
            ComputerArg::White => Sides::White,
            ComputerArg::Both => Sides::Both,
        }
    }
}

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaves of the game tree from the start position, for depths 1 to N.
    Perft(PerftArgs),
    /// Perfect play: the value, final count, best moves and a line of perfect play from the
    /// start position (or after --moves); or every position of an OBF file.
    Solve(SolveArgs),
    /// Go over a game move by move: the move played, the engine's best, both values and the
    /// discs lost, exact near the end and searched before; mistakes (?) and blunders (??)
    /// marked, each player's totals.
    ///
    /// The game is --moves, or a FILE (- for standard input) holding a GGF record, a game
    /// saved by `othello play` or a move list; an unfinished game too. It starts from the
    /// file's own position, --position, or the four-disc start of --rows/--cols.
    Analyze(AnalyzeArgs),
    /// Play a move list and print every step: the move, its flips, passes, the position after.
    ///
    /// Moves are squares in standard notation, a column letter and a row counted from the top
    /// (B1, f5), run together or apart, in either case; pa is a pass. The game starts from
    /// --position, or else from the four-disc start of --rows/--cols/--first/--top-left.
    Show(ShowArgs),
    /// A game for people at a terminal: a labelled board with the legal moves marked, moves
    /// typed as f5 or "row col", undo, redo, hints, save and load (type help in the game).
    Play(PlayArgs),
    /// Play a series of games between two players and report the score.
    ///
    /// A player is `random`, `greedy` (most flips), `weights` (fixed square weights) or the
    /// engine with settings such as `depth=6` or `time=50ms,hash=32,seed=3`.
    Selfplay(SelfplayArgs),
    /// Play one side of a tournament game: moves such as (W D 3) on stdin and stdout.
    ///
    /// Rows count from the bottom and White moves first, from D5 and E4. The program writes its
    /// moves (a pass is (W P 1)) and reads the opponent's; a line that is not the opponent's
    /// legal move is named on stderr and ends the program with status 1. With --move-time T
    /// the search stops a tenth of T (at least 10 ms) early, so the move reaches a referee that
    /// allows T.
    Engine(EngineArgs),
    /// Referee games between two programs under the tournament rules (move triples).
    ///
    /// Each program is a shell command started afresh for every game. A triples program gets
    /// its colour as `--color W|B` (or wherever the command says {color}) and a non-empty
    /// opening as `--opening f5d6` (or at {opening}). An illegal move or pass, a malformed
    /// line, a crash or a move over the time limit loses the game on the spot.
    Match(MatchArgs),
    /// Play over the Go Text Protocol, as Othello programs speak it (gtp-rhino, Quarry).
    Gtp(SearchArgs),
    /// Play over the NBoard protocol (the NBoard GUI and the programs that drive Edax).
    Nboard(SearchArgs),
    /// Search a fixed set of positions (or those of a file) to a fixed depth; report nodes,
    /// speed and time.
    Bench(BenchArgs),
    /// The perfect-play value of every small board from the standard start, as markdown.
    ///
    /// Every board of at most --max-cells cells with rows <= columns (CxR is the same game
    /// turned over), or the --boards given, under each rule set, goal and placement asked for.
    /// An entry not solved within its time limit is reported as such. With --cache, each
    /// finished entry is added to the file at once, and a later run takes it from there (an
    /// unsolved one is tried again only with a larger limit). Progress goes to stderr: a line as
    /// each entry starts and ends, and for an entry that has run a minute, one per root move
    /// finished and the node count every ten minutes.
    PerfectPlay(PerfectPlayArgs),
    /// Train a pattern evaluation: games labelled by the solver (gen), weights fitted to them
    /// (fit).
    Train(TrainArgs),
    /// The opening book: learn one by self-play, fix its values, show what it holds at a
    /// position, and exchange it with Edax (docs/book.md).
    Book(BookArgs),
    /// Print a completion script for a shell on stdout (README.md says where to put it).
    Completions(CompletionsArgs),
    /// Print the manual page, in roff, on stdout: `othello manpage > othello.1`.
    Manpage,
}

/// The options of `othello completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// A completion script of every subcommand and option for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "othello", &mut script);
    script
}

/// The manual page, in roff: the program and its options, then every subcommand (nested ones
/// too) with its synopsis, description and options, all on one page.
pub fn manpage() -> std::io::Result<Vec<u8>> {
    let mut command = command();
    // Built, the subcommands carry the global options (listed once, at the top) and their full
    // names.
    command.build();
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    page.extend_from_slice(b".SH COMMANDS\n");
    for sub in command.get_subcommands() {
        command_section(sub, &mut page)?;
    }
    man.render_version_section(&mut page)?;
    // Each rendered piece opens with the same two-line preamble; the page needs it once.
    let text = String::from_utf8_lossy(&page).into_owned();
    let mut seen = std::collections::HashSet::new();
    let mut kept = String::new();
    for line in text.lines() {
        let preamble = line.starts_with(".ie \\n(.g") || line.starts_with(".el .ds Aq");
        if !preamble || seen.insert(line) {
            kept += line;
            kept.push('\n');
        }
    }
    Ok(kept.into_bytes())
}

/// One subcommand of the man page, as a subsection of COMMANDS; its own subcommands follow.
fn command_section(sub: &clap::Command, page: &mut Vec<u8>) -> std::io::Result<()> {
    if sub.get_name() == "help" {
        return Ok(());
    }
    let name = sub.get_bin_name().unwrap_or(sub.get_name()).to_string();
    let own = sub
        .clone()
        .mut_args(|a| if a.is_global_set() { a.hide(true) } else { a });
    let man = clap_mangen::Man::new(own);
    let mut piece = Vec::new();
    man.render_synopsis_section(&mut piece)?;
    man.render_description_section(&mut piece)?;
    man.render_options_section(&mut piece)?;
    page.extend_from_slice(format!(".SS \"{}\"\n", name.replace('-', "\\-")).as_bytes());
    // The pieces' own section headings become paragraph breaks inside the subsection.
    for line in String::from_utf8_lossy(&piece).lines() {
        let line = if line.starts_with(".SH ") {
            ".PP"
        } else {
            line
        };
        page.extend_from_slice(line.as_bytes());
        page.push(b'\n');
    }
    for nested in sub.get_subcommands() {
        command_section(nested, page)?;
    }
    Ok(())
}

/// The steps of `othello train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    pub step: TrainStep,
}

#[derive(clap::Subcommand)]
pub enum TrainStep {
    /// Games of the engine against itself, every position labelled, added to --out.
    ///
    /// Each game opens with --random-moves random moves, goes on with the engine at --depth
    /// (its estimates nudged by a seed, so games differ) and ends in perfect play from
    /// --exact-empties empty cells on. Positions from then on are labelled exactly; earlier
    /// ones with the game's value at its first solved position. Games are numbered from 0 and
    /// depend only on their number and the options: running the same command again skips the
    /// games already in the file, so a stopped run resumes. With --shard-size S, --out is
    /// shard I (--shard, or the job array's index): games I*S to (I+1)*S-1, the same on any
    /// machine, and `train fit` of shards 0 to K-1 is the fit of one run of K*S games.
    Gen(TrainGenArgs),
    /// Fit pattern weights to training files and print the error per phase.
    ///
    /// Every --held-out-th game is kept out of the fit and measures it, next to the classic
    /// evaluation's error on the same exactly labelled positions. The files are read in the
    /// order of their games (a game in two files is refused), so shards fit the same weights
    /// in any order.
    Fit(TrainFitArgs),
    /// Measure the learned evaluation on training files and print the error per phase.
    ///
    /// The weights are those the engine would use for the files' board and rules: the built-in
    /// ones, or those given with --weights. Every --held-out-th game is measured (the games
    /// `train fit` keeps out with the same number, so weights can be compared on positions
    /// none of them was fitted to; 1 measures every game).
    Test(TrainTestArgs),
}

/// The options of `othello book`.
#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub verb: BookVerb,
}

#[derive(clap::Subcommand)]
pub enum BookVerb {
    /// Grow a book by self-play (made if missing; resumed if there).
    ///
    /// From the position after --moves, every book position within --deviation plies whose
    /// best move out of the book is within --margin discs of its value gets that move played,
    /// and a line of best moves follows to where values are exact; new positions are searched
    /// to --depth, or solved from --exact-empties on. The book is saved now and then and at
    /// the end (Ctrl-C too); running the same command again goes on where it stopped. One run
    /// at a time writes a book: another on the same book is refused.
    Learn(BookLearnArgs),
    /// Redo the values of the whole book from its leaves up (after it was changed by hand or
    /// by an import).
    Fix(BookFileArg),
    /// The book's moves at the position after MOVES: each one's value, how it was found, and
    /// the games learned below it (wins, draws, losses for the side to move).
    Show(BookShowArgs),
    /// Write the book as Edax's book file (8x8, standard rules).
    Export(BookExchangeArgs),
    /// Read an Edax book file into a book of ours.
    Import(BookExchangeArgs),
}

/// The book a verb works on.
#[derive(clap::Args)]
pub struct BookFileArg {
    /// The book file.
    pub book: PathBuf,
}

/// The options of `othello book learn`.
#[derive(clap::Args)]
pub struct BookLearnArgs {
    /// The book file to grow (made for the board and rules of the options if missing; an
    /// existing one must be for them).
    pub book: PathBuf,
    /// Learn from the position after these moves (they are added to the book).
    #[arg(long, default_value = "")]
    pub moves: MoveList,
    #[command(flatten)]
    pub start: StartArgs,
    /// Explore moves near the best at positions fewer than this many plies from the root.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub deviation: u32,
    /// How near to the best, in discs, a move must be to be explored.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(i32).range(0..=64))]
    pub margin: i32,
    /// The depth of the searches that value new positions.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Solve positions with this many empty cells or fewer exactly; lines end there.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub exact_empties: u32,
    /// Stop after the round in which this many games have been played [default: when
    /// nothing is left to explore].
    #[arg(long)]
    pub games: Option<u64>,
    /// Save the book after a round once this long has passed since the last save.
    #[arg(long, default_value = "5m", value_parser = othello::durations::parse)]
    pub save_every: Duration,
    /// Searches at once [default: every core].
    #[arg(long, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// Each search's table, in megabytes.
    #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
}

/// The options of `othello book show`.
#[derive(clap::Args)]
pub struct BookShowArgs {
    /// The book file.
    pub book: PathBuf,
    /// The moves from the book's start (or from --position), such as f5d6c3.
    pub moves: Vec<MoveList>,
    /// Start from this position string instead of the book's start.
    #[arg(long)]
    pub position: Option<PositionString>,
}

/// The files of `othello book export` and `import`.
#[derive(clap::Args)]
pub struct BookExchangeArgs {
    /// The file read: our book for export, Edax's for import.
    pub from: PathBuf,
    /// The file written (whole or not at all). One that is there is replaced only if it is of
    /// the kind written: an Edax book for export; for import, a book of ours for the same
    /// board and rules.
    pub to: PathBuf,
    /// Replace the file written whatever it holds (never the file read).
    #[arg(long)]
    pub force: bool,
}

/// The options of `othello train gen`.
#[derive(clap::Args)]
pub struct TrainGenArgs {
    /// The training file to add to (created if missing). With --shard-size, the shard's file:
    /// its games go to a hidden .NAME.partial beside it, renamed onto it once all are played.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Games 0 to N-1 (those already in the file are skipped). Not with --shard-size.
    #[arg(long, default_value_t = 1000, conflicts_with = "shard_size")]
    pub games: u32,
    /// Make shard I, games I*S to (I+1)*S-1 of the seed's games, S from --shard-size. Left
    /// out, I is read from SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX (Slurm job arrays,
    /// Kubernetes Indexed Jobs).
    #[arg(long, value_name = "I", requires = "shard_size")]
    pub shard: Option<u64>,
    /// Games in each shard: makes --out a shard, written whole or not at all (a stopped run
    /// goes on when run again; a finished one is left as it is).
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_size: Option<u32>,
    #[command(flatten)]
    pub board: BoardArgs,
    /// The player with fewer discs wins.
    #[arg(long)]
    pub misere: bool,
    /// The seed of the random openings and of the engine's nudges.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub random_moves: u32,
    /// Percent of the later moves (before the solved end) played at random; the positions
    /// before each such move are not kept.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub random_rate: u32,
    /// The engine's depth between the opening and the solved end.
    #[arg(long, visible_alias = "level", default_value_t = 4)]
    pub depth: u32,
    /// Play perfectly, and label exactly, from this many empty cells on.
    #[arg(long, default_value_t = 16)]
    pub exact_empties: u32,
    /// Games played at once [default: every core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Each thread's solver table, in megabytes: the most it grows to.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
}

/// The options of `othello train fit`.
#[derive(clap::Args)]
pub struct TrainFitArgs {
    /// Training files made by `othello train gen`, all for the same board and rules.
    #[arg(required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// Where to write the weights.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Game phases, each with its own weights (by the number of empty cells).
    #[arg(long, default_value_t = 15)]
    pub phases: usize,
    /// Passes of gradient descent.
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Keep every N-th game out of the fit, to measure it (0: none).
    #[arg(long, default_value_t = 10)]
    pub held_out: u32,
    /// The ridge penalty: larger keeps the weights of rarely seen configurations smaller.
    #[arg(long, default_value_t = 20.0)]
    pub regularize: f32,
    /// Phases fitted at once [default: every core].
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The options of `othello train test`.
#[derive(clap::Args)]
pub struct TrainTestArgs {
    /// Training files made by `othello train gen`, all for the same board and rules.
    #[arg(required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// Measure every N-th game (1: every game).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub held_out: u32,
}

/// The options of `othello perft`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Count the leaves at every depth from 1 to this one.
    #[arg(long, visible_alias = "level")]
    pub depth: u32,
    #[command(flatten)]
    pub board: BoardArgs,
}

/// The options of `othello solve`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// An OBF file (the FFO test format, 8x8): solve every line, compare with its scores.
    #[arg(long, conflicts_with_all = ["position", "moves", "all_moves", "misere", "progress", "rows", "cols", "first", "top_left", "rules", "place_anywhere", "journal", "limit", "work"])]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub start: StartArgs,
    /// Solve the position after these moves (standard notation, such as f5d6c3 or
    /// "c4 e3 pa", row 1 at the top).
    #[arg(long, default_value = "")]
    pub moves: MoveList,
    /// Give every legal move its exact value, not only the best ones.
    #[arg(long)]
    pub all_moves: bool,
    /// Show progress on stderr even when it is not a terminal.
    #[arg(long)]
    pub progress: bool,
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, default_value_t = 256, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
    /// Solve with this many threads [default: every core]. The value is exact with any
    /// number; with more than one, which of several best moves is shown first may vary.
    #[arg(long, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// Refuse a position with more empty cells than this: far beyond it an exact solve
    /// does not finish in any useful time (FFO #59, 34 empty cells, takes hours). With
    /// --file, such positions are skipped, each on a line that says so.
    #[arg(long, default_value_t = 40)]
    pub max_empties: usize,
    /// Keep the bounds this solve proves in this file (created if missing), and take those
    /// of earlier solves on the same board and rules from it: a solve that was stopped goes
    /// on where it was when run again with the same file.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Give up after this long, such as 90m or 2h, printing the work done [default: no limit];
    /// with --journal, the next run goes on from there.
    #[arg(long, value_name = "DURATION", value_parser = othello::durations::parse)]
    pub limit: Option<Duration>,
    /// Split the solve into about N independent jobs, written to a new --work folder, for
    /// many machines (see cluster/README.md): each is run with --work DIR --job I, and
    /// --merge combines their results.
    #[arg(long, value_name = "N", requires = "work", conflicts_with = "journal", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=othello::commands::work::MAX_SPLIT as u64))]
    pub split: Option<usize>,
    /// The work folder of a split solve. With neither --split, --merge nor --run-local: solve
    /// one job of it (--job, else the index in SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)
    /// on one thread unless --threads says more; exit status 3 when --limit stopped it (run
    /// it again to go on).
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// The job to solve, from 0.
    #[arg(long, value_name = "I", requires = "work", conflicts_with_all = ["split", "merge", "run_local", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"])]
    pub job: Option<usize>,
    /// Solve S jobs in turn, one solver kept through them: --job I (or the array index) is
    /// then batch I, jobs I*S to I*S+S-1 of the round, and an array of M jobs needs M/S
    /// tasks, rounded up. Each job's result is written as it ends.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "work", value_parser = clap::value_parser!(u32).range(1..=1_000_000), conflicts_with_all = ["split", "merge", "run_local"])]
    pub batch: u32,
    /// The round the job is of [default: the latest].
    #[arg(long, value_name = "R", requires = "work", conflicts_with_all = ["split", "merge", "run_local", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"])]
    pub round: Option<u32>,
    /// Merge the results of the --work folder: print the report when they settle the value
    /// (status 0), or write the next round's jobs (status 4; stdout's last line is `round R:
    /// M jobs`); results missing are listed (status 5) and nothing is written.
    #[arg(long, requires = "work", conflicts_with_all = ["split", "run_local", "limit", "journal", "position", "moves", "all_moves", "misere", "rows", "cols", "first", "top_left"])]
    pub merge: bool,
    /// Run every job of every round of the --work folder here (after --split, if given), and
    /// print the report.
    #[arg(long, requires = "work", conflicts_with_all = ["journal"])]
    pub run_local: bool,
    /// Jobs run at once by --run-local [default: every core].
    #[arg(long, value_name = "K", requires = "run_local", value_parser = threads_arg)]
    pub workers: Option<usize>,
    /// With --split: project the CPU time of every round: the rounds run with estimates for
    /// the jobs' values, a sample of their jobs solved (round 1's into the folder), a job
    /// stopped by --limit projected from a split of its own.
    #[arg(long, requires = "split", conflicts_with = "run_local")]
    pub estimate: bool,
    /// About how many jobs --estimate solves.
    #[arg(long, value_name = "K", requires = "estimate", default_value_t = 20)]
    pub sample: usize,
}

/// The options of `othello analyze`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// The game: a GGF record, a game saved by `othello play`, or a move list; - reads
    /// standard input.
    #[arg(conflicts_with = "moves")]
    pub file: Option<PathBuf>,
    /// The moves, such as f5d6c3, instead of a file.
    #[arg(long)]
    pub moves: Option<MoveList>,
    #[command(flatten)]
    pub start: StartArgs,
    /// Positions with this many empty cells or fewer are solved exactly.
    #[arg(long, default_value_t = analyze::EXACT_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub exact_empties: u32,
    /// Search the earlier positions this many moves ahead [default: 14 without --move-time].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Or search each earlier position for this long, such as 500ms.
    #[arg(long, value_parser = othello::durations::parse)]
    pub move_time: Option<Duration>,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 256, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
    /// Search with this many threads [default: every core; with 1, the review repeats exactly].
    #[arg(long, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// One JSON object a move, a line each, and nothing else on standard output.
    #[arg(long)]
    pub json: bool,
}

/// The options of `othello show`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct ShowArgs {
    /// The moves, such as `B1 A1 C4` or `f5d6c3`; all arguments together make one list.
    pub moves: Vec<MoveList>,
    #[command(flatten)]
    pub start: StartArgs,
}

/// The options of `othello play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Moves played from the start before the game begins, such as f5d6c3.
    #[arg(long, default_value = "")]
    pub moves: MoveList,
    /// The side or sides the computer plays (B and W do too).
    #[arg(long, value_enum, ignore_case = true, default_value_t = PlaySides::White)]
    pub computer: PlaySides,
    /// The computer searches this many moves ahead (instead of a time per move); the game's
    /// `level` command changes it.
    #[arg(long = "depth", visible_alias = "level", value_name = "DEPTH", conflicts_with = "move_time", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: Option<u32>,
    /// The computer's time for each move, such as 500ms or 2s [default: 1s].
    #[arg(long, value_parser = othello::durations::parse)]
    pub move_time: Option<Duration>,
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, default_value_t = 64, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
}

impl PlayArgs {
    /// How the computer searches: a level is a depth, otherwise a time per move on every core.
    pub fn config(&self, eval: &Evaluation) -> Config {
        Config {
            depth: self.level,
            move_time: match self.level {
                Some(_) => None,
                None => self.move_time.or(Config::default().move_time),
            },
            hash_mb: self.hash_mb,
            threads: if self.level.is_some() { 1 } else { all_cores() },
            eval: eval.clone(),
            ..Config::default()
        }
    }
}

/// The sides the computer takes in `othello play`.
#[derive(Clone, Copy, ValueEnum)]
pub enum PlaySides {
    /// Black (or B).
    #[value(alias = "B")]
    Black,
    /// White (or W).
    #[value(alias = "W")]
    White,
    /// Both sides: the program plays itself.
    Both,
    /// Neither: two people at one keyboard.
    None,
}

impl From<PlaySides> for Option<Sides> {
    fn from(s: PlaySides) -> Option<Sides> {
        match s {
            PlaySides::Black => Some(Sides::Black),
            PlaySides::White => Some(Sides::White),
            PlaySides::Both => Some(Sides::Both),
            PlaySides::None => None,
        }
    }
}

/// The options of `othello selfplay`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// The first player: random, greedy, weights, or the engine as settings joined by commas:
    /// depth=N, time=DURATION (such as 50ms), hash=MB, seed=N, threads=N, eval=learned|classic
    /// (such as depth=6 or time=50ms,hash=32).
    #[arg(long, value_name = "PLAYER")]
    pub a: PlayerSpec,
    /// The second player, as --a.
    #[arg(long, value_name = "PLAYER")]
    pub b: PlayerSpec,
    /// Games to play, colours alternating: each random opening is played twice, colours
    /// swapped.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    #[command(flatten)]
    pub board: BoardArgs,
    /// The player with fewer discs wins.
    #[arg(long)]
    pub misere: bool,
    /// Random plies before the players take over [default: cells / 16, at most 8].
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// Seed for the openings and the yardstick players' tie-breaks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The options of `othello engine`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// The colour this program plays (B and W do too, as a referee passes them).
    #[arg(long, value_enum, ignore_case = true)]
    pub color: Side,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub board: TournamentBoard,
    /// Moves already played, in standard notation with the same square names as the
    /// triples (f5d6c3 is (W F 5) (B D 6) (W C 3)); pa is a pass.
    #[arg(long, default_value = "")]
    pub opening: MoveList,
}

/// The options of `othello match`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct MatchArgs {
    /// The first program's command.
    #[arg(long)]
    pub a: String,
    /// The second program's command.
    #[arg(long)]
    pub b: String,
    /// How the referee speaks to the first program: tournament move triples, the Go Text
    /// Protocol or NBoard's.
    #[arg(long, default_value = "triples", value_parser = protocol())]
    pub a_protocol: Protocol,
    /// How the referee speaks to the second program.
    #[arg(long, default_value = "triples", value_parser = protocol())]
    pub b_protocol: Protocol,
    /// The first program's name in the report.
    #[arg(long, default_value = "A")]
    pub a_name: String,
    /// The second program's name in the report.
    #[arg(long, default_value = "B")]
    pub b_name: String,
    /// Games to play, colours alternating: each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at the same time; keep it at most the number of cores, or the programs
    /// slow each other down.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
    /// The longest a move may take.
    #[arg(long, default_value = "1s", value_parser = othello::durations::parse)]
    pub move_time: Duration,
    /// The first program's limit, if it differs.
    #[arg(long, value_parser = othello::durations::parse)]
    pub a_move_time: Option<Duration>,
    /// The second program's limit, if it differs.
    #[arg(long, value_parser = othello::durations::parse)]
    pub b_move_time: Option<Duration>,
    /// Opening lines, one per line (f5d6c3); each is played twice with colours swapped.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Write every game here: its moves (f5d6c3...), the sides in order, the discs.
    #[arg(long)]
    pub games_out: Option<PathBuf>,
    #[command(flatten)]
    pub board: TournamentBoard,
}

/// The protocols a `match` side may speak (`seed001`, an old name of the triples, still
/// accepted).
fn protocol() -> impl clap::builder::TypedValueParser<Value = Protocol> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("triples").alias("seed001"),
        PossibleValue::new("gtp"),
        PossibleValue::new("nboard"),
    ])
    .try_map(|text| text.parse::<Protocol>())
}

/// The options of `othello bench`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
    /// Search with this many threads (node counts repeat exactly only with 1).
    #[arg(long, default_value_t = 1, value_parser = threads_arg)]
    pub threads: usize,
    /// Search the positions of this file instead, each --depth moves deep, one per line:
    /// position strings such as "(b ---- -wb- -bw- ----)", OBF lines, or moves from the 8x8
    /// start (f5d6c3); full rules, more discs winning. Blank lines and lines starting with #
    /// are skipped.
    #[arg(long, requires = "depth")]
    pub positions: Option<PathBuf>,
    /// How many moves deep to search each position of --positions.
    #[arg(long, visible_alias = "level", requires = "positions", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub depth: Option<u32>,
}

/// The options of `othello perfect-play`; its help is its [`Command`]'s doc comment.
#[derive(clap::Args)]
pub struct PerfectPlayArgs {
    /// Every board of at most this many cells, rows <= columns.
    #[arg(long, default_value_t = 36, value_parser = clap::value_parser!(u16).range((MIN_SIDE * MIN_SIDE) as i64..=(MAX_SIDE * MAX_SIDE) as i64))]
    pub max_cells: u16,
    /// These boards instead, such as 4x4,5x6 (rows x columns, 3 to 26).
    #[arg(long, value_delimiter = ',', conflicts_with = "max_cells")]
    pub boards: Vec<Shape>,
    /// The rule sets, full and/or simple.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [RulesArg::Full, RulesArg::Simple])]
    pub rule_sets: Vec<RulesArg>,
    /// normal (more discs win) and/or misere (fewer discs win).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Goal::Normal, Goal::Misere])]
    pub goals: Vec<Goal>,
    /// standard (a move must flip) and/or anywhere (place-anywhere).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Placement::Standard, Placement::Anywhere])]
    pub placements: Vec<Placement>,
    /// The longest any entry may take, such as 10m or 1h [default: no limit].
    #[arg(long, value_parser = othello::durations::parse)]
    pub limit: Option<Duration>,
    /// The longest a place-anywhere entry may take (within --limit).
    #[arg(long, default_value = "1h", value_parser = othello::durations::parse)]
    pub place_anywhere_limit: Duration,
    /// Add each finished entry to this file, and take entries found earlier from it.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Solve nothing: list the entries the --cache holds (an unsolved one whatever limit it was
    /// tried with, and with --journals the bounds its journal proves) and mark the others not
    /// tried yet.
    #[arg(long, requires = "cache")]
    pub from_cache: bool,
    /// Keep a solve journal for each entry in this folder (created if missing), so that an
    /// entry stopped at its time limit goes on where it stopped when tried again; with it, an
    /// entry the --cache has as not solved is tried again whatever its limit was. The table
    /// shows what the journal of an entry not solved proves of its value.
    #[arg(long, value_name = "FOLDER")]
    pub journals: Option<PathBuf>,
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, default_value_t = 256, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
    /// Solve each entry with this many threads [default: every core].
    #[arg(long, value_parser = threads_arg)]
    pub threads: Option<usize>,
}

/// Whether a game is won with more discs or, under misère, fewer.
#[derive(Clone, Copy, ValueEnum)]
pub enum Goal {
    Normal,
    Misere,
}

/// Whether a move must flip (standard) or may go on any empty cell (place-anywhere).
#[derive(Clone, Copy, ValueEnum)]
pub enum Placement {
    Standard,
    Anywhere,
}

/// Where a game starts: a position string, or the start of a board; and whether misère.
#[derive(clap::Args)]
pub struct StartArgs {
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
    pub fn start(self, rules: GameRules) -> commands::Start {
        let variant = rules.variant(self.misere);
        match self.position {
            Some(p) => commands::Start::Position(p, variant),
            None => commands::Start::Setup(self.board.setup(variant)),
        }
    }
}

/// The size of the board.
#[derive(clap::Args)]
pub struct SizeArgs {
    /// Rows of the board, 3 to 26.
    #[arg(long, default_value_t = 8, value_parser = side())]
    rows: u8,
    /// Columns of the board, 3 to 26.
    #[arg(long, default_value_t = 8, value_parser = side())]
    cols: u8,
}

impl SizeArgs {
    /// The four-disc start of this size.
    fn setup(&self, variant: Variant, first: Color, top_left: Color) -> Setup {
        Setup {
            shape: Shape::new(self.rows.into(), self.cols.into())
                .expect("the value parsers keep both sides in range"),
            variant,
            first,
            top_left,
        }
    }
}

/// The board of a tournament game: its size and whether misère; the start is the standard one.
#[derive(clap::Args)]
pub struct TournamentBoard {
    #[command(flatten)]
    size: SizeArgs,
    /// The player with fewer discs wins.
    #[arg(long)]
    misere: bool,
}

impl TournamentBoard {
    pub fn setup(&self, rules: GameRules) -> Setup {
        let variant = rules.variant(self.misere);
        self.size.setup(variant, Color::Black, Color::White)
    }
}

/// The board and start position.
#[derive(clap::Args)]
pub struct BoardArgs {
    #[command(flatten)]
    size: SizeArgs,
    /// Who moves first (B and W do too).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Side::Black)]
    first: Side,
    /// The colour on the top-left and bottom-right cells of the starting 2x2 block (B and W
    /// do too).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Side::White)]
    top_left: Side,
}

impl BoardArgs {
    pub fn setup(&self, variant: Variant) -> Setup {
        self.size
            .setup(variant, self.first.into(), self.top_left.into())
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum RulesArg {
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

/// A colour: black or white, or B or W as in the protocols, in any case.
#[derive(Clone, Copy, ValueEnum)]
pub enum Side {
    /// Black (or B).
    #[value(alias = "B")]
    Black,
    /// White (or W).
    #[value(alias = "W")]
    White,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_line_protocol_takes_search_options_only_with_a_computer_side() {
        use clap::error::ErrorKind;
        for option in ["--depth=3", "--move-time=1s", "--seed=3", "--threads=2"] {
            let refused = Cli::try_parse_from(["othello", option]).err();
            let kind = refused.as_ref().map(clap::Error::kind);
            assert_eq!(kind, Some(ErrorKind::MissingRequiredArgument), "{option}");
            assert!(Cli::try_parse_from(["othello", "--computer=W", option]).is_ok());
            for sub in ["engine", "gtp", "nboard"] {
                let parsed = Cli::try_parse_from(["othello", sub, "--color=W", option]);
                let parsed = parsed.or_else(|_| Cli::try_parse_from(["othello", sub, option]));
                assert!(parsed.is_ok(), "{sub} {option}");
            }
        }
        assert!(Cli::try_parse_from(["othello", "--hash-mb=3"]).is_ok());
    }

    fn parses(args: &str) -> Result<Cli, AppError> {
        parse_from(args.split(' ').map(Into::into).collect())
    }

    /// The text clap prints for a refused command line.
    fn refusal(args: &str) -> String {
        match parses(args) {
            Err(AppError::Clap(e)) if e.use_stderr() => e.render().to_string(),
            Err(e) => panic!("{args}: not a clap error: {e:?}"),
            Ok(_) => panic!("{args}: accepted"),
        }
    }

    #[test]
    fn every_option_and_subcommand_has_a_help_line() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {}", arg.get_id()));
                }
            }
            for sub in command.get_subcommands() {
                if sub.get_about().is_none() {
                    missing.push(format!("{path} {}", sub.get_name()));
                }
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut command = command();
        command.build();
        let mut missing = Vec::new();
        walk(&command, "othello", &mut missing);
        assert!(missing.is_empty(), "no help line: {missing:?}");
    }

    #[test]
    fn a_colour_is_spelled_either_way_everywhere() {
        for colour in ["black", "white", "B", "W", "b", "w", "White"] {
            let line = format!("othello perft --depth 1 --first {colour} --top-left {colour}");
            assert!(parses(&line).is_ok(), "{line}");
            let line = format!("othello engine --color {colour}");
            assert!(parses(&line).is_ok(), "{line}");
            let line = format!("othello play --computer {colour}");
            assert!(parses(&line).is_ok(), "{line}");
            let line = format!("othello --computer {colour}");
            assert!(parses(&line).is_ok(), "{line}");
        }
        assert!(parses("othello --computer both").is_ok());
        assert!(parses("othello play --computer none").is_ok());
        assert!(parses("othello engine --color green").is_err());
        // The help names the other spelling.
        let help = command()
            .find_subcommand_mut("play")
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(help.contains("black: Black (or B)"), "{help}");
        assert!(help.contains("B and W do too"), "{help}");
    }

    #[test]
    fn a_search_depth_is_depth_or_level_everywhere() {
        for option in ["--depth", "--level"] {
            for line in [
                format!("othello play {option} 3"),
                format!("othello --computer W {option} 3"),
                format!("othello engine --color W {option} 3"),
                format!("othello gtp {option} 3"),
                format!("othello nboard {option} 3"),
                format!("othello perft {option} 3"),
                format!("othello train gen --out x {option} 3"),
                format!("othello bench --positions x {option} 3"),
            ] {
                assert!(parses(&line).is_ok(), "{line}");
            }
        }
        let Ok(Cli {
            command: Some(Command::Play(play)),
            ..
        }) = parses("othello play --level 5")
        else {
            panic!("play --level 5 is refused");
        };
        assert_eq!(play.level, Some(5));
        let help = command()
            .find_subcommand_mut("play")
            .unwrap()
            .render_help()
            .to_string();
        assert!(help.contains("--depth <DEPTH>"), "{help}");
        assert!(help.contains("[alias: --level]"), "{help}");
    }

    #[test]
    fn a_line_protocol_option_before_a_subcommand_says_where_it_goes() {
        let text = refusal("othello --depth 4 play");
        assert!(text.contains("othello play --depth 4"), "{text}");
        assert!(text.contains("Usage:") && text.contains("--help"), "{text}");
        let text = refusal("othello --move-time 2s engine --color B");
        assert!(text.contains("give it after"), "{text}");
        let text = refusal("othello --seed 3 perft --depth 2");
        assert!(text.contains("perft does not take"), "{text}");
        // Without a subcommand the options are the line protocol's, as before.
        assert!(parses("othello --computer W --depth 4").is_ok());
        let text = refusal("othello --depth 4");
        assert!(text.contains("--computer"), "{text}");
    }

    #[test]
    fn commands_that_refuse_the_rule_options_do_not_list_them() {
        let mut command = command();
        command.build();
        for name in ["bench", "perfect-play", "completions", "manpage"] {
            let sub = command.find_subcommand_mut(name).unwrap();
            let help = sub.render_long_help().to_string();
            assert!(!help.contains("--rules "), "{name}: {help}");
            assert!(!help.contains("--place-anywhere "), "{name}: {help}");
            assert!(!help.contains("--place-anywhere\n"), "{name}: {help}");
            for given in ["--rules simple", "--place-anywhere"] {
                let text = refusal(&format!("othello {name} {given}"));
                assert!(text.contains("Usage: othello"), "{name} {given}: {text}");
            }
        }
        let help = command.find_subcommand_mut("perft").unwrap().render_help();
        assert!(help.to_string().contains("--rules"));
        assert!(parses("othello --rules simple perft --depth 1").is_ok());
    }

    #[test]
    fn match_lists_its_protocols() {
        let help = command()
            .find_subcommand_mut("match")
            .unwrap()
            .render_help()
            .to_string();
        assert!(
            help.contains("[possible values: triples, gtp, nboard]"),
            "{help}"
        );
        let Ok(Cli {
            command: Some(Command::Match(args)),
            ..
        }) = parses("othello match --a x --b y --a-protocol seed001 --b-protocol gtp")
        else {
            panic!("the protocols are refused");
        };
        assert_eq!(args.a_protocol, Protocol::Triples);
        assert_eq!(args.b_protocol, Protocol::Gtp);
        let text = refusal("othello match --a x --b y --a-protocol uci");
        assert!(text.contains("triples, gtp, nboard"), "{text}");
    }

    #[test]
    fn completions_and_the_man_page_name_every_subcommand() {
        use clap_complete::Shell;
        for shell in [
            Shell::Bash,
            Shell::Zsh,
            Shell::Fish,
            Shell::Elvish,
            Shell::PowerShell,
        ] {
            let script = String::from_utf8(completions(shell)).unwrap();
            for name in ["perft", "perfect-play", "selfplay", "completions"] {
                assert!(script.contains(name), "{shell}: no {name}");
            }
        }
        let page = String::from_utf8(manpage().unwrap()).unwrap();
        assert!(page.contains(".SH NAME\nothello \\- Othello"), "{page}");
        for name in ["perft", "perfect\\-play", "train gen", "manpage"] {
            assert!(
                page.contains(&format!(".SS \"othello {name}\"")),
                "no {name}"
            );
        }
        assert_eq!(page.matches(".ds Aq").count(), 2, "the preamble once");
    }
}
