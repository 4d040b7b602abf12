//! The static evaluation: the classic hand-weighted terms, or learned pattern weights where the
//! board has some.

mod classic;
pub mod patterns;
pub mod weights;

pub use classic::{EvalKind, Evaluator};
