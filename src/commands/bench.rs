//! `othello bench`: fixed positions searched to fixed depths, so that node counts repeat exactly
//! and speed can be compared between versions and machines.

use crate::notation::MoveList;
use crate::rules::{Bits, Game, Move, Passes, RuleSet, Setup, Shape, Variant};
use crate::search::{Config, Engine, DISC};
use std::io::Write;
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

/// The opening of the 8x8 line that Takizawa's solution shows to be a draw with best play (from
/// `shared/data/README.md`); cut short, it gives midgame and endgame positions of known quality.
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
    pub name: &'static str,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Runs every case and prints a line each and the totals.
pub fn bench(
    hash_mb: usize,
    threads: usize,
    out: &mut dyn Write,
) -> anyhow::Result<Vec<BenchLine>> {
    writeln!(
        out,
        "# case depth best score nodes ms knodes/s   (score in discs; depth 'exact' = solved)"
    )?;
    let mut lines = Vec::new();
    for case in cases() {
        let shape = Shape::new(case.rows, case.cols)?;
        let (nodes, elapsed, best, score) =
            crate::with_bits!(shape, |B| run::<B>(&case, shape, hash_mb, threads))?;
        let ms = elapsed.as_secs_f64() * 1000.0;
        writeln!(
            out,
            "{} {} {best} {score:+.2} {nodes} {ms:.1} {:.0}",
            case.name,
            case.depth.map_or("exact".into(), |d| d.to_string()),
            nodes as f64 / ms.max(1e-6)
        )?;
        out.flush()?;
        lines.push(BenchLine {
            name: case.name,
            nodes,
            elapsed,
        });
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let elapsed: Duration = lines.iter().map(|l| l.elapsed).sum();
    writeln!(
        out,
        "# total {nodes} nodes in {:.3} s: {:.0} knodes/s",
        elapsed.as_secs_f64(),
        nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1000.0
    )?;
    Ok(lines)
}

/// Searches one case: nodes, time, the best move and the score in discs.
fn run<B: Bits>(
    case: &Case,
    shape: Shape,
    hash_mb: usize,
    threads: usize,
) -> anyhow::Result<(u64, Duration, String, f64)> {
    let setup = Setup::standard(shape, case.variant);
    let mut game = Game::<B>::new(&setup, Passes::Automatic)?;
    for m in case.moves.parse::<MoveList>()?.iter() {
        if let Move::Play(_) = *m {
            game.try_play(*m)?;
        }
    }
    let config = Config {
        depth: case.depth,
        move_time: None,
        hash_mb,
        threads,
        ..Config::default()
    };
    let mut engine = Engine::new(game.rules().clone(), config);
    let pos = *game.position();
    let square = |m: Option<usize>| {
        m.map_or("pass".into(), |m| {
            game.rules().geometry.square(m).to_string()
        })
    };
    Ok(match case.depth {
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
