//! `othello train fit`: least-squares pattern weights from labelled positions, per phase.
//!
//! Each phase is fitted on its own positions and those of the two phases next to it (more data
//! for each table, and neighbouring phases that agree); a phase with no positions of its own
//! takes the weights of the nearest one that has some. The model is a bias, one weight per
//! pattern configuration (configurations that the board's symmetries make equal share one) and
//! one per number of moves of each side (mobility).
//! The fit is ridge least squares (the squared error plus `regularize` times the sum of the
//! squared weights, so a rarely seen configuration stays near zero), solved by conjugate
//! gradients. Games whose number is a multiple of `held_out` are kept out of the fit and
//! measure it.

use super::data::{Board, Records};
use crate::rules::{Bits, Position, Rules};
use crate::search::patterns::{phase, PatternSet};
use crate::search::weights::{mobility, Weights, MAX_PHASES, MOBILITY};
use crate::search::{Evaluator, DISC};

/// The most memory the positions of a fit are given: their records, their features (two
/// bytes a pattern placement) and a few bytes more each. Past it the data is refused, before
/// any of it is read where the files' lengths tell, so a fit's memory stays bounded whatever
/// it is given.
pub const MAX_FIT_BYTES: usize = 4 << 30;

/// The most positions a fit, or a test, takes on `board`: as many as [`MAX_FIT_BYTES`] holds
/// (33,554,432 on 8x8, 128 bytes each; fewer on boards with more cells).
pub fn max_positions(board: Board) -> usize {
    let set = PatternSet::new(board.shape.rows(), board.shape.cols());
    let slots: usize = set
        .patterns
        .iter()
        .map(|p| p.placements.len())
        .sum::<usize>()
        + 2;
    MAX_FIT_BYTES / (board.record_len() + 2 * slots + std::mem::size_of::<Row>())
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    pub phases: usize,
    pub epochs: usize,
    /// Every `held_out`-th game is for testing only.
    pub held_out: u32,
    /// The ridge penalty on the squared weights: larger keeps rare weights smaller.
    pub regularize: f32,
    pub threads: usize,
}

/// How well one phase fits.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseReport {
    pub phase: usize,
    /// The empty cells of its positions, fewest and most.
    pub empties: (usize, usize),
    pub train: usize,
    pub test: usize,
    /// Mean absolute error in discs on the test positions, of the fitted weights.
    pub test_error: f64,
    /// Test positions with exact labels, and the mean absolute error on them of the fitted
    /// weights and of the classic evaluation.
    pub exact: usize,
    pub exact_error: f64,
    pub classic_error: f64,
}

/// What the fit needs of one position besides its features (the record of the same number).
struct Row {
    phase: u8,
    test: bool,
    label: f32,
}

/// Fits weights for the board of `records` to them.
pub fn fit(records: &Records, options: &FitOptions) -> Result<(Weights, Vec<PhaseReport>), String> {
    crate::with_bits!(records.board().shape, |B| fit_in::<B>(records, options))
}

