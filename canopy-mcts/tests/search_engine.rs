//! Engine-level checks that do not depend on a particular game's strength: reproducibility, exact
//! playout accounting, deep trees and the memory budget.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::chain::{Chain, ChainPolicy};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::search::{Search, SearchParams, SearchReport, SolverStatus, DEFAULT_PLAYOUTS};
use canopy_mcts::{Coverage, Game, Turn};

mod common;
use common::{assert_exact_accounting_on_three_games, timeless};

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
#[should_panic(expected = "invalid search parameters: threads: 0 is not a whole number from 1 to 1024")]
fn a_search_refuses_parameters_out_of_range() {
    let _ = Search::new(&TicTacToe, SearchParams { threads: 0, ..SearchParams::default() });
}

#[test]
fn try_new_returns_the_parameters_error_instead_of_panicking() {
    let bad = SearchParams { playouts: Some(0), ..SearchParams::default() };
    let e = Search::try_new(&TicTacToe, bad).err().expect("a playout limit of 0 is refused");
    assert_eq!(e.to_string(), "playouts: 0 is not a whole number from 1 to 1000000000000");
    let good = SearchParams { playouts: Some(50), threads: 1, ..SearchParams::default() };
    let r = Search::try_new(&TicTacToe, good).expect("parameters in range").run(&TicTacToeState::default());
    assert_eq!(r.playouts, 50);
}

#[test]
fn root_visits_equal_playouts_with_threads() {
    // (1, true): one worker on the several-worker paths (`shared_paths`, a measuring aid) keeps the same
    // accounting.
    for (threads, shared_paths) in [(1, true), (2, false), (4, false)] {
        let params = SearchParams {
            playouts: Some(100_000),
            threads,
            shared_paths,
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
        assert_eq!((audit.overcounted_nodes, audit.miscounted_nodes), (0, 0));
        let root_edges: u64 = r.actions.iter().map(|a| a.visits).sum();
        assert_eq!(root_edges, 100_000);
        assert!((audit.root_value_sum - audit.evaluated_value_sum).abs() < 1e-6 * audit.evaluated_value_sum.max(1.0));
    }
}

/// `Search::with_root_moves` (UCI's searchmoves): the root's actions are the listed legal moves, once
/// each and in the listed order; the nodes below are expanded as usual; an empty list leaves the root
/// without actions.
#[test]
fn root_moves_restrict_only_the_root() {
    let root = TicTacToeState::parse("x../.o./...").unwrap();
    let params =
        SearchParams { playouts: Some(4_000), threads: 2, audit: true, pin_threads: false, ..SearchParams::default() };
    // Cell 0 is taken (illegal here) and 8 is listed twice.
    let r = Search::new(&TicTacToe, params.clone()).with_root_moves(vec![8, 0, 2, 8, 6], Coverage::Pruned).run(&root);
    let moves: Vec<u8> = r.actions.iter().map(|a| a.action).collect();
    assert_eq!(moves, [8, 2, 6]);
    assert!(moves.contains(&r.best.unwrap()));
    assert_eq!(r.actions.iter().map(|a| a.visits).sum::<u64>(), r.playouts);
    assert_eq!(r.audit.unwrap().in_flight, 0);
    // Below the root every legal move is searched: the principal variation goes on past the first move.
    assert!(r.actions.iter().any(|a| a.pv.len() >= 2), "{:?}", r.actions);
    let none = Search::new(&TicTacToe, params).with_root_moves(vec![0, 4], Coverage::Pruned).run(&root);
    assert!(none.best.is_none() && none.actions.is_empty());
    assert_eq!(none.playouts, 4_000);
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
    let r = Search::with_policy(&game, &ChainPolicy, params).run(&0);
    assert!(r.max_depth >= 100_000, "depth {}", r.max_depth);
    assert!(r.audit.as_ref().unwrap().depth >= 100_000);
    assert_eq!(r.actions[0].mean, Some(120_000.0));
}

/// `playouts` on two threads down a chain 10 000 deep with eight actions per step and no table (a tree
/// that outgrows any small budget), within `budget` bytes: the search reaches the budget, keeps within
/// it, and runs every playout (see [`check_memory_limited`]).
fn wide_chain_within(budget: usize, playouts: u64) -> SearchReport<u8> {
    let game = Chain { length: 10_000, width: 8 };
    let params = SearchParams {
        playouts: Some(playouts),
        threads: 2,
        memory_bytes: budget,
        transposition_table: false,
        pin_threads: false,
        audit: true,
        ..SearchParams::default()
    };
    let r = Search::with_policy(&game, &ChainPolicy, params).run(&0);
    assert!(r.memory_bytes <= budget, "{} > {budget}", r.memory_bytes);
    check_memory_limited(&r, playouts, &format!("wide chain, {budget} bytes"));
    r
}

#[test]
fn memory_budget_is_respected_and_playouts_continue() {
    wide_chain_within(8 << 20, 200_000);
}

#[test]
fn a_100_000_deep_tree_is_dropped_on_a_small_stack() {
    // The search runs on a thread with a 256 KiB stack: dropping a 100 000-deep tree recursively would
    // need megabytes of stack, so this passes only if the tree is freed without recursion (the arenas).
    // No transposition table and two actions per step: a real tree, not a shared chain.
    let handle = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            let game = Chain { length: 110_000, width: 2 };
            let params = SearchParams {
                playouts: Some(2),
                threads: 1,
                expand_threshold: 0,
                transposition_table: false,
                audit: true,
                ..SearchParams::default()
            };
            let r = Search::with_policy(&game, &ChainPolicy, params).run(&0);
            let audit = r.audit.unwrap();
            (r.max_depth, audit.depth, audit.nodes, r.playouts)
        })
        .unwrap();
    let (max_depth, depth, nodes, playouts) = handle.join().expect("the search overflowed its stack");
    assert!(max_depth >= 100_000 && depth >= 100_000, "depth {max_depth} / {depth}");
    assert!(nodes >= 100_000, "nodes {nodes}");
    assert_eq!(playouts, 2);
}

