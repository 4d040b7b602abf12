//! The option groups several subcommands share, each defined once: the rules, the search, the
//! book, the board and where a game starts.

use crate::cli::error::AppError;
use clap::builder::TypedValueParser;
use clap::{Arg, ValueEnum};
use othello::analysis;
use othello::job_array::{self, IndexError};
use othello::notation::PositionString;
use othello::players;
use othello::rules::{Color, RuleSet, Setup, Shape, Variant, MAX_SIDE, MIN_SIDE};
use othello::search::time::TimeControl;
use othello::search::{Confidence, Config, Evaluation};
use othello::start::Start;
use std::time::Duration;

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

/// How the computer searches, one group for every command that runs the engine: how far
/// (`--depth`, `--move-time`), varied by which `--seed`, and with what ([`ResourceArgs`]). What
/// an option left out means is the command's [`EngineDefaults`], which also writes it into the
/// command's help.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// Search this many moves ahead.
    #[arg(long, visible_alias = "level", value_parser = clap::value_parser!(u32).range(1..=1000))]
    depth: Option<u32>,
    /// Time for each move, such as 250ms or 2s; the move comes back within it.
    #[arg(long, value_parser = othello::durations::parse)]
    move_time: Option<Duration>,
    /// Vary the search with this seed, a small adjustment of every estimate (the same seed
    /// plays the same way).
    #[arg(long)]
    seed: Option<u64>,
    /// Cut selectively (Multi-ProbCut) where a shallow search is this many standard
    /// deviations sure, such as 1.5, or `off` to search every move to its depth.
    #[arg(long, value_name = "SIGMAS|off")]
    probcut: Option<Selectivity>,
    #[command(flatten)]
    resources: ResourceArgs,
}

/// A game clock for the program's side (`--time 5m --inc 2s`): each move's time comes from
/// what is left on it, more where the position needs it, less for a book move or a forced one.
#[derive(clap::Args)]
pub struct ClockArgs {
    /// A game clock: the time for all of the program's moves, such as 5m.
    #[arg(long, value_parser = othello::durations::parse, conflicts_with = "move_time")]
    time: Option<Duration>,
    /// With --time: what each move adds back to the clock, such as 2s.
    #[arg(long, value_parser = othello::durations::parse, requires = "time")]
    inc: Option<Duration>,
}

impl ClockArgs {
    /// The time control asked for, if any.
    pub fn control(&self) -> Option<TimeControl> {
        TimeControl::of(self.time, self.inc)
    }
}

/// `--probcut`: a confidence, or `off`.
#[derive(Clone, Copy, Debug)]
pub struct Selectivity(Option<Confidence>);

impl std::str::FromStr for Selectivity {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "off" => Ok(Selectivity(None)),
            _ => Ok(Selectivity(Some(text.parse()?))),
        }
    }
}

impl EngineArgs {
    /// The time a move was given on the command line, if it was.
    pub fn move_time(&self) -> Option<Duration> {
        self.move_time
    }

    /// The search these options ask for, the command's `defaults` filling in what they leave
    /// out.
    pub fn config(&self, defaults: EngineDefaults, eval: &Evaluation) -> Config {
        self.config_with_clock(defaults, eval, None)
    }

    /// [`EngineArgs::config`] under the game clock `clock`, where there is one.
    pub fn config_with_clock(
        &self,
        defaults: EngineDefaults,
        eval: &Evaluation,
        clock: Option<TimeControl>,
    ) -> Config {
        let (depth, move_time) = match (self.depth, self.move_time, defaults.limit) {
            (None, None, Some(Limit::Time(_))) if clock.is_some() => (None, None),
            (None, None, Some(Limit::Depth(depth))) => (Some(depth), None),
            (None, None, Some(Limit::Time(time))) => (None, Some(time)),
            (depth, time, _) => (depth, time),
        };
        let timed = move_time.is_some() || clock.is_some();
        let config = Config::default()
            .with_limits(depth, move_time)
            .with_clock(clock)
            .with_hash_mb(self.resources.hash_mb(defaults))
            .with_threads(self.resources.threads(defaults, !timed))
            .with_eval(eval.clone())
            .with_probcut(self.probcut.map_or(defaults.probcut, |s| s.0));
        match self.seed {
            Some(seed) => config.with_seed(seed),
            None => config,
        }
    }
}

/// What a search may use: its table's memory and its threads. The commands that solve or
/// search fixed cases (`solve`, `perfect-play`, `bench`) take these alone.
#[derive(clap::Args)]
pub struct ResourceArgs {
    /// Transposition table size in megabytes: the most it grows to as the search needs.
    #[arg(long, value_parser = players::parse_hash_mb)]
    hash_mb: Option<usize>,
    /// Search with this many threads (one alone repeats a search node for node).
    #[arg(long, value_parser = threads_arg)]
    threads: Option<usize>,
}

