//! Depth-limited expectimax over moves and spawns with a probability cut-off and a transposition cache,
//! in the style of nneonneo/2048-ai (`2048.cpp`: `score_tilechoose_node`, `score_move_node`).
//!
//! A *move node* takes the best of its legal moves; a *chance node* (an afterstate) averages every
//! spawn (2 with probability 0.9, 4 with 0.1, on each empty cell) weighted by its probability. A chance
//! node is a leaf, scored by the evaluation ([`Heuristic::evaluate`] or a trained [`Evaluation`]), when the depth is used up or when
//! the probability of reaching it falls below the cut-off. A position with no legal move is worth 0.
//! Values are in the evaluation's points: like nneonneo's program, the search ignores merge scores and
//! plays for the board, which is what survives longest.
//!
//! Depth counts moves: depth 1 looks at the afterstates of the legal moves (the greedy agent), depth 2
//! adds every spawn and every reply, and so on.
//!
//! # The cut-off, and a cache that never changes the result
//!
//! A node's value depends on its board, the depth left and the probability of the path that reached it.
//! To let the cache key hold all three exactly, the probability is tracked as an integer *budget* in
//! quarter bits: the root gets `floor(4·log2(1 / cut_off))` (53 for the default 1e-4), every spawn
//! costs `round(4·log2(1 / p))` for its probability `p`, and a chance node whose budget is negative is a
//! leaf. (nneonneo compares the exact product of probabilities; the budget is the same test rounded to a
//! quarter of a bit per spawn.) A node's value is then a function of `(board, depth, budget)`, and the
//! cache, keyed by all three with the full board compared on every probe, returns exactly what an
//! uncached search would compute. To share entries between paths with different budgets, a budget
//! large enough that no leaf below can be cut (at least `(depth − 1) ×` the largest spawn cost) is
//! lowered to that bound first, which changes no decision below the node.
//!
//! ```
//! use canopy_mcts::games::g2048::{expectimax::{Expectimax, Limits}, Board, Dir};
//!
//! // Only "right" keeps this board alive.
//! let board: Board = "2,8,2,2, 8,2,32,4, 4,32,4,8, 2,4,8,4".parse().unwrap();
//! let mut search = Expectimax::new(1 << 16);
//! let report = search.search(&board, &Limits { depth: Some(3), ..Limits::default() });
//! assert_eq!(report.best, Some(Dir::Right));
//! ```

use std::time::{Duration, Instant};

use super::eval::{Evaluate, Evaluation, Heuristic};
use super::tables::{self, count_nibbles, RowTable};
use super::{Board, Dir, Spawn, P_FOUR};
use crate::games::mix64;

mod parallel;
pub use parallel::ParallelExpectimax;

/// The default probability cut-off (nneonneo's `CPROB_THRESH_BASE`).
pub const DEFAULT_PROB_CUTOFF: f64 = 1e-4;

/// The deepest search iterative deepening tries (a bound that the probability cut-off makes moot: past
/// about a dozen spawns every path is cut).
pub const MAX_DEPTH: u32 = 24;

/// Interior chance nodes between two reads of the clock when a deadline is set.
const CLOCK_INTERVAL: u64 = 1 << 8;

/// Quarter bits per bit of the probability budget.
const BUDGET_SCALE: f64 = 4.0;

/// `SPAWN_COST[n][0]`: budget cost of a 2 spawned on one of `n` empty cells (probability `0.9 / n`),
/// `[n][1]`: of a 4 (`0.1 / n`), in quarter bits, rounded.
static SPAWN_COST: std::sync::LazyLock<[[i32; 2]; 17]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|n| {
        let n = n.max(1) as f64;
        [1.0 - P_FOUR, P_FOUR].map(|p| (BUDGET_SCALE * (n / p).log2()).round() as i32)
    })
});

/// The largest spawn cost (a 4 on an almost empty board).
fn max_spawn_cost() -> i32 {
    SPAWN_COST.iter().flat_map(|c| c.iter()).copied().max().unwrap_or(0)
}

/// What bounds one search.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Limits {
    /// The depth (moves) to search, at most [`MAX_DEPTH`]. `None`: [`MAX_DEPTH`] with a time limit,
    /// else the depth [`depth_for`] gives the board.
    pub depth: Option<u32>,
    /// Wall time for the whole search in milliseconds: iterative deepening (depth 1, 2, ... up to the
    /// depth) until it runs out; the deepest completed iteration decides (depth 1 when even that one
    /// did not finish). `None`: one search at the full depth.
    pub time_ms: Option<u64>,
    /// Probability cut-off: a chance node reached with a smaller probability is a leaf. `0` turns the
    /// cut-off off.
    pub prob_cutoff: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { depth: None, time_ms: None, prob_cutoff: DEFAULT_PROB_CUTOFF }
    }
}