#[test]
fn a_64_mib_budget_is_respected_and_playouts_continue() {
    // Each playout adds at most one node, and about one in two expands a node (eight 40-byte edges),
    // so the budget is reached well before the millionth playout and the rest run without growing the
    // tree.
    let r = wide_chain_within(64 << 20, 1_000_000);
    // Far fewer nodes than playouts (each playout adds at most one): many playouts ran after the tree
    // stopped growing.
    assert!(r.nodes < r.playouts * 6 / 10, "{} nodes for {} playouts", r.nodes, r.playouts);
}

/// The checks of a search that ran into its memory budget: it says so, it ran every playout, and it left no
/// expansion claim and no virtual loss behind.
fn check_memory_limited<A>(r: &SearchReport<A>, playouts: u64, label: &str) {
    let audit = r.audit.as_ref().expect("audit requested");
    assert!(r.memory_limited, "{label}: the budget was reached but not reported ({} bytes)", r.memory_bytes);
    assert_eq!(r.playouts, playouts, "{label}");
    assert_eq!(r.root_visits, playouts, "{label}");
    assert_eq!(audit.root_visits, playouts, "{label}");
    assert_eq!(audit.claimed_nodes, 0, "{label}: nodes left EXPANDING");
    assert_eq!(audit.in_flight, 0, "{label}");
}

#[test]
fn a_failed_expansion_gives_its_claim_back_and_marks_the_search_memory_limited() {
    // 200 actions per step and the table on: the chain is a DAG of one node per step, each new node is
    // 48 bytes and each expansion an 8000-byte children block. With the smallest budgets the arena soon
    // has room for nodes but not for a block, so an expansion fails while node allocations still succeed.
    // Tic-tac-toe, with smaller blocks, runs into the same budgets.
    let chain = Chain { length: 500, width: 200 };
    for threads in [1, 2] {
        for budget in [64 << 10, 128 << 10] {
            let params = SearchParams {
                playouts: Some(5_000),
                threads,
                memory_bytes: budget,
                pin_threads: false,
                solver: false,
                audit: true,
                ..SearchParams::default()
            };
            let label = format!("{threads} threads, {budget} bytes");
            let r = Search::new(&chain, params.clone()).run(&0);
            check_memory_limited(&r, 5_000, &format!("chain, {label}"));
            let r = Search::new(&TicTacToe, params).run(&TicTacToeState::default());
            check_memory_limited(&r, 5_000, &format!("tic-tac-toe, {label}"));
        }
    }
}

