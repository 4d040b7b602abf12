//! The fits of the selective search (`othello train probcut`): positions from games the engine
//! plays against itself after a few random moves, each searched at every depth that a fit
//! pairs, and a least-squares line per depth and phase between the shallow and the deep values
//! ([`ProbCut::fit`]); and for the end fits, a position of each game near its end, searched
//! shallow and solved.

use crate::random::splitmix;
use crate::rules::{Bits, Position, Rules, Setup};
use crate::search::probcut::{self, ProbCut, Sample};
use crate::search::{Config, Engine, DISC};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What `othello train probcut` samples and fits.
#[derive(Clone, Debug)]
pub struct ProbCutOptions {
    pub setup: Setup,
    /// Positions searched: one from each game.
    pub positions: u32,
    /// The deepest search fitted; deeper ones use its fit.
    pub max_depth: u32,
    /// Ranges of empty cells fitted apart.
    pub phases: u32,
    /// The most empty cells of the end fits' solves (from [`probcut::END_FROM`]); below
    /// that, none are made.
    pub end_max: u32,
    pub seed: u64,
    pub threads: usize,
    /// The searches' evaluation and table; its limits and selectivity are set here.
    pub search: Config,
}

/// Random moves that open each game before the engine plays, at least.
const RANDOM_MOVES: u64 = 4;

/// The depth the games are played at: quick, and enough to reach positions a game has.
const PLAY_DEPTH: u32 = 2;

/// Samples positions, searches them and fits; returns the fits and the number of samples.
pub fn fit(options: &ProbCutOptions) -> Result<(ProbCut, usize), String> {
    crate::with_bits!(options.setup.shape, |B| fit_in::<B>(options))
}

fn fit_in<B: Bits>(options: &ProbCutOptions) -> Result<(ProbCut, usize), String> {
    let setup = &options.setup;
    let rules: Rules<B> = Rules::new(setup.shape, setup.variant).map_err(|e| e.to_string())?;
    let next = AtomicUsize::new(0);
    let samples = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| loop {
                let game = next.fetch_add(1, Ordering::Relaxed);
                if game >= options.positions as usize {
                    break;
                }
                let found = sample_game(&rules, options, game as u64);
                samples
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend(found);
            });
        }
    });
    let mut samples = samples.into_inner().unwrap_or_else(|e| e.into_inner());
    // The threads finish in any order: the fit must not depend on it.
    samples.sort_by_key(|s| (s.depth, s.empties, s.shallow, s.deep));
    let g = setup.shape;
    let fitted = ProbCut::fit(g.rows(), g.cols(), setup.variant, options.phases, &samples);
    Ok((fitted, samples.len()))
}

/// The samples of game `game`: a position at a random ply, searched at every depth up to the
/// deepest fitted that stays short of the end; and an end fit's sample of a game of its own.
fn sample_game<B: Bits>(rules: &Rules<B>, options: &ProbCutOptions, game: u64) -> Vec<Sample> {
    let mut samples = midgame_samples(rules, options, game);
    samples.extend(end_sample(rules, options, game));
    samples
}

fn midgame_samples<B: Bits>(rules: &Rules<B>, options: &ProbCutOptions, game: u64) -> Vec<Sample> {
    let mut state = options.seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let cells = rules.geometry.cell_count() as u64;
    let random = opening_moves(&mut state, cells);
    // Past the opening, and short of the last moves, where no search is cut.
    let last = cells.saturating_sub(8).max(random + 1);
    let stop = random + splitmix(&mut state) % (last - random);
    let Some(pos) = position_of_game(rules, options, &mut state, random, |ply, _| ply >= stop)
    else {
        return Vec::new();
    };
    let empties = rules.empty(&pos).count();
    // A search as deep as the empty cells is a solve, which is never cut.
    let deepest = options.max_depth.min(empties.saturating_sub(1));
    if deepest < probcut::MIN_DEPTH {
        return Vec::new();
    }
    let mut values = vec![0; deepest as usize + 1];
    let mut engine = Engine::new(rules.clone(), options.search.clone().with_probcut(None));
    for depth in 1..=deepest {
        engine.set_limits(Some(depth), None);
        values[depth as usize] = engine.search(&pos).score;
    }
    (probcut::MIN_DEPTH..=deepest)
        .map(|depth| Sample {
            depth,
            empties,
            shallow: values[probcut::shallow_depth(depth) as usize],
            deep: values[depth as usize],
        })
        .collect()
}

/// The end fits' sample of game `game`: a position with a number of empty cells drawn evenly
/// from [`probcut::END_FROM`] to `end_max`, searched shallow and solved; none when the game
/// ends first.
fn end_sample<B: Bits>(rules: &Rules<B>, options: &ProbCutOptions, game: u64) -> Option<Sample> {
    let first = probcut::END_FROM;
    if options.end_max < first {
        return None;
    }
    // A stream apart from the midgame samples', so that those stay as they were.
    let mut state =
        (options.seed ^ 0xE2D5_0F17_A8C3_6B49) ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let cells = rules.geometry.cell_count() as u64;
    let random = opening_moves(&mut state, cells);
    let empties = first + (splitmix(&mut state) % u64::from(options.end_max - first + 1)) as u32;
    let pos = position_of_game(rules, options, &mut state, random, |_, pos| {
        rules.empty(pos).count() <= empties
    })?;
    let empties = rules.empty(&pos).count();
    if empties < first {
        return None;
    }
    let mut engine = Engine::new(rules.clone(), options.search.clone().with_probcut(None));
    // The shallow search first, on an empty table: the solve's exact values would answer it.
    engine.set_limits(Some(probcut::shallow_depth(empties)), None);
    let shallow = engine.search(&pos).score;
    let deep = engine.solve_exact(&pos, false).score * DISC;
    Some(Sample {
        depth: empties,
        empties,
        shallow,
        deep,
    })
}

/// How many random moves open a game on a board of `cells` cells: at least [`RANDOM_MOVES`],
/// and up to an eighth of the board more.
fn opening_moves(state: &mut u64, cells: u64) -> u64 {
    RANDOM_MOVES + splitmix(state) % (cells / 8).max(1)
}

/// A position of a game opened by `random` random moves and played on by a shallow engine:
/// the first, at ply `ply`, for which `stop(ply, position)` holds (never the end).
fn position_of_game<B: Bits>(
    rules: &Rules<B>,
    options: &ProbCutOptions,
    state: &mut u64,
    random: u64,
    stop: impl Fn(u64, &Position<B>) -> bool,
) -> Option<Position<B>> {
    let setup = &options.setup;
    let mut pos = rules.start(setup.first, setup.top_left);
    let mut player = Engine::new(
        rules.clone(),
        Config::to_depth(PLAY_DEPTH)
            .with_hash_mb(1)
            .with_eval(options.search.eval.clone())
            .with_seed(splitmix(state)),
    );
    let mut ply = 0;
    loop {
        if rules.is_over(&pos) {
            return None;
        }
        let moves = rules.moves(&pos);
        if moves.is_empty() {
            pos = rules.pass(&pos);
            continue;
        }
        if stop(ply, &pos) {
            return Some(pos);
        }
        let m = if ply < random {
            moves
                .iter()
                .nth(splitmix(state) as usize % moves.count() as usize)
        } else {
            player.search(&pos).best
        }?;
        pos = rules.play_unchecked(&pos, m);
        ply += 1;
    }
}
