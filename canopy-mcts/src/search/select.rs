//! Selection: which edge a playout follows out of a node (UCT or PUCT at decision nodes, stratified or
//! sampled outcomes at chance nodes), with MCTS-Solver's shortcuts.

use crate::game::{Game, Turn};
use crate::policy::Policy;
use crate::rng::{self, Rng};
use crate::search::node::{Edge, NodeKind, Proof};
use crate::search::params::{ChanceSelection, Selection};
use crate::search::solver::proof_for;
use crate::search::worker::{q_value, Batched, GameEdge, GameNode, Worker};

impl<G: Game, P: Policy<G>> Worker<'_, G, P> {
    /// Picks the edge a playout follows out of `node`; returns its index and the player credited with its
    /// reward.
    pub(super) fn select(&mut self, node: &GameNode<G>, children: &[GameEdge<G>]) -> (usize, u8) {
        match node.kind() {
            NodeKind::Chance => {
                let chance = self.params.chance;
                let index = match self.batched_level_and_rng() {
                    (Some(level), rng) => select_outcome(chance, rng, children, &WithDeltas(level)),
                    (None, rng) => select_outcome(chance, rng, children, &InTree),
                };
                (index, node.player() as u8)
            }
            _ => {
                let mover = match self.shared.game.to_move(&self.state) {
                    Turn::Player(p) => p,
                    _ => node.player(),
                };
                let index = match self.batched_level() {
                    Some(level) => self.select_uct(children, mover, &WithDeltas(level)),
                    None => self.select_uct(children, mover, &InTree),
                };
                (index, mover as u8)
            }
        }
    }

    /// UCT over the children (Kocsis and Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006) with
    /// values normalised to `[0, 1]` and virtual loss counted as visits of value 0. Exploration uses edge
    /// visits; the mean is the child node's (UCT2 of Childs, Brodeur and Kocsis, CIG 2008).
    ///
    /// `view` reads each edge's statistics: as the tree holds them ([`InTree`]), or at the root with this
    /// worker's batched backups added ([`WithDeltas`]).
    fn select_uct(&self, children: &[GameEdge<G>], mover: usize, view: &impl EdgeView) -> usize {
        let solver = self.shared.solver;
        let vl = self.params.virtual_loss as f64;
        let mut total = 0.0;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for (i, e) in children.iter().enumerate() {
            prefetch_child(e);
            if solver && proof_for(e, mover) == Some(Proof::Win) {
                // MCTS-Solver: a move proven to win for the mover is always taken (the first such).
                return i;
            }
            total += view.visits(i, e) as f64 + vl * e.in_flight_relaxed() as f64;
            if self.shared.bounds.is_none() {
                if let Some(q) = view.q(i, e) {
                    lo = lo.min(q);
                    hi = hi.max(q);
                }
            }
        }
        let (lo, span) = match self.shared.bounds {
            Some((l, h)) => (l, h - l),
            None if self.params.min_span > 0.0 => (lo, (hi - lo).max(self.params.min_span * lo.abs().max(hi.abs()))),
            None => (lo, hi - lo),
        };
        // Values already on [0, 1] (every win/draw/loss game) need no normalising: the same numbers
        // without a subtraction and a division per child.
        let unit = lo == 0.0 && span == 1.0;
        let puct = self.params.selection == Selection::Puct;
        let log_total = if puct { 0.0 } else { ln_count(self.ln_table, total) };
        let sqrt_total = total.sqrt();
        let c = self.params.exploration;
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        let mut best_loss = None;
        for (i, e) in children.iter().enumerate() {
            if solver && proof_for(e, mover) == Some(Proof::Loss) {
                // MCTS-Solver: a move proven to lose is not searched again (unless all moves lose).
                best_loss.get_or_insert(i);
                continue;
            }
            let visits = view.visits(i, e) as f64;
            let virtual_visits = vl * e.in_flight_relaxed() as f64;
            let n = visits + virtual_visits;
            if n == 0.0 && !puct {
                return i;
            }
            let q = match view.q(i, e) {
                Some(q) if unit => q,
                Some(q) if span > 1e-12 => (q - lo) / span,
                Some(_) => 0.5,
                None => 0.0,
            };
            let score = if puct {
                let q_eff = if n > 0.0 { q * visits / n } else { 0.0 };
                q_eff + c * e.prob as f64 * sqrt_total.max(1.0) / (1.0 + n)
            } else {
                let inv_n = 1.0 / n;
                q * visits * inv_n + c * (log_total * inv_n).sqrt()
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        if best_score == f64::NEG_INFINITY {
            return best_loss.unwrap_or(best);
        }
        best
    }
}

/// Chance-node outcome selection (see [`ChanceSelection`]); `view` reads the outcomes' visits.
fn select_outcome<M>(chance: ChanceSelection, rng: &mut Rng, children: &[Edge<M>], view: &impl EdgeView) -> usize {
    match chance {
        ChanceSelection::Stratified => {
            let count = |i: usize, e: &Edge<M>| view.visits(i, e) + u64::from(e.in_flight_relaxed());
            let total: f64 = children.iter().enumerate().map(|(i, e)| count(i, e) as f64).sum();
            let mut best = 0;
            let mut best_lag = f64::NEG_INFINITY;
            for (i, e) in children.iter().enumerate() {
                let n = count(i, e) as f64;
                let lag = e.prob as f64 * (total + 1.0) - n;
                if lag > best_lag {
                    best_lag = lag;
                    best = i;
                }
            }
            best
        }
        ChanceSelection::Sample => {
            let mut r = rng::unit(rng) as f32;
            for (i, e) in children.iter().enumerate() {
                r -= e.prob;
                if r < 0.0 {
                    return i;
                }
            }
            children.len() - 1
        }
    }
}

/// How selection reads an edge's visits and mean return.
trait EdgeView {
    /// The `i`-th edge's backed-up visits.
    fn visits<M>(&self, i: usize, e: &Edge<M>) -> u64;
    /// The `i`-th edge's mean return for its mover ([`q_value`]).
    fn q<M>(&self, i: usize, e: &Edge<M>) -> Option<f64>;
}

/// The statistics as the tree holds them.
struct InTree;

impl EdgeView for InTree {
    #[inline(always)]
    fn visits<M>(&self, _: usize, e: &Edge<M>) -> u64 {
        e.visits_relaxed()
    }

    #[inline(always)]
    fn q<M>(&self, _: usize, e: &Edge<M>) -> Option<f64> {
        q_value(e)
    }
}

/// A node's statistics with this worker's batched backups added ([`Batched`], one per edge).
struct WithDeltas<'d>(&'d [Batched]);