/// The fixed depth used without a time limit: `max(4, distinct tiles − 1)` moves, nneonneo's rule
/// (`depth_limit = max(3, count_distinct_tiles − 2)`, which counts the moves after the first).
pub fn depth_for(board: &Board) -> u32 {
    let mut seen = 0u32;
    for e in board.exponents() {
        if e > 0 {
            seen |= 1 << e;
        }
    }
    4.max(seen.count_ones().saturating_sub(1))
}

/// The result of a search.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The best move (`None` when no move is legal).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub best: Option<Dir>,
    /// Each move's value in points (`None` for an illegal move), in [`Dir::ALL`] order, from the deepest
    /// completed iteration.
    pub values: [Option<f64>; 4],
    /// Depth of the deepest completed iteration (0 when none completed).
    pub depth: u32,
    /// Whether the completed search is exact: no leaf was cut by the depth, only by the probability
    /// cut-off or the end of the game, so deeper searches give the same values.
    pub exhausted: bool,
    /// Nodes (move and chance) visited, all iterations together.
    pub nodes: u64,
    /// Chance nodes answered by the cache.
    pub cache_hits: u64,
    /// Wall time in milliseconds.
    pub elapsed_ms: f64,
}

/// One cache slot: a chance node's key and value. 16 bytes.
#[derive(Clone, Copy, Default)]
struct Entry {
    lo: u64,
    hi: u16,
    /// `(depth + 1) << 11 | budget` (0 marks an empty slot; the budget is at most
    /// `(MAX_DEPTH − 1) ×` the largest spawn cost, below 2048).
    meta: u16,
    value: f32,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// An expectimax searcher: the evaluation, the row table and a transposition cache that persists
/// between searches (its entries are exact, so they never go stale).
pub struct Expectimax {
    evaluation: Evaluation,
    table: &'static RowTable,
    cache: Vec<Entry>,
    use_cache: bool,
    nodes: u64,
    cache_hits: u64,
    /// Whether a leaf was cut by the depth in the current iteration.
    depth_cut: bool,
    deadline: Option<Instant>,
    /// Interior chance nodes until the next read of the clock.
    clock_countdown: u64,
    aborted: bool,
    max_cost: i32,
}

impl Expectimax {
    /// A searcher with the standard evaluation and a cache of `cache_slots` entries (16 bytes each,
    /// rounded up to a power of two; 0 turns the cache off).
    pub fn new(cache_slots: usize) -> Expectimax {
        Expectimax::with_heuristic(Heuristic::standard(), cache_slots)
    }

    /// A searcher with `heuristic` and `cache_slots` cache entries (0: no cache).
    pub fn with_heuristic(heuristic: &'static Heuristic, cache_slots: usize) -> Expectimax {
        Expectimax::with_evaluation(Evaluation::Heuristic(heuristic), cache_slots)
    }

