//! `othello train`: training data made by self-play (`gen`), weights fitted to it (`fit`) and
//! measured (`test`), and the selective search fitted to the weights' own searches
//! (`probcut`).

use super::options::{all_cores, array_index, BoardArgs, GameRules};
use crate::cli::error::{not_replaced, AppError};
use anyhow::Context;
use othello::files::check_replaceable;
use othello::job_array::{Shard, INDEX_VARIABLES};
use othello::search::{Config, Evaluation};
use othello::train::data;
use othello::wording::Counted;
use std::io::{self, IsTerminal, Write};
use std::path::Path;

/// The steps of `othello train`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub step: TrainStep,
}

#[derive(clap::Subcommand)]
pub enum TrainStep {
    /// Games of the engine against itself, every position labelled, added to --out.
    ///
    /// Each game opens with --random-moves random moves, goes on with the engine at --depth
    /// (its estimates nudged by a seed, so games differ) and ends in perfect play from
    /// --exact-empties empty cells on. Positions from then on are labelled exactly; earlier
    /// ones with the game's value at its first solved position. Games are numbered from 0 and
    /// depend only on their number and the options: running the same command again skips the
    /// games already in the file, so a stopped run resumes. With --shard-size S, --out is
    /// shard I (--shard, or the job array's index): games I*S to (I+1)*S-1, the same on any
    /// machine, and `train fit` of shards 0 to K-1 is the fit of one run of K*S games.
    Gen(TrainGenArgs),
    /// Fit pattern weights to training files and print the error per phase.
    ///
    /// Every --held-out-th game is kept out of the fit and measures it, next to the classic
    /// evaluation's error on the same exactly labelled positions. The files are read in the
    /// order of their games (a game in two files is refused), so shards fit the same weights
    /// in any order.
    Fit(TrainFitArgs),
    /// Measure the learned evaluation on training files and print the error per phase.
    ///
    /// The weights are those the engine would use for the files' board and rules: the built-in
    /// ones, or those given with --weights. Every --held-out-th game is measured (the games
    /// `train fit` keeps out with the same number, so weights can be compared on positions
    /// none of them was fitted to; 1 measures every game).
    Test(TrainTestArgs),
    /// Fit the selective search (Multi-ProbCut) to the engine's own searches.
    ///
    /// One position from each of --positions games (a few random moves, then a shallow
    /// engine) is searched at every depth up to --max-depth with the weights the engine uses
    /// on the board (built in, or --weights). For each depth and each of --phases ranges of
    /// empty cells, a least-squares line through the values of the shallow search that
    /// predicts it gives the prediction and its error. The fits belong next to their weights:
    /// weights/NAME.probcut in the source for built-in weights, FILE.probcut beside --weights
    /// FILE.weights, where the engine reads them.
    Probcut(TrainProbCutArgs),
}

/// The options of `othello train probcut`.
#[derive(clap::Args)]
pub struct TrainProbCutArgs {
    /// Where to write the fits: beside the weights, with the extension .probcut.
    #[arg(long)]
    pub out: std::path::PathBuf,
    #[command(flatten)]
    pub board: BoardArgs,
    /// The player with fewer discs wins.
    #[arg(long)]
    pub misere: bool,
    /// Positions searched, one from each game.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    pub positions: u32,
    /// The deepest search fitted: deeper ones use its fit.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(3..=30))]
    pub max_depth: u32,
    /// Ranges of empty cells fitted apart.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub phases: u32,
    /// The end fits (a solve predicted by a shallow search, for a time-limited engine's
    /// selective solve): one position of each game, with 18 to N empty cells, solved
    /// exactly. Below 18, none.
    #[arg(long, value_name = "N", default_value_t = 24,
          value_parser = clap::value_parser!(u32).range(0..=676))]
    pub end_max: u32,
    /// The seed of the games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions searched at once [default: every core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Each thread's table, in megabytes.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
}

