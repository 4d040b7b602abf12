//! Multi-ProbCut (Buro, 1997): a shallow search predicts a deep one. The deep value of a
//! position is close to a line through the shallow value, `slope × shallow + intercept`, with
//! an error of standard deviation `sigma`; where the shallow search shows the prediction
//! beyond the window by more than a chosen number of sigmas, the node is cut without the deep
//! search. The line and its error are fitted from the program's own searches, for each depth
//! and phase (`othello train probcut`), and kept next to the weights they were fitted with:
//! they describe that evaluation's searches and no other.
//!
//! Near the end the deep value is the exact one: an *end* fit predicts, for each number of
//! empty cells, the solve's value from a shallow search, so that a time-limited engine can
//! first solve selectively (as Edax's and Egaroucid's endgame "selectivity" levels do) and
//! then exactly.

use crate::rules::{RuleSet, Variant};
use std::fmt;
use std::str::FromStr;

/// Nodes this many moves from the horizon or more may be cut; nearer, the shallow search
/// saves too little.
pub const MIN_DEPTH: u32 = 3;

/// End fits start here, and a selective solve cuts no nearer the end: there the exact solver
/// is quick, and cutting it saves little and errs more (8x8, docs/performance.md).
pub const END_FROM: u32 = 18;

/// The depth of the shallow search that predicts a search `depth` moves deep: about half, and
/// of the same parity, so that both end on the same side's move (as Edax pairs them).
pub fn shallow_depth(depth: u32) -> u32 {
    depth / 4 * 2 + depth % 2
}

/// How sure a cut must be: the number of standard deviations of the prediction's error by
/// which the shallow search must clear the window. More is safer and cuts less.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Confidence(u32);

impl Confidence {
    /// The engine's default, chosen by matches (docs/performance.md, "Selective search").
    pub const DEFAULT: Confidence = Confidence(150);

    pub fn sigmas(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

impl FromStr for Confidence {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let sigmas: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("a confidence is a number of sigmas such as 1.5, not {text:?}"))?;
        if !(0.01..=10.0).contains(&sigmas) {
            return Err(format!(
                "a confidence of {text} sigmas: it is from 0.01 to 10"
            ));
        }
        Ok(Confidence((sigmas * 100.0).round() as u32))
    }
}

/// One fitted relation: at `depth` moves deep, with `empties.0..=empties.1` empty cells, the
/// deep value is about `slope × shallow + intercept`, off by `sigma` (hundredths of a disc)
/// as a standard deviation, over `samples` positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub depth: u32,
    pub empties: (u32, u32),
    pub slope: f64,
    pub intercept: f64,
    pub sigma: f64,
    pub samples: usize,
}

impl Fit {
    pub fn shallow(&self) -> u32 {
        shallow_depth(self.depth)
    }

    /// The shallow value at or above which the deep one is at least `beta` with `confidence`.
    pub fn high_cut(&self, beta: i32, confidence: Confidence) -> i32 {
        ((f64::from(beta) - self.intercept + confidence.sigmas() * self.sigma) / self.slope).ceil()
            as i32
    }

    /// The shallow value at or below which the deep one is at most `alpha` with `confidence`.
    pub fn low_cut(&self, alpha: i32, confidence: Confidence) -> i32 {
        ((f64::from(alpha) - self.intercept - confidence.sigmas() * self.sigma) / self.slope)
            .floor() as i32
    }
}

/// A search's value at two depths of one position: what a fit is made of. A `depth` of at
/// least `empties` is a solve: its `deep` value is exact, and the sample is an end fit's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub depth: u32,
    pub empties: u32,
    /// In hundredths of a disc, for the side to move.
    pub shallow: i32,
    pub deep: i32,
}

/// The fits of one board and rule set, by depth and phase.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCut {
    pub rows: usize,
    pub cols: usize,
    pub variant: Variant,
    fits: Vec<Fit>,
    /// By depth (up to the deepest fitted), then by number of empty cells: the fit's index.
    index: Vec<Vec<Option<usize>>>,
    /// The end fits, by number of empty cells: each a solve's (`depth` and both `empties`
    /// that number).
    end: Vec<Fit>,
}

