//! `othello analyze`: a game gone over move by move.

use super::options::{BookChoice, EngineArgs, EngineDefaults, GameRules, StartArgs};
use crate::cli::error::{bad_position_as, read_list, AppError};
use othello::analysis;
use othello::notation::{GameRecord, MoveList};
use othello::progress::Progress;
use othello::search::Evaluation;
use othello::start::Start;
use othello::wording::Counted;
use std::io::{self, Write};
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
    /// Of a file of several games (a GGF file, GGS match lines), review game N (from 1).
    #[arg(long, value_name = "N", conflicts_with = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// Of a file of several games, review every one, each under a line naming it.
    #[arg(long)]
    pub all: bool,
    /// Also draw the score for Black, move by move, as an SVG image in FILE (with --all, of
    /// the last game).
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
    let (name, records) = match (&args.file, &args.moves) {
        (_, Some(moves)) => {
            let record = GameRecord {
                position: None,
                moves: moves.clone(),
                properties: Vec::new(),
            };
            ("--moves".to_string(), vec![record])
        }
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
            let records = GameRecord::parse_all(&text)
                .map_err(|e| AppError::Input(format!("{name}: {e}")))?;
            (name, records)
        }
        (None, None) => {
            return Err(AppError::Usage(
                "analyze needs a game: --moves LIST, or a FILE (- for standard input)".into(),
            ))
        }
    };
    let count = records.len();
    let chosen: Vec<(usize, GameRecord)> = if args.all {
        records
            .into_iter()
            .enumerate()
            .map(|(i, r)| (i + 1, r))
            .collect()
    } else {
        let n = args.game.unwrap_or(1) as usize;
        if n > count {
            return Err(AppError::Usage(format!(
                "{name} holds {}: --game {n} is not one",
                Counted(count, "game")
            )));
        }
        if args.game.is_none() && count > 1 {
            eprintln!(
                "othello: {name} holds {count} games; reviewing the first (--game N for another, \
                 --all for every one)"
            );
        }
        let record = records
            .into_iter()
            .nth(n - 1)
            .expect("n is at most the count");
        vec![(n, record)]
    };
    let options = analysis::AnalyzeOptions {
        exact_empties: args.exact_empties,
        search: args.engine.config(EngineDefaults::ANALYZE, eval),
        book,
    };
    let base = args.start.start(rules);
    let mut out = io::stdout().lock();
    let mut last = None;
    for (k, (number, record)) in chosen.iter().enumerate() {
        // GGS's anti-Othello (`TY[8a]`) is played under misère.
        let mut variant = base.variant();
        variant.misere |= record.anti();
        let start = match &record.position {
            Some(position) => Start::Position(position.clone(), variant),
            None if variant != base.variant() => base.with_variant(variant),
            None => base.clone(),
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
        let review = review.map_err(|e| {
            let e = if args.all {
                e.context(format!("game {number}"))
            } else {
                e
            };
            bad_position_as(e, AppError::Failed)
        })?;
        let game = args.all.then_some(*number);
        if args.json {
            analysis::write_json(&review, game, &mut out)?;
        } else {
            if args.all {
                if k > 0 {
                    writeln!(out)?;
                }
                writeln!(out, "{}", heading(*number, count, record))?;
            }
            analysis::write_text(&review, &mut out)?;
            analysis::write_chart(&review, &mut out)?;
        }
        last = Some(review);
    }
    let Some(review) = last else {
        return Ok(());
    };
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
    Ok(())
}

/// `Game 2 of 5: alpha (Black) against beta (White), +6.000`: what the record says of it.
fn heading(number: usize, count: usize, record: &GameRecord) -> String {
    let mut text = format!("Game {number} of {count}");
    if let (Some(black), Some(white)) = (record.property("PB"), record.property("PW")) {
        text += &format!(": {black} (Black) against {white} (White)");
    }
    if let Some(result) = record.property("RE") {
        text += &format!(", result {result}");
    }
    text
}
