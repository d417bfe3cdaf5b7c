//! Tree nodes and edges: the shared, lock-free part of the search.
//!
//! ```text
//!  Node (48 bytes)                                   Edge<M> (40 bytes for 2048)
//!  ┌─────────────────────────────┐                   ┌────────────────────────┐
//!  │ visits  AtomicU64           │  only grows       │ value_sum  AtomicF64   │ only grows* (UCT1)
//!  ├─────────────────────────────┤                   ├────────────────────────┤
//!  │ value_sum  AtomicF64        │  only grows*      │ visits  AtomicU64      │ only grows
//!  ├─────────────────────────────┤                   ├───────────┬────────────┤
//!  │ key  u64  (immutable)       │                   │ selections│ prob  f32  │
//!  ├─────────────────────────────┤                   │ u32       │ immutable  │
//!  │ children *Edge  set once    │                   ├───────────┼────────────┤
//!  ├─────────────────┬──┬──┬──┬──┤                   │ reward f32│ step M     │ immutable
//!  │ block  u32      │ex│pl│kd│pf│                   ├───────────┴────────────┤
//!  ├─────────────────┼──┴──┴──┴──┤                   │ child  *Node  set once │
//!  │ expanded_at u32 │ (padding)  │                   └────────────────────────┘
//!  └─────────────────┴────────────┘
//!   block = length of the children block (bits 0..=30) and whether it is a pruned candidate set
//!   (bit 31), set once; ex = expansion state, pl = perspective player, kd = kind, pf = MCTS-Solver proof;
//!   expanded_at = visits when the block was published by one worker, set once (and later only marked
//!   uncounted)
//! ```
//! (*) `value_sum` changes only by adding backed-up values. The node's is written with
//! [`crate::search::Statistics::Node`] (UCT2), and for the root; the edge's with
//! [`crate::search::Statistics::Edge`] (UCT1).
//!
//! Virtual loss lives on edges, not nodes: in a DAG a playout's path is a sequence of edges, and a
//! node's in-flight count is the sum over its incoming edges.
//!
//! Visit counts are 64-bit: they only grow, and a `u32` would wrap after 4.3 billion playouts (hours of
//! open-ended analysis on a few threads). At 10^9 playouts per second a `u64` lasts 584 years. The
//! virtual-loss count is the difference between an edge's selections (32-bit, wrapping) and its visits:
//! it counts playouts in progress, not a running total, so 32 bits give it exactly, and a backup writes
//! one counter of the edge instead of two (see [`Edge::in_flight_relaxed`]).
//!
//! Invariants are numbered in docs/CONCURRENCY.md and cited as `[I1]`..`[I14]` below.

use std::ptr;

use crate::sync::{AtomicF64, AtomicPtr, AtomicU32, AtomicU64, AtomicU8, Ordering};

/// A move out of a node: a player's action at a decision node, a chance outcome at a chance node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<A, O> {
    /// A player's action.
    Action(A),
    /// A chance outcome.
    Outcome(O),
    /// Open-loop chance: the game's outcomes are too many to list, so every traversal samples its own
    /// outcome and the child stands for the distribution of positions after it.
    Sampled,
}

/// What kind of position a node stands for. Set at creation, never changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum NodeKind {
    /// A player chooses (the perspective player of the children is the mover).
    Decision = 0,
    /// Nature chooses among outcomes with known probabilities.
    Chance = 1,
    /// The game is over.
    Terminal = 2,
}

/// A game-theoretic value proven by the search (MCTS-Solver: Winands, Björnsson and Saito, "Monte-Carlo
/// Tree Search Solver", Computers and Games 2008), from the point of view of a stated player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[repr(u8)]
pub enum Proof {
    /// A win against every defence.
    Win = 1,
    /// A loss against best play.
    Loss = 2,
    /// A draw with best play on both sides.
    Draw = 3,
}

