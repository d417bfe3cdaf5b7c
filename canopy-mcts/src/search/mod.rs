//! The search: worker threads growing one shared tree, and the report they produce.
//!
//! ```
//! use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
//! use canopy_mcts::search::{Search, SearchParams};
//!
//! let params = SearchParams { playouts: Some(2_000), threads: 1, ..SearchParams::default() };
//! let report = Search::new(&TicTacToe, params).run(&TicTacToeState::default());
//! assert_eq!(report.playouts, 2_000);
//! assert!(report.best.is_some());
//! ```

pub(crate) mod node;
mod params;
mod readout;
mod report;
mod select;
mod session;
mod solver;
pub(crate) mod tree;
pub(crate) mod tt;
pub(crate) mod worker;

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use bumpalo::Bump;
use crossbeam_utils::CachePadded;

pub use node::Proof;
pub use params::{
    parse_bytes, physical_memory_bytes, Backup, ChanceSelection, SearchParams, Selection, Statistics,
    DEFAULT_MEMORY_BYTES, DEFAULT_PLAYOUTS, MAX_EXPAND_THRESHOLD, MAX_EXPLORATION, MAX_PLAYOUTS, MAX_THREADS,
    MAX_TIME_MS, MAX_VIRTUAL_LOSS, MIN_MEMORY_BYTES,
};
pub use report::{ActionStats, ProvenNode, SearchReport, SolverStatus, TableStats, TreeAudit};
pub use session::{AdvanceError, Event, Follower, Kept, Limits, Recycled, SearchHandle, Session, Snapshot};
use tree::Tree;
use tt::TranspositionTable;

use crate::game::{Game, Returns, Turn};
use crate::param::ParamError;
use crate::policy::{Coverage, Policy, UniformPolicy};
use crate::sync::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use readout::{audit_tree, best_action, progress_of, root_actions, root_for_mover, RootCount};
use worker::{GameNode, Shared, Worker, WorkerStats};

/// Sizes in bytes of one tree node and one edge of the children blocks for game `G` (for memory
/// estimates: a search holds about one node and one children block per playout, see docs/BENCHMARKS.md).
pub fn tree_layout_bytes<G: Game>() -> (usize, usize) {
    (std::mem::size_of::<GameNode<G>>(), std::mem::size_of::<worker::GameEdge<G>>())
}

/// Pins the calling thread to the core search worker `worker` uses (core `worker mod cores`, in the
/// operating system's order) and returns whether it did. Without the `pin` feature, or where the
/// operating system gives no core list, it does nothing and returns `false`.
pub fn pin_to_worker_core(worker: usize) -> bool {
    #[cfg(feature = "pin")]
    {
        let cores = core_affinity::get_core_ids().unwrap_or_default();
        if !cores.is_empty() {
            return core_affinity::set_for_current(cores[worker % cores.len()]);
        }
    }
    let _ = worker;
    false
}

/// Seconds two threads, on the cores of workers 0 and 1 when `pin`, take to hand one cache line back and
/// forth `handovers` times (each increments a counter and then waits to see the other's increment): the
/// time of one hand-over between those cores is the result divided by `handovers`. The input of the
/// contention model of `canopy bench --model` and of the `contention/line_transfer` criterion bench.
///
/// The counter is a plain `std` atomic of its own, not part of any search tree. A waiting thread yields
/// its core after 10 000 spins, so that on a machine with more runnable threads than cores its partner
/// still runs (an idle machine hands the line over in far fewer).
pub fn line_handover_secs(handovers: u64, pin: bool) -> f64 {
    use std::sync::atomic::AtomicU64 as StdU64;
    const SPINS_BEFORE_YIELD: u32 = 10_000;
    let turn = CachePadded::new(StdU64::new(0));
    let barrier = std::sync::Barrier::new(2);
    std::thread::scope(|s| {
        let play = |me: u64| {
            let (turn, barrier) = (&turn, &barrier);
            s.spawn(move || {
                if pin {
                    pin_to_worker_core(me as usize);
                }
                barrier.wait();
                let start = Instant::now();
                for i in 0..handovers / 2 {
                    let mine = 2 * i + me;
                    let mut spins = 0u32;
                    while turn.load(std::sync::atomic::Ordering::Acquire) != mine {
                        spins += 1;
                        if spins < SPINS_BEFORE_YIELD {
                            std::hint::spin_loop();
                        } else {
                            std::thread::yield_now();
                        }
                    }
                    turn.store(mine + 1, std::sync::atomic::Ordering::Release);
                }
                start.elapsed().as_secs_f64()
            })
        };
        let (a, b) = (play(0), play(1));
        a.join().expect("hand-over thread").max(b.join().expect("hand-over thread"))
    })
}

