//! Selection: which edge a playout follows out of a node (UCT or PUCT at decision nodes, stratified or
//! sampled outcomes at chance nodes), with MCTS-Solver's shortcuts.

use std::collections::hash_map::Entry;

use crate::game::{Game, Returns, Turn};
use crate::policy::Policy;
use crate::rng::{self, Rng};
use crate::search::node::{count_f64, Edge, Node, NodeKind, Proof};
use crate::search::params::{ChanceSelection, Selection};
use crate::search::solver::{proof_for, proof_of};
use crate::search::tree::NodeHasher;
use crate::search::worker::{Batched, GameEdge, GameNode, Worker};

impl<G: Game, P: Policy<G>> Worker<'_, G, P> {
    /// Picks the edge a playout follows out of `node`; returns its index and the player credited with its
    /// reward. `open_loop`: the playout has passed a sampled chance outcome.
    pub(super) fn select(&mut self, node: &GameNode<G>, children: &[GameEdge<G>], open_loop: bool) -> (usize, u8) {
        match node.kind() {
            NodeKind::Chance => {
                let chance = self.params.chance;
                let share = Share { worker: self.index, workers: self.params.threads.max(1) };
                // With one worker the outcomes' visits are known to sum to the node's count since its
                // expansion ([I14]), so the stratified choice needs one pass over them.
                let total = match chance {
                    ChanceSelection::Stratified if self.batched_level().is_none() => {
                        self.edge_visits_from_node(node, children, open_loop)
                    }
                    _ => None,
                };
                let index = match self.batched_level_and_rng() {
                    (Some(level), rng) => {
                        select_outcome(chance, share, rng, children, &WithDeltas::<false>(level), None)
                    }
                    (None, rng) => select_outcome(chance, share, rng, children, &InTree::<false>, total),
                };
                (index, node.player() as u8)
            }
            _ => {
                // With returns for one player the mover is player 0 whatever the position (no turn to read).
                let mover = if <G::Returns as Returns>::PLAYERS == 1 {
                    0
                } else {
                    match self.shared.game.to_move(&self.state) {
                        Turn::Player(p) => p,
                        _ => node.player(),
                    }
                };
                let edge_stats = self.edge_stats;
                let index = match self.batched_level() {
                    Some(_) if edge_stats && children.len() >= READ_ONCE_MIN_CHILDREN => {
                        self.select_wide(children, mover)
                    }
                    Some(level) if edge_stats => self.uct().select(children, mover, &WithDeltas::<true>(level), None),
                    Some(level) => self.uct().select(children, mover, &WithDeltas::<false>(level), None),
                    None => {
                        let edge_visits = self.edge_visits_from_node(node, children, open_loop);
                        if edge_stats {
                            let cached = match edge_visits {
                                // With one worker only this playout's own path has playouts in progress.
                                Some(total) if children.len() >= SCORE_CACHE_MIN_CHILDREN && !self.on_path(node) => {
                                    let uct = self.uct();
                                    uct.select_cached(&mut self.score_cache, node as *const _ as usize, children, total)
                                }
                                None if children.len() >= READ_ONCE_MIN_CHILDREN => {
                                    Some(self.select_wide(children, mover))
                                }
                                _ => None,
                            };
                            cached.unwrap_or_else(|| self.uct().select(children, mover, &InTree::<true>, edge_visits))
                        } else {
                            self.uct().select(children, mover, &InTree::<false>, edge_visits)
                        }
                    }
                };
                (index, mover as u8)
            }
        }
    }

    /// UCT at a decision node of [`READ_ONCE_MIN_CHILDREN`] children or more with `edge` statistics,
    /// where the worker does not know the sum of the edges' visits (several workers, or one past a
    /// sampled chance outcome; [`Uct::select_reading_once`]): apart from the rest of
    /// [`Worker::select`], so that the code of the one-worker search stays as it was.
    #[inline(never)]
    fn select_wide(&mut self, children: &[GameEdge<G>], mover: usize) -> usize {
        let uct = self.uct();
        match self.batched_level_and_terms() {
            (Some(level), terms) => uct.select_reading_once(children, mover, &WithDeltas::<true>(level), None, terms),
            (None, terms) => uct.select_reading_once(children, mover, &InTree::<true>, None, terms),
        }
    }

    /// The sum of the visits of `node`'s edges where one worker knows it exactly ([I14]): with one worker,
    /// at a node that is not proven (a proven node's visits may include playouts that ended there) and
    /// not reached through a sampled chance outcome, from the node's own count
    /// ([`GameNode::edge_visits_single_writer`]), or at the root, whose count is written in batches, from
    /// the sum this worker keeps ([`Worker::root_edge_visits`]). `None` elsewhere: selection then sums
    /// the edges.
    #[inline]
    fn edge_visits_from_node(&mut self, node: &GameNode<G>, children: &[GameEdge<G>], open_loop: bool) -> Option<u64> {
        if !self.single_writer || open_loop || node.proof_relaxed().is_some() {
            return None;
        }
        if std::ptr::eq(node, self.shared.root) {
            let sum = self.root_edge_visits.get_or_insert_with(|| children.iter().map(|e| e.visits_relaxed()).sum());
            return Some(*sum);
        }
        node.edge_visits_single_writer()
    }

    /// Whether this playout's path has passed `node` already (a cycle of positions): its edge there has a
    /// playout in progress.
    #[inline]
    fn on_path(&self, node: &GameNode<G>) -> bool {
        self.path_nodes().any(|n| std::ptr::eq(n, node))
    }

    /// The UCT settings of this search ([`Uct`]).
    #[inline]
    fn uct(&self) -> Uct {
        Uct {
            solver: self.shared.solver,
            bounds: self.shared.bounds,
            virtual_loss: self.params.virtual_loss,
            min_span: self.params.min_span,
            puct: self.params.selection == Selection::Puct,
            exploration: self.params.exploration,
            sqrt_ln_table: self.sqrt_ln_table,
            recip_table: self.recip_table,
        }
    }
}

/// What UCT (or PUCT) selection at a decision node needs of the search: its parameters and the count
/// tables.
#[derive(Clone, Copy)]
struct Uct {
    /// MCTS-Solver is on: proven wins are taken and proven losses avoided.
    solver: bool,
    /// The game's value bounds, if it declares them (else values are normalised by the children's range).
    bounds: Option<(f64, f64)>,
    /// Virtual loss: visits of value 0 per playout in progress through an edge.
    virtual_loss: u32,
    /// Smallest range that values are normalised by, relative to their size ([`crate::SearchParams`]).
    min_span: f64,
    /// PUCT instead of UCT.
    puct: bool,
    /// The exploration constant `c`.
    exploration: f64,
    /// [`sqrt_ln_table`].
    sqrt_ln_table: &'static [f64],
    /// [`recip_table`].
    recip_table: &'static [Reciprocals],
}