#[test]
fn the_roots_children_count_against_the_budget() {
    // 250 actions per step: the root's children block alone is 10 000 bytes, a sixth of the budget.
    let budget = 64 << 10;
    let game = Chain { length: 1_000, width: 250 };
    for threads in [1, 2] {
        let params = SearchParams {
            playouts: Some(20_000),
            threads,
            memory_bytes: budget,
            transposition_table: false,
            pin_threads: false,
            ..SearchParams::default()
        };
        let r = Search::new(&game, params).run(&0);
        assert!(r.memory_limited, "budget never reached: {} bytes", r.memory_bytes);
        assert!(r.memory_bytes <= budget, "{threads} threads: {} > {budget}", r.memory_bytes);
        assert_eq!(r.playouts, 20_000);
    }
}

#[test]
fn a_time_limit_alone_is_the_limit() {
    // No playout limit by default: a search given only a time runs for that time (the default playout
    // count, reached in a few milliseconds on tic-tac-toe, applies only when no limit is given at all).
    let params =
        SearchParams { time_ms: Some(300), threads: 1, solver: false, pin_threads: false, ..SearchParams::default() };
    let r = Search::new(&TicTacToe, params).run(&TicTacToeState::default());
    assert!(r.elapsed_ms >= 250.0, "stopped after {:.1} ms and {} playouts", r.elapsed_ms, r.playouts);
    assert_eq!(r.root_visits, r.playouts);
    assert_eq!(SearchParams::default().playouts, None);
}

#[test]
fn no_limit_at_all_runs_the_default_playouts() {
    let params = SearchParams { threads: 2, solver: false, pin_threads: false, ..SearchParams::default() };
    let r = Search::new(&TicTacToe, params).run(&TicTacToeState::default());
    assert_eq!(r.playouts, DEFAULT_PLAYOUTS);
}

#[test]
fn a_budget_beyond_the_machines_memory_does_not_allocate_it() {
    // No limit but a stop flag, already set: the table would be sized from the budget alone, and 1000 TiB
    // of budget asked the allocator for an eighth of it and aborted the process.
    let stop = std::sync::atomic::AtomicBool::new(true);
    let params = SearchParams { memory_bytes: 1000 << 40, threads: 1, ..SearchParams::default() };
    let r = Search::new(&TicTacToe, params).run_with_stop(&TicTacToeState::default(), Some(&stop));
    let table = r.table.expect("tic-tac-toe has keys");
    if let Some(machine) = canopy_mcts::search::physical_memory_bytes() {
        assert!(table.slots * 16 <= machine / 8, "{} slots on a machine of {machine} bytes", table.slots);
    }
}

/// Three players pick 0 or 1 in turn, once each. A pick of 1 pays its picker 1 and costs the next
/// player 0.5, at the end: player `p` gets `picks[p] - 0.5 * picks[p - 1]`. Every player's best pick
/// is 1 whatever the others do, and a search that mixed up the players (player 2 read as player 0)
/// would have player 2 pick 0 to spare player 0 the cost.
struct ThreePicks;

impl Game for ThreePicks {
    /// The picks so far.
    type State = Vec<u8>;
    type Action = u8;
    type Outcome = canopy_mcts::NoOutcome;
    type Returns = [f64; 3];

    fn to_move(&self, s: &Vec<u8>) -> Turn {
        if s.len() == 3 {
            Turn::Terminal
        } else {
            Turn::Player(s.len())
        }
    }
    fn legal_actions(&self, s: &Vec<u8>, out: &mut Vec<u8>) {
        out.clear();
        if s.len() < 3 {
            out.extend([0, 1]);
        }
    }
    fn apply(&self, s: &mut Vec<u8>, pick: u8) -> f64 {
        s.push(pick);
        0.0
    }
    fn returns(&self, s: &Vec<u8>) -> [f64; 3] {
        std::array::from_fn(|p| f64::from(s[p]) - 0.5 * f64::from(s[(p + 2) % 3]))
    }
}