impl Proof {
    /// The same result seen by the opponent in a two-player zero-sum game.
    pub fn flipped(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            Proof::Draw => Proof::Draw,
        }
    }

    /// The exact value of the result on the two-player scale (win 1, draw 0.5, loss 0).
    pub fn value(self) -> f64 {
        match self {
            Proof::Win => 1.0,
            Proof::Loss => 0.0,
            Proof::Draw => 0.5,
        }
    }

    fn from_u8(v: u8) -> Option<Proof> {
        match v {
            1 => Some(Proof::Win),
            2 => Some(Proof::Loss),
            3 => Some(Proof::Draw),
            _ => None,
        }
    }
}

const UNEXPANDED: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// Bit of [`Node`]'s `block` word that marks a pruned candidate set; the bits below it hold the length.
const PRUNED_BIT: u32 = 1 << 31;
/// Most edges a children block can have (the length must leave [`PRUNED_BIT`] free).
pub const MAX_BLOCK_LEN: usize = (PRUNED_BIT - 1) as usize;

/// One position in the shared search graph.
///
/// All fields are either immutable after the node is published (`key`, `kind`, `player`) or atomics
/// written as the docs of each accessor say.
#[repr(C)]
pub struct Node<M> {
    /// Playouts backed up through this node. Only grows (Relaxed, [I4]); 64-bit, so it cannot wrap.
    visits: AtomicU64,
    /// Sum of the return-to-go of every playout backed up through this node, from the point of view of
    /// `player` (Relaxed, [I4]).
    value_sum: AtomicF64,
    /// Zobrist key of the position (0 when the game has none). Immutable.
    key: u64,
    /// Children block: null until published once with Release ([I1], [I2]).
    children: AtomicPtr<Edge<M>>,
    /// The children block's shape: its number of edges in the low 31 bits and, in bit 31
    /// ([`PRUNED_BIT`]), whether it holds a pruned candidate set ([`crate::Coverage::Pruned`]), so that
    /// MCTS-Solver proves no loss or draw over it. Written once by the expander, before the Release
    /// publication of `children` ([I2]).
    block: AtomicU32,
    /// `UNEXPANDED → EXPANDING → EXPANDED`; the compare-exchange to `EXPANDING` elects the one expander
    /// ([I1]).
    expansion: AtomicU8,
    /// The player whose return-to-go `value_sum` holds: the player who moved into the node. Immutable.
    player: u8,
    /// [`NodeKind`] as a byte. Immutable.
    kind: u8,
    /// MCTS-Solver result from `player`'s point of view: 0 = unknown, else a [`Proof`]. Goes from 0 to a
    /// value at most once in meaning (racing workers derive the same fact); Relaxed ([I9]).
    proof: AtomicU8,
    /// `visits` when the children block was published by a search with one worker (or copied with its
    /// block from such a node), [`UNCOUNTED`] otherwise: with one worker no playout ends at an expanded
    /// node that is not proven, so from then on every visit passes one of its edges, and the edges' visits
    /// sum to `visits - expanded_at` ([I14]). Relaxed, written before the Release publication of
    /// `children` ([I2]).
    expanded_at: AtomicU32,
}

/// A visit count as `f64`: the value `n as f64` gives, for every count below 2^63 (a count grows by one
/// per playout, so it would take 292 years at 10^9 playouts per second to reach that), by a signed
/// conversion, one instruction on x86-64 where an unsigned one takes several. Selection converts a
/// count or two per child scored.
#[inline(always)]
pub(crate) fn count_f64(n: u64) -> f64 {
    debug_assert!(n < 1 << 63, "a visit count of 2^63 or more");
    n as i64 as f64
}

/// [`Node`]'s `expanded_at` when the edges' visits cannot be told from the node's: the block was
/// published by a search with several workers (a playout that ended at the node as a leaf may back up
/// after the publication), or at `u32::MAX` visits or more.
const UNCOUNTED: u32 = u32::MAX;

