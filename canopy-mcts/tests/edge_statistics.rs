//! `Statistics::Edge` (UCT1: each move's mean is its edge's own): the same search as `Statistics::Node`
//! wherever the tree stays a tree, exact accounting with several workers and in kept trees, and the
//! tactics the node statistics find.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::g2048::{G2048Policy, G2048};
use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, Rule};
use canopy_mcts::games::synthetic::{Synthetic, SyntheticPolicy};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::search::{Event, Limits, Search, SearchParams, SearchReport, Session, Statistics};

mod common;
use common::{assert_exact_accounting_on_three_games, timeless};

fn one_worker(playouts: u64, statistics: Statistics) -> SearchParams {
    SearchParams {
        playouts: Some(playouts),
        threads: 1,
        pin_threads: false,
        transposition_table: false,
        statistics,
        ..SearchParams::default()
    }
}

/// Without a transposition table every node has one parent, so a node's playouts are its edge's: the
/// two settings make the same choices and report the same means, bit for bit (the edge adds the same
/// returns in the same order as the node), in games with and without chance nodes, value bounds,
/// rewards and MCTS-Solver. Without MCTS-Solver (2048 here) the node count and the memory differ: with
/// edge statistics a leaf gets its node when it is expanded, not when it is first reached, so the edge
/// search creates fewer nodes.
#[test]
fn edge_and_node_statistics_search_a_tree_alike() {
    fn same<A: Clone + std::fmt::Debug>(run: impl Fn(SearchParams) -> SearchReport<A>, playouts: u64, label: &str) {
        let mut node = run(one_worker(playouts, Statistics::Node));
        let mut edge = run(one_worker(playouts, Statistics::Edge));
        // (MCTS-Solver may prove the root and end the search early.)
        assert!(node.playouts > playouts / 2, "{label}: {} playouts", node.playouts);
        assert!(node.actions.iter().filter(|a| a.mean.is_some()).count() > 1, "{label}: too few visited moves");
        if label == "2048" {
            let (e, n) = (edge.nodes, node.nodes);
            assert!(2 * e < n, "{label}: {e} nodes with edge statistics, {n} with node");
            assert!(edge.memory_bytes <= node.memory_bytes, "{label}");
            (node.nodes, edge.nodes, node.memory_bytes, edge.memory_bytes) = (0, 0, 0, 0);
        }
        assert_eq!(timeless(&node), timeless(&edge), "{label}");
    }
    same(|p| Search::new(&TicTacToe, p).run(&TicTacToeState::parse("x../.o./...").unwrap()), 20_000, "tic-tac-toe");
    let gomoku = Gomoku::new(9, Rule::Freestyle);
    let state = gomoku.from_moves("4,4 5,5 4,5").unwrap();
    same(|p| Search::with_policy(&gomoku, &GomokuPolicy::default(), p).run(&state), 20_000, "gomoku 9x9");
    let root = canopy_mcts::games::fixtures::g2048()[1].state;
    same(|p| Search::with_policy(&G2048, &G2048Policy::default(), p).run(&root), 20_000, "2048");
    let synthetic = Synthetic::new(6, 10).unwrap();
    same(|p| Search::with_policy(&synthetic, &SyntheticPolicy, p).run(&synthetic.start()), 50_000, "synthetic");
}

/// With several workers (and the first plies batched or not) every playout is counted once on each edge
/// of its path, no virtual loss is left, no node has more visits out than in, and the root's value sum
/// is what the playouts returned; also with the transposition table, where nodes have several parents.
#[test]
fn edge_statistics_account_for_every_playout_with_threads() {
    for (threads, batch_plies) in [(1, 1), (2, 0), (2, 1), (2, 2), (3, 1)] {
        let params = SearchParams {
            playouts: Some(20_003),
            threads,
            batch_plies,
            audit: true,
            pin_threads: false,
            solver: false,
            statistics: Statistics::Edge,
            ..SearchParams::default()
        };
        let label = format!("{threads} threads, batch_plies {batch_plies}");
        let r = assert_exact_accounting_on_three_games(&params, 20_003, &label);
        for a in &r.actions {
            let mean = a.mean.expect("every root move visited");
            assert!((0.0..=1.0).contains(&mean), "tic-tac-toe, {label}: {} has mean {mean}", a.name);
        }
    }
}

