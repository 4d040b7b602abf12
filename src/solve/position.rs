//! `othello solve`: perfect play from one position (the value, the final count, the best moves
//! and a line of perfect play), or the exact values of every position in an OBF file.

use super::journal::Proved;
use super::journal::{Earlier, JournalFile};
use crate::interrupt::{signal_name, Interrupt};
use crate::lines::list_entries;
use crate::notation::{MoveList, Obf};
use crate::rules::{Bits, Color, Game, IllegalMove, Move, Passes, Position, Rules};
use crate::rules::{Square, Variant};
use crate::search::{Config, Engine, Observer, RootMoves, RootValue, Scoring, SolveProgress};
use crate::start::{BadPosition, Start};
use anyhow::{bail, Context};
use std::io::{BufRead, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `othello solve` works out for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Which moves get exact values: [`RootMoves::Ties`] names every best move.
    pub which: RootMoves,
    /// The solver's table, threads and the evaluation that orders its moves far from the end
    /// (see [`Config::solver`]).
    pub search: Config,
    /// Refuse positions with more empty cells than this (`None`: no limit).
    pub max_empties: Option<usize>,
    /// Keep the bounds the solve proves in this file, and read those of earlier solves from
    /// it (see [`JournalFile`]).
    pub journal: Option<PathBuf>,
    /// Give up once this much time has passed (`None`: no limit).
    pub limit: Option<Duration>,
    /// Give up, as at the time limit, once this is raised.
    pub interrupt: Interrupt,
}

/// From this many empty cells on, a solve says on stderr that it may take long, even when no
/// progress is shown.
const SLOW_EMPTIES: usize = 28;

/// Perfect play from one position, in plain disc counts (empty cells count for nobody).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSolved {
    /// The side to move in the position (who may have to pass).
    pub to_move: Color,
    /// The final disc difference for the side to move under perfect play (reversed under
    /// misère, so more is always better).
    pub score: i32,
    /// The moves proved exact, best first: the best ones, or every legal move.
    pub moves: Vec<(Square, i32)>,
    /// A line of perfect play to the end of the game.
    pub line: Vec<Move>,
    /// The discs `(black, white)` and empty cells at the end of `line`.
    pub black: u32,
    pub white: u32,
    pub empty: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The work of earlier solves carried on through a journal (not in `nodes`).
    pub earlier: Earlier,
}

/// Solves `pos` under `rules` exactly, with `observer` told of the progress, whatever
/// `options.limit` says. The line of perfect play is played out and its final count checked
/// against the solved value.
pub fn solve_position<B: Bits>(
    rules: &Rules<B>,
    pos: &Position<B>,
    options: &SolveOptions,
    observer: Option<Observer>,
) -> anyhow::Result<PositionSolved> {
    let options = SolveOptions {
        limit: None,
        interrupt: Interrupt::default(),
        ..options.clone()
    };
    let solved = solve_position_within(rules, pos, &options, observer)?;
    Ok(solved.unwrap_or_else(|_| unreachable!("a solve without a time limit always finishes")))
}

/// A solve that gave up at its time limit, or when a signal asked it to stop: the work it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfTime {
    pub nodes: u64,
    pub elapsed: Duration,
    /// As in [`PositionSolved`].
    pub earlier: Earlier,
    /// The signal that stopped it, if one did (see [`Interrupt`]).
    pub signal: Option<i32>,
    /// With a journal, what it proves so far of the position and of each move.
    pub proved: Option<Proved>,
}

