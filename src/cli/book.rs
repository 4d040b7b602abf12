//! `othello book`: learn, fix, show, export and import an opening book.

use super::options::{all_cores, threads_arg, GameRules, StartArgs};
use crate::cli::error::{bad_position_as, not_replaced, read_list, AppError};
use othello::files::check_replaceable;
use othello::interrupt::{signal_name, Interrupt};
use othello::notation::{MoveList, PositionString};
use othello::opening::book::Book;
use othello::players;
use othello::progress::Progress;
use othello::rules::Move;
use othello::search::{Config, Evaluation};
use othello::wording::Counted;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The options of `othello book`.
#[derive(clap::Args)]
pub struct Args {
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
    /// Add the positions of games to a book (made if missing), each linked to the next, as
    /// Edax's `book add`: every game of GGF files (GGS match lines too) or of move-list files
    /// (a game a line, from the book's start), to its end or its first position with
    /// --exact-empties empty cells (solved). New positions are valued as `learn` values them.
    Add(BookAddArgs),
    /// Add the positions and moves of other books to a book (for the same board, rules and
    /// start), then redo its values.
    Merge(BookMergeArgs),
    /// Keep only the positions that play from the start reaches through moves within --margin
    /// of the best, fewer than --plies moves deep; the best move dropped at a position kept
    /// becomes its best move out of the book, so no value changes.
    Prune(BookPruneArgs),
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
    #[command(flatten)]
    pub search: BookSearchArgs,
    /// Stop after the round in which this many games have been played [default: when
    /// nothing is left to explore].
    #[arg(long)]
    pub games: Option<u64>,
    /// Save the book after a round once this long has passed since the last save.
    #[arg(long, default_value = "5m", value_parser = othello::durations::parse)]
    pub save_every: Duration,
}

/// How `learn` and `add` value the positions they add.
#[derive(clap::Args)]
pub struct BookSearchArgs {
    /// The depth of the searches that value new positions.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Solve positions with this many empty cells or fewer exactly; lines end there.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub exact_empties: u32,
    /// Searches at once [default: every core].
    #[arg(long, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// Each search's table, in megabytes.
    #[arg(long, default_value_t = 16, value_parser = players::parse_hash_mb)]
    pub hash_mb: usize,
}

impl BookSearchArgs {
    /// The learning options of these, the others as given.
    fn options(
        &self,
        eval: &Evaluation,
        deviation: u32,
        margin: i32,
        games: Option<u64>,
        save_every: Duration,
    ) -> othello::opening::book::LearnOptions {
        othello::opening::book::LearnOptions {
            deviation,
            margin,
            exact_empties: self.exact_empties,
            games,
            threads: self.threads.unwrap_or_else(all_cores),
            search: Config::to_depth(self.depth)
                .with_hash_mb(self.hash_mb)
                .with_eval(eval.clone()),
            save_every,
        }
    }
}

/// The options of `othello book add`.
#[derive(clap::Args)]
pub struct BookAddArgs {
    /// The book file to add to (made for the board and rules of the options if missing; an
    /// existing one must be for them).
    pub book: PathBuf,
    /// Files of games: GGF, or move lists with a game a line (`#` starts a comment line).
    /// Games for another board, rules or start than the book's are left out, and counted.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    #[command(flatten)]
    pub start: StartArgs,
    /// Add no position more than this many moves into a game [default: to the game's end].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub plies: Option<u32>,
    #[command(flatten)]
    pub search: BookSearchArgs,
}

/// The options of `othello book merge`.
#[derive(clap::Args)]
pub struct BookMergeArgs {
    /// The book that gets the other books' positions (written whole or not at all).
    pub book: PathBuf,
    /// The books whose positions are added.
    #[arg(required = true)]
    pub others: Vec<PathBuf>,
}

