//! How the searches order their moves: the table's move first, then by weights the rules pick.

use crate::rules::{Bits, Flips, KernelWork, Position, RuleSet};
use crate::search::engine::Engine;
use crate::search::moves::{unordered, Candidate};
use crate::search::score::{DISC, INFINITY};

/// How far [`Engine::order`] looks at each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::search) enum OrderingKind {
    /// The square weights and the opponent's replies after the move.
    Replies,
    /// For midgame nodes [`ESTIMATE_DEPTH`] or more from the horizon: also the static
    /// estimate of the position after the move.
    Estimate,
    /// For the exact solver: also the discs it makes safe, where that pays.
    Solve,
}

/// What [`Engine::order`] counts for a move (see [`Engine::order_weights`]): the square's
/// weight or not, and per reply, per empty cell next to the mover's discs (taken from the
/// weight), per safe disc of the mover's and per disc the move turns (added), per disc of
/// the move's value were any empty cell a move (added, where the solve has valued the sets of
/// its empty cells), and per disc of the static estimate of the position after the move (for
/// the opponent: taken, from [`ESTIMATE_FROM`] empty cells on).
#[derive(Clone, Copy, Debug)]
pub(in crate::search) struct OrderWeights {
    squares: bool,
    replies: i32,
    exposed: i32,
    safe_discs: i32,
    flipped: i32,
    anywhere_value: i32,
    estimate: i32,
    /// For a move into a quarter of the board that holds an odd number of empty cells (an
    /// even number under misère), as the shallow solver orders its moves.
    parity: i32,
}

/// From this many empty cells on, the solver's order weighs the static estimate of each
/// move's position where [`Engine::order_weights`] asks for it: nearer the end an estimate
/// per move costs about what the nodes it saves do.
pub(in crate::search) const ESTIMATE_FROM: u32 = 12;

/// From this many moves from the horizon on, the midgame search orders its moves by the static
/// estimate after each as well ([`OrderingKind::Estimate`]): an estimate a move costs little
/// beside the subtree it orders, and at 12 moves deep it saves about a tenth of the nodes
/// (docs/performance.md, "Move order in the midgame"); from 3 it saves a few more nodes but
/// reads an estimate at many more of them.
pub(in crate::search) const ESTIMATE_DEPTH: i32 = 4;

/// [`Engine::weigh`] before the sort, as work for the rules' kernel.
pub(in crate::search) struct Weighing<'a, B> {
    engine: &'a Engine<B>,
    pos: &'a Position<B>,
    move_count: u32,
    look: OrderingKind,
    list: &'a mut [Candidate<B>],
}

impl<B: Bits> KernelWork<B> for Weighing<'_, B> {
    type Output = ();

    #[inline(always)]
    fn work<F: Flips<B>>(self, kernel: F) {
        let Weighing {
            engine,
            pos,
            move_count,
            look,
            list,
        } = self;
        engine.weigh_with(kernel, pos, move_count, look, list);
    }
}

impl<B: Bits> Engine<B> {
    /// Fills `list` with `moves`, most promising first: the table's move, then corners and moves
    /// that leave the opponent few replies (see [`Engine::order_weights`]).
    pub(in crate::search) fn order(
        &self,
        pos: &Position<B>,
        moves: B,
        table_move: Option<usize>,
        look: OrderingKind,
        list: &mut Vec<Candidate<B>>,
    ) {
        self.list_moves(moves, table_move, list);
        self.weigh(pos, moves.count(), look, unordered(list));
    }

    /// Fills `list` with `moves` unweighed, the table's move first (weighed above every other
    /// move), so that weighing the others ([`Engine::weigh`]) can wait until that move has been
    /// searched (see [`Engine::best_of`]).
    pub(in crate::search) fn list_moves(
        &self,
        moves: B,
        table_move: Option<usize>,
        list: &mut Vec<Candidate<B>>,
    ) {
        self.list_in_groups(moves, table_move, &[moves], list);
    }

    /// [`Engine::list_moves`] with the moves after the table's in the order of their square
    /// weights alone, as a stable sort by them would leave the list (by cell among equals).
    pub(in crate::search) fn list_by_square(
        &self,
        moves: B,
        table_move: Option<usize>,
        list: &mut Vec<Candidate<B>>,
    ) {
        self.list_in_groups(moves, table_move, &self.square_order, list);
    }

