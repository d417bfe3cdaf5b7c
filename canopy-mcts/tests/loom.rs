//! loom models of the shared tree's races. Run with
//!
//! ```sh
//! RUSTFLAGS="--cfg canopy_loom" LOOM_MAX_PREEMPTIONS=2 cargo test --test loom --release
//! ```
//!
//! Each model was checked to fail on a deliberate bug before it was kept (the bugs are NOT in the code):
//! - `expansion_publication`: storing `Node::children` with `Relaxed` instead of `Release` in
//!   `publish_children_release` → loom finds a reader that sees the block pointer but the old length (0)
//!   and pruned flag (the length and the flag share the node's `block` word); and storing `expanded_at`
//!   after `children` → loom finds a reader that sees the block but no count at publication (`[I14]`).
//! - `concurrent_backups_are_exact`: replacing `visits.fetch_add(1)` in `Node::backup_relaxed` by
//!   `visits.store(visits.load() + 1)` → loom finds the lost update (visits 1 instead of 2).
//! - `expansion_claim_given_back`: deleting the store in `Node::abandon_expansion` (a failed expansion
//!   that keeps its claim, as the worker did before it gave claims back) → loom finds the interleaving
//!   where the worker without memory claims first and the node is left `EXPANDING`; and replacing the
//!   compare-exchange in `try_claim_expansion` by a load and a store → loom finds both workers holding the
//!   claim, and the give-back of one reopening a node the other has already published.
//! - `batched_root_backups_are_exact`: replacing `visits.fetch_add(visits)` in `Node::add_backups_relaxed`
//!   by a load and a store → loom finds the lost update (visits 3 or 1 instead of 4).
//! - `virtual_loss_is_never_negative`: loading `visits` with `Relaxed` instead of `Acquire` in
//!   `Edge::in_flight_relaxed` (or incrementing it with `Relaxed` in `Edge::backup_relaxed`) → loom finds
//!   a reader that sees a backup but not its selection, a count of 2^32 - 1; and adding the visits
//!   before the selections in `Edge::add_backups_relaxed` → a count of 2^32 - 2.
//! - `edge_value_backups_are_exact`: replacing the `fetch_add` in `Edge::add_value_relaxed` by a load and
//!   a store → loom finds lost values (a sum of 2.25 instead of 4.75); and replacing the one in
//!   `Edge::add_backups_relaxed` the same way → the batch's value lost (3.75).
//! - `table_insert_and_probe`: making `probe` accept a slot whose key matches in its low 4 bits only and
//!   dropping the check of the key stored in the node (`[I8]`) → loom finds a probe of key 21 that
//!   returns the node of key 5.
//! - `exact_table_finds_what_a_linked_insert_stored`: deleting the claim's `fetch_or` in `get_or_insert`,
//!   so that it writes a slot whose occupancy bit it leaves clear → loom finds a reader that sees the
//!   link but whose probe reads the bit clear and misses the node (`[I7]`, `[I13]`; the probe after the
//!   join misses it too).
//! - `table_claims_are_exclusive`: claiming a slot in `get_or_insert` by a load of its bitmap word and a
//!   store of the word with the bit set, instead of the `fetch_or` → loom finds two inserters of
//!   different keys with one home slot that both take that slot, and one key lost (`[I7]`).
#![cfg(canopy_loom)]

use loom::sync::Arc;
use loom::thread;

use canopy_mcts::internals::{Edge, Node, NodeKind};
use canopy_mcts::internals::{Lookup, TranspositionTable};

/// A raw pointer that the models move between loom threads; what it points to is owned by the model's
/// main thread and outlives every spawned thread.
struct SendPtr<T>(*mut T);
impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SendPtr<T> {}
// SAFETY: [I6] in these models the pointee is kept alive by the main thread until all threads joined.
unsafe impl<T> Send for SendPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SendPtr<T> {}