/// The options of `othello train gen`.
#[derive(clap::Args)]
pub struct TrainGenArgs {
    /// The training file to add to (created if missing). With --shard-size, the shard's file:
    /// its games go to a hidden .NAME.partial beside it, renamed onto it once all are played.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Games 0 to N-1 (those already in the file are skipped). Not with --shard-size.
    #[arg(long, default_value_t = 1000, conflicts_with = "shard_size")]
    pub games: u32,
    /// Make shard I, games I*S to (I+1)*S-1 of the seed's games, S from --shard-size. Left
    /// out, I is read from SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX (Slurm job arrays,
    /// Kubernetes Indexed Jobs).
    #[arg(long, value_name = "I", requires = "shard_size")]
    pub shard: Option<u64>,
    /// Games in each shard: makes --out a shard, written whole or not at all (a stopped run
    /// goes on when run again; a finished one is left as it is).
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_size: Option<u32>,
    #[command(flatten)]
    pub board: BoardArgs,
    /// The player with fewer discs wins.
    #[arg(long)]
    pub misere: bool,
    /// The seed of the random openings and of the engine's nudges.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub random_moves: u32,
    /// Percent of the later moves (before the solved end) played at random; the positions
    /// before each such move are not kept.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub random_rate: u32,
    /// The engine's depth between the opening and the solved end.
    #[arg(long, visible_alias = "level", default_value_t = 4)]
    pub depth: u32,
    /// Play perfectly, and label exactly, from this many empty cells on.
    #[arg(long, default_value_t = 16)]
    pub exact_empties: u32,
    /// Games played at once [default: every core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Each thread's solver table, in megabytes: the most it grows to.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
}

