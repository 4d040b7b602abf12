//! Books changed as wholes, no search needed: one merged into another (`book merge`), and a
//! book cut down to what play from its start can reach (`book prune`).

use super::positions::cells_of;
use super::{add_link, Book, Frame, Leaf, Link, Mismatch};
use crate::rules::{Bits, Rules};
use std::collections::{HashSet, VecDeque};

/// What [`Book::merge`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeReport {
    /// Positions of the other book that this one did not hold.
    pub added: usize,
    /// Positions both held, whose links or leaf changed here.
    pub changed: usize,
}

/// What [`Book::prune`] keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PruneOptions {
    /// Keep only moves within this many discs of their position's best (none: every move).
    pub margin: Option<i32>,
    /// Keep only positions fewer than this many moves from the start (none: all).
    pub plies: Option<u32>,
}

impl Book {
    /// Adds `other`'s positions and moves to this book, as Edax's `book merge` does. A
    /// position both hold gets the links of both; its leaf is the one of the two that is no
    /// link (or the image of one) and rests on the deeper search, the better value where the
    /// levels are equal, this book's where all else is. Where both leaves became links, this
    /// book's stays for `learn` to search again. The negamax is redone. The books must be
    /// for one board, rule set and start.
    pub fn merge(&mut self, other: &Book) -> Result<MergeReport, Mismatch> {
        crate::with_bits!(self.header.shape, |B| {
            match Rules::<B>::new(self.header.shape, self.header.variant) {
                Ok(rules) => self.merge_in(other, &Frame::new(rules)),
                Err(_) => Err(Mismatch::Board {
                    book: other.header.shape,
                    game: self.header.shape,
                }),
            }
        })
    }

    fn merge_in<B: Bits>(
        &mut self,
        other: &Book,
        frame: &Frame<B>,
    ) -> Result<MergeReport, Mismatch> {
        // The other book's board, rules and start against this one's.
        other.check(&frame.rules, &self.start(frame))?;
        let mut report = MergeReport {
            added: 0,
            changed: 0,
        };
        let mut keys: Vec<&[u8]> = other.entries().map(|(k, _)| k).collect();
        keys.sort_unstable();
        for key in keys {
            let theirs = other.entry(key).expect("a key of the book");
            let Some(mine) = self.entry(key).cloned() else {
                self.insert(key.to_vec(), theirs.clone());
                report.added += 1;
                continue;
            };
            for link in &theirs.links {
                add_link(self, frame, key, link.cell);
            }
            let Some(pos) = frame.position(key) else {
                continue;
            };
            let entry = self.entry_mut(key).expect("held above");
            let open = |leaf: Option<Leaf>| frame.open_leaf(&pos, leaf, entry.linked());
            let leaf = match (open(mine.leaf), open(theirs.leaf)) {
                (Some(a), Some(b)) if (b.level, b.value) > (a.level, a.value) => Some(b),
                (Some(a), _) => Some(a),
                (None, Some(b)) => Some(b),
                (None, None) => mine.leaf.or(theirs.leaf),
            };
            entry.leaf = leaf;
            if entry.links.len() != mine.links.len() || entry.leaf != mine.leaf {
                report.changed += 1;
            }
        }
        self.fix_in(frame);
        Ok(report)
    }

    /// Keeps the positions that play from the start reaches through the book's moves within
    /// `options.margin` of the best, fewer than `options.plies` moves deep, and drops the
    /// rest, as Edax's `book prune` does. A position kept whose linked move is dropped keeps
    /// the best such move as its leaf, with its value, so no value changes. Returns how many
    /// positions were dropped.
    pub fn prune(&mut self, options: PruneOptions) -> usize {
        crate::with_bits!(self.header.shape, |B| {
            match Rules::<B>::new(self.header.shape, self.header.variant) {
                Ok(rules) => self.prune_in(options, &Frame::new(rules)),
                Err(_) => 0,
            }
        })
    }

    fn prune_in<B: Bits>(&mut self, options: PruneOptions, frame: &Frame<B>) -> usize {
        let root = frame.canonical(&frame.settle(self.start(frame))).0;
        let mut kept: HashSet<Vec<u8>> = HashSet::new();
        let mut queue = VecDeque::new();
        if self.entry(&root).is_some() {
            kept.insert(root.clone());
            queue.push_back((root, 0u32));
        }
        while let Some((key, ply)) = queue.pop_front() {
            if options.plies.is_some_and(|p| ply + 1 >= p) {
                continue;
            }
            let (Some(entry), Some(pos)) = (self.entry(&key), frame.position(&key)) else {
                continue;
            };
            let near = |value: i16| {
                options
                    .margin
                    .is_none_or(|m| entry.value as i32 - value as i32 <= m)
            };
            for link in entry.links.iter().filter(|l| near(l.value)) {
                let child = frame.canonical(&frame.child(&pos, link.cell as usize).0).0;
                if self.entry(&child).is_some() && kept.insert(child.clone()) {
                    queue.push_back((child, ply + 1));
                }
            }
        }
        // A link to a position dropped becomes the leaf where it is the best move left out,
        // resting on what that position rested on.
        let mut cut: Vec<(Vec<u8>, Vec<Link>, Option<Leaf>)> = Vec::new();
        for key in &kept {
            let (Some(entry), Some(pos)) = (self.entry(key), frame.position(key)) else {
                continue;
            };
            let mut dropped: Vec<Leaf> = Vec::new();
            let links: Vec<Link> = entry
                .links
                .iter()
                .filter(|link| {
                    let child = frame.canonical(&frame.child(&pos, link.cell as usize).0).0;
                    if kept.contains(&child) {
                        return true;
                    }
                    if let Some(held) = self.entry(&child) {
                        dropped.push(Leaf {
                            cell: link.cell,
                            value: link.value,
                            level: held.level,
                        });
                    }
                    false
                })
                .copied()
                .collect();
            if links.len() == entry.links.len() {
                continue;
            }
            let best = dropped
                .into_iter()
                .max_by_key(|l| (l.value, u16::MAX - l.cell));
            let open = frame.open_leaf(&pos, entry.leaf, cells_of(&links));
            let leaf = match (open, best) {
                (Some(l), Some(b)) if b.value > l.value => Some(b),
                (Some(l), _) => Some(l),
                (None, b) => b.or(entry.leaf),
            };
            cut.push((key.clone(), links, leaf));
        }
        let before = self.len();
        self.entries.retain(|key, _| kept.contains(&key[..]));
        for (key, links, leaf) in cut {
            if let Some(entry) = self.entry_mut(&key) {
                (entry.links, entry.leaf) = (links, leaf);
            }
        }
        self.fix_in(frame);
        before - self.len()
    }
}
