//! `othello analyze`: goes over a game move by move, with the move played beside the engine's
//! best, both values, and the discs the move lost: exact near the end, searched before.

use crate::notation::MoveList;
use crate::rules::{Bits, Color, Game, Move, Passes, Position, Rules};
use crate::search::{Config, Engine, MoveValue, DISC};
use crate::start::BadPosition;
use crate::start::Start;
use crate::wording::Counted;

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
    pub value: MoveValue,
    pub best_value: MoveValue,
    /// What the move played lost against the best, in hundredths of a disc (never below 0).
    pub loss: i32,
    /// Whether both values are exact.
    pub exact: bool,
    pub mark: Mark,
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

/// A value of a position for its side to move, and the best move there.
struct Valued {
    value: MoveValue,
    best: Option<usize>,
    /// Whether it was solved (or the game was over) rather than searched.
    solved: bool,
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
    let mut ply = 0;
    for (i, &listed) in moves.iter().enumerate() {
        let before = *game.position();
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
        if played.passed.is_some() {
            ply += 1;
        }
    }
    let mut engine = Engine::new(rules.clone(), options.search.clone());
    // Each position is valued once. Where it was solved, the move played is worth what the
    // next position is; where it was searched, a move other than the engine's is searched
    // one move less deep, so that both values look as far ahead.
    let mut positions: Vec<Position<B>> = chosen.iter().map(|c| c.1).collect();
    positions.push(*game.position());
    let total = positions.len();
    let mut values = Vec::with_capacity(total);
    for (i, pos) in positions.iter().enumerate() {
        values.push(value_of(&mut engine, &rules, pos, options.exact_empties));
        each(i + 1, total);
    }
    let square = |m: usize| Move::Play(rules.geometry.square(m));
    let mut reviewed = Vec::with_capacity(chosen.len());
    for (k, &(ply, pos, played)) in chosen.iter().enumerate() {
        let player = pos.to_move;
        let here = &values[k];
        let best_value = here.value;
        let engine_best = here.best.map_or(Move::Pass, square);
        // The position after the move, valued for its side to move: the opponent's, unless
        // they had to pass.
        let after = &positions[k + 1];
        let for_player = |v: MoveValue| if after.to_move == player { v } else { -v };
        let value = if here.solved {
            for_player(values[k + 1].value)
        } else if played == engine_best {
            best_value
        } else {
            let (depth, move_time) = (options.search.depth, options.search.move_time);
            engine.set_limits(depth.map(|d| d.saturating_sub(1).max(1)), move_time);
            let reply = value_of(&mut engine, &rules, after, 0);
            engine.set_limits(depth, move_time);
            for_player(reply.value)
        };
        // A move as good as the engine's is a best move too (symmetric or equal moves).
        let as_good = played == engine_best || value.hundredths() >= best_value.hundredths();
        let loss = (best_value.hundredths() - value.hundredths()).max(0);
        reviewed.push(Reviewed {
            ply,
            player,
            played,
            best: if as_good { played } else { engine_best },
            value,
            best_value,
            loss,
            exact: value.discs().is_some() && best_value.discs().is_some(),
            mark: Mark::of(loss),
        });
    }
    let end = game.position();
    let result = rules.is_over(end).then(|| rules.margin(end, Color::Black));
    Ok(Review {
        moves: reviewed,
        result,
        opening: crate::opening::names::of_game(&game),
    })
}

/// The value of `pos` for its side to move: solved with `exact_empties` empty cells or fewer,
/// searched otherwise; a finished game is its margin.
fn value_of<B: Bits>(
    engine: &mut Engine<B>,
    rules: &Rules<B>,
    pos: &Position<B>,
    exact_empties: u32,
) -> Valued {
    if rules.is_over(pos) {
        return Valued {
            value: MoveValue::Discs(rules.margin(pos, pos.to_move)),
            best: None,
            solved: true,
        };
    }
    if rules.empty(pos).count() <= exact_empties {
        let solved = engine.solve_exact(pos, false);
        return Valued {
            value: MoveValue::Discs(solved.score),
            best: solved.best,
            solved: true,
        };
    }
    let report = engine.search(pos);
    Valued {
        value: if report.exact {
            MoveValue::Discs(report.score / DISC)
        } else {
            MoveValue::Hundredths(report.score)
        },
        best: report.best,
        solved: false,
    }
}

/// `hundredths` as discs: whole when `exact`, else to two places.
fn discs_text(hundredths: i32, exact: bool) -> String {
    if exact {
        format!("{}", hundredths / DISC)
    } else {
        format!("{:.2}", hundredths as f64 / DISC as f64)
    }
}

/// The review as a table, a move a line, then each player's totals and the result.
pub fn write_text(review: &Review, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<6} {:<7} {:<5} {:>7} {:>7} {:>6}",
        "ply", "player", "move", "best", "value", "best", "loss"
    )?;
    for m in &review.moves {
        let played = format!("{} {}", m.played, m.mark.sign());
        writeln!(
            out,
            "{:>4}  {:<6} {:<7} {:<5} {:>7} {:>7} {:>6}  {}",
            m.ply,
            m.player.name(),
            played.trim_end(),
            m.best.to_string(),
            m.value.to_string(),
            m.best_value.to_string(),
            discs_text(m.loss, m.exact),
            if m.exact { "exact" } else { "searched" }
        )?;
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
/// `value`, `best_value`, `loss` (discs: whole when exact) and `exact`.
pub fn write_json(review: &Review, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let number = |hundredths: i32, exact: bool| -> serde_json::Value {
        if exact {
            (hundredths / DISC).into()
        } else {
            (hundredths as f64 / DISC as f64).into()
        }
    };
    for m in &review.moves {
        let is_exact = |v: MoveValue| v.discs().is_some();
        let line = serde_json::json!({
            "ply": m.ply,
            "player": m.player.name().to_lowercase(),
            "move": m.played.to_string(),
            "best": m.best.to_string(),
            "value": number(m.value.hundredths(), is_exact(m.value)),
            "best_value": number(m.best_value.hundredths(), is_exact(m.best_value)),
            "loss": number(m.loss, m.exact),
            "exact": m.exact,
        });
        writeln!(out, "{line}")?;
    }
    Ok(())
}
