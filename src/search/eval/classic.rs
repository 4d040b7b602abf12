//! A static evaluation for any board size and variant, in hundredths of a disc from the side to
//! move's point of view.
//!
//! Terms: mobility, potential mobility (empty cells next to the opponent), corners and the
//! cells next to them, stable discs, discs, and parity near the end. Under misère the terms that
//! count owned discs change sign; freedom to move is worth the same in both games.

use super::choice::Evaluation;
use super::patterns::Indices;
use super::weights::{self, Weights};
use crate::rules::{Bits, Position, RuleSet, Rules, AXES};
use std::sync::Arc;

/// Masks derived from the board shape once, and the learned weights if the board has some.
#[derive(Clone, Debug)]
pub struct Evaluator<B> {
    learned: Option<Arc<Weights>>,
    corners: B,
    /// For each corner: the corner, its diagonal neighbour (X) and its edge neighbours (C).
    corner_regions: Vec<(B, B, B)>,
    /// For each axis of [`AXES`]: the cells at an end of their line along it.
    line_ends: [B; 4],
    /// For each cell, its whole line along each axis of [`AXES`].
    lines: Arc<[[B; 4]]>,
    cells: u32,
}

impl<B: Bits> Evaluator<B> {
    /// The evaluation `chosen` for `rules`.
    pub fn new(rules: &Rules<B>, chosen: &Evaluation) -> Self {
        let g = &rules.geometry;
        Evaluator {
            learned: chosen.weights_for(g.rows(), g.cols(), rules.variant),
            ..Evaluator::classic(rules)
        }
    }

    /// The hand-weighted evaluation.
    pub fn classic(rules: &Rules<B>) -> Self {
        let g = &rules.geometry;
        let (rows, cols) = (g.rows(), g.cols());
        let at = |r: usize, c: usize| B::bit(r * cols + c);
        let mut corners = B::ZERO;
        let mut corner_regions = Vec::new();
        for (r, c, dr, dc) in [
            (0, 0, 1isize, 1isize),
            (0, cols - 1, 1, -1),
            (rows - 1, 0, -1, 1),
            (rows - 1, cols - 1, -1, -1),
        ] {
            let near = |a: usize, d: isize| (a as isize + d) as usize;
            let corner = at(r, c);
            let x = at(near(r, dr), near(c, dc)) & !corner;
            let cs = (at(near(r, dr), c) | at(r, near(c, dc))) & !corner;
            corners |= corner;
            corner_regions.push((corner, x, cs));
        }
        // A cell has a neighbour towards `a` exactly when it is the image of a cell moved
        // towards `b`.
        let line_ends =
            AXES.map(|(a, b)| g.cells() & !(g.shift(a, g.cells()) & g.shift(b, g.cells())));
        let lines = (0..g.cell_count())
            .map(|cell| AXES.map(|axis| spread_along(rules, axis, B::bit(cell))))
            .collect();
        Evaluator {
            learned: None,
            corners,
            corner_regions,
            line_ends,
            lines,
            cells: g.cell_count() as u32,
        }
    }

    /// The selective search's fits for these weights, if they have some.
    pub fn probcut(&self) -> Option<&crate::search::midgame::probcut::ProbCut> {
        self.learned.as_ref()?.probcut.as_deref()
    }

    /// Whether the estimates come from learned weights rather than the classic evaluation.
    pub fn is_learned(&self) -> bool {
        self.learned.is_some()
    }

    pub fn corners(&self) -> B {
        self.corners
    }

    /// A fixed preference for playing on `cell`, on the scale of move ordering where one reply
    /// left to the opponent costs 100: corners high, the cells next to corners low.
    pub fn square_weight(&self, cell: B) -> i32 {
        let mut weight = 0;
        for &(corner, x, c) in &self.corner_regions {
            if !(cell & corner).is_empty() {
                weight += 100;
            } else if !(cell & x).is_empty() {
                weight -= 50;
            } else if !(cell & c).is_empty() {
                weight -= 20;
            }
        }
        weight
    }