impl Uct {
    /// UCT over the children (Kocsis and Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006) with
    /// values normalised to `[0, 1]` and virtual loss counted as visits of value 0. Exploration uses edge
    /// visits; the mean is the child node's (UCT2 of Childs, Brodeur and Kocsis, CIG 2008) or the edge's
    /// own (their UCT1), as `view` reads it ([`crate::search::Statistics`]).
    ///
    /// `view` reads each edge's statistics: as the tree holds them ([`InTree`]), or at the root with this
    /// worker's batched backups added ([`WithDeltas`]). `edge_visits`: the sum of the edges' visits when
    /// the caller knows it ([`Worker::edge_visits_from_node`]). With it and the game's value bounds, which
    /// make the children's range unneeded, one pass over the children scores them; otherwise a first
    /// pass sums the counts (and finds the range), and a second scores. Both give the same index: the one
    /// pass gives up, and the two passes run, when it meets a playout in progress below the node (with
    /// one worker, the playout's own path passed the node already, a cycle of positions), whose virtual
    /// visits the node's count does not hold.
    fn select<M, V: EdgeView>(&self, children: &[Edge<M>], mover: usize, view: &V, edge_visits: Option<u64>) -> usize {
        if let (Some(total), Some((lo, hi))) = (edge_visits, self.bounds) {
            if let Some(i) = self.score_children(children, mover, view, total as f64, (lo, hi - lo), true) {
                return i;
            }
        }
        let solver = self.solver;
        let vl = u64::from(self.virtual_loss);
        // The node's count in whole numbers, converted once: the sum in `f64` of these counts (each
        // below 2^53, as is their sum) is the same number, but its additions would wait on each other.
        let mut count = 0u64;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let prefetch = solver || V::READS_CHILD;
        for (i, e) in children.iter().enumerate() {
            if prefetch {
                prefetch_child(e);
            }
            if solver && proof_for(e, mover) == Some(Proof::Win) {
                // MCTS-Solver: a move proven to win for the mover is always taken (the first such).
                return i;
            }
            count += view.visits(i, e) + vl * u64::from(e.in_flight_relaxed());
            if self.bounds.is_none() {
                if let Some(q) = view.q(i, e, e.child_acquire()) {
                    lo = lo.min(q);
                    hi = hi.max(q);
                }
            }
        }
        let range = match self.bounds {
            Some((l, h)) => (l, h - l),
            None if self.min_span > 0.0 => (lo, (hi - lo).max(self.min_span * lo.abs().max(hi.abs()))),
            None => (lo, hi - lo),
        };
        self.score_children(children, mover, view, count_f64(count), range, false)
            .expect("the scoring pass of two gives up on nothing")
    }

    /// [`Uct::select`], the same index, with the edges read once where that applies: UCT (not PUCT)
    /// without MCTS-Solver, with the game's value bounds and a view that does not read the child nodes
    /// (`edge` statistics). Where the one pass does not apply ([`Uct::select`]), its two passes then
    /// become one pass over the edges, which keeps each child's terms ([`uct_terms`]) in `terms` while
    /// it sums the node's count, and one over `terms` ([`best_of_terms`]): the same numbers in the same
    /// expressions, so the same child, with half the reads of the edges. With several workers, whose
    /// counts no worker knows, every selection at a node with `edge` statistics is such a one.
    #[inline]
    fn select_reading_once<M, V: EdgeView>(
        &self,
        children: &[Edge<M>],
        mover: usize,
        view: &V,
        edge_visits: Option<u64>,
        terms: &mut Vec<[f64; 2]>,
    ) -> usize {
        let reads_once = children.len() >= READ_ONCE_MIN_CHILDREN && !self.solver && !self.puct && !V::READS_CHILD;
        let Some((lo, hi)) = self.bounds.filter(|_| reads_once) else {
            return self.select(children, mover, view, edge_visits);
        };
        let span = hi - lo;
        if let Some(total) = edge_visits {
            if let Some(i) = self.score_children(children, mover, view, total as f64, (lo, span), true) {
                return i;
            }
        }
        if terms.len() < children.len() {
            terms.resize(children.len(), [0.0; 2]);
        }
        let terms = &mut terms[..children.len()];
        // As the scoring pass computes them (`score_children` without `one_pass`).
        let unit = lo == 0.0 && span == 1.0;
        let norm = (lo, span, 1.0 / span);
        let vl = u64::from(self.virtual_loss);
        let mut total = 0u64;
        for ((i, e), t) in children.iter().enumerate().zip(terms.iter_mut()) {
            let visits = view.visits(i, e);
            let count = visits + vl * u64::from(e.in_flight_relaxed());
            if count == 0 {
                // The scoring pass takes the first child with no count, whatever the others score.
                return i;
            }
            total += count;
            let qv = normalised_qv(view.q_times_visits(i, e, None, visits), count_f64(visits), unit, norm);
            *t = uct_terms(self.recip_table, qv, count);
        }
        best_of_terms(terms, self.exploration * sqrt_ln_count(self.sqrt_ln_table, count_f64(total)))
    }