#[test]
fn expansion_publication() {
    loom::model(|| {
        let node = Arc::new(Node::<u8>::new(NodeKind::Decision, 0, 0));
        // Two candidate children blocks, one per would-be expander.
        let blocks: Vec<SendPtr<Edge<u8>>> = (0..2)
            .map(|w| {
                let block: Box<[Edge<u8>]> = (0..3).map(|i| Edge::new(10 * w + i, 1.0, i as f32)).collect();
                SendPtr(Box::into_raw(block) as *mut Edge<u8>)
            })
            .collect();
        let expanders: Vec<_> = (0..2)
            .map(|w| {
                let node = node.clone();
                let block = blocks[w];
                thread::spawn(move || {
                    if node.try_claim_expansion() {
                        // Expander 1's block is a pruned candidate set, expander 0's is not.
                        // SAFETY: [I1] we hold the claim; [I2] the block's 3 edges are initialised; [I6]
                        // the main thread keeps the block alive until after the join.
                        unsafe { node.publish_children_release(block.0, 3, w == 1, Some(7 + w as u64)) };
                        true
                    } else {
                        false
                    }
                })
            })
            .collect();
        let reader = {
            let node = node.clone();
            thread::spawn(move || {
                if let Some(children) = node.children_acquire() {
                    assert_eq!(children.len(), 3, "reader saw a half-built block");
                    let first = children[0].step;
                    assert_eq!(node.pruned_relaxed(), first == 10, "reader saw another block's pruned flag");
                    let count = Some(7 + u64::from(first / 10));
                    assert_eq!(node.expanded_at_relaxed(), count, "reader saw another block's count at publication");
                    for (i, e) in children.iter().enumerate() {
                        assert_eq!(e.step, first + i as u8);
                        assert_eq!(e.visits_relaxed(), 0);
                    }
                }
            })
        };
        let won: Vec<bool> = expanders.into_iter().map(|h| h.join().unwrap()).collect();
        reader.join().unwrap();
        assert_eq!(won.iter().filter(|&&w| w).count(), 1, "exactly one worker expands");
        assert_eq!(node.children_acquire().map(|c| c.len()), Some(3));
        assert_eq!(node.pruned_relaxed(), won[1]);
        for b in blocks {
            // SAFETY: the block was made by Box::into_raw above with length 3 and all threads joined.
            drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(b.0, 3)) });
        }
    });
}

#[test]
fn expansion_claim_given_back() {
    loom::model(|| {
        let node = Arc::new(Node::<u8>::new(NodeKind::Decision, 0, 0));
        let block: Box<[Edge<u8>]> = (0..3).map(|i| Edge::new(i, 1.0, 0.0)).collect();
        let block = SendPtr(Box::into_raw(block) as *mut Edge<u8>);
        // A worker whose arena is full: it claims the node, cannot build the block and gives the claim
        // back.
        let short = {
            let node = node.clone();
            thread::spawn(move || {
                if node.try_claim_expansion() {
                    node.abandon_expansion();
                }
            })
        };
        // A worker with memory, reaching the node on two playouts.
        let roomy = {
            let node = node.clone();
            thread::spawn(move || {
                for _ in 0..2 {
                    if node.try_claim_expansion() {
                        // SAFETY: [I1] we hold the claim; [I2] the block's 3 edges are initialised; [I6]
                        // the main thread keeps the block alive until after the join.
                        unsafe { node.publish_children_release(block.0, 3, false, None) };
                        return true;
                    }
                }
                false
            })
        };
        let reader = {
            let node = node.clone();
            thread::spawn(move || {
                if let Some(children) = node.children_acquire() {
                    assert_eq!(children.len(), 3, "reader saw a half-built block");
                }
            })
        };
        short.join().unwrap();
        let published = roomy.join().unwrap();
        reader.join().unwrap();
        // Once the workers have joined no claim is held: the node is expanded, or it is a leaf that the
        // next playout can claim.
        assert!(!node.expansion_claimed_relaxed(), "a claim was kept: the node is left EXPANDING");
        if published {
            assert_eq!(node.children_acquire().map(|c| c.len()), Some(3));
            assert!(!node.try_claim_expansion(), "an expanded node was claimed again");
        } else {
            assert!(node.children_acquire().is_none());
            assert!(node.try_claim_expansion(), "a node given back cannot be claimed");
        }
        // SAFETY: the block was made by Box::into_raw above with length 3 and all threads joined.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(block.0, 3)) });
    });
}

#[test]
fn concurrent_backups_are_exact() {
    backups_from(0);
}

/// The same two backups on a node and an edge whose counts start at `u32::MAX`: the 64-bit counters
/// carry past 2^32 with no lost update.
#[test]
fn concurrent_backups_past_2_to_the_32_are_exact() {
    backups_from(u64::from(u32::MAX));
}