fn fit_in<B: Bits>(
    records: &Records,
    options: &FitOptions,
) -> Result<(Weights, Vec<PhaseReport>), String> {
    let board: Board = records.board();
    let (rows, cols) = (board.shape.rows(), board.shape.cols());
    let rules: Rules<B> = Rules::new(board.shape, board.variant).map_err(|e| e.to_string())?;
    let set = PatternSet::new(rows, cols);
    let phases = options.phases;
    if !(1..=MAX_PHASES).contains(&phases) {
        return Err(format!(
            "{phases} phases: a weights file holds 1 to {MAX_PHASES}"
        ));
    }
    // Weight numbers: each pattern's configurations from its offset, symmetric ones folded,
    // then the two mobility tables.
    let mut offsets = Vec::new();
    let mut canonical: Vec<Vec<u16>> = Vec::new();
    let mut total = 0usize;
    for p in &set.patterns {
        if p.size() > 1 << 16 {
            return Err(format!("pattern {} is too large to fit", p.name));
        }
        offsets.push(total);
        canonical.push((0..p.size()).map(|i| p.canonical(i) as u16).collect());
        total += p.size();
    }
    let mobility_at = total;
    total += 2 * MOBILITY;
    // A position's features: per slot (each placement in the set's reading order, then the two
    // mobility counts) the entry within its table, two bytes each; `slot_offset` adds the
    // table's offset back.
    let mut slot_offset: Vec<u32> = Vec::new();
    if let Some(first) = records.iter().next() {
        set.for_each_index(&first.position::<B>(), |k, _| {
            slot_offset.push(offsets[k] as u32)
        });
    }
    slot_offset.extend([mobility_at as u32, (mobility_at + MOBILITY) as u32]);
    let slots = slot_offset.len();
    let mut features: Vec<u16> = Vec::with_capacity(records.len() * slots);
    let mut table = Vec::with_capacity(records.len());
    for record in records.iter() {
        let pos: Position<B> = record.position();
        let empties = rules.empty(&pos).count() as usize;
        set.for_each_index(&pos, |k, index| features.push(canonical[k][index]));
        features.extend(mobility(&rules, &pos).map(|m| m as u16));
        table.push(Row {
            phase: phase(empties, set.cells, phases) as u8,
            label: record.label() as f32,
            test: is_held_out(record.game(), options.held_out),
        });
    }
    let row_features = |r: usize| {
        features[r * slots..(r + 1) * slots]
            .iter()
            .zip(&slot_offset)
            .map(|(&entry, &offset)| (offset + entry as u32) as usize)
    };

    // Phases are independent: fit them on the threads.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let fitted: std::sync::Mutex<Vec<(usize, f32, Vec<f32>)>> = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| loop {
                let p = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if p >= phases {
                    break;
                }
                let train: Vec<usize> = (0..table.len())
                    .filter(|&r| !table[r].test && (table[r].phase as usize).abs_diff(p) <= 1)
                    .collect();
                let (bias, weights) = descend(&train, &table, row_features, total, options);
                if let Ok(mut f) = fitted.lock() {
                    f.push((p, bias, weights));
                }
            });
        }
    });
    let mut fitted = fitted.into_inner().map_err(|_| "a fitting thread failed")?;
    fitted.sort_by_key(|f| f.0);
    // A phase with no positions of its own (the openings the random moves skip) takes the
    // weights of the nearest phase that has some.
    let has_rows: Vec<bool> = (0..phases)
        .map(|p| table.iter().any(|r| !r.test && r.phase as usize == p))
        .collect();
    if has_rows.iter().any(|&h| h) {
        for p in 0..phases {
            if !has_rows[p] {
                let nearest = (0..phases)
                    .filter(|&q| has_rows[q])
                    .min_by_key(|&q| q.abs_diff(p))
                    .unwrap_or(p);
                let (bias, w) = (fitted[nearest].1, fitted[nearest].2.clone());
                fitted[p] = (p, bias, w);
            }
        }
    }

    let mut weights = Weights::zero(rows, cols, board.variant, phases);
    let hundredths = |w: f32| {
        (w * DISC as f32)
            .round()
            .clamp(i16::MIN as f32, i16::MAX as f32) as i16
    };
    for (p, bias, w) in &fitted {
        weights.bias[*p] = hundredths(*bias);
        let n = set.patterns.len();
        for k in 0..weights.table_count() {
            for (index, entry) in weights.table_mut(*p, k).iter_mut().enumerate() {
                let at = if k < n {
                    offsets[k] + canonical[k][index] as usize
                } else {
                    mobility_at + (k - n) * MOBILITY + index
                };
                *entry = hundredths(w[at]);
            }
        }
    }

    let reports = measure_in(records, &rules, &weights, options.held_out);
    Ok((weights, reports))
}

/// Whether game number `game` is kept out of the fit to measure it: every `held_out`-th game
/// (none when `held_out` is 0). `fit` and `measure` both ask here, so they agree on the games.
fn is_held_out(game: u32, held_out: u32) -> bool {
    held_out > 0 && game.is_multiple_of(held_out)
}

/// How well `weights` (made for the board of `records`) estimate the positions of every
/// `held_out`-th game (1: every game), per phase, next to the classic evaluation on the exactly
/// labelled ones: the table `fit` prints, for any weights on any data.
pub fn measure(
    records: &Records,
    weights: &Weights,
    held_out: u32,
) -> Result<Vec<PhaseReport>, String> {
    let board: Board = records.board();
    if (weights.rows, weights.cols, weights.variant)
        != (board.shape.rows(), board.shape.cols(), board.variant)
    {
        return Err("the weights were made for another board or rules than the data".into());
    }
    crate::with_bits!(board.shape, |B| {
        let rules: Rules<B> = Rules::new(board.shape, board.variant).map_err(|e| e.to_string())?;
        Ok(measure_in(records, &rules, weights, held_out))
    })
}