/// As [`solve_position`], giving up once `options.limit` has passed or `options.interrupt` is
/// raised. The line of perfect play, once the value is known, is searched whatever the time,
/// but not whatever the signal: one raised before the answer is returned stops the solve.
pub fn solve_position_within<B: Bits>(
    rules: &Rules<B>,
    pos: &Position<B>,
    options: &SolveOptions,
    observer: Option<Observer>,
) -> anyhow::Result<Result<PositionSolved, OutOfTime>> {
    let clock = Instant::now();
    let mut engine = Engine::new(rules.clone(), options.search.clone());
    let mut journal = match &options.journal {
        Some(path) => Some(JournalFile::open(path, rules)?),
        None => None,
    };
    let earlier = journal.as_ref().map_or(Earlier::default(), |j| j.earlier);
    engine.keep_journal(journal.as_ref().map(|j| Arc::clone(&j.journal)));
    // The observer stays through the line's searches, so that a signal stops those too.
    engine.observe(Some(interruptible(options.interrupt.clone(), observer)));
    let solved = engine.solve_root_within(pos, options.which, options.limit);
    // A signal at any moment stops the solve, also one that comes once the value is known:
    // the line it cuts short is not printed, and the run is told as stopped, its work kept.
    let solved = solved.map(|solved| {
        let line = engine.perfect_line(pos, solved.score);
        (solved, line)
    });
    engine.observe(None);
    let (solved, line) = match solved {
        Some(solved) if options.interrupt.signal().is_none() => solved,
        _ => {
            let (nodes, elapsed) = (engine.nodes(), clock.elapsed());
            if let Some(journal) = &mut journal {
                journal.finish(nodes, elapsed, false);
            }
            return Ok(Err(OutOfTime {
                nodes,
                elapsed,
                earlier,
                signal: options.interrupt.signal(),
                proved: journal.as_ref().map(|j| Proved::of(&j.journal, rules, pos)),
            }));
        }
    };
    // The line's searches count on from the solve's nodes.
    let nodes = engine.nodes();
    if let Some(journal) = &mut journal {
        journal.finish(nodes, clock.elapsed(), true);
    }
    let g = &rules.geometry;
    let mut end = *pos;
    let mut listed = Vec::new();
    for &step in &line {
        match step {
            Some(m) => {
                end = rules.play_unchecked(&end, m);
                listed.push(Move::Play(g.square(m)));
            }
            None => {
                end = rules.pass(&end);
                listed.push(Move::Pass);
            }
        }
    }
    let (black, white) = end.score();
    let mover_lead = match pos.to_move {
        Color::Black => black as i32 - white as i32,
        Color::White => white as i32 - black as i32,
    };
    let lead = if rules.variant.misere {
        -mover_lead
    } else {
        mover_lead
    };
    if !rules.is_over(&end) || lead != solved.score {
        bail!(
            "internal error: the line of perfect play ends {black}-{white}, not at the solved value {:+}",
            solved.score
        );
    }
    let mut moves: Vec<(Square, i32)> = solved
        .moves
        .iter()
        .map(|&(m, v)| (g.square(m), v))
        .collect();
    if moves.is_empty() {
        if let Some(best) = solved.best {
            moves.push((g.square(best), solved.score));
        }
    }
    Ok(Ok(PositionSolved {
        to_move: pos.to_move,
        score: solved.score,
        moves,
        line: listed,
        black,
        white,
        empty: rules.empty(&end).count(),
        nodes,
        elapsed: clock.elapsed(),
        earlier,
    }))
}

/// `observer`, if any, and a stop once `interrupt` is raised.
pub(super) fn interruptible(interrupt: Interrupt, mut observer: Option<Observer>) -> Observer {
    Box::new(move |p: &SolveProgress| {
        if interrupt.signal().is_some() {
            return ControlFlow::Break(());
        }
        observer
            .as_mut()
            .map_or(ControlFlow::Continue(()), |o| o(p))
    })
}

/// Solves the position reached from `start` by `moves` (standard notation; a pass may be
/// written `pa` or left out) and prints the answer, or the work done when `options.limit`
/// stopped the solve first.
pub fn solve_from(
    start: &Start,
    moves: &MoveList,
    options: &SolveOptions,
    progress: Option<Box<dyn Write + Send>>,
    terminal: bool,
    out: &mut dyn Write,
) -> anyhow::Result<Result<PositionSolved, OutOfTime>> {
    crate::with_bits!(start.shape(), |B| {
        let (rules, pos) = position_after::<B>(start, moves)?;
        let empties = rules.empty(&pos).count() as usize;
        if let Some(max) = options.max_empties.filter(|&max| empties > max) {
            anyhow::bail!(
                "{empties} empty cells: more than an exact solve can finish (the limit is \
                 --max-empties {max}); solve a later position (--moves), or raise the limit"
            );
        }
        if empties >= SLOW_EMPTIES && progress.is_none() {
            let _ = writeln!(
                std::io::stderr(),
                "othello solve: {empties} empty cells to solve exactly; this may take hours \
                 (--progress shows how far it has got)"
            );
        }
        let observer = progress.map(|w| progress_printer(w, terminal, rules.geometry.cols()));
        let solved = solve_position_within(&rules, &pos, options, observer)?;
        writeln!(out, "# {}", heading(start, moves))?;
        match &solved {
            Ok(solved) => write_solution(out, solved, options.which)?,
            Err(stopped) => write_stopped(out, stopped, options)?,
        }
        Ok(solved)
    })
}

