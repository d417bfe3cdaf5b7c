//! One worker thread: the playout loop (select → expand → evaluate → backup) over the shared tree.
//! Selection is in `select.rs`, MCTS-Solver's proofs in `solver.rs`.

use std::time::Instant;

use bumpalo::Bump;

use crate::game::{Game, Turn};
use crate::policy::{Coverage, Policy};
use crate::rng::{self, Rng};
use crate::search::node::{Edge, Node, NodeKind, Proof, Step};
use crate::search::params::{Backup, SearchParams, Selection, Statistics};
use crate::search::select::ScoreCache;
use crate::search::solver::{proof_returns, try_prove};
use crate::search::tt::{Lookup, TranspositionTable, Vacancy};
use crate::sync::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use crossbeam_utils::CachePadded;

/// The move type stored in a game's edges.
pub type GameStep<G> = Step<<G as Game>::Action, <G as Game>::Outcome>;
/// A node of a game's tree.
pub type GameNode<G> = Node<GameStep<G>>;
/// An edge of a game's tree.
pub type GameEdge<G> = Edge<GameStep<G>>;

/// State shared by all workers of one search (read-mostly).
pub(crate) struct Shared<'a, G: Game, P: Policy<G>> {
    pub game: &'a G,
    pub policy: &'a P,
    /// The root's moves and what they leave out, when the search restricts the root
    /// ([`crate::Search::with_root_moves`]).
    pub root_moves: Option<(&'a [G::Action], Coverage)>,
    pub root: &'a GameNode<G>,
    pub root_state: &'a G::State,
    pub table: Option<&'a TranspositionTable<GameStep<G>>>,
    /// Playouts claimed so far (claimed in batches; see [`Worker::run`]).
    pub claimed: &'a AtomicU64,
    pub stop: &'a AtomicBool,
    pub external_stop: Option<&'a AtomicBool>,
    pub deadline: Option<Instant>,
    /// Value bounds from the game, if it declares them.
    pub bounds: Option<(f64, f64)>,
    /// MCTS-Solver is on (the parameters ask for it and the game declares
    /// [`Game::win_draw_loss`]).
    pub solver: bool,
    /// The backup operator at decision nodes: the parameters' in single-player games, else
    /// [`Backup::Mean`] ([`Backup::Max`] and [`Backup::Robust`] are for single-player games).
    pub backup: Backup,
    /// Bytes held by each worker's arena, as its worker last saw them (for live memory figures; one
    /// cache line each, as each worker writes its own).
    pub memory: &'a [CachePadded<AtomicUsize>],
    /// End the search when the memory budget stops the tree from growing (a session then recycles
    /// memory and searches on, [`crate::search::Limits::until_full`]).
    pub stop_when_full: bool,
}

/// Per-worker counters, batched locally and summed when the search ends.
#[derive(Clone, Debug, Default)]
pub(crate) struct WorkerStats {
    pub playouts: u64,
    pub nodes: u64,
    pub table_hits: u64,
    pub depth_sum: u64,
    pub max_depth: u64,
    pub memory_limited: bool,
    /// Sum of the returns backed up into the root (for the conservation audit).
    pub root_value_sum: f64,
    /// With one worker and an audit: whether the root's edge-visit sum this worker kept
    /// ([`Worker::root_edge_visits`]) was checked against the edges, and whether it differed.
    pub root_counted: bool,
    pub root_miscounted: bool,
}

/// One step of the current playout path.
struct PathStep<M> {
    node: *const Node<M>,
    edge: *const Edge<M>,
    /// Player credited with the edge's reward (the mover at a decision node).
    mover: u8,
}

/// One worker thread's search: its arena, random number generator, position and reused buffers. The
/// playout loop, expansion and backup are here; selection is in `select.rs`.
pub(crate) struct Worker<'a, G: Game, P: Policy<G>> {
    /// This worker's index among the search's workers (`0..threads`; its RNG stream, its memory gauge,
    /// and its own outcomes at chance nodes).
    pub(super) index: usize,
    pub(super) shared: &'a Shared<'a, G, P>,
    pub(super) params: SearchParams,
    arena: &'a Bump,
    pub(super) rng: Rng,
    pub(super) state: G::State,
    path: Vec<PathStep<GameStep<G>>>,
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Outcome, f64)>,
    rewards: Vec<f32>,
    priors: Vec<f32>,
    scratch: Vec<G::Action>,
    /// This worker's entry of [`Shared::memory`] (`None`: the root's expander, which has none).
    gauge: Option<usize>,
    /// Backups of the root not yet added to it: playouts and their returns for the root's player
    /// ([`ROOT_FLUSH`]).
    root_pending: (u64, f64),
    /// With one worker: the sum of the root's edges' visits, kept by this worker (the root's own count is
    /// written in batches, so it cannot give the sum as other nodes do, [I14]); summed when the root is
    /// first selected at in a run (`None` until then, and with several workers).
    pub(super) root_edge_visits: Option<u64>,
    /// With more than one worker: this worker's backups through the root's edges and the edges of the
    /// next [`BATCH_PLIES`] - 1 plies, and into the nodes they lead to, not yet added to them
    /// ([`Batched`], one per root edge); empty with one worker.
    pub(super) batch: Vec<Batched>,
    /// The entries of `batch` that hold backups not yet flushed.
    batch_dirty: Vec<u32>,
    /// The edge indices the current playout took at the batched plies.
    batch_path: [usize; BATCH_PLIES],
    /// Plies batched now: `SearchParams::batch_plies` (0 with one worker), at most one until the root has
    /// [`DEEP_BATCH_FROM`] visits.
    batch_plies: usize,
    /// Plies this search batches once the root has [`DEEP_BATCH_FROM`] visits.
    batch_plies_target: usize,
    /// This worker is the search's only one, so the only writer of the tree's counters ([I4]).
    pub(super) single_writer: bool,
    /// UCT's means come from the edges ([`Statistics::Edge`]): backups add values to the edges, not to
    /// the nodes.
    pub(super) edge_stats: bool,
    /// Playouts until the next flush of the root's batched statistics.
    until_flush: u64,
    /// Square roots of the natural logarithms of small visit counts, for UCT (`select.rs`).
    pub(super) sqrt_ln_table: &'static [f64],
    /// Reciprocals and their square roots of small visit counts, for UCT (`select.rs`).
    pub(super) recip_table: &'static [super::select::Reciprocals],
    /// With one worker: UCT's terms of the widest, most visited nodes ([`ScoreCache`]).
    pub(super) score_cache: ScoreCache,
    /// UCT's per-child terms of the wide node being scored by a selection that reads its edges once
    /// (`select.rs`, `Uct::select_reading_once`); as long as the widest such node's children.
    pub(super) uct_terms: Vec<[f64; 2]>,
    pub stats: WorkerStats,
}

