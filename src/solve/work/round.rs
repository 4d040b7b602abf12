//! Writing a round of jobs, as the split writes round 1 and a merge the next: each job's line,
//! the name of its journal, and the estimates that order the lines, marked with the evaluation
//! they came from.

use super::folder::{Job, Round, Task};
use super::tree::{Tree, Want};
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
    wants: &[Want<B>],
    lines: &[(Position<B>, i32)],
) -> Round {
    let mut jobs: Vec<Job> = wants.iter().map(|w| window_job(tree, w)).collect();
    jobs.extend(lines.iter().map(|(pos, value)| line_job(tree, pos, *value)));
    Round { number, jobs }
}

/// The job a want asks for: its position's value within its window.
pub(super) fn window_job<B: Bits>(tree: &Tree<B>, want: &Want<B>) -> Job {
    Job {
        task: Task::Window {
            alpha: want.alpha,
            beta: want.beta,
        },
        estimate: want.estimate,
        journal: journal_of(tree, &want.position),
        position: PositionString::from_position(&tree.rules.geometry, &want.position),
    }
}

/// The job of a line of perfect play from `pos`, whose value is `value`.
pub(super) fn line_job<B: Bits>(tree: &Tree<B>, pos: &Position<B>, value: i32) -> Job {
    Job {
        task: Task::Line { value },
        estimate: value,
        journal: journal_of(tree, pos),
        position: PositionString::from_position(&tree.rules.geometry, pos),
    }
}

/// The journal of `pos` and its images.
fn journal_of<B: Bits>(tree: &Tree<B>, pos: &Position<B>) -> String {
    let g = &tree.rules.geometry;
    journal_name(&PositionString::from_position(g, &tree.canonical(pos)).to_string())
}
