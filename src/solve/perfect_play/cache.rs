//! The cache file of `othello perfect-play`: one finished entry a line (`#` lines are
//! comments), so that a long run can be stopped and resumed; a later line replaces an earlier
//! one for the same entry. The board, the variant in four words, `solved` or `unsolved`, then
//! `key=value` fields (each explained in docs/solving.md, "The table of small boards"):
//!
//! ```text
//! 4x4 full normal standard solved black=3 white=11 empty=2 best=a2,b1,c4,d3 line=b1a1a2c1d4a3d1b4a4c4 nodes=822 seconds=0.000
//! 6x6 full normal anywhere unsolved limit=1h nodes=6123456789 seconds=3600.004
//! ```

use super::entry::Found;
use crate::lines::list_entry;
use crate::notation::{MoveList, VariantWords, MAX_RUN_SECONDS};
use crate::rules::{Color, Game, Move, Passes, Setup, Shape, Square};
use crate::solve::journal::Earlier;
use crate::solve::position::PositionSolved;
use anyhow::{anyhow, bail, Context};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The cache file: what earlier runs found, and where this run's entries are added.
pub(super) struct Cache {
    path: PathBuf,
    /// Open for adding entries; `None` when the run only reads (`from_cache`).
    file: Option<std::fs::File>,
    known: Vec<(Setup, Found)>,
}

/// The largest cache file read: a few hundred bytes an entry, so far beyond any real one. A
/// larger file is refused whole rather than read in part, since its last line would then look
/// cut short and be removed.
const MAX_CACHE: u64 = 16 << 20;