/// The rules, and the position reached from `start` by `moves` (a `pa` accepted where the
/// game passed by itself).
pub(super) fn position_after<B: Bits>(
    start: &Start,
    moves: &MoveList,
) -> anyhow::Result<(Rules<B>, Position<B>)> {
    let (rules, position) = start.rules_and_position::<B>()?;
    let mut game = Game::from_position(rules, position, Passes::Automatic);
    play_listed(&mut game, &moves.0)?;
    Ok((game.rules().clone(), *game.position()))
}

/// What a report solves, in words: the board, the rules and the position.
pub(super) fn heading(start: &Start, moves: &MoveList) -> String {
    let mut from = match start {
        Start::Setup(_) => "the start position".to_string(),
        Start::Position(p, _) => p.to_string(),
    };
    if !moves.is_empty() {
        from = format!("{from}, after {}", line_text(&moves.0));
    }
    format!("{}, {from}", describe(start))
}

/// Plays a move list on `game`. A `pa` is accepted where the game passed by itself.
pub(super) fn play_listed<B: Bits>(game: &mut Game<B>, list: &[Move]) -> Result<(), BadPosition> {
    for (n, &step) in list.iter().enumerate() {
        game.play_listed(step).map_err(|e| {
            BadPosition(match e {
                IllegalMove::OffBoard(square) => format!(
                    "--moves: move {} ({square}) is off the {} board",
                    n + 1,
                    game.shape()
                ),
                IllegalMove::PassWithMoves(color) => format!(
                    "--moves: move {} (pa): {color} has a legal move and cannot pass",
                    n + 1
                ),
                e => format!("--moves: move {} ({step}): {e}", n + 1),
            })
        })?;
    }
    Ok(())
}

/// The board and variant in words.
fn describe(start: &Start) -> String {
    let v = start.variant();
    let mut text = format!("{}, {v}", start.shape());
    if v.misere {
        text += " (fewer discs wins)";
    }
    if let Start::Setup(setup) = start {
        text += &format!(
            ", {} first, {} on the top-left",
            setup.first.name(),
            setup.top_left.name()
        );
    }
    text
}

/// A move list in standard notation, separated by spaces.
pub fn line_text(line: &[Move]) -> String {
    format!("{:#}", MoveList(line.to_vec())).to_lowercase()
}

/// Prints a solved position: the value, the final count, the best (or every) move with its
/// value, a line of perfect play, and the work done.
pub fn write_solution(
    out: &mut dyn Write,
    solved: &PositionSolved,
    which: RootMoves,
) -> anyhow::Result<()> {
    let side = solved.to_move.name();
    let value = match solved.score {
        0 => "draw".to_string(),
        s if s > 0 => format!("wins by {s}"),
        s => format!("loses by {}", -s),
    };
    let over = if solved.line.is_empty() {
        " (the game is over)"
    } else {
        ""
    };
    writeln!(out, "{side} to move: {value}{over}")?;
    let (b, w) = (solved.black, solved.white);
    let mover_wins = solved.score > 0;
    let result = match (solved.score, solved.to_move) {
        (0, _) => format!("draw {b}-{w}"),
        (_, Color::Black) if mover_wins => format!("Black wins {b}-{w}"),
        (_, Color::White) if !mover_wins => format!("Black wins {b}-{w}"),
        _ => format!("White wins {w}-{b}"),
    };
    let empty = match solved.empty {
        0 => String::new(),
        1 => ", 1 empty".to_string(),
        n => format!(", {n} empty"),
    };
    writeln!(out, "Perfect play: {result}{empty}")?;
    let values = |moves: &[(Square, i32)]| {
        let words: Vec<String> = moves.iter().map(|(sq, v)| format!("{sq} {v:+}")).collect();
        words.join(", ")
    };
    if solved.moves.is_empty() {
        let why = if solved.line.is_empty() {
            "none: the game is over"
        } else {
            "none: the side to move must pass"
        };
        writeln!(out, "Best move: {why}")?;
    } else {
        let top = solved.moves[0].1;
        let best: Vec<(Square, i32)> = solved
            .moves
            .iter()
            .copied()
            .filter(|&(_, v)| v == top)
            .collect();
        let label = match which {
            RootMoves::Best => "Best move",
            _ => "Best moves",
        };
        writeln!(out, "{label}: {}", values(&best))?;
        if which == RootMoves::All {
            writeln!(out, "All moves: {}", values(&solved.moves))?;
        }
    }
    writeln!(out, "Line: {}", line_text(&solved.line))?;
    let secs = solved.elapsed.as_secs_f64();
    writeln!(
        out,
        "Nodes: {} in {secs:.3} s ({:.0} nodes/s)",
        solved.nodes,
        solved.nodes as f64 / secs.max(1e-9)
    )?;
    write_earlier(out, solved.earlier)?;
    Ok(())
}