/// Two workers each select `edge` and back up a playout through it and `node`, whose counts start at
/// `start` (with a value sum of 0).
fn backups_from(start: u64) {
    loom::model(move || {
        let node = Arc::new(Node::<u8>::new(NodeKind::Decision, 0, 0));
        let edge = Arc::new(Edge::new(0u8, 1.0, 0.0));
        node.preload_relaxed(start, 0.0);
        edge.preload_relaxed(start);
        let workers: Vec<_> = [1.5f64, 2.25]
            .into_iter()
            .map(|v| {
                let (node, edge) = (node.clone(), edge.clone());
                thread::spawn(move || {
                    edge.add_in_flight_relaxed(); // select: one virtual loss
                    edge.backup_relaxed(); // backup: visit +1, virtual loss -1
                    node.backup_relaxed(v);
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        assert_eq!(node.visits_relaxed(), start + 2);
        assert_eq!(node.value_sum_relaxed(), 3.75);
        assert_eq!(edge.visits_relaxed(), start + 2);
        assert_eq!(edge.in_flight_relaxed(), 0, "virtual loss leaked");
    });
}

/// The root's batched backups: one worker adds a batch of three playouts at once (its flush) while
/// another backs up one playout through the root as every other node is backed up; nothing is lost.
#[test]
fn batched_root_backups_are_exact() {
    loom::model(|| {
        let root = Arc::new(Node::<u8>::new(NodeKind::Decision, 0, 0));
        let batch = {
            let root = root.clone();
            thread::spawn(move || root.add_backups_relaxed(3, 1.5))
        };
        let single = {
            let root = root.clone();
            thread::spawn(move || root.backup_relaxed(0.25))
        };
        batch.join().unwrap();
        single.join().unwrap();
        assert_eq!((root.visits_relaxed(), root.value_sum_relaxed()), (4, 1.75));
    });
}

/// Edge statistics (`Statistics::Edge`, UCT1): two workers back up a playout each through one edge, value
/// then visit, and a third adds a batch of two (a flush of its batched first ply); no value and no visit
/// is lost, and the virtual-loss count ends at 0.
#[test]
fn edge_value_backups_are_exact() {
    loom::model(|| {
        let edge = Arc::new(Edge::new(0u8, 1.0, 0.0));
        let workers: Vec<_> = [1.5f64, 2.25]
            .into_iter()
            .map(|v| {
                let edge = edge.clone();
                thread::spawn(move || {
                    edge.add_in_flight_relaxed();
                    edge.add_value_relaxed(v);
                    edge.backup_relaxed();
                })
            })
            .collect();
        let batch = {
            let edge = edge.clone();
            thread::spawn(move || edge.add_backups_relaxed(2, 1.0))
        };
        for w in workers {
            w.join().unwrap();
        }
        batch.join().unwrap();
        assert_eq!(edge.visits_relaxed(), 4);
        assert_eq!(edge.value_sum_relaxed(), 4.75);
        assert_eq!(edge.in_flight_relaxed(), 0, "virtual loss leaked");
    });
}

/// A worker selects `edge` and backs up through it, another adds a batch of two backups (a flush of
/// its root statistics, which never counted them as virtual loss), while a third reads the
/// virtual-loss count (`selections - visits`): it is never negative (it would wrap to about 4 × 10^9)
/// and ends at 0; between the batch's two additions it counts the batch too.
#[test]
fn virtual_loss_is_never_negative() {
    loom::model(|| {
        let edge = Arc::new(Edge::new(0u8, 1.0, 0.0));
        let workers: Vec<_> = (0..2)
            .map(|i| {
                let edge = edge.clone();
                thread::spawn(move || {
                    if i == 0 {
                        edge.add_in_flight_relaxed();
                        edge.backup_relaxed();
                    } else {
                        edge.add_backups_relaxed(2, 0.0);
                    }
                })
            })
            .collect();
        let reader = {
            let edge = edge.clone();
            thread::spawn(move || {
                for _ in 0..2 {
                    let n = edge.in_flight_relaxed();
                    // At most the one playout in progress and, for a moment, the batch being added.
                    assert!(n <= 3, "virtual loss {n}: read a backup before its selection");
                }
            })
        };
        for w in workers {
            w.join().unwrap();
        }
        reader.join().unwrap();
        assert_eq!((edge.visits_relaxed(), edge.in_flight_relaxed()), (3, 0));
    });
}

#[test]
fn table_insert_and_probe() {
    loom::model(|| {
        // 16 slots; keys 5 and 5 + 16 share a home slot.
        let table = Arc::new(TranspositionTable::<u8>::with_slots(16));
        let key = 5u64;
        let other = 5u64 + 16;
        let nodes: Vec<SendPtr<Node<u8>>> = [key, key, other]
            .iter()
            .map(|&k| SendPtr(Box::into_raw(Box::new(Node::new(NodeKind::Decision, 0, k)))))
            .collect();
        let inserters: Vec<_> = (0..2)
            .map(|i| {
                let table = table.clone();
                let candidate = nodes[i];
                thread::spawn(move || {
                    // SAFETY: [I6] the node is fully built and outlives the model's threads.
                    let used = match unsafe { table.get_or_insert(key, candidate.0) } {
                        Lookup::Hit(n) => n as *const Node<u8> as usize,
                        Lookup::Inserted => candidate.0 as usize,
                    };
                    (candidate.0 as usize, used)
                })
            })
            .collect();
        let prober = {
            let table = table.clone();
            let colliding = nodes[2];
            thread::spawn(move || {
                // SAFETY: [I6] as above.
                let _ = unsafe { table.get_or_insert(other, colliding.0) };
                if let Some(n) = table.probe(key) {
                    assert_eq!(n.key(), key, "probe returned another position's node");
                }
                if let Some(n) = table.probe(other) {
                    assert_eq!(n.key(), other);
                }
            })
        };
        let used: Vec<(usize, usize)> = inserters.into_iter().map(|h| h.join().unwrap()).collect();
        prober.join().unwrap();
        // The table ends with one node for the key, and it is one of the two candidates.
        let stored = table.probe(key).expect("key stored") as *const Node<u8> as usize;
        assert!(stored == nodes[0].0 as usize || stored == nodes[1].0 as usize);
        // A worker that found the slot claimed but not yet published uses its own node (it never waits);
        // otherwise both use the stored node.
        for (own, u) in used {
            assert!(u == stored || u == own, "an insert returned a node that is neither stored nor its own");
        }
        assert_eq!(table.probe(other).map(|n| n.key()), Some(other));
        for n in nodes {
            // SAFETY: made by Box::into_raw above; all threads joined.
            drop(unsafe { Box::from_raw(n.0) });
        }
    });
}

/// [I7], [I13]: probes read the occupancy bitmap first, so an insert must set its bit before anything
/// that publishes the node (here the edge's link): a worker that reaches the node through the link then
/// finds it in the table too.
#[test]
fn exact_table_finds_what_a_linked_insert_stored() {
    loom::model(|| {
        let table = Arc::new(TranspositionTable::<u8>::with_slots(16));
        let key = 5u64;
        let node = SendPtr(Box::into_raw(Box::new(Node::new(NodeKind::Decision, 0, key))));
        let edge = Arc::new(Edge::new(0u8, 1.0, 0.0));
        let writer = {
            let (table, edge) = (table.clone(), edge.clone());
            thread::spawn(move || {
                let node = node;
                // SAFETY: [I6] the node is fully built and outlives the model's threads.
                let _ = unsafe { table.get_or_insert(key, node.0) };
                // SAFETY: [I3] as above.
                let _ = unsafe { edge.link_child_release(node.0) };
            })
        };
        if let Some(linked) = edge.child_acquire() {
            let found = table.probe(key).map(|n| n as *const Node<u8> as usize);
            assert_eq!(found, Some(linked as *const Node<u8> as usize), "a linked insert is missing from the table");
        }
        writer.join().unwrap();
        assert!(table.probe(key).is_some());
        // SAFETY: made by Box::into_raw above; all threads joined.
        drop(unsafe { Box::from_raw(node.0) });
    });
}

/// [I7]: a slot is claimed by the one `fetch_or` that sets its occupancy bit, so two inserters of
/// different keys that share a home slot take two slots, and after both both keys are found, each with
/// its own node; a probe in between never returns another key's node.
#[test]
fn table_claims_are_exclusive() {
    loom::model(|| {
        let table = Arc::new(TranspositionTable::<u8>::with_slots(16));
        let keys = [7u64, 7 + 16];
        let nodes: Vec<SendPtr<Node<u8>>> =
            keys.iter().map(|&k| SendPtr(Box::into_raw(Box::new(Node::new(NodeKind::Decision, 0, k))))).collect();
        let inserters: Vec<_> = (0..2)
            .map(|i| {
                let table = table.clone();
                let (key, other, node) = (keys[i], keys[1 - i], nodes[i]);
                thread::spawn(move || {
                    // SAFETY: [I6] the node is fully built and outlives the model's threads.
                    let lookup = unsafe { table.get_or_insert(key, node.0) };
                    assert!(matches!(lookup, Lookup::Inserted), "a key no one else inserts was found");
                    if let Some(n) = table.probe(other) {
                        assert_eq!(n.key(), other, "probe returned another position's node");
                    }
                })
            })
            .collect();
        for h in inserters {
            h.join().unwrap();
        }
        for (k, n) in keys.iter().zip(&nodes) {
            let found = table.probe(*k).map(|f| f as *const Node<u8> as usize);
            assert_eq!(found, Some(n.0 as usize), "key {k} lost");
        }
        assert_eq!(table.filled(), 2);
        for n in nodes {
            // SAFETY: made by Box::into_raw above; all threads joined.
            drop(unsafe { Box::from_raw(n.0) });
        }
    });
}
