//! A solve cut into independent jobs for many machines: `othello solve --split N --work DIR`
//! writes the jobs ([`split()`]), `--job I` solves one ([`run_jobs`]), `--merge` combines the
//! results into the value or writes the next round's jobs ([`merge()`]), `--run-local` does it
//! all here ([`run_local`]).
//!
//! The files: `folder.rs` the work folder's files; `round.rs` writing a round of jobs;
//! `tree.rs` what the results prove of the top of the tree; `outcome.rs` the pass that settles
//! the root; `job.rs` one job or a batch, and the solver kept from job to job; `projection.rs`
//! the estimate of the whole solve's time.

mod folder;
mod job;
mod local;
mod merge;
mod outcome;
mod projection;
mod round;
mod split;
mod tree;

pub use folder::{Folder, Job, JobResult, Plan, Round, Task};
pub use job::{run_jobs, Batch, JobEnd, JobOptions, STATUS_JOB_STOPPED};
pub use local::run_local;
pub use merge::{listed, merge, Merged, Totals, STATUS_MISSING, STATUS_NEXT_ROUND};
pub use projection::estimate;
pub use split::{split, SplitAsked, MAX_SPLIT};