/// Prints what a solve stopped by its time limit or a signal did, and how to go on.
fn write_stopped(
    out: &mut dyn Write,
    stopped: &OutOfTime,
    options: &SolveOptions,
) -> anyhow::Result<()> {
    let why = match stopped.signal {
        Some(signal) => format!("Stopped by {}", signal_name(signal)),
        None => {
            let limit = options.limit.map_or(String::new(), crate::durations::text);
            format!("Not solved within {limit}")
        }
    };
    writeln!(
        out,
        "{why}: {} nodes in {:.3} s",
        stopped.nodes,
        stopped.elapsed.as_secs_f64()
    )?;
    write_earlier(out, stopped.earlier)?;
    if let Some(known) = stopped.proved.as_ref().and_then(Proved::line) {
        writeln!(out, "Proved so far (journal): {known}")?;
    }
    let next = match &options.journal {
        Some(path) => format!(
            "run the same command again to go on from the bounds kept in {}",
            path.display()
        ),
        None => "--journal FILE keeps the work for the next run".to_string(),
    };
    writeln!(out, "Next: {next}")?;
    Ok(())
}

/// The earlier runs a journal records, if any.
fn write_earlier(out: &mut dyn Write, earlier: Earlier) -> anyhow::Result<()> {
    if earlier.runs > 0 {
        writeln!(
            out,
            "Earlier runs (journal): {}, {} nodes in {:.3} s",
            earlier.runs,
            earlier.nodes,
            earlier.elapsed.as_secs_f64()
        )?;
    }
    Ok(())
}

/// An observer that shows progress: a line per root move finished and, in between, the node
/// count, rewritten in place on stderr when `terminal`, or as plain lines on `out` every ten
/// seconds otherwise.
pub fn progress_printer(out: Box<dyn Write + Send>, terminal: bool, cols: usize) -> Observer {
    let (shown, every) = if terminal {
        (
            crate::progress::Progress::status(),
            Duration::from_millis(250),
        )
    } else {
        (
            crate::progress::Progress::lines(out),
            Duration::from_secs(10),
        )
    };
    let mut printed = Duration::ZERO;
    let mut done = usize::MAX;
    Box::new(move |p: &SolveProgress| {
        let finished = p.done != done;
        if !finished && p.elapsed < printed + every {
            return ControlFlow::Continue(());
        }
        printed = p.elapsed;
        done = p.done;
        let text = format!("solve: {}", progress_text(p, finished, cols));
        // Root moves finished stay on their own line; counts in between are overwritten.
        if finished && p.last.is_some() {
            shown.println(text);
        } else {
            shown.message(text);
        }
        ControlFlow::Continue(())
    })
}

/// A line of progress: the root move just `finished` and what it is worth, or the one being
/// searched; the best so far; nodes, seconds and speed. `cols` names the squares.
pub fn progress_text(p: &SolveProgress, finished: bool, cols: usize) -> String {
    let name = |m: usize| Square::new((m / cols) as u8, (m % cols) as u8).to_string();
    // The round of ties tests moves already counted once against the best value.
    let round = if p.ties { "tie" } else { "move" };
    let mut text = format!("{round} {}/{}", (p.done + 1).min(p.total), p.total);
    if p.sets > 0 {
        text = format!("sets of empty cells {}/{}", p.nodes, p.sets);
    }
    match (finished, p.last, p.current) {
        (true, Some((m, v)), _) => {
            text = format!("{round} {}/{} {} ", p.done, p.total, name(m));
            text += &match v {
                RootValue::Exact(v) => format!("{v:+}"),
                RootValue::AtMost(v) => format!("<= {v:+}"),
            };
        }
        (_, _, Some(m)) => text += &format!(" {}", name(m)),
        _ => {}
    }
    if let Some((m, v)) = p.best {
        text += &format!(", best {} {v}", name(m));
    }
    let secs = p.elapsed.as_secs_f64();
    text + &format!(
        ", {} nodes, {secs:.1} s, {:.0} nodes/s",
        p.nodes,
        p.nodes as f64 / secs.max(1e-9)
    )
}