/// Most plies from the root whose edges (and the nodes below them) a worker backs up in batches when
/// several workers search ([`Batched`], [`SearchParams::batch_plies`]): the root's edges and the next
/// ply's. (Three plies were slower for Gomoku: a batch per grandchild costs more than it saves.)
pub(crate) const BATCH_PLIES: usize = 2;

/// A worker's backups through one edge of the first [`BATCH_PLIES`] plies and into the node it leads to
/// that are not in the tree yet.
///
/// Every playout writes one root edge and the node below it, one edge of that node and the node below
/// that, and every selection there reads all their edges and children: with several workers these are
/// the cache lines that move between cores on every playout. So each worker keeps its own backups at
/// these plies here and adds them to the tree in batches ([`root_flush_interval`]); its own selections
/// there count them (its view is as exact as with direct writes), the other workers see them at the next
/// flush. A playout's pass over a batched edge is not published as virtual loss: it is backed up before
/// the worker selects again, and the other workers' selections further down carry the virtual loss that
/// spreads them.
#[derive(Clone, Debug, Default)]
pub(super) struct Batched {
    /// Backups through the edge.
    pub visits: u64,
    /// The sum of their returns-to-go for the edge's mover ([`Statistics::Edge`] only).
    pub value: f64,
    /// Backups into the edge's child node, and the sum of their values (for the child's player).
    pub child_visits: u64,
    pub child_value: f64,
    /// The same for the child's edges at the next ply: empty until a playout is batched there, and at
    /// the last batched ply.
    pub below: Vec<Batched>,
    /// Whether this entry holds backups not yet flushed (it is then listed in its level's dirty list).
    dirty: bool,
    /// The entries of `below` that hold backups not yet flushed.
    below_dirty: Vec<u32>,
}

/// The level of `batch` below the edges `path[..depth]`, when `depth` is one of the `plies` batched.
#[inline]
fn batched_level_of<'b>(
    batch: &'b [Batched],
    path: &[usize; BATCH_PLIES],
    depth: usize,
    plies: usize,
) -> Option<&'b [Batched]> {
    if batch.is_empty() || depth >= plies {
        return None;
    }
    let mut level = batch;
    for &i in &path[..depth] {
        level = &level[i].below;
    }
    Some(level)
}

/// Adds the entries of `deltas` listed in `dirty` (one entry per edge of `edges`, and recursively below)
/// to the tree, and clears them and the list.
fn flush_batched<M>(edges: &[Edge<M>], deltas: &mut [Batched], dirty: &mut Vec<u32>) {
    for i in dirty.drain(..) {
        let (edge, d) = (&edges[i as usize], &mut deltas[i as usize]);
        d.dirty = false;
        if d.visits > 0 {
            edge.add_backups_relaxed(std::mem::take(&mut d.visits), std::mem::take(&mut d.value));
        }
        // A batched backup into a child, or below it, was made through the linked child and its
        // published children block, so both are there.
        let Some(child) = edge.child_acquire() else { continue };
        if d.child_visits > 0 {
            child.add_backups_relaxed(std::mem::take(&mut d.child_visits), std::mem::take(&mut d.child_value));
        }
        if !d.below_dirty.is_empty() {
            if let Some(grandchildren) = child.children_acquire() {
                flush_batched(grandchildren, &mut d.below, &mut d.below_dirty);
            }
        }
    }
}

/// Playouts between flushes of a worker's root-level backups when the root has `root_visits` visits:
/// `root_visits / 64`, between 1 and [`ROOT_FLUSH`], so that what the other workers do not see yet stays
/// under about 1/64 of the root's statistics per worker (early in a search every few playouts count).
fn root_flush_interval(root_visits: u64) -> u64 {
    (root_visits / 64).clamp(1, ROOT_FLUSH)
}

