//! What a search returns: the best action, per-action statistics, the principal variation and totals.
//! Renders as JSON with serde; the command line draws the tables.

pub use crate::search::node::Proof;

/// Statistics of one root action.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(bound = ""))]
pub struct ActionStats<A> {
    /// The action (not serialised: games render it through `name`).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub action: A,
    /// The game's name for the action.
    pub name: String,
    /// Playouts that went through this action.
    pub visits: u64,
    /// `visits` divided by the root's playouts (0 when there were none).
    pub share: f64,
    /// Mean return of the action for the player to move, in the game's units: the immediate reward plus
    /// the mean return-to-go after it (2048: expected score still to come; two-player games: win rate,
    /// draws counting one half). `None` before the first visit.
    pub mean: Option<f64>,
    /// Immediate reward of the action (2048: merge score).
    pub reward: f64,
    /// The action's prior probability used by PUCT (uniform when the game gives none).
    pub prior: f64,
    /// Principal variation after this action (names of the most visited moves and outcomes).
    pub pv: Vec<String>,
    /// The proven result of the action for the mover, when the search proved one (two-player games).
    pub proof: Option<Proof>,
}

/// Whether MCTS-Solver ran, and why not when it did not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverStatus {
    /// The solver proved what it could (`SearchParams::solver` on, the game declares
    /// [`crate::Game::win_draw_loss`]).
    On,
    /// `SearchParams::solver` is off.
    DisabledByParams,
    /// The parameters ask for the solver, but the game does not declare itself a two-player
    /// win/draw/loss game ([`crate::Game::win_draw_loss`]).
    NotWinDrawLoss,
}

impl SolverStatus {
    /// `"on"`, `"off: disabled by params"` or `"off: game is not two-player win/draw/loss"` (also the
    /// serde form).
    pub fn describe(self) -> &'static str {
        match self {
            SolverStatus::On => "on",
            SolverStatus::DisabledByParams => "off: disabled by params",
            SolverStatus::NotWinDrawLoss => "off: game is not two-player win/draw/loss",
        }
    }

    /// Whether the solver ran.
    pub fn is_on(self) -> bool {
        self == SolverStatus::On
    }
}

impl std::fmt::Display for SolverStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for SolverStatus {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.describe())
    }
}

/// Transposition-table figures of a search.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableStats {
    /// Number of slots.
    pub slots: usize,
    /// Slots holding a key at the end of the search.
    pub filled: usize,
    /// Edges linked to a node that was already in the table (a transposition).
    pub hits: u64,
}

/// A node of a kept tree whose game-theoretic value MCTS-Solver has proven
/// ([`crate::Session::proven_nodes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenNode<A, O> {
    /// The moves and chance outcomes from the session's position to the node, in order.
    pub path: Vec<crate::search::Event<A, O>>,
    /// The proven result for the player to move at the node.
    pub proof: Proof,
}

/// Conservation checks on the finished tree (with `SearchParams::audit`).
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TreeAudit {
    /// Distinct nodes reachable from the root.
    pub nodes: u64,
    /// Edges in all children blocks.
    pub edges: u64,
    /// Sum of every edge's in-flight (virtual loss) count: 0 after a search.
    pub in_flight: u64,
    /// The root's visit count.
    pub root_visits: u64,
    /// The root's value sum (return-to-go of every playout, from the root's perspective).
    pub root_value_sum: f64,
    /// Sum of the same returns as computed by the workers, without atomics.
    pub evaluated_value_sum: f64,
    /// Nodes whose outgoing edge visits add up to more than the node's own visits (must be 0). With
    /// [`crate::search::Statistics::Edge`], whose searches with several workers do not count the nodes
    /// below the root, a node's visits there are the larger of its own count and the sum of the visits
    /// of the edges that lead to it.
    pub overcounted_nodes: u64,
    /// Nodes other than the root, not proven and not below a sampled chance outcome, whose children
    /// block records the node's visits at its publication by one worker, and whose edges' visits do not
    /// add up to the node's visits past that count (must be 0: one-worker selection reads the sum from
    /// the node, docs/CONCURRENCY.md I14); and the root, when the search's one worker kept the sum of its
    /// edges' visits itself and it differs from the edges'.
    pub miscounted_nodes: u64,
    /// The nodes that `miscounted_nodes` checked (those whose block records the count).
    pub counted_nodes: u64,
    /// Nodes left claimed for expansion (`EXPANDING`) with no children block: a claim that was never
    /// published nor given back (must be 0).
    pub claimed_nodes: u64,
    /// Deepest node reachable from the root (edges from the root).
    pub depth: u64,
}

/// The result of one search.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(bound = ""))]
pub struct SearchReport<A> {
    /// The most visited root action (ties: higher mean). `None` when the root is terminal.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub best: Option<A>,
    /// Name of `best`.
    pub best_name: Option<String>,
    /// One entry per legal root action, in the game's action order.
    pub actions: Vec<ActionStats<A>>,
    /// Principal variation from the root: the best action, then the most visited move or outcome at
    /// each node below.
    pub pv: Vec<String>,
    /// Mean return-to-go of the root for the player to move (`None` without playouts).
    pub root_value: Option<f64>,
    /// The proven result of the root for the player to move, when the search proved one.
    pub root_proof: Option<Proof>,
    /// Playouts completed.
    pub playouts: u64,
    /// The root node's visit count: equals `playouts` for a [`crate::Search`] (no update is lost); for
    /// a [`crate::Session`], also the visits the tree held before this search.
    pub root_visits: u64,
    /// Nodes in the tree, the root included (a [`crate::Session`] counts those kept from earlier
    /// searches too).
    pub nodes: u64,
    /// Deepest playout path (edges from the root).
    pub max_depth: u64,
    /// Mean playout path length (edges from the root).
    pub mean_depth: f64,
    /// Wall time of the search in milliseconds.
    pub elapsed_ms: f64,
    /// Playouts per second of wall time.
    pub playouts_per_sec: f64,
    /// Bytes held by the tree arenas and the transposition table.
    pub memory_bytes: usize,
    /// Whether the memory budget stopped the tree from growing.
    pub memory_limited: bool,
    /// Nodes a [`crate::Session`] let go during this search to keep growing within its budget (the least
    /// visited subtrees became leaves, [`crate::search::Session::recycle`]); 0 for a [`crate::Search`].
    pub recycled_nodes: u64,
    /// Transposition-table figures (`None` when the table is off or the game has no keys).
    pub table: Option<TableStats>,
    /// How values are put on `[0, 1]` for UCT: "bounds [lo, hi]" or "per-node min/max of child means",
    /// with the smallest spread where [`crate::SearchParams::min_span`] sets one.
    pub normalisation: String,
    /// Whether MCTS-Solver ran, and why not when it did not.
    pub solver: SolverStatus,
    /// Worker threads used.
    pub threads: usize,
    /// Conservation checks (`None` unless requested).
    pub audit: Option<TreeAudit>,
}

impl<A> SearchReport<A> {
    /// The statistics of `action`, if it is a root action.
    pub fn action(&self, action: &A) -> Option<&ActionStats<A>>
    where
        A: PartialEq,
    {
        self.actions.iter().find(|s| &s.action == action)
    }
}
