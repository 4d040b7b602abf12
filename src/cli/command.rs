//! The `othello` command: its global options and the subcommands, as clap derives them.

use super::line::ComputerArg;
use super::options::{evaluation_arg, BookChoice, EngineArgs, EngineDefaults, GameRules};
use super::{analyze, bench, book, engine, gtp, nboard, perfect_play, perft, play, r#match};
use super::{selfplay, show, solve, train};
use clap::{Arg, Parser, Subcommand};
use othello::search::Evaluation;

/// Othello (Reversi) referee and player for boards from 3x3 to 26x26.
///
/// With no subcommand, plays the line protocol on standard input and output: prints FULL or
/// SIMPLE, reads five header lines (rows, columns, first player, top-left colour, > or <), then
/// one move per line ("row col", 1-based, row 1 on top).
#[derive(Parser)]
#[command(name = "othello", version)]
#[command(mut_args(needs_computer), mut_args(EngineDefaults::PROTOCOLS.in_help()))]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub rules: GameRules,
    /// The side the program plays in the line protocol: black, white (or B, W) or both.
    #[arg(long, value_enum, ignore_case = true)]
    pub computer: Option<ComputerArg>,
    #[command(flatten)]
    pub engine: EngineArgs,
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

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaves of the game tree from the start position, for depths 1 to N.
    Perft(perft::Args),
    /// Perfect play: the value, final count, best moves and a line of perfect play from the
    /// start position (or after --moves); or every position of an OBF file.
    Solve(solve::Args),
    /// Go over a game move by move: the move played, the engine's best, both values and the
    /// discs lost, exact near the end and searched before; mistakes (?) and blunders (??)
    /// marked, each player's totals.
    ///
    /// The game is --moves, or a FILE (- for standard input) holding a GGF record, a game
    /// saved by `othello play` or a move list; an unfinished game too. It starts from the
    /// file's own position, --position, or the four-disc start of --rows/--cols.
    Analyze(analyze::Args),
    /// Play a move list and print every step: the move, its flips, passes, the position after.
    ///
    /// Moves are squares in standard notation, a column letter and a row counted from the top
    /// (B1, f5), run together or apart, in either case; pa is a pass. The game starts from
    /// --position, or else from the four-disc start of --rows/--cols/--first/--top-left.
    Show(show::Args),
    /// A game for people at a terminal: a labelled board with the legal moves marked, moves
    /// typed as f5 or "row col", undo, redo, hints, save and load (type help in the game).
    Play(play::Args),
    /// Play a series of games between two players and report the score.
    ///
    /// A player is `random`, `greedy` (most flips), `weights` (fixed square weights) or the
    /// engine with settings such as `depth=6` or `time=50ms,hash=32,seed=3`.
    Selfplay(selfplay::Args),
    /// Play one side of a tournament game: moves such as (W D 3) on stdin and stdout.
    ///
    /// Rows count from the bottom and White moves first, from D5 and E4. The program writes its
    /// moves (a pass is (W P 1)) and reads the opponent's; a line that is not the opponent's
    /// legal move is named on stderr and ends the program with status 1. With --move-time T
    /// the search stops a tenth of T (at least 10 ms) early, so the move reaches a referee that
    /// allows T. With --time (and --inc) the program keeps its own game clock, from the moment
    /// each move is owed: it spends more on the moves that need thought and where its best move
    /// changes, little on book and forced moves, and keeps a twentieth of the clock in hand.
    Engine(engine::Args),
    /// Referee games between two programs under the tournament rules (move triples).
    ///
    /// Each program is a shell command started afresh for every game. A triples program gets
    /// its colour as `--color W|B` (or wherever the command says {color}) and a non-empty
    /// opening as `--opening f5d6` (or at {opening}). An illegal move or pass, a malformed
    /// line, a crash or a move over the time limit loses the game on the spot.
    Match(r#match::Args),
    /// Play over the Go Text Protocol, as Othello programs speak it (gtp-rhino, Quarry).
    Gtp(gtp::Args),
    /// Play over the NBoard protocol (the NBoard GUI and the programs that drive Edax).
    Nboard(nboard::Args),
    /// Search a fixed set of positions (or those of a file) to a fixed depth; report nodes,
    /// speed and time.
    Bench(bench::Args),
    /// The perfect-play value of every small board from the standard start, as markdown.
    ///
    /// Every board of at most --max-cells cells with rows <= columns (CxR is the same game
    /// turned over), or the --boards given, under each rule set, goal and placement asked for.
    /// An entry not solved within its time limit is reported as such. With --cache, each
    /// finished entry is added to the file at once, and a later run takes it from there (an
    /// unsolved one is tried again only with a larger limit). Progress goes to stderr: a line as
    /// each entry starts and ends, and for an entry that has run a minute, one per root move
    /// finished and the node count every ten minutes.
    PerfectPlay(perfect_play::Args),
    /// Train a pattern evaluation: games labelled by the solver (gen), weights fitted to them
    /// (fit).
    Train(train::Args),
    /// The opening book: learn one by self-play, fix its values, show what it holds at a
    /// position, and exchange it with Edax (docs/book.md).
    Book(book::Args),
    /// Print a completion script for a shell on stdout (README.md says where to put it).
    Completions(CompletionsArgs),
    /// Print the manual page, in roff, on stdout: `othello manpage > othello.1`.
    Manpage,
}

/// The line protocol takes a search option (all of [`EngineArgs`] but the table size) only
/// with `--computer`: the subcommands share the options, but always play a side.
fn needs_computer(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "depth" | "move_time" | "seed" | "threads" => arg.requires("computer"),
        _ => arg,
    }
}

/// The options of `othello completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
