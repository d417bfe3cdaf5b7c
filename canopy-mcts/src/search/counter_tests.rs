//! Counters past `u32::MAX`: searches whose root and root edges start where some four billion playouts
//! would have left them, so that a few thousand playouts carry the counts across 2^32 (running four
//! billion playouts in a test is out of the question).

use super::*;
use crate::games::chain::{Chain, ChainPolicy};
use crate::games::tictactoe::{TicTacToe, TicTacToeState};
use crate::search::node::Edge;

/// Where a counter starts: 11 playouts carry it past `u32::MAX`.
const START: u64 = u32::MAX as u64 - 10;

/// The counters a test tree starts with.
#[derive(Clone, Copy)]
struct StartCounts {
    root_visits: u64,
    /// Sum of the values of the `root_visits` playouts, from the root's point of view.
    root_value_sum: f64,
    /// Visits of every root edge.
    edge_visits: u64,
    /// Sum of the returns-to-go of each root edge's `edge_visits` playouts, for its mover and without
    /// its reward (read by [`Statistics::Edge`] only).
    edge_value_sum: f64,
}

impl<G: Game, P: Policy<G>> Search<'_, G, P> {
    /// Test only: [`Search::run`] on a tree whose expanded root and root edges start with `counts`
    /// instead of 0 (set before the workers are spawned).
    fn run_with_start_counts(&self, root: &G::State, counts: StartCounts) -> SearchReport<G::Action> {
        self.run_from(root, None, None, |node| {
            node.preload_relaxed(counts.root_visits, counts.root_value_sum);
            for e in node.children_acquire().expect("the root is expanded before the workers start") {
                e.preload_relaxed(counts.edge_visits);
                e.preload_value_relaxed(counts.edge_value_sum);
            }
        })
    }
}

fn params(playouts: u64, threads: usize, statistics: Statistics) -> SearchParams {
    SearchParams {
        playouts: Some(playouts),
        threads,
        statistics,
        audit: true,
        pin_threads: false,
        ..SearchParams::default()
    }
}

const BOTH: [Statistics; 2] = [Statistics::Node, Statistics::Edge];

#[test]
fn root_and_edge_counts_of_a_chain_pass_2_to_the_32_exactly() {
    // One action per step: every playout goes through the root's one edge, and every playout is worth
    // exactly `length` (a reward of 1 per step), so counts and means are exact.
    let chain = Chain { length: 20, width: 1 };
    let length = f64::from(chain.length);
    // The root edge's own reward of 1 is not in its value sum.
    let counts = StartCounts {
        root_visits: START,
        root_value_sum: START as f64 * length,
        edge_visits: START,
        edge_value_sum: START as f64 * (length - 1.0),
    };
    let playouts = 5_000;
    for (threads, statistics) in [1, 2].into_iter().flat_map(|t| BOTH.map(|s| (t, s))) {
        let p = params(playouts, threads, statistics);
        let r = Search::with_policy(&chain, &ChainPolicy, p).run_with_start_counts(&0, counts);
        let audit = r.audit.as_ref().expect("audit requested");
        assert_eq!(r.playouts, playouts, "threads {threads}, {statistics:?}");
        assert_eq!(r.root_visits, START + playouts, "threads {threads}, {statistics:?}");
        assert_eq!(audit.root_visits, START + playouts, "threads {threads}, {statistics:?}");
        assert!(r.root_visits > u64::from(u32::MAX));
        assert_eq!(r.actions.len(), 1);
        assert_eq!(r.actions[0].visits, START + playouts, "threads {threads}, {statistics:?}");
        // The root's mean divides a value sum of some 8.6e10 by the 64-bit count: a wrapped count
        // (4989) would make it about 1.7e7.
        assert_eq!(r.root_value, Some(length), "threads {threads}, {statistics:?}");
        assert_eq!(r.actions[0].mean, Some(length), "threads {threads}, {statistics:?}");
        // Sums of whole numbers below 2^53 are exact in f64, in any order.
        assert_eq!(audit.evaluated_value_sum, playouts as f64 * length);
        assert_eq!(audit.root_value_sum, (START + playouts) as f64 * length);
        assert_eq!(
            (audit.in_flight, audit.overcounted_nodes, audit.claimed_nodes, audit.miscounted_nodes),
            (0, 0, 0, 0),
            "threads {threads}, {statistics:?}"
        );
    }
}

