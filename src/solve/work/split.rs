//! The split: the position's tree cut at the shallowest depth that gives about the jobs asked
//! for, written to a new work folder as round 1.

use super::folder::{Folder, Plan, Round};
use super::job::plan_root;
use super::round::{estimate_entries, evaluation_mark, round_of};
use super::tree::Tree;
use crate::notation::MoveList;
use crate::rules::Bits;
use crate::search::{Evaluation, RootMoves};
use crate::solve::position::heading;
use crate::start::Start;
use crate::wording::Counted;
use anyhow::{bail, Context};
use std::io::Write;
use std::path::Path;

/// The most jobs a split may ask for.
pub const MAX_SPLIT: usize = 10_000_000;

/// What a split is asked: the position reached from `start` by `moves`, which of its moves
/// get exact values, and about how many jobs round 1 holds.
#[derive(Clone, Copy, Debug)]
pub struct SplitAsked<'a> {
    pub start: &'a Start,
    pub moves: &'a MoveList,
    pub which: RootMoves,
    pub jobs: usize,
}

/// Writes the work folder `dir` for what is `asked`: about its number of jobs in round 1, at
/// the shallowest depth that gives that many. A signal stops it before anything is written.
pub fn split(
    asked: SplitAsked,
    eval: &Evaluation,
    dir: &Path,
    interrupt: &crate::interrupt::Interrupt,
    out: &mut dyn Write,
) -> anyhow::Result<Round> {
    let SplitAsked {
        start,
        moves,
        which,
        jobs,
    } = asked;
    if !(1..=MAX_SPLIT).contains(&jobs) {
        bail!("--split {jobs}: from 1 to {MAX_SPLIT} jobs");
    }
    let folder = Folder::new(dir);
    let mut plan = Plan {
        start: start.clone(),
        moves: moves.clone(),
        which: if which == RootMoves::All {
            RootMoves::All
        } else {
            RootMoves::Ties
        },
        split: jobs,
        depth: 0,
    };
    if folder.plan_path().exists() {
        let held = folder.plan()?;
        if (Plan {
            depth: 0,
            ..held.clone()
        }) != plan
        {
            bail!(
                "{} holds another solve (see its work.txt); give another --work folder",
                dir.display()
            );
        }
        let rounds = folder.rounds()?;
        let last = rounds
            .last()
            .context("the work folder has no round of jobs")?;
        writeln!(
            out,
            "# {}: already split, {} written",
            dir.display(),
            Counted(rounds.len(), "round")
        )?;
        writeln!(
            out,
            "round {}: {}",
            last.number,
            Counted(last.jobs.len(), "job")
        )?;
        return Ok(last.clone());
    }
    if dir.exists() && std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_some()) {
        bail!(
            "{} exists and is not an empty folder: --work makes a new folder of its own",
            dir.display()
        );
    }
    let (round, depth, guess, (mark, estimates)) = crate::with_bits!(start.shape(), |B| {
        let (rules, root) = plan_root::<B>(&plan)?;
        let empties = rules.empty(&root).count();
        let mut tree = Tree::new(rules, empties, eval);
        // Ordered as the merges and the coordinator will order it (see `plan_tree`).
        tree.prepare_lines(&root);
        let guess = tree.guess(&root);
        let depth = super::projection::first_round(&mut tree, &root, plan.which, jobs, interrupt)?;
        let (wants, lines) = (tree.wants(), tree.lines_asked.clone());
        plan.depth = depth;
        let round = round_of(&tree, 1, &wants, &lines);
        let estimates = tree.take_estimates();
        let entries = estimate_entries(&tree.rules.geometry, &estimates);
        let mark = evaluation_mark(eval, &tree.rules);
        anyhow::Ok((round, depth, guess, (mark, entries)))
    })?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    crate::files::write_atomic(&folder.plan_path(), plan.text().as_bytes())
        .with_context(|| format!("cannot write {}", folder.plan_path().display()))?;
    folder.write_estimates(&mark, estimates)?;
    folder.write_round(&round)?;
    writeln!(out, "# {}", heading(start, moves))?;
    writeln!(
        out,
        "# split {} deep: {} (about {jobs} asked), first guess {guess:+}",
        Counted(depth, "move"),
        Counted(round.jobs.len(), "job")
    )?;
    writeln!(out, "round 1: {}", Counted(round.jobs.len(), "job"))?;
    Ok(round)
}