#[test]
fn returns_index_every_player_of_a_three_player_game() {
    assert_eq!(ThreePicks.players(), 3);
    let params =
        SearchParams { playouts: Some(3_000), threads: 2, audit: true, pin_threads: false, ..SearchParams::default() };
    for start in [vec![], vec![1], vec![1, 1], vec![0, 0]] {
        let r = Search::new(&ThreePicks, params.clone()).run(&start);
        assert_eq!(r.best, Some(1), "player {} to move after {start:?}: {:?}", start.len(), r.actions);
        assert_eq!(r.solver, SolverStatus::NotWinDrawLoss);
        let audit = r.audit.unwrap();
        assert_eq!((audit.root_visits, audit.in_flight), (3_000, 0));
    }
    // Player 2 after picks 1, 1: picking 1 is worth 1 - 0.5 = 0.5 to it (exactly: nothing is left to chance).
    let r = Search::new(&ThreePicks, params).run(&vec![1, 1]);
    assert_eq!(r.action(&1).and_then(|a| a.mean), Some(0.5));
    assert_eq!(r.action(&0).and_then(|a| a.mean), Some(-0.5));
}

#[test]
fn progress_reports_the_top_two_root_visits() {
    // An open search (a stop flag, no limit, a game that never ends it) that the observer itself stops
    // at its third look, or later on a machine so loaded that fewer than 100 playouts were done by then.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let params = SearchParams { threads: 1, pin_threads: false, seed: 5, ..SearchParams::default() };
    let search = Search::new(&Chain { length: 10_000, width: 4 }, params);
    let mut looks = Vec::new();
    let mut observer = |p: &canopy_mcts::search::Progress| {
        looks.push(p.clone());
        if looks.len() >= 3 && p.playouts >= 100 {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let report = search.run_observed(&0, Some(&stop), Some((5, &mut observer)));
    // The workers may search on for one more look before they see the flag.
    assert!(looks.len() >= 3, "{looks:?}");
    for p in &looks {
        assert!(p.best_visits >= p.second_visits, "{p:?}");
        // Each playout goes through one root child: the top two hold at most every playout.
        assert!(p.best_visits + p.second_visits <= p.playouts + 1, "{p:?}");
        assert_eq!(p.best.is_some(), p.best_visits > 0, "{p:?}");
    }
    let last = looks.last().unwrap();
    assert!(last.best_visits > 0 && last.second_visits > 0, "{last:?}");
    // The counts only grow: the report's top two are at least the last look's.
    let mut visits: Vec<u64> = report.actions.iter().map(|a| a.visits).collect();
    visits.sort_unstable_by(|a, b| b.cmp(a));
    assert!(visits[0] >= last.best_visits && visits[1] >= last.second_visits, "{visits:?} {last:?}");
}

/// Batched statistics near the root (`batch_plies` 0, 1 and 2, with 2 and 3 threads) leave the tree as
/// exact as direct writes: every playout counted at the root and on its edges, no virtual loss left, no
/// node whose edges count more visits than it has, the root's value sum equal to the workers' own sums.
/// On a decision tree (the synthetic P-game), a tree with chance nodes below the root (2048) and a
/// small tree that every thread shares (tic-tac-toe).
#[test]
fn batched_statistics_near_the_root_are_exact() {
    for batch_plies in 0..=2 {
        for threads in [2, 3] {
            let params = SearchParams {
                playouts: Some(20_003),
                threads,
                batch_plies,
                audit: true,
                pin_threads: false,
                solver: false,
                ..SearchParams::default()
            };
            let label = format!("batch_plies {batch_plies}, {threads} threads");
            assert_exact_accounting_on_three_games(&params, 20_003, &label);
        }
    }
}

/// A search with one worker reads the sum of a node's edge visits from the node's own count (its visits
/// less those it had when its children were published, docs/CONCURRENCY.md I14) instead of adding up the
/// edges. The audit checks the sum against the edges on every node that records the count: after
/// one-worker searches of games with and without value bounds (one-pass selection is used only with
/// them), with MCTS-Solver proofs, with other expansion thresholds and under a memory budget that stops
/// expansion, and in a session whose tree was searched by one worker and by two and re-rooted.
#[test]
fn one_worker_reads_edge_visit_sums_from_the_nodes_exactly() {
    use canopy_mcts::games::g2048::{G2048Policy, G2048};
    use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, Rule};
    use canopy_mcts::games::synthetic::{Synthetic, SyntheticPolicy};
    use canopy_mcts::search::{Event, Limits, Session};

    fn check<A>(r: &SearchReport<A>, label: &str) {
        let audit = r.audit.as_ref().expect("audit requested");
        assert_eq!((audit.miscounted_nodes, audit.overcounted_nodes, audit.in_flight), (0, 0, 0), "{label}: {audit:?}");
        assert!(audit.counted_nodes > 0, "{label}: no node was checked: {audit:?}");
    }
    let one =
        SearchParams { playouts: Some(20_000), threads: 1, audit: true, pin_threads: false, ..SearchParams::default() };
    for expand_threshold in [0, 1, 4] {
        for solver in [false, true] {
            let params = SearchParams { expand_threshold, solver, ..one.clone() };
            let label = format!("threshold {expand_threshold}, solver {solver}");
            let r = Search::new(&TicTacToe, params.clone()).run(&TicTacToeState::default());
            check(&r, &format!("tic-tac-toe, {label}"));
            let gomoku = Gomoku::new(9, Rule::Freestyle);
            let r = Search::with_policy(&gomoku, &GomokuPolicy::default(), params.clone()).run(&gomoku.new_game());
            check(&r, &format!("gomoku 9x9, {label}"));
        }
    }
    let synthetic = Synthetic::new(6, 10).unwrap();
    let r = Search::with_policy(&synthetic, &SyntheticPolicy, one.clone()).run(&synthetic.start());
    check(&r, "synthetic");
    let g2048_root = canopy_mcts::games::fixtures::g2048()[1].state;
    let r = Search::with_policy(&G2048, &G2048Policy::default(), one.clone()).run(&g2048_root);
    check(&r, "2048");
    // A budget the tree outgrows: nodes stop being expanded and stay leaves.
    let small = SearchParams { memory_bytes: 1 << 20, ..one.clone() };
    let gomoku = Gomoku::new(15, Rule::Freestyle);
    let r = Search::with_policy(&gomoku, &GomokuPolicy::default(), small).run(&gomoku.new_game());
    assert!(r.memory_limited, "the budget was not reached");
    check(&r, "gomoku 15x15, memory-limited");
    // A kept tree: one worker, a move (the tree is copied), two workers (whose expansions record no
    // count), one worker again.
    let mut session = Session::with_policy(gomoku, GomokuPolicy::default(), gomoku.new_game(), one.clone());
    check(&session.search(Limits::playouts(10_000)), "session, one worker");
    let best = session.search(Limits::playouts(1)).best.expect("a move");
    session.advance(Event::Action(best)).unwrap();
    check(&session.search(Limits::playouts(10_000)), "session, one worker after a move");
    session.set_params(SearchParams { threads: 2, ..one.clone() });
    check(&session.search(Limits::playouts(10_000)), "session, two workers");
    session.set_params(one);
    check(&session.search(Limits::playouts(10_000)), "session, one worker after two");
}

/// A token on a line of cells `-3..=3` that the one player moves left or right until it reaches an end
/// (+3 wins, −3 loses); a position is its cell alone, so with the transposition table the graph has
/// cycles (1 → 2 → 1), and a playout can come back to a node it has passed.
#[derive(Clone, Copy, Debug)]
struct Walk;

impl Game for Walk {
    type State = i8;
    type Action = u8;
    type Outcome = canopy_mcts::NoOutcome;
    type Returns = [f64; 1];

    fn to_move(&self, &cell: &i8) -> Turn {
        if cell.abs() >= 3 {
            Turn::Terminal
        } else {
            Turn::Player(0)
        }
    }

    fn legal_actions(&self, &cell: &i8, out: &mut Vec<u8>) {
        out.clear();
        if cell.abs() < 3 {
            out.extend([0, 1]);
        }
    }

    fn apply(&self, cell: &mut i8, right: u8) -> f64 {
        *cell += if right == 1 { 1 } else { -1 };
        0.0
    }

    fn returns(&self, &cell: &i8) -> [f64; 1] {
        [f64::from(u8::from(cell >= 3))]
    }

    fn zobrist(&self, &cell: &i8) -> Option<u64> {
        Some(canopy_mcts::games::mix64(cell as u64 + 100))
    }

    fn value_bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }
}

