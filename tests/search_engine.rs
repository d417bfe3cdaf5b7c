//! Engine-level checks that do not depend on a particular game's strength: reproducibility, exact
//! playout accounting, deep trees and the memory budget.

use canopy_mcts::games::chain::Chain;
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::search::{Search, SearchParams, SearchReport};

fn timeless<A>(r: &SearchReport<A>) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    for k in ["elapsed_ms", "playouts_per_sec"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn one_thread_with_a_seed_is_reproducible() {
    let params =
        SearchParams { playouts: Some(30_000), threads: 1, seed: 42, solver: false, ..SearchParams::default() };
    let root = TicTacToeState::parse("x../.o./...").unwrap();
    let a = Search::new(&TicTacToe, params.clone()).run(&root);
    let b = Search::new(&TicTacToe, params.clone()).run(&root);
    assert_eq!(timeless(&a), timeless(&b));
    let c = Search::new(&TicTacToe, SearchParams { seed: 43, ..params }).run(&root);
    assert_eq!(c.playouts, 30_000);
}

#[test]
fn root_visits_equal_playouts_with_threads() {
    for threads in [2, 4] {
        let params = SearchParams {
            playouts: Some(100_000),
            threads,
            audit: true,
            pin_threads: false,
            // The solver would prove tic-tac-toe and end the search early.
            solver: false,
            ..SearchParams::default()
        };
        let r = Search::new(&TicTacToe, params).run(&TicTacToeState::default());
        let audit = r.audit.unwrap();
        assert_eq!(r.playouts, 100_000);
        assert_eq!(audit.root_visits, 100_000, "threads {threads}");
        assert_eq!(audit.in_flight, 0);
        assert_eq!(audit.overcounted_nodes, 0);
        let root_edges: u64 = r.actions.iter().map(|a| a.visits).sum();
        assert_eq!(root_edges, 100_000);
        assert!((audit.root_value_sum - audit.evaluated_value_sum).abs() < 1e-6 * audit.evaluated_value_sum.max(1.0));
    }
}

#[test]
fn terminal_root_reports_game_over() {
    let won = TicTacToeState::parse("xxx/oo./...").unwrap();
    let r = Search::new(&TicTacToe, SearchParams { threads: 1, ..SearchParams::default() }).run(&won);
    assert!(r.best.is_none());
    assert!(r.actions.is_empty());
    assert_eq!(r.playouts, 0);
}

#[test]
fn a_tree_100_000_deep_is_built_and_dropped() {
    // expand_threshold 0 expands every node on first arrival, so one playout walks the whole chain.
    let game = Chain { length: 120_000, width: 1 };
    let params =
        SearchParams { playouts: Some(3), threads: 1, expand_threshold: 0, audit: true, ..SearchParams::default() };
    let r = Search::new(&game, params).run(&0);
    assert!(r.max_depth >= 100_000, "depth {}", r.max_depth);
    assert!(r.audit.as_ref().unwrap().depth >= 100_000);
    assert_eq!(r.actions[0].mean, Some(120_000.0));
}

#[test]
fn memory_budget_is_respected_and_playouts_continue() {
    let budget = 8 << 20;
    let game = Chain { length: 10_000, width: 8 };
    let params = SearchParams {
        playouts: Some(200_000),
        threads: 2,
        memory_bytes: budget,
        transposition_table: false,
        pin_threads: false,
        audit: true,
        ..SearchParams::default()
    };
    let r = Search::new(&game, params).run(&0);
    assert!(r.memory_limited, "budget never reached: {} bytes", r.memory_bytes);
    assert!(r.memory_bytes <= budget, "{} > {budget}", r.memory_bytes);
    assert_eq!(r.playouts, 200_000);
    assert_eq!(r.audit.unwrap().root_visits, 200_000);
}
