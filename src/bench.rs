//! `othello bench`: fixed positions searched to fixed depths, so that node counts repeat exactly
//! and speed can be compared between versions and machines.

use crate::lines::list_entries;
use crate::notation::{MoveList, Obf, PositionString};
use crate::rules::{Bits, Game, Move, Passes, RuleSet, Setup, Shape, Variant};
use crate::search::{Config, Engine, DISC};
use anyhow::{bail, Context};
use std::io::{BufRead, Write};
use std::time::Duration;

/// One line of the bench: a position and how deep to search it.
struct Case {
    name: &'static str,
    rows: usize,
    cols: usize,
    variant: Variant,
    /// Moves from the standard start, in standard notation.
    moves: &'static str,
    /// Search depth, or `None` to solve exactly.
    depth: Option<u32>,
}

/// The opening of the 8x8 line that Takizawa's solution shows to be a draw with best play (as
/// in `tests/data/README.md`); cut short, it gives midgame and endgame positions of known quality.
const DRAW_LINE: &str = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2\
                         g3h4f1e1f2g1b1f8g8b3h3b2h5b7a3a4a1a2c1h2h1g2b8a8g7h8h7h6";

fn line(moves: usize) -> &'static str {
    &DRAW_LINE[..2 * moves]
}

fn cases() -> Vec<Case> {
    let full = Variant::default();
    let simple = Variant {
        rule_set: RuleSet::Simple,
        ..full
    };
    let anywhere = Variant {
        place_anywhere: true,
        ..full
    };
    let misere = Variant {
        misere: true,
        ..full
    };
    let case = |name, rows, cols, variant, moves, depth| Case {
        name,
        rows,
        cols,
        variant,
        moves,
        depth,
    };
    vec![
        case("8x8-start", 8, 8, full, "", Some(11)),
        case("8x8-midgame-20", 8, 8, full, line(20), Some(10)),
        case("8x8-midgame-30", 8, 8, full, line(30), Some(10)),
        case("8x8-endgame-14", 8, 8, full, line(46), None),
        case("8x8-endgame-17", 8, 8, full, line(43), None),
        case("8x8-endgame-18", 8, 8, full, line(42), None),
        case("8x8-misere-20", 8, 8, misere, line(20), Some(9)),
        case("8x8-simple", 8, 8, simple, "", Some(9)),
        case("8x8-place-anywhere", 8, 8, anywhere, "", Some(5)),
        case("6x6-start", 6, 6, full, "", Some(14)),
        case("10x10-start", 10, 10, full, "", Some(9)),
        case("26x26-start", 26, 26, full, "", Some(5)),
    ]
}

/// One measured case.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    pub name: String,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// What one search found: nodes, time, the best move and the score in discs.
type Found = (u64, Duration, String, f64);

const HEADER: &str =
    "# case depth best score nodes ms knodes/s   (score in discs; depth 'exact' = solved)";

/// Runs every case and prints a line each and the totals.
pub fn bench(config: &Config, out: &mut dyn Write) -> anyhow::Result<Vec<BenchLine>> {
    writeln!(out, "{HEADER}")?;
    let mut lines = Vec::new();
    for case in cases() {
        let shape = Shape::new(case.rows, case.cols)?;
        let setup = Setup::standard(shape, case.variant);
        let moves = case.moves.parse::<MoveList>()?;
        let found = crate::with_bits!(shape, |B| {
            let game = game_after::<B>(&setup, &moves.0)?;
            search(&game, case.depth, config)
        });
        lines.push(report(out, case.name.to_string(), case.depth, found?)?);
    }
    totals(out, &lines)?;
    Ok(lines)
}

