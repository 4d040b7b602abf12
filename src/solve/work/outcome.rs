//! One pass over the tree of a split solve: what it settles once every job it needs is in.

use super::tree::{Test, Tree};
use crate::rules::{Bits, Position};
use crate::search::RootMoves;

/// What one pass over the tree settles: the value, the moves proved and a line, or `None`
/// while jobs are needed (the tree holds what they are).
pub(super) struct Settled {
    pub(super) value: i32,
    pub(super) moves: Vec<(usize, i32)>,
    pub(super) line: Vec<Option<usize>>,
}

pub(super) fn pass<B: Bits>(
    tree: &mut Tree<B>,
    root: &Position<B>,
    which: RootMoves,
) -> anyhow::Result<Option<Settled>> {
    tree.forget();
    let Some(value) = tree.settle(root)? else {
        return Ok(None);
    };
    tree.prepare_lines(root);
    let mut moves = Vec::new();
    let mut waiting = false;
    if !tree.rules.is_over(root) {
        for m in tree.rules.moves(root).iter() {
            let child = tree.rules.play_unchecked(root, m);
            if which == RootMoves::All {
                match tree.settle(&child)? {
                    Some(v) => moves.push((m, -v)),
                    None => waiting = true,
                }
                continue;
            }
            match tree.decide(&child, Test::AtMost(-value)) {
                Some((_, high)) if high <= -value => moves.push((m, value)),
                Some(_) => {}
                None => waiting = true,
            }
        }
    }
    let line = tree.line(root, value)?;
    match (waiting, line) {
        (false, Some(line)) => Ok(Some(Settled { value, moves, line })),
        _ => Ok(None),
    }
}