/// Fraction of the memory budget the transposition table may take.
const TABLE_SHARE: usize = 8;

/// Playouts per millisecond per thread assumed when sizing the table for a time-limited search (an upper
/// estimate; a table that fills up only stops storing new keys).
const PLAYOUTS_PER_MS_ESTIMATE: usize = 500;

/// A configured search over one game, with the search knowledge of a [`Policy`] ([`UniformPolicy`]
/// unless one is given).
pub struct Search<'g, G: Game, P: Policy<G> = UniformPolicy> {
    game: &'g G,
    policy: &'g P,
    params: SearchParams,
    /// The root's moves when restricted ([`Search::with_root_moves`]), and what the restriction leaves
    /// out.
    root_moves: Option<(Vec<G::Action>, Coverage)>,
}

impl<'g, G: Game> Search<'g, G> {
    /// A search of `game` with `params` and the plain-MCTS [`UniformPolicy`]: every legal move is
    /// expanded, rollouts play uniformly random moves.
    ///
    /// # Panics
    /// When `params` is outside its documented ranges ([`Search::with_policy`]; [`Search::try_new`]
    /// returns the error instead).
    pub fn new(game: &'g G, params: SearchParams) -> Self {
        Search::with_policy(game, &UniformPolicy, params)
    }

    /// [`Search::new`] that returns the parameters' error instead of panicking.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] when `params` is outside its documented ranges ([`SearchParams::check`]).
    pub fn try_new(game: &'g G, params: SearchParams) -> Result<Self, ParamError> {
        Search::try_with_policy(game, &UniformPolicy, params)
    }
}

impl<'g, G: Game, P: Policy<G>> Search<'g, G, P> {
    /// A search of `game` with `params` and `policy`'s candidates, priors and rollouts.
    ///
    /// # Panics
    /// When a parameter is outside the range its field documents (no threads, a playout or time limit
    /// of 0, an exploration constant that is not a finite number from 0 to 100, ...): the message is
    /// [`SearchParams::check`]'s error, which [`Search::try_with_policy`] returns instead, for a caller
    /// that takes parameters from its users.
    pub fn with_policy(game: &'g G, policy: &'g P, params: SearchParams) -> Self {
        Self::try_with_policy(game, policy, params).unwrap_or_else(|e| panic!("invalid search parameters: {e}"))
    }

    /// [`Search::with_policy`] that returns the parameters' error instead of panicking: for a caller that
    /// takes parameters from its users.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] naming the first parameter outside the range its field documents
    /// ([`SearchParams::check`]).
    pub fn try_with_policy(game: &'g G, policy: &'g P, params: SearchParams) -> Result<Self, ParamError> {
        params.check()?;
        Ok(Self::with_checked_params(game, policy, params))
    }

    /// [`Search::with_policy`] for parameters checked already but for their limits: a [`Session`]'s
    /// searches take what is left of their own [`Limits`], which may be 0 (the search then ends at once).
    pub(crate) fn with_checked_params(game: &'g G, policy: &'g P, params: SearchParams) -> Self {
        Self { game, policy, params, root_moves: None }
    }

    /// The same search with the root restricted to `moves`, like UCI's `searchmoves`: the root's children
    /// are these moves, in this order, instead of the policy's candidates; every other node is expanded
    /// as usual. Moves that are not legal at the searched root (and repeats) are left out; with none left
    /// the root has no children, every playout is a rollout from the root and the report has no actions
    /// (`best` is `None`). The report's `actions` are the root moves searched.
    ///
    /// `left_out` says what the restriction leaves out, for MCTS-Solver: [`Coverage::ProofSafe`] when
    /// every left-out candidate is known to be no better for the side to move than the best listed move
    /// (for example each loses to a proven sequence), so that a loss or draw proven over the list holds
    /// for the root; [`Coverage::Pruned`] for a plain restriction (only a win is then proven at the root).
    /// The root's coverage is the weaker of this and the policy's ([`Coverage::and`]).
    pub fn with_root_moves(self, moves: Vec<G::Action>, left_out: Coverage) -> Self {
        Self { root_moves: Some((moves, left_out)), ..self }
    }