impl Cache {
    /// Reads `path` if it exists, and opens it for adding entries unless `read_only` (then it
    /// must exist). A last line cut short (the run was stopped as it wrote) is removed, with a
    /// word on `log`; read only, it is passed over.
    pub(super) fn open(
        path: PathBuf,
        read_only: bool,
        log: &mut dyn Write,
    ) -> anyhow::Result<Cache> {
        let text = match crate::files::read_capped_text(&path, MAX_CACHE, "a cache") {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !read_only => String::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        // Whole lines end in a newline; anything after the last one was cut short. It is
        // removed only from a file known to be a cache, one whose first line is the cache's
        // heading or an entry: any other file is not the program's to shorten.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let first = text[..whole].lines().next().unwrap_or("");
        let known = first.starts_with(CACHE_MARK) || parse_cache_line(first).is_ok();
        if whole < text.len() && !known {
            bail!(
                "{} is not a perfect-play cache (its first line is neither the cache's heading \
                 nor an entry); it is left as it is",
                path.display()
            );
        }
        if whole < text.len() {
            writeln!(
                log,
                "perfect-play: {}: the last line is cut short and is {}: {}",
                path.display(),
                if read_only { "passed over" } else { "removed" },
                &text[whole..]
            )?;
        }
        let mut known = Vec::new();
        for (n, line) in text[..whole].lines().enumerate() {
            let Some(line) = list_entry(line) else {
                continue;
            };
            let entry = parse_cache_line(line)
                .with_context(|| format!("{}: line {}", path.display(), n + 1))?;
            known.push(entry);
        }
        if read_only {
            return Ok(Cache {
                path,
                file: None,
                known,
            });
        }
        // Opened now, so that a file that cannot be written stops the run before any work.
        let cannot_write = || format!("cannot write {}", path.display());
        // A torn last entry is cut through a copy renamed over the file, never in place.
        if whole < text.len() {
            crate::files::cut_to(&path, whole as u64).with_context(cannot_write)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(cannot_write)?;
        if whole == 0 {
            file.write_all(CACHE_HEADER.as_bytes())
                .with_context(cannot_write)?;
        }
        Ok(Cache {
            path,
            file: Some(file),
            known,
        })
    }

    /// What the file last says of `setup`.
    pub(super) fn get(&self, setup: &Setup) -> Option<&Found> {
        self.known
            .iter()
            .rev()
            .find(|(s, _)| s == setup)
            .map(|(_, f)| f)
    }

    /// Adds an entry to the file at once, as one write, so a stopped run keeps what it did.
    pub(super) fn append(&mut self, setup: &Setup, found: &Found) -> anyhow::Result<()> {
        let Some(line) = cache_line(setup, found) else {
            return Ok(());
        };
        let Some(file) = &mut self.file else {
            bail!("{}: opened only to read", self.path.display())
        };
        file.write_all(format!("{line}\n").as_bytes())
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.known.push((*setup, found.clone()));
        Ok(())
    }
}

/// How a cache's heading starts, whichever source file it names (older caches name
/// `src/commands/perfect_play.rs` or `src/commands/perfect_play/cache.rs`).
const CACHE_MARK: &str = "# othello perfect-play cache: one finished entry a line";

const CACHE_HEADER: &str = "\
# othello perfect-play cache: one finished entry a line (see src/solve/perfect_play/cache.rs)
# BOARD RULES normal|misere standard|anywhere solved black= white= empty= best= line= nodes= seconds=
# BOARD RULES normal|misere standard|anywhere unsolved limit= nodes= seconds=
";

/// The cache line of an entry; none for one not tried.
fn cache_line(setup: &Setup, found: &Found) -> Option<String> {
    let name = format!("{} {}", setup.shape, VariantWords(setup.variant));
    let or_dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    Some(match found {
        Found::Solved(p) => {
            let best: Vec<String> = p.moves.iter().map(|(sq, _)| sq.to_string()).collect();
            format!(
                "{name} solved black={} white={} empty={} best={} line={} nodes={} seconds={:.3}",
                p.black,
                p.white,
                p.empty,
                or_dash(best.join(",")),
                or_dash(MoveList(p.line.clone()).to_string()),
                p.nodes,
                p.elapsed.as_secs_f64()
            ) + &earlier_fields(p.earlier)
        }
        Found::OutOfTime {
            limit,
            nodes,
            elapsed,
            earlier,
        } => {
            format!(
                "{name} unsolved limit={} nodes={nodes} seconds={:.3}",
                crate::durations::text(*limit),
                elapsed.as_secs_f64()
            ) + &earlier_fields(*earlier)
        }
        Found::NotTried { .. } | Found::NotYetTried => return None,
    })
}

/// The cache fields of earlier runs carried on through a journal; none when there were none.
fn earlier_fields(earlier: Earlier) -> String {
    if earlier.runs == 0 {
        return String::new();
    }
    format!(
        " earlier-runs={} earlier-nodes={} earlier-seconds={:.3}",
        earlier.runs,
        earlier.nodes,
        earlier.elapsed.as_secs_f64()
    )
}

/// Reads a cache line back. A solved entry's line is replayed from the start and must end the
/// game at the count the line gives.
fn parse_cache_line(line: &str) -> anyhow::Result<(Setup, Found)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [board, rules, goal, placement, what, fields @ ..] = words.as_slice() else {
        bail!("too few words: {line:?}");
    };
    let board: Shape = board.parse().map_err(|e: String| anyhow!(e))?;
    let variant = [*rules, *goal, *placement]
        .join(" ")
        .parse::<VariantWords>()
        .map_err(|e| anyhow!(e))?
        .0;
    let misere = variant.misere;
    let setup = Setup::standard(board, variant);
    let field = |key: &str| -> anyhow::Result<&str> {
        fields
            .iter()
            .find_map(|f| f.strip_prefix(key).and_then(|f| f.strip_prefix('=')))
            .ok_or_else(|| anyhow!("no {key}= field"))
    };
    let number = |key: &str| -> anyhow::Result<u64> {
        let text = field(key)?;
        text.parse()
            .map_err(|_| anyhow!("{key}={text} is not a count"))
    };
    let seconds = |key: &str| -> anyhow::Result<Duration> {
        let text = field(key)?;
        text.parse::<f64>()
            .ok()
            .filter(|s| (0.0..=MAX_RUN_SECONDS).contains(s))
            .map(Duration::from_secs_f64)
            .ok_or_else(|| {
                anyhow!("{key}={text} is not a number of seconds from 0 to {MAX_RUN_SECONDS:.0}")
            })
    };
    let earlier = if fields.iter().any(|f| f.starts_with("earlier-runs=")) {
        Earlier {
            runs: u32::try_from(number("earlier-runs")?).context("earlier-runs")?,
            nodes: number("earlier-nodes")?,
            elapsed: seconds("earlier-seconds")?,
        }
    } else {
        Earlier::default()
    };
    let found = match *what {
        "solved" => {
            let (black, white, empty) = (number("black")?, number("white")?, number("empty")?);
            let list = |key: &str| field(key).map(|t| if t == "-" { "" } else { t });
            let best = list("best")?
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<Square>().map_err(|e| anyhow!("best={s}: {e}")))
                .collect::<anyhow::Result<Vec<Square>>>()?;
            let line: MoveList = list("line")?.parse().map_err(|e| anyhow!("line: {e}"))?;
            let (black, white, empty) = (black as u32, white as u32, empty as u32);
            replay(&setup, &line, (black, white), &best)?;
            if black + white + empty != board.cells() as u32 {
                bail!(
                    "{black} + {white} + {empty} cells is not the board's {}",
                    board.cells()
                );
            }
            let lead = black as i32 - white as i32;
            let score = if misere { -lead } else { lead };
            Found::Solved(PositionSolved {
                to_move: Color::Black,
                score,
                moves: best.into_iter().map(|sq| (sq, score)).collect(),
                line: line.0,
                black,
                white,
                empty,
                nodes: number("nodes")?,
                elapsed: seconds("seconds")?,
                earlier,
            })
        }
        "unsolved" => {
            let text = field("limit")?;
            Found::OutOfTime {
                limit: crate::durations::parse(text).map_err(|e| anyhow!("limit: {e}"))?,
                nodes: number("nodes")?,
                elapsed: seconds("seconds")?,
                earlier,
            }
        }
        other => bail!("{other:?} is not solved or unsolved"),
    };
    Ok((setup, found))
}