/// Searches every position of `input` to `depth` (a fresh table for each, so that node
/// counts repeat) and prints a line each, named by its line number, and the totals. A line
/// is a position string such as `(b ---- -wb- -bw- ----)`, an OBF line (8x8), or moves from
/// the 8x8 start (`f5d6c3`); the rules are the full ones, more discs winning. Blank lines and
/// lines starting with `#` are skipped.
pub fn bench_positions(
    input: impl BufRead,
    depth: u32,
    config: &Config,
    out: &mut dyn Write,
) -> anyhow::Result<Vec<BenchLine>> {
    writeln!(out, "{HEADER}")?;
    let mut lines = Vec::new();
    for line in list_entries(input) {
        let (n, text) = line?;
        let at = || format!("line {n}");
        let found = read_listed(&text)
            .and_then(|start| {
                crate::with_bits!(start.shape(), |B| {
                    let game = start.game::<B>()?;
                    if game.is_over() {
                        bail!("the game is over there");
                    }
                    search(&game, Some(depth), config)
                })
            })
            .with_context(at)?;
        lines.push(report(out, format!("line-{n}"), Some(depth), found)?);
    }
    if lines.is_empty() {
        bail!("the positions file has no positions");
    }
    totals(out, &lines)?;
    Ok(lines)
}

/// A line of a positions file: a position, or moves from the 8x8 start.
enum Listed {
    Position(PositionString),
    Moves(Vec<Move>),
}

impl Listed {
    fn shape(&self) -> Shape {
        match self {
            Listed::Position(p) => p.shape(),
            Listed::Moves(_) => Shape::STANDARD,
        }
    }

    /// The game at this position, under the full rules with more discs winning.
    fn game<B: Bits>(&self) -> anyhow::Result<Game<B>> {
        let variant = Variant::default();
        Ok(match self {
            Listed::Position(p) => p.game(variant, Passes::Explicit)?,
            Listed::Moves(moves) => game_after(&Setup::standard(Shape::STANDARD, variant), moves)?,
        })
    }
}

/// The game after `moves` (passes listed where they fall) from `setup`'s start.
fn game_after<B: Bits>(setup: &Setup, moves: &[Move]) -> anyhow::Result<Game<B>> {
    let mut game = Game::new(setup, Passes::Explicit)?;
    for (i, &m) in moves.iter().enumerate() {
        if let Err(e) = game.play_listed(m) {
            bail!("move {} is not legal: {e}", i + 1);
        }
    }
    Ok(game)
}

/// Reads a line of a positions file (see [`bench_positions`]).
fn read_listed(text: &str) -> anyhow::Result<Listed> {
    if text.starts_with('(') {
        return Ok(Listed::Position(text.parse()?));
    }
    if let Ok(obf) = text.parse::<Obf>() {
        return Ok(Listed::Position(obf.position));
    }
    Ok(Listed::Moves(text.parse::<MoveList>()?.0))
}

/// Prints one searched case and gives its line.
fn report(
    out: &mut dyn Write,
    name: String,
    depth: Option<u32>,
    (nodes, elapsed, best, score): Found,
) -> anyhow::Result<BenchLine> {
    let ms = elapsed.as_secs_f64() * 1000.0;
    writeln!(
        out,
        "{name} {} {best} {score:+.2} {nodes} {ms:.1} {:.0}",
        depth.map_or("exact".into(), |d| d.to_string()),
        nodes as f64 / ms.max(1e-6)
    )?;
    out.flush()?;
    Ok(BenchLine {
        name,
        nodes,
        elapsed,
    })
}

/// Prints the totals of `lines`.
fn totals(out: &mut dyn Write, lines: &[BenchLine]) -> anyhow::Result<()> {
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let elapsed: Duration = lines.iter().map(|l| l.elapsed).sum();
    writeln!(
        out,
        "# total {nodes} nodes in {:.3} s: {:.0} knodes/s",
        elapsed.as_secs_f64(),
        nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1000.0
    )?;
    Ok(())
}

/// Searches the game's position to `depth` (or solves it exactly with `None`) with
/// `config`'s table, threads and evaluation.
fn search<B: Bits>(game: &Game<B>, depth: Option<u32>, config: &Config) -> anyhow::Result<Found> {
    let config = config.clone().with_limits(depth, None);
    let mut engine = Engine::new(game.rules().clone(), config);
    let pos = *game.position();
    let square = |m: Option<usize>| {
        m.map_or("pass".into(), |m| {
            game.rules().geometry.square(m).to_string()
        })
    };
    Ok(match depth {
        Some(_) => {
            let r = engine.search(&pos);
            let score = r.score as f64 / DISC as f64;
            (r.nodes, r.elapsed, square(r.best), score)
        }
        None => {
            let s = engine.solve_exact(&pos, false);
            (s.nodes, s.elapsed, square(s.best), s.score as f64)
        }
    })
}