#[test]
fn root_and_edge_counts_of_tic_tac_toe_pass_2_to_the_32() {
    // The empty board's nine root edges start at `START` visits each, the root at their sum with the
    // value of as many draws. 6 000 playouts spread over nine edges give at least one edge 667 more
    // visits, carrying it past 2^32 whatever selection does.
    let root = TicTacToeState::default();
    let edges = 9;
    let counts = StartCounts {
        root_visits: edges * START,
        root_value_sum: 0.5 * (edges * START) as f64,
        edge_visits: START,
        edge_value_sum: 0.5 * START as f64,
    };
    let playouts = 6_000;
    for statistics in BOTH {
        // The solver is off so that every one of the playouts runs (a proof of the root ends a search).
        let p = SearchParams { solver: false, ..params(playouts, 2, statistics) };
        let r = Search::new(&TicTacToe, p).run_with_start_counts(&root, counts);
        tic_tac_toe_counts_pass_2_to_the_32(r, counts, playouts);
    }
}

/// The checks of [`root_and_edge_counts_of_tic_tac_toe_pass_2_to_the_32`] on the report `r` of a search
/// of `playouts` playouts.
fn tic_tac_toe_counts_pass_2_to_the_32(r: SearchReport<u8>, counts: StartCounts, playouts: u64) {
    let audit = r.audit.as_ref().expect("audit requested");
    assert_eq!(r.playouts, playouts);
    assert_eq!(r.root_visits, counts.root_visits + playouts);
    assert_eq!(audit.root_visits, counts.root_visits + playouts);
    assert_eq!(r.actions.len(), 9);
    let edge_total: u64 = r.actions.iter().map(|a| a.visits).sum();
    assert_eq!(edge_total, counts.root_visits + playouts, "every playout counted on one root edge");
    assert!(r.actions.iter().all(|a| a.visits >= START), "{:?}", r.actions);
    let most = r.actions.iter().map(|a| a.visits).max().unwrap();
    assert!(most > u64::from(u32::MAX), "most visited edge {most}");
    for a in &r.actions {
        // An edge's mean is its child's, a node the search created (it exists once the edge has a
        // playout of its own), or the edge's own.
        if a.visits > START {
            let mean = a.mean.unwrap_or_else(|| panic!("{} has {} visits and no mean", a.name, a.visits));
            assert!((0.0..=1.0).contains(&mean), "{}: mean {mean}", a.name);
        }
    }
    // Win, draw and loss are worth 1, 0.5 and 0: every partial sum is a multiple of 0.5 below 2^53, so
    // the atomic additions are exact in any order.
    assert_eq!(audit.root_value_sum, counts.root_value_sum + audit.evaluated_value_sum);
    let expected_mean = audit.root_value_sum / (counts.root_visits + playouts) as f64;
    assert_eq!(r.root_value, Some(expected_mean));
    assert!((0.0..=1.0).contains(&expected_mean), "root mean {expected_mean}");
    assert_eq!((audit.in_flight, audit.overcounted_nodes, audit.claimed_nodes, audit.miscounted_nodes), (0, 0, 0, 0));
}

#[test]
fn a_children_block_keeps_its_length_and_pruned_flag_apart() {
    // The flag is the length word's top bit: it must not change the length, nor the length the flag.
    for (len, pruned) in [(3, false), (3, true), (1, true), (300, false), (300, true)] {
        let node = node::Node::<u8>::new(node::NodeKind::Decision, 0, 0);
        let mut block: Vec<Edge<u8>> = (0..len).map(|i| Edge::new(i as u8, 1.0, 0.0)).collect();
        assert!(node.try_claim_expansion());
        // SAFETY: [I1] the claim is ours; [I2] all `len` edges are initialised; [I6] `block` outlives
        // `node`'s use below.
        unsafe { node.publish_children_release(block.as_mut_ptr(), len, pruned, Some(len as u64)) };
        assert_eq!(node.children_acquire().map(<[_]>::len), Some(len));
        assert_eq!(node.pruned_relaxed(), pruned);
        assert_eq!(node.expanded_at_relaxed(), Some(len as u64));
    }
}

#[test]
fn the_count_at_publication_is_kept_or_marked_uncounted() {
    for (at, kept) in [(Some(0), Some(0)), (Some(5), Some(5)), (None, None), (Some(u64::from(u32::MAX)), None)] {
        let node = node::Node::<u8>::new(node::NodeKind::Decision, 0, 0);
        node.preload_relaxed(u64::from(u32::MAX) + 9, 0.0);
        let mut block: Vec<Edge<u8>> = (0..2).map(|i| Edge::new(i as u8, 0.5, 0.0)).collect();
        assert!(node.try_claim_expansion());
        // SAFETY: [I1] the claim is ours; [I2] both edges are initialised; [I6] `block` outlives `node`'s
        // use below.
        unsafe { node.publish_children_release(block.as_mut_ptr(), 2, false, at) };
        assert_eq!(node.expanded_at_relaxed(), kept);
        // The edges' visits are the node's past the count (a 64-bit difference).
        assert_eq!(node.edge_visits_single_writer(), kept.map(|k| u64::from(u32::MAX) + 9 - k));
    }
}