    /// Discs of `mine` that no sequence of moves can turn over (a safe under-estimate under
    /// FULL rules, exact under SIMPLE).
    pub fn stable(&self, rules: &Rules<B>, mine: B, empty: B) -> B {
        self.stable_from(rules, mine, empty, B::ZERO)
    }

    /// [`Evaluator::stable`], given some of those discs already (`known`: say, the stable
    /// discs of the same side before it moved, which stay so), so that under FULL rules the
    /// search for them starts there rather than from the corners.
    #[inline]
    pub fn stable_from(&self, rules: &Rules<B>, mine: B, empty: B, known: B) -> B {
        self.stable_with(rules, mine, empty, known, false)
    }

    /// [`Evaluator::stable`], also taking a disc to be safe along any line with no empty cell
    /// on it: more such discs near the end, for the cost of finding those lines. The solver's
    /// bound uses it; the evaluation and the move order keep the cheaper count.
    pub fn stable_near_end(&self, rules: &Rules<B>, mine: B, empty: B) -> B {
        self.stable_with(rules, mine, empty, B::ZERO, true)
    }

    #[inline]
    fn stable_with(&self, rules: &Rules<B>, mine: B, empty: B, known: B, lines: bool) -> B {
        let g = &rules.geometry;
        if rules.variant.rule_set == RuleSet::Simple {
            // Only a disc next to an empty cell can ever be flipped.
            return mine & !g.neighbours(empty);
        }
        if (mine & self.corners).is_empty() {
            // Stability grows from corners only (with full lines an edge can hold some too,
            // but hardly ever where it would cut).
            return B::ZERO;
        }
        let safe = if lines {
            self.safe_along(self.full_lines(g.cells(), empty))
        } else {
            self.line_ends
        };
        let mut stable = known;
        loop {
            let next = self.held(rules, mine, &safe, stable);
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }

    /// How many discs [`Evaluator::stable_near_end`] finds, if at least `need`; perhaps fewer
    /// than all it would find, but never fewer than `need`. Cheaper where the answer is no.
    #[inline(always)]
    pub fn stable_near_end_reaching(
        &self,
        rules: &Rules<B>,
        mine: B,
        empty: B,
        need: u32,
    ) -> Option<u32> {
        if need == 0 {
            return Some(0);
        }
        if mine.count() < need {
            return None;
        }
        if rules.variant.rule_set == RuleSet::Simple || (mine & self.corners).is_empty() {
            let count = self.stable_near_end(rules, mine, empty).count();
            return (count >= need).then_some(count);
        }
        let safe = self.safe_along(self.full_lines(rules.geometry.cells(), empty));
        // The stable discs are held by stable discs only, so fewer than those held by any
        // disc of `mine`: when those are too few, the answer is no at once.
        if self.held(rules, mine, &safe, mine).count() < need {
            return None;
        }
        let mut stable = B::ZERO;
        loop {
            let next = self.held(rules, mine, &safe, stable);
            let count = next.count();
            if count >= need {
                return Some(count);
            }
            if next == stable {
                return None;
            }
            stable = next;
        }
    }

    /// The discs of `mine` safe along every axis given that `stable` are: along an axis, a
    /// disc is safe if it lies in `safe` there (see [`Evaluator::safe_along`]), or if on one
    /// side of it lies a disc of `stable`. One AVX2 kernel for all four axes on one-word
    /// boards, rather than eight shifts.
    #[inline(always)]
    fn held(&self, rules: &Rules<B>, mine: B, safe: &[B; 4], stable: B) -> B {
        mine & rules.geometry.beside_along_every_axis(stable, safe)
    }

    /// For each axis of [`AXES`], the cells where a disc is safe along it whatever lies beside
    /// it: at an end of its line, or on a full line (`full`).
    fn safe_along(&self, mut full: [B; 4]) -> [B; 4] {
        for (full, &ends) in full.iter_mut().zip(&self.line_ends) {
            *full |= ends;
        }
        full
    }

    /// For each axis of [`AXES`], the cells whose whole line along it is filled: no disc there
    /// can be turned along that line, since a move needs an empty cell on it. The lines
    /// through each empty cell, rather than a fill along each axis: the solver asks near the
    /// end, where the empty cells are few.
    #[inline]
    fn full_lines(&self, cells: B, empty: B) -> [B; 4] {
        let mut open = [B::ZERO; 4];
        for cell in empty.iter() {
            for (open, &line) in open.iter_mut().zip(&self.lines[cell]) {
                *open |= line;
            }
        }
        open.map(|open| cells & !open)
    }

    /// [`Evaluator::evaluate_with_moves`] of `after`, the position after a move at `cell`
    /// turning `flips`, for a few additions rather than a whole read when the learned
    /// weights' placements of the position before (read for its opponent) are in `before`.
    /// Where they are not yet, they are got back from this position's own read and left
    /// there for the next move from the same position. Same value either way.
    #[inline]
    pub fn evaluate_after(
        &self,
        rules: &Rules<B>,
        before: &mut Option<Indices>,
        cell: usize,
        flips: B,
        after: &Position<B>,
        moves: [B; 2],
    ) -> i32 {
        let Some(learned) = &self.learned else {
            return self.evaluate_with_mobility(rules, after, moves);
        };
        let set = &learned.set;
        if let Some(before) = before {
            // A copy to play on: cheaper than taking the move back.
            let mut indices = before.clone();
            set.play(&mut indices, cell, flips);
            return learned.evaluate_read(rules, after, moves, &indices);
        }
        let mut indices = Indices::default();
        if !set.read(after, &mut indices) {
            return learned.evaluate_with_mobility(rules, after, moves);
        }
        let score = learned.evaluate_read(rules, after, moves, &indices);
        set.undo(&mut indices, cell, flips);
        *before = Some(indices);
        score
    }

    pub fn evaluate(&self, rules: &Rules<B>, pos: &Position<B>) -> i32 {
        self.evaluate_with_moves(rules, pos, rules.moves(pos))
    }

    /// [`Evaluator::evaluate`], given the moves of the side to move (`rules.moves(pos)`), which
    /// the move ordering has counted already.
    pub fn evaluate_with_moves(&self, rules: &Rules<B>, pos: &Position<B>, moves: B) -> i32 {
        self.evaluate_with_mobility(rules, pos, weights::both_moves(rules, pos, moves))
    }

    /// [`Evaluator::evaluate`], given the moves of both sides, the side to move's first.
    fn evaluate_with_mobility(&self, rules: &Rules<B>, pos: &Position<B>, moves: [B; 2]) -> i32 {
        if let Some(learned) = &self.learned {
            return learned.evaluate_with_mobility(rules, pos, moves);
        }
        let g = &rules.geometry;
        let (me, op) = (pos.mover(), pos.opponent());
        let empty = g.cells() & !(me | op);
        let empties = empty.count();
        // 0 at the start of the game, 64 when the board is full.
        let phase = (64 * (self.cells - empties) / self.cells) as i32;

        let mut freedom = 0;
        if !rules.variant.place_anywhere {
            let [mine, theirs] = moves.map(|moves| moves.count() as i32);
            freedom += 100 * (mine - theirs) * 8 / (mine + theirs + 2);
            freedom += 12 * (mine - theirs);
        }
        let frontier = |discs: B| (g.neighbours(discs) & empty).count() as i32;
        freedom += 10 * (frontier(op) - frontier(me));

        let mut owned = 0;
        for &(corner, x, c) in &self.corner_regions {
            owned += 400 * (diff(me & corner, op & corner));
            if !(corner & empty).is_empty() {
                owned -= 150 * diff(me & x, op & x) + 40 * diff(me & c, op & c);
            }
        }
        owned += 60
            * (self.stable(rules, me, empty).count() as i32
                - self.stable(rules, op, empty).count() as i32);
        owned += (phase * phase / 64 - 8) * diff(me, op) / 4;
        if rules.variant.misere {
            owned = -owned;
        }

        let parity = if empties <= 12 && empties % 2 == 1 {
            30
        } else {
            0
        };
        freedom + owned + parity
    }
}

fn diff<B: Bits>(a: B, b: B) -> i32 {
    a.count() as i32 - b.count() as i32
}

/// `set` and every cell in line with one of its cells along `axis` (a pair of [`AXES`]).
fn spread_along<B: Bits>(rules: &Rules<B>, (a, b): (usize, usize), set: B) -> B {
    let g = &rules.geometry;
    let mut spread = set;
    loop {
        let next = spread | g.shift(a, spread) | g.shift(b, spread);
        if next == spread {
            return spread;
        }
        spread = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::splitmix;
    use crate::rules::Variant;

    #[test]
    fn full_lines_are_those_a_fill_along_each_axis_leaves() {
        let mut seed = 5u64;
        for (rows, cols) in [(3, 3), (8, 8), (5, 7), (4, 9), (3, 21), (7, 9)] {
            let rules: Rules<u64> = rules_for::<u64>(rows, cols, Variant::default());
            let g = &rules.geometry;
            let eval = Evaluator::classic(&rules);
            for _ in 0..50 {
                // A few empty cells, as near the end, or many.
                let mut empty = splitmix(&mut seed) & splitmix(&mut seed) & g.cells();
                if splitmix(&mut seed) & 1 == 0 {
                    empty &= splitmix(&mut seed) & splitmix(&mut seed);
                }
                // The cells in line with no empty cell, by one spread along each axis.
                let filled = AXES.map(|axis| g.cells() & !spread_along(&rules, axis, empty));
                assert_eq!(eval.full_lines(g.cells(), empty), filled, "{rows}x{cols}");
            }
        }
    }

    #[test]
    fn an_estimate_after_a_move_is_the_estimate_read_whole() {
        let mut seed = 23u64;
        for (rows, cols) in [(8, 8), (6, 6), (5, 7), (4, 9), (3, 3)] {
            let rules: Rules<u64> = rules_for::<u64>(rows, cols, Variant::default());
            // Weights with every entry set, so that each placement's index counts.
            let mut weights = Weights::zero(rows, cols, Variant::default(), 3);
            for table in &mut weights.tables {
                table.fill_with(|| (splitmix(&mut seed) % 2001) as i16 - 1000);
            }
            let eval = Evaluator {
                learned: Some(Arc::new(weights)),
                ..Evaluator::classic(&rules)
            };
            for _ in 0..60 {
                let empties = (splitmix(&mut seed) % (rows * cols - 3) as u64) as u32;
                let pos = crate::search::test_support::random_position(&rules, seed, empties);
                // Read from the first move's position, then each move's made and undone in it.
                let mut before = None;
                for m in rules.moves(&pos).iter() {
                    let flips = rules.flips(&pos, m);
                    let after = rules.play_flips(&pos, m, flips);
                    let moves = rules.moves(&after);
                    let both = weights::both_moves(&rules, &after, moves);
                    assert_eq!(
                        eval.evaluate_after(&rules, &mut before, m, flips, &after, both),
                        eval.evaluate_with_moves(&rules, &after, moves),
                        "{rows}x{cols} {pos:?} move {m}"
                    );
                }
            }
        }
    }

    use crate::search::test_support::*;

    #[test]
    fn stable_discs_found_from_those_before_a_move_are_the_same() {
        for variant in [FULL, PLACE_ANYWHERE, SIMPLE] {
            for (rows, cols) in [(4, 4), (3, 7), (5, 6), (8, 8)] {
                let e = engine::<u64>(rows, cols, variant, Config::to_depth(1));
                let (rules, eval) = (&e.rules, &e.eval);
                let mut seen = 0;
                for seed in 0..8 {
                    let cells = rules.geometry.cell_count() as u32;
                    let pos = random_position(rules, seed, cells / 4);
                    let before = eval.stable(rules, pos.mover(), rules.empty(&pos));
                    seen += before.count();
                    for m in rules.moves(&pos).iter() {
                        let child = rules.play_unchecked(&pos, m);
                        let (mine, empty) = (child.opponent(), rules.empty(&child));
                        let fresh = eval.stable(rules, mine, empty);
                        assert_eq!(fresh & before, before, "{rows}x{cols} {variant:?}");
                        assert_eq!(eval.stable_from(rules, mine, empty, before), fresh);
                    }
                }
                // The positions are far enough on to hold stable discs.
                assert!(seen > 0, "{rows}x{cols} {variant:?}");
            }
        }
    }

    #[test]
    fn discs_stable_near_the_end_never_turn() {
        // Random games from positions near the end: no disc counted stable, with the full lines
        // or without, ever changes colour, and the full lines only add discs.
        for variant in [FULL, PLACE_ANYWHERE, SIMPLE] {
            let mut added = 0;
            for (rows, cols) in [(4, 4), (3, 7), (5, 6), (8, 8)] {
                let e = engine::<u64>(rows, cols, variant, Config::to_depth(1));
                let (rules, eval) = (&e.rules, &e.eval);
                let mut found = 0;
                for seed in 0..40 {
                    let cells = rules.geometry.cell_count() as u32;
                    let start = random_position(rules, seed, (cells / 4).min(10));
                    let empty = rules.empty(&start);
                    let black = eval.stable_near_end(rules, start.black, empty);
                    let white = eval.stable_near_end(rules, start.white, empty);
                    for (near_end, discs) in [(black, start.black), (white, start.white)] {
                        let plain = eval.stable(rules, discs, empty);
                        assert_eq!(near_end & plain, plain, "{rows}x{cols} {variant:?}");
                        found += near_end.count();
                        added += (near_end & !plain).count();
                    }
                    let mut rng = seed;
                    for _ in 0..20 {
                        let mut pos = start;
                        while !rules.is_over(&pos) {
                            let moves = rules.moves(&pos);
                            pos = if moves.is_empty() {
                                rules.pass(&pos)
                            } else {
                                rules.play_unchecked(&pos, random_move(moves, &mut rng))
                            };
                            assert_eq!(
                                pos.black & black,
                                black,
                                "{rows}x{cols} {variant:?} {seed}"
                            );
                            assert_eq!(
                                pos.white & white,
                                white,
                                "{rows}x{cols} {variant:?} {seed}"
                            );
                        }
                    }
                }
                assert!(found > 0, "{rows}x{cols} {variant:?}");
            }
            // The full lines find discs the plain count does not (under SIMPLE rules the count
            // is exact already).
            assert_eq!(
                added > 0,
                variant.rule_set != RuleSet::Simple,
                "{variant:?}"
            );
        }
    }

    #[test]
    fn a_count_of_stable_discs_reaching_a_need_agrees_with_the_whole_count() {
        // Yes exactly when the whole count reaches the need, with a count between the two.
        for variant in [FULL, PLACE_ANYWHERE, SIMPLE] {
            for (rows, cols) in [(4, 4), (3, 7), (5, 6), (8, 8)] {
                let e = engine::<u64>(rows, cols, variant, Config::to_depth(1));
                let (rules, eval) = (&e.rules, &e.eval);
                let cells = rules.geometry.cell_count() as u32;
                let mut reached = 0;
                for seed in 0..60 {
                    let pos = random_position(rules, seed, (cells / 4).min(10));
                    let empty = rules.empty(&pos);
                    for discs in [pos.black, pos.white] {
                        let all = eval.stable_near_end(rules, discs, empty).count();
                        for need in 0..=discs.count() + 1 {
                            match eval.stable_near_end_reaching(rules, discs, empty, need) {
                                Some(count) => {
                                    assert!(need <= count && count <= all, "{rows}x{cols} {seed}");
                                    reached += u32::from(need > 0);
                                }
                                None => assert!(all < need, "{rows}x{cols} {variant:?} {seed}"),
                            }
                        }
                    }
                }
                assert!(reached > 0, "{rows}x{cols} {variant:?}");
            }
        }
    }

    /// How far shallow searches miss the exact value near the end of 8x8 games, with the built-in
    /// weights and with the classic evaluation: positions from the engine's own games (12 random
    /// moves, then the engine 3 moves deep) at 12 to 22 empty cells whose exact value lies within
    /// 16 discs, where the solver's windows mostly are. Prints the standard deviation and mean
    /// absolute error in discs per depth (`docs/performance.md` quotes them); summed over
    /// every count and depth, the learned weights must miss by less.
    #[test]
    #[ignore = "solves about 200 positions of 12-22 empty cells, about two minutes in release: cargo test --release --lib -- --ignored"]
    fn learned_estimates_miss_less_than_classic_near_the_end() {
        let config = |eval| Config::to_depth(3).with_hash_mb(64).with_eval(eval);
        let mut learned = engine::<u64>(8, 8, FULL, config(Evaluation::default()));
        let mut classic = engine::<u64>(8, 8, FULL, config(Evaluation::Classic));
        let depths = [0, 2, 4, 6, 8];
        let mut rng = 11u64;
        // Mean absolute errors summed over every count of empty cells and depth: learned, classic.
        let mut totals = [0.0; 2];
        for empties in (12..=22).step_by(2) {
            let mut positions = Vec::new();
            for _ in 0..80 {
                let e = &mut learned;
                let mut pos = e.rules().start(Color::Black, Color::White);
                let mut plies = 0;
                while e.rules().empty(&pos).count() > empties && !e.rules().is_over(&pos) {
                    let moves = e.rules().moves(&pos);
                    if moves.is_empty() {
                        pos = e.rules().pass(&pos);
                        continue;
                    }
                    let m = if plies < 12 {
                        random_move(moves, &mut rng)
                    } else {
                        e.search(&pos).best.unwrap()
                    };
                    pos = e.rules().play_unchecked(&pos, m);
                    plies += 1;
                }
                if e.rules().moves(&pos).is_empty() {
                    continue;
                }
                e.clear();
                let exact = e.solve_exact(&pos, false).score;
                if exact.abs() <= 16 {
                    positions.push((pos, exact));
                }
            }
            let engines = [("learned", &mut learned), ("classic", &mut classic)];
            for (total, (name, e)) in totals.iter_mut().zip(engines) {
                let mut line = format!(
                    "{empties} empty cells, {} positions, {name}:",
                    positions.len()
                );
                for &depth in &depths {
                    let errors: Vec<f64> = positions
                        .iter()
                        .map(|(pos, exact)| {
                            e.clear();
                            e.begin(Instant::now(), None);
                            let key = e.zobrist.key(pos);
                            let v = e.pvs(pos, key, depth, -Score::INFINITY, Score::INFINITY, 0);
                            *exact as f64 - v.to_hundredths() as f64 / DISC as f64
                        })
                        .collect();
                    let n = errors.len() as f64;
                    let mean = errors.iter().sum::<f64>() / n;
                    let sd = (errors.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
                    let mae = errors.iter().map(|x| x.abs()).sum::<f64>() / n;
                    line += &format!("  depth {depth} sd {sd:.1} mae {mae:.1}");
                    *total += mae;
                }
                println!("{line}");
            }
        }
        assert!(
            totals[0] < totals[1],
            "learned weights miss by {:.1} in all, the classic evaluation by {:.1}",
            totals[0],
            totals[1]
        );
    }
}
