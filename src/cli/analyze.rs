//! `othello analyze`: a game gone over move by move.

use super::options::{BookChoice, EngineArgs, EngineDefaults, GameRules, StartArgs};
use crate::cli::error::{bad_position_as, read_list, AppError};
use othello::analysis;
use othello::notation::{GameRecord, MoveList};
use othello::progress::Progress;
use othello::search::Evaluation;
use othello::start::Start;
use std::io;
use std::path::PathBuf;

/// The options of `othello analyze`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
#[command(mut_args(EngineDefaults::ANALYZE.in_help()))]
pub struct Args {
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
    #[arg(long, default_value_t = analysis::EXACT_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub exact_empties: u32,
    // How the positions before --exact-empties are searched.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// One JSON object a move, a line each, and nothing else on standard output.
    #[arg(long)]
    pub json: bool,
    /// Also draw the score for Black, move by move, as an SVG image in FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// `othello analyze`: the review on stdout (a table, or JSON lines), progress on stderr.
pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    book: &BookChoice,
) -> Result<(), AppError> {
    // The book is read first: a missing or damaged one is an error before any work.
    let book = if book.no_book {
        None
    } else {
        othello::opening::book::for_play(book.book.as_deref()).map_err(AppError::Input)?
    };
    let record = match (&args.file, &args.moves) {
        (_, Some(moves)) => GameRecord {
            position: None,
            moves: moves.clone(),
        },
        (Some(path), None) => {
            let (name, bytes) = if path.as_os_str() == "-" {
                let cap = othello::lines::MAX_LIST_FILE;
                let read = othello::files::read_capped_from(io::stdin().lock(), cap, "a game");
                let bytes = read.map_err(|e| match e.kind() {
                    io::ErrorKind::InvalidData => AppError::Input(format!("standard input: {e}")),
                    _ => e.into(),
                })?;
                ("standard input".to_string(), bytes)
            } else {
                (path.display().to_string(), read_list(path, "a game file")?)
            };
            let text = String::from_utf8(bytes)
                .map_err(|_| AppError::Input(format!("{name}: not UTF-8 text")))?;
            text.parse::<GameRecord>()
                .map_err(|e| AppError::Input(format!("{name}: {e}")))?
        }
        (None, None) => {
            return Err(AppError::Usage(
                "analyze needs a game: --moves LIST, or a FILE (- for standard input)".into(),
            ))
        }
    };
    let mut start = args.start.start(rules);
    if let Some(position) = record.position {
        start = Start::Position(position, start.variant());
    }
    let options = analysis::AnalyzeOptions {
        exact_empties: args.exact_empties,
        search: args.engine.config(EngineDefaults::ANALYZE, eval),
        book,
    };
    let mut progress: Option<Progress> = None;
    let mut each = |done: usize, total: usize| {
        let bar = progress.get_or_insert_with(|| Progress::counter(total as u64, "positions"));
        bar.set(done as u64, "valuing the positions".into());
    };
    let review = analysis::analyze(&start, &record.moves, &options, &mut each);
    if let Some(bar) = &progress {
        bar.finish();
    }
    // An illegal move is status 1, as `show` gives it.
    let review = review.map_err(|e| bad_position_as(e, AppError::Failed))?;
    if let Some(path) = &args.plot {
        let title = match review.opening {
            Some(opening) => format!("Score for Black ({})", opening.name),
            None => "Score for Black".to_string(),
        };
        let image = analysis::svg(&review, &title)
            .map_err(|e| AppError::Failed(format!("cannot draw the plot: {e}")))?;
        othello::files::write_atomic(path, image.as_bytes())
            .map_err(|e| AppError::Failed(format!("cannot write {}: {e}", path.display())))?;
    }
    let mut out = io::stdout().lock();
    if args.json {
        analysis::write_json(&review, &mut out)?;
    } else {
        analysis::write_text(&review, &mut out)?;
    }
    Ok(())
}
