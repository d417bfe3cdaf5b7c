//! Open-loop chance nodes: when a game does not list its chance outcomes the engine samples one per
//! traversal. Snake with `max_listed_outcomes = 0` exercises it, with its own policy (whose candidates
//! differ between the positions a sampled node stands for).

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::snake::{Snake, SnakePolicy, SnakeState};
use canopy_mcts::search::{Search, SearchParams};
use canopy_mcts::Game;

fn game() -> Snake {
    Snake { max_listed_outcomes: 0, ..Snake::new(6, 6) }
}

#[test]
fn open_loop_search_keeps_exact_accounting() {
    let g = game();
    let state: SnakeState = "6x6 body=2,2 2,3 2,4 food=4,2".parse().unwrap();
    for threads in [1, 2, 4] {
        let params = SearchParams {
            playouts: Some(20_000),
            threads,
            audit: true,
            pin_threads: false,
            ..SearchParams::default()
        };
        let r = Search::with_policy(&g, &SnakePolicy::for_game(&g), params).run(&state);
        let audit = r.audit.unwrap();
        assert_eq!(r.playouts, 20_000);
        assert_eq!(audit.root_visits, 20_000, "threads {threads}");
        assert_eq!(audit.in_flight, 0);
        assert_eq!((audit.overcounted_nodes, audit.miscounted_nodes), (0, 0));
        let mut legal = Vec::new();
        g.legal_actions(&state, &mut legal);
        assert!(legal.contains(&r.best.unwrap()));
        assert!(r.pv.iter().any(|s| s == "(sampled)"), "the PV crosses a sampled spawn: {:?}", r.pv);
    }
}

#[test]
fn open_loop_with_one_thread_is_reproducible() {
    let g = game();
    let state: SnakeState = "6x6 body=2,2 2,3 2,4 food=4,2".parse().unwrap();
    let params = SearchParams { playouts: Some(5_000), threads: 1, seed: 5, ..SearchParams::default() };
    let a = Search::with_policy(&g, &SnakePolicy::for_game(&g), params.clone()).run(&state);
    let b = Search::with_policy(&g, &SnakePolicy::for_game(&g), params).run(&state);
    let visits = |r: &canopy_mcts::search::SearchReport<_>| r.actions.iter().map(|a| a.visits).collect::<Vec<_>>();
    assert_eq!(visits(&a), visits(&b));
    assert_eq!(a.nodes, b.nodes);
}
