//! The memory of a search tree: the arenas that hold its nodes and children blocks, its root, and its
//! transposition table. A [`crate::Search`] builds one per run and drops it after the report; a
//! [`crate::Session`] keeps one across searches and re-roots it ([`Tree::rerooted`]) by copying the
//! kept subtree into fresh arenas, so that what is no longer reachable is freed at once ([I11] in
//! docs/CONCURRENCY.md).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ptr::NonNull;

use bumpalo::Bump;

use crate::game::{Game, Turn};
use crate::search::node::{Edge, Node};
use crate::search::params::{physical_memory_bytes, SearchParams};
use crate::search::tt::{TranspositionTable, Vacancy};
use crate::search::worker::{node_kind, GameEdge, GameNode, GameStep};
use crate::search::{allocate_table, table_slots};

/// A search tree and the memory that holds it.
pub(crate) struct Tree<G: Game> {
    /// The root and, after re-rooting, the kept subtree; the root's children block.
    pub base: Bump,
    /// One arena per worker thread (grown to the thread count of each search).
    pub arenas: Vec<Bump>,
    /// The root node, in `base` ([I11]).
    root: NonNull<GameNode<G>>,
    /// The transposition table, holding only nodes of this tree ([I11]).
    pub table: Option<TranspositionTable<GameStep<G>>>,
    /// Nodes in the tree, the root included.
    pub nodes: u64,
}

// SAFETY: [I11] a tree owns every node and block its pointers reach (in its own arenas), and nothing else
// points into them while it is moved; nodes hold only atomics and `Copy` steps, which are `Send` when the
// game's actions and outcomes are.
unsafe impl<G: Game> Send for Tree<G> where GameStep<G>: Send {}

impl<G: Game> Tree<G> {
    /// A tree of one unexpanded root for `state`, with a transposition table when `params` ask for one
    /// and the game has Zobrist keys (sized by [`table_slots`]).
    pub fn new(game: &G, state: &G::State, params: &SearchParams) -> Tree<G> {
        let use_table = params.transposition_table && game.zobrist(state).is_some();
        let table = if use_table { allocate_table(table_slots(params, physical_memory_bytes())) } else { None };
        let base = Bump::new();
        let key = if use_table { game.zobrist(state).unwrap_or(0) } else { 0 };
        let turn = game.to_move(state);
        let player = match turn {
            Turn::Player(p) => p,
            _ => 0,
        };
        let root = NonNull::from(base.alloc(Node::new(node_kind(turn), player, key)));
        Tree { base, arenas: Vec::new(), root, table, nodes: 1 }
    }

    /// The root node.
    pub fn root<'t>(&self) -> &'t GameNode<G> {
        // SAFETY: [I11] the root lives in `base`, which lives as long as the tree, and callers hold the
        // reference only while they hold the tree (the search borrows the tree for its whole run).
        unsafe { self.root.as_ref() }
    }

    /// Makes the table (when the tree has one) hold at least `slots` slots: a smaller one is replaced by
    /// a new table of `slots` that receives every keyed node of the tree. Between searches only.
    pub fn ensure_table(&mut self, slots: usize) {
        let Some(old) = &self.table else { return };
        if old.capacity() >= slots {
            return;
        }
        let Some(table) = allocate_table::<GameStep<G>>(slots) else { return };
        if table.capacity() <= old.capacity() {
            return;
        }
        let root = self.root();
        let mut seen: NodeSet<GameNode<G>> = NodeSet::with_capacity_and_hasher(self.nodes as usize, Default::default());
        let mut stack: Vec<&GameNode<G>> = vec![root];
        seen.insert(root);
        while let Some(node) = stack.pop() {
            if node.key() != 0 {
                // SAFETY: [I11] the node is fully built and lives in this tree's arenas; [I13] the new
                // table is not shared yet.
                unsafe { store_alone(&table, node.key(), node as *const _ as *mut GameNode<G>) };
            }
            for edge in node.children_acquire().unwrap_or(&[]) {
                if let Some(child) = edge.child_acquire() {
                    if seen.insert(child) {
                        stack.push(child);
                    }
                }
            }
        }
        self.table = Some(table);
    }

    /// Bytes held: every arena's chunks and the table.
    pub fn memory_bytes(&self) -> usize {
        held_bytes(&self.base, &self.arenas, self.table.as_ref())
    }