/// The options of `othello book prune`.
#[derive(clap::Args)]
pub struct BookPruneArgs {
    /// The book file (written whole or not at all).
    pub book: PathBuf,
    /// Keep only moves within this many discs of their position's best [default: every move].
    #[arg(long, value_parser = clap::value_parser!(i32).range(0..=128))]
    pub margin: Option<i32>,
    /// Keep only positions fewer than this many moves from the start [default: all].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub plies: Option<u32>,
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

/// `othello book`: learn, fix, show, export, import.
pub fn run(args: Args, rules: GameRules, eval: &Evaluation) -> Result<(), AppError> {
    use othello::opening::book::{self, edax};
    let named = |path: &Path, e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let read = |path: &Path| book::read(path).map_err(|e| AppError::Input(named(path, &e)));
    match args.verb {
        BookVerb::Learn(a) => {
            let _lock = lock_book(&a.book)?;
            let start = a.start.start(rules);
            let mut the_book = open_book(&a.book, &start)?;
            let options = a
                .search
                .options(eval, a.deviation, a.margin, a.games, a.save_every);
            let progress = status_line();
            let interrupt = stop_learning_on_signals(&a.book, &progress)
                .map_err(|e| AppError::Failed(format!("cannot listen to signals: {e}")))?;
            let path = a.book.clone();
            let mut save = |b: &Book| book::write(&path, b);
            let report = book::learn(
                &mut the_book,
                &a.moves.0,
                &options,
                &interrupt,
                &progress,
                &mut save,
            )
            .map_err(|e| bad_position_as(e, AppError::Failed))?;
            progress.finish();
            println!(
                "{}, {} added, {} in the book{}",
                Counted(report.games, "game"),
                Counted(report.added, "position"),
                report.positions,
                if report.done {
                    "; nothing left to explore"
                } else {
                    ""
                }
            );
            if let Some(signal) = report.stopped {
                return Err(stopped(signal, "goes on"));
            }
        }
        BookVerb::Add(a) => {
            let _lock = lock_book(&a.book)?;
            let start = a.start.start(rules);
            let mut the_book = open_book(&a.book, &start)?;
            let mut games = Vec::new();
            let mut left_out = 0;
            for path in &a.games {
                let (mine, others) = read_games(path, &the_book)?;
                games.extend(mine);
                left_out += others;
            }
            if left_out > 0 {
                eprintln!(
                    "othello: {} left out: for another board, rules or start than the book's",
                    Counted(left_out, "game")
                );
            }
            let options = a.search.options(eval, 0, 0, None, Duration::MAX);
            let progress = status_line();
            let interrupt = stop_learning_on_signals(&a.book, &progress)
                .map_err(|e| AppError::Failed(format!("cannot listen to signals: {e}")))?;
            let report = book::add_games(
                &mut the_book,
                &games,
                a.plies,
                &options,
                &interrupt,
                &progress,
            )
            .map_err(|e| bad_position_as(e, AppError::Input))?;
            progress.finish();
            book::write(&a.book, &the_book)?;
            println!(
                "{}, {} added, {} in the book",
                Counted(report.games, "game"),
                Counted(report.added, "position"),
                report.positions,
            );
            if let Some(signal) = report.stopped {
                return Err(stopped(signal, "adds the rest"));
            }
        }
        BookVerb::Merge(a) => {
            let others = a.others.iter().map(PathBuf::as_path);
            othello::files::refuse_output_over_input(&a.book, others)
                .map_err(|e| AppError::Usage(e.to_string()))?;
            let (_lock, mut the_book) = locked_book(&a.book)?;
            let (mut added, mut changed) = (0, 0);
            for path in &a.others {
                let other = read(path)?;
                let report = the_book
                    .merge(&other)
                    .map_err(|e| AppError::Usage(named(path, &e)))?;
                (added, changed) = (added + report.added, changed + report.changed);
            }
            book::write(&a.book, &the_book)?;
            println!(
                "{} added, {changed} changed, {} in the book",
                Counted(added, "position"),
                the_book.len()
            );
        }
        BookVerb::Prune(a) => {
            let (_lock, mut the_book) = locked_book(&a.book)?;
            let dropped = the_book.prune(book::PruneOptions {
                margin: a.margin,
                plies: a.plies,
            });
            book::write(&a.book, &the_book)?;
            println!(
                "{} dropped, {} kept",
                Counted(dropped, "position"),
                the_book.len()
            );
        }
        BookVerb::Fix(a) => {
            let (_lock, mut the_book) = locked_book(&a.book)?;
            let changed = the_book.fix();
            book::write(&a.book, &the_book)?;
            println!(
                "{changed} of {} changed",
                Counted(the_book.len(), "position")
            );
        }
        BookVerb::Show(a) => {
            let the_book = read(&a.book)?;
            let moves: MoveList = a.moves.into_iter().flat_map(|list| list.0).collect();
            let shown = book::show(&the_book, a.position.as_ref(), &moves.0)
                .map_err(|e| AppError::Failed(e.to_string()))?;
            book::write_show(&shown, &mut io::stdout().lock())?;
        }
        BookVerb::Export(a) => {
            othello::files::refuse_output_over_input(&a.to, [a.from.as_path()])
                .map_err(|e| AppError::Usage(e.to_string()))?;
            let ours = read(&a.from)?;
            let theirs = ours
                .to_edax()
                .map_err(|e| AppError::Input(named(&a.from, &e)))?;
            if !a.force {
                refuse_to_replace(&a.to, |head| match edax::header_count(head) {
                    Err(_) => Some("not an Edax book".to_string()),
                    Ok(_) => None,
                })?;
            }
            othello::files::write_atomic(&a.to, &edax::write(&theirs))
                .map_err(|e| AppError::Failed(named(&a.to, &e)))?;
            println!(
                "{} of ours, {} of Edax's written to {}",
                Counted(ours.len(), "position"),
                theirs.positions.len(),
                a.to.display()
            );
        }
        BookVerb::Import(a) => {
            othello::files::refuse_output_over_input(&a.to, [a.from.as_path()])
                .map_err(|e| AppError::Usage(e.to_string()))?;
            let theirs =
                book::read_edax(&a.from).map_err(|e| AppError::Input(named(&a.from, &e)))?;
            let ours = Book::from_edax(&theirs).map_err(|e| AppError::Input(named(&a.from, &e)))?;
            let _lock = lock_book(&a.to)?;
            if !a.force {
                let game = (ours.header().shape, ours.header().variant);
                refuse_to_replace(&a.to, |_| match book::read(&a.to) {
                    Err(e) => Some(e.to_string()),
                    Ok(b) if (b.header().shape, b.header().variant) != game => Some(format!(
                        "a book for a {} board under {}, not {} under {}",
                        b.header().shape,
                        b.header().variant,
                        game.0,
                        game.1
                    )),
                    Ok(_) => None,
                })?;
            }
            book::write(&a.to, &ours)?;
            println!(
                "{} of Edax's, {} of ours written to {}",
                Counted(theirs.positions.len(), "position"),
                ours.len(),
                a.to.display()
            );
        }
    }
    Ok(())
}

/// The book at `path`, read under its lock (held while the lock returned lives). A book that
/// is not there is named as a reader names it, before a lock is made beside it.
fn locked_book(path: &Path) -> Result<(othello::files::FileLock, Book), AppError> {
    let named = |e: &dyn std::fmt::Display| AppError::Input(format!("{}: {e}", path.display()));
    std::fs::metadata(path).map_err(|e| named(&e))?;
    let lock = lock_book(path)?;
    let book = othello::opening::book::read(path).map_err(|e| named(&e))?;
    Ok((lock, book))
}

/// The error of a run that a signal stopped once the book was saved; `again` says what the
/// same command does when run again.
fn stopped(signal: i32, again: &str) -> AppError {
    AppError::Stopped {
        signal,
        message: format!(
            "stopped by {}: the book is saved; the same command {again}",
            signal_name(signal)
        ),
    }
}

/// The book at `path`, or a new one for `start` where there is none.
fn open_book(path: &Path, start: &othello::start::Start) -> Result<Book, AppError> {
    use othello::opening::book::{self, OpenError};
    book::open_or_create(path, start).map_err(|e| match e {
        OpenError::File(e) => AppError::Input(format!("{}: {e}", path.display())),
        OpenError::OtherStart(_) => AppError::Usage(format!("{}: {e}", path.display())),
        OpenError::NoStart(e) => AppError::Usage(e.to_string()),
    })
}

/// A status line on a terminal, nothing elsewhere.
fn status_line() -> std::sync::Arc<Progress> {
    std::sync::Arc::new(if io::stderr().is_terminal() {
        Progress::status()
    } else {
        Progress::hidden()
    })
}

/// The games of a file for `book`, each as its moves from the book's start, and how many
/// others the file holds (another board, rules or start). A GGF file gives its records (an
/// anti game, `TY[8a]`, is under misère); any other text a game a line.
fn read_games(path: &Path, book: &Book) -> Result<(Vec<Vec<Move>>, usize), AppError> {
    use othello::notation::GameRecord;
    use othello::start::Start;
    let named = |e: &dyn std::fmt::Display| AppError::Input(format!("{}: {e}", path.display()));
    let bytes = read_list(path, "a file of games")?;
    let text = String::from_utf8(bytes).map_err(|_| named(&"not UTF-8 text"))?;
    let mut games = Vec::new();
    let mut others = 0;
    if GameRecord::is_ggf(&text) {
        for record in GameRecord::parse_all(&text).map_err(|e| named(&e))? {
            let variant = othello::rules::Variant {
                misere: record.anti(),
                ..book.header().variant
            };
            let fits = match &record.position {
                Some(p) => book
                    .check_start(&Start::Position(p.clone(), variant))
                    .is_ok(),
                None => variant == book.header().variant,
            };
            if fits {
                games.push(record.moves.0);
            } else {
                others += 1;
            }
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let moves: MoveList = line
                .parse()
                .map_err(|e| named(&format_args!("line {}: {e}", i + 1)))?;
            games.push(moves.0);
        }
    }
    Ok((games, others))
}

/// The lock on a book that the verbs that write it hold while they read and write it, so
/// that two runs never write one book and the last save wins: a second run is refused.
fn lock_book(path: &Path) -> Result<othello::files::FileLock, AppError> {
    use othello::files::{FileLock, LockKind};
    match FileLock::try_take(path, LockKind::Exclusive) {
        Ok(Some(lock)) => Ok(lock),
        Ok(None) => Err(AppError::Failed(format!(
            "{}: another `book` command is writing this book; try again once it ends",
            path.display()
        ))),
        Err(e) => Err(AppError::Failed(format!("{}: {e}", path.display()))),
    }
}

/// Refuses (status 2) to write over the file at `path`, if there is one, when `foreign` says
/// why it is not of the kind written, from its first bytes: a file of another kind is not
/// replaced without `--force`.
fn refuse_to_replace(
    path: &Path,
    foreign: impl FnOnce(&[u8]) -> Option<String>,
) -> Result<(), AppError> {
    check_replaceable(path, 64, foreign).map_err(|e| {
        not_replaced(path, e, |why| {
            format!(
                "{}: {why}, so not replaced (--force replaces it)",
                path.display()
            )
        })
    })
}

/// Listens to SIGINT and SIGTERM for `book learn`. The first raises the interrupt it returns
/// and says at once that the book is being saved: the searches stop within a second. A later
/// one says that the save goes on rather than end the program, which would lose the work of
/// the run since its last save.
fn stop_learning_on_signals(
    path: &Path,
    progress: &std::sync::Arc<Progress>,
) -> io::Result<Interrupt> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let interrupt = Interrupt::default();
    let (raised, progress, book) = (
        interrupt.clone(),
        std::sync::Arc::clone(progress),
        path.display().to_string(),
    );
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let name = signal_name(signal);
            let line = if raised.signal().is_none() {
                raised.raise(signal);
                format!("{name}: stopping; saving the book {book}")
            } else {
                format!("{name}: {book} is still being saved, then the program ends")
            };
            // Above the progress line on a terminal; hidden, it would drop the line.
            if io::stderr().is_terminal() {
                progress.println(format!("othello: {line}"));
            } else {
                let _ = writeln!(io::stderr(), "othello: {line}");
            }
        }
    });
    Ok(interrupt)
}
