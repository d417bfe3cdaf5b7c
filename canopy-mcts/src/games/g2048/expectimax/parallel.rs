//! [`ParallelExpectimax`]: the expectimax search of the parent module on several threads, with the
//! serial search's exact values.

use super::*;

/// Iterations whose root items have at most this many moves left run on one thread: starting the
/// threads costs more than they would save (`canopy play 2048 --agent expectimax --depth 2 --eval ntuple
/// --games 1 --seed 1 --threads T`: 0.023 ms a move on one thread, 0.060 ms on two before this, 0.020
/// after; the same game).
const SERIAL_DEPTH: u32 = 1;

/// Expectimax on several threads: one [`Expectimax`] (with its own cache) per thread. Each iteration
/// of the root splits into one work item per root move and spawn (a move node two plies down), which
/// the threads take in turn from a shared counter; the root's chance nodes then add the items' values
/// in the serial order, so the values are exactly those of [`Expectimax::search`] at the same depth,
/// whatever the threads and their timing.
pub struct ParallelExpectimax {
    searchers: Vec<Expectimax>,
}

/// One root spawn to search: the move, the spawn's weight (0.9 or 0.1), the board after it and its
/// budget.
#[derive(Clone, Copy)]
struct RootItem {
    dir: Dir,
    weight: f32,
    board: Board,
    budget: i32,
}

impl ParallelExpectimax {
    /// `threads` searchers (at least one) with the evaluation `evaluation` (a `&'static` [`Heuristic`]
    /// or an [`Evaluation`]), sharing `cache_slots` cache entries evenly.
    pub fn new(evaluation: impl Into<Evaluation>, threads: usize, cache_slots: usize) -> ParallelExpectimax {
        let evaluation = evaluation.into();
        let threads = threads.max(1);
        let per = if cache_slots == 0 { 0 } else { (cache_slots / threads).max(16) };
        ParallelExpectimax { searchers: (0..threads).map(|_| Expectimax::with_evaluation(evaluation, per)).collect() }
    }

    /// Threads in use.
    pub fn threads(&self) -> usize {
        self.searchers.len()
    }

    /// Like [`Expectimax::search`], on every thread.
    pub fn search(&mut self, board: &Board, limits: &Limits) -> Report {
        if self.searchers.len() == 1 {
            return self.searchers[0].search(board, limits);
        }
        let start = Instant::now();
        let budget = root_budget(limits.prob_cutoff);
        let deadline = limits.time_ms.map(|ms| start + Duration::from_millis(ms));
        for s in &mut self.searchers {
            s.nodes = 0;
            s.cache_hits = 0;
            s.aborted = false;
            s.deadline = deadline;
            s.clock_countdown = CLOCK_INTERVAL;
        }
        let fallback = |p: &mut Self| {
            let s = &mut p.searchers[0];
            s.deadline = None;
            s.aborted = false;
            s.root_values(board, 1, budget)
        };
        let mut report =
            deepen(self, board, limits, deadline, |p, depth| p.root_values(board, depth, budget), fallback);
        report.nodes = self.searchers.iter().map(|s| s.nodes).sum();
        report.cache_hits = self.searchers.iter().map(|s| s.cache_hits).sum();
        report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
        report
    }

    /// One iteration at `depth` on every thread; `None` when the deadline cut it short. Also says
    /// whether some leaf was cut by the depth.
    fn root_values(&mut self, board: &Board, depth: u32, budget: i32) -> Option<([Option<f64>; 4], bool)> {
        if depth == 1 {
            let s = &mut self.searchers[0];
            s.depth_cut = false;
            return Some((s.root_values(board, 1, budget), true));
        }
        // The root's chance nodes, as `Expectimax::chance` would expand them (depth − 1 >= 1 left).
        let d = depth - 1;
        let mut items = Vec::new();
        let mut counts = [0usize; 4];
        for dir in board.legal_dirs().iter() {
            let (after, _) = board.afterstate(dir);
            let b = budget.min((d as i32 - 1) * max_spawn_cost());
            let empty = after.empty_nibbles();
            let n = count_nibbles(empty) as usize;
            counts[dir.index()] = n;
            let cost = SPAWN_COST[n];
            let mut cells = empty;
            while cells != 0 {
                let cell = (cells.trailing_zeros() / 4) as u8;
                cells &= cells - 1;
                for (exponent, weight, c) in [(1u8, 0.9f32, cost[0]), (2, 0.1, cost[1])] {
                    items.push(RootItem {
                        dir,
                        weight,
                        board: after.with_spawn(Spawn { cell, exponent }),
                        budget: b - c,
                    });
                }
            }
        }
        let next = crate::sync::AtomicUsize::new(0);
        let items = &items;
        let next = &next;
        // A searcher takes items from the shared counter until none is left (or its clock ran out).
        let take = |s: &mut Expectimax| -> ThreadResult {
            s.depth_cut = false;
            let mut out = Vec::new();
            loop {
                let i = next.fetch_add(1, crate::sync::Ordering::Relaxed);
                if i >= items.len() || s.aborted {
                    break;
                }
                let it = items[i];
                out.push((i, s.max_node(it.board, d, it.budget)));
            }
            (out, s.aborted, s.depth_cut)
        };
        let results: Vec<ThreadResult> = if d <= SERIAL_DEPTH {
            // A shallow iteration is shorter than starting the threads: the first searcher takes every
            // item (the values do not depend on which searcher computes them).
            vec![take(&mut self.searchers[0])]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = self.searchers.iter_mut().map(|s| scope.spawn(move || take(s))).collect();
                handles.into_iter().map(|h| h.join().expect("expectimax worker panicked")).collect()
            })
        };
        if results.iter().any(|r| r.1) {
            return None;
        }
        let mut item_values = vec![0.0f32; items.len()];
        for (out, _, _) in &results {
            for &(i, v) in out {
                item_values[i] = v;
            }
        }
        // Add in the serial order: per move, cell by cell, the 2 then the 4.
        let mut sums = [0.0f32; 4];
        for (it, v) in items.iter().zip(item_values) {
            sums[it.dir.index()] += it.weight * v;
        }
        let mut values = [None; 4];
        for dir in board.legal_dirs().iter() {
            values[dir.index()] = Some(f64::from(sums[dir.index()] / counts[dir.index()] as f32));
        }
        Some((values, results.iter().any(|r| r.2)))
    }
}