/// One move out of a node, with its own statistics (needed for sound statistics in a DAG, where a node
/// has many parents: Childs, Brodeur and Kocsis, "Transpositions and move groups in Monte Carlo tree
/// search", CIG 2008).
#[repr(C)]
pub struct Edge<M> {
    /// Sum of the returns-to-go backed up through this edge, for its mover and without the edge's own
    /// `reward` (Relaxed, [I4]). Written only by searches with [`crate::search::Statistics::Edge`] (UCT1,
    /// where an edge's mean is `value_sum / visits + reward`), and copied with the edge. First, beside
    /// `visits` and `selections`: the three words a playout writes lie together, so that a write crosses
    /// into a second cache line for 2 edges in 8 (in a block of 40-byte edges) instead of 4.
    value_sum: AtomicF64,
    /// Playouts backed up through this edge. Only grows (incremented with Release, read with Acquire by
    /// the virtual-loss count, [I4], [I5]); 64-bit, so it cannot wrap.
    visits: AtomicU64,
    /// Passes of playouts over this edge, finished or not, modulo 2^32: the virtual loss count is
    /// `selections - visits` ([I5]), so a backup writes one counter, not two.
    selections: AtomicU32,
    /// Probability of the outcome at a chance node, or the action's prior (normalised; uniform without
    /// game priors).
    pub prob: f32,
    /// Immediate reward of the move for the mover (2048: merge score). Immutable.
    pub reward: f32,
    /// The move. Immutable.
    pub step: M,
    /// The node this move leads to: null until linked once with a Release compare-exchange ([I3]).
    child: AtomicPtr<Node<M>>,
}

// Size targets from docs/ARCHITECTURE.md §3 (a Node is generic only through the edge pointer type).
#[cfg(not(canopy_loom))]
const _: () = assert!(std::mem::size_of::<Node<u8>>() <= 64);
#[cfg(not(canopy_loom))]
const _: () = assert!(std::mem::size_of::<Edge<Step<u8, (u8, u8)>>>() <= 40);

impl<M> Node<M> {
    /// A fresh, unpublished node.
    pub fn new(kind: NodeKind, player: usize, key: u64) -> Self {
        Self {
            visits: AtomicU64::new(0),
            value_sum: AtomicF64::new(0.0),
            key,
            children: AtomicPtr::new(ptr::null_mut()),
            block: AtomicU32::new(0),
            expansion: AtomicU8::new(UNEXPANDED),
            player: player as u8,
            kind: kind as u8,
            proof: AtomicU8::new(0),
            expanded_at: AtomicU32::new(UNCOUNTED),
        }
    }

    /// The node's kind.
    #[inline]
    pub fn kind(&self) -> NodeKind {
        match self.kind {
            0 => NodeKind::Decision,
            1 => NodeKind::Chance,
            _ => NodeKind::Terminal,
        }
    }

    /// The perspective player of `value_sum`.
    #[inline]
    pub fn player(&self) -> usize {
        self.player as usize
    }

    /// The proven result for [`Node::player`], if any ([I9]).
    #[inline]
    pub fn proof_relaxed(&self) -> Option<Proof> {
        Proof::from_u8(self.proof.load(Ordering::Relaxed))
    }

    /// Records a proven result for [`Node::player`] ([I9]).
    #[inline]
    pub fn set_proof_relaxed(&self, proof: Proof) {
        self.proof.store(proof as u8, Ordering::Relaxed);
    }

    /// Whether the published children block is a pruned candidate set ([`crate::Coverage::Pruned`], as
    /// given to [`Node::publish_children_release`]). Meaningful once [`Node::children_acquire`] returned
    /// the block ([I2]).
    #[inline]
    pub fn pruned_relaxed(&self) -> bool {
        self.block.load(Ordering::Relaxed) & PRUNED_BIT != 0
    }

    /// The node's Zobrist key (0 without a transposition table).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Visit count (a statistic: Relaxed).
    #[inline]
    pub fn visits_relaxed(&self) -> u64 {
        self.visits.load(Ordering::Relaxed)
    }

    /// Sum of backed-up values (a statistic: Relaxed).
    #[inline]
    pub fn value_sum_relaxed(&self) -> f64 {
        self.value_sum.load(Ordering::Relaxed)
    }

    /// Mean backed-up value, or `None` before the first visit.
    #[inline]
    pub fn mean_relaxed(&self) -> Option<f64> {
        let n = self.visits_relaxed();
        (n > 0).then(|| self.value_sum_relaxed() / count_f64(n))
    }

