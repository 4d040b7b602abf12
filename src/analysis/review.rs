//! `othello analyze`: goes over a game move by move, with the move played beside the engine's
//! best, both values, and the discs the move lost: exact near the end, searched before.

use crate::notation::{first_moves, MoveList};
use crate::opening::book::{Book, BookMove, Level};
use crate::rules::{Bits, Color, Game, Move, Passes, Position, Rules};
use crate::search::{Config, Engine, Horizon, MoveValue, DISC};
use crate::start::BadPosition;
use crate::start::Start;
use crate::wording::Counted;
use std::sync::Arc;
use std::time::Duration;

/// Where the exact solves start by default, in empty cells, and the search's depth before:
/// together about a minute for an 8x8 game on two cores (docs/analysis.md).
pub const EXACT_EMPTIES: u32 = 26;
pub const DEPTH: u32 = 14;

/// How the positions of a game are valued.
#[derive(Clone, Debug)]
pub struct AnalyzeOptions {
    /// Positions with this many empty cells or fewer are solved exactly.
    pub exact_empties: u32,
    /// The search of the positions before that: a depth, a time each, or both.
    pub search: Config,
    /// Where the book holds a position and the move played, its values stand.
    pub book: Option<Arc<Book>>,
}

/// What a move cost, by the discs it lost against the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Lost nothing, or less than [`MISTAKE`].
    Good,
    /// Lost [`MISTAKE`] discs or more: `?`.
    Mistake,
    /// Lost [`BLUNDER`] discs or more: `??`.
    Blunder,
}

/// Discs lost from which a move is a mistake, and a blunder.
pub const MISTAKE: i32 = 2;
pub const BLUNDER: i32 = 6;

impl Mark {
    fn of(loss_hundredths: i32) -> Mark {
        if loss_hundredths >= BLUNDER * DISC {
            Mark::Blunder
        } else if loss_hundredths >= MISTAKE * DISC {
            Mark::Mistake
        } else {
            Mark::Good
        }
    }

    /// `?`, `??`, or nothing.
    pub fn sign(self) -> &'static str {
        match self {
            Mark::Good => "",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// Where a row's values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Solved: both values are exact.
    Exact,
    /// The opening book's values, learned to this level.
    Book(Level),
    /// Searched: each move's position this many moves ahead, the move included.
    Searched { depth: u32 },
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Exact => f.write_str("exact"),
            Source::Book(_) => f.write_str("book"),
            Source::Searched { depth } => write!(f, "depth {depth}"),
        }
    }
}

/// One move of the game under review. Forced passes are not reviewed: there was no choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reviewed {
    /// The move's number in the game, passes counted (1 is the first move).
    pub ply: usize,
    pub player: Color,
    pub played: Move,
    /// The engine's best move; the move played when it is as good.
    pub best: Move,
    /// The value of the move played and of the best, for `player`: whole discs where solved.
    /// The best is never worth less than the move played.
    pub value: MoveValue,
    pub best_value: MoveValue,
    /// What the move played lost against the best, in hundredths of a disc (never below 0).
    pub loss: i32,
    /// Whether both values are exact.
    pub exact: bool,
    pub source: Source,
    pub mark: Mark,
    /// Where the move played lost anything: the line expected after the best move, the best
    /// first, passes included.
    pub line: Vec<Move>,
}

impl Reviewed {
    /// The value of the move played for Black: the game's score after it.
    pub fn for_black(&self) -> MoveValue {
        if self.player == Color::Black {
            self.value
        } else {
            -self.value
        }
    }
}

/// A row's values before it is a [`Reviewed`].
struct Row {
    best: Move,
    value: MoveValue,
    best_value: MoveValue,
    source: Source,
    /// The best move's line in cells (passes left out).
    line: Vec<usize>,
}

/// The review of a whole game (or of the part played so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    pub moves: Vec<Reviewed>,
    /// The final disc difference for Black if the game is over.
    pub result: Option<i32>,
    /// The named opening the game followed, if any.
    pub opening: Option<&'static crate::opening::names::Opening>,
}

impl Review {
    /// Black's, then White's: moves reviewed, discs lost (hundredths), mistakes, blunders.
    pub fn totals(&self) -> [(Color, usize, i32, usize, usize); 2] {
        [Color::Black, Color::White].map(|color| {
            let mine = self.moves.iter().filter(|m| m.player == color);
            let (mut n, mut lost, mut mistakes, mut blunders) = (0, 0, 0, 0);
            for m in mine {
                n += 1;
                lost += m.loss;
                mistakes += (m.mark == Mark::Mistake) as usize;
                blunders += (m.mark == Mark::Blunder) as usize;
            }
            (color, n, lost, mistakes, blunders)
        })
    }
}