/// Root visits from which the plies below the first are batched too ([`SearchParams::batch_plies`] 2):
/// 64 flush intervals of [`ROOT_FLUSH`] playouts, where the interval stops growing. Until then the nodes
/// of the second ply are small, and a worker's hidden backups would be a large share of them: with the
/// second ply batched from the start, two-thread Gomoku searches of 2 000 playouts a move scored 0.450
/// against one ply batched, and 0.542 with 20 000 (120 games each, docs/BENCHMARKS.md).
pub(crate) const DEEP_BATCH_FROM: u64 = 64 * ROOT_FLUSH;

/// Playouts a worker backs up into the root before it writes them to the root's shared counters. Every
/// playout passes the root, so its visit count and value sum are the most written words of the tree; no
/// playout reads them (selection at the root counts its edges' visits, and the root is always expanded),
/// so each worker adds its backups there in batches, and when its search ends. Reports are made after
/// the workers join and see every backup; a snapshot taken during the search can miss up to this many
/// playouts per worker.
pub(crate) const ROOT_FLUSH: u64 = 64;

impl<'a, G: Game, P: Policy<G>> Worker<'a, G, P> {
    pub fn new(shared: &'a Shared<'a, G, P>, params: SearchParams, arena: &'a Bump, index: usize) -> Self {
        let rng = rng::seeded(params.seed, index as u64);
        let edge_stats = params.statistics == Statistics::Edge;
        Self {
            index,
            shared,
            params,
            arena,
            rng,
            state: shared.root_state.clone(),
            path: Vec::with_capacity(256),
            actions: Vec::new(),
            outcomes: Vec::new(),
            rewards: Vec::new(),
            priors: Vec::new(),
            scratch: Vec::new(),
            gauge: Some(index),
            root_pending: (0, 0.0),
            root_edge_visits: None,
            score_cache: ScoreCache::default(),
            uct_terms: Vec::new(),
            batch: Vec::new(),
            batch_dirty: Vec::new(),
            batch_path: [0; BATCH_PLIES],
            batch_plies: 0,
            batch_plies_target: 0,
            single_writer: false,
            edge_stats,
            until_flush: ROOT_FLUSH,
            sqrt_ln_table: super::select::sqrt_ln_table(),
            recip_table: super::select::recip_table(),
            stats: WorkerStats::default(),
        }
    }

    /// The same worker without a memory gauge (the root's expander, whose arena is not a worker's).
    pub fn without_gauge(self) -> Self {
        Self { gauge: None, ..self }
    }