    /// A new tree holding a copy of the subtree under `new_root` (a node of this tree), with fresh arenas
    /// and a table of the same size holding only the copied nodes; `None` when the copy does not fit in
    /// `budget` bytes (the caller then starts a fresh tree). The copy walks the subtree iteratively (trees
    /// may be 100 000 deep) and keeps shared nodes shared (a DAG stays a DAG).
    ///
    /// Must be called between searches (no worker running): it reads the statistics Relaxed and every
    /// virtual loss is zero then ([I5]).
    ///
    /// `root_stats`: the visits and value sum the new root starts with in place of its own (the edge
    /// that led to it, with [`crate::search::Statistics::Edge`], whose nodes below the root hold no
    /// values).
    pub fn rerooted(&self, new_root: &GameNode<G>, budget: usize, root_stats: Option<(u64, f64)>) -> Option<Tree<G>> {
        self.copied(new_root, budget, 0, root_stats)
    }

    /// A copy of this tree in which every node but the root with fewer than `min_visits` visits is a
    /// leaf: its subtree is left out (the node keeps its statistics and proof, and a later search may
    /// expand it again). Recycles the memory of the least visited subtrees; `None` when even that copy
    /// does not fit in `budget` bytes.
    pub fn collapsed(&self, min_visits: u64, budget: usize) -> Option<Tree<G>> {
        self.copied(self.root(), budget, min_visits, None)
    }

    /// [`Tree::rerooted`] on `new_root`, leaving out the subtrees of nodes below `min_visits` visits.
    fn copied(
        &self,
        new_root: &GameNode<G>,
        budget: usize,
        min_visits: u64,
        root_stats: Option<(u64, f64)>,
    ) -> Option<Tree<G>> {
        let base = Bump::new();
        let expand = |node: &GameNode<G>| std::ptr::eq(node, new_root) || playouts_through(node) >= min_visits;
        // A small table is remade at its size, which is what the next search of the same limits wants
        // (remaking it smaller would make that search grow it again, [`Tree::ensure_table`], a second
        // walk of the tree). A large one is remade at twice the kept nodes (at most its size): counting
        // them first keeps a huge table from being rebuilt per move for a small kept subtree.
        let slots = self.table.as_ref().map(|t| {
            if t.bytes() <= SAME_SIZE_TABLE_MAX_BYTES {
                t.capacity()
            } else {
                t.capacity().min((2 * count_nodes(new_root, &expand, self.nodes as usize)).max(16))
            }
        });
        let table = slots.and_then(TranspositionTable::try_with_slots);
        let table_bytes = table.as_ref().map_or(0, |t| t.bytes());
        base.set_allocation_limit(Some(budget.saturating_sub(table_bytes)));
        let mut copies: HashMap<*const GameNode<G>, *mut GameNode<G>, BuildHasherDefault<NodeHasher>> =
            HashMap::with_capacity_and_hasher((self.nodes as usize).min(COPY_MAP_CAPACITY_MAX), Default::default());
        let root_copy = new_root.copied();
        if let Some((visits, value_sum)) = root_stats {
            root_copy.restore_relaxed(visits, value_sum, new_root.proof_relaxed());
        }
        let root = base.try_alloc(root_copy).ok()? as *mut GameNode<G>;
        copies.insert(new_root, root);
        // Nodes copied whose children block is still to copy: (original, copy).
        let mut stack: Vec<(&GameNode<G>, *mut GameNode<G>)> = vec![(new_root, root)];
        while let Some((original, copy)) = stack.pop() {
            if let (Some(table), key) = (&table, original.key()) {
                if key != 0 {
                    // SAFETY: [I6] `copy` is fully built and lives in the new tree's arena; [I13] the new
                    // table is not shared yet.
                    unsafe { store_alone(table, key, copy) };
                }
            }
            let Some(children) = original.children_acquire().filter(|_| expand(original)) else { continue };
            let block: &mut [GameEdge<G>] =
                base.try_alloc_slice_fill_with(children.len(), |i| children[i].copied()).ok()?;
            for (edge, new_edge) in children.iter().zip(block.iter()) {
                let Some(child) = edge.child_acquire() else { continue };
                let target = match copies.get(&(child as *const _)) {
                    Some(&done) => done,
                    None => {
                        let fresh = base.try_alloc(child.copied()).ok()? as *mut GameNode<G>;
                        copies.insert(child, fresh);
                        stack.push((child, fresh));
                        fresh
                    }
                };
                // SAFETY: [I3] `target` is a fully built node of the new tree; [I11] it lives in `base`,
                // which the new tree owns.
                unsafe { new_edge.link_child_release(target) };
            }
            let (len, pruned, ptr) = (block.len(), original.pruned_relaxed(), block.as_mut_ptr());
            // SAFETY: [I11] `copy` was allocated in `base` above and is fully built.
            let copy = unsafe { &*copy };
            let claimed = copy.try_claim_expansion();
            debug_assert!(claimed, "a fresh copy is unclaimed");
            // SAFETY: [I1] the copy is not shared yet and was unexpanded, so this thread holds its claim;
            // [I2] the block's edges are initialised; [I11] the block lives in `base`. The copy has the
            // original's visits and edges' visits, so it keeps the original's count at publication ([I14]).
            unsafe { copy.publish_children_release(ptr, len, pruned, original.expanded_at_relaxed()) };
        }
        let nodes = copies.len() as u64;
        // SAFETY: `root` was allocated in `base` above and is not null.
        let root = unsafe { NonNull::new_unchecked(root) };
        Some(Tree { base, arenas: Vec::new(), root, table, nodes })
    }
}

