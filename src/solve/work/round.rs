//! Writing a round of jobs, as the split writes round 1 and a merge the next: each job's line,
//! the name of its journal, and the estimates that order the lines, marked with the evaluation
//! they came from.

use super::folder::{Job, Round, Task};
use super::tree::Tree;
use crate::notation::PositionString;
use crate::rules::{Bits, Position, Rules};
use crate::search::weights::fnv1a;
use crate::search::Evaluation;

/// A name for the journal of `pos` and its images: the hash of its text.
pub(super) fn journal_name(text: &str) -> String {
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// What the estimates of a merge under `rules` depend on, in a word or two: the learned weights
/// the evaluation takes on this board (by their hash), else its classic terms.
pub(super) fn evaluation_mark<B: Bits>(eval: &Evaluation, rules: &Rules<B>) -> String {
    let g = &rules.geometry;
    match eval.weights_for(g.rows(), g.cols(), rules.variant) {
        Some(w) => format!("weights {:016x}", fnv1a(&w.to_bytes())),
        None => "classic".to_string(),
    }
}

/// `estimates` as an estimates file holds them: (depth, estimate, position).
pub(super) fn estimate_entries<B: Bits>(
    g: &crate::rules::Geometry<B>,
    estimates: &super::tree::Estimates<B>,
) -> Vec<(u32, i32, PositionString)> {
    estimates
        .iter()
        .map(|(&(pos, depth), &e)| (depth, e, PositionString::from_position(g, &pos)))
        .collect()
}

/// Round `number` of the jobs `wants` and `lines` ask for.
pub(super) fn round_of<B: Bits>(
    tree: &Tree<B>,
    number: u32,
    wants: &[super::tree::Want<B>],
    lines: &[(Position<B>, i32)],
) -> Round {
    let g = &tree.rules.geometry;
    let name = |pos: &Position<B>| {
        journal_name(&PositionString::from_position(g, &tree.canonical(pos)).to_string())
    };
    let mut jobs: Vec<Job> = wants
        .iter()
        .map(|w| Job {
            task: Task::Window {
                alpha: w.alpha,
                beta: w.beta,
            },
            estimate: w.estimate,
            journal: name(&w.position),
            position: PositionString::from_position(g, &w.position),
        })
        .collect();
    jobs.extend(lines.iter().map(|(pos, value)| Job {
        task: Task::Line { value: *value },
        estimate: *value,
        journal: name(pos),
        position: PositionString::from_position(g, pos),
    }));
    Round { number, jobs }
}
