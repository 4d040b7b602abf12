//! `othello train gen`: games of the engine against itself, every position labelled.
//!
//! Game `n`: `random_moves` random moves, then the engine at `depth` with play varied by a seed
//! drawn from `n`, then from `exact_empties` empty cells perfect play by the solver. Positions
//! that near the end get their exact value; earlier ones the value of the game's first solved
//! position, from their own side. Positions of the random opening, or before a random move
//! (`random_rate`), are not kept: their game's result is not theirs.
//!
//! A game depends only on its number and the options: threads take games in any order, a
//! stopped run is resumed by running it again, and shard `I` of size `S` (games `I*S` to
//! `(I+1)*S-1`) is the same on any machine. More: docs/training.md.

use super::data::{self, Board, Sample};
use crate::random::splitmix;
use crate::rules::{Bits, Color, Position, Rules, Setup};
use crate::search::{Config, Engine, RootMoves};
use crate::wording::Counted;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// How to make a training file.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub setup: Setup,
    /// Games numbered `first` to `first + games - 1`.
    pub first: u32,
    pub games: u32,
    pub seed: u64,
    pub random_moves: u32,
    /// Percent of the later moves (before the solved end) played at random, for positions the
    /// engine would not choose; the positions before such a move are not kept, so every label
    /// comes from sensible play.
    pub random_rate: u32,
    pub exact_empties: u32,
    /// Games played at once, one a thread.
    pub threads: usize,
    /// The players' depth and evaluation (each game adds its own seed), and the solver's
    /// table; the solver orders its moves by the same evaluation.
    pub search: Config,
}

/// A player's table, in megabytes: its searches are shallow.
const PLAYER_HASH_MB: usize = 4;

/// What a run added.
#[derive(Clone, Debug, Default)]
pub struct GenReport {
    pub skipped: usize,
    pub games: usize,
    pub positions: u64,
    pub seconds: f64,
}

/// Plays the games missing from `path` and adds their positions to it.
pub fn generate(options: &GenOptions, path: &Path, progress: bool) -> Result<GenReport, String> {
    crate::with_bits!(options.setup.shape, |B| generate_in::<B>(
        options, path, progress, false
    ))
}

/// Makes `path` the shard of the games of `options`: played into a partial file beside it
/// (see [`data::open_shard`]), renamed onto `path` once they are all there. Run again, it
/// goes on from where a stopped run was, or finds the shard done and changes nothing.
pub fn generate_shard(
    options: &GenOptions,
    path: &Path,
    progress: bool,
) -> Result<GenReport, String> {
    crate::with_bits!(options.setup.shape, |B| generate_in::<B>(
        options, path, progress, true
    ))
}

