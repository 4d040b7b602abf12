//! The markdown document of `othello perfect-play`: the command line, what each column means,
//! one table row per entry, the totals and the lines of perfect play.

use super::entry::{entry_name, EntryWork, Found, PerfectPlayOptions, TableEntry};
use super::journals::proved_leads;
use crate::solve::journal::Proved;
use crate::solve::position::{line_text, PositionSolved};
use crate::wording::Signed;
use std::io::Write;

/// The final count of a line of perfect play: the winner's letter and discs first (`W 11-3`),
/// and the empty cells left, if any.
fn final_count(s: &PositionSolved, misere: bool) -> String {
    let (b, w) = (s.black, s.white);
    let black_wins = (b > w) != misere;
    let mut text = match b.cmp(&w) {
        std::cmp::Ordering::Equal => format!("draw {b}-{w}"),
        _ if black_wins => format!("B {b}-{w}"),
        _ => format!("W {w}-{b}"),
    };
    if s.empty > 0 {
        text += &format!(" ({} empty)", s.empty);
    }
    text
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(c);
    }
    text
}

/// The processors and their model, as far as the system says.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        });
    match model {
        Some(model) => format!("{cores} cores ({model})"),
        None => format!("{cores} cores"),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

pub(super) fn write_document(
    out: &mut dyn Write,
    options: &PerfectPlayOptions,
    table: &[TableEntry],
) -> anyhow::Result<()> {
    writeln!(out, "# Perfect play on small boards")?;
    writeln!(out)?;
    let (made, origin) = if options.from_cache {
        let origin = "from the cache of earlier runs: each entry's nodes and seconds are those \
                      of the run that made it, whose machine, threads and time limit may differ \
                      from another's";
        ("Listed", origin.to_string())
    } else {
        ("Made", format!("on {}", machine()))
    };
    writeln!(
        out,
        "{made} by `{}` (othello {}) {origin}.",
        options.command_line,
        env!("CARGO_PKG_VERSION"),
    )?;
    writeln!(out)?;
    write!(out, "{}", EXPLANATION)?;
    writeln!(out)?;
    writeln!(out, "| board | rules | misère | place-anywhere | Black − White | perfect play | best first moves | nodes | seconds |")?;
    writeln!(
        out,
        "| --- | --- | --- | --- | ---: | --- | --- | ---: | ---: |"
    )?;
    let (mut nodes, mut seconds) = (0u64, 0f64);
    let (mut solved, mut value_only, mut unsolved, mut untried, mut cached) = (0, 0, 0, 0, 0);
    let not_tried = |why: String| [why, "-".into(), "-".into(), "-".into(), "-".into()];
    for entry in table {
        let s = &entry.setup;
        let v = s.variant;
        let work = entry.found.work();
        if let Some(w) = work {
            nodes = nodes.saturating_add(w.nodes);
            seconds += w.elapsed.as_secs_f64();
        }
        let work_cells = |w: Option<EntryWork>| {
            let w = w.expect("a tried entry has its work");
            [grouped(w.nodes), w.seconds_text()]
        };
        let cells = match &entry.found {
            Found::Solved(p) => {
                solved += 1;
                let best: Vec<String> = p.moves.iter().map(|(sq, _)| sq.to_string()).collect();
                let [n, secs] = work_cells(work);
                [
                    Signed(p.black as i32 - p.white as i32).to_string(),
                    final_count(p, v.misere),
                    best.join(" "),
                    n,
                    secs,
                ]
            }
            Found::OutOfTime { limit, .. } => {
                let [n, secs] = work_cells(work);
                let within = crate::durations::text(*limit);
                let proved = match &options.journals {
                    Some(folder) => proved_leads(folder, s)?,
                    None => None,
                };
                let (bounds, first_moves) = proved.as_ref().map_or((None, None), Proved::text);
                let value = match (proved.and_then(|p| p.value.exact()), bounds) {
                    // Every first move searched against the best: the value stands.
                    (Some(lead), _) => {
                        value_only += 1;
                        format!("{} (proved; not solved in {within})", Signed(lead))
                    }
                    (None, Some(bounds)) => {
                        unsolved += 1;
                        format!("not solved in {within} ({bounds})")
                    }
                    (None, None) => {
                        unsolved += 1;
                        format!("not solved in {within}")
                    }
                };
                let first_moves = first_moves.unwrap_or_else(|| "-".to_string());
                [value, "-".to_string(), first_moves, n, secs]
            }
            Found::NotTried { inside, limit } => {
                untried += 1;
                not_tried(format!(
                    "not tried ({inside} not solved in {})",
                    crate::durations::text(*limit)
                ))
            }
            Found::NotYetTried => {
                untried += 1;
                not_tried("not tried yet".to_string())
            }
        };
        cached += usize::from(entry.cached);
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            s.shape,
            v.rule_set,
            yes_no(v.misere),
            yes_no(v.place_anywhere),
            cells.join(" | ")
        )?;
    }
    let value_only = match value_only {
        0 => String::new(),
        n => format!(", {n} with the value proved but not solved in their time"),
    };
    writeln!(out)?;
    writeln!(
        out,
        "Totals: {solved} solved{value_only}, {unsolved} not solved in their time, {untried} not tried; \
         {} nodes, {seconds:.3} s ({cached} entries from the cache, with the nodes and time of \
         the run that made them).",
        grouped(nodes)
    )?;
    let lines: Vec<(&TableEntry, &PositionSolved)> = table
        .iter()
        .filter_map(|e| match &e.found {
            Found::Solved(p) => Some((e, p)),
            _ => None,
        })
        .collect();
    if !lines.is_empty() {
        writeln!(out)?;
        writeln!(out, "## Lines of perfect play")?;
        writeln!(out)?;
        writeln!(
            out,
            "One line of perfect play for each entry solved (`othello show` replays it; `pa` is a pass):"
        )?;
        writeln!(out)?;
        for (entry, p) in lines {
            writeln!(
                out,
                "- {}: `{}`",
                entry_name(&entry.setup),
                line_text(&p.line)
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

const EXPLANATION: &str = "\
Every board starts from the standard four discs: the 2x2 block at 0-based row rows/2 - 1 and
column cols/2 - 1 (one cell nearer the top or left on an odd side), White on its top-left and
bottom-right cells, Black to move first. Discs are counted plainly: empty cells left at the end
count for nobody. Misère: fewer discs win. Place-anywhere: every empty cell is a move, flipping
what the rules flip (possibly nothing); there are no passes and the game ends on a full board.

Boards are listed with rows <= columns. RxC and CxR are the same game turned over: reflecting an
RxC board in its main diagonal maps its start exactly onto the CxR start (the block at row
rows/2 - 1, column cols/2 - 1 lands at row cols/2 - 1, column rows/2 - 1, and White keeps the
block's top-left and bottom-right cells), and the rules read the same in every direction, so the
values are equal.

Black − White is Black's discs minus White's at the end of perfect play by both sides (under
misère Black wants it small). Perfect play is the final count of one line of perfect play, the
winner (B or W) and the winner's discs first. Best first moves are all of Black's first moves
that keep that value, in standard notation (column letter, row number counted from the top). An
entry not solved within its time limit says so; its value is not guessed, but where its runs kept
a journal (listed with `--journals`) the bounds on Black − White that they proved follow in
brackets (at least, at most, or a range), and in place of the best first moves, what they proved
of each first move after which Black − White is bounded. Once every first move has been searched
against the best, the journal proves the value itself, and the entry gives it (`proved; not
solved`): what is missing is the line, and a first move `at most` the value may yet tie with the
best. An entry is not tried when a board that fits inside it was not solved within the same time
under the same rules.

Nodes count the positions searched and, where a SIMPLE place-anywhere solve valued every set of
its 22 to 32 empty cells first, one node a set: 2^31 = 2,147,483,648 on 5x7 (31 empty cells) and
2^32 = 4,294,967,296 on 3x12, 4x9 and 6x6 (32), after which the values of the sets answer the
search in a few dozen nodes more.
";