    /// Backs up one playout's value: adds it and counts the visit ([I4]).
    #[inline]
    pub fn backup_relaxed(&self, value: f64) {
        self.value_sum.fetch_add(value, Ordering::Relaxed);
        self.visits.fetch_add(1, Ordering::Relaxed);
    }

    /// Backs up `visits` playouts whose values sum to `value_sum` at once (the root's batched backups,
    /// [I4]).
    #[inline]
    pub fn add_backups_relaxed(&self, visits: u64, value_sum: f64) {
        self.value_sum.fetch_add(value_sum, Ordering::Relaxed);
        self.visits.fetch_add(visits, Ordering::Relaxed);
    }

    /// [`Node::backup_relaxed`] in a search whose one worker is the only writer of the tree: a load and
    /// a store of each counter instead of read-modify-writes, the same counts ([I4]; readers such as a
    /// snapshot still read whole values, as every access is atomic).
    #[inline]
    pub fn backup_single_writer(&self, value: f64) {
        self.value_sum.store(self.value_sum.load(Ordering::Relaxed) + value, Ordering::Relaxed);
        self.visits.store(self.visits.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// Counts one visit without a value ([`crate::search::Statistics::Edge`] with one worker, which keeps
    /// the node's count for [`Node::edge_visits_single_writer`] and the expansion threshold, and its
    /// values on the edges): a load and a store ([I4], [I14]).
    #[inline]
    pub fn count_visit_single_writer(&self) {
        self.visits.store(self.visits.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// Counts one visit without a value, by a search with several workers ([`crate::search::Statistics::Edge`]
    /// at a leaf not yet expanded, for the expansion threshold): one `fetch_add` ([I4]).
    #[inline]
    pub fn count_visit_relaxed(&self) {
        self.visits.fetch_add(1, Ordering::Relaxed);
    }

    /// Marks the node's count as no longer giving its edges' visit sum ([I14]): a search with
    /// [`crate::search::Statistics::Edge`] and several workers backs up through the edges without
    /// counting the node. A load, and a store only the first time.
    #[inline]
    pub fn uncount_relaxed(&self) {
        if self.expanded_at.load(Ordering::Relaxed) != UNCOUNTED {
            self.expanded_at.store(UNCOUNTED, Ordering::Relaxed);
        }
    }

    /// The published children block, loaded with Acquire so the edges it points to are fully built
    /// ([I2]). `None` while the node is unexpanded.
    #[inline]
    pub fn children_acquire(&self) -> Option<&[Edge<M>]> {
        let p = self.children.load(Ordering::Acquire);
        if p.is_null() {
            return None;
        }
        let len = (self.block.load(Ordering::Relaxed) & !PRUNED_BIT) as usize;
        // SAFETY: [I2] the block behind a non-null `children` was fully initialised with `len` edges
        // before the Release store that published it, and our Acquire load synchronises with it. [I6]
        // the block lives in a search arena that outlives every reference into the tree.
        Some(unsafe { std::slice::from_raw_parts(p, len) })
    }

    /// The sum of the visits of the children block's edges, read from the node's own count, or `None`
    /// when it cannot be ([`UNCOUNTED`]: published by several workers). Exact in a search with one worker
    /// for a node that is not proven, is not its root (whose count is written in batches) and was not
    /// reached through an open-loop chance outcome (where a playout may end at an expanded node). Visits
    /// only: the virtual visits of a playout in progress through an edge are not in it ([I14]).
    #[inline]
    pub fn edge_visits_single_writer(&self) -> Option<u64> {
        let base = self.expanded_at.load(Ordering::Relaxed);
        (base != UNCOUNTED).then(|| self.visits_relaxed().saturating_sub(u64::from(base)))
    }

    /// `visits` when the children block was published, `None` when uncounted (see
    /// [`Node::edge_visits_single_writer`]); for a copy of the node ([`Node::publish_children_release`]).
    pub fn expanded_at_relaxed(&self) -> Option<u64> {
        let base = self.expanded_at.load(Ordering::Relaxed);
        (base != UNCOUNTED).then_some(u64::from(base))
    }

    /// Tries to become this node's one expander (`UNEXPANDED → EXPANDING`). The loser never waits
    /// ([I1]).
    #[inline]
    pub fn try_claim_expansion(&self) -> bool {
        self.expansion.load(Ordering::Relaxed) == UNEXPANDED
            && self.expansion.compare_exchange(UNEXPANDED, EXPANDING, Ordering::Acquire, Ordering::Relaxed).is_ok()
    }

    /// [`Node::try_claim_expansion`] in a search whose one worker is the only writer ([I1], [I4]): a load
    /// and a store instead of the locked compare-exchange.
    #[inline]
    pub fn try_claim_expansion_single_writer(&self) -> bool {
        let free = self.expansion.load(Ordering::Acquire) == UNEXPANDED;
        if free {
            self.expansion.store(EXPANDING, Ordering::Relaxed);
        }
        free
    }

    /// Gives a claimed expansion back (`EXPANDING → UNEXPANDED`) when the children block could not be
    /// built (the memory budget ran out before publication): the node stays a leaf and any worker may
    /// claim it again later ([I1]). Only the claim's holder calls it, and only before publishing.
    pub fn abandon_expansion(&self) {
        self.expansion.store(UNEXPANDED, Ordering::Release);
    }

    /// Whether some worker holds the expansion claim and has not published yet (a statistic: Relaxed; for
    /// the tree audit, where after a search it must be false for every node, [I1]).
    pub fn expansion_claimed_relaxed(&self) -> bool {
        self.expansion.load(Ordering::Relaxed) == EXPANDING
    }

    /// Publishes a fully built children block of `len` edges, `pruned` when it is a pruned candidate set
    /// ([`crate::Coverage::Pruned`]) ([I1], [I2]). `expanded_at` is the node's visit count at which the
    /// edges' visits start to sum to the rest ([I14]): its `visits` now when one worker searches alone, the
    /// original's when copying a node with its block, `None` (uncounted) when several workers search.
    ///
    /// # Panics
    /// When `len` exceeds [`MAX_BLOCK_LEN`] (2^31 - 1 edges), before anything is written.
    ///
    /// # Safety
    /// The caller holds the expansion claim ([`Node::try_claim_expansion`] returned true and nobody
    /// published yet), `edges` points to `len` initialised edges, and the block lives as long as the
    /// search arena ([I6]).
    pub unsafe fn publish_children_release(
        &self,
        edges: *mut Edge<M>,
        len: usize,
        pruned: bool,
        expanded_at: Option<u64>,
    ) {
        assert!(len <= MAX_BLOCK_LEN, "a children block of {len} edges (at most {MAX_BLOCK_LEN})");
        let flag = if pruned { PRUNED_BIT } else { 0 };
        self.block.store(len as u32 | flag, Ordering::Relaxed);
        let base = expanded_at.filter(|&v| v < u64::from(UNCOUNTED)).map_or(UNCOUNTED, |v| v as u32);
        self.expanded_at.store(base, Ordering::Relaxed);
        self.children.store(edges, Ordering::Release);
        self.expansion.store(EXPANDED, Ordering::Release);
    }
}

impl<M> Node<M> {
    /// Sets the statistics and proof of a node that is not shared yet (a copy for a re-rooted tree,
    /// [I11]): as if `visits` playouts whose values sum to `value_sum` had been backed up through it.
    pub fn restore_relaxed(&self, visits: u64, value_sum: f64, proof: Option<Proof>) {
        self.visits.store(visits, Ordering::Relaxed);
        self.value_sum.store(value_sum, Ordering::Relaxed);
        self.proof.store(proof.map_or(0, |p| p as u8), Ordering::Relaxed);
    }
}

impl<M> Edge<M> {
    /// Sets the statistics of an edge that is not shared yet (a copy for a re-rooted tree, [I11]), with
    /// no playout in progress.
    pub fn restore_relaxed(&self, visits: u64, value_sum: f64) {
        self.visits.store(visits, Ordering::Relaxed);
        self.selections.store(visits as u32, Ordering::Relaxed);
        self.value_sum.store(value_sum, Ordering::Relaxed);
    }
}

/// Tests and loom models only: counters that start where a long search would have left them, so that a
/// short search can carry them past `u32::MAX` (see `search/counter_tests.rs` and tests/loom.rs). Called
/// before the node is shared (before the workers are spawned, which orders these Relaxed stores before
/// every worker's reads).
#[cfg(any(test, canopy_loom))]
impl<M> Node<M> {
    /// Sets the node's statistics as if `visits` playouts whose values sum to `value_sum` had been
    /// backed up through it.
    pub fn preload_relaxed(&self, visits: u64, value_sum: f64) {
        self.visits.store(visits, Ordering::Relaxed);
        self.value_sum.store(value_sum, Ordering::Relaxed);
    }
}

#[cfg(any(test, canopy_loom))]
impl<M> Edge<M> {
    /// Sets the edge's value sum as if playouts whose returns-to-go sum to `value_sum` had been backed up
    /// through it.
    pub fn preload_value_relaxed(&self, value_sum: f64) {
        self.value_sum.store(value_sum, Ordering::Relaxed);
    }

    /// Sets the edge's visit count as if `visits` playouts had been backed up through it.
    pub fn preload_relaxed(&self, visits: u64) {
        self.visits.store(visits, Ordering::Relaxed);
        self.selections.store(visits as u32, Ordering::Relaxed);
    }
}

impl<M> Edge<M> {
    /// An unlinked edge.
    pub fn new(step: M, prob: f32, reward: f32) -> Self {
        Self {
            value_sum: AtomicF64::new(0.0),
            visits: AtomicU64::new(0),
            selections: AtomicU32::new(0),
            prob,
            reward,
            step,
            child: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// The linked child, loaded with Acquire ([I3]). `None` until some worker links it.
    #[inline]
    pub fn child_acquire(&self) -> Option<&Node<M>> {
        let p = self.child.load(Ordering::Acquire);
        // SAFETY: [I3] a non-null child pointer was stored by a Release compare-exchange after the node
        // was fully initialised; our Acquire load synchronises with it. [I6] the node lives in a search
        // arena that outlives the tree references.
        unsafe { p.as_ref() }
    }

    /// The child pointer as it stands, null or not, for a prefetch hint only: it is never dereferenced
    /// (use [`Edge::child_acquire`] to read the child).
    #[inline]
    pub fn child_ptr_relaxed(&self) -> *const Node<M> {
        self.child.load(Ordering::Relaxed)
    }

    /// Links `node` as this edge's child unless another worker already did; returns the child that won
    /// ([I3]).
    ///
    /// # Safety
    /// `node` points to a fully initialised node that lives as long as the search arenas ([I6]).
    pub unsafe fn link_child_release(&self, node: *mut Node<M>) -> &Node<M> {
        match self.child.compare_exchange(ptr::null_mut(), node, Ordering::Release, Ordering::Acquire) {
            // SAFETY: [I6] the caller guarantees `node` is valid for the arena's lifetime.
            Ok(_) => unsafe { &*node },
            // SAFETY: [I3] the winner's pointer was published with Release; our failure ordering is
            // Acquire. [I6] arena lifetime.
            Err(existing) => unsafe { &*existing },
        }
    }

    /// [`Edge::link_child_release`] in a search whose one worker is the only writer ([I3], [I4]): the
    /// child is null (only this worker links) and is stored with Release, without the locked
    /// compare-exchange, which would wait for every earlier store of the playout to reach the cache.
    ///
    /// # Safety
    /// As for [`Edge::link_child_release`], and no other thread writes the edge's child during the call.
    #[inline]
    pub unsafe fn link_child_single_writer(&self, node: *mut Node<M>) -> &Node<M> {
        let existing = self.child.load(Ordering::Acquire);
        if existing.is_null() {
            self.child.store(node, Ordering::Release);
            // SAFETY: [I6] the caller guarantees `node` is valid for the arena's lifetime.
            unsafe { &*node }
        } else {
            // SAFETY: [I3] a linked child was published with Release; our load is Acquire. [I6] arena
            // lifetime.
            unsafe { &*existing }
        }
    }

    /// Edge visit count (Relaxed).
    #[inline]
    pub fn visits_relaxed(&self) -> u64 {
        self.visits.load(Ordering::Relaxed)
    }

    /// Sum of the returns-to-go backed up through this edge for its mover, without its reward (a
    /// statistic: Relaxed; 0 unless searches with [`crate::search::Statistics::Edge`] wrote it).
    #[inline]
    pub fn value_sum_relaxed(&self) -> f64 {
        self.value_sum.load(Ordering::Relaxed)
    }

    /// The edge's own mean return for its mover, `value_sum / visits + reward` (UCT1's mean), or `None`
    /// before its first visit.
    #[inline]
    pub fn edge_mean_relaxed(&self) -> Option<f64> {
        let n = self.visits_relaxed();
        (n > 0).then(|| self.value_sum_relaxed() / count_f64(n) + self.reward as f64)
    }

    /// Adds one backed-up return-to-go to the edge's value sum ([I4]); the visit is counted by
    /// [`Edge::backup_relaxed`], after it.
    #[inline]
    pub fn add_value_relaxed(&self, value: f64) {
        self.value_sum.fetch_add(value, Ordering::Relaxed);
    }

    /// [`Edge::add_value_relaxed`] in a search whose one worker is the only writer: a load and a store
    /// ([I4]).
    #[inline]
    pub fn add_value_single_writer(&self, value: f64) {
        self.value_sum.store(self.value_sum.load(Ordering::Relaxed) + value, Ordering::Relaxed);
    }

    /// Virtual-loss count: the playouts that selected this edge and have not backed up yet
    /// (`selections - visits`, [I5]). A playout adds one selection per pass of its path over the edge and
    /// one visit per pass on its backup, and each worker has one playout in progress, so the count is at
    /// most the passes in progress: the low 32 bits of the two counters give it exactly.
    ///
    /// `visits` is loaded first, with Acquire: every backup it counts came after its own selection, and
    /// the Release increments (a release sequence) make those selections visible to the load of
    /// `selections` that follows, so the difference is never negative (loom model
    /// `virtual_loss_is_never_negative`).
    #[inline]
    pub fn in_flight_relaxed(&self) -> u32 {
        let visits = self.visits.load(Ordering::Acquire) as u32;
        self.selections.load(Ordering::Relaxed).wrapping_sub(visits)
    }

    /// Adds one virtual loss when a playout selects this edge ([I5]).
    #[inline]
    pub fn add_in_flight_relaxed(&self) {
        self.selections.fetch_add(1, Ordering::Relaxed);
    }

    /// [`Edge::add_in_flight_relaxed`] in a search whose one worker is the only writer ([I4], [I5]).
    #[inline]
    pub fn add_in_flight_single_writer(&self) {
        self.selections.store(self.selections.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
    }

    /// [`Edge::backup_relaxed`] in a search whose one worker is the only writer: a load and a Release
    /// store instead of a read-modify-write ([I4], [I5]).
    #[inline]
    pub fn backup_single_writer(&self) {
        self.visits.store(self.visits.load(Ordering::Relaxed) + 1, Ordering::Release);
    }

    /// Counts `visits` playouts backed up at once that were never counted as virtual loss (a worker's
    /// batched root statistics): the selections first, then the visits with Release, so that the
    /// virtual-loss count never reads negative ([I5]); between the two it counts the batch as in
    /// flight for a moment.
    /// `value_sum` is their returns-to-go summed as [`Edge::add_value_relaxed`] adds them (0.0, and not
    /// written, when the search keeps no edge values).
    #[inline]
    pub fn add_backups_relaxed(&self, visits: u64, value_sum: f64) {
        if value_sum != 0.0 {
            self.value_sum.fetch_add(value_sum, Ordering::Relaxed);
        }
        self.selections.fetch_add(visits as u32, Ordering::Relaxed);
        self.visits.fetch_add(visits, Ordering::Release);
    }

    /// Counts one backed-up playout, which also removes its virtual loss ([I4], [I5]): one atomic write.
    #[inline]
    pub fn backup_relaxed(&self) {
        self.visits.fetch_add(1, Ordering::Release);
    }
}
