//! Reading the tree: the root's per-action statistics, the best action and the principal variations of
//! a finished search, progress snapshots of a running one, and the conservation audit.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use crossbeam_utils::CachePadded;

use crate::game::{Game, Turn};
use crate::search::node::{Edge, Node, NodeKind, Step};
use crate::search::params::Statistics;
use crate::search::report::{ActionStats, Proof, ProvenNode, TreeAudit};
use crate::search::session::Event;
use crate::search::worker::{q_value, GameNode};
use crate::search::Progress;
use crate::sync::{AtomicUsize, Ordering};

/// Longest principal variation reported, in moves and outcomes.
const PV_LIMIT: usize = 48;

/// The root's visit count when a search starts, for live views of it while the search runs: the workers
/// add their root backups to the root's own counter in batches (`ROOT_FLUSH` in `worker.rs`), but every
/// playout of a search leaves an expanded root through an edge, whose visits are counted at once.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootCount {
    node: u64,
    edges: u64,
}

impl RootCount {
    /// The root's counts now.
    pub fn of<M>(root: &Node<M>) -> Self {
        Self { node: root.visits_relaxed(), edges: edge_visits(root) }
    }

    /// The root's visits now, as the searches since [`RootCount::of`] left them: the larger of the
    /// node's and its edges' growth (the node's lags by the batched backups; its edges miss the playouts
    /// that end at the root itself, when it is terminal or has no moves).
    pub fn live<M>(&self, root: &Node<M>) -> u64 {
        let node = root.visits_relaxed().saturating_sub(self.node);
        let edges = edge_visits(root).saturating_sub(self.edges);
        self.node + node.max(edges)
    }

    /// The visits before the search.
    pub fn before(&self) -> u64 {
        self.node
    }
}

/// The sum of the visits of `node`'s edges (0 before its expansion).
fn edge_visits<M>(node: &Node<M>) -> u64 {
    node.children_acquire().map_or(0, |c| c.iter().map(Edge::visits_relaxed).sum())
}

/// A snapshot of the search under `root`, started at `start` when the root's counts were `before`.
pub(super) fn progress_of<G: Game>(
    game: &G,
    root: &GameNode<G>,
    start: Instant,
    before: RootCount,
    gauges: &[CachePadded<AtomicUsize>],
    statistics: Statistics,
) -> Progress {
    // The most visited child; none before a playout has finished through one.
    let best = root
        .children_acquire()
        .and_then(|c| c.iter().filter(|e| e.visits_relaxed() > 0).max_by_key(|e| e.visits_relaxed()));
    let root_visits = before.live(root);
    let (mut best_visits, mut second_visits) = (0, 0);
    for e in root.children_acquire().into_iter().flatten() {
        let v = e.visits_relaxed();
        if v > best_visits {
            (best_visits, second_visits) = (v, best_visits);
        } else if v > second_visits {
            second_visits = v;
        }
    }
    Progress {
        elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
        playouts: root_visits.saturating_sub(before.before()),
        root_visits,
        best: best.and_then(|e| match &e.step {
            Step::Action(a) => Some(game.action_name(a)),
            _ => None,
        }),
        best_mean: best.and_then(|e| q_value(e, statistics)),
        memory_bytes: gauged_bytes(gauges),
        best_visits,
        second_visits,
    }
}

/// The bytes the gauges of a running search add up to.
pub(super) fn gauged_bytes(gauges: &[CachePadded<AtomicUsize>]) -> usize {
    gauges.iter().map(|g| g.load(Ordering::Relaxed)).sum()
}

/// Per-action statistics of the root's children; `playouts` is the root's visit count (the shares'
/// denominator), `statistics` where the means are.
pub(super) fn root_actions<G: Game>(
    game: &G,
    root: &GameNode<G>,
    playouts: u64,
    statistics: Statistics,
) -> Vec<ActionStats<G::Action>> {
    let Some(children) = root.children_acquire() else { return Vec::new() };
    children
        .iter()
        .filter_map(|e| match e.step {
            Step::Action(a) => {
                let visits = e.visits_relaxed();
                Some(ActionStats {
                    action: a,
                    name: game.action_name(&a),
                    visits,
                    share: if playouts > 0 { visits as f64 / playouts as f64 } else { 0.0 },
                    mean: q_value(e, statistics),
                    reward: e.reward as f64,
                    prior: e.prob as f64,
                    pv: e.child_acquire().map(|c| principal_variation(game, c)).unwrap_or_default(),
                    proof: move_proof(e),
                })
            }
            Step::Outcome(_) | Step::Sampled => None,
        })
        .collect()
}