    /// Fills `list` with `moves`: the table's move first (weighed above every other move),
    /// then the others group by group of `groups`, by cell within each, with their square
    /// weights.
    pub(in crate::search) fn list_in_groups(
        &self,
        moves: B,
        table_move: Option<usize>,
        groups: &[B],
        list: &mut Vec<Candidate<B>>,
    ) {
        list.clear();
        let first = table_move.filter(|&m| moves.contains(m));
        list.extend(first.map(|cell| Candidate {
            cell,
            flips: None,
            weight: INFINITY,
        }));
        let rest = first.map_or(moves, |m| moves & !B::bit(m));
        for &group in groups {
            list.extend((rest & group).iter().map(|cell| Candidate {
                cell,
                flips: None,
                weight: self.square_weight[cell],
            }));
        }
    }

    /// Weighs the moves of `list` as [`Engine::order`] does and sorts them, best first;
    /// `move_count` is how many moves the position has in all.
    pub(in crate::search) fn weigh(
        &self,
        pos: &Position<B>,
        move_count: u32,
        look: OrderingKind,
        list: &mut [Candidate<B>],
    ) {
        self.rules.in_kernel(Weighing {
            engine: self,
            pos,
            move_count,
            look,
            list: &mut *list,
        });
        list.sort_unstable_by_key(|c| std::cmp::Reverse(c.weight));
    }

    /// [`Engine::weigh`] before the sort, with the rules' kernel `kernel`, run through it so
    /// that the moves and flips it finds for each move are found inline.
    #[inline(always)]
    pub(in crate::search) fn weigh_with<F: Flips<B>>(
        &self,
        kernel: F,
        pos: &Position<B>,
        move_count: u32,
        look: OrderingKind,
        list: &mut [Candidate<B>],
    ) {
        // Counting replies costs a move generation per move: worth it on small move lists.
        let look_ahead = move_count <= 48;
        let empties = self.rules.empty(pos).count();
        let w = self.order_weights(look, empties);
        let weigh_estimate = w.estimate != 0 && empties >= ESTIMATE_FROM;
        // The placements of `pos` read for the opponent, once the first move is weighed.
        let mut before = None;
        let first_quarters = if w.parity != 0 {
            self.parity_quarters(self.rules.empty(pos))
        } else {
            0
        };
        // The mover's stable discs stay stable after any of its moves: each move's count
        // starts from them.
        let safe_now = if w.safe_discs != 0 && look_ahead {
            self.eval
                .stable(&self.rules, pos.mover(), self.rules.empty(pos))
        } else {
            B::ZERO
        };
        for c in list.iter_mut() {
            let m = c.cell;
            let mut score = if w.squares { self.square_weight[m] } else { 0 };
            if first_quarters & 1 << self.quarter_of[m] != 0 {
                score += w.parity;
            }
            if look_ahead {
                let turned = c
                    .flips
                    .unwrap_or_else(|| kernel.flips(m, pos.mover(), pos.opponent()));
                c.flips = Some(turned);
                let child = self.rules.play_flips(pos, m, turned);
                let replies = self.rules.moves_by(kernel, child.mover(), child.opponent());
                let corner_replies = (replies & self.eval.corners()).count() as i32;
                let empty = self.rules.empty(&child);
                score -= w.replies * replies.count() as i32 + 200 * corner_replies;
                if w.exposed != 0 {
                    // Empty cells next to the mover's discs: the opponent's future replies.
                    let exposed = self.rules.geometry.neighbours(child.opponent()) & empty;
                    score -= w.exposed * exposed.count() as i32;
                }
                score += w.flipped * turned.count() as i32;
                if w.safe_discs != 0 {
                    let safe =
                        self.eval
                            .stable_from(&self.rules, child.opponent(), empty, safe_now);
                    score += w.safe_discs * safe.count() as i32;
                }
                if weigh_estimate {
                    // The mover's moves again after its move, for the estimate's mobility.
                    let again = self.rules.moves_by(kernel, child.opponent(), child.mover());
                    let estimate = self.eval.evaluate_after(
                        &self.rules,
                        &mut before,
                        m,
                        turned,
                        &child,
                        [replies, again],
                    );
                    score -= w.estimate * estimate / DISC;
                }
                if let (true, Some(subsets)) = (w.anywhere_value != 0, &self.solver.subsets) {
                    if let Some(value) = subsets.value(&self.rules, &child, empty) {
                        score -= w.anywhere_value * value;
                    }
                }
            }
            c.weight = score;
        }
    }