    /// The scoring pass of [`Uct::select`]: the index of the best UCT (or PUCT) score, where `total`
    /// is the node's count (visits plus virtual visits of its edges) and `(lo, span)` the range that
    /// values are normalised by. `one_pass`: this pass is the only one, so it also looks for a move proven
    /// to win (the two-pass selection's first pass did), taking the first such over an unvisited move, and
    /// `total` is the edges' visits alone: it returns `None` when an edge it needs has a playout in
    /// progress (whose virtual visits `total` lacks). Without `one_pass` it always returns an index.
    #[inline(always)]
    fn score_children<M, V: EdgeView>(
        &self,
        children: &[Edge<M>],
        mover: usize,
        view: &V,
        total: f64,
        (lo, span): (f64, f64),
        one_pass: bool,
    ) -> Option<usize> {
        let solver = self.solver;
        if one_pass && !solver && !self.puct && total < children.len() as f64 {
            // Fewer visits than children: some child is unvisited, and UCT takes the first such, so the
            // children before it need no score (as below, a playout in progress gives up first).
            for (i, e) in children.iter().enumerate() {
                if e.in_flight_relaxed() != 0 {
                    return None;
                }
                if view.visits(i, e) == 0 {
                    return Some(i);
                }
            }
        }
        let vl_count = self.virtual_loss;
        // Values already on [0, 1] (every win/draw/loss game) need no normalising: the same numbers
        // without a subtraction and a multiplication per child.
        let unit = lo == 0.0 && span == 1.0;
        let inv_span = 1.0 / span;
        let puct = self.puct;
        let sqrt_log_total = if puct { 0.0 } else { sqrt_ln_count(self.sqrt_ln_table, total) };
        let sqrt_total = total.sqrt();
        let c = self.exploration;
        let c_sqrt_log = c * sqrt_log_total;
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        let mut best_loss = None;
        // With `one_pass`, the first unvisited move, taken unless a later move is proven to win.
        let mut unvisited = None;
        let prefetch = one_pass && (solver || V::READS_CHILD);
        for (i, e) in children.iter().enumerate() {
            if prefetch {
                if let Some(ahead) = children.get(i + PREFETCH_AHEAD) {
                    prefetch_child(ahead);
                }
            }
            if one_pass && unvisited.is_none() && e.in_flight_relaxed() != 0 {
                // A playout in progress below the node: `total` lacks its virtual visits.
                return None;
            }
            let child = if solver || V::READS_CHILD { e.child_acquire() } else { None };
            if solver {
                match child.and_then(|c| proof_of(c, mover)) {
                    // MCTS-Solver: a move proven to win for the mover is always taken (the first such).
                    Some(Proof::Win) if one_pass => return Some(i),
                    // MCTS-Solver: a move proven to lose is not searched again (unless all moves lose).
                    Some(Proof::Loss) if unvisited.is_none() => {
                        best_loss.get_or_insert(i);
                        continue;
                    }
                    _ => {}
                }
            }
            if unvisited.is_some() {
                // Only a move proven to win can still be taken.
                continue;
            }
            let visits_count = view.visits(i, e);
            // The one pass found none in progress (above).
            let in_flight = if one_pass { 0 } else { e.in_flight_relaxed() };
            let count = visits_count + u64::from(vl_count) * u64::from(in_flight);
            if count == 0 && !puct {
                if one_pass && solver {
                    unvisited = Some(i);
                    continue;
                }
                return Some(i);
            }
            let (visits, n) = (count_f64(visits_count), count_f64(count));
            // The normalised mean times the visits, q·v: the exploitation term q·v/n needs no mean
            // first, so that an edge's own statistics cost no division ([`EdgeView::q_times_visits`]).
            let qv = normalised_qv(view.q_times_visits(i, e, child, visits_count), visits, unit, (lo, span, inv_span));
            let score = if puct {
                let q_eff = if n > 0.0 { qv / n } else { 0.0 };
                q_eff + c * e.prob as f64 * sqrt_total.max(1.0) / (1.0 + n)
            } else {
                // q·v/n + c·sqrt(ln N / n) = q·v·(1/n) + c·sqrt(ln N)·sqrt(1/n): the node's factor once,
                // the child's reciprocals from the table (equal in exact arithmetic; the roundings may
                // differ by a few units in the last place, which can break a near tie between two
                // children the other way).
                let [exploit, explore] = uct_terms(self.recip_table, qv, count);
                exploit + c_sqrt_log * explore
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        if let Some(i) = unvisited {
            return Some(i);
        }
        if best_score == f64::NEG_INFINITY {
            return Some(best_loss.unwrap_or(best));
        }
        Some(best)
    }
}

/// An edge's `q·v` (its mean times its visits, [`EdgeView::q_times_visits`]) normalised to `[0, 1]` by
/// `(lo, span, 1 / span)` unless the values are there already (`unit`); half the visits where the range
/// is too small to normalise by, 0 for an edge with no mean.
#[inline(always)]
fn normalised_qv(qv: Option<f64>, visits: f64, unit: bool, (lo, span, inv_span): (f64, f64, f64)) -> f64 {
    match qv {
        Some(qv) if unit => qv,
        Some(qv) if span > 1e-12 => (qv - lo * visits) * inv_span,
        Some(_) => 0.5 * visits,
        None => 0.0,
    }
}

/// The two factors of a child's UCT score that only its own statistics decide: `[q·v/n, sqrt(1/n)]` for
/// the normalised `q·v` and the count `n` (visits plus virtual visits, at least 1). The score is
/// `exploit + c·sqrt(ln N)·explore`, the node's factor `c·sqrt(ln N)` applied last.
#[inline(always)]
fn uct_terms(table: &[Reciprocals], qv: f64, count: u64) -> [f64; 2] {
    let r = recip_count(table, count);
    [qv * r.recip, r.rsqrt]
}

/// Fewest children at which [`Uct::select_reading_once`] reads the edges once: below it the two passes
/// cost less (the second reads edges the first brought into the cache, and no terms are stored).
/// `shared_paths several 8 G` (one worker on the several-worker paths) with one read at every node:
/// tic-tac-toe (up to 9 children) and the synthetic tree (8) 4-7% slower, Gomoku 9x9 (70-81) 3-6%
/// faster.
const READ_ONCE_MIN_CHILDREN: usize = 16;

/// Fewest children at which a single writer keeps a node's UCT terms ([`ScoreCache`]): below it a
/// child's score costs little more than reading its cached terms.
pub(super) const SCORE_CACHE_MIN_CHILDREN: usize = 16;

/// Most children whose terms one worker keeps, over all its nodes (16 bytes each: 4 MiB). The nodes
/// that qualify first are those most visited, near the root; past the limit others are scored as
/// usual.
const SCORE_CACHE_MAX_CHILDREN: usize = 1 << 18;

/// UCT's per-child terms ([`uct_terms`]) of the widest, most visited nodes, kept by a worker that is
/// its search's only writer, with `edge` statistics, MCTS-Solver off and the game's value bounds known.
///
/// A child's score there is `exploit + c·sqrt(ln N)·explore`, where the two terms change only when a
/// playout backs up through the child's edge. With one worker, between two selections at a node exactly
/// one of its edges changes, the one the first took (its playout backs up through it before the next
/// selection starts), so the next selection recomputes that child's terms and scores every child with
/// one multiplication and one addition, instead of reading its statistics and its reciprocals. The terms
/// are the bits the plain scoring pass computes and the score the same expression, so the same child
/// is taken. A node's entry is checked by its edges' visits: they must be one more than when the entry
/// was last used, or the entry is rebuilt. The terms are held outside the tree's memory budget
/// ([`crate::SearchParams::memory_bytes`]): at most [`SCORE_CACHE_MAX_CHILDREN`] children, 4 MiB, per
/// search.
#[derive(Default)]
pub(super) struct ScoreCache {
    /// Each node's entry, by its address.
    entries: std::collections::HashMap<usize, CachedNode, std::hash::BuildHasherDefault<NodeHasher>>,
    /// `[exploit, explore]` per child, each node's children together ([`CachedNode::start`]): one
    /// allocation of [`SCORE_CACHE_MAX_CHILDREN`], made at the first entry, of which only the pages
    /// written are mapped.
    terms: Vec<[f64; 2]>,
}

/// A node's entry in [`ScoreCache`].
struct CachedNode {
    /// The sum of the node's edges' visits when the entry was last used.
    total: u64,
    /// The child taken then.
    last: usize,
    /// Where the node's children's terms start in [`ScoreCache::terms`].
    start: usize,
}

impl ScoreCache {
    /// Forgets every entry (a new search: its nodes, bounds and tables may differ).
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.terms.clear();
    }
}

impl Uct {
    /// [`Uct::select`] at a node whose terms `cache` keeps or can keep ([`ScoreCache`]): the same index
    /// the one-pass scoring gives, or `None` where the cache does not apply (the caller then scores as
    /// usual): a child not visited yet, an entry that does not fit, settings other than UCT with `edge`
    /// statistics, known bounds and no solver.
    ///
    /// `key`: the node's address; `total`: the sum of its edges' visits, none of which may have a
    /// playout in progress (the caller checks that this playout has not passed the node already).
    pub(super) fn select_cached<M>(
        &self,
        cache: &mut ScoreCache,
        key: usize,
        children: &[Edge<M>],
        total: u64,
    ) -> Option<usize> {
        let (lo, hi) = self.bounds?;
        if self.solver || self.puct || children.len() < SCORE_CACHE_MIN_CHILDREN || total < children.len() as u64 {
            return None;
        }
        let span = hi - lo;
        let norm = (lo, span, 1.0 / span);
        let unit = lo == 0.0 && span == 1.0;
        let view = InTree::<true>;
        let terms_of = |i: usize, e: &Edge<M>| -> Option<[f64; 2]> {
            let visits = view.visits(i, e);
            if visits == 0 {
                return None;
            }
            let qv = normalised_qv(view.q_times_visits(i, e, None, visits), count_f64(visits), unit, norm);
            Some(uct_terms(self.recip_table, qv, visits))
        };
        let len = children.len();
        let entry = match cache.entries.get_mut(&key) {
            Some(entry) if entry.total + 1 == total => {
                let last = entry.last;
                cache.terms[entry.start + last] = terms_of(last, &children[last])?;
                entry
            }
            found => {
                // A new entry, or one that missed a selection (the playout that passed the node twice
                // was scored without it): all its terms from the edges.
                let start = match found {
                    Some(entry) => entry.start,
                    None if cache.terms.len() + len > SCORE_CACHE_MAX_CHILDREN => return None,
                    None => {
                        if cache.terms.capacity() == 0 {
                            cache.terms.reserve_exact(SCORE_CACHE_MAX_CHILDREN);
                        }
                        let start = cache.terms.len();
                        cache.terms.resize(start + len, [0.0; 2]);
                        start
                    }
                };
                let mut complete = true;
                for ((i, e), t) in children.iter().enumerate().zip(&mut cache.terms[start..start + len]) {
                    match terms_of(i, e) {
                        Some(terms) => *t = terms,
                        None => {
                            complete = false;
                            break;
                        }
                    }
                }
                // An entry whose terms are not all there is never used: its count cannot match.
                let node = CachedNode { total: if complete { total } else { 0 }, last: 0, start };
                let entry = match cache.entries.entry(key) {
                    Entry::Occupied(mut o) => {
                        o.insert(node);
                        o.into_mut()
                    }
                    Entry::Vacant(v) => v.insert(node),
                };
                if !complete {
                    return None;
                }
                entry
            }
        };
        let terms = &cache.terms[entry.start..entry.start + len];
        let best = best_of_terms(terms, self.exploration * sqrt_ln_count(self.sqrt_ln_table, total as f64));
        entry.total = total;
        entry.last = best;
        Some(best)
    }
}

/// The index of the best UCT score `exploit + c_sqrt_log · explore` over children's `[exploit, explore]`
/// terms ([`uct_terms`]), the first of equal scores (as the scoring pass keeps it); 0 for no children.
/// The terms must be finite.
#[inline]
fn best_of_terms(terms: &[[f64; 2]], c_sqrt_log: f64) -> usize {
    let len = terms.len();
    let score = |&[exploit, explore]: &[f64; 2]| exploit + c_sqrt_log * explore;
    // Four lanes, child `i` in lane `i % 4`, each keeping its best score and the first child that
    // has it (one chain of comparisons would wait on each maximum in turn); then the best of the
    // lanes and, among lanes that tie, the first child: the child the plain pass takes, which
    // keeps the first of equal scores. Scores are finite, so no NaN breaks the comparisons.
    let mut max = [f64::NEG_INFINITY; 4];
    let mut at = [0usize; 4];
    let quads = terms.chunks_exact(4);
    let (tail, tail_start) = (quads.remainder(), len - len % 4);
    for (q, quad) in quads.enumerate() {
        for (lane, t) in quad.iter().enumerate() {
            let s = score(t);
            if s > max[lane] {
                max[lane] = s;
                at[lane] = 4 * q + lane;
            }
        }
    }
    for (lane, t) in tail.iter().enumerate() {
        let s = score(t);
        if s > max[lane] {
            max[lane] = s;
            at[lane] = tail_start + lane;
        }
    }
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for lane in 0..4 {
        if max[lane] > best_score || (max[lane] == best_score && at[lane] < best) {
            best_score = max[lane];
            best = at[lane];
        }
    }
    best
}

/// How many edges ahead of the one it scores the one-pass selection asks for a child node
/// ([`prefetch_child`]): far enough for the load to arrive before the child is scored.
const PREFETCH_AHEAD: usize = 6;

/// Which worker of how many selects, for the outcome affinity of stratified chance selection.
#[derive(Clone, Copy, Debug)]
pub(super) struct Share {
    /// This worker's index, `0..workers`.
    pub worker: usize,
    /// The search's workers (at least 1).
    pub workers: usize,
}

impl Share {
    /// Whether outcome `i` of a chance node is this worker's own: the outcomes are dealt to the workers
    /// by a multiplicative hash of their index (so that an outcome list ordered by kind, such as 2048's
    /// 2s and 4s, is split evenly), the same deal at every chance node.
    #[inline]
    fn owns(&self, i: usize) -> bool {
        self.workers == 1
            || ((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) as usize % self.workers == self.worker
    }
}

/// How far behind the most lagging outcome (in visits) a worker's own outcome may be and still be taken
/// instead of it ([`select_outcome`]).
const AFFINITY_SLACK: f64 = 1.0;

/// Chance-node outcome selection (see [`ChanceSelection`]); `view` reads the outcomes' visits.
///
/// Stratified selection takes the outcome whose count (visits plus virtual loss) lags its probability
/// most, `argmax p_i·(N + 1) − n_i`. With several workers each takes instead its own most lagging
/// outcome ([`Share::owns`]) when that lags the most lagging one by at most [`AFFINITY_SLACK`] visits:
/// the counts still follow the probabilities within about two visits, while each outcome's subtree is
/// searched mostly by one worker, so the workers write fewer of each other's cache lines below a chance
/// node (docs/BENCHMARKS.md, "Outcome affinity"). One worker owns every outcome: the plain rule.
///
/// `edge_visits`: the sum of the outcomes' visits where the worker knows it ([I14]; one worker only),
/// which lets the stratified choice read the outcomes once instead of twice ([`most_lagging_one_pass`]).
fn select_outcome<M, V: EdgeView>(
    chance: ChanceSelection,
    share: Share,
    rng: &mut Rng,
    children: &[Edge<M>],
    view: &V,
    edge_visits: Option<u64>,
) -> usize {
    match chance {
        ChanceSelection::Stratified => {
            if let Some(total) = edge_visits.filter(|_| share.workers == 1) {
                if let Some(i) = most_lagging_one_pass(children, view, total as f64) {
                    return i;
                }
            }
            let count = |i: usize, e: &Edge<M>| view.visits(i, e) + u64::from(e.in_flight_relaxed());
            // Summed in whole numbers and converted once: the same number as a sum in `f64` (every
            // partial sum is a whole number below 2^53), without each addition waiting on the last.
            let total = count_f64(children.iter().enumerate().map(|(i, e)| count(i, e)).sum());
            let (mut best, mut own) = (0, None);
            let (mut best_lag, mut own_lag) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
            for (i, e) in children.iter().enumerate() {
                let n = count_f64(count(i, e));
                let lag = e.prob as f64 * (total + 1.0) - n;
                if lag > best_lag {
                    best_lag = lag;
                    best = i;
                }
                if lag > own_lag && share.owns(i) {
                    own_lag = lag;
                    own = Some(i);
                }
            }
            match own {
                Some(i) if own_lag >= best_lag - AFFINITY_SLACK => i,
                _ => best,
            }
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

/// Stratified outcome selection in one pass, `argmax p_i·(N + 1) − n_i`, for the one worker of a search
/// given `total` = N, the outcomes' visits summed ([I14]): the index the two passes of
/// [`select_outcome`] give (a sum of whole numbers below 2^53 is exact in `f64`, so the lags are the
/// same numbers), or `None` when an outcome has a playout in progress (a path that came back round a
/// cycle), whose virtual visit `total` lacks.
#[inline]
fn most_lagging_one_pass<M, V: EdgeView>(children: &[Edge<M>], view: &V, total: f64) -> Option<usize> {
    let (mut best, mut best_lag) = (0, f64::NEG_INFINITY);
    for (i, e) in children.iter().enumerate() {
        if e.in_flight_relaxed() != 0 {
            return None;
        }
        let lag = e.prob as f64 * (total + 1.0) - count_f64(view.visits(i, e));
        if lag > best_lag {
            best_lag = lag;
            best = i;
        }
    }
    Some(best)
}

/// How selection reads an edge's visits and mean return.
trait EdgeView {
    /// Whether [`EdgeView::q`] reads the child node (so that selection loads and prefetches it even
    /// without MCTS-Solver, whose proofs are on the nodes).
    const READS_CHILD: bool;
    /// The `i`-th edge's backed-up visits.
    fn visits<M>(&self, i: usize, e: &Edge<M>) -> u64;
    /// The `i`-th edge's mean return for its mover: the move's reward plus the mean of `child`, the node
    /// it leads to (as the caller loaded it; `None` when [`EdgeView::READS_CHILD`] is false and the
    /// solver is off), or the edge's own mean.
    fn q<M>(&self, i: usize, e: &Edge<M>, child: Option<&Node<M>>) -> Option<f64>;
    /// [`EdgeView::q`] times `visits`, the edge's visits as [`EdgeView::visits`] read them: for the
    /// edge's own statistics their sum plus the reward times the visits, without the division a mean
    /// takes (equal to `q · visits` in exact arithmetic; the roundings may differ in the last place).
    #[inline(always)]
    fn q_times_visits<M>(&self, i: usize, e: &Edge<M>, child: Option<&Node<M>>, visits: u64) -> Option<f64> {
        self.q(i, e, child).map(|q| q * count_f64(visits))
    }
}

/// The statistics as the tree holds them: the means of the child nodes (`EDGE` false,
/// [`crate::search::Statistics::Node`]) or of the edges (`EDGE` true, [`crate::search::Statistics::Edge`]).
struct InTree<const EDGE: bool>;

impl<const EDGE: bool> EdgeView for InTree<EDGE> {
    const READS_CHILD: bool = !EDGE;

    #[inline(always)]
    fn visits<M>(&self, _: usize, e: &Edge<M>) -> u64 {
        e.visits_relaxed()
    }

    #[inline(always)]
    fn q<M>(&self, _: usize, e: &Edge<M>, child: Option<&Node<M>>) -> Option<f64> {
        if EDGE {
            e.edge_mean_relaxed()
        } else {
            child?.mean_relaxed().map(|m| m + e.reward as f64)
        }
    }

    #[inline(always)]
    fn q_times_visits<M>(&self, _: usize, e: &Edge<M>, child: Option<&Node<M>>, visits: u64) -> Option<f64> {
        if EDGE {
            (visits > 0).then(|| e.value_sum_relaxed() + e.reward as f64 * count_f64(visits))
        } else {
            child?.mean_relaxed().map(|m| (m + e.reward as f64) * count_f64(visits))
        }
    }
}

/// A node's statistics with this worker's batched backups added ([`Batched`], one per edge); `EDGE`:
/// the means are the edges' ([`crate::search::Statistics::Edge`]), so the child nodes are not read.
struct WithDeltas<'d, const EDGE: bool>(&'d [Batched]);

impl<const EDGE: bool> EdgeView for WithDeltas<'_, EDGE> {
    const READS_CHILD: bool = !EDGE;

    #[inline]
    fn visits<M>(&self, i: usize, e: &Edge<M>) -> u64 {
        e.visits_relaxed() + self.0[i].visits
    }

    #[inline]
    fn q<M>(&self, i: usize, e: &Edge<M>, child: Option<&Node<M>>) -> Option<f64> {
        let d = &self.0[i];
        if EDGE {
            let visits = e.visits_relaxed() + d.visits;
            return (visits > 0).then(|| (e.value_sum_relaxed() + d.value) / count_f64(visits) + e.reward as f64);
        }
        let (visits, sum) = match child {
            Some(child) => (child.visits_relaxed() + d.child_visits, child.value_sum_relaxed() + d.child_value),
            None => (d.child_visits, d.child_value),
        };
        (visits > 0).then(|| sum / count_f64(visits) + e.reward as f64)
    }

    #[inline]
    fn q_times_visits<M>(&self, i: usize, e: &Edge<M>, child: Option<&Node<M>>, visits: u64) -> Option<f64> {
        if EDGE {
            let d = &self.0[i];
            return (visits > 0).then(|| e.value_sum_relaxed() + d.value + e.reward as f64 * count_f64(visits));
        }
        self.q(i, e, child).map(|q| q * count_f64(visits))
    }
}

/// Counts below which [`sqrt_ln_count`] and [`recip_count`] read their tables ([`sqrt_ln_table`],
/// 512 KiB, and [`recip_table`], 1 MiB) instead of computing.
const COUNT_TABLE_LEN: usize = 1 << 16;

/// `sqrt(ln n)` for `n` in `0..COUNT_TABLE_LEN` (that of 1 for 0), as `f64::ln` and then `f64::sqrt`
/// compute it; built once per process. UCT's exploration term needs the square root of the node's
/// log-count at every selection: from the table, neither the logarithm nor the square root's latency
/// (some 20 cycles) is paid.
pub(super) fn sqrt_ln_table() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Box<[f64]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..COUNT_TABLE_LEN).map(|n| sqrt_ln(n.max(1) as f64)).collect())
}