/// The root's mean return and proven result for the player to move at the root (`to_move`, the root
/// position's turn). The root records them for its own player: the player to move in a fresh tree, but
/// in a tree re-rooted on a move ([`crate::Session::advance`]) the player who made that move. In a
/// win/draw/loss game the two players' views are exact complements, so the root's are turned round;
/// other games' are read as they stand. (The player to move is taken from the position, not from a
/// child node: a root edge may have visits and no child yet.)
pub(super) fn root_for_mover<G: Game>(game: &G, root: &GameNode<G>, to_move: Turn) -> (Option<f64>, Option<Proof>) {
    let (mean, proof) = (root.mean_relaxed(), root.proof_relaxed());
    let mover = match to_move {
        Turn::Player(m) => Some(m),
        _ => None,
    };
    if root.kind() == NodeKind::Decision && game.win_draw_loss() && mover.is_some_and(|m| m != root.player()) {
        (mean.map(|m| 1.0 - m), proof.map(Proof::flipped))
    } else {
        (mean, proof)
    }
}

/// The proven result of a root action for the player who plays it. The child records its proof for its
/// own player, the one who moved into it, which is that player: read as it stands. (The root's own
/// player is the player to move only in a fresh tree; in a tree re-rooted on a move
/// ([`crate::Session::advance`]) it is the player who made that move, so reading the children for the
/// root's player would turn a two-player tree's wins into losses.)
fn move_proof<M>(e: &Edge<M>) -> Option<Proof> {
    e.child_acquire()?.proof_relaxed()
}