impl EdgeView for WithDeltas<'_> {
    #[inline]
    fn visits<M>(&self, i: usize, e: &Edge<M>) -> u64 {
        e.visits_relaxed() + self.0[i].visits
    }

    #[inline]
    fn q<M>(&self, i: usize, e: &Edge<M>) -> Option<f64> {
        let d = &self.0[i];
        let (visits, sum) = match e.child_acquire() {
            Some(child) => (child.visits_relaxed() + d.child_visits, child.value_sum_relaxed() + d.child_value),
            None => (d.child_visits, d.child_value),
        };
        (visits > 0).then(|| sum / visits as f64 + e.reward as f64)
    }
}

/// Counts below which [`ln_count`] reads a table (512 KiB) instead of calling `ln`.
const LN_TABLE_LEN: usize = 1 << 16;

/// `ln n` for `n` in `0..LN_TABLE_LEN` (`ln 1` for 0), as `f64::ln` computes it; built once per process.
pub(super) fn ln_table() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Box<[f64]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..LN_TABLE_LEN).map(|n| (n.max(1) as f64).ln()).collect())
}

/// `ln max(total, 1)` for a visit count plus virtual visits, which is a whole number (visits and the
/// virtual loss are integers): from `table` ([`ln_table`]) when it is small, as most counts below the
/// root are, the same value `f64::ln` gives.
#[inline]
fn ln_count(table: &[f64], total: f64) -> f64 {
    let t = total.max(1.0);
    match table.get(t as usize) {
        Some(&l) if t < LN_TABLE_LEN as f64 => l,
        _ => t.ln(),
    }
}

/// Asks the processor to start loading `e`'s child node, whose mean the score pass reads next: the
/// children are in as many cache lines as there are edges, and starting every load before the first is
/// needed hides most of their latency. A hint only: nothing is read through it.
#[inline(always)]
fn prefetch_child<M>(e: &Edge<M>) {
    #[cfg(all(target_arch = "x86_64", not(canopy_loom)))]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = e.child_ptr_relaxed();
        // SAFETY: [I12] a prefetch is a hint that reads no memory the program sees and cannot fault, at
        // any address (null included); SSE is part of x86-64's baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) };
    }
    #[cfg(not(all(target_arch = "x86_64", not(canopy_loom))))]
    let _ = e;
}