    /// The root restriction of [`Search::with_root_moves`], if any.
    pub fn root_moves(&self) -> Option<&[G::Action]> {
        self.root_moves.as_ref().map(|(m, _)| m.as_slice())
    }

    /// The root restriction of [`Search::with_root_moves`] with what it leaves out, if any.
    pub fn root_restriction(&self) -> Option<(&[G::Action], Coverage)> {
        self.root_moves.as_ref().map(|(m, c)| (m.as_slice(), *c))
    }

    /// The game searched.
    pub fn game(&self) -> &G {
        self.game
    }

    /// The policy in force.
    pub fn policy(&self) -> &P {
        self.policy
    }

    /// The parameters in force.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Searches `root` until the playout, time or memory limit, whichever comes first; with neither a
    /// playout nor a time limit, for [`DEFAULT_PLAYOUTS`] playouts.
    ///
    /// # Panics
    /// When the game panics: on a worker thread, every worker stops at its next playout and, once all
    /// have finished, the first worker panic is raised again on the calling thread with its original
    /// payload (`std::panic::resume_unwind`). The same holds for [`Search::run_with_stop`] and
    /// [`Search::run_observed`], whose observer's panics also stop the workers.
    pub fn run(&self, root: &G::State) -> SearchReport<G::Action> {
        self.run_with_stop(root, None)
    }

    /// Like [`Search::run`], and also stops soon after `stop` becomes true (for protocols and embedding).
    /// With a stop flag and neither a playout nor a time limit, the search runs until the flag is set.
    pub fn run_with_stop(&self, root_state: &G::State, stop: Option<&AtomicBool>) -> SearchReport<G::Action> {
        self.run_observed(root_state, stop, None)
    }

    /// Like [`Search::run_with_stop`], and calls `observer` from the calling thread every `interval`
    /// milliseconds while the workers search (for progress lines on long searches).
    pub fn run_observed(
        &self,
        root_state: &G::State,
        stop: Option<&AtomicBool>,
        progress: Option<ProgressObserver<'_>>,
    ) -> SearchReport<G::Action> {
        self.run_from(root_state, stop, progress, |_| {})
    }

    /// [`Search::run_observed`], with `prime` called on the expanded root before the workers start (the
    /// tests use it to start the counters near `u32::MAX`; every public run passes a no-op).
    fn run_from(
        &self,
        root_state: &G::State,
        stop: Option<&AtomicBool>,
        progress: Option<ProgressObserver<'_>>,
        prime: impl FnOnce(&GameNode<G>),
    ) -> SearchReport<G::Action> {
        let start = Instant::now();
        let params = self.effective_params(stop.is_some());
        let mut tree = Tree::new(self.game, root_state, &params);
        let gauges = memory_gauges(params.threads);
        let control = Control { stop, gauges: &gauges, stop_when_full: false };
        self.run_on(&mut tree, root_state, &params, start, control, progress, prime)
    }

    /// The parameters a run uses: with neither a playout nor a time limit nor a stop flag,
    /// [`DEFAULT_PLAYOUTS`] playouts (the others are checked when the search is made).
    pub(crate) fn effective_params(&self, has_stop: bool) -> SearchParams {
        let mut params = self.params.clone();
        if params.playouts.is_none() && params.time_ms.is_none() && !has_stop {
            params.playouts = Some(params::DEFAULT_PLAYOUTS);
        }
        params
    }