fn generate_in<B: Bits>(
    options: &GenOptions,
    path: &Path,
    progress: bool,
    shard: bool,
) -> Result<GenReport, String> {
    let setup = &options.setup;
    let board = Board {
        shape: setup.shape,
        variant: setup.variant,
    };
    let rules: Rules<B> = Rules::new(setup.shape, setup.variant).map_err(|e| e.to_string())?;
    let range = options.first as u64..options.first as u64 + options.games as u64;
    if range.end > 1 << 32 {
        return Err(format!(
            "games {} to {} pass the last game number, {}",
            range.start,
            range.end - 1,
            u32::MAX
        ));
    }
    let (file, done, end, mut appending) = if shard {
        match data::open_shard(path, board, range.clone())? {
            data::Shard::Finished { games } => {
                return Ok(GenReport {
                    skipped: games,
                    ..GenReport::default()
                })
            }
            data::Shard::Writing { file, done, end } => (file, done, Some(end), None),
        }
    } else {
        let (file, done, appending) = data::open_for_append(path, board, range.clone())?;
        (file, done, None, Some(appending))
    };
    let todo: Vec<u32> = range
        .map(|g| g as u32)
        .filter(|g| done.binary_search(g).is_err())
        .collect();
    if let (Some(appending), false) = (&mut appending, todo.is_empty()) {
        appending.begin()?;
    }
    let bar = if progress {
        ProgressBar::new(todo.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games, {msg}, {elapsed} (eta {eta})")
    {
        bar.set_style(style);
    }
    let out = Mutex::new(Writer {
        file,
        in_order: end.is_some(),
        waiting: BTreeMap::new(),
        next: 0,
    });
    let next = AtomicUsize::new(0);
    let positions = AtomicU64::new(0);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let clock = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| {
                let mut solver = Engine::new(
                    rules.clone(),
                    options.search.clone().with_limits(None, None),
                );
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(&game) = todo.get(i) else { break };
                    if failed.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    // A game owes nothing to the games this thread played before it.
                    solver.clear();
                    let samples = play_game(&rules, board, options, game, &mut solver);
                    let mut bytes = Vec::with_capacity(samples.len() * board.record_len());
                    for s in &samples {
                        s.write(&mut bytes);
                    }
                    // One write per game, so a stop leaves whole games (or one torn record).
                    let written = out
                        .lock()
                        .map_err(|_| "a writer thread failed".to_string())
                        .and_then(|mut w| w.put(i, bytes).map_err(|e| e.to_string()));
                    if let Err(e) = written {
                        if let Ok(mut f) = failed.lock() {
                            *f = Some(format!("{}: {e}", path.display()));
                        }
                        break;
                    }
                    let total = positions.fetch_add(samples.len() as u64, Relaxed);
                    bar.set_message(Counted(total + samples.len() as u64, "position").to_string());
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e);
    }
    let positions = positions.into_inner();
    let file = out.into_inner().map_err(|_| "a writer thread failed")?.file;
    if let Some(end) = end {
        end.finish(file, positions > 0)?;
    } else if let Some(appending) = appending {
        appending.finish(&file)?;
    }
    Ok(GenReport {
        skipped: done.len(),
        games: todo.len(),
        positions,
        seconds: clock.elapsed().as_secs_f64(),
    })
}

/// Where the games' records go: at once, or for a shard in the order of the games (held until
/// those before them are written), so that a shard's file is the same bytes on any machine
/// and any number of threads.
struct Writer {
    file: std::fs::File,
    in_order: bool,
    /// Games played before the next one to write, by their place in the list to play.
    waiting: BTreeMap<usize, Vec<u8>>,
    next: usize,
}

impl Writer {
    /// Writes the records `bytes` of the `i`-th game to play, each game in one write.
    fn put(&mut self, i: usize, bytes: Vec<u8>) -> std::io::Result<()> {
        if !self.in_order {
            return self.file.write_all(&bytes);
        }
        self.waiting.insert(i, bytes);
        while let Some(bytes) = self.waiting.remove(&self.next) {
            self.file.write_all(&bytes)?;
            self.next += 1;
        }
        Ok(())
    }
}

/// Plays game number `game` and labels its positions.
fn play_game<B: Bits>(
    rules: &Rules<B>,
    board: Board,
    options: &GenOptions,
    game: u32,
    solver: &mut Engine<B>,
) -> Vec<Sample> {
    let mut state = options.seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut player = Engine::new(
        rules.clone(),
        options
            .search
            .clone()
            .with_hash_mb(PLAYER_HASH_MB)
            .with_seed(splitmix(&mut state)),
    );
    let mut pos = rules.start(options.setup.first, options.setup.top_left);
    // Positions before the first solve, waiting for its value.
    let mut pending: Vec<Position<B>> = Vec::new();
    let mut solved: Option<(Color, i32)> = None;
    let mut samples = Vec::new();
    let mut ply = 0;
    while !rules.is_over(&pos) {
        let moves = rules.moves(&pos);
        if moves.is_empty() {
            pos = rules.pass(&pos);
            continue;
        }
        let empties = rules.empty(&pos).count();
        let random = ply < options.random_moves
            || (empties > options.exact_empties
                && splitmix(&mut state) % 100 < options.random_rate as u64);
        let best = if random {
            // What came before no longer leads to this game's result.
            pending.clear();
            let k = splitmix(&mut state) as usize % moves.count() as usize;
            moves.iter().nth(k)
        } else if empties <= options.exact_empties {
            let s = solver.solve_root(&pos, RootMoves::Best);
            solved.get_or_insert((pos.to_move, s.score));
            samples.push(Sample::new(board, game, &pos, s.score, true));
            s.best
        } else {
            pending.push(pos);
            player.search(&pos).best
        };
        let Some(m) = best.filter(|&m| moves.contains(m)) else {
            break;
        };
        pos = rules.play_unchecked(&pos, m);
        ply += 1;
    }
    // The value that labels the earlier positions: the first solve's, or the game's end.
    let (color, value) = solved.unwrap_or_else(|| (pos.to_move, rules.margin(&pos, pos.to_move)));
    let mut early: Vec<Sample> = pending
        .iter()
        .map(|p| {
            let label = if p.to_move == color { value } else { -value };
            Sample::new(board, game, p, label, false)
        })
        .collect();
    early.extend(samples);
    early
}