/// A kept tree searched by one worker (which counts each node's visits and reads its edges' sum from
/// that count), then by two (which do not count the nodes below the root), then by one again: the
/// nodes whose count two workers left behind are no longer read as the sum (the audit checks every
/// node that still records it). A move keeps the subtree's edge means, and changing the statistics
/// starts a fresh tree.
#[test]
fn a_kept_tree_keeps_edge_statistics_across_thread_counts_and_moves() {
    let one = SearchParams {
        playouts: Some(10_000),
        threads: 1,
        audit: true,
        pin_threads: false,
        statistics: Statistics::Edge,
        ..SearchParams::default()
    };
    let check = |r: &SearchReport<_>, label: &str| {
        let audit = r.audit.as_ref().expect("audit requested");
        assert_eq!((audit.miscounted_nodes, audit.overcounted_nodes, audit.in_flight), (0, 0, 0), "{label}: {audit:?}");
        assert!(audit.counted_nodes > 0, "{label}: no node was checked: {audit:?}");
    };
    let gomoku = Gomoku::new(9, Rule::Freestyle);
    let mut session = Session::with_policy(gomoku, GomokuPolicy::default(), gomoku.new_game(), one.clone());
    check(&session.search(Limits::playouts(10_000)), "one worker");
    session.set_params(SearchParams { threads: 2, ..one.clone() });
    let r = session.search(Limits::playouts(10_000));
    assert_eq!(r.audit.as_ref().unwrap().overcounted_nodes, 0, "two workers");
    session.set_params(one.clone());
    check(&session.search(Limits::playouts(10_000)), "one worker after two");

    // The move's subtree keeps its edges' statistics: the new root's moves report the means they had
    // as the grandchildren of the old root.
    let before = session.search(Limits::playouts(1));
    let best = before.best.expect("a move");
    let played = before.actions.iter().find(|a| a.action == best).unwrap();
    session.advance(Event::Action(best)).unwrap();
    // The new root starts from the statistics of the edge that led to it (its own node holds no value).
    assert_eq!(session.root_visits(), played.visits, "the subtree was not kept");
    let after = session.search(Limits::playouts(0));
    let (mean, value) = (played.mean.unwrap(), after.root_value.unwrap());
    assert!(
        (value - (1.0 - mean)).abs() < 1e-12,
        "the new root's value {value} for the player to move, not 1 - {mean}"
    );
    assert!(after.actions.iter().any(|a| a.mean.is_some()), "the kept edges lost their means");
    for a in &after.actions {
        if let Some(mean) = a.mean {
            assert!((0.0..=1.0).contains(&mean), "{}: {mean}", a.name);
            assert!(a.visits > 0);
        }
    }
    check(&session.search(Limits::playouts(5_000)), "one worker after a move");

    // A change of the statistics drops the tree, whose means are where the old setting kept them.
    session.set_params(SearchParams { statistics: Statistics::Node, ..one });
    assert_eq!(session.root_visits(), 0);
}

/// The edge statistics find what the node statistics find: a win in one at tic-tac-toe and the block
/// of an open four at Gomoku, with one worker and with two.
#[test]
fn edge_statistics_find_the_tactics() {
    for threads in [1, 2] {
        let params = SearchParams {
            playouts: Some(20_000),
            threads,
            pin_threads: false,
            statistics: Statistics::Edge,
            ..SearchParams::default()
        };
        // x to move wins on the diagonal at cell 8, which o needs for its column too.
        let state = TicTacToeState::parse("x.o/oxo/x..").unwrap();
        let r = Search::new(&TicTacToe, params.clone()).run(&state);
        assert_eq!(r.best_name.as_deref(), Some("8"), "tic-tac-toe, {threads} threads: {:?}", r.actions);

        // Black's four from the edge (0,4)..(3,4): White must block at (4,4).
        let gomoku = Gomoku::new(9, Rule::Freestyle);
        let state = gomoku.from_moves("0,4 1,6 1,4 2,6 2,4 7,7 3,4").unwrap();
        let threat = gomoku.winning_moves(&state, 0);
        assert_eq!(threat.len(), 1, "the position has one winning cell for Black");
        let r = Search::with_policy(&gomoku, &GomokuPolicy::default(), params).run(&state);
        assert_eq!(r.best, Some(threat[0]), "gomoku, {threads} threads: {:?}", r.best_name);
    }
}