/// Totals over a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileTotals {
    pub positions: usize,
    /// Positions whose file lists a score, and how many of those the solver matched.
    pub checked: usize,
    pub agreed: usize,
    /// Positions passed over for having more empty cells than the limit.
    pub skipped: usize,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Solves every line of an OBF file, printing one line per position and the totals. Scores
/// count empty cells for the winner, as OBF files do.
pub fn solve_file(
    input: impl BufRead,
    search: &Config,
    out: &mut dyn Write,
) -> anyhow::Result<FileTotals> {
    solve_file_up_to(input, search, None, out)
}

/// As [`solve_file`], passing over each position with more than `max_empties` empty cells:
/// its line says `skipped`, the totals count it, and the rest of the file is solved.
pub fn solve_file_up_to(
    input: impl BufRead,
    search: &Config,
    max_empties: Option<usize>,
    out: &mut dyn Write,
) -> anyhow::Result<FileTotals> {
    let rules = Rules::<u64>::new(crate::rules::Shape::STANDARD, Variant::default())?;
    let mut engine = Engine::new(rules, search.clone().with_scoring(Scoring::EmptiesToWinner));
    let mut totals = FileTotals::default();
    writeln!(
        out,
        "# line empties best score expected agree nodes seconds"
    )?;
    for line in list_entries(input) {
        let (n, line) = line?;
        let obf: Obf = line.parse().with_context(|| format!("line {n}"))?;
        let pos = obf_position(&obf);
        let expected = obf.scores.first().map(|&(_, s)| s);
        let expected_text = expected.map_or("-".to_string(), |e| format!("{e:+}"));
        let empties = engine.rules().empty(&pos).count() as usize;
        if max_empties.is_some_and(|max| empties > max) {
            totals.skipped += 1;
            writeln!(out, "{n} {empties} - - {expected_text} skipped - -")?;
            continue;
        }
        engine.clear();
        let solved = engine.solve_exact(&pos, false);
        let g = &engine.rules().geometry;
        let best = solved
            .best
            .map_or("pass".to_string(), |m| g.square(m).to_string());
        let agree = match expected {
            Some(e) => {
                totals.checked += 1;
                let ok = e == solved.score
                    && obf
                        .scores
                        .iter()
                        .any(|&(sq, s)| s == e && Some(sq) == solved.best.map(|m| g.square(m)));
                totals.agreed += ok as usize;
                if ok {
                    "yes"
                } else {
                    "NO"
                }
            }
            None => "-",
        };
        totals.positions += 1;
        totals.nodes = totals.nodes.saturating_add(solved.nodes);
        totals.elapsed = totals.elapsed.saturating_add(solved.elapsed);
        writeln!(
            out,
            "{n} {empties} {best} {:+} {expected_text} {agree} {} {:.3}",
            solved.score,
            solved.nodes,
            solved.elapsed.as_secs_f64()
        )?;
        out.flush()?;
    }
    if let (Some(max), 1..) = (max_empties, totals.skipped) {
        writeln!(
            out,
            "# {} skipped: more than {max} empty cells (--max-empties raises the limit)",
            totals.skipped
        )?;
    }
    let secs = totals.elapsed.as_secs_f64();
    writeln!(
        out,
        "# {} positions, {} of {} agree with the file, {} nodes, {:.3} s, {:.0} nodes/s",
        totals.positions,
        totals.agreed,
        totals.checked,
        totals.nodes,
        secs,
        totals.nodes as f64 / secs.max(1e-9)
    )?;
    Ok(totals)
}

/// The position an OBF line describes.
pub fn obf_position<B: Bits>(obf: &Obf) -> Position<B> {
    obf.position.position()
}
