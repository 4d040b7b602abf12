//! The midgame search: iterative deepening, principal-variation search and its move order.

mod ordering;
pub mod probcut;
mod search;
mod valued;

pub(super) use ordering::OrderingKind;
pub(super) use search::Prediction;
pub use search::Report;
pub use valued::{Horizon, ValuedMove};