/// The values are finite numbers (the reader refuses any other), so equality is one.
impl Eq for ProbCut {}

/// A phase holds at least this many samples, or it is not fitted (no cut there).
const MIN_SAMPLES: usize = 30;

impl ProbCut {
    /// The fits of `samples` on a `rows` x `cols` board under `variant`: one least-squares line
    /// for each depth and each of `phases` equal ranges of empty cells, and an end fit for each
    /// number of empty cells from [`END_FROM`] that has solves.
    pub fn fit(
        rows: usize,
        cols: usize,
        variant: Variant,
        phases: u32,
        samples: &[Sample],
    ) -> ProbCut {
        let cells = (rows * cols) as u32;
        let width = cells.div_ceil(phases.max(1));
        let mut fits = Vec::new();
        let deepest = samples.iter().map(|s| s.depth).max().unwrap_or(0);
        for depth in MIN_DEPTH..=deepest {
            for phase in 0..phases {
                let empties = (phase * width + 1, ((phase + 1) * width).min(cells));
                let set: Vec<&Sample> = samples
                    .iter()
                    .filter(|s| s.depth == depth && s.depth < s.empties)
                    .filter(|s| (empties.0..=empties.1).contains(&s.empties))
                    .collect();
                if let Some(fit) = line_through(&set, depth, empties) {
                    fits.push(fit);
                }
            }
        }
        let mut end = Vec::new();
        for empties in END_FROM..=cells {
            let set: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.empties == empties && s.depth >= empties)
                .collect();
            if let Some(fit) = line_through(&set, empties, (empties, empties)) {
                end.push(fit);
            }
        }
        ProbCut::new(rows, cols, variant, fits, end)
    }

    fn new(
        rows: usize,
        cols: usize,
        variant: Variant,
        fits: Vec<Fit>,
        mut end: Vec<Fit>,
    ) -> ProbCut {
        let cells = rows * cols;
        let deepest = fits.iter().map(|f| f.depth).max().unwrap_or(0) as usize;
        let mut index = vec![vec![None; cells + 1]; deepest + 1];
        for (i, fit) in fits.iter().enumerate() {
            for e in fit.empties.0..=fit.empties.1.min(cells as u32) {
                index[fit.depth as usize][e as usize] = Some(i);
            }
        }
        ProbCut {
            rows,
            cols,
            variant,
            fits,
            index,
            end: {
                end.sort_by_key(|f| f.depth);
                end
            },
        }
    }

    pub fn fits(&self) -> &[Fit] {
        &self.fits
    }

    /// The end fits, fewest empty cells first.
    pub fn end_fits(&self) -> &[Fit] {
        &self.end
    }

    /// The end fit for a solve with `empties` empty cells: that of the most empty cells fitted
    /// up to `empties` (as deeper searches use the deepest fit); none below the fewest.
    pub fn end_fit(&self, empties: u32) -> Option<&Fit> {
        self.end.iter().rev().find(|f| f.depth <= empties)
    }

    /// The fit for a search `depth` moves deep with `empties` empty cells: that of the deepest
    /// fitted depth at most `depth` (deeper searches pair with shallow ones in the same way).
    pub fn fit_for(&self, depth: u32, empties: u32) -> Option<&Fit> {
        let depth = (depth as usize).min(self.index.len().checked_sub(1)?);
        let i = (*self.index.get(depth)?.get(empties as usize)?)?;
        self.fits.get(i)
    }

    /// The words that name the board and rules in a file: `8x8`, `6x6 simple misere`.
    fn board(&self) -> String {
        let mut words = format!("{}x{}", self.rows, self.cols);
        if self.variant.rule_set == RuleSet::Simple {
            words.push_str(" simple");
        }
        if self.variant.misere {
            words.push_str(" misere");
        }
        if self.variant.place_anywhere {
            words.push_str(" place-anywhere");
        }
        words
    }
}