    /// The weights of [`Engine::order`] for `look` under these rules. The midgame search uses
    /// one set everywhere, with the static estimate at 50 a disc from [`ESTIMATE_DEPTH`] on.
    /// The exact solver ([`OrderingKind::Solve`]) changes it where the rules make a term tell
    /// little: safe discs count where stability is cheap to know (SIMPLE rules,
    /// place-anywhere) and against the mover under misère; replies weigh more under SIMPLE
    /// misère and near the end, where no estimate is weighed; place-anywhere drops the square
    /// weights and exposed cells (any empty cell is a reply there); the static estimate
    /// counts where the evaluation foresees well; and near the end under FULL rules a move
    /// into a quarter the parity order tries first gets a bonus.
    pub(in crate::search) fn order_weights(
        &self,
        look: OrderingKind,
        empties: u32,
    ) -> OrderWeights {
        let usual = OrderWeights {
            squares: true,
            replies: 100,
            exposed: 20,
            safe_discs: 0,
            flipped: 0,
            anywhere_value: 0,
            estimate: 0,
            parity: 0,
        };
        let variant = &self.rules.variant;
        if look != OrderingKind::Solve {
            return OrderWeights {
                exposed: 40,
                flipped: -20,
                estimate: if look == OrderingKind::Estimate {
                    50
                } else {
                    0
                },
                ..usual
            };
        }
        let near_end = empties < ESTIMATE_FROM;
        if variant.rule_set == RuleSet::Full && !variant.place_anywhere {
            return OrderWeights {
                replies: if near_end { 300 } else { 100 },
                flipped: -20,
                estimate: 30,
                parity: if near_end { 100 } else { 0 },
                ..usual
            };
        }
        let sign = if variant.misere { -1 } else { 1 };
        let solve = OrderWeights {
            safe_discs: 400 * sign,
            ..usual
        };
        if variant.place_anywhere {
            let full_misere = variant.misere && variant.rule_set == RuleSet::Full;
            OrderWeights {
                squares: false,
                exposed: 0,
                flipped: if full_misere { -50 } else { 0 },
                estimate: if full_misere { 20 } else { 0 },
                ..solve
            }
        } else if variant.misere {
            OrderWeights {
                replies: if near_end { 600 } else { 200 },
                exposed: 80,
                flipped: -300,
                estimate: if self.eval.is_learned() { 60 } else { 0 },
                ..solve
            }
        } else {
            OrderWeights {
                anywhere_value: 200,
                ..solve
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    /// Listing near the horizon in square order is the stable sort of the plain list by square
    /// weight, with the table's move kept first: the order the search had before it listed so.
    #[test]
    fn moves_listed_by_square_are_the_plain_list_sorted_by_square() {
        let mut seed = 41u64;
        for (rows, cols, variant) in [
            (8, 8, FULL),
            (6, 6, FULL),
            (3, 3, FULL),
            (5, 7, SIMPLE),
            (4, 9, PLACE_ANYWHERE),
        ] {
            let e = engine::<u64>(rows, cols, variant, Config::to_depth(1));
            for _ in 0..60 {
                let empties = (splitmix(&mut seed) % (rows * cols - 3) as u64) as u32;
                let pos = random_position(e.rules(), splitmix(&mut seed), empties);
                let moves = e.rules().moves(&pos);
                let table_move = moves.iter().nth(splitmix(&mut seed) as usize % 4);
                let (mut listed, mut sorted) = (Vec::new(), Vec::new());
                e.list_by_square(moves, table_move, &mut listed);
                e.list_moves(moves, table_move, &mut sorted);
                let first = usize::from(table_move.is_some());
                sorted[first..].sort_by_key(|c| std::cmp::Reverse(e.square_weight[c.cell]));
                let cells =
                    |list: &[Candidate<u64>]| list.iter().map(|c| c.cell).collect::<Vec<_>>();
                assert_eq!(cells(&listed), cells(&sorted), "{rows}x{cols} {pos:?}");
            }
        }
    }
}