/// [`Walk`]'s leaf value: the cell's distance to the losing end, scaled to `[0, 1]` (no random walk).
#[derive(Clone, Copy, Debug)]
struct WalkValue;

impl canopy_mcts::Policy<Walk> for WalkValue {
    fn rollout(&self, _: &Walk, &cell: &i8, _: &mut canopy_mcts::Rng, _: &mut Vec<u8>) -> [f64; 1] {
        [(f64::from(cell) + 3.0) / 6.0]
    }
}

/// In a graph with cycles a one-worker playout can select at a node its own path passed, whose edge then
/// carries the playout's virtual loss, which the node's count (docs/CONCURRENCY.md I14) does not hold:
/// selection must sum the edges there, as several workers do, or it would take the same edge each time
/// round the cycle and never end the playout. The search ends, with exact statistics.
#[test]
fn a_playout_that_comes_back_to_a_node_sums_its_edges() {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let params = SearchParams {
            playouts: Some(5_000),
            threads: 1,
            audit: true,
            pin_threads: false,
            ..SearchParams::default()
        };
        let _ = done.send(Search::with_policy(&Walk, &WalkValue, params).run(&0));
    });
    let r = finished.recv_timeout(std::time::Duration::from_secs(120)).expect("the search ended");
    let audit = r.audit.as_ref().expect("audit requested");
    assert_eq!(r.playouts, 5_000);
    assert_eq!((audit.miscounted_nodes, audit.overcounted_nodes, audit.in_flight), (0, 0, 0), "{audit:?}");
    assert!(audit.counted_nodes > 0, "{audit:?}");
    // Seven cells, one node each, and the root; a path longer than that passed some node twice.
    assert!(r.nodes <= 8 && r.max_depth > r.nodes, "no cycle was walked: {} nodes, depth {}", r.nodes, r.max_depth);
    assert_eq!(r.best, Some(1), "right, towards the winning end");
}

