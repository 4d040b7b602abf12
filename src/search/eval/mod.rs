//! The static evaluation: the classic hand-weighted terms, or learned pattern weights where the
//! board has some. Which one a search uses is its configuration's [`Evaluation`], and nothing
//! else: there is no switch elsewhere.

mod choice;
mod classic;
pub mod patterns;
pub mod weights;

pub use choice::Evaluation;
pub use classic::Evaluator;