/// `sqrt(ln t)` computed.
#[inline]
fn sqrt_ln(t: f64) -> f64 {
    t.ln().sqrt()
}

/// `sqrt(ln max(total, 1))` for a visit count plus virtual visits, which is a whole number (visits and
/// the virtual loss are integers): from `table` ([`sqrt_ln_table`]) when it is small, as most counts below
/// the root are, the same value computed otherwise.
#[inline]
fn sqrt_ln_count(table: &[f64], total: f64) -> f64 {
    let t = total.max(1.0);
    match table.get(t as usize) {
        Some(&l) if t < COUNT_TABLE_LEN as f64 => l,
        _ => sqrt_ln(t),
    }
}

/// `1 / n` and `sqrt(1 / n)` for a visit count `n`, side by side so that one cache line gives both.
#[derive(Clone, Copy, Debug)]
#[repr(align(16))]
pub(super) struct Reciprocals {
    /// `1 / n`, as `1.0 / n as f64` computes it (a correctly rounded division: the same bits).
    pub recip: f64,
    /// `sqrt(1 / n)`, as `(1.0 / n as f64).sqrt()` computes it.
    pub rsqrt: f64,
}

/// [`Reciprocals`] of `n` for `n` in `0..COUNT_TABLE_LEN` (those of 1 for 0, which UCT never divides by);
/// built once per process (1 MiB). UCT's score takes a reciprocal and a square root per child at every
/// selection, the slowest arithmetic of the score; with them from the table, a child costs
/// multiplications and additions only.
pub(super) fn recip_table() -> &'static [Reciprocals] {
    static TABLE: std::sync::OnceLock<Box<[Reciprocals]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..COUNT_TABLE_LEN).map(|n| reciprocals(n.max(1) as u64)).collect())
}

