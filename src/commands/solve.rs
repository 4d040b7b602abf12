//! `othello solve --file`: exact values of every position in an OBF file.

use crate::notation::Obf;
use crate::rules::{Bits, Position, Rules, Variant};
use crate::search::{Config, Engine, Scoring};
use anyhow::Context;
use std::io::{BufRead, Write};
use std::time::Duration;

/// Totals over a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileTotals {
    pub positions: usize,
    /// Positions whose file lists a score, and how many of those the solver matched.
    pub checked: usize,
    pub agreed: usize,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Solves every line of an OBF file, printing one line per position and the totals. Scores
/// count empty cells for the winner, as OBF files do.
pub fn solve_file(
    input: impl BufRead,
    hash_mb: usize,
    out: &mut dyn Write,
) -> anyhow::Result<FileTotals> {
    let rules = Rules::<u64>::new(8, 8, Variant::default())?;
    let mut engine = Engine::new(
        rules,
        Config {
            hash_mb,
            scoring: Scoring::EmptiesToWinner,
            ..Config::default()
        },
    );
    let mut totals = FileTotals::default();
    writeln!(
        out,
        "# line empties best score expected agree nodes seconds"
    )?;
    for (n, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let obf: Obf = line.parse().with_context(|| format!("line {}", n + 1))?;
        let pos = obf_position(&obf);
        engine.clear();
        let solved = engine.solve_exact(&pos, false);
        let g = &engine.rules().geometry;
        let best = solved
            .best
            .map_or("pass".to_string(), |m| g.square(m).to_string());
        let expected = obf.scores.first().map(|&(_, s)| s);
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
        totals.nodes += solved.nodes;
        totals.elapsed += solved.elapsed;
        writeln!(
            out,
            "{} {} {best} {:+} {} {agree} {} {:.3}",
            n + 1,
            engine.rules().empty(&pos).count(),
            solved.score,
            expected.map_or("-".to_string(), |e| format!("{e:+}")),
            solved.nodes,
            solved.elapsed.as_secs_f64()
        )?;
        out.flush()?;
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