/// Plays `line` from the start of `setup` and checks that it ends the game at `count`, and
/// that `best` are legal first moves, each once, among them the line's first move: a cache
/// that says otherwise is damaged, and would put an impossible move in the table.
fn replay(
    setup: &Setup,
    line: &MoveList,
    count: (u32, u32),
    best: &[Square],
) -> anyhow::Result<()> {
    crate::with_bits!(setup.shape, |B| {
        let start = Game::<B>::new(setup, Passes::Explicit)?;
        let mut game = start.clone();
        for (n, &step) in line.iter().enumerate() {
            game.play_listed(step)
                .map_err(|e| anyhow!("line: move {}: {e}", n + 1))?;
        }
        if !game.is_over() {
            bail!("the line does not end the game");
        }
        let score = game.score();
        if (score.black, score.white) != count {
            bail!(
                "the line ends {}-{}, not {}-{} as black= and white= say",
                score.black,
                score.white,
                count.0,
                count.1
            );
        }
        for (n, &sq) in best.iter().enumerate() {
            start
                .check(Move::Play(sq))
                .map_err(|e| anyhow!("best={sq}: not a legal first move: {e}"))?;
            if best[..n].contains(&sq) {
                bail!("best={sq}: listed twice");
            }
        }
        match line.0.first() {
            Some(&Move::Play(first)) if !best.contains(&first) => {
                bail!("the line's first move {first} is not among best=")
            }
            None | Some(Move::Pass) if !best.is_empty() => {
                bail!("best= names moves, but the line does not start with one")
            }
            _ => Ok(()),
        }
    })
}
