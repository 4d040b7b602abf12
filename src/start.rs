//! Where a command's game starts: a setup's four discs, or a position string; and the error of a
//! start or move list that gives no position.

use crate::notation::PositionString;
use crate::rules::{Bits, Position, Rules, Setup, Shape, ShapeError, Variant};

/// Where a command's game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The four-disc start of a setup.
    Setup(Setup),
    /// A position string, played under a variant.
    Position(PositionString, Variant),
}

impl Start {
    pub fn shape(&self) -> Shape {
        match self {
            Start::Setup(s) => s.shape,
            Start::Position(p, _) => p.shape(),
        }
    }

    pub fn variant(&self) -> Variant {
        match self {
            Start::Setup(s) => s.variant,
            Start::Position(_, v) => *v,
        }
    }

    /// The same start played under `variant`.
    pub fn with_variant(&self, variant: Variant) -> Start {
        match self {
            Start::Setup(s) => Start::Setup(Setup { variant, ..*s }),
            Start::Position(p, _) => Start::Position(p.clone(), variant),
        }
    }

    /// The rules and the starting position in bit sets of type `B`.
    pub fn rules_and_position<B: Bits>(&self) -> Result<(Rules<B>, Position<B>), ShapeError> {
        Ok(match self {
            Start::Setup(s) => {
                let rules = Rules::<B>::new(s.shape, s.variant)?;
                let position = rules.start(s.first, s.top_left);
                (rules, position)
            }
            Start::Position(p, variant) => (p.rules::<B>(*variant)?, p.position::<B>()),
        })
    }
}

/// A position that cannot be set up from what was given (a bad move list): the command line's
/// fault, not the solver's.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadPosition(pub String);