    /// A searcher with `evaluation` (the hand-written heuristic or a trained n-tuple network) at its
    /// leaves and `cache_slots` cache entries (0: no cache).
    pub fn with_evaluation(evaluation: Evaluation, cache_slots: usize) -> Expectimax {
        let slots = if cache_slots == 0 { 1 } else { cache_slots.next_power_of_two() };
        Expectimax {
            evaluation,
            table: tables::row_table(),
            cache: vec![Entry::default(); slots],
            use_cache: cache_slots > 0,
            nodes: 0,
            cache_hits: 0,
            depth_cut: false,
            deadline: None,
            clock_countdown: CLOCK_INTERVAL,
            aborted: false,
            max_cost: max_spawn_cost(),
        }
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// Searches `board` (the player to move) within `limits`.
    pub fn search(&mut self, board: &Board, limits: &Limits) -> Report {
        let start = Instant::now();
        self.nodes = 0;
        self.cache_hits = 0;
        self.aborted = false;
        self.deadline = limits.time_ms.map(|ms| start + Duration::from_millis(ms));
        self.clock_countdown = CLOCK_INTERVAL;
        let budget = root_budget(limits.prob_cutoff);
        let deadline = self.deadline;
        let iteration = |s: &mut Self, depth| {
            s.depth_cut = false;
            let values = s.root_values(board, depth, budget);
            (!s.aborted).then_some((values, s.depth_cut))
        };
        let fallback = |s: &mut Self| {
            s.deadline = None;
            s.aborted = false;
            s.root_values(board, 1, budget)
        };
        let mut report = deepen(self, board, limits, deadline, iteration, fallback);
        report.nodes = self.nodes;
        report.cache_hits = self.cache_hits;
        report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
        report
    }

    /// The value of every legal move of `board` searched to `depth` moves with the root `budget`.
    fn root_values(&mut self, board: &Board, depth: u32, budget: i32) -> [Option<f64>; 4] {
        let mut values = [None; 4];
        for dir in board.legal_dirs().iter() {
            let (after, _) = board.afterstate_with(self.table, dir);
            let v = self.chance(after, depth - 1, budget);
            if self.aborted {
                break;
            }
            values[dir.index()] = Some(f64::from(v));
        }
        values
    }

    /// The value of the afterstate of `dir` on `board` searched to `depth` moves (counting `dir`),
    /// with or without the cache; `None` when `dir` is illegal. For tests and explanations.
    pub fn move_value(
        &mut self,
        board: &Board,
        dir: Dir,
        depth: u32,
        prob_cutoff: f64,
        use_cache: bool,
    ) -> Option<f64> {
        let (after, _) = board.shift(dir)?;
        let saved = self.use_cache;
        self.use_cache = use_cache && self.cache.len() > 1;
        self.deadline = None;
        self.aborted = false;
        let v = self.chance(after, depth.max(1) - 1, root_budget(prob_cutoff));
        self.use_cache = saved;
        Some(f64::from(v))
    }

    /// A chance node: the afterstate `board` with `depth` moves left to search and `budget` quarter bits
    /// of probability.
    fn chance(&mut self, board: Board, depth: u32, budget: i32) -> f32 {
        self.nodes += 1;
        if depth == 0 || budget < 0 {
            if depth == 0 {
                self.depth_cut = true;
            }
            return self.evaluation.evaluate(&board);
        }
        if let Some(deadline) = self.deadline {
            self.clock_countdown -= 1;
            if self.clock_countdown == 0 {
                self.clock_countdown = CLOCK_INTERVAL;
                self.aborted |= Instant::now() >= deadline;
            }
            if self.aborted {
                return 0.0;
            }
        }
        // No leaf below is cut by the budget once it covers the largest spawn cost at every level left.
        let budget = budget.min((depth as i32 - 1) * self.max_cost);
        let slot = if self.use_cache { Some(self.slot(&board, depth, budget)) } else { None };
        let (lo, hi) = board.raw();
        let meta = ((depth + 1) << 11 | budget as u32) as u16;
        if let Some(i) = slot {
            let e = &self.cache[i];
            if e.meta == meta && e.lo == lo && e.hi == hi {
                self.cache_hits += 1;
                return e.value;
            }
        }
        let value = spawn_expectation(board, budget, |spawned, left| self.max_node(spawned, depth, left));
        if let (Some(i), false) = (slot, self.aborted) {
            self.cache[i] = Entry { lo, hi, meta, value };
        }
        value
    }

    /// A move node: the best chance node among the legal moves (0 when none is legal).
    #[inline]
    fn max_node(&mut self, board: Board, depth: u32, budget: i32) -> f32 {
        self.nodes += 1;
        let mut best = 0.0f32;
        let legal = board.legal_dirs();
        for dir in Dir::ALL {
            if legal.contains(dir) {
                let (after, _) = board.afterstate_with(self.table, dir);
                best = best.max(self.chance(after, depth - 1, budget));
            }
        }
        best
    }

    fn slot(&self, board: &Board, depth: u32, budget: i32) -> usize {
        let (lo, hi) = board.raw();
        let key = lo ^ mix64(u64::from(hi) | u64::from(depth) << 16 | (budget as u64 & 0xFFFF) << 24);
        (mix64(key) as usize) & (self.cache.len() - 1)
    }
}

/// The expectimax value of the afterstate `board` with `depth` more moves to search (0: its
/// evaluation) and the probability cut-off `prob_cutoff`, computed without a cache: the reference the
/// cached search must equal, and the leaf evaluation of rollouts with a lookahead
/// ([`super::RolloutPolicy::leaf_depth`]). No allocation; about 120 evaluations per unit of depth at
/// depth 1, growing some 100-fold per further move.
pub fn afterstate_value<E: Evaluate + ?Sized>(h: &E, board: &Board, depth: u32, prob_cutoff: f64) -> f32 {
    plain_chance(h, tables::row_table(), *board, depth.min(MAX_DEPTH), root_budget(prob_cutoff), max_spawn_cost())
}

/// [`Expectimax`]'s chance node without cache, deadline or counters (same arithmetic, same order).
fn plain_chance<E: Evaluate + ?Sized>(
    h: &E,
    table: &RowTable,
    board: Board,
    depth: u32,
    budget: i32,
    max_cost: i32,
) -> f32 {
    if depth == 0 || budget < 0 {
        return h.evaluate(&board);
    }
    let budget = budget.min((depth as i32 - 1) * max_cost);
    spawn_expectation(board, budget, |spawned, left| plain_max(h, table, spawned, depth, left, max_cost))
}

/// A chance node's value: the mean over the empty cells of `board` of `0.9 · value(2 spawned there)`
/// plus `0.1 · value(4 spawned there)`, each spawn valued with the budget left after its cost. Cells in
/// index order, the 2 before the 4 (the order the serial and parallel searches both add in).
#[inline(always)]
fn spawn_expectation(board: Board, budget: i32, mut value: impl FnMut(Board, i32) -> f32) -> f32 {
    let empty = board.empty_nibbles();
    let n = count_nibbles(empty) as usize;
    let cost = SPAWN_COST[n];
    let mut sum = 0.0f32;
    let mut cells = empty;
    while cells != 0 {
        let cell = (cells.trailing_zeros() / 4) as u8;
        cells &= cells - 1;
        sum += 0.9 * value(board.with_spawn(Spawn { cell, exponent: 1 }), budget - cost[0]);
        sum += 0.1 * value(board.with_spawn(Spawn { cell, exponent: 2 }), budget - cost[1]);
    }
    sum / n as f32
}

/// [`Expectimax`]'s move node without cache.
fn plain_max<E: Evaluate + ?Sized>(
    h: &E,
    table: &RowTable,
    board: Board,
    depth: u32,
    budget: i32,
    max_cost: i32,
) -> f32 {
    let mut best = 0.0f32;
    let legal = board.legal_dirs();
    for dir in Dir::ALL {
        if legal.contains(dir) {
            let (after, _) = board.afterstate_with(table, dir);
            best = best.max(plain_chance(h, table, after, depth - 1, budget, max_cost));
        }
    }
    best
}

/// Iterative deepening over the root moves of `board`, shared by [`Expectimax::search`] and
/// [`ParallelExpectimax::search`]: `iteration(searcher, depth)` values every legal move searched to
/// `depth` and says whether a leaf was cut by the depth, or gives `None` when the deadline stopped it.
/// Depths run from 1 (with a time limit) or straight at the limit's depth, and stop once a search is
/// exact or `deadline` has passed. When no iteration finished, `fallback(searcher)` gives the depth-1
/// values. The report's counters and time are the caller's to fill in.
fn deepen<S>(
    searcher: &mut S,
    board: &Board,
    limits: &Limits,
    deadline: Option<Instant>,
    mut iteration: impl FnMut(&mut S, u32) -> Option<([Option<f64>; 4], bool)>,
    fallback: impl FnOnce(&mut S) -> [Option<f64>; 4],
) -> Report {
    let mut report =
        Report { best: None, values: [None; 4], depth: 0, exhausted: false, nodes: 0, cache_hits: 0, elapsed_ms: 0.0 };
    if board.legal_dirs().is_empty() {
        report.exhausted = true;
        return report;
    }
    let last = limits.depth.unwrap_or_else(|| if limits.time_ms.is_some() { MAX_DEPTH } else { depth_for(board) });
    let last = last.clamp(1, MAX_DEPTH);
    let first = if limits.time_ms.is_some() { 1 } else { last };
    for depth in first..=last {
        let Some((values, depth_cut)) = iteration(searcher, depth) else { break };
        report.values = values;
        report.depth = depth;
        report.exhausted = !depth_cut;
        if report.exhausted || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    if report.depth == 0 {
        // Not even the first iteration finished in time: fall back on depth 1 (four evaluations).
        report.values = fallback(searcher);
        report.depth = 1;
    }
    report.best = best_of(&report.values);
    report
}

/// The root budget for a cut-off: `floor(4·log2(1 / cut_off))` quarter bits (effectively unlimited
/// when the cut-off is 0).
fn root_budget(prob_cutoff: f64) -> i32 {
    if prob_cutoff <= 0.0 {
        i32::MAX / 2
    } else {
        (BUDGET_SCALE * (1.0 / prob_cutoff).log2()).floor().clamp(0.0, 4000.0) as i32
    }
}

/// The legal move with the largest value (ties: the first in [`Dir::ALL`] order).
fn best_of(values: &[Option<f64>; 4]) -> Option<Dir> {
    let mut best: Option<(Dir, f64)> = None;
    for dir in Dir::ALL {
        if let Some(v) = values[dir.index()] {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((dir, v));
            }
        }
    }
    best.map(|(d, _)| d)
}

/// What one expectimax thread returns from a root split: `(item index, value)` for the spawns it searched,
/// and two flags the caller combines (see the function that spawns the threads).
type ThreadResult = (Vec<(usize, f32)>, bool, bool);