/// The least-squares line through `set` (a deep value against its shallow one), and its error;
/// `None` for too few samples, or where the shallow value says nothing of the deep one.
fn line_through(set: &[&Sample], depth: u32, empties: (u32, u32)) -> Option<Fit> {
    if set.len() < MIN_SAMPLES {
        return None;
    }
    let n = set.len() as f64;
    let mean = |f: &dyn Fn(&Sample) -> f64| set.iter().map(|s| f(s)).sum::<f64>() / n;
    let (mx, my) = (
        mean(&|s| f64::from(s.shallow)),
        mean(&|s| f64::from(s.deep)),
    );
    let sxx = mean(&|s| (f64::from(s.shallow) - mx).powi(2));
    let sxy = mean(&|s| (f64::from(s.shallow) - mx) * (f64::from(s.deep) - my));
    // A shallow search that says nothing of the deep one would be a slope of zero: no cut
    // can be trusted there.
    if sxx <= 0.0 || sxy <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let residual = |s: &Sample| f64::from(s.deep) - (slope * f64::from(s.shallow) + intercept);
    let sigma = (set.iter().map(|s| residual(s).powi(2)).sum::<f64>() / (n - 2.0).max(1.0)).sqrt();
    Some(Fit {
        depth,
        empties,
        slope,
        intercept,
        sigma,
        samples: set.len(),
    })
}

impl fmt::Display for ProbCut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "# othello probcut: at DEPTH moves deep with EMPTIES empty cells, the value"
        )?;
        writeln!(
            f,
            "# is about SLOPE x (the value SHALLOW moves deep) + INTERCEPT, off by SIGMA"
        )?;
        writeln!(
            f,
            "# (hundredths of a disc, one standard deviation) over SAMPLES positions."
        )?;
        writeln!(
            f,
            "# An end line is a solve's: with EMPTIES empty cells, the exact value."
        )?;
        writeln!(f, "board {}", self.board())?;
        writeln!(f, "# depth shallow empties slope intercept sigma samples")?;
        for fit in &self.fits {
            writeln!(
                f,
                "fit {} {} {}-{} {:.4} {:.1} {:.1} {}",
                fit.depth,
                fit.shallow(),
                fit.empties.0,
                fit.empties.1,
                fit.slope,
                fit.intercept,
                fit.sigma,
                fit.samples
            )?;
        }
        if !self.end.is_empty() {
            writeln!(f, "# empties shallow slope intercept sigma samples")?;
        }
        for fit in &self.end {
            writeln!(
                f,
                "end {} {} {:.4} {:.1} {:.1} {}",
                fit.depth,
                fit.shallow(),
                fit.slope,
                fit.intercept,
                fit.sigma,
                fit.samples
            )?;
        }
        Ok(())
    }
}