/// A solved position's value for its side to move, and its best move.
struct Valued {
    value: MoveValue,
    best: Option<usize>,
}

/// Reviews the game from `start` through `moves` (an unfinished game too); `each` is told
/// after every position valued, with how many there are, for a progress display.
pub fn analyze(
    start: &Start,
    moves: &MoveList,
    options: &AnalyzeOptions,
    each: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<Review> {
    crate::with_bits!(start.shape(), |B| analyze_in::<B>(
        start, moves, options, each
    ))
}

fn analyze_in<B: Bits>(
    start: &Start,
    moves: &MoveList,
    options: &AnalyzeOptions,
    each: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<Review> {
    let (rules, position) = start.rules_and_position::<B>()?;
    let mut game = Game::from_position(rules.clone(), position, Passes::Automatic);
    // The positions where a player chose a move, the move, and who moved: the game passes
    // by itself, so every listed move is a choice.
    let mut chosen: Vec<(usize, Position<B>, Move)> = Vec::new();
    // The book's moves at each of them, where it has the position.
    let mut book_moves: Vec<Vec<BookMove>> = Vec::new();
    let mut ply = 0;
    for (i, &listed) in moves.iter().enumerate() {
        let before = *game.position();
        let in_book = options
            .book
            .as_ref()
            .map(|book| book.moves_naming(&game, listed))
            .unwrap_or_default();
        let played = game
            .play_listed(listed)
            .map_err(|e| BadPosition(format!("move {} ({listed}): {e}", i + 1)))?;
        if played.played == Move::Pass {
            // A `pa` recording a pass the game made: counted when it was made.
            continue;
        }
        let mut at = before;
        if before.to_move != played.color {
            // A start where the side to move must pass: the game passed first.
            ply += 1;
            at = rules.pass(&before);
        }
        ply += 1;
        chosen.push((ply, at, played.played));
        book_moves.push(if at == before { in_book } else { Vec::new() });
        if played.passed.is_some() {
            ply += 1;
        }
    }
    let mut engine = Engine::new(rules.clone(), options.search.clone());
    // Where a position was solved, the move played is worth exactly what the next position
    // is, so each is solved once. Where it was searched, the engine's best move and the move
    // played are valued alike: each position after them searched one move less deep than the
    // search that chose the best (see `search::ValuedMove`).
    let mut positions: Vec<Position<B>> = chosen.iter().map(|c| c.1).collect();
    positions.push(*game.position());
    let total = positions.len();
    let mut solved: Vec<Option<Valued>> = Vec::with_capacity(total);
    let mut reviewed = Vec::with_capacity(chosen.len());
    let square = |m: usize| Move::Play(rules.geometry.square(m));
    let cell = |m: Move| match m {
        Move::Play(sq) => rules.geometry.index(sq),
        Move::Pass => None,
    };
    for (i, pos) in positions.iter().enumerate() {
        let over = rules.is_over(pos);
        let exact = over || rules.empty(pos).count() <= options.exact_empties;
        solved.push(exact.then(|| solved_value(&mut engine, &rules, pos)));
        if i > 0 {
            let k = i - 1;
            let (ply, before, played) = chosen[k];
            let row = if let Some(here) = &solved[k] {
                let after_value = solved[i].as_ref().map(|v| v.value);
                let value = for_mover(&before, pos, after_value.unwrap_or(here.value));
                let mut line = Vec::new();
                if value.hundredths() < here.value.hundredths() {
                    if let Some(best) = here.best {
                        line = better_line(&mut engine, &rules, &before, best, here.value);
                    }
                }
                Row {
                    best: here.best.map_or(played, square),
                    value,
                    best_value: here.value,
                    source: Source::Exact,
                    line,
                }
            } else if let Some(row) = book_row(&book_moves[k], played) {
                row
            } else {
                searched_row(&mut engine, &rules, &before, cell(played), options)
            };
            reviewed.push(reviewed_row(ply, &before, played, row, &rules));
        }
        each(i + 1, total);
    }
    let end = game.position();
    let result = rules.is_over(end).then(|| rules.margin(end, Color::Black));
    Ok(Review {
        moves: reviewed,
        result,
        opening: crate::opening::names::of_game(&game),
    })
}

/// The exact value of `pos` for its side to move, and its best move; a finished game is its
/// margin.
fn solved_value<B: Bits>(engine: &mut Engine<B>, rules: &Rules<B>, pos: &Position<B>) -> Valued {
    if rules.is_over(pos) {
        return Valued {
            value: MoveValue::Discs(rules.margin(pos, pos.to_move)),
            best: None,
        };
    }
    let solved = engine.solve_exact(pos, false);
    Valued {
        value: MoveValue::Discs(solved.score),
        best: solved.best,
    }
}

/// `value`, a value of `after` for its side to move, for the side to move at `before`.
fn for_mover<B: Bits>(before: &Position<B>, after: &Position<B>, value: MoveValue) -> MoveValue {
    if after.to_move == before.to_move {
        value
    } else {
        -value
    }
}

/// How long the line after a solved position's best move may take to find: its moves are
/// proved one by one, which the solve's table makes quick.
const LINE_TIME: Duration = Duration::from_secs(2);

/// The line of perfect play from `pos` through its best move `best`, `pos` being worth
/// `value` (exact); empty where it takes longer than [`LINE_TIME`].
fn better_line<B: Bits>(
    engine: &mut Engine<B>,
    rules: &Rules<B>,
    pos: &Position<B>,
    best: usize,
    value: MoveValue,
) -> Vec<usize> {
    let Some(score) = value.discs() else {
        return Vec::new();
    };
    let at = rules.settle(&rules.play_unchecked(pos, best));
    let after = if at.to_move == pos.to_move {
        score
    } else {
        -score
    };
    let Some(rest) = engine.perfect_line_within(&at, after, Some(LINE_TIME)) else {
        return Vec::new();
    };
    std::iter::once(best)
        .chain(rest.into_iter().flatten())
        .collect()
}

/// The book's row for the move `played`, where the book holds it: its best move and both
/// values, whole discs as the book keeps them.
fn book_row(moves: &[BookMove], played: Move) -> Option<Row> {
    let best = moves.first()?;
    let mine = moves.iter().find(|m| m.played == played)?;
    let value = |m: &BookMove| match m.level {
        Level::Exact => MoveValue::Discs(m.value),
        Level::Depth(_) => MoveValue::Hundredths(m.value * DISC),
    };
    let (best, best_value) = if mine.value >= best.value {
        (mine, value(mine))
    } else {
        (best, value(best))
    };
    Some(Row {
        best: best.played,
        value: value(mine),
        best_value,
        source: Source::Book(mine.level.min(best.level)),
        line: Vec::new(),
    })
}

/// The row of a searched position: the engine's search picks its best move, then that move
/// and the one played are valued alike (see [`Engine::value_moves`]) as deep as the search
/// looked, and the better of the two is the best.
fn searched_row<B: Bits>(
    engine: &mut Engine<B>,
    rules: &Rules<B>,
    pos: &Position<B>,
    played: Option<usize>,
    options: &AnalyzeOptions,
) -> Row {
    let report = engine.search(pos);
    let depth = if report.exact {
        rules.empty(pos).count()
    } else {
        report.depth.max(1)
    };
    let mut cells: Vec<usize> = report.best.into_iter().collect();
    cells.extend(played.filter(|p| report.best != Some(*p)));
    let horizon = Horizon {
        depth,
        exact_empties: options.exact_empties,
    };
    // The search's own limits chose the depth; the values are found to it, however long.
    let valued = engine.value_moves(pos, &cells, horizon).unwrap_or_default();
    let square = |m: usize| Move::Play(rules.geometry.square(m));
    let played_value = valued.iter().find(|v| Some(v.cell) == played);
    let best = valued
        .iter()
        .max_by_key(|v| (v.value.hundredths(), Some(v.cell) == played));
    match (played_value, best) {
        (Some(mine), Some(best)) => Row {
            best: square(best.cell),
            value: mine.value,
            best_value: best.value,
            source: if mine.value.discs().is_some() && best.value.discs().is_some() {
                Source::Exact
            } else {
                Source::Searched {
                    depth: mine.depth.min(best.depth),
                }
            },
            line: best.line.clone(),
        },
        // A pass, or a search stopped from outside: nothing to compare.
        _ => Row {
            best: played.map_or(Move::Pass, square),
            value: MoveValue::Hundredths(report.score),
            best_value: MoveValue::Hundredths(report.score),
            source: Source::Searched { depth },
            line: Vec::new(),
        },
    }
}

/// The finished row of the move `played` at `pos`.
fn reviewed_row<B: Bits>(
    ply: usize,
    pos: &Position<B>,
    played: Move,
    row: Row,
    rules: &Rules<B>,
) -> Reviewed {
    let loss = (row.best_value.hundredths() - row.value.hundredths()).max(0);
    // A move as good as the best is a best move too (equal or symmetric moves).
    let best = if loss == 0 { played } else { row.best };
    let line = if loss == 0 {
        Vec::new()
    } else {
        rules.line(pos, &row.line)
    };
    Reviewed {
        ply,
        player: pos.to_move,
        played,
        best,
        value: row.value,
        // Never worth less than the move played (which a book's levels could make it).
        best_value: if loss == 0 { row.value } else { row.best_value },
        loss,
        exact: row.value.discs().is_some() && row.best_value.discs().is_some(),
        source: row.source,
        mark: Mark::of(loss),
        line,
    }
}

/// Moves of a better line shown in the table; `--json` gives all.
const LINE_SHOWN: usize = 12;

/// `hundredths` as discs: whole when `exact`, else to two places.
fn discs_text(hundredths: i32, exact: bool) -> String {
    if exact {
        format!("{}", hundredths / DISC)
    } else {
        format!("{:.2}", hundredths as f64 / DISC as f64)
    }
}

/// The review as a table, a move a line (under a mistake, the line after the best move),
/// then each player's totals and the result ([`write_chart`](super::write_chart) draws the
/// score under it).
pub fn write_text(review: &Review, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<6} {:<7} {:<5} {:>7} {:>7} {:>6} {:>7}",
        "ply", "player", "move", "best", "value", "best", "loss", "black"
    )?;
    for m in &review.moves {
        let played = format!("{} {}", m.played, m.mark.sign());
        writeln!(
            out,
            "{:>4}  {:<6} {:<7} {:<5} {:>7} {:>7} {:>6} {:>7}  {}",
            m.ply,
            m.player.name(),
            played.trim_end(),
            m.best.to_string(),
            m.value.to_string(),
            m.best_value.to_string(),
            discs_text(m.loss, m.exact),
            m.for_black().to_string(),
            m.source,
        )?;
        if m.mark != Mark::Good && !m.line.is_empty() {
            writeln!(out, "{:>29}{}", "line: ", first_moves(&m.line, LINE_SHOWN))?;
        }
    }
    if let Some(opening) = review.opening {
        writeln!(out, "Opening: {}.", opening.name)?;
    }
    for (color, moves, lost, mistakes, blunders) in review.totals() {
        let exact = lost % DISC == 0;
        // Discs lost are a measure, not a count: "1 disc lost" only where exactly one.
        let lost_text = discs_text(lost, exact);
        let discs = if lost == DISC { "disc" } else { "discs" };
        writeln!(
            out,
            "{}: {}, {lost_text} {discs} lost, {} (?), {} (??)",
            color.name(),
            Counted(moves, "move"),
            Counted(mistakes, "mistake"),
            Counted(blunders, "blunder"),
        )?;
    }
    match review.result {
        Some(0) => writeln!(out, "Result: a draw."),
        Some(d) if d > 0 => writeln!(out, "Result: Black wins by {d}."),
        Some(d) => writeln!(out, "Result: White wins by {}.", -d),
        None => writeln!(out, "Result: the game is not over."),
    }
}

