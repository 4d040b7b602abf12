//! Each command run on the standard streams: the glue between the parsed command line and the
//! library, with every failure as an [`AppError`].

use crate::cli::{
    all_cores, AnalyzeArgs, BenchArgs, BookArgs, BookVerb, ComputerArg, EngineArgs, GameRules,
    Goal, MatchArgs, PerfectPlayArgs, PerftArgs, Placement, PlayArgs, SearchArgs, SelfplayArgs,
    ShowArgs, SolveArgs, TrainArgs, TrainStep,
};
use crate::error::{AppError, Outcome};
use anyhow::Context;
use othello::commands;
use othello::notation::{GameRecord, MoveList};
use othello::players::{BookUse, PlayerSpec};
use othello::progress::Progress;
use othello::protocols::line::{self, Computer, Ending, Options, RunError};
use othello::protocols::triples;
use othello::protocols::{gtp, nboard};
use othello::referee::{self, SideSpec};
use othello::rules::{Color, Game, Passes, RuleSet};
use othello::search::{Evaluation, RootMoves};
use othello::train::data;
use othello::words::Counted;
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::Path;

/// The line protocol (no subcommand).
pub fn play(
    rules: GameRules,
    computer: Option<ComputerArg>,
    search: &SearchArgs,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<Outcome, AppError> {
    let options = Options {
        rule_set: rules.rules.into(),
        place_anywhere: rules.place_anywhere,
        computer: computer.map(|c| Computer {
            sides: c.into(),
            config: search.config(eval),
            book,
        }),
    };
    if io::stdin().is_terminal() {
        eprintln!(
            "othello: the line protocol: type 5 header lines (rows, columns, first player B/W, \
             top-left colour B/W, > or <), then moves as \"row col\"; for a board with letters, \
             undo and hints run: othello play"
        );
    }
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::new(io::stdout().lock());
    match line::run(options, stdin, stdout) {
        Ok(Ending::Finished) => Ok(Outcome::Done),
        Ok(Ending::InputEnded) => Ok(Outcome::InputEnded),
        Err(RunError::Header(e)) => Err(AppError::Input(e.to_string())),
        Err(RunError::Io(e)) => Err(e.into()),
    }
}

/// `othello play`: a game for people. On a terminal: colour, line editing and the program's
/// thinking shown live.
pub fn play_game(
    args: PlayArgs,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let colour = anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never;
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    let options = othello::play::Options {
        colour: colour && io::stdout().is_terminal(),
        thinking: terminal && io::stderr().is_terminal(),
        config: args.config(eval),
        book,
        computer: args.computer.into(),
        moves: args.moves,
        start: args.start.start(rules),
    };
    let session = othello::play::Session::new(options).map_err(AppError::Usage)?;
    // Not locked: the line editor writes its prompt to the terminal itself.
    let stdout = io::stdout();
    let ending = if terminal {
        let mut keyboard = othello::play::Terminal::new()?;
        othello::play::run(session, &mut keyboard, stdout)?
    } else {
        let mut keyboard = othello::protocols::LineReader::new(io::stdin().lock());
        othello::play::run(session, &mut keyboard, stdout)?
    };
    match ending {
        othello::play::Ending::Left => Ok(()),
        othello::play::Ending::Interrupted => Err(AppError::Stopped {
            signal: libc::SIGINT,
            message: "stopped by SIGINT (Ctrl-C); the moves so far are printed above".into(),
        }),
    }
}

pub fn perft(args: PerftArgs, rules: GameRules) -> Result<(), AppError> {
    let setup = args.board.setup(rules.variant(false));
    commands::perft_table(&setup, args.depth, &mut io::stdout().lock())?;
    Ok(())
}

/// A spec's engine that does not ask for the classic evaluation plays by the program's.
pub fn selfplay(
    args: SelfplayArgs,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let setup = args.board.setup(rules.variant(args.misere));
    let series = commands::Series {
        a: args.a.evaluating_within(eval),
        b: args.b.evaluating_within(eval),
        games: args.games,
        setup,
        opening_plies: args
            .opening_plies
            .unwrap_or_else(|| commands::default_opening_plies(setup.shape)),
        seed: args.seed,
        book,
    };
    let progress = Progress::counter(series.games as u64, "games");
    commands::selfplay(&series, &mut io::stdout().lock(), &progress)?;
    Ok(())
}

/// One side of a tournament game. A game that cannot be set up (the board, the
/// opening) is the command line's fault; a bad line from the opponent is a failure. `started`
/// is when the program started: a first move owed at once is timed from then.
pub fn engine(
    args: EngineArgs,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
    started: std::time::Instant,
) -> Result<(), AppError> {
    let setup = args.board.setup(rules);
    // Seed 001's colours are the standard ones swapped (see `tournament`).
    let me = Color::from(args.color).opposite();
    let mut config = args.search.config(eval);
    config.move_time = config.move_time.map(othello::search::time::search_time);
    othello::with_bits!(setup.shape, |B| {
        let game =
            Game::<B>::new(&setup, Passes::Explicit).map_err(|e| AppError::Usage(e.to_string()))?;
        let player = PlayerSpec::Engine(config).build(game.rules().clone(), 0, book.as_ref());
        let session = triples::EngineSession::new(game, me, player, &args.opening.0, started)
            .map_err(|e| AppError::Usage(e.to_string()))?;
        engine_result(triples::run(
            session,
            io::stdin().lock(),
            io::stdout().lock(),
        ))
    })
}

fn engine_result(result: Result<triples::Ending, triples::EngineError>) -> Result<(), AppError> {
    match result {
        Ok(_) => Ok(()),
        Err(triples::EngineError::Io(e)) => Err(e.into()),
        Err(e) => Err(AppError::Failed(e.to_string())),
    }
}

pub fn referee_match(args: MatchArgs, rules: GameRules) -> Result<(), AppError> {
    let setup = args.board.setup(rules);
    let sides = [
        SideSpec {
            name: args.a_name,
            command: args.a,
            protocol: args.a_protocol,
            move_time: args.a_move_time.unwrap_or(args.move_time),
        },
        SideSpec {
            name: args.b_name,
            command: args.b,
            protocol: args.b_protocol,
            move_time: args.b_move_time.unwrap_or(args.move_time),
        },
    ];
    for side in &sides {
        if let Some(why) = side.protocol.cannot_play(setup.shape) {
            return Err(AppError::Usage(format!(
                "side {} speaks {}: {why}",
                side.name, side.protocol
            )));
        }
    }
    if let (Some(out), Some(input)) = (&args.games_out, &args.openings) {
        othello::files::refuse_output_over_input(out, [input.as_path()])
            .map_err(|e| AppError::Usage(format!("--games-out: {e}")))?;
    }
    let openings = match &args.openings {
        Some(path) => commands::read_openings_file(path, &setup)?,
        None => Vec::new(),
    };
    referee::end_contestants_on_signals().context("cannot watch for signals")?;
    let games_out = match &args.games_out {
        Some(path) => Some(
            referee::GamesFile::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None => None,
    };
    let m = referee::Match {
        sides,
        games: args.games,
        setup,
        openings,
        jobs: args.jobs.into(),
    };
    let progress = Progress::counter(m.games as u64, "games");
    let mut games_file = games_out.clone();
    let played = referee::run_match(
        &m,
        &mut io::stdout().lock(),
        games_file.as_mut().map(|w| w as &mut dyn Write),
        &progress,
    );
    // The games played are kept even when the match stopped on an error; a match that
    // played none leaves the old file as it was.
    if let (Some(games), Some(path)) = (games_out, &args.games_out) {
        if played.is_ok() || games.written() {
            games
                .commit()
                .with_context(|| format!("cannot write {}", path.display()))?;
        } else {
            games.discard();
        }
    }
    played?;
    Ok(())
}

/// `othello analyze`: the review on stdout (a table, or JSON lines), progress on stderr.
pub fn analyze(args: AnalyzeArgs, rules: GameRules, eval: &Evaluation) -> Result<(), AppError> {
    use othello::commands::analyze;
    let record = match (&args.file, &args.moves) {
        (_, Some(moves)) => GameRecord {
            position: None,
            moves: moves.clone(),
        },
        (Some(path), None) => {
            let (name, bytes) = if path.as_os_str() == "-" {
                let cap = commands::MAX_LIST_FILE;
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
        start = commands::Start::Position(position, start.variant());
    }
    let options = analyze::AnalyzeOptions {
        exact_empties: args.exact_empties,
        depth: match (args.depth, args.move_time) {
            (None, None) => Some(analyze::DEPTH),
            (depth, _) => depth,
        },
        move_time: args.move_time,
        hash_mb: args.hash_mb,
        threads: args.threads.unwrap_or_else(all_cores),
        eval: eval.clone(),
    };
    let mut progress: Option<Progress> = None;
    let mut each = |done: usize, total: usize| {
        let bar = progress.get_or_insert_with(|| Progress::counter(total as u64, "positions"));
        bar.set(done as u64, "valuing the positions".into());
    };
    let review = analyze::analyze(&start, &record.moves, &options, &mut each);
    if let Some(bar) = &progress {
        bar.finish();
    }
    // An illegal move is status 1, as `show` gives it.
    let review = review.map_err(|e| bad_position_as(e, AppError::Failed))?;
    let mut out = io::stdout().lock();
    if args.json {
        analyze::write_json(&review, &mut out)?;
    } else {
        analyze::write_text(&review, &mut out)?;
    }
    Ok(())
}

pub fn show(args: ShowArgs, rules: GameRules) -> Result<(), AppError> {
    let start = args.start.start(rules);
    let moves: MoveList = args.moves.into_iter().flat_map(|list| list.0).collect();
    commands::show(&start, &moves, &mut io::stdout().lock())?;
    Ok(())
}

pub fn gtp(
    search: SearchArgs,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let settings = gtp::Settings {
        variant: rules.variant(false),
        config: search.config(eval),
        book,
    };
    Ok(gtp::run(settings, io::stdin().lock(), io::stdout().lock())?)
}

pub fn nboard(
    search: SearchArgs,
    rules: GameRules,
    eval: &Evaluation,
    book: Option<BookUse>,
) -> Result<(), AppError> {
    let settings = nboard::Settings {
        variant: rules.variant(false),
        config: search.config(eval),
        book,
    };
    let (input, output) = (io::stdin().lock(), io::stdout().lock());
    Ok(nboard::run(settings, input, output, io::stderr())?)
}

pub fn bench(args: BenchArgs, eval: &Evaluation) -> Result<(), AppError> {
    let out = &mut io::stdout().lock();
    match (args.positions, args.depth) {
        (Some(path), Some(depth)) => {
            let text = read_list(&path, "a positions file")?;
            commands::bench_positions(&text[..], depth, args.hash_mb, args.threads, eval, out)?;
        }
        _ => {
            commands::bench(args.hash_mb, args.threads, eval, out)?;
        }
    }
    Ok(())
}

/// The table of small boards. (The global `--rules` and `--place-anywhere` are refused while
/// the command line is parsed.)
pub fn perfect_play(args: PerfectPlayArgs, eval: &Evaluation) -> Result<(), AppError> {
    let options = commands::PerfectPlayOptions {
        boards: if args.boards.is_empty() {
            commands::boards_up_to(args.max_cells.into())
        } else {
            args.boards
        },
        rule_sets: args.rule_sets.into_iter().map(RuleSet::from).collect(),
        misere: args
            .goals
            .iter()
            .map(|g| matches!(g, Goal::Misere))
            .collect(),
        place_anywhere: args
            .placements
            .iter()
            .map(|p| matches!(p, Placement::Anywhere))
            .collect(),
        limit: args.limit,
        place_anywhere_limit: Some(args.place_anywhere_limit),
        hash_mb: args.hash_mb,
        threads: args.threads.unwrap_or_else(all_cores),
        eval: eval.clone(),
        cache: args.cache,
        journals: args.journals,
        from_cache: args.from_cache,
        progress: true,
        command_line: command_line(),
        interrupt: if args.from_cache {
            commands::Interrupt::default()
        } else {
            commands::Interrupt::on_signals()?
        },
    };
    let (mut out, mut log) = (io::stdout().lock(), io::stderr());
    commands::perfect_play(&options, &mut out, &mut log)?;
    Ok(())
}

/// Every position of an OBF file (`--file`), or the one position of the command line.
pub fn solve(args: SolveArgs, rules: GameRules, eval: &Evaluation) -> Result<(), AppError> {
    let threads = args.threads.unwrap_or_else(all_cores);
    if let Some(path) = args.file {
        let text = read_list(&path, "an OBF file")?;
        let (out, max) = (&mut io::stdout().lock(), Some(args.max_empties));
        let totals = commands::solve_file_up_to(&text[..], args.hash_mb, threads, eval, max, out)?;
        if totals.skipped > 0 {
            let _ =
                writeln!(std::io::stderr(),
                "othello solve: {} of the file's positions skipped: more than --max-empties {} \
                 empty cells",
                totals.skipped, args.max_empties
            );
        }
        return Ok(());
    }
    if let Some(dir) = args.work.clone() {
        return solve_work(args, rules, eval, &dir);
    }
    let start = args.start.start(rules);
    let options = commands::SolveOptions {
        which: if args.all_moves {
            RootMoves::All
        } else {
            RootMoves::Ties
        },
        hash_mb: args.hash_mb,
        threads,
        eval: eval.clone(),
        max_empties: Some(args.max_empties),
        journal: args.journal,
        limit: args.limit,
        interrupt: commands::Interrupt::on_signals()?,
    };
    let terminal = io::stderr().is_terminal();
    let progress: Option<Box<dyn Write + Send>> =
        (terminal || args.progress).then(|| Box::new(io::stderr()) as _);
    let mut stdout = io::stdout().lock();
    match commands::solve_from(
        &start,
        &args.moves,
        &options,
        progress,
        terminal,
        &mut stdout,
    ) {
        Ok(Err(commands::OutOfTime {
            signal: Some(signal),
            ..
        })) => Err(anyhow::Error::from(commands::Stopped { signal }).into()),
        Ok(_) => Ok(()),
        // The position asked for does not exist: a bad command line.
        Err(e) => Err(bad_position_as(e, AppError::Usage)),
    }
}

/// `othello solve --work DIR`: a split solve's split, one job, a merge, or all of it here.
fn solve_work(
    args: SolveArgs,
    rules: GameRules,
    eval: &Evaluation,
    dir: &Path,
) -> Result<(), AppError> {
    use commands::work::{self, JobEnd, Merged};
    let which = if args.all_moves {
        RootMoves::All
    } else {
        RootMoves::Ties
    };
    let options = work::JobOptions {
        threads: args.threads.unwrap_or(1),
        hash_mb: args.hash_mb,
        eval: eval.clone(),
        limit: args.limit,
        interrupt: commands::Interrupt::on_signals()?,
    };
    let mut stdout = io::stdout().lock();
    let bad_position = |e: anyhow::Error| bad_position_as(e, AppError::Usage);
    if let Some(jobs) = args.split {
        let start = args.start.start(rules);
        // Before --run-local, what the split did goes to stderr: stdout is the report alone.
        let mut stderr = io::stderr();
        let said: &mut dyn Write = if args.run_local {
            &mut stderr
        } else {
            &mut stdout
        };
        let asked = work::SplitAsked {
            start: &start,
            moves: &args.moves,
            which,
            jobs,
        };
        work::split(asked, eval, dir, &options.interrupt, said).map_err(bad_position)?;
        if args.estimate {
            let report = work::estimate(dir, args.sample, &options, &mut stdout)?;
            return report.map_err(stopped_job);
        }
        if !args.run_local {
            return Ok(());
        }
    }
    if args.merge {
        return match work::merge(dir, eval, &mut stdout)? {
            Merged::Settled(totals) => {
                // A closed stderr loses the summary, not the status: the report is out.
                let _ = writeln!(io::stderr(), "othello solve: {}", totals.summary());
                Ok(())
            }
            Merged::NextRound { round, jobs } => {
                writeln!(stdout, "round {round}: {}", Counted(jobs, "job"))?;
                Err(AppError::Unfinished {
                    status: work::STATUS_NEXT_ROUND,
                    message: None,
                })
            }
            Merged::Missing(missing) => Err(AppError::Unfinished {
                status: work::STATUS_MISSING,
                message: Some(format!(
                    "results missing, nothing merged: {}",
                    work::listed(&missing)
                )),
            }),
        };
    }
    if args.run_local {
        let workers = args.workers.unwrap_or_else(all_cores);
        let mut log = io::stderr();
        return match work::run_local(dir, workers, &options, &mut stdout, &mut log)? {
            Ok(totals) => {
                let _ = writeln!(io::stderr(), "othello solve: {}", totals.summary());
                Ok(())
            }
            Err(end) => Err(stopped_job(end)),
        };
    }
    let index = match args.job {
        Some(i) => i,
        None => {
            let index = array_index(None, "a job index", || {
                "--work DIR alone solves one job: give --job I (or set SLURM_ARRAY_TASK_ID or \
                 JOB_COMPLETION_INDEX), or --split N, --merge or --run-local"
                    .to_string()
            })?;
            usize::try_from(index)
                .map_err(|_| AppError::Usage(format!("job {index}: no such job")))?
        }
    };
    let batch = work::Batch {
        index,
        size: args.batch as usize,
    };
    let mut said = |job: usize, end: &JobEnd| -> anyhow::Result<()> {
        match end {
            JobEnd::Done(r) => writeln!(
                stdout,
                "round {} job {}: score {:+}, {} nodes in {:.3} s",
                r.round, r.job, r.score, r.nodes, r.seconds
            )?,
            JobEnd::AlreadyDone => writeln!(stdout, "job {job}: its result is already there")?,
            JobEnd::Stopped { .. } => {}
        }
        Ok(())
    };
    match work::run_jobs(dir, args.round, batch, &options, &mut said)? {
        None => Ok(()),
        Some(end) => Err(stopped_job(end)),
    }
}

/// A job stopped: by a signal (status 128 + its number) or by its limit (status 3).
fn stopped_job(end: commands::work::JobEnd) -> AppError {
    match end {
        commands::work::JobEnd::Stopped {
            signal: Some(signal),
        } => anyhow::Error::from(commands::Stopped { signal }).into(),
        _ => AppError::Unfinished {
            status: commands::work::STATUS_JOB_STOPPED,
            message: Some(
                "not finished within --limit: its work is kept; run the same command again to \
                 go on"
                    .to_string(),
            ),
        },
    }
}

/// `othello book`: learn, fix, show, export, import.
pub fn book(args: BookArgs, rules: GameRules, eval: &Evaluation) -> Result<(), AppError> {
    use othello::opening::book::{self, edax, Book, BookFileError, LearnOptions};
    let named = |path: &Path, e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let read = |path: &Path| book::read(path).map_err(|e| AppError::Input(named(path, &e)));
    match args.verb {
        BookVerb::Learn(a) => {
            let _lock = lock_book(&a.book)?;
            let start = a.start.start(rules);
            let mut the_book = match book::read(&a.book) {
                Ok(b) => {
                    b.check_start(&start).map_err(|e| {
                        AppError::Usage(format!(
                            "{}: {e}: give the book's board and rule options",
                            a.book.display()
                        ))
                    })?;
                    b
                }
                Err(BookFileError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                    Book::for_start(&start).map_err(|e| AppError::Usage(e.to_string()))?
                }
                Err(e) => return Err(AppError::Input(named(&a.book, &e))),
            };
            let options = LearnOptions {
                deviation: a.deviation,
                margin: a.margin,
                depth: a.depth,
                exact_empties: a.exact_empties,
                games: a.games,
                threads: a.threads.unwrap_or_else(all_cores),
                hash_mb: a.hash_mb,
                eval: eval.clone(),
                save_every: a.save_every,
            };
            let progress = std::sync::Arc::new(if io::stderr().is_terminal() {
                Progress::status()
            } else {
                Progress::hidden()
            });
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
                return Err(AppError::Stopped {
                    signal,
                    message: format!(
                        "stopped by {}: the book is saved; the same command goes on",
                        commands::signal_name(signal)
                    ),
                });
            }
        }
        BookVerb::Fix(a) => {
            // A book that is not there is named as a reader names it, before a lock beside it.
            std::fs::metadata(&a.book).map_err(|e| AppError::Input(named(&a.book, &e)))?;
            let _lock = lock_book(&a.book)?;
            let mut the_book = read(&a.book)?;
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

/// The lock on a book that `book learn`, `fix` and `import` hold while they read and write it,
/// so that two runs never write one book and the last save wins: a second run is refused.
fn lock_book(path: &Path) -> Result<othello::files::FileLock, AppError> {
    use othello::files::{FileLock, LockKind};
    match FileLock::try_take(path, LockKind::Exclusive) {
        Ok(Some(lock)) => Ok(lock),
        Ok(None) => Err(AppError::Failed(format!(
            "{}: another `book learn`, `fix` or `import` is writing this book; try again once \
             it ends",
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
    use std::io::Read;
    let mut head = Vec::new();
    match File::open(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(AppError::Failed(format!("{}: {e}", path.display()))),
        Ok(file) => file
            .take(64)
            .read_to_end(&mut head)
            .map_err(|e| AppError::Failed(format!("{}: {e}", path.display())))?,
    };
    match foreign(&head) {
        Some(why) => Err(AppError::Usage(format!(
            "{}: {why}, so not replaced (--force replaces it)",
            path.display()
        ))),
        None => Ok(()),
    }
}

/// Listens to SIGINT and SIGTERM for `book learn`. The first raises the interrupt it returns
/// and says at once that the book is being saved: the searches stop within a second. A later
/// one says that the save goes on rather than end the program, which would lose the work of
/// the run since its last save.
fn stop_learning_on_signals(
    path: &Path,
    progress: &std::sync::Arc<Progress>,
) -> io::Result<commands::Interrupt> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let interrupt = commands::Interrupt::default();
    let (raised, progress, book) = (
        interrupt.clone(),
        std::sync::Arc::clone(progress),
        path.display().to_string(),
    );
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let name = commands::signal_name(signal);
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

/// `e` as `status` with its message where it is a [`commands::BadPosition`] (an illegal move, a
/// position that does not exist), else as the error it is.
fn bad_position_as(e: anyhow::Error, status: fn(String) -> AppError) -> AppError {
    match e.downcast_ref::<commands::BadPosition>() {
        Some(_) => status(format!("{e:#}")),
        None => e.into(),
    }
}

/// The bytes of a list file, read whole up to [`commands::MAX_LIST_FILE`], so that a huge or
/// endless one (`/dev/zero`) is refused rather than read without end. Its lines are read as
/// text one by one, so that one that is not names its number. A file over the cap is bad
/// input (status 2), as a game piped in over it is; a file that cannot be read at all is a
/// failure (status 1).
fn read_list(path: &Path, what: &str) -> Result<Vec<u8>, AppError> {
    othello::files::read_capped(path, commands::MAX_LIST_FILE, what).map_err(|e| {
        let message = format!("cannot read {}: {e}", path.display());
        match e.kind() {
            io::ErrorKind::InvalidData => AppError::Input(message),
            _ => AppError::Failed(message),
        }
    })
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

/// `othello train gen`, `othello train fit` and `othello train test`; `weights` are the files
/// given with `--weights` (read into `eval`), which a fit's output must not replace.
pub fn train(
    args: TrainArgs,
    rules: GameRules,
    eval: &Evaluation,
    weights: &[std::path::PathBuf],
) -> Result<(), AppError> {
    use othello::train::{fit, generate};
    match args.step {
        TrainStep::Gen(a) => {
            let shard = match a.shard_size {
                Some(size) => {
                    let index = array_index(a.shard, "a shard index", || {
                        format!(
                            "--shard-size needs the shard's index: give --shard I, or run it as \
                             a job array (which sets {} or {})",
                            ARRAY_INDEX_VARIABLES[0], ARRAY_INDEX_VARIABLES[1]
                        )
                    })?;
                    Some((index, shard_games(index, size)?))
                }
                None => None,
            };
            let (first, games) = shard.map_or((0, a.games), |(_, games)| games);
            let options = generate::GenOptions {
                setup: a.board.setup(rules.variant(a.misere)),
                first,
                games,
                seed: a.seed,
                random_moves: a.random_moves,
                random_rate: a.random_rate,
                depth: a.depth,
                exact_empties: a.exact_empties,
                threads: a.threads.unwrap_or_else(all_cores),
                hash_mb: a.hash_mb,
                eval: eval.clone(),
            };
            let progress = io::stderr().is_terminal();
            let report = match shard {
                Some(_) => generate::generate_shard(&options, &a.out, progress),
                None => generate::generate(&options, &a.out, progress),
            }
            .map_err(AppError::Input)?;
            println!(
                "{} added ({} already there), {}, {:.1} s",
                Counted(report.games, "game"),
                report.skipped,
                Counted(report.positions, "position"),
                report.seconds
            );
            if let Some((index, (first, games))) = shard {
                println!(
                    "shard {index}: games {first} to {} in {}",
                    first as u64 + games as u64 - 1,
                    a.out.display()
                );
            }
        }
        TrainStep::Fit(a) => {
            // Everything that would stop the writing is settled before the fit.
            let max = othello::search::weights::MAX_PHASES;
            if !(1..=max).contains(&a.phases) {
                return Err(AppError::Usage(format!(
                    "--phases {}: a weights file holds 1 to {max}",
                    a.phases
                )));
            }
            let inputs = a.data.iter().chain(weights).map(|p| p.as_path());
            othello::files::refuse_output_over_input(&a.out, inputs)
                .map_err(|e| AppError::Usage(format!("--out {e}")))?;
            refuse_unknown_output(&a.out)?;
            let records = read_training(&a.data)?;
            let options = fit::FitOptions {
                phases: a.phases,
                epochs: a.epochs,
                held_out: a.held_out,
                regularize: a.regularize,
                threads: a.threads.unwrap_or_else(all_cores),
            };
            let (weights, reports) = fit::fit(&records, &options).map_err(AppError::Input)?;
            othello::files::write_atomic(&a.out, &weights.to_bytes())
                .with_context(|| format!("cannot write {}", a.out.display()))?;
            let mut out = io::stdout().lock();
            write_phase_reports(&mut out, &reports)?;
            writeln!(out, "weights written to {}", a.out.display())?;
        }
        TrainStep::Test(a) => {
            let records = read_training(&a.data)?;
            let board = records.board();
            let (rows, cols) = (board.shape.rows(), board.shape.cols());
            let weights = eval.weights_for(rows, cols, board.variant).ok_or_else(|| {
                AppError::Input(format!(
                    "no learned weights for {rows}x{cols} under these rules: give --weights FILE"
                ))
            })?;
            let reports = fit::measure(&records, &weights, a.held_out).map_err(AppError::Input)?;
            write_phase_reports(&mut io::stdout().lock(), &reports)?;
        }
    }
    Ok(())
}

/// The job array variables that number a job or a shard, in the order they are asked:
/// Slurm's, then that of a Kubernetes Indexed Job.
const ARRAY_INDEX_VARIABLES: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// The index of one of a job array's runs: `given` on the command line, else the first of
/// [`ARRAY_INDEX_VARIABLES`] set in the environment; one that is set must be a number (spaces
/// around it aside), never passed over for the next. `what` names it in the error of one
/// that is not; `missing` is the error when none is set.
fn array_index(
    given: Option<u64>,
    what: &str,
    missing: impl FnOnce() -> String,
) -> Result<u64, AppError> {
    if let Some(index) = given {
        return Ok(index);
    }
    for name in ARRAY_INDEX_VARIABLES {
        let Some(value) = std::env::var_os(name) else {
            continue;
        };
        return value
            .to_str()
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| {
                AppError::Usage(format!(
                    "{name}={}: {what} is a number from 0",
                    value.to_string_lossy()
                ))
            });
    }
    Err(AppError::Usage(missing()))
}

/// The first game and the number of games of shard `index` of `size` games, refused where
/// its last game number does not fit a training file's 32 bits.
fn shard_games(index: u64, size: u32) -> Result<(u32, u32), AppError> {
    let first = index
        .checked_mul(size as u64)
        .filter(|&first| first <= (u32::MAX - size.saturating_sub(1)) as u64)
        .ok_or_else(|| {
            AppError::Usage(format!(
                "shard {index} of {size} games: its games would pass the last game number, {}",
                u32::MAX
            ))
        })?;
    Ok((first as u32, size))
}

/// Refuses `train fit --out PATH` where PATH holds something other than weights: only a weights
/// file (by its magic), an empty file or none is replaced. A pipe or a device is not opened.
fn refuse_unknown_output(path: &Path) -> Result<(), AppError> {
    use std::io::Read;
    let refused = |why: &str| {
        Err(AppError::Usage(format!(
            "--out {}: {why}, so it is not replaced (give a new file, or a weights file)",
            path.display()
        )))
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(AppError::Failed(format!("{}: {e}", path.display()))),
    };
    if !meta.is_file() {
        return refused("not a regular file");
    }
    if meta.len() == 0 {
        return Ok(());
    }
    let mut magic = Vec::new();
    File::open(path)
        .and_then(|f| f.take(8).read_to_end(&mut magic))
        .map_err(|e| AppError::Failed(format!("{}: {e}", path.display())))?;
    if !othello::search::weights::is_weights_file(&magic) {
        return refused("not a weights file");
    }
    Ok(())
}

/// Training files, read whole, as many positions as a fit takes: one that a stopped `train gen`
/// left unfinished is read as far as it goes, with a warning; a finished one cut short is
/// refused.
fn read_training(paths: &[std::path::PathBuf]) -> Result<data::Records, AppError> {
    data::read_all(paths, othello::train::fit::max_positions, |warning| {
        eprintln!("othello: {warning}")
    })
    .map_err(AppError::Input)
}

/// The table of mean absolute errors per phase that `train fit` and `train test` print.
fn write_phase_reports(
    out: &mut impl Write,
    reports: &[othello::train::fit::PhaseReport],
) -> io::Result<()> {
    writeln!(
        out,
        "| phase | empties | train | test | test error | exact | exact error | classic error |"
    )?;
    writeln!(
        out,
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )?;
    for r in reports {
        writeln!(
            out,
            "| {} | {}-{} | {} | {} | {:.2} | {} | {:.2} | {:.2} |",
            r.phase,
            r.empties.0,
            r.empties.1,
            r.train,
            r.test,
            r.test_error,
            r.exact,
            r.exact_error,
            r.classic_error
        )?;
    }
    Ok(())
}