/// `1 / count` and `sqrt(1 / count)` computed.
#[inline]
fn reciprocals(count: u64) -> Reciprocals {
    let recip = 1.0 / count_f64(count);
    Reciprocals { recip, rsqrt: recip.sqrt() }
}

/// [`Reciprocals`] of a positive count of visits and virtual visits: from `table` ([`recip_table`]) when it
/// is small, as the counts of most children are, computed otherwise (the same values either way).
#[inline(always)]
fn recip_count(table: &[Reciprocals], count: u64) -> Reciprocals {
    if count < table.len() as u64 {
        table[count as usize]
    } else {
        reciprocals(count)
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

#[cfg(all(test, not(canopy_loom)))]
mod tests {
    use super::*;
    use proptest::strategy::Just;

    #[test]
    fn the_count_tables_hold_what_the_arithmetic_gives() {
        let (sqrt_ln_t, recip) = (sqrt_ln_table(), recip_table());
        for n in (1..COUNT_TABLE_LEN as u64).step_by(7).chain([1, 2, 3, COUNT_TABLE_LEN as u64 - 1]) {
            assert_eq!(sqrt_ln_count(sqrt_ln_t, n as f64).to_bits(), (n as f64).ln().sqrt().to_bits(), "ln {n}");
            let r = recip_count(recip, n);
            assert_eq!(r.recip.to_bits(), (1.0 / n as f64).to_bits(), "1/{n}");
            assert_eq!(r.rsqrt.to_bits(), (1.0 / n as f64).sqrt().to_bits(), "sqrt(1/{n})");
            let exploration = (10.0f64.ln() * r.recip).sqrt();
            assert!((10.0f64.ln().sqrt() * r.rsqrt - exploration).abs() <= 4.0 * f64::EPSILON * exploration);
        }
        // Past the tables, the same values computed.
        let big = COUNT_TABLE_LEN as u64 + 12_345;
        assert_eq!(recip_count(recip, big).recip.to_bits(), (1.0 / big as f64).to_bits());
        assert_eq!(sqrt_ln_count(sqrt_ln_t, big as f64).to_bits(), (big as f64).ln().sqrt().to_bits());
    }

    /// One child of a node for [`one_pass_and_two_pass_selection_agree`]: its edge's visits (0: not
    /// selected yet, no node), its node's extra visits through other parents (a transposition), its mean
    /// on `[0, 1]`, its proof (0 none, else a [`Proof`] code) for its own player, who is the mover or
    /// the other player, and whether a playout is in progress through the edge (one that passed the
    /// node before, in a cycle of positions).
    type ChildSpec = ((u64, u64, f64, u8, bool), bool);

    fn uct(solver: bool, puct: bool, bounds: (f64, f64), exploration: f64) -> Uct {
        Uct {
            solver,
            bounds: Some(bounds),
            virtual_loss: 1,
            min_span: 0.0,
            puct,
            exploration,
            sqrt_ln_table: sqrt_ln_table(),
            recip_table: recip_table(),
        }
    }

    proptest::proptest! {
        /// With the game's value bounds, the one-pass selection (the edges' visit sum given, without
        /// virtual visits), with the child nodes' means or the edges' own, takes the same child as the
        /// two-pass one (which sums the edges' visits and virtual visits itself): proven wins first, then the first unvisited move, else the best score
        /// or, when every move is proven to lose, the first of them; and with a playout in progress
        /// through an edge, which the given sum lacks, it gives way to the two passes.
        #[test]
        fn one_pass_and_two_pass_selection_agree(
            specs in proptest::collection::vec(
                (
                    (proptest::prop_oneof![Just(0u64), 1u64..5, 5u64..70_000], 0u64..3, 0.0f64..=1.0, 0u8..4, proptest::bool::ANY),
                    proptest::prop_oneof![9 => Just(false), 1 => Just(true)],
                ),
                1..40,
            ),
            solver in proptest::bool::ANY,
            puct in proptest::bool::ANY,
            wide in proptest::bool::ANY,
            exploration in proptest::prop_oneof![Just(1.0f64), 0.0f64..3.0],
        ) {
            let specs: Vec<ChildSpec> = specs;
            let mover = 0usize;
            let bounds = if wide { (-2.0, 3.0) } else { (0.0, 1.0) };
            let (lo, span) = (bounds.0, bounds.1 - bounds.0);
            let edges: Vec<Edge<u8>> = (0..specs.len()).map(|i| Edge::new(i as u8, 1.0 / specs.len() as f32, 0.0)).collect();
            let mut nodes: Vec<Box<Node<u8>>> = Vec::new();
            for (e, &((visits, extra, mean, proof, own), in_flight)) in edges.iter().zip(&specs) {
                e.preload_relaxed(visits);
                if in_flight {
                    e.add_in_flight_relaxed();
                }
                if visits == 0 {
                    continue;
                }
                let player = if own { mover } else { 1 - mover };
                let node = Box::new(Node::new(NodeKind::Decision, player, 0));
                let n = visits + extra;
                node.preload_relaxed(n, (lo + mean * span) * n as f64);
                // The edge's own mean (UCT1) is the child's, from the mover's side of the same value.
                e.preload_value_relaxed((lo + mean * span) * visits as f64);
                if let Some(p) = match proof { 1 => Some(Proof::Win), 2 => Some(Proof::Loss), 3 => Some(Proof::Draw), _ => None } {
                    node.set_proof_relaxed(p);
                }
                // SAFETY: [I3] the node is fully built; [I6] it is boxed in `nodes`, which outlives `edges`' use.
                unsafe { e.link_child_single_writer(&*node as *const Node<u8> as *mut Node<u8>) };
                nodes.push(node);
            }
            let total: u64 = edges.iter().map(|e| e.visits_relaxed()).sum();
            let u = uct(solver, puct, bounds, exploration);
            let two = u.select(&edges, mover, &InTree::<false>, None);
            let one = u.select(&edges, mover, &InTree::<false>, Some(total));
            proptest::prop_assert_eq!(one, two, "total {}", total);
            // The same with the edges' own means (Statistics::Edge).
            let two = u.select(&edges, mover, &InTree::<true>, None);
            let one = u.select(&edges, mover, &InTree::<true>, Some(total));
            proptest::prop_assert_eq!(one, two, "edge means, total {}", total);
        }
    }

    proptest::proptest! {
        /// At a wide node ([`READ_ONCE_MIN_CHILDREN`] children or more) with `edge` statistics, the
        /// selection that reads the edges once takes the child the two passes take, with playouts in
        /// progress (counted as virtual loss) or not, from the tree's counts and with a worker's batched
        /// backups added ([`WithDeltas`]), with and without the edges' visit sum given; values drawn from
        /// a few levels, so that equal scores recur and ties are decided alike.
        #[test]
        fn reading_the_edges_once_takes_the_child_two_passes_take(
            specs in proptest::collection::vec(
                (
                    proptest::prop_oneof![1 => Just(0u64), 4 => 1u64..4, 4 => 4u64..70_000],
                    0u8..3,
                    proptest::prop_oneof![8 => Just(0u32), 2 => 1u32..3],
                    proptest::prop_oneof![1 => Just(0u64), 1 => 0u64..5],
                ),
                READ_ONCE_MIN_CHILDREN..90,
            ),
            wide in proptest::bool::ANY,
            virtual_loss in 0u32..4,
            exploration in proptest::prop_oneof![Just(1.0f64), 0.0f64..3.0],
        ) {
            let bounds = if wide { (-2.0, 3.0) } else { (0.0, 1.0) };
            let level = |l: u8| bounds.0 + (bounds.1 - bounds.0) * f64::from(l) / 2.0;
            let edges: Vec<Edge<u8>> = (0..specs.len()).map(|i| Edge::new(i as u8, 1.0 / specs.len() as f32, 0.0)).collect();
            let mut deltas = Vec::new();
            for (e, &(visits, l, in_flight, delta)) in edges.iter().zip(&specs) {
                e.preload_relaxed(visits);
                e.preload_value_relaxed(level(l) * visits as f64);
                for _ in 0..in_flight {
                    e.add_in_flight_relaxed();
                }
                let mut d = Batched::default();
                d.visits = delta;
                d.value = level(2 - l) * delta as f64;
                deltas.push(d);
            }
            let u = Uct { virtual_loss, ..uct(false, false, bounds, exploration) };
            let mut terms = Vec::new();
            let total: u64 = edges.iter().map(|e| e.visits_relaxed()).sum();
            for edge_visits in [None, Some(total)] {
                let two = u.select(&edges, 0, &InTree::<true>, edge_visits);
                let once = u.select_reading_once(&edges, 0, &InTree::<true>, edge_visits, &mut terms);
                proptest::prop_assert_eq!(once, two, "tree, visit sum {:?}", edge_visits);
            }
            let two = u.select(&edges, 0, &WithDeltas::<true>(&deltas), None);
            let once = u.select_reading_once(&edges, 0, &WithDeltas::<true>(&deltas), None, &mut terms);
            proptest::prop_assert_eq!(once, two, "with deltas");
        }
    }

    proptest::proptest! {
        /// A worker's cached terms ([`ScoreCache`]) take the child the one-pass scoring takes, at every
        /// selection of a run in which each selection's playout backs up through the child taken (ties
        /// included: the values come from a few levels, so that equal means and counts recur), and
        /// after a backup the cache did not see (a playout that passed the node twice on its path),
        /// which rebuilds the entry. With an unvisited child the cache gives way.
        #[test]
        fn cached_terms_take_the_child_the_scoring_pass_takes(
            start in proptest::collection::vec((proptest::prop_oneof![1 => Just(0u64), 9 => 1u64..4], 0u8..3), 16..48),
            steps in proptest::collection::vec((0u8..3, 0u8..20, 0usize..48), 1..300),
            wide in proptest::bool::ANY,
            exploration in proptest::prop_oneof![Just(1.0f64), 0.0f64..3.0],
        ) {
            let bounds = if wide { (-2.0, 3.0) } else { (0.0, 1.0) };
            let level = |l: u8| bounds.0 + (bounds.1 - bounds.0) * f64::from(l) / 2.0;
            let edges: Vec<Edge<u8>> = (0..start.len()).map(|i| Edge::new(i as u8, 1.0 / start.len() as f32, 0.0)).collect();
            for (e, &(visits, l)) in edges.iter().zip(&start) {
                e.preload_relaxed(visits);
                e.preload_value_relaxed(level(l) * visits as f64);
            }
            let u = uct(false, false, bounds, exploration);
            let mut cache = ScoreCache::default();
            let mut used = 0;
            for &(l, miss, other) in &steps {
                let total: u64 = edges.iter().map(|e| e.visits_relaxed()).sum();
                let plain = u.select(&edges, 0, &InTree::<true>, Some(total));
                let cached = u.select_cached(&mut cache, 1, &edges, total);
                let unvisited = edges.iter().any(|e| e.visits_relaxed() == 0);
                proptest::prop_assert_eq!(cached.is_none(), unvisited, "total {}", total);
                if let Some(c) = cached {
                    proptest::prop_assert_eq!(c, plain, "total {}", total);
                    used += 1;
                }
                edges[plain].add_backups_relaxed(1, level(l));
                if miss == 0 {
                    edges[other % edges.len()].add_backups_relaxed(1, level(2 - l));
                }
            }
            // Runs without an unvisited child use the cache at every step.
            if start.iter().all(|s| s.0 > 0) {
                proptest::prop_assert_eq!(used, steps.len());
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn one_pass_and_two_pass_outcome_selection_agree(
            specs in proptest::collection::vec(
                (
                    proptest::prop_oneof![Just(0u64), 1u64..5, 5u64..70_000],
                    1u32..100,
                    proptest::prop_oneof![9 => Just(false), 1 => Just(true)],
                ),
                1..100,
            ),
        ) {
            let weight: u32 = specs.iter().map(|s| s.1).sum();
            let edges: Vec<Edge<u8>> =
                specs.iter().enumerate().map(|(i, s)| Edge::new(i as u8, s.1 as f32 / weight as f32, 0.0)).collect();
            for (e, &(visits, _, in_flight)) in edges.iter().zip(&specs) {
                e.preload_relaxed(visits);
                if in_flight {
                    e.add_in_flight_relaxed();
                }
            }
            let total: u64 = edges.iter().map(|e| e.visits_relaxed()).sum();
            let share = Share { worker: 0, workers: 1 };
            let mut rng = crate::rng::seeded(1, 0);
            let stratified = ChanceSelection::Stratified;
            let two = select_outcome(stratified, share, &mut rng, &edges, &InTree::<false>, None);
            let one = select_outcome(stratified, share, &mut rng, &edges, &InTree::<false>, Some(total));
            proptest::prop_assert_eq!(one, two, "total {}", total);
        }
    }

    /// 2048's spawn after a move with 15 empty cells: a 2 (0.9) or a 4 (0.1) on each, listed by kind.
    fn spawns() -> Vec<Edge<u8>> {
        let mut edges: Vec<Edge<u8>> = (0..15).map(|c| Edge::new(c, 0.9 / 15.0, 0.0)).collect();
        edges.extend((0..15).map(|c| Edge::new(15 + c, 0.1 / 15.0, 0.0)));
        edges
    }

    /// The largest distance, in visits, between an outcome's count and its share of `total`.
    fn deviation(edges: &[Edge<u8>], total: u64) -> f64 {
        edges.iter().map(|e| (e.visits_relaxed() as f64 - e.prob as f64 * total as f64).abs()).fold(0.0, f64::max)
    }

    #[test]
    fn outcome_affinity_keeps_the_counts_on_the_probabilities() {
        let mut rng = crate::rng::seeded(1, 0);
        for workers in [1usize, 2, 4] {
            let edges = spawns();
            let (mut own, mut worst) = (0u64, 0.0f64);
            let rounds = 5_000u64;
            for round in 0..rounds {
                // Every worker selects before any backs up: each sees the others' virtual loss.
                let picks: Vec<usize> = (0..workers)
                    .map(|worker| {
                        let share = Share { worker, workers };
                        let i = select_outcome(
                            ChanceSelection::Stratified,
                            share,
                            &mut rng,
                            &edges,
                            &InTree::<false>,
                            None,
                        );
                        edges[i].add_in_flight_relaxed();
                        own += u64::from(share.owns(i));
                        i
                    })
                    .collect();
                for i in picks {
                    edges[i].backup_relaxed();
                }
                worst = worst.max(deviation(&edges, (round + 1) * workers as u64));
            }
            // Measured: 1.34 visits with one worker, 1.72 with two and with four.
            assert!(worst <= 2.0, "{workers} workers: an outcome strayed {worst} visits from its share");
            let own_share = own as f64 / (rounds * workers as u64) as f64;
            assert!(own_share >= 0.9, "{workers} workers: only {own_share} of the picks were the worker's own");
            if workers == 1 {
                // One worker: the plain rule, whose counts stay within about a visit of the shares.
                assert!(worst <= 1.5, "{worst}");
            }
        }
    }

    #[test]
    fn every_worker_owns_some_outcomes_and_each_outcome_has_one_owner() {
        for workers in [2usize, 3, 4] {
            for i in 0..30 {
                let owners = (0..workers).filter(|&worker| Share { worker, workers }.owns(i)).count();
                assert_eq!(owners, 1, "outcome {i} of {workers} workers");
            }
            for worker in 0..workers {
                assert!((0..30).any(|i| Share { worker, workers }.owns(i)), "worker {worker} of {workers} owns none");
            }
        }
    }
}