    /// Searches `tree`, whose root stands for `root_state`, with `params` (from
    /// [`Search::effective_params`]) from `start` on, adding to the statistics the tree already holds.
    /// `gauges` ([`memory_gauges`] for `params.threads`) receive the bytes held while it runs.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_on(
        &self,
        tree: &mut Tree<G>,
        root_state: &G::State,
        params: &SearchParams,
        start: Instant,
        Control { stop, gauges, stop_when_full }: Control<'_>,
        progress: Option<ProgressObserver<'_>>,
        prime: impl FnOnce(&GameNode<G>),
    ) -> SearchReport<G::Action> {
        let game = self.game;
        let root_turn = game.to_move(root_state);
        let root: &GameNode<G> = tree.root();
        let count_before = RootCount::of(root);
        debug_assert!(game.players() <= <G::Returns as Returns>::PLAYERS, "more players than Returns entries");
        let two_players = game.players() == 2 && <G::Returns as Returns>::PLAYERS >= 2;
        let solver = match (params.solver, game.win_draw_loss() && two_players) {
            (false, _) => SolverStatus::DisabledByParams,
            (true, false) => SolverStatus::NotWinDrawLoss,
            (true, true) => SolverStatus::On,
        };
        // The playout claim is written by every worker's batch and the stop flag read on every playout:
        // each gets its own cache line, so that neither write traffic slows the other's readers.
        let claimed = CachePadded::new(AtomicU64::new(0));
        let internal_stop = CachePadded::new(AtomicBool::new(false));
        let Tree { base, arenas, table, nodes: tree_nodes, .. } = tree;
        let shared = Shared {
            game,
            policy: self.policy,
            root_moves: self.root_moves.as_ref().map(|(m, c)| (m.as_slice(), *c)),
            root,
            root_state,
            table: table.as_ref(),
            claimed: &claimed,
            stop: &internal_stop,
            external_stop: stop,
            deadline: params.time_ms.map(|ms| start + Duration::from_millis(ms)),
            bounds: game.value_bounds(),
            solver: solver.is_on(),
            backup: if game.players() == 1 { params.backup } else { Backup::Mean },
            memory: gauges,
            stop_when_full,
        };

        if root_turn != Turn::Terminal {
            let mut w = Worker::new(&shared, params.clone(), base, 0).without_gauge();
            w.expand_root();
            *tree_nodes += w.stats.nodes;
        }
        prime(root);
        if solver.is_on() && root.proof_relaxed().is_some() {
            // A kept root already proven (a session's tree): nothing a search could change.
            internal_stop.store(true, Ordering::Relaxed);
        }
        let threads = params.threads;
        let held = tree::held_bytes(base, arenas, table.as_ref());
        // The workers share what the table and the tree built so far leave of the budget.
        let share = params.memory_bytes.saturating_sub(held) / threads;
        while arenas.len() < threads {
            arenas.push(Bump::new());
        }
        for (i, arena) in arenas.iter_mut().enumerate() {
            let room = if i < threads { share } else { 0 };
            arena.set_allocation_limit(Some(arena.allocated_bytes() + room));
        }
        debug_assert!(gauges.len() > threads, "a gauge per worker and one for the rest");
        for (gauge, arena) in gauges.iter().zip(arenas.iter()) {
            gauge.store(arena.allocated_bytes(), Ordering::Relaxed);
        }
        let rest = held - arenas[..threads].iter().map(Bump::allocated_bytes).sum::<usize>();
        if let Some(g) = gauges.get(threads) {
            g.store(rest, Ordering::Relaxed);
        }
        let workers = &mut arenas[..threads];

        let mut stats = Vec::with_capacity(threads);
        // The payload of the first worker panic (a panicking game), re-raised once every worker is done.
        let first_panic: Mutex<Option<Box<dyn Any + Send>>> = Mutex::new(None);
        if root_turn != Turn::Terminal {
            let shared = &shared;
            let first_panic = &first_panic;
            std::thread::scope(|scope| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .enumerate()
                    .map(|(i, arena)| {
                        let params = params.clone();
                        scope.spawn(move || {
                            let worker = AssertUnwindSafe(|| {
                                if params.pin_threads {
                                    pin_to_worker_core(i);
                                }
                                let arena: &Bump = arena;
                                let mut w = Worker::new(shared, params, arena, i);
                                w.run();
                                w.stats
                            });
                            match panic::catch_unwind(worker) {
                                Ok(stats) => Some(stats),
                                Err(payload) => {
                                    // Stop the other workers now rather than at their limits.
                                    shared.stop.store(true, Ordering::Relaxed);
                                    first_panic.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(payload);
                                    None
                                }
                            }
                        })
                    })
                    .collect();
                // A panic on this thread (in the observer) stops the workers too.
                let _stop_on_panic = StopOnPanic(shared.stop);
                if let Some((interval, observer)) = progress {
                    // The calling thread reports progress while the workers search.
                    let interval = Duration::from_millis(interval.max(1));
                    let mut next = Instant::now() + interval;
                    while !handles.iter().all(|h| h.is_finished()) {
                        std::thread::sleep(Duration::from_millis(5).min(interval));
                        if Instant::now() >= next {
                            next += interval;
                            observer(&progress_of(game, root, start, count_before, gauges, params.statistics));
                        }
                    }
                }
                for h in handles {
                    match h.join() {
                        Ok(worker_stats) => stats.extend(worker_stats),
                        Err(payload) => panic::resume_unwind(payload),
                    }
                }
            });
        }
        if let Some(payload) = first_panic.into_inner().unwrap_or_else(PoisonError::into_inner) {
            // The tree is dropped unreported with the arenas (a session drops it too), so the panicking
            // worker's virtual loss (and an expansion claim it may hold) is never seen.
            panic::resume_unwind(payload);
        }
        let elapsed = start.elapsed();

        let total = stats.iter().fold(WorkerStats::default(), |mut acc, s| {
            acc.playouts += s.playouts;
            acc.nodes += s.nodes;
            acc.table_hits += s.table_hits;
            acc.depth_sum += s.depth_sum;
            acc.max_depth = acc.max_depth.max(s.max_depth);
            acc.memory_limited |= s.memory_limited;
            acc.root_value_sum += s.root_value_sum;
            acc.root_counted |= s.root_counted;
            acc.root_miscounted |= s.root_miscounted;
            acc
        });
        *tree_nodes += total.nodes;
        let memory_bytes = tree::held_bytes(base, arenas, table.as_ref());
        let elapsed_ms = elapsed.as_secs_f64() * 1e3;

        let actions = root_actions(game, root, root.visits_relaxed(), params.statistics);
        let (root_value, root_proof) = root_for_mover(game, root, root_turn);
        let best = best_action(&actions);
        let mut pv = Vec::new();
        if let Some(b) = &best {
            pv.push(b.name.clone());
            pv.extend(b.pv.iter().cloned());
        }
        let audit = params.audit.then(|| {
            let mut a = audit_tree(root, params.statistics);
            a.evaluated_value_sum = total.root_value_sum;
            a.counted_nodes += u64::from(total.root_counted);
            a.miscounted_nodes += u64::from(total.root_miscounted);
            a
        });
        SearchReport {
            best: best.map(|b| b.action),
            best_name: best.map(|b| b.name.clone()),
            pv,
            root_value,
            root_visits: root.visits_relaxed(),
            root_proof,
            playouts: total.playouts,
            nodes: *tree_nodes,
            max_depth: total.max_depth,
            mean_depth: if total.playouts > 0 { total.depth_sum as f64 / total.playouts as f64 } else { 0.0 },
            elapsed_ms,
            playouts_per_sec: if elapsed_ms > 0.0 { total.playouts as f64 / (elapsed_ms / 1e3) } else { 0.0 },
            memory_bytes,
            memory_limited: total.memory_limited,
            recycled_nodes: 0,
            table: table.as_ref().map(|t| TableStats {
                slots: t.capacity(),
                filled: t.filled(),
                hits: total.table_hits,
            }),
            normalisation: match game.value_bounds() {
                Some((lo, hi)) => format!("bounds [{lo}, {hi}]"),
                None if params.min_span > 0.0 => {
                    format!(
                        "per-node min/max of child means, spread at least {} of the largest |mean|",
                        params.min_span
                    )
                }
                None => "per-node min/max of child means".to_string(),
            },
            solver,
            threads,
            audit,
            actions,
        }
    }
}