impl FromStr for ProbCut {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let mut board = None;
        let mut fits = Vec::new();
        let mut end = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let at = |why: String| format!("line {}: {why}", n + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            match words.next() {
                Some("board") => {
                    let size = words
                        .next()
                        .ok_or_else(|| at("a board needs a size".into()))?;
                    let (rows, cols) = size
                        .split_once('x')
                        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
                        .filter(|&(r, c): &(usize, usize)| {
                            (3..=26).contains(&r) && (3..=26).contains(&c)
                        })
                        .ok_or_else(|| at(format!("{size:?} is not a board size such as 8x8")))?;
                    let mut variant = Variant::default();
                    for word in words {
                        match word {
                            "simple" => variant.rule_set = RuleSet::Simple,
                            "misere" => variant.misere = true,
                            "place-anywhere" => variant.place_anywhere = true,
                            _ => return Err(at(format!("unknown rule {word:?}"))),
                        }
                    }
                    board = Some((rows, cols, variant));
                }
                Some(kind @ ("fit" | "end")) => {
                    let words: Vec<&str> = words.collect();
                    // An end line has no range: its depth is its number of empty cells.
                    let (depth, shallow, empties, [slope, intercept, sigma, samples]) =
                        match (kind, &words[..]) {
                            ("fit", &[depth, shallow, empties, a, b, c, d]) => {
                                (depth, shallow, Some(empties), [a, b, c, d])
                            }
                            ("end", &[empties, shallow, a, b, c, d]) => {
                                (empties, shallow, None, [a, b, c, d])
                            }
                            _ => {
                                let n = if kind == "fit" { 7 } else { 6 };
                                return Err(at(format!("a {kind} line has {n} numbers")));
                            }
                        };
                    let whole = |w: &str| {
                        w.parse::<u32>()
                            .map_err(|_| at(format!("{w:?} is not a whole number")))
                    };
                    let real = |w: &str| {
                        w.parse::<f64>()
                            .ok()
                            .filter(|x| x.is_finite())
                            .ok_or_else(|| at(format!("{w:?} is not a number")))
                    };
                    let depth = whole(depth)?;
                    let depths = if kind == "fit" {
                        MIN_DEPTH..=64
                    } else {
                        END_FROM..=676
                    };
                    if !depths.contains(&depth) || whole(shallow)? != shallow_depth(depth) {
                        return Err(at(format!(
                            "depth {depth} pairs with shallow depth {}",
                            shallow_depth(depth)
                        )));
                    }
                    let empties = match empties {
                        Some(range) => {
                            let (from, to) = range.split_once('-').ok_or_else(|| {
                                at(format!("{range:?} is not a range such as 1-16"))
                            })?;
                            (whole(from)?, whole(to)?)
                        }
                        None => (depth, depth),
                    };
                    let (slope, sigma) = (real(slope)?, real(sigma)?);
                    if slope <= 0.0 || sigma < 0.0 {
                        return Err(at("a fit's slope is above 0 and its sigma not below".into()));
                    }
                    let fit = Fit {
                        depth,
                        empties,
                        slope,
                        intercept: real(intercept)?,
                        sigma,
                        samples: whole(samples)? as usize,
                    };
                    if kind == "fit" {
                        fits.push(fit);
                    } else {
                        end.push(fit);
                    }
                }
                Some(word) => return Err(at(format!("unknown line {word:?}"))),
                None => {}
            }
        }
        let (rows, cols, variant) = board.ok_or("no board line")?;
        Ok(ProbCut::new(rows, cols, variant, fits, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_finds_the_line_and_the_spread_of_its_samples() {
        // deep = 0.9 × shallow + 20, off by ±100 in turn: sigma about 100.
        let samples: Vec<Sample> = (0..200)
            .map(|i| {
                let shallow = (i - 100) * 37;
                let noise = if i % 2 == 0 { 100 } else { -100 };
                Sample {
                    depth: 4,
                    empties: 40,
                    shallow,
                    deep: (0.9 * f64::from(shallow)) as i32 + 20 + noise,
                }
            })
            .collect();
        let pc = ProbCut::fit(8, 8, Variant::default(), 4, &samples);
        let fit = pc.fit_for(4, 40).unwrap();
        assert!((fit.slope - 0.9).abs() < 0.01, "{fit:?}");
        assert!((fit.intercept - 20.0).abs() < 5.0, "{fit:?}");
        assert!((fit.sigma - 100.0).abs() < 3.0, "{fit:?}");
        assert_eq!(fit.empties, (33, 48));
        // Deeper searches use the deepest fit; other phases and shallower depths have none.
        assert_eq!(pc.fit_for(9, 35), Some(fit));
        assert_eq!(pc.fit_for(3, 40), None);
        assert_eq!(pc.fit_for(4, 20), None);
        // Cut where the shallow value clears the window by 1.5 sigmas of the line.
        let c: Confidence = "1.5".parse().unwrap();
        let high = fit.high_cut(300, c);
        assert!(
            (0.9 * f64::from(high) + 20.0 - 150.0 - 300.0).abs() < 5.0,
            "{high}"
        );
        assert!(fit.low_cut(-300, c) < -300);
    }

    #[test]
    fn a_probcut_file_reads_back_and_refuses_what_it_cannot_use() {
        // Midgame samples at depth 5, and solves with 20 empty cells (an end fit).
        let samples: Vec<Sample> = (0..100)
            .flat_map(|i| {
                [(5, 20), (20, 20)].map(|(depth, empties)| Sample {
                    depth,
                    empties,
                    shallow: i * 10,
                    deep: i * 9 + (i % 3) * 7,
                })
            })
            .collect();
        let simple = Variant {
            rule_set: RuleSet::Simple,
            misere: true,
            place_anywhere: false,
        };
        let pc = ProbCut::fit(6, 6, simple, 3, &samples);
        let text = pc.to_string();
        assert!(text.contains("board 6x6 simple misere"), "{text}");
        let back: ProbCut = text.parse().unwrap();
        assert_eq!((back.rows, back.cols, back.variant), (6, 6, simple));
        assert_eq!((back.fits().len(), back.end_fits().len()), (1, 1));
        for (a, b) in [
            (back.fits()[0], pc.fits()[0]),
            (back.end_fits()[0], pc.end_fits()[0]),
        ] {
            assert_eq!(
                (a.depth, a.empties, a.samples),
                (b.depth, b.empties, b.samples)
            );
            assert!((a.slope - b.slope).abs() < 1e-4 && (a.sigma - b.sigma).abs() < 0.1);
        }
        assert!(text.contains("\nend 20 10 "), "{text}");
        // An end fit serves more empty cells, not fewer.
        assert_eq!(back.end_fit(30), back.end_fits().first());
        assert_eq!(back.end_fit(19), None);
        for bad in [
            "fit 5 3 13-24 0.9 1 1 100\n",
            "board 8x8\nfit 5 2 13-24 0.9 1 1 100\n",
            "board 8x8\nfit 5 3 13-24 -0.9 1 1 100\n",
            "board 8x8\nfit 5 3 13-24 0.9 NaN 1 100\n",
            "board 99x8\n",
            "board 8x8 chess\n",
            "board 8x8\nend 20 10 13-24 0.9 1 1 100\n",
            "board 8x8\nend 20 9 0.9 1 1 100\n",
            "board 8x8\nend 17 9 0.9 1 1 100\n",
        ] {
            assert!(bad.parse::<ProbCut>().is_err(), "{bad}");
        }
        assert_eq!("1.5".parse::<Confidence>().unwrap().to_string(), "1.50");
        assert!("0".parse::<Confidence>().is_err());
        assert!("x".parse::<Confidence>().is_err());
    }

    /// The built-in 8x8 weights with fits that trust every shallow search (slope 1, an error
    /// of a tenth of a disc), so that the selective search cuts as much as it can; the end
    /// fits expect the solve `end_offset` hundredths above the shallow value.
    fn trusting_8x8(end_offset: i32) -> crate::search::Evaluation {
        use crate::search::weights;
        let mut w = (*weights::built_in(8, 8, Variant::default()).unwrap()).clone();
        let noise = |i: u32| if i.is_multiple_of(2) { 10 } else { -10 };
        let samples: Vec<Sample> = (MIN_DEPTH..=12)
            .flat_map(|depth| {
                (0..64).map(move |i| Sample {
                    depth,
                    empties: 1 + i % 64,
                    shallow: i as i32 * 50,
                    deep: i as i32 * 50 + noise(i),
                })
            })
            .chain((END_FROM..=24).flat_map(|empties| {
                (0..64).map(move |i| Sample {
                    depth: empties,
                    empties,
                    shallow: i as i32 * 50,
                    deep: i as i32 * 50 + end_offset + noise(i),
                })
            }))
            .collect();
        w.probcut = Some(std::sync::Arc::new(ProbCut::fit(
            8,
            8,
            Variant::default(),
            1,
            &samples,
        )));
        crate::search::Evaluation::Learned(vec![std::sync::Arc::new(w)])
    }

    #[test]
    fn a_selective_search_cuts_nodes_and_never_a_solve() {
        use crate::rules::{Bits, Color, Rules, Shape};
        use crate::search::{Config, Engine};
        let rules = Rules::<u64>::new(Shape::STANDARD, Variant::default()).unwrap();
        let mut pos = rules.start(Color::Black, Color::White);
        for m in ["f5", "d6", "c3", "d3", "c4", "f4"] {
            let square: crate::rules::Square = m.parse().unwrap();
            pos = rules.play_unchecked(&pos, rules.geometry.index(square).unwrap());
        }
        let eval = trusting_8x8(0);
        let search = |pos, depth, probcut| {
            let config = Config::to_depth(depth)
                .with_eval(eval.clone())
                .with_probcut(probcut);
            let mut engine = Engine::new(rules.clone(), config);
            engine.search(pos)
        };
        let sure = Some(Confidence::DEFAULT);
        let (full, cut) = (search(&pos, 8, None), search(&pos, 8, sure));
        assert!(
            cut.nodes * 2 < full.nodes,
            "{} against {}",
            cut.nodes,
            full.nodes
        );
        // The same depth reached, and a move of the position.
        assert_eq!(cut.depth, 8);
        assert!(rules.moves(&pos).contains(cut.best.unwrap()));
        // Near the end the last iteration is a solve: never cut, the same exact value (the
        // shallower iterations before it, cut, leave another table, so other node counts).
        let mut end = pos;
        while rules.empty(&end).count() > 11 {
            let m = rules.moves(&end).iter().next();
            end = match m {
                Some(m) => rules.play_unchecked(&end, m),
                None => rules.pass(&end),
            };
        }
        let (full, cut) = (search(&end, 12, None), search(&end, 12, sure));
        assert!(full.exact && cut.exact);
        assert_eq!(full.score, cut.score);
    }

    /// A time-limited search near the end solves selectively before it solves exactly: stopped
    /// once an iteration reaches the end, it has a selective value, at a fraction of the exact
    /// solve's nodes; let run, its value is the solver's, even where the end fits are wrong by
    /// ten discs (the selective values in the table do not answer the exact solve).
    #[test]
    fn a_selective_solve_comes_before_the_exact_one() {
        use crate::rules::{Bits, Color, Rules, Shape};
        use crate::search::{Config, Engine, Report};
        use std::time::Duration;
        let rules = Rules::<u64>::new(Shape::STANDARD, Variant::default()).unwrap();
        // A game of the middle legal move each time, to a few more empty cells than are cut.
        let mut pos = rules.start(Color::Black, Color::White);
        while rules.empty(&pos).count() > END_FROM + 3 {
            let moves = rules.moves(&pos);
            pos = match moves.iter().nth(moves.count() as usize / 2) {
                Some(m) => rules.play_unchecked(&pos, m),
                None => rules.pass(&pos),
            };
        }
        let empties = rules.empty(&pos).count();
        let engine = |end_offset: Option<i32>| {
            let mut eval = trusting_8x8(end_offset.unwrap_or(0));
            if end_offset.is_none() {
                let crate::search::Evaluation::Learned(w) = &mut eval else {
                    unreachable!()
                };
                let w = std::sync::Arc::make_mut(&mut w[0]);
                let pc = std::sync::Arc::make_mut(w.probcut.as_mut().unwrap());
                pc.end.clear();
            }
            let config = Config::for_time(Duration::from_secs(600))
                .with_eval(eval)
                .with_probcut(Some(Confidence::DEFAULT));
            Engine::new(rules.clone(), config)
        };
        let until_the_end = |mut e: Engine<u64>| -> Report {
            e.observe(Some(Box::new(move |p: &crate::search::SolveProgress| {
                if p.depth >= empties {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            })));
            e.search(&pos)
        };
        let selective = until_the_end(engine(Some(0)));
        let exact = until_the_end(engine(None));
        assert_eq!((selective.depth, selective.exact), (empties, false));
        assert_eq!((exact.depth, exact.exact), (empties, true));
        assert!(selective.nodes * 2 < exact.nodes, "{selective:?} {exact:?}");
        for end_offset in [0, 1000] {
            let report = engine(Some(end_offset)).search(&pos);
            assert!(report.exact, "{report:?}");
            assert_eq!(report.score, exact.score, "offset {end_offset}");
        }
    }
}
