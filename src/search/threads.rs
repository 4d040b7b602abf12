//! The helper threads that run beside the main thread. How they split the work is in the
//! searches themselves: lazy SMP in the midgame ([`Engine::help_search`]), shared root moves and
//! shared nodes in the solver.

use super::context::Context;
use super::engine::Engine;
use super::shared::Shared;
use crate::rules::Bits;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

impl<B: Bits> Engine<B> {
    /// A helper thread's engine: the same rules and table, its own counters.
    fn helper(&self, id: usize) -> Self {
        Engine {
            rules: self.rules.clone(),
            eval: self.eval.clone(),
            zobrist: self.zobrist.clone(),
            table: Arc::clone(&self.table),
            ages_table: self.ages_table,
            config: self.config.clone(),
            id,
            shared: Arc::clone(&self.shared),
            square_weight: self.square_weight.clone(),
            square_order: Arc::clone(&self.square_order),
            quarter_of: self.quarter_of.clone(),
            quarter_cells: self.quarter_cells,
            observer: None,
            solver: self.solver.clone(),
            ctx: Context::new(self.ctx.started),
        }
    }

    /// Runs `work` on this engine while `config.threads - 1` helpers run `help` on copies of it
    /// that share the table, until `work` is done. Returns what `work` returns, with the
    /// helpers' nodes added to this engine's count.
    pub(super) fn with_helpers<T>(
        &mut self,
        work: impl FnOnce(&mut Self) -> T,
        help: impl Fn(&mut Self) + Sync,
    ) -> T {
        self.shared = Arc::new(Shared::new(self.config.threads));
        if self.config.threads <= 1 {
            return work(self);
        }
        let helpers: Vec<Self> = (1..self.config.threads).map(|id| self.helper(id)).collect();
        let help = &help;
        let (result, nodes) = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    scope.spawn(move || {
                        help(&mut h);
                        h.ctx.nodes
                    })
                })
                .collect();
            let result = work(self);
            self.shared.stop.store(true, Relaxed);
            let nodes: u64 = running.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            // From here the helpers' nodes are in `self.ctx.nodes`.
            self.shared
                .helper_nodes
                .iter()
                .for_each(|n| n.store(0, Relaxed));
            (result, nodes)
        });
        self.ctx.nodes += nodes;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::*;

    /// At a node whose moves the threads share, a thread searches the first `SEARCHED_BY_ALL`
    /// moves in turn even where other threads are in them; of the later ones, it puts off those
    /// another thread is in until it has searched the rest.
    #[test]
    fn threads_put_off_only_later_moves_that_another_thread_is_in() {
        let mut e = engine::<u64>(8, 8, FULL, Config::to_depth(1));
        e.shared = Arc::new(Shared::new(2));
        let mut seed = 43u64;
        let pos = std::iter::repeat_with(|| random_position(e.rules(), splitmix(&mut seed), 30))
            .find(|pos| e.rules().moves(pos).count() >= 8)
            .unwrap();
        let key = e.zobrist.key(&pos);
        let mut list = Vec::new();
        e.list_moves(e.rules().moves(&pos), None, &mut list);
        // Another thread is in the position after every second move.
        let cells: Vec<usize> = list.iter().map(|c| c.cell).collect();
        for c in list.iter().skip(1).step_by(2) {
            let (_, child_key) = e.after(&pos, key, c.cell, c.flips(&e.rules, &pos));
            e.shared.busy_slot(child_key).fetch_add(1, Relaxed);
        }
        let mut searched = Vec::new();
        let (score, _) = e.best_of(
            &pos,
            key,
            &mut list,
            -INFINITY,
            INFINITY,
            true,
            |_, _| {},
            |_, child, _, _| {
                searched.push(child.cell);
                0
            },
        );
        assert_eq!(score, 0);
        let (busy, free): (Vec<usize>, Vec<usize>) =
            (SEARCHED_BY_ALL..cells.len()).partition(|i| i % 2 == 1);
        let expected: Vec<usize> = (0..SEARCHED_BY_ALL)
            .chain(free)
            .chain(busy)
            .map(|i| cells[i])
            .collect();
        assert_eq!(searched, expected);
    }

    /// The progress of a solve on several threads counts the helpers' nodes as they go, not only
    /// at the end: never more than the solve's total, and near the end most of it (each helper
    /// has at most `PROGRESS_EVERY` nodes unpublished, while the main thread alone searched about a
    /// third of them).
    #[test]
    fn progress_counts_the_helpers_nodes() {
        use std::ops::ControlFlow;
        use std::sync::Mutex;
        let rules = rules_for::<u64>(5, 5, MISERE);
        let start = rules.start(Color::Black, Color::White);
        let config = Config::default().with_threads(3);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let mut engine = Engine::new(rules.clone(), config.clone());
        engine.observe(Some(Box::new(move |p: &SolveProgress| {
            sink.lock().unwrap().push(p.nodes);
            ControlFlow::Continue(())
        })));
        let solved = engine.solve_root(&start, RootMoves::Ties);
        let seen = seen.lock().unwrap();
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        assert!(
            seen.iter().all(|&n| n <= solved.nodes),
            "{seen:?} {solved:?}"
        );
        assert!(
            solved.nodes > 8 * PROGRESS_EVERY && seen.last() > Some(&(solved.nodes / 2)),
            "{seen:?} {solved:?}"
        );
    }
}
