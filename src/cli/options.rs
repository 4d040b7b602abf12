//! The option groups several subcommands share, each defined once: the rules, the search, the
//! book, the board and where a game starts.

use crate::cli::error::AppError;
use clap::builder::TypedValueParser;
use clap::ValueEnum;
use othello::job_array::{self, IndexError};
use othello::notation::PositionString;
use othello::players;
use othello::rules::{Color, RuleSet, Setup, Shape, Variant, MAX_SIDE, MIN_SIDE};
use othello::search::{Config, Evaluation};
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
        let config = Config::default()
            .with_limits(self.depth, move_time)
            .with_hash_mb(self.hash_mb)
            .with_threads(threads)
            .with_eval(eval.clone());
        match self.seed {
            Some(seed) => config.with_seed(seed),
            None => config,
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
