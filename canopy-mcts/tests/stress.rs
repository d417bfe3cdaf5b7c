//! Stress tests of the shared tree in normal builds: many short searches at 2, 4 and 8 threads (more
//! threads than cores on a small machine, so workers are preempted mid-playout) on 2048 and tic-tac-toe,
//! with varied parameters. After every search the tree audit must show
//!
//! - visit conservation: the root's visits, and the sum of its edges' visits, equal the playouts run (when
//!   MCTS-Solver proves the root, the search ends early and the edges may hold fewer);
//! - value conservation: the value backed up into the root equals the sum of the returns the workers
//!   evaluated (within float tolerance: the same numbers added in another order);
//! - no leaked virtual loss: every edge's in-flight count is 0;
//! - no node whose outgoing edge visits exceed its own visits;
//! - no expansion claim left behind: no node is `EXPANDING` (claims are published or given back).
//!
//! The searches are short (a few thousand playouts) so that the whole file runs in seconds. The tests were
//! checked to fail on a deliberate bug (not in the code): `Edge::backup_relaxed` counting the visit with a
//! load and a store instead of `fetch_add` loses updates, and both game tests report it at 2 threads.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::fixtures;
use canopy_mcts::games::g2048::{G2048Policy, G2048State, G2048};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::search::{ChanceSelection, Search, SearchParams, SearchReport};
use canopy_mcts::Game;

const THREADS: [usize; 3] = [2, 4, 8];

/// Checks the conservation laws of one finished search.
fn check<A>(r: &SearchReport<A>, playouts: u64, label: &str) {
    let audit = r.audit.as_ref().expect("audit requested");
    // MCTS-Solver ends a search once the root is proven; playouts that reach the proven root back up its
    // exact value without leaving it through an edge.
    let proven = r.root_proof.is_some();
    let playouts = if proven {
        assert!(r.playouts <= playouts, "{label}: more playouts than asked");
        r.playouts
    } else {
        playouts
    };
    assert_eq!(r.playouts, playouts, "{label}: playouts");
    assert_eq!(r.root_visits, playouts, "{label}: report root visits");
    assert_eq!(audit.root_visits, playouts, "{label}: audit root visits");
    let edge_visits: u64 = r.actions.iter().map(|a| a.visits).sum();
    if proven {
        assert!(edge_visits <= playouts, "{label}: root edge visits");
    } else {
        assert_eq!(edge_visits, playouts, "{label}: root edge visits");
    }
    assert_eq!(audit.in_flight, 0, "{label}: leaked virtual loss");
    assert_eq!(audit.overcounted_nodes, 0, "{label}: edge visits above node visits");
    assert_eq!(audit.miscounted_nodes, 0, "{label}: edge visits apart from the count at expansion");
    assert_eq!(audit.claimed_nodes, 0, "{label}: nodes left EXPANDING");
    let tolerance = 1e-9 * audit.evaluated_value_sum.abs().max(1.0);
    assert!(
        (audit.root_value_sum - audit.evaluated_value_sum).abs() <= tolerance,
        "{label}: backed-up value {} != evaluated {}",
        audit.root_value_sum,
        audit.evaluated_value_sum
    );
}

/// Parameter variants cycled through by the searches: virtual loss, expansion threshold, chance
/// selection, table on/off, pinning and, for one variant, a memory budget small enough to be reached.
fn variant(i: usize, threads: usize, playouts: u64) -> SearchParams {
    SearchParams {
        playouts: Some(playouts),
        threads,
        seed: 1000 + i as u64,
        audit: true,
        virtual_loss: [1, 0, 3][i % 3],
        expand_threshold: [1, 2, 8, 1][i % 4],
        chance: if i % 2 == 0 { ChanceSelection::Stratified } else { ChanceSelection::Sample },
        transposition_table: i % 5 != 4,
        pin_threads: i % 2 == 1,
        memory_bytes: if i % 6 == 5 { 256 << 10 } else { 256 << 20 },
        solver: i % 2 == 0,
        ..SearchParams::default()
    }
}

#[test]
fn g2048_conserves_visits_values_and_virtual_loss() {
    let mut limited = 0;
    for (b, fixture) in fixtures::g2048().into_iter().enumerate() {
        let root = fixture.state;
        for threads in THREADS {
            for i in 0..16 {
                let playouts = 1_500 + 97 * i as u64;
                let r = Search::with_policy(&G2048, &G2048Policy::default(), variant(i, threads, playouts)).run(&root);
                check(&r, playouts, &format!("2048 board {b}, {threads} threads, variant {i}"));
                limited += r.memory_limited as usize;
            }
        }
    }
    assert!(limited > 0, "no search reached its memory budget: the memory-limited path went untested");
}

#[test]
fn tictactoe_conserves_visits_values_and_virtual_loss() {
    let positions = [".../.../...", "x../.o./...", "xo./.x./..o"];
    for (p, text) in positions.iter().enumerate() {
        let root = TicTacToeState::parse(text).unwrap();
        for threads in THREADS {
            for i in 0..24 {
                let playouts = 3_000 + 131 * i as u64;
                // expand_threshold 0 (expand on first arrival) is cheap here: the whole game tree is small.
                let params = SearchParams { expand_threshold: [0, 1, 2, 8][i % 4], ..variant(i, threads, playouts) };
                let r = Search::new(&TicTacToe, params).run(&root);
                check(&r, playouts, &format!("tic-tac-toe {text}, {threads} threads, variant {i}"));
                // Two-player values are win rates: the root's mean is one.
                let mean = r.root_value.unwrap();
                assert!((0.0..=1.0).contains(&mean), "position {p}: root mean {mean}");
            }
        }
    }
}

#[test]
fn tiny_searches_with_more_threads_than_playouts() {
    // Fewer playouts than workers: most workers find the playout budget spent at once.
    let root = TicTacToeState::default();
    for threads in THREADS {
        for playouts in [1, 2, 3, 7] {
            let params = SearchParams { playouts: Some(playouts), threads, audit: true, ..SearchParams::default() };
            let r = Search::new(&TicTacToe, params).run(&root);
            check(&r, playouts, &format!("{threads} threads, {playouts} playouts"));
        }
    }
    let root = G2048State::from_board("2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0".parse().unwrap());
    assert!(matches!(G2048.to_move(&root), canopy_mcts::Turn::Player(0)));
    for threads in THREADS {
        let params = SearchParams { playouts: Some(5), threads, audit: true, ..SearchParams::default() };
        let report = Search::with_policy(&G2048, &G2048Policy::default(), params).run(&root);
        check(&report, 5, &format!("2048, {threads} threads"));
    }
}