impl ResourceArgs {
    pub fn hash_mb(&self, defaults: EngineDefaults) -> usize {
        self.hash_mb.unwrap_or(defaults.hash_mb)
    }

    /// The threads asked for, else the command's default; `no_clock` says whether the
    /// search has no clock.
    pub fn threads(&self, defaults: EngineDefaults, no_clock: bool) -> usize {
        self.threads.unwrap_or(match defaults.threads {
            Threads::AllCores => all_cores(),
            Threads::One => 1,
            Threads::OneForDepthAlone if no_clock => 1,
            Threads::OneForDepthAlone => all_cores(),
        })
    }

    /// An exact solver with these resources.
    pub fn solver(&self, defaults: EngineDefaults, eval: &Evaluation) -> Config {
        let threads = self.threads(defaults, true);
        Config::solver(self.hash_mb(defaults), threads, eval.clone())
    }
}

/// What a command's search does with the engine options left out, one line per command.
#[derive(Clone, Copy)]
pub struct EngineDefaults {
    /// The limit without `--depth` or `--move-time` (none for a command without them).
    pub limit: Option<Limit>,
    pub hash_mb: usize,
    pub threads: Threads,
    /// Selective search: on where the computer plays, off where a search's exact depth is
    /// what is asked (analysis, benchmarks).
    pub probcut: Option<Confidence>,
}

/// A search's limit by default.
#[derive(Clone, Copy)]
pub enum Limit {
    Depth(u32),
    Time(Duration),
}

/// How many threads a search takes by default.
#[derive(Clone, Copy)]
pub enum Threads {
    AllCores,
    One,
    /// Every core under a clock, one for a depth alone, so that a depth-limited game repeats
    /// exactly.
    OneForDepthAlone,
}

const SECOND: Duration = Duration::from_secs(1);

impl EngineDefaults {
    /// The line protocol, `engine`, `gtp` and `nboard`.
    pub const PROTOCOLS: Self =
        Self::new(Some(Limit::Time(SECOND)), 16, Threads::OneForDepthAlone).selective();
    pub const PLAY: Self =
        Self::new(Some(Limit::Time(SECOND)), 64, Threads::OneForDepthAlone).selective();
    pub const ANALYZE: Self =
        Self::new(Some(Limit::Depth(analysis::DEPTH)), 256, Threads::AllCores);
    /// `solve` and `perfect-play`: a solve has no limit.
    pub const SOLVE: Self = Self::new(None, 256, Threads::AllCores);
    /// One job of `solve --work`: a job array runs many at once.
    pub const SOLVE_JOB: Self = Self::new(None, 256, Threads::One);
    /// `bench`: each case sets its own depth, and one thread repeats its node counts.
    pub const BENCH: Self = Self::new(None, 16, Threads::One);

    const fn new(limit: Option<Limit>, hash_mb: usize, threads: Threads) -> Self {
        EngineDefaults {
            limit,
            hash_mb,
            threads,
            probcut: None,
        }
    }

    /// The same, cutting selectively at the engine's default confidence.
    const fn selective(self) -> Self {
        EngineDefaults {
            probcut: Some(Confidence::DEFAULT),
            ..self
        }
    }

    /// Writes these defaults at the end of the help of the options they fill in, as clap
    /// writes a default value: `#[command(mut_args(DEFAULTS.in_help()))]`.
    pub fn in_help(self) -> impl FnMut(Arg) -> Arg {
        move |arg| {
            let default = match (arg.get_id().as_str(), self.limit) {
                ("depth", Some(Limit::Depth(depth))) => format!("{depth} without --move-time"),
                ("move_time", Some(Limit::Time(time))) => {
                    format!("{}, or none with --depth", othello::durations::text(time))
                }
                ("hash_mb", _) => self.hash_mb.to_string(),
                ("threads", _) => match self.threads {
                    Threads::AllCores => "every core".to_string(),
                    Threads::One => "1".to_string(),
                    Threads::OneForDepthAlone => {
                        "every core, or 1 with --depth alone, so that a game repeats".to_string()
                    }
                },
                _ => return arg,
            };
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            arg.help(format!("{help} [default: {default}]"))
        }
    }
}