fn measure_in<B: Bits>(
    records: &Records,
    rules: &Rules<B>,
    weights: &Weights,
    held_out: u32,
) -> Vec<PhaseReport> {
    let phases = weights.phases();
    let cells = weights.rows * weights.cols;
    let classic = Evaluator::classic(rules);
    let mut reports: Vec<PhaseReport> = (0..phases)
        .map(|p| PhaseReport {
            phase: p,
            empties: (usize::MAX, 0),
            train: 0,
            test: 0,
            test_error: 0.0,
            exact: 0,
            exact_error: 0.0,
            classic_error: 0.0,
        })
        .collect();
    for record in records.iter() {
        let pos: Position<B> = record.position();
        let empties = rules.empty(&pos).count() as usize;
        let r = &mut reports[phase(empties, cells, phases)];
        if !is_held_out(record.game(), held_out) {
            r.train += 1;
            continue;
        }
        r.empties = (r.empties.0.min(empties), r.empties.1.max(empties));
        let estimate = weights.evaluate(rules, &pos) as f64 / DISC as f64;
        let label = record.label() as f64;
        let error = (estimate - label).abs();
        r.test += 1;
        r.test_error += error;
        if record.exact() {
            r.exact += 1;
            r.exact_error += error;
            let c = classic.evaluate(rules, &pos) as f64 / DISC as f64;
            r.classic_error += (c - label).abs();
        }
    }
    for r in &mut reports {
        if r.test > 0 {
            r.test_error /= r.test as f64;
        }
        if r.exact > 0 {
            r.exact_error /= r.exact as f64;
            r.classic_error /= r.exact as f64;
        }
        if r.empties.0 == usize::MAX {
            r.empties = (0, 0);
        }
    }
    reports
}

/// Ridge least squares for one phase over the rows `train`, by conjugate gradients on the
/// normal equations (CGLS): the bias and the weights.
fn descend<I: Iterator<Item = usize>>(
    train: &[usize],
    table: &[Row],
    row_features: impl Fn(usize) -> I,
    total: usize,
    options: &FitOptions,
) -> (f32, Vec<f32>) {
    // Unknowns: the weights, then the bias (a feature every row has).
    let n = total + 1;
    let mut x = vec![0f64; n];
    if train.is_empty() {
        return (0.0, vec![0.0; total]);
    }
    let lambda = options.regularize as f64;
    // A v: each row's sum of its features' entries of v.
    let apply = |v: &[f64], out: &mut Vec<f64>| {
        out.clear();
        out.extend(
            train
                .iter()
                .map(|&r| v[total] + row_features(r).map(|f| v[f]).sum::<f64>()),
        );
    };
    // A^T u - lambda x.
    let gradient = |u: &[f64], x: &[f64], out: &mut Vec<f64>| {
        out.clear();
        out.extend(x.iter().map(|xi| -lambda * xi));
        for (&r, &ui) in train.iter().zip(u) {
            for f in row_features(r) {
                out[f] += ui;
            }
            out[total] += ui;
        }
    };
    let mut residual: Vec<f64> = train.iter().map(|&r| table[r].label as f64).collect();
    let mut s = Vec::new();
    gradient(&residual, &x, &mut s);
    let mut p = s.clone();
    let mut gamma: f64 = s.iter().map(|v| v * v).sum();
    let mut q = Vec::new();
    for _ in 0..options.epochs {
        if gamma < 1e-12 {
            break;
        }
        apply(&p, &mut q);
        let delta: f64 =
            q.iter().map(|v| v * v).sum::<f64>() + lambda * p.iter().map(|v| v * v).sum::<f64>();
        if delta <= 0.0 {
            break;
        }
        let alpha = gamma / delta;
        for (xi, pi) in x.iter_mut().zip(&p) {
            *xi += alpha * pi;
        }
        for (ri, qi) in residual.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        gradient(&residual, &x, &mut s);
        let next: f64 = s.iter().map(|v| v * v).sum();
        let beta = next / gamma;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
        gamma = next;
    }
    let bias = x[total] as f32;
    (bias, x[..total].iter().map(|&v| v as f32).collect())
}

/// The table of mean absolute errors per phase that `train fit` and `train test` print.
pub fn write_reports(
    out: &mut impl std::io::Write,
    reports: &[PhaseReport],
) -> std::io::Result<()> {
    writeln!(
        out,
        "| phase | empties | train | test | test error | exact | exact error | classic error |"
    )?;
    writeln!(
        out,
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )?;
    for r in reports {
        writeln!(
            out,
            "| {} | {}-{} | {} | {} | {:.2} | {} | {:.2} | {:.2} |",
            r.phase,
            r.empties.0,
            r.empties.1,
            r.train,
            r.test,
            r.test_error,
            r.exact,
            r.exact_error,
            r.classic_error
        )?;
    }
    Ok(())
}