/// Stores `node` for `key` in a table that this thread alone writes (a new tree's, not shared yet), with
/// the exclusive insert ([I13]); a key already there keeps its node.
///
/// # Safety
/// `node` is fully built and lives as long as the table's tree ([I6], [I11]).
unsafe fn store_alone<M>(table: &TranspositionTable<M>, key: u64, node: *mut Node<M>) {
    if let Vacancy::Vacant(slot) = table.probe_exclusive(key) {
        // SAFETY: the caller's guarantee; [I13] this thread is the table's only writer.
        unsafe { table.insert_exclusive(slot, key, node) };
    }
}

/// Tables up to this size are remade at their size when a tree is copied ([`Tree::rerooted`]); 8 MiB is
/// half a million slots, mapped in about a millisecond.
const SAME_SIZE_TABLE_MAX_BYTES: usize = 8 << 20;

/// Most entries the copy's map of old to new nodes is made for at once (it grows beyond as needed): the
/// old tree's node count bounds the kept nodes, but a long analysis's tree can hold many millions.
const COPY_MAP_CAPACITY_MAX: usize = 1 << 20;

/// A set of node addresses, hashed by [`NodeHasher`].
type NodeSet<N> = HashSet<*const N, BuildHasherDefault<NodeHasher>>;

/// Hashes a node's address with one multiply-xorshift ([`crate::games::mix64`]) instead of the standard
/// library's SipHash: the walks of a re-rooting look up every kept node once or twice, a one-worker
/// search's score cache (`select.rs`) a wide node at every selection there, and the addresses are the
/// program's own (no one chooses them to collide), so a keyed hash buys nothing.
#[derive(Default)]
pub(crate) struct NodeHasher(u64);

impl Hasher for NodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = crate::games::mix64(self.0 ^ u64::from(b));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = crate::games::mix64(self.0 ^ n as u64);
    }
}

/// Nodes reachable from `root` through the nodes `expand` keeps expanded, each once (iteratively).
fn count_nodes<M>(root: &Node<M>, expand: &impl Fn(&Node<M>) -> bool, most: usize) -> usize {
    let mut seen: NodeSet<Node<M>> = NodeSet::with_capacity_and_hasher(most, Default::default());
    let mut stack = vec![root];
    seen.insert(root);
    while let Some(node) = stack.pop() {
        let children = if expand(node) { node.children_acquire() } else { None };
        for edge in children.unwrap_or(&[]) {
            if let Some(child) = edge.child_acquire() {
                if seen.insert(child) {
                    stack.push(child);
                }
            }
        }
    }
    seen.len()
}

/// The playouts a node has seen: its own count or, when larger, its edges' visits (a search with
/// [`crate::search::Statistics::Edge`] and several workers does not count the nodes below its root).
fn playouts_through<M>(node: &Node<M>) -> u64 {
    let edges = node.children_acquire().map_or(0, |c| c.iter().map(Edge::visits_relaxed).sum());
    node.visits_relaxed().max(edges)
}

/// Bytes held by a tree's arenas and table.
pub(crate) fn held_bytes<M>(base: &Bump, arenas: &[Bump], table: Option<&TranspositionTable<M>>) -> usize {
    base.allocated_bytes() + arenas.iter().map(Bump::allocated_bytes).sum::<usize>() + table.map_or(0, |t| t.bytes())
}

impl<M: Copy> Node<M> {
    /// An unpublished node with this node's kind, player, key, statistics and proof, and no children
    /// (a copy for a re-rooted tree).
    fn copied(&self) -> Node<M> {
        let node = Node::new(self.kind(), self.player(), self.key());
        node.restore_relaxed(self.visits_relaxed(), self.value_sum_relaxed(), self.proof_relaxed());
        node
    }
}

impl<M: Copy> Edge<M> {
    /// An unlinked edge with this edge's move, probability, reward, visits and value sum, and no virtual
    /// loss.
    fn copied(&self) -> Edge<M> {
        let edge = Edge::new(self.step, self.prob, self.reward);
        edge.restore_relaxed(self.visits_relaxed(), self.value_sum_relaxed());
        edge
    }
}