/// The review as JSON, one object a move and a line each: `ply`, `player`, `move`, `best`,
/// `value`, `best_value`, `loss` (discs: whole when exact), `exact`, `source` (`exact`,
/// `book` or `search`), `depth` (a search's, else null), `black` (the move's value for Black)
/// and `line` (the moves after the best, where the move played lost anything); `game`, the
/// game's number in its file, where one is given (`--all`).
pub fn write_json(
    review: &Review,
    game: Option<usize>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let number = |hundredths: i32, exact: bool| -> serde_json::Value {
        if exact {
            (hundredths / DISC).into()
        } else {
            (hundredths as f64 / DISC as f64).into()
        }
    };
    let value = |v: MoveValue| number(v.hundredths(), v.discs().is_some());
    for m in &review.moves {
        let (source, depth) = match m.source {
            Source::Exact => ("exact", None),
            Source::Book(_) => ("book", None),
            Source::Searched { depth } => ("search", Some(depth)),
        };
        let line: Vec<String> = m.line.iter().map(Move::to_string).collect();
        let mut line = serde_json::json!({
            "ply": m.ply,
            "player": m.player.name().to_lowercase(),
            "move": m.played.to_string(),
            "best": m.best.to_string(),
            "value": value(m.value),
            "best_value": value(m.best_value),
            "loss": number(m.loss, m.exact),
            "exact": m.exact,
            "source": source,
            "depth": depth,
            "black": value(m.for_black()),
            "line": line,
        });
        if let (Some(n), Some(fields)) = (game, line.as_object_mut()) {
            fields.insert("game".to_string(), n.into());
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
