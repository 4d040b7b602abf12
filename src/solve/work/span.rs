//! `--span`: what a coordinated run's record says of the solve's parallelism. The work is the
//! time of every job, the cancelled ones too; the span is the longest chain of jobs each asked
//! for only after the one before it ended (a job's `after`: the result learned last before
//! the tree first asked for it, so a job that waited only for a free worker does not lengthen
//! the chain, and a run on few workers shows what many would gain); work / span is how many
//! workers the solve can keep busy. By Brent's bound the wall time on P workers lies between
//! max(work / P, span) and work / P + span.

use super::folder::Folder;
use super::record::{Entry, JobEntry, Record};
use crate::wording::Counted;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// The worker counts the report predicts a wall time for.
pub const PREDICTED_FOR: [u32; 4] = [16, 64, 256, 1024];

/// The parallelism of a run, in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub jobs: usize,
    pub cancelled: usize,
    pub nodes: u64,
    pub work: f64,
    pub span: f64,
    /// The jobs of the longest chain.
    pub chain: usize,
}

impl Span {
    /// The span of the jobs of a record.
    pub fn of(entries: &[Entry]) -> Span {
        let jobs: Vec<&JobEntry> = entries
            .iter()
            .filter_map(|e| match e {
                Entry::Job(j) => Some(j),
                Entry::Split(_) => None,
            })
            .collect();
        let by_id: HashMap<u64, &JobEntry> = jobs.iter().map(|j| (j.id, *j)).collect();
        // Jobs are recorded as they end, and a job's `after` ended before it was handed out,
        // so each chain is known before the jobs that follow it: one pass in order of ending.
        let mut longest: HashMap<u64, (f64, usize)> = HashMap::new();
        let mut ordered = jobs.clone();
        ordered.sort_by_key(|j| (j.end_ms, j.id));
        let (mut span, mut chain) = (0.0f64, 0);
        for j in ordered {
            let before = j
                .after
                .filter(|a| by_id.contains_key(a))
                .and_then(|a| longest.get(&a).copied())
                .unwrap_or((0.0, 0));
            let here = (before.0 + j.seconds(), before.1 + 1);
            longest.insert(j.id, here);
            if here.0 > span {
                (span, chain) = here;
            }
        }
        Span {
            jobs: jobs.len(),
            cancelled: jobs.iter().filter(|j| j.found.is_none()).count(),
            nodes: jobs.iter().fold(0u64, |n, j| n.saturating_add(j.nodes)),
            work: jobs.iter().map(|j| j.seconds()).sum(),
            span,
            chain,
        }
    }

    /// The wall time on `workers`, at least and at most, by Brent's bound.
    pub fn predicted(&self, workers: u32) -> (f64, f64) {
        predicted(self.work, self.span, workers)
    }

    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "jobs: {} ({} cancelled), {} nodes",
            self.jobs, self.cancelled, self.nodes
        )?;
        writeln!(out, "work: {:.3} s", self.work)?;
        writeln!(
            out,
            "span: {:.3} s, a chain of {}",
            self.span,
            Counted(self.chain, "job")
        )?;
        writeln!(out, "parallelism: {}", parallelism(self.work, self.span))?;
        write_predictions(self.work, self.span, out)
    }
}

/// The wall time on `workers` of `work` seconds whose span is `span`: at least and at most,
/// by Brent's bound.
fn predicted(work: f64, span: f64, workers: u32) -> (f64, f64) {
    let share = work / f64::from(workers.max(1));
    (share.max(span), share + span)
}

/// work / span, as the reports print it.
pub(super) fn parallelism(work: f64, span: f64) -> String {
    if span > 0.0 {
        format!("{:.1}", work / span)
    } else {
        "-".to_string()
    }
}

/// The predicted wall times on [`PREDICTED_FOR`] workers, a line each.
pub(super) fn write_predictions(work: f64, span: f64, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "# workers, predicted wall time: at least, at most (s)")?;
    for workers in PREDICTED_FOR {
        let (least, most) = predicted(work, span, workers);
        writeln!(out, "{workers} {least:.3} {most:.3}")?;
    }
    Ok(())
}

/// Prints the span of the run recorded in the work folder `dir`.
pub fn span(dir: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let folder = Folder::new(dir);
    folder.plan()?;
    let entries = Record::read(&folder)?;
    if entries.is_empty() {
        anyhow::bail!(
            "{}: no record of a run (`othello solve --work DIR --run-local` writes one)",
            dir.display()
        );
    }
    Span::of(&entries).write(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::work::folder::Task;
    use crate::solve::work::Found;

    fn job(id: u64, after: Option<u64>, start_ms: u64, end_ms: u64, solved: bool) -> Entry {
        Entry::Job(JobEntry {
            id,
            worker: 0,
            after,
            start_ms,
            end_ms,
            nodes: 10,
            task: Task::Window { alpha: 0, beta: 1 },
            found: solved.then(|| Found {
                score: 1,
                best: "-".to_string(),
                line: Default::default(),
            }),
            position: "(b ---- -wb- -bw- ----)".parse().unwrap(),
        })
    }

    #[test]
    fn the_span_is_the_longest_chain_of_jobs_waiting_on_each_other() {
        // Two jobs at the start (1 s and 4 s); after the first, a chain of two (2 s, 3 s);
        // one cancelled job of 1 s after the second.
        let entries = [
            job(0, None, 0, 1000, true),
            job(2, Some(0), 1000, 3000, true),
            job(1, None, 0, 4000, true),
            job(3, Some(2), 3000, 6000, true),
            job(4, Some(1), 4000, 5000, false),
        ];
        let span = Span::of(&entries);
        assert_eq!((span.jobs, span.cancelled, span.nodes), (5, 1, 50));
        assert_eq!(span.work, 11.0);
        assert_eq!((span.span, span.chain), (6.0, 3));
        assert_eq!(span.predicted(1), (11.0, 17.0));
        assert_eq!(span.predicted(16), (6.0, 11.0 / 16.0 + 6.0));
        let mut text = Vec::new();
        span.write(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("span: 6.000 s, a chain of 3 jobs"), "{text}");
        assert!(text.contains("parallelism: 1.8"), "{text}");
    }
}
