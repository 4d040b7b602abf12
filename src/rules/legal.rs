//! What a position allows under one shape and variant: legal moves, flips, passes, the end and
//! the winner, answered without checking.

use super::bits::Bits;
use super::color::{Color, Winner};
use super::geometry::Geometry;
use super::position::{Move, Position};
use super::shape::{Shape, ShapeError};
use super::variant::{RuleSet, Variant};

/// The shape and variant of a game: everything that decides what a position allows.
#[derive(Clone, Debug)]
pub struct Rules<B> {
    pub geometry: Geometry<B>,
    pub variant: Variant,
}

impl<B: Bits> Rules<B> {
    /// The rules of `variant` on a board of `shape`, if the board fits in `B`.
    pub fn new(shape: Shape, variant: Variant) -> Result<Self, ShapeError> {
        Ok(Rules {
            geometry: Geometry::new(shape)?,
            variant,
        })
    }

    pub fn shape(&self) -> Shape {
        self.geometry.shape()
    }

    /// The four-disc start: the 2x2 block at row `rows/2 - 1`, column `cols/2 - 1`, with
    /// `top_left` on its top-left and bottom-right cells.
    pub fn start(&self, first: Color, top_left: Color) -> Position<B> {
        let g = &self.geometry;
        let (r, c) = (g.rows() / 2 - 1, g.cols() / 2 - 1);
        let at = |dr: usize, dc: usize| B::bit((r + dr) * g.cols() + c + dc);
        let diagonal = at(0, 0) | at(1, 1);
        let anti = at(0, 1) | at(1, 0);
        let (black, white) = match top_left {
            Color::Black => (diagonal, anti),
            Color::White => (anti, diagonal),
        };
        Position {
            black,
            white,
            to_move: first,
        }
    }

    pub fn empty(&self, pos: &Position<B>) -> B {
        self.geometry.cells() & !pos.occupied()
    }

    /// Every legal move of the side to move (never a pass).
    #[inline]
    pub fn moves(&self, pos: &Position<B>) -> B {
        self.moves_for(pos.mover(), pos.opponent())
    }

    /// The legal moves of the player owning `mine` against `theirs`.
    #[inline]
    pub fn moves_for(&self, mine: B, theirs: B) -> B {
        let g = &self.geometry;
        let empty = g.cells() & !(mine | theirs);
        if self.variant.place_anywhere {
            return empty;
        }
        match self.variant.rule_set {
            RuleSet::Full => g.flanking_moves(mine, theirs),
            RuleSet::Simple => g.neighbours(theirs) & empty,
        }
    }

    /// The discs a disc of the side to move on `index` would flip. Legality is not checked.
    #[inline]
    pub fn flips(&self, pos: &Position<B>, index: usize) -> B {
        self.flips_for(index, pos.mover(), pos.opponent())
    }

    /// The discs of `theirs` that a disc of the player owning `mine` on `index` would flip.
    #[inline]
    pub fn flips_for(&self, index: usize, mine: B, theirs: B) -> B {
        let g = &self.geometry;
        match self.variant.rule_set {
            RuleSet::Full => g.flanked(index, mine, theirs),
            RuleSet::Simple => g.adjacent(index) & theirs,
        }
    }

    pub fn is_legal(&self, pos: &Position<B>, index: usize) -> bool {
        index < self.geometry.cell_count() && self.moves(pos).contains(index)
    }

    /// Place a disc for the side to move on `index`, flip, and hand the turn over. The move is
    /// not checked, and a following pass is not made: that is for the caller.
    #[inline]
    pub fn play_unchecked(&self, pos: &Position<B>, index: usize) -> Position<B> {
        let flips = self.flips(pos, index);
        self.play_flips(pos, index, flips)
    }

    /// As [`Rules::play_unchecked`], with the flips already known.
    #[inline]
    pub fn play_flips(&self, pos: &Position<B>, index: usize, flips: B) -> Position<B> {
        let placed = B::bit(index) | flips;
        let (black, white) = match pos.to_move {
            Color::Black => (pos.black | placed, pos.white & !flips),
            Color::White => (pos.black & !flips, pos.white | placed),
        };
        Position {
            black,
            white,
            to_move: pos.to_move.opposite(),
        }
    }

    /// The same discs with the other side to move.
    pub fn pass(&self, pos: &Position<B>) -> Position<B> {
        Position {
            to_move: pos.to_move.opposite(),
            ..*pos
        }
    }

    /// `cells`, a line played from `pos` as searches keep it (passes left out), as moves with
    /// the passes the game makes between them; it stops at a cell no side may play.
    pub fn line(&self, pos: &Position<B>, cells: &[usize]) -> Vec<Move> {
        let mut moves = Vec::with_capacity(cells.len());
        let mut at = *pos;
        for &cell in cells {
            if self.moves(&at).is_empty() && !self.is_over(&at) {
                moves.push(Move::Pass);
                at = self.pass(&at);
            }
            if !self.is_legal(&at, cell) {
                if moves.last() == Some(&Move::Pass) {
                    moves.pop();
                }
                break;
            }
            moves.push(Move::Play(self.geometry.square(cell)));
            at = self.play_unchecked(&at, cell);
        }
        moves
    }

    /// `pos` with the turn passed where its side to move has no move and the game goes on.
    pub fn settle(&self, pos: &Position<B>) -> Position<B> {
        if self.moves(pos).is_empty() && !self.is_over(pos) {
            self.pass(pos)
        } else {
            *pos
        }
    }

    /// Whether neither side can move (under place-anywhere: whether the board is full).
    pub fn is_over(&self, pos: &Position<B>) -> bool {
        if self.variant.place_anywhere {
            return self.empty(pos).is_empty();
        }
        self.moves(pos).is_empty() && self.moves_for(pos.opponent(), pos.mover()).is_empty()
    }

    /// How far `color` is ahead by the goal of the variant: its discs less the opponent's, or
    /// the reverse under misère. Empty cells are not counted. Final once [`Rules::is_over`].
    pub fn margin(&self, pos: &Position<B>, color: Color) -> i32 {
        let (b, w) = pos.score();
        let black_ahead = b as i32 - w as i32;
        let ahead = if color == Color::Black {
            black_ahead
        } else {
            -black_ahead
        };
        if self.variant.misere {
            -ahead
        } else {
            ahead
        }
    }

    /// The winner by disc count, more discs winning (fewer under misère). Meaningful once
    /// [`Rules::is_over`].
    pub fn winner(&self, pos: &Position<B>) -> Winner {
        match self.margin(pos, Color::Black).cmp(&0) {
            std::cmp::Ordering::Greater => Winner::Black,
            std::cmp::Ordering::Less => Winner::White,
            std::cmp::Ordering::Equal => Winner::Tie,
        }
    }
}