/// The best root action: a proven win if there is one; otherwise the most visited action that is not a
/// proven loss (ties go to the higher mean); when every action is a proven loss, the most visited.
pub(super) fn best_action<A>(actions: &[ActionStats<A>]) -> Option<&ActionStats<A>> {
    if let Some(win) = actions.iter().find(|a| a.proof == Some(Proof::Win)) {
        return Some(win);
    }
    let not_lost: Vec<&ActionStats<A>> = actions.iter().filter(|a| a.proof != Some(Proof::Loss)).collect();
    let pool: Vec<&ActionStats<A>> = if not_lost.is_empty() { actions.iter().collect() } else { not_lost };
    pool.into_iter().max_by(|a, b| {
        a.visits.cmp(&b.visits).then(
            a.mean
                .unwrap_or(f64::NEG_INFINITY)
                .partial_cmp(&b.mean.unwrap_or(f64::NEG_INFINITY))
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    })
}

/// Most visited moves and outcomes from `node` down.
fn principal_variation<G: Game>(game: &G, mut node: &GameNode<G>) -> Vec<String> {
    let mut pv = Vec::new();
    while pv.len() < PV_LIMIT {
        let Some(children) = node.children_acquire() else { break };
        let Some(edge) = children.iter().filter(|e| e.visits_relaxed() > 0).max_by_key(|e| e.visits_relaxed()) else {
            break;
        };
        pv.push(match &edge.step {
            Step::Action(a) => game.action_name(a),
            Step::Outcome(o) => game.outcome_name(o),
            Step::Sampled => "(sampled)".to_string(),
        });
        match edge.child_acquire() {
            Some(c) => node = c,
            None => break,
        }
    }
    pv
}

/// Walks every node reachable from `root` once (iteratively: trees may be 100 000 deep) and sums the
/// conservation figures of [`TreeAudit`] for a tree searched with `statistics`.
pub(super) fn audit_tree<A, O>(root: &Node<Step<A, O>>, statistics: Statistics) -> TreeAudit {
    let mut audit = TreeAudit {
        root_visits: root.visits_relaxed(),
        root_value_sum: root.value_sum_relaxed(),
        ..TreeAudit::default()
    };
    let mut seen: HashSet<*const Node<Step<A, O>>> = HashSet::new();
    // Nodes to visit: (node, depth, whether a sampled chance outcome leads to it).
    type Visit<'t, A, O> = (&'t Node<Step<A, O>>, u64, bool);
    let mut stack: Vec<Visit<A, O>> = vec![(root, 0, false)];
    seen.insert(root);
    // With edge statistics: the visits of the edges into each node, and each expanded node's outgoing
    // visits, compared once the walk has seen every edge.
    let by_edges = statistics == Statistics::Edge;
    let mut incoming: HashMap<*const Node<Step<A, O>>, u64> = HashMap::new();
    let mut outgoing: Vec<(&Node<Step<A, O>>, u64)> = Vec::new();
    while let Some((node, depth, open_loop)) = stack.pop() {
        audit.nodes += 1;
        audit.depth = audit.depth.max(depth);
        let Some(children) = node.children_acquire() else {
            audit.claimed_nodes += u64::from(node.expansion_claimed_relaxed());
            continue;
        };
        let mut edge_visits = 0u64;
        for e in children {
            audit.edges += 1;
            audit.in_flight += u64::from(e.in_flight_relaxed());
            edge_visits += e.visits_relaxed();
            if let Some(c) = e.child_acquire() {
                if by_edges {
                    *incoming.entry(c as *const _).or_default() += e.visits_relaxed();
                }
                if seen.insert(c as *const _) {
                    stack.push((c, depth + 1, open_loop || matches!(e.step, Step::Sampled)));
                }
            }
        }
        if by_edges {
            outgoing.push((node, edge_visits));
        } else if edge_visits > node.visits_relaxed() {
            audit.overcounted_nodes += 1;
        }
        let checked = !open_loop && !std::ptr::eq(node, root) && node.proof_relaxed().is_none();
        if let Some(sum) = node.edge_visits_single_writer().filter(|_| checked) {
            audit.counted_nodes += 1;
            audit.miscounted_nodes += u64::from(sum != edge_visits);
        }
    }
    for (node, edge_visits) in outgoing {
        let into = incoming.get(&(node as *const _)).copied().unwrap_or(0);
        audit.overcounted_nodes += u64::from(edge_visits > node.visits_relaxed().max(into));
    }
    audit
}

/// Every proven decision node reachable from `root` (the position `state`), each once however many
/// paths reach it, depth-first, at most `limit` of them; see [`crate::Session::proven_nodes`].
pub(super) fn proven_nodes<G: Game>(
    game: &G,
    root: &GameNode<G>,
    state: &G::State,
    limit: usize,
) -> Vec<ProvenNode<G::Action, G::Outcome>> {
    let mut found = Vec::new();
    let mut seen: HashSet<*const GameNode<G>> = HashSet::new();
    // Iterative: each stack entry is a node, its position and the path to it.
    type Path<G> = Vec<Event<<G as Game>::Action, <G as Game>::Outcome>>;
    let mut stack: Vec<(&GameNode<G>, G::State, Path<G>)> = vec![(root, state.clone(), Vec::new())];
    seen.insert(root);
    while let Some((node, state, path)) = stack.pop() {
        if found.len() >= limit {
            break;
        }
        if let (Some(proof), Turn::Player(mover)) = (node.proof_relaxed(), game.to_move(&state)) {
            if node.kind() == NodeKind::Decision {
                let proof = if node.player() == mover { proof } else { proof.flipped() };
                found.push(ProvenNode { path: path.clone(), proof });
            }
        }
        let Some(children) = node.children_acquire() else { continue };
        for e in children.iter().rev() {
            let Some(child) = e.child_acquire() else { continue };
            if !seen.insert(child as *const _) {
                continue;
            }
            let mut next = state.clone();
            let event = match e.step {
                Step::Action(a) => {
                    game.apply(&mut next, a);
                    Event::Action(a)
                }
                Step::Outcome(o) => {
                    game.apply_outcome(&mut next, o);
                    Event::Outcome(o)
                }
                // An open-loop node stands for many positions: none of them is a single proven one.
                Step::Sampled => continue,
            };
            let mut path = path.clone();
            path.push(event);
            stack.push((child, next, path));
        }
    }
    found
}
