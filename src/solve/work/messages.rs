//! What a coordinator and its workers say to each other, one line of text each: the same
//! words between threads and between the ranks of an MPI job, so that a message is read and
//! checked one way wherever it travels.
//!
//! ```text
//! solve ID window A B ESTIMATE JOURNAL POSITION      a job, as a jobs file lists it
//! solve ID line VALUE - ESTIMATE JOURNAL POSITION
//! cancel ID                                          stop job ID if it still runs
//! finish                                             no more jobs
//! report WORKER ID NODES solved SCORE BEST LINE      a job ended (LINE `-` for none)
//! report WORKER ID NODES stopped
//! report WORKER ID NODES failed MESSAGE
//! ```

use super::folder::Job;
use super::job::Found;
use anyhow::{bail, Context};
use std::fmt;
use std::str::FromStr;

/// What the coordinator asks of a worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Order {
    /// Solve this job; `id` names it in the report.
    Solve { id: u64, job: Job },
    /// Stop job `id` if it still runs: its report then says it was stopped.
    Cancel { id: u64 },
    /// No more jobs.
    Finish,
}

/// How a worker's job ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ended {
    Solved(Found),
    /// Cancelled, or stopped by a signal; its work is in its journal.
    Stopped,
    /// An error the solve cannot go on from (a journal that cannot be written, ...).
    Failed(String),
}

/// A job ended, as its worker tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub worker: usize,
    pub id: u64,
    pub ended: Ended,
    pub nodes: u64,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Solve { id, job } => write!(f, "solve {}", job.line(*id)),
            Order::Cancel { id } => write!(f, "cancel {id}"),
            Order::Finish => f.write_str("finish"),
        }
    }
}

impl FromStr for Order {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Order> {
        let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
        Ok(match word {
            "solve" => {
                let (id, job) = Job::parse_line(rest)?;
                Order::Solve { id, job }
            }
            "cancel" => Order::Cancel {
                id: rest.parse().context("cancel: no job number")?,
            },
            "finish" if rest.is_empty() => Order::Finish,
            _ => bail!("not an order: {:?}", cut(text)),
        })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "report {} {} {} ", self.worker, self.id, self.nodes)?;
        match &self.ended {
            Ended::Solved(found) => write!(f, "solved {found}"),
            Ended::Stopped => f.write_str("stopped"),
            // One line, whatever the message holds.
            Ended::Failed(why) => write!(f, "failed {}", why.replace('\n', " ")),
        }
    }
}

impl FromStr for Report {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Report> {
        let Some(rest) = text.strip_prefix("report ") else {
            bail!("not a report: {:?}", cut(text));
        };
        let mut words = rest.splitn(5, ' ');
        let mut next = |what: &str| words.next().with_context(|| format!("report: no {what}"));
        let worker = next("worker")?.parse()?;
        let id = next("job number")?.parse()?;
        let nodes = next("node count")?.parse()?;
        let ended = match next("end")? {
            "stopped" => Ended::Stopped,
            "failed" => Ended::Failed(next("message")?.to_string()),
            "solved" => Ended::Solved(next("result")?.parse().context("report")?),
            other => bail!("report: {other:?} is not solved, stopped or failed"),
        };
        Ok(Report {
            worker,
            id,
            ended,
            nodes,
        })
    }
}

/// The start of a long text, for an error.
fn cut(text: &str) -> &str {
    let end = text.char_indices().nth(60).map_or(text.len(), |(i, _)| i);
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::work::folder::Task;

    #[test]
    fn orders_and_reports_read_back_as_written() {
        let job = Job {
            task: Task::Window { alpha: -3, beta: 4 },
            estimate: 2,
            journal: "0123456789abcdef".to_string(),
            position: "(b ---- -wb- -bw- ----)".parse().unwrap(),
        };
        let line = Job {
            task: Task::Line { value: -8 },
            ..job.clone()
        };
        for order in [
            Order::Solve { id: 12, job },
            Order::Solve { id: 0, job: line },
            Order::Cancel { id: 7 },
            Order::Finish,
        ] {
            assert_eq!(order.to_string().parse::<Order>().unwrap(), order);
        }
        let found = Found {
            score: -8,
            best: "b1".to_string(),
            line: "b1a1pa".parse().unwrap(),
        };
        for ended in [
            Ended::Solved(found),
            Ended::Solved(Found {
                score: 3,
                best: "-".to_string(),
                line: Default::default(),
            }),
            Ended::Stopped,
            Ended::Failed("cannot write x: no space".to_string()),
        ] {
            let report = Report {
                worker: 3,
                id: 99,
                ended,
                nodes: 123456,
            };
            assert_eq!(report.to_string().parse::<Report>().unwrap(), report);
        }
        for bad in [
            "",
            "solve x",
            "cancel",
            "finish now",
            "report 1 2",
            "report 1 2 3 won",
        ] {
            assert!(bad.parse::<Order>().is_err(), "{bad}");
            assert!(bad.parse::<Report>().is_err(), "{bad}");
        }
    }
}