    /// Records that the budget stopped the tree from growing (and ends the search when asked to).
    fn memory_full(&mut self) {
        self.stats.memory_limited = true;
        if self.shared.stop_when_full {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Publishes this worker's arena size to its gauge.
    fn note_memory(&self) {
        if let Some(g) = self.gauge.and_then(|i| self.shared.memory.get(i)) {
            g.store(self.arena.allocated_bytes(), Ordering::Relaxed);
        }
    }

    /// Runs playouts until a limit or a stop flag ends the search.
    ///
    /// Playouts are claimed from the shared counter in batches, so the counter is written once per batch,
    /// not once per playout; the total never exceeds the limit.
    pub fn run(&mut self) {
        let limit = self.params.playouts;
        let threads = self.params.threads.max(1) as u64;
        let batch = limit.map_or(1, |l| (l / (threads * 64)).clamp(1, 256));
        let mut budget = 0u64;
        let root = self.shared.root;
        self.batch_plies_target = (self.params.batch_plies as usize).min(BATCH_PLIES);
        self.batch_plies = self.batch_plies_target.min(1);
        // With `shared_paths` one worker takes the several-worker paths (a measuring aid).
        let several = threads > 1 || self.params.shared_paths;
        self.single_writer = !several;
        self.root_edge_visits = None;
        self.score_cache.clear();
        if several && self.batch_plies > 0 && root.kind() == NodeKind::Decision {
            if let Some(children) = root.children_acquire() {
                self.batch = vec![Batched::default(); children.len()];
                self.until_flush = root_flush_interval(root.visits_relaxed());
                self.deepen_batch(root.visits_relaxed());
            }
        }
        loop {
            if self.shared.stop.load(Ordering::Relaxed)
                || self.shared.external_stop.is_some_and(|s| s.load(Ordering::Relaxed))
            {
                break;
            }
            if let Some(deadline) = self.shared.deadline {
                if Instant::now() >= deadline {
                    self.shared.stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            if budget == 0 {
                match limit {
                    Some(l) => {
                        let prev = self.shared.claimed.fetch_add(batch, Ordering::Relaxed);
                        if prev >= l {
                            break;
                        }
                        budget = batch.min(l - prev);
                    }
                    None => budget = u64::MAX,
                }
            }
            self.playout();
            budget -= 1;
        }
        self.flush_root();
        if let (true, Some(kept), Some(children)) = (self.params.audit, self.root_edge_visits, root.children_acquire())
        {
            self.stats.root_counted = true;
            self.stats.root_miscounted = kept != children.iter().map(|e| e.visits_relaxed()).sum::<u64>();
        }
    }

    /// The batched statistics of the edges out of the current playout's node, when its statistics are
    /// batched (several workers, and the playout has taken fewer steps than the plies batched).
    pub(super) fn batched_level(&self) -> Option<&[Batched]> {
        batched_level_of(&self.batch, &self.batch_path, self.path.len(), self.batch_plies)
    }

    /// The nodes the current playout has stepped out of, from the root.
    pub(super) fn path_nodes(&self) -> impl Iterator<Item = *const GameNode<G>> + '_ {
        self.path.iter().map(|step| step.node)
    }

    /// [`Worker::batched_level`] and the random number generator, borrowed together.
    pub(super) fn batched_level_and_rng(&mut self) -> (Option<&[Batched]>, &mut Rng) {
        (batched_level_of(&self.batch, &self.batch_path, self.path.len(), self.batch_plies), &mut self.rng)
    }

    /// [`Worker::batched_level`] and the buffer of UCT's terms ([`Worker::uct_terms`]), borrowed together.
    pub(super) fn batched_level_and_terms(&mut self) -> (Option<&[Batched]>, &mut Vec<[f64; 2]>) {
        (batched_level_of(&self.batch, &self.batch_path, self.path.len(), self.batch_plies), &mut self.uct_terms)
    }

    /// Makes the batched level of the current node ([`Worker::batched_level`]) hold one entry per edge of
    /// its `len` children.
    fn size_batched_level(&mut self, len: usize) {
        let depth = self.path.len();
        let mut level = &mut self.batch;
        for &i in &self.batch_path[..depth] {
            level = &mut level[i].below;
        }
        if level.len() != len {
            level.resize(len, Batched::default());
        }
    }

    /// [`Statistics::Edge`]'s backup of a node below the root, which holds no value: with one worker its
    /// visit is counted (for [`GameNode::edge_visits_single_writer`] and the expansion threshold); with
    /// several, nothing is written but, once, the mark that its count no longer gives its edges' visits
    /// ([I14]).
    #[inline]
    fn count_node(&self, node: &GameNode<G>) {
        if self.single_writer {
            node.count_visit_single_writer();
        } else {
            node.uncount_relaxed();
        }
    }

    /// [`Worker::count_node`] for the leaf a playout ended at. With several workers a leaf that is not
    /// expanded yet also counts the visit (one `fetch_add`, [I4]; the node's only write on such a
    /// playout's path), so that the expansion threshold sees every visit of a position however the
    /// playouts reached it: by the edge's count alone, a position that transpositions reach by many
    /// edges would wait for a second visit through one of them, and stay a leaf (tic-tac-toe's proof of
    /// the empty board took two to three times the playouts on two threads).
    #[inline]
    fn count_leaf(&self, leaf: &GameNode<G>) {
        if !self.single_writer && leaf.children_acquire().is_none() {
            leaf.count_visit_relaxed();
        }
        self.count_node(leaf);
    }

    /// Backs up one playout's `value` into `node` (with one worker by loads and stores, [I4]).
    #[inline]
    fn backup_node(&self, node: &GameNode<G>, value: f64) {
        if self.single_writer {
            node.backup_single_writer(value);
        } else {
            node.backup_relaxed(value);
        }
    }

    /// Whether the leaf `node`, reached by the current path, has the visits the expansion threshold asks
    /// for: its own count or, with [`Statistics::Edge`] (whose backups with several workers do not count
    /// it), the count of the edge the path reached it by. The root is always due: it is always
    /// expanded, so its children carry the statistics the report needs.
    #[inline]
    fn expansion_due(&self, node: &GameNode<G>) -> bool {
        let threshold = u64::from(self.params.expand_threshold);
        node.visits_relaxed() >= threshold
            || std::ptr::eq(node, self.shared.root)
            || self.edge_stats
                && self.path.last().is_some_and(|step| {
                    // SAFETY: [I6] path pointers were taken from the live tree during this playout.
                    unsafe { &*step.edge }.visits_relaxed() >= threshold
                })
    }

    /// Backs up `value` into the batch of the node the edge of ply `k` leads to.
    fn batch_child(&mut self, k: usize, value: f64) {
        let e = self.batched_entry(k);
        e.child_visits += 1;
        e.child_value += value;
    }

    /// The batched entry of the edge the current playout took at ply `k` (< [`BATCH_PLIES`]), marked (with
    /// the entries above it) as holding backups to flush.
    fn batched_entry(&mut self, k: usize) -> &mut Batched {
        let path = self.batch_path;
        let mut dirty = &mut self.batch_dirty;
        let mut level = &mut self.batch;
        for &i in &path[..k] {
            let entry = &mut level[i];
            if !entry.dirty {
                entry.dirty = true;
                dirty.push(i as u32);
            }
            dirty = &mut entry.below_dirty;
            level = &mut entry.below;
        }
        let entry = &mut level[path[k]];
        if !entry.dirty {
            entry.dirty = true;
            dirty.push(path[k] as u32);
        }
        entry
    }

    /// Adds the root-level backups this worker holds to the tree: the root's counters and, with
    /// several workers, the edges of the first plies and the nodes below them ([`Batched`]).
    fn flush_root(&mut self) {
        let root = self.shared.root;
        let (visits, value) = std::mem::take(&mut self.root_pending);
        if visits > 0 {
            root.add_backups_relaxed(visits, value);
        }
        if let Some(children) = root.children_acquire().filter(|_| !self.batch.is_empty()) {
            flush_batched(children, &mut self.batch, &mut self.batch_dirty);
            let visits = root.visits_relaxed();
            self.until_flush = root_flush_interval(visits);
            self.deepen_batch(visits);
        } else {
            self.until_flush = ROOT_FLUSH;
        }
    }

    /// Batches the plies below the first too ([`SearchParams::batch_plies`] 2) once the root has
    /// [`DEEP_BATCH_FROM`] visits. Called with the batch empty (before the first playout, or right after
    /// a flush), so no backup is pending at a ply that starts being batched.
    fn deepen_batch(&mut self, root_visits: u64) {
        if self.batch_plies < self.batch_plies_target && root_visits >= DEEP_BATCH_FROM {
            self.batch_plies = self.batch_plies_target;
        }
    }

    /// Expands the root before the workers start, so every playout leaves the root through an edge and
    /// the root's edge visits add up to the playouts. Returns false when the root is terminal or memory
    /// is too small for its children.
    pub fn expand_root(&mut self) -> bool {
        let root = self.shared.root;
        root.kind() != NodeKind::Terminal && root.try_claim_expansion() && self.expand(root).is_some()
    }

    /// Allocates `value` in this worker's arena; `None` when the memory budget is spent.
    fn alloc<T>(&mut self, value: T) -> Option<*mut T> {
        match self.arena.try_alloc(value) {
            Ok(r) => {
                let r = r as *mut T;
                self.note_memory();
                Some(r)
            }
            Err(_) => {
                self.memory_full();
                None
            }
        }
    }

    /// One playout from the root.
    fn playout(&mut self) {
        let shared = self.shared;
        let game = shared.game;
        self.state.clone_from(shared.root_state);
        self.path.clear();
        let mut node: &GameNode<G> = shared.root;
        // The node at the end of the path (None: the leaf has no node, because it waits for one
        // (`leaf_waits_for_its_node`) or because memory ran out).
        let leaf: Option<&GameNode<G>>;
        let value: G::Returns;
        // Below a sampled (open-loop) chance outcome a node stands for many positions: its stored kind
        // and actions may not fit the position this playout holds.
        let mut open_loop = false;
        loop {
            if node.kind() == NodeKind::Terminal {
                value = game.returns(&self.state);
                leaf = Some(node);
                break;
            }
            if open_loop {
                let turn = game.to_move(&self.state);
                if turn == Turn::Terminal {
                    value = game.returns(&self.state);
                    leaf = Some(node);
                    break;
                }
                if node_kind(turn) != node.kind() {
                    value = shared.policy.rollout(game, &self.state, &mut self.rng, &mut self.scratch);
                    leaf = Some(node);
                    break;
                }
            }
            if let Some(proof) = shared.solver.then(|| node.proof_relaxed()).flatten() {
                // MCTS-Solver: a proven node is never searched again; its exact value is backed up.
                value = proof_returns(node.player(), proof);
                leaf = Some(node);
                break;
            }
            let children = match node.children_acquire() {
                Some(c) => c,
                None => {
                    // The root is always expanded, so its children carry the statistics the report
                    // needs.
                    let due = self.expansion_due(node);
                    let can_expand = !self.stats.memory_limited
                        && due
                        && if self.single_writer {
                            node.try_claim_expansion_single_writer()
                        } else {
                            node.try_claim_expansion()
                        };
                    match can_expand.then(|| self.expand(node)).flatten() {
                        Some(c) => c,
                        None => {
                            value = shared.policy.rollout(game, &self.state, &mut self.rng, &mut self.scratch);
                            leaf = Some(node);
                            break;
                        }
                    }
                }
            };
            // The first BATCH_PLIES steps of a playout are batched (several workers only).
            let batched_step = !self.batch.is_empty() && self.path.len() < self.batch_plies;
            if batched_step {
                self.size_batched_level(children.len());
            }
            let (index, mover) = self.select(node, children, open_loop);
            let edge = &children[index];
            if batched_step {
                self.batch_path[self.path.len()] = index;
            }
            if let (true, Step::Action(a)) = (open_loop, edge.step) {
                if !shared.policy.is_candidate(game, &self.state, a, &mut self.scratch) {
                    value = shared.policy.rollout(game, &self.state, &mut self.rng, &mut self.scratch);
                    leaf = Some(node);
                    break;
                }
            }
            if !batched_step {
                if self.single_writer {
                    edge.add_in_flight_single_writer();
                } else {
                    edge.add_in_flight_relaxed();
                }
            }
            match edge.step {
                // A linked child that is not terminal says the move does not end the game (in closed
                // loop the node is the position's own, whatever path reached it).
                Step::Action(a)
                    if G::APPLY_TO_NON_TERMINAL_SKIPS_WORK
                        && !open_loop
                        && edge.child_acquire().is_some_and(|c| c.kind() != NodeKind::Terminal) =>
                {
                    game.apply_to_non_terminal(&mut self.state, a);
                }
                Step::Action(a) => {
                    game.apply(&mut self.state, a);
                }
                Step::Outcome(o) => game.apply_outcome(&mut self.state, o),
                Step::Sampled => {
                    let o = game.sample_outcome(&self.state, &mut self.rng);
                    game.apply_outcome(&mut self.state, o);
                    open_loop = true;
                }
            }
            self.path.push(PathStep { node, edge, mover });
            match edge.child_acquire() {
                Some(child) => node = child,
                None => {
                    let turn = game.to_move(&self.state);
                    let create = !self.leaf_waits_for_its_node(edge, turn, open_loop, batched_step);
                    match self.create_child(node, edge, mover, open_loop, turn, create) {
                        Some(child) => node = child,
                        None => {
                            value = shared.policy.rollout(game, &self.state, &mut self.rng, &mut self.scratch);
                            leaf = None;
                            break;
                        }
                    }
                }
            }
        }
        self.backup(leaf, value);
    }

    /// Builds and publishes `node`'s children block; the caller holds the expansion claim. Returns `None`
    /// and gives the claim back when the block cannot be built: when this worker's arena is past the
    /// memory budget (the search is then memory-limited, and this worker expands no more nodes), or when
    /// the position has no moves.
    fn expand(&mut self, node: &GameNode<G>) -> Option<&'a [GameEdge<G>]> {
        let (game, policy) = (self.shared.game, self.shared.policy);
        // Whether the block is a pruned candidate set; published with the block ([I2]).
        let mut pruned = false;
        let edges: Option<&mut [GameEdge<G>]> = match game.to_move(&self.state) {
            Turn::Player(_) => {
                let mut coverage = policy.candidates(game, &self.state, &mut self.actions);
                if let (true, Some((moves, left_out))) = (std::ptr::eq(node, self.shared.root), self.shared.root_moves)
                {
                    self.actions.clear();
                    for &a in moves {
                        if !self.actions.contains(&a) && game.is_legal(&self.state, a, &mut self.scratch) {
                            self.actions.push(a);
                        }
                    }
                    coverage = coverage.and(left_out);
                }
                pruned = !coverage.allows_proofs();
                let n = self.actions.len();
                self.priors.clear();
                if !(self.params.selection == Selection::Puct
                    && policy.priors(game, &self.state, &self.actions, &mut self.priors)
                    && self.priors.len() == n)
                {
                    self.priors.clear();
                    self.priors.resize(n, 1.0);
                }
                let sum: f32 = self.priors.iter().sum();
                let scale = if sum > 0.0 { 1.0 / sum } else { 0.0 };
                self.priors.iter_mut().for_each(|p| *p = if scale > 0.0 { *p * scale } else { 1.0 / n as f32 });
                self.rewards.clear();
                if game.has_rewards() {
                    for &a in &self.actions {
                        let mut s = self.state.clone();
                        self.rewards.push(game.apply(&mut s, a) as f32);
                    }
                } else {
                    self.rewards.resize(self.actions.len(), 0.0);
                }
                let (actions, rewards, priors) = (&self.actions, &self.rewards, &self.priors);
                self.arena
                    .try_alloc_slice_fill_with(actions.len(), |i| {
                        Edge::new(Step::Action(actions[i]), priors[i], rewards[i])
                    })
                    .ok()
            }
            Turn::Chance => {
                game.chance_outcomes(&self.state, &mut self.outcomes);
                let outcomes = &self.outcomes;
                if outcomes.is_empty() {
                    // Too many outcomes to list: one open-loop edge, sampled on every traversal.
                    self.arena.try_alloc_slice_fill_with(1, |_| Edge::new(Step::Sampled, 1.0, 0.0)).ok()
                } else {
                    self.arena
                        .try_alloc_slice_fill_with(outcomes.len(), |i| {
                            Edge::new(Step::Outcome(outcomes[i].0), outcomes[i].1 as f32, 0.0)
                        })
                        .ok()
                }
            }
            Turn::Terminal => Some(&mut []),
        };
        let Some(edges) = edges else {
            // The memory budget is spent: give the claim back ([I1]), so the node stays a leaf that is
            // evaluated by rollouts and that a worker whose arena still has room may expand later.
            node.abandon_expansion();
            self.memory_full();
            return None;
        };
        if edges.is_empty() {
            node.abandon_expansion();
            return None;
        }
        let edges: &mut [GameEdge<G>] = edges;
        self.note_memory();
        let len = edges.len();
        let ptr = edges.as_mut_ptr();
        // [I14] With one worker, the node's count now is where the sum of its edges' visits starts.
        let expanded_at = self.single_writer.then(|| node.visits_relaxed());
        // SAFETY: [I1] we hold the expansion claim (the caller's compare-exchange succeeded); [I2] all
        // `len` edges were initialised above; [I6] the block lives in this worker's arena, which outlives
        // the search.
        unsafe { node.publish_children_release(ptr, len, pruned, expanded_at) };
        // SAFETY: [I6] same block, same lifetime.
        Some(unsafe { std::slice::from_raw_parts(ptr, len) })
    }

    /// Whether `edge`'s unlinked target (whose turn is `turn`) waits for its node: the playout then
    /// links the position's node if the transposition table has one, and otherwise ends there with a
    /// rollout without creating it. With [`Statistics::Edge`] the edge keeps the leaf's visits and
    /// values, and expansion waits for the edge's visits to reach `expand_threshold`
    /// ([`Worker::expansion_due`]), so a new node is created by the playout that expands it, not by the
    /// first playout to reach it; with the default threshold of 1, by the second through that edge.
    /// What a created leaf node held besides is given up: its count of visits by every path, which
    /// let a position reached once through each of two edges be expanded at its second visit; a
    /// transposed position now waits until one of its edges reaches the threshold. Not for terminal
    /// positions (their node carries the exact result), with MCTS-Solver (a position proven through
    /// another path is seen as proven only through the edges linked to its node: with the leaves'
    /// nodes waiting, proving tic-tac-toe's empty board took 1.3 to 6.6 times the playouts, seeds 1
    /// to 4), below a sampled outcome (open loop), at a batched ply (whose edge visits wait in the
    /// batch), or with [`Statistics::Node`] (a move's mean is its node's).
    #[inline]
    fn leaf_waits_for_its_node(&self, edge: &GameEdge<G>, turn: Turn, open_loop: bool, batched_step: bool) -> bool {
        self.edge_stats
            && !self.shared.solver
            && !open_loop
            && !batched_step
            && turn != Turn::Terminal
            && edge.visits_relaxed() < u64::from(self.params.expand_threshold)
    }

    /// Finds in the transposition table, or with `create` creates, the node for `edge`'s target, which
    /// `self.state` now holds (its turn `turn`), and links it. `None` when memory is spent, or when the
    /// table has no node for it and `create` is false.
    fn create_child(
        &mut self,
        parent: &GameNode<G>,
        edge: &'a GameEdge<G>,
        mover: u8,
        open_loop: bool,
        turn: Turn,
        create: bool,
    ) -> Option<&'a GameNode<G>> {
        let game = self.shared.game;
        let kind = node_kind(turn);
        let player = match parent.kind() {
            NodeKind::Chance => parent.player(),
            _ => mover as usize,
        };
        // Open-loop nodes stand for many positions, so they are never shared through the table.
        let key = match self.shared.table {
            Some(_) if !open_loop => game.zobrist(&self.state),
            _ => None,
        };
        // With one worker, the slot a new node goes to ([I13]).
        let mut vacant = None;
        if let (Some(table), Some(key)) = (self.shared.table, key) {
            let found = if self.single_writer {
                match table.probe_exclusive(key) {
                    Vacancy::Hit(node) => Some(node),
                    Vacancy::Vacant(index) => {
                        vacant = Some(index);
                        None
                    }
                    Vacancy::Full => None,
                }
            } else {
                table.probe(key)
            };
            if let Some(existing) = found {
                self.stats.table_hits += 1;
                // SAFETY: [I6] `existing` lives in a search arena.
                return Some(unsafe { self.link(edge, existing as *const _ as *mut _) });
            }
        }
        if !create {
            return None;
        }
        let fresh = self.alloc(Node::new(kind, player, key.unwrap_or(0)))?;
        if self.shared.solver && kind == NodeKind::Terminal {
            let r = game.returns(&self.state)[player];
            let proof = if r > 0.75 {
                Proof::Win
            } else if r < 0.25 {
                Proof::Loss
            } else {
                Proof::Draw
            };
            // SAFETY: [I6] `fresh` was just allocated in this worker's arena and is not yet shared.
            unsafe { (*fresh).set_proof_relaxed(proof) };
        }
        self.stats.nodes += 1;
        let mut target = fresh;
        match (self.shared.table, key, vacant) {
            (Some(table), Some(key), Some(index)) => {
                // SAFETY: [I6] `fresh` was fully built above and lives in this worker's arena; [I13] this
                // worker is the table's only writer, and `index` was found vacant for `key` above.
                unsafe { table.insert_exclusive(index, key, fresh) };
            }
            (Some(table), Some(key), None) if !self.single_writer => {
                // SAFETY: [I6] `fresh` was fully built above and lives in this worker's arena.
                if let Lookup::Hit(existing) = unsafe { table.get_or_insert(key, fresh) } {
                    self.stats.table_hits += 1;
                    target = existing as *const _ as *mut _;
                }
            }
            // An exclusive probe found the neighbourhood full: the node is not stored.
            _ => {}
        }
        // SAFETY: [I3] `target` is fully initialised; [I6] it lives in a search arena.
        Some(unsafe { self.link(edge, target) })
    }

    /// Links `node` as `edge`'s child ([`Edge::link_child_release`]; with one worker by a load and a
    /// store, [I13]).
    ///
    /// # Safety
    /// As for [`Edge::link_child_release`].
    #[inline]
    unsafe fn link(&self, edge: &'a GameEdge<G>, node: *mut GameNode<G>) -> &'a GameNode<G> {
        // SAFETY: the caller's guarantee; [I13] with one worker it is the edge's only writer.
        unsafe {
            if self.single_writer {
                edge.link_child_single_writer(node)
            } else {
                edge.link_child_release(node)
            }
        }
    }

    /// Adds the playout's returns along the path actually taken (never through parent pointers: in a DAG a
    /// node has many parents) and removes its virtual loss.
    fn backup(&mut self, leaf: Option<&GameNode<G>>, mut g: G::Returns) {
        let solver = self.shared.solver;
        let root = self.shared.root;
        // With batched statistics the path's first steps (fewer than BATCH_PLIES) back up their edges,
        // and the nodes those edges lead to, into this worker's batch.
        let batched_steps = if self.batch.is_empty() { 0 } else { self.path.len().min(self.batch_plies) };
        let mut proven_below = false;
        let edge_stats = self.edge_stats;
        if let Some(leaf) = leaf {
            let d = self.path.len();
            if edge_stats && !std::ptr::eq(leaf, root) {
                // The root keeps its own statistics whatever the setting (a playout that ends there, at
                // a terminal or proven root, backs up into it below).
                self.count_leaf(leaf);
            } else if d >= 1 && d <= batched_steps {
                self.batch_child(d - 1, g[leaf.player()]);
            } else {
                self.backup_node(leaf, g[leaf.player()]);
            }
            proven_below = solver && leaf.proof_relaxed().is_some();
        }
        let depth = self.path.len() as u64;
        for k in (0..self.path.len()).rev() {
            let step = &self.path[k];
            let mover = step.mover;
            // SAFETY: [I6] path pointers were taken from the live tree during this playout.
            let (node, edge) = unsafe { (&*step.node, &*step.edge) };
            if k < batched_steps {
                let entry = self.batched_entry(k);
                entry.visits += 1;
                if edge_stats {
                    entry.value += g[mover as usize];
                }
            } else if self.single_writer {
                if edge_stats {
                    edge.add_value_single_writer(g[mover as usize]);
                }
                edge.backup_single_writer();
            } else {
                if edge_stats {
                    edge.add_value_relaxed(g[mover as usize]);
                }
                edge.backup_relaxed();
            }
            g[mover as usize] += edge.reward as f64;
            if self.shared.backup != Backup::Mean && node.kind() == NodeKind::Decision {
                // Max or robust backup: carry the best (or the most visited) child's mean upward instead
                // of this playout's return.
                let statistics = self.params.statistics;
                let carried = match self.shared.backup {
                    Backup::Robust => node.children_acquire().and_then(|c| most_visited_child_value(c, statistics)),
                    _ => node.children_acquire().and_then(|c| best_child_value(c, statistics)),
                };
                if let Some(v) = carried {
                    g[node.player()] = v;
                }
            }
            if std::ptr::eq(node, root) {
                // The root's counters are written in batches (see ROOT_FLUSH).
                self.root_pending.0 += 1;
                self.root_pending.1 += g[node.player()];
                // With one worker, the sum of the root's edges' visits it keeps: any step out of the root
                // (backed up through its edge above), the first or one that came back round a cycle.
                if let Some(sum) = self.root_edge_visits.as_mut() {
                    *sum += 1;
                }
            } else if edge_stats {
                self.count_node(node);
            } else if k >= 1 && k <= batched_steps {
                self.batch_child(k - 1, g[node.player()]);
            } else {
                self.backup_node(node, g[node.player()]);
            }
            if proven_below {
                // MCTS-Solver: a proof only needs checking above a node that was just proven.
                proven_below = node.proof_relaxed().is_none() && try_prove(node, mover as usize);
                if proven_below && std::ptr::eq(node, root) {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.until_flush -= 1;
        if self.until_flush == 0 {
            self.flush_root();
        }
        // After the loop `g` is the playout's return-to-go from the root.
        self.stats.root_value_sum += g[self.shared.root.player()];
        self.stats.playouts += 1;
        self.stats.depth_sum += depth;
        self.stats.max_depth = self.stats.max_depth.max(depth);
    }
}

/// The edge's mean return for its mover: reward plus the child's mean return-to-go ([`Statistics::Node`])
/// or the edge's own ([`Statistics::Edge`]).
#[inline]
pub(crate) fn q_value<M>(e: &Edge<M>, statistics: Statistics) -> Option<f64> {
    match statistics {
        Statistics::Node => e.child_acquire()?.mean_relaxed().map(|m| m + e.reward as f64),
        Statistics::Edge => e.edge_mean_relaxed(),
    }
}

/// The best `reward + child mean` over the visited children (None when none has a value yet).
fn best_child_value<M>(children: &[Edge<M>], statistics: Statistics) -> Option<f64> {
    children.iter().filter_map(|e| q_value(e, statistics)).fold(None, |best, q| Some(best.map_or(q, |b: f64| b.max(q))))
}

/// `reward + child mean` of the most visited child edge that has a value (ties: the larger value); None
/// when no child has a value yet.
fn most_visited_child_value<M>(children: &[Edge<M>], statistics: Statistics) -> Option<f64> {
    children
        .iter()
        .filter_map(|e| q_value(e, statistics).map(|q| (e.visits_relaxed(), q)))
        .fold(None, |best: Option<(u64, f64)>, (n, q)| match best {
            Some((bn, bq)) if bn > n || (bn == n && bq >= q) => Some((bn, bq)),
            _ => Some((n, q)),
        })
        .map(|(_, q)| q)
}

/// The node kind for a position whose turn is `turn`.
pub(crate) fn node_kind(turn: Turn) -> NodeKind {
    match turn {
        Turn::Player(_) => NodeKind::Decision,
        Turn::Chance => NodeKind::Chance,
        Turn::Terminal => NodeKind::Terminal,
    }
}
