//! Where the solver's tools take over, in empty cells, under each rule set: the keys that the
//! solver's node, its root and the shallow solver all read.

use crate::rules::{RuleSet, Variant};

/// From this many empty cells on, the solver orders moves by a search of each, [`SORT_DEPTH`]
/// moves deep: far from the end a better order saves more nodes than the searches cost. Under
/// FULL rules only: under SIMPLE rules the evaluation foresees too little, and the static
/// order does better.
pub(super) const SORT_BY_SEARCH: u32 = 20;

pub(super) const SORT_DEPTH: i32 = 4;

/// From this many empty cells on, the sort by search looks [`DEEPER_SORT_DEPTH`] moves deep
/// instead of [`SORT_DEPTH`]: the larger the subtree, the more a better first move saves.
pub(super) const DEEPER_SORT_FROM: u32 = 22;

pub(super) const DEEPER_SORT_DEPTH: i32 = 6;

/// Where the solver sorts by search, its root orders the moves by searches 1 to this many
/// moves deep, and the first is solved in a narrow window around its estimate. Deeper pays
/// on one thread but not on many: the main thread sorts the root alone before the others
/// start.
pub(super) const ROOT_SORT_DEPTH: i32 = 8;

/// The most empty cells of a node that sorts its moves (see `Shallow::sorted_moves`): the
/// most the shallow solver takes (under FULL rules, checked where the reaches are set), since
/// the list is filled at every such node.
pub(super) const SORTED_MAX: u32 = 9;

/// Where the solver's tools take over, in empty cells. They pay sooner where a move is cheap
/// to find and the same position is reached by many orders of moves.
pub(super) struct Thresholds {
    /// Up to this many, the solver skips the table and the weighed move list (see `shallow`):
    /// they cost more than they save so near the end.
    pub(super) shallow: u32,
    /// Whether, and from how many on, the shallow solver sorts a node's moves.
    pub(super) sorted: Option<ShallowSort>,
    /// From this many on, the solver looks for a cut-off in the table entries of the positions
    /// after each move before searching any (enhanced transposition cut-off); from
    /// `shallow + 2` at the least, since only positions above `shallow` are stored.
    pub(super) transposition_cuts: u32,
    /// From how many on, if at all, the shallow solver looks for a cut-off from the discs that
    /// can never change colour, as the solver does above it (see [`Engine::stability_cut`](crate::search::Engine::stability_cut)).
    pub(super) shallow_stability: Option<u32>,
}

/// The shallow solver's sort (see `shallow`): a node of `from` empty cells or more (and no
/// more than `Thresholds::shallow`) tries its moves in the order `by` gives, fewest first.
#[derive(Clone, Copy)]
pub(super) struct ShallowSort {
    pub(super) from: u32,
    pub(super) by: SortKey,
}

/// What the shallow sort weighs each move by.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SortKey {
    /// The opponent's replies after the move, a corner counting twice.
    Replies,
    /// The discs the move turns (cheap under SIMPLE rules, where flips are one mask).
    Flips,
}

/// FULL rules: the shallow solver up to 9 empty cells, sorting by replies from 7, and the
/// stability cut-off in it from 6; transposition cut-offs from 12, where a probe of every
/// child costs less than the nodes it saves.
const FULL_THRESHOLDS: Thresholds = Thresholds {
    shallow: 9,
    sorted: Some(ShallowSort {
        from: 7,
        by: SortKey::Replies,
    }),
    transposition_cuts: 12,
    shallow_stability: Some(6),
};

/// SIMPLE rules, whose flips are one mask, so moves are cheap and the table pays sooner: the
/// shallow solver up to 7 empty cells, cut-offs from the table from 9, the stability
/// cut-off in the shallow solver from 5.
const SIMPLE_THRESHOLDS: Thresholds = Thresholds {
    shallow: 7,
    sorted: None,
    transposition_cuts: 9,
    shallow_stability: Some(5),
};

/// SIMPLE misère: as [`SIMPLE_THRESHOLDS`], the shallow solver sorting at 7 cells, the moves that
/// turn the fewest discs first, as the solver's order does above it. No stability cut-off
/// there: the side to move's own discs count against it, and they are seldom few enough.
const SIMPLE_MISERE_THRESHOLDS: Thresholds = Thresholds {
    sorted: Some(ShallowSort {
        from: 7,
        by: SortKey::Flips,
    }),
    shallow_stability: None,
    ..SIMPLE_THRESHOLDS
};

/// Whether the shallow sort's list holds the moves of every node the thresholds sort.
const fn sort_fits(thresholds: &Thresholds) -> bool {
    thresholds.sorted.is_none() || thresholds.shallow <= SORTED_MAX
}

const _: () = assert!(
    sort_fits(&FULL_THRESHOLDS)
        && sort_fits(&SIMPLE_THRESHOLDS)
        && sort_fits(&SIMPLE_MISERE_THRESHOLDS)
        && sort_fits(&ANYWHERE_THRESHOLDS)
);

/// Place-anywhere, where every empty cell is a move and transpositions abound: the shallow
/// solver up to 5 cells and cut-offs from the table from 7. A stability cut-off saved nodes
/// but no time there, so none.
const ANYWHERE_THRESHOLDS: Thresholds = Thresholds {
    shallow: 5,
    sorted: None,
    transposition_cuts: 7,
    shallow_stability: None,
};

/// Up to this many empty cells, the solver keeps a position in the table's near-the-end part
/// (see [`Table`](crate::search::Table)), so that the many small entries there do not push
/// out the costlier ones above.
pub(super) const NEAR_END: u32 = 13;

/// From this many empty cells on, threads that meet in a position share out its moves: after
/// the first move, a move whose position another thread is searching is left for later.
pub(super) const SPLIT: u32 = 12;

/// From this many empty cells on, a SIMPLE position shares its table entry with its images
/// under the board's symmetries (see [`Engine::place`](crate::search::Engine::place)).
pub(super) const SYMMETRIC_FROM: u32 = 12;

/// Where the solver's tools take over under `variant`.
pub(super) fn thresholds(variant: &Variant) -> &'static Thresholds {
    if variant.place_anywhere {
        &ANYWHERE_THRESHOLDS
    } else if variant.rule_set == RuleSet::Simple {
        if variant.misere {
            &SIMPLE_MISERE_THRESHOLDS
        } else {
            &SIMPLE_THRESHOLDS
        }
    } else {
        &FULL_THRESHOLDS
    }
}

/// Whether a position with `empties` empty cells has its moves sorted by search.
pub(super) fn sorts_by_search(variant: &Variant, empties: u32) -> bool {
    empties >= SORT_BY_SEARCH && variant.rule_set == RuleSet::Full
}