/// How a run is stopped and watched: an external stop flag, the live memory gauges
/// ([`memory_gauges`] for its threads), and whether a full memory budget ends it.
pub(crate) struct Control<'a> {
    pub stop: Option<&'a AtomicBool>,
    pub gauges: &'a [CachePadded<AtomicUsize>],
    pub stop_when_full: bool,
}

/// Live memory gauges for a search of `threads` workers: one per worker and one for the rest of the
/// tree (see [`Shared::memory`](worker::Shared)).
pub(crate) fn memory_gauges(threads: usize) -> Vec<CachePadded<AtomicUsize>> {
    (0..=threads.max(1)).map(|_| CachePadded::new(AtomicUsize::new(0))).collect()
}

/// Sets the search's stop flag when dropped during a panic.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// A progress callback and its interval in milliseconds (see [`Search::run_observed`]).
pub type ProgressObserver<'a> = (u64, &'a mut dyn FnMut(&Progress));

/// A snapshot of a running search, for progress lines.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Milliseconds since the search started.
    pub elapsed_ms: f64,
    /// Playouts of this search backed up into the root so far.
    pub playouts: u64,
    /// The root's visit count: `playouts` plus the visits a kept subtree brought ([`crate::Session`]).
    pub root_visits: u64,
    /// Name of the most visited root action so far.
    pub best: Option<String>,
    /// Mean return of that action so far.
    pub best_mean: Option<f64>,
    /// Bytes the tree holds so far (arenas and table), as the workers last published them.
    pub memory_bytes: usize,
    /// Visits of that action so far (0 when there is none).
    pub best_visits: u64,
    /// Visits of the second most visited root action so far (0 when there is none).
    pub second_visits: u64,
}