/// After a move a kept tree's root is in the transposition table, so a one-worker playout can come back
/// round a cycle to the root itself and leave it a second time: the sum of the root's edges' visits
/// that the worker keeps (the root's own count is written in batches) counts every step out of the root.
#[test]
fn a_playout_that_comes_back_to_the_root_counts_its_edges() {
    use canopy_mcts::search::{Event, Limits, Session};
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let params = SearchParams { threads: 1, audit: true, pin_threads: false, ..SearchParams::default() };
        let mut session = Session::with_policy(Walk, WalkValue, 0, params);
        let first = session.search(Limits::playouts(2_000));
        session.advance(Event::Action(0)).expect("a legal move");
        let _ = done.send((first, session.search(Limits::playouts(5_000))));
    });
    let (first, r) = finished.recv_timeout(std::time::Duration::from_secs(120)).expect("the searches ended");
    for (label, r) in [("first search", &first), ("after a move", &r)] {
        let audit = r.audit.as_ref().expect("audit requested");
        assert_eq!((audit.miscounted_nodes, audit.overcounted_nodes, audit.in_flight), (0, 0, 0), "{label}: {audit:?}");
        assert!(audit.counted_nodes > 0, "{label}: {audit:?}");
    }
    assert!(r.max_depth > 8, "no cycle was walked: depth {}", r.max_depth);
}