/// A thread count from 1 to 1024.
pub fn threads_arg(text: &str) -> Result<usize, String> {
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
pub fn side() -> impl clap::builder::TypedValueParser<Value = u8> {
    clap::value_parser!(u8).range(MIN_SIDE as i64..=MAX_SIDE as i64)
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

/// `--eval`'s values, listed for help and completions, read as [`Evaluation`].
pub fn evaluation_arg() -> impl TypedValueParser<Value = Evaluation> {
    clap::builder::PossibleValuesParser::new(["learned", "classic"])
        .try_map(|text| text.parse::<Evaluation>())
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
    pub fn start(self, rules: GameRules) -> Start {
        let variant = rules.variant(self.misere);
        match self.position {
            Some(p) => Start::Position(p, variant),
            None => Start::Setup(self.board.setup(variant)),
        }
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

/// The index of one of a job array's runs (see [`job_array::index`]); `what` names it in the
/// error of a variable that holds no number; `missing` is the error when none is given.
pub fn array_index(
    given: Option<u64>,
    what: &str,
    missing: impl FnOnce() -> String,
) -> Result<u64, AppError> {
    job_array::index(given, |name| std::env::var_os(name)).map_err(|e| match e {
        IndexError::Missing => AppError::Usage(missing()),
        IndexError::NotANumber { name, value } => {
            AppError::Usage(format!("{name}={value}: {what} is a number from 0"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Engine {
        #[command(flatten)]
        engine: EngineArgs,
    }

    /// (depth, move time, threads) of the search a command line asks for under `defaults`.
    fn limits(line: &str, defaults: EngineDefaults) -> (Option<u32>, Option<Duration>, usize) {
        let args = Engine::try_parse_from(line.split_whitespace()).unwrap();
        let config = args.engine.config(defaults, &Evaluation::Classic);
        (config.depth, config.move_time, config.threads)
    }

    #[test]
    fn each_command_fills_in_its_own_defaults() {
        let (all, second) = (all_cores(), Some(SECOND));
        let protocols = EngineDefaults::PROTOCOLS;
        assert_eq!(limits("x", protocols), (None, second, all));
        // A depth alone has no clock and one thread, so that the game repeats.
        assert_eq!(limits("x --depth 6", protocols), (Some(6), None, 1));
        let both = limits("x --depth 6 --move-time 2s", protocols);
        assert_eq!(both, (Some(6), Some(Duration::from_secs(2)), all));
        assert_eq!(
            limits("x --level 6 --threads 3", protocols),
            (Some(6), None, 3)
        );
        let analyze = EngineDefaults::ANALYZE;
        assert_eq!(limits("x", analyze), (Some(analysis::DEPTH), None, all));
        assert_eq!(limits("x --depth 6", analyze), (Some(6), None, all));
        let timed = limits("x --move-time 300ms", analyze);
        assert_eq!(timed, (None, Some(Duration::from_millis(300)), all));
        let args = Engine::try_parse_from(["x", "--hash-mb", "32", "--seed", "7"]).unwrap();
        let config = args
            .engine
            .config(EngineDefaults::PLAY, &Evaluation::Classic);
        assert_eq!((config.hash_mb, config.seed), (32, Some(7)));
        let config = Engine::try_parse_from(["x"]).unwrap().engine;
        let config = config.config(EngineDefaults::PLAY, &Evaluation::Classic);
        assert_eq!((config.hash_mb, config.seed), (64, None));
    }

    #[test]
    fn a_solver_takes_the_resources_alone() {
        let args = Engine::try_parse_from(["x"]).unwrap().engine.resources;
        let solve = args.solver(EngineDefaults::SOLVE, &Evaluation::Classic);
        assert_eq!((solve.depth, solve.move_time), (None, None));
        assert_eq!((solve.hash_mb, solve.threads), (256, all_cores()));
        let job = args.solver(EngineDefaults::SOLVE_JOB, &Evaluation::Classic);
        assert_eq!(job.threads, 1);
        assert_eq!(
            args.solver(EngineDefaults::BENCH, &Evaluation::Classic)
                .threads,
            1
        );
    }

    #[test]
    fn the_help_says_each_commands_defaults() {
        let help = |defaults: EngineDefaults| {
            use clap::CommandFactory;
            Engine::command()
                .mut_args(defaults.in_help())
                .render_help()
                .to_string()
        };
        let analyze = help(EngineDefaults::ANALYZE);
        assert!(
            analyze.contains("[default: 14 without --move-time]"),
            "{analyze}"
        );
        assert!(analyze.contains("[default: 256]"), "{analyze}");
        let protocols = help(EngineDefaults::PROTOCOLS);
        assert!(
            protocols.contains("[default: 1s, or none with --depth]"),
            "{protocols}"
        );
        assert!(protocols.contains("[default: 16]"), "{protocols}");
        assert!(!protocols.contains("without --move-time"), "{protocols}");
    }
}