/// Transposition-table size for a search: enough for the playouts it may run (each playout adds at most
/// one node), never more than `1/TABLE_SHARE` of the memory budget, nor of the machine's memory
/// (`physical`, in bytes, when known).
fn table_slots(params: &SearchParams, physical: Option<usize>) -> usize {
    let usable = physical.map_or(params.memory_bytes, |m| m.min(params.memory_bytes));
    let budget_slots = (usable / TABLE_SHARE / tt::SLOT_BYTES).max(16);
    let max_slots = if budget_slots.is_power_of_two() { budget_slots } else { budget_slots.next_power_of_two() / 2 };
    let by_playouts = params.playouts.map(|p| (p as usize).saturating_mul(2));
    let by_time = params.time_ms.map(|ms| (ms as usize).saturating_mul(PLAYOUTS_PER_MS_ESTIMATE * params.threads));
    let wanted = match (by_playouts, by_time) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => max_slots,
    };
    wanted.max(16).min(max_slots)
}

/// A table of `slots` slots or, when the allocator refuses it, of half as many, and so on; `None` (no
/// table) when it refuses even 16 slots.
fn allocate_table<M>(slots: usize) -> Option<TranspositionTable<M>> {
    let mut slots = slots.max(16);
    loop {
        if let Some(table) = TranspositionTable::try_with_slots(slots) {
            return Some(table);
        }
        if slots <= 16 {
            return None;
        }
        slots /= 2;
    }
}

#[cfg(all(test, not(canopy_loom)))]
mod counter_tests;

#[cfg(all(test, not(canopy_loom)))]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sized_from_the_machines_memory_when_the_budget_is_larger() {
        let machine = 24 << 30;
        let huge = SearchParams { memory_bytes: 1000 << 40, playouts: Some(1 << 40), ..SearchParams::default() };
        let slots = table_slots(&huge, Some(machine));
        assert!(slots * tt::SLOT_BYTES <= machine / TABLE_SHARE, "{slots} slots on a 24 GiB machine");
        assert!(slots.is_power_of_two() && slots >= (machine / TABLE_SHARE / tt::SLOT_BYTES) / 2);
        // Within the machine's memory the budget and the playouts size it, as before.
        let small = SearchParams { playouts: Some(10_000), ..SearchParams::default() };
        assert_eq!(table_slots(&small, Some(machine)), table_slots(&small, None));
        assert_eq!(table_slots(&small, None), 20_000);
    }

    #[test]
    fn a_table_the_allocator_refuses_is_replaced_by_a_smaller_one() {
        // 2^58 slots are 4 EiB, more than any address space: the allocator refuses them, and smaller
        // tables are tried until one is given. (`black_box`: an allocation nothing reads could be
        // optimised away, as if it had been given.)
        let table = std::hint::black_box(allocate_table::<u8>(1 << 58)).expect("some table");
        assert!(table.capacity() < 1 << 58, "{} slots", table.capacity());
        assert!(TranspositionTable::<u8>::try_with_slots(usize::MAX).is_none(), "overflowing size");
    }
}
