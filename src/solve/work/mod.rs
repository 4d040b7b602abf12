//! A solve cut into independent jobs for many machines: `othello solve --split N --work DIR`
//! writes the jobs ([`split()`]); then either a coordinator hands them to workers as the solve
//! needs them, in one run ([`coordinate`]; `--run-local` with threads, [`run_local`]), or job
//! arrays run them round by round: `--job I` solves one ([`run_jobs`]), `--merge` combines the
//! results into the value or writes the next round's jobs ([`merge()`]).
//!
//! The files: `folder.rs` the work folder's files; `round.rs` writing a round of jobs;
//! `tree.rs` what the results prove of the top of the tree; `outcome.rs` the pass that settles
//! the root; `job.rs` one job or a batch, and the solver kept from job to job;
//! `coordinator.rs` the one long run, `messages.rs` what it and its workers say, and
//! `local.rs` its worker threads, `ranks.rs` its MPI ranks (with the cargo feature `mpi`); `record.rs` the
//! record of such a run, and `span.rs` what it says of the solve's parallelism;
//! `projection.rs` the estimate of the whole solve's time.

mod coordinator;
mod folder;
mod job;
mod local;
mod merge;
mod messages;
mod outcome;
mod projection;
#[cfg(feature = "mpi")]
mod ranks;
mod record;
mod round;
mod span;
mod split;
mod tree;

pub use coordinator::{coordinate, Cores, Workers};
pub use folder::{Folder, Job, JobResult, Plan, Round, Task};
pub use job::{run_jobs, Batch, Found, JobEnd, JobOptions, SPLIT_AFTER, STATUS_JOB_STOPPED};
pub use local::run_local;
pub use merge::{listed, merge, Merged, Totals, STATUS_MISSING, STATUS_NEXT_ROUND};
pub use messages::{Ended, Order, Report};
pub use projection::estimate;
#[cfg(feature = "mpi")]
pub use ranks::run_mpi;
pub use span::{span, Span};
pub use split::{split, SplitAsked, MAX_SPLIT};