/// The options of `othello train fit`.
#[derive(clap::Args)]
pub struct TrainFitArgs {
    /// Training files made by `othello train gen`, all for the same board and rules.
    #[arg(required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// Where to write the weights.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Game phases, each with its own weights (by the number of empty cells).
    #[arg(long, default_value_t = 15)]
    pub phases: usize,
    /// Passes of gradient descent.
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Keep every N-th game out of the fit, to measure it (0: none).
    #[arg(long, default_value_t = 10)]
    pub held_out: u32,
    /// The ridge penalty: larger keeps the weights of rarely seen configurations smaller.
    #[arg(long, default_value_t = 20.0)]
    pub regularize: f32,
    /// Phases fitted at once [default: every core].
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The options of `othello train test`.
#[derive(clap::Args)]
pub struct TrainTestArgs {
    /// Training files made by `othello train gen`, all for the same board and rules.
    #[arg(required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// Measure every N-th game (1: every game).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub held_out: u32,
}

/// `othello train gen`, `othello train fit` and `othello train test`; `weights` are the files
/// given with `--weights` (read into `eval`), which a fit's output must not replace.
pub fn run(
    args: Args,
    rules: GameRules,
    eval: &Evaluation,
    weights: &[std::path::PathBuf],
) -> Result<(), AppError> {
    use othello::train::{fit, generate};
    match args.step {
        TrainStep::Gen(a) => {
            let shard = match a.shard_size {
                Some(size) => {
                    let index = array_index(a.shard, "a shard index", || {
                        format!(
                            "--shard-size needs the shard's index: give --shard I, or run it as \
                             a job array (which sets {} or {})",
                            INDEX_VARIABLES[0], INDEX_VARIABLES[1]
                        )
                    })?;
                    Some(Shard::new(index, size).map_err(|e| AppError::Usage(e.to_string()))?)
                }
                None => None,
            };
            let (first, games) = shard.map_or((0, a.games), |s| (s.first, s.games));
            let options = generate::GenOptions {
                setup: a.board.setup(rules.variant(a.misere)),
                first,
                games,
                seed: a.seed,
                random_moves: a.random_moves,
                random_rate: a.random_rate,
                exact_empties: a.exact_empties,
                threads: a.threads.unwrap_or_else(all_cores),
                search: Config::to_depth(a.depth)
                    .with_hash_mb(a.hash_mb)
                    .with_eval(eval.clone()),
            };
            let progress = io::stderr().is_terminal();
            let report = match shard {
                Some(_) => generate::generate_shard(&options, &a.out, progress),
                None => generate::generate(&options, &a.out, progress),
            }
            .map_err(AppError::Input)?;
            println!(
                "{} added ({} already there), {}, {:.1} s",
                Counted(report.games, "game"),
                report.skipped,
                Counted(report.positions, "position"),
                report.seconds
            );
            if let Some(shard) = shard {
                println!(
                    "shard {}: games {} to {} in {}",
                    shard.index,
                    shard.first,
                    shard.last(),
                    a.out.display()
                );
            }
        }
        TrainStep::Fit(a) => {
            // Everything that would stop the writing is settled before the fit.
            let max = othello::search::weights::MAX_PHASES;
            if !(1..=max).contains(&a.phases) {
                return Err(AppError::Usage(format!(
                    "--phases {}: a weights file holds 1 to {max}",
                    a.phases
                )));
            }
            let inputs = a.data.iter().chain(weights).map(|p| p.as_path());
            othello::files::refuse_output_over_input(&a.out, inputs)
                .map_err(|e| AppError::Usage(format!("--out {e}")))?;
            refuse_unknown_output(&a.out)?;
            let records = read_training(&a.data)?;
            let options = fit::FitOptions {
                phases: a.phases,
                epochs: a.epochs,
                held_out: a.held_out,
                regularize: a.regularize,
                threads: a.threads.unwrap_or_else(all_cores),
            };
            let (weights, reports) = fit::fit(&records, &options).map_err(AppError::Input)?;
            othello::files::write_atomic(&a.out, &weights.to_bytes())
                .with_context(|| format!("cannot write {}", a.out.display()))?;
            let mut out = io::stdout().lock();
            fit::write_reports(&mut out, &reports)?;
            writeln!(out, "weights written to {}", a.out.display())?;
        }
        TrainStep::Probcut(a) => {
            let setup = a.board.setup(rules.variant(a.misere));
            let (rows, cols) = (setup.shape.rows(), setup.shape.cols());
            if eval.weights_for(rows, cols, setup.variant).is_none() {
                return Err(AppError::Input(format!(
                    "no learned weights for {rows}x{cols} under these rules: the fits describe \
                     searches with weights (give --weights FILE)"
                )));
            }
            let inputs = weights.iter().map(|p| p.as_path());
            othello::files::refuse_output_over_input(&a.out, inputs)
                .map_err(|e| AppError::Usage(format!("--out {e}")))?;
            let options = othello::train::probcut::ProbCutOptions {
                setup,
                positions: a.positions,
                max_depth: a.max_depth,
                phases: a.phases,
                end_max: a.end_max,
                seed: a.seed,
                threads: a.threads.unwrap_or_else(all_cores),
                search: Config::to_depth(1)
                    .with_hash_mb(a.hash_mb)
                    .with_eval(eval.clone()),
            };
            let (fits, samples) =
                othello::train::probcut::fit(&options).map_err(AppError::Input)?;
            let text = fits.to_string();
            othello::files::write_atomic(&a.out, text.as_bytes())
                .with_context(|| format!("cannot write {}", a.out.display()))?;
            let mut out = io::stdout().lock();
            write!(out, "{text}")?;
            writeln!(
                out,
                "{} from {} written to {}",
                Counted(fits.fits().len() + fits.end_fits().len(), "fit"),
                Counted(samples, "sample"),
                a.out.display()
            )?;
        }
        TrainStep::Test(a) => {
            let records = read_training(&a.data)?;
            let board = records.board();
            let (rows, cols) = (board.shape.rows(), board.shape.cols());
            let weights = eval.weights_for(rows, cols, board.variant).ok_or_else(|| {
                AppError::Input(format!(
                    "no learned weights for {rows}x{cols} under these rules: give --weights FILE"
                ))
            })?;
            let reports = fit::measure(&records, &weights, a.held_out).map_err(AppError::Input)?;
            fit::write_reports(&mut io::stdout().lock(), &reports)?;
        }
    }
    Ok(())
}

/// Refuses `train fit --out PATH` where PATH holds something other than weights: only a weights
/// file (by its magic), an empty file or none is replaced. A pipe or a device is not opened.
fn refuse_unknown_output(path: &Path) -> Result<(), AppError> {
    let weights = |magic: &[u8]| {
        let known = magic.is_empty() || othello::search::weights::is_weights_file(magic);
        (!known).then(|| "not a weights file".to_string())
    };
    check_replaceable(path, 8, weights).map_err(|e| {
        not_replaced(path, e, |why| {
            format!(
                "--out {}: {why}, so it is not replaced (give a new file, or a weights file)",
                path.display()
            )
        })
    })
}

/// Training files, read whole, as many positions as a fit takes: one that a stopped `train gen`
/// left unfinished is read as far as it goes, with a warning; a finished one cut short is
/// refused.
fn read_training(paths: &[std::path::PathBuf]) -> Result<data::Records, AppError> {
    data::read_all(paths, othello::train::fit::max_positions, |warning| {
        eprintln!("othello: {warning}")
    })
    .map_err(AppError::Input)
}
