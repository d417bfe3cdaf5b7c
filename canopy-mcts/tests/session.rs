//! Sessions: a tree kept across searches, re-rooted on the moves and outcomes played, searched in the
//! background, and held within its memory budget.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use std::time::Duration;

use canopy_mcts::games::g2048::{G2048Policy, G2048State, G2048};
use canopy_mcts::games::gomoku::{Gomoku, Rule};
use canopy_mcts::games::tictactoe::{minimax, TicTacToe, TicTacToeState};
use canopy_mcts::rng::seeded;
use canopy_mcts::search::{AdvanceError, Event, Follower, Limits, SearchParams, Session};
use canopy_mcts::{Game, Proof, Turn};

fn one_thread() -> SearchParams {
    SearchParams { threads: 1, pin_threads: false, seed: 7, ..SearchParams::default() }
}

#[test]
fn advancing_keeps_the_subtree_and_its_visits_through_a_move_and_a_chance_outcome() {
    let mut rng = seeded(11, 0);
    let state = G2048State::new_game(&mut rng);
    let params = SearchParams { audit: true, ..one_thread() };
    let mut session = Session::with_policy(G2048, G2048Policy::default(), state, params);
    let report = session.search(Limits::playouts(20_000));
    assert_eq!(report.playouts, 20_000);
    let best = report.best.expect("a legal move");
    let edge_visits = report.action(&best).unwrap().visits;
    // The move: the new root is the chance node after it, with every playout that went through it.
    let kept = session.advance(Event::Action(best)).unwrap();
    assert!(kept.visits >= edge_visits && kept.visits > 0, "{kept:?} after {edge_visits} visits of the move");
    assert_eq!(G2048.to_move(session.state()), Turn::Chance);
    // The most likely spawn that the search visited: the decision node after it keeps its visits too.
    let mut outcomes = Vec::new();
    G2048.chance_outcomes(session.state(), &mut outcomes);
    let before = session.root_visits();
    let kept = session.advance(Event::Outcome(outcomes[0].0)).unwrap();
    assert!(kept.visits > 0 && kept.visits < before, "{kept:?} of {before}");
    assert!(kept.nodes > 1);
    // A player is to move now: an outcome is refused.
    assert!(matches!(session.advance(Event::Outcome(outcomes[0].0)), Err(AdvanceError::ImpossibleOutcome(_))));
    // Searching on adds to what was kept.
    let next = session.search(Limits::playouts(5_000));
    assert_eq!(next.playouts, 5_000);
    assert_eq!(next.root_visits, kept.visits + 5_000);
    // The copied tree is sound: no virtual loss, no claim, no edge with more visits than its node, and
    // every node the walk reaches counted.
    let audit = next.audit.as_ref().expect("audit on");
    assert_eq!(
        (audit.in_flight, audit.claimed_nodes, audit.overcounted_nodes, audit.miscounted_nodes),
        (0, 0, 0, 0),
        "{audit:?}"
    );
    assert_eq!(audit.nodes, next.nodes, "the tree's node count");
    let edges: u64 = next.actions.iter().map(|a| a.visits).sum();
    assert!(edges >= next.root_visits - 1, "the root's edges hold its visits: {edges} of {}", next.root_visits);
}

#[test]
fn a_position_the_tree_does_not_hold_starts_afresh_and_bad_events_change_nothing() {
    let mut session = Session::new(TicTacToe, TicTacToeState::default(), one_thread());
    // Never searched: no children to keep.
    let kept = session.advance(Event::Action(4)).unwrap();
    assert_eq!(kept.visits, 0);
    assert_eq!(kept.nodes, 1);
    // Cell 4 is taken now: refused, and the session stays where it was.
    let state = *session.state();
    assert_eq!(session.advance(Event::Action(4)), Err(AdvanceError::IllegalAction(TicTacToe.action_name(&4))));
    assert_eq!(format!("{:?}", session.state()), format!("{state:?}"));
    // Play on to the end: a finished game takes no event.
    // x 4 0 1 ... : x takes 4, 1, 7 (a column) while o takes 0 and 2.
    let r = session.advance_all([0, 1, 2, 7].map(Event::Action));
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(TicTacToe.to_move(session.state()), Turn::Terminal);
    assert_eq!(session.advance(Event::Action(8)), Err(AdvanceError::GameOver));
    // A refused event in a list names its place; the ones before it stay applied.
    let mut fresh = Session::new(TicTacToe, TicTacToeState::default(), one_thread());
    assert_eq!(fresh.advance_all([0, 0].map(Event::Action)).unwrap_err().0, 1);
}

#[test]
fn advancing_through_several_events_at_once_keeps_what_one_at_a_time_keeps() {
    // A move and its reply, one copy of the kept subtree against two: the same tree, the same next search.
    let game = Gomoku::try_new(9, Rule::Freestyle).unwrap();
    let start = || {
        let mut s = Session::new(game, game.from_moves("").unwrap(), one_thread());
        s.search(Limits::playouts(20_000));
        s
    };
    let (mut stepwise, mut at_once) = (start(), start());
    let mut line = Vec::new();
    let mut state = game.from_moves("").unwrap();
    // The line the search likes best, two plies deep.
    for _ in 0..2 {
        let mut probe = Session::new(game, state.clone(), one_thread());
        let best = probe.search(Limits::playouts(2_000)).best.unwrap();
        game.apply(&mut state, best);
        line.push(best);
    }
    let a = stepwise.advance(Event::Action(line[0])).and_then(|_| stepwise.advance(Event::Action(line[1]))).unwrap();
    let b = at_once.advance_all(line.iter().map(|&c| Event::Action(c))).unwrap();
    assert!(a.visits > 0, "the reply was searched: {a:?}");
    assert_eq!((a.visits, a.nodes, a.memory_bytes), (b.visits, b.nodes, b.memory_bytes));
    assert_eq!(stepwise.state(), at_once.state());
    let (x, y) = (stepwise.search(Limits::playouts(5_000)), at_once.search(Limits::playouts(5_000)));
    assert_eq!((x.best, x.root_visits, x.nodes), (y.best, y.root_visits, y.nodes));
    // A refused event after a good one: the good one stays applied, on the kept subtree.
    let mut s = start();
    assert_eq!(s.advance_all([Event::Action(line[0]), Event::Action(line[0])]).unwrap_err().0, 1);
    assert!(s.root_visits() > 0);
    assert_eq!(s.state().stone_count(), 1);
}

#[test]
fn a_follower_re_roots_once_on_every_event_since_its_last_use() {
    let game = Gomoku::try_new(9, Rule::Freestyle).unwrap();
    let mut follower: Follower<Gomoku> = Follower::default();
    // Without a session events are not kept.
    follower.observe(Event::Action(game.from_moves("4,4").unwrap().last_move().unwrap()));
    assert!(follower.slot().is_none());
    let mut direct = Session::new(game, game.from_moves("").unwrap(), one_thread());
    let best = direct.search(Limits::playouts(10_000)).best.unwrap();
    let mut kept = Session::new(game, game.from_moves("").unwrap(), one_thread());
    kept.search(Limits::playouts(10_000));
    let before = kept.nodes();
    *follower.slot() = Some(kept);
    let reply = game.from_moves("5,5").unwrap().last_move().unwrap();
    follower.observe(Event::Action(best));
    follower.observe(Event::Action(reply));
    // Nothing moved yet: the queued events wait for the next use.
    assert_eq!(follower.peek().unwrap().nodes(), before);
    let k = direct.advance_all([Event::Action(best), Event::Action(reply)]).unwrap();
    let s = follower.slot().as_ref().unwrap();
    assert_eq!(s.state(), direct.state());
    assert_eq!((s.root_visits(), s.nodes()), (k.visits, k.nodes));
    // An event the position cannot take drops the session.
    follower.observe(Event::Action(reply));
    assert!(follower.slot().is_none());
    follower.clear();
    assert!(follower.peek().is_none());
}

#[test]
fn a_transposition_table_holds_only_the_kept_tree_after_re_rooting() {
    let game = Gomoku::try_new(7, Rule::Freestyle).unwrap();
    let state = game.from_moves("3,3 2,2").unwrap();
    let mut session = Session::new(game, state, one_thread());
    let report = session.search(Limits::playouts(20_000));
    let filled_before = report.table.as_ref().expect("gomoku has keys").filled;
    let best = report.best.unwrap();
    let kept = session.advance(Event::Action(best)).unwrap();
    let next = session.search(Limits::playouts(1));
    let table = next.table.expect("a table");
    // Every kept node is in the table (one playout adds at most one), and nothing else is.
    assert!(table.filled as u64 <= kept.nodes + 1, "{} slots filled for {} nodes", table.filled, kept.nodes);
    assert!(table.filled as u64 + 2 >= kept.nodes.min(table.slots as u64 / 2), "{} of {}", table.filled, kept.nodes);
    assert!(table.filled < filled_before, "{} then {}", filled_before, table.filled);
}

#[test]
fn a_session_over_200_moves_of_2048_stays_within_its_memory_budget() {
    const BUDGET: usize = 64 << 20;
    let params = SearchParams { memory_bytes: BUDGET, ..one_thread() };
    let mut rng = seeded(5, 0);
    let mut session = Session::with_policy(G2048, G2048Policy::default(), G2048State::new_game(&mut rng), params);
    let mut moves = 0;
    let mut kept_visits = 0u64;
    while moves < 200 {
        match G2048.to_move(session.state()) {
            Turn::Terminal => break,
            Turn::Chance => {
                let spawn = G2048.sample_outcome(session.state(), &mut rng);
                session.advance(Event::Outcome(spawn)).unwrap();
            }
            Turn::Player(_) => {
                let report = session.search(Limits::playouts(6_000));
                assert!(report.memory_bytes <= BUDGET, "move {moves}: {} bytes", report.memory_bytes);
                assert_eq!(report.memory_bytes, session.memory_bytes(), "the report's figure is the tree's");
                kept_visits += report.root_visits - report.playouts;
                let kept = session.advance(Event::Action(report.best.unwrap())).unwrap();
                assert!(kept.memory_bytes <= BUDGET);
                moves += 1;
            }
        }
    }
    assert!(moves >= 100, "{moves} moves");
    assert!(kept_visits > 0, "some searches started from a kept subtree");
}

#[test]
fn a_search_that_reaches_the_budget_keeps_within_it_and_says_so() {
    const BUDGET: usize = 2 << 20;
    let params = SearchParams { memory_bytes: BUDGET, ..one_thread() };
    let mut rng = seeded(9, 0);
    let mut session = Session::with_policy(G2048, G2048Policy::default(), G2048State::new_game(&mut rng), params);
    for _ in 0..3 {
        let report = session.search(Limits::playouts(40_000));
        assert!(report.memory_bytes <= BUDGET, "{} bytes", report.memory_bytes);
    }
    let report = session.search(Limits::playouts(40_000));
    assert!(report.memory_limited, "2 MiB fill up: {report:?}");
    assert_eq!(report.playouts, 40_000, "a full tree goes on searching by rollouts from its leaves");
}

#[test]
fn a_background_search_is_read_while_it_runs_and_stopped() {
    let params = SearchParams { threads: 2, pin_threads: false, ..SearchParams::default() };
    let session = Session::new(TicTacToe, TicTacToeState::default(), SearchParams { solver: false, ..params });
    let handle = session.start(Limits::none());
    std::thread::sleep(Duration::from_millis(150));
    let early = handle.snapshot();
    assert!(!handle.is_finished(), "no limit: it runs until stopped");
    std::thread::sleep(Duration::from_millis(150));
    let later = handle.snapshot();
    assert!(later.playouts >= early.playouts && later.playouts > 0, "{} then {}", early.playouts, later.playouts);
    assert_eq!(later.actions.len(), 9);
    assert!(later.best.is_some() && !later.pv.is_empty());
    let (mut session, report) = handle.stop();
    assert!(report.playouts >= later.playouts);
    assert_eq!(report.root_visits, session.root_visits());
    // The session goes on: a blocking search adds to it, and a dropped handle stops its search.
    let more = session.search(Limits::playouts(1_000));
    assert_eq!(more.root_visits, report.root_visits + 1_000);
    let handle = session.start(Limits::none());
    std::thread::sleep(Duration::from_millis(20));
    drop(handle);
}

#[test]
fn a_background_search_with_limits_ends_by_itself() {
    let session = Session::new(TicTacToe, TicTacToeState::default(), one_thread());
    let handle = session.start(Limits::playouts(3_000));
    let (_, report) = handle.wait();
    assert_eq!(report.playouts, 3_000);
}

#[test]
fn snapshots_and_progress_say_how_much_memory_the_tree_holds() {
    let mut rng = seeded(3, 0);
    let params = SearchParams { threads: 2, pin_threads: false, ..SearchParams::default() };
    let session = Session::with_policy(G2048, G2048Policy::default(), G2048State::new_game(&mut rng), params);
    let handle = session.start(Limits::none());
    std::thread::sleep(Duration::from_millis(300));
    let snap = handle.snapshot();
    let (session, report) = handle.stop();
    assert!(
        snap.memory_bytes > 0 && snap.memory_bytes <= report.memory_bytes,
        "{} then {}",
        snap.memory_bytes,
        report.memory_bytes
    );
    assert_eq!(report.memory_bytes, session.memory_bytes());
}

#[test]
fn a_root_restriction_holds_until_the_next_move() {
    let mut session = Session::new(TicTacToe, TicTacToeState::default(), one_thread());
    session.search(Limits::playouts(500));
    session.restrict_root(Some((vec![0, 8], canopy_mcts::Coverage::Pruned)));
    let report = session.search(Limits::playouts(500));
    assert_eq!(report.actions.iter().map(|a| a.action).collect::<Vec<_>>(), [0, 8]);
    assert_eq!(report.root_visits, 500, "the unrestricted statistics were dropped");
    session.advance(Event::Action(0)).unwrap();
    let report = session.search(Limits::playouts(500));
    assert_eq!(report.actions.len(), 8, "no restriction after the move");
}

#[test]
fn a_long_search_recycles_the_least_visited_subtrees_and_grows_on_within_its_budget() {
    const BUDGET: usize = 2 << 20;
    let params = SearchParams { memory_bytes: BUDGET, audit: true, ..one_thread() };
    let mut rng = seeded(9, 0);
    let mut session = Session::with_policy(G2048, G2048Policy::default(), G2048State::new_game(&mut rng), params);
    let report = session.search(Limits::playouts(150_000));
    assert_eq!(report.playouts, 150_000, "every playout ran");
    assert_eq!(report.root_visits, 150_000);
    assert!(report.recycled_nodes > 0, "a 2 MiB tree fills up and is recycled: {report:?}");
    assert!(report.memory_limited);
    assert!(report.memory_bytes <= BUDGET, "{} bytes", report.memory_bytes);
    let audit = report.audit.as_ref().unwrap();
    assert_eq!(
        (audit.in_flight, audit.claimed_nodes, audit.overcounted_nodes, audit.miscounted_nodes),
        (0, 0, 0, 0),
        "{audit:?}"
    );
    // Recycling by hand: at most half the budget after it, the root's statistics kept.
    let visits = session.root_visits();
    let r = session.recycle();
    assert!(r.bytes_after <= BUDGET / 2 && r.nodes_after <= r.nodes_before, "{r:?}");
    assert_eq!(session.root_visits(), visits);
    // And the tree grows again from there (a search small enough to fit in the half freed: 5 000
    // playouts outgrew it once edges took 40 bytes, and the search recycled again).
    let next = session.search(Limits::playouts(2_000));
    assert_eq!(next.recycled_nodes, 0, "{next:?}");
    assert!(next.nodes > r.nodes_after, "{} nodes after {}", next.nodes, r.nodes_after);
}

#[test]
fn sessions_and_handles_move_between_threads() {
    fn send<T: Send>(_: &T) {}
    let session = Session::new(TicTacToe, TicTacToeState::default(), one_thread());
    send(&session);
    let handle = session.start(Limits::playouts(100));
    send(&handle);
    // A handle can be driven from another thread.
    let (_, report) = std::thread::spawn(move || handle.wait()).join().unwrap();
    assert_eq!(report.playouts, 100);
}

/// A two-player tree re-rooted on moves reports for the side to move: the proofs of the root's moves,
/// the root's proof and its value read as a fresh search of the position reads them (the re-rooted root
/// records its statistics for the player who moved into it).
#[test]
fn a_re_rooted_two_player_tree_reports_for_the_side_to_move() {
    let params = SearchParams { transposition_table: false, ..one_thread() };
    let mut start = TicTacToeState::default();
    TicTacToe.apply(&mut start, 4);
    // X took the centre; O answers in a corner and X threatens 3-4-5: O must block at 3.
    let mut session = Session::new(TicTacToe, start, params.clone());
    session.search(Limits::playouts(300));
    session.advance_all([Event::Action(8), Event::Action(5)]).unwrap();
    let kept = session.search(Limits::playouts(300));
    let fresh = Session::new(TicTacToe, *session.state(), params.clone()).search(Limits::playouts(300));
    assert_eq!(kept.best, Some(3));
    assert_eq!(fresh.best, Some(3));
    for a in kept.actions.iter().filter(|a| a.action != 3) {
        assert_eq!(a.proof, Some(canopy_mcts::Proof::Loss), "{} leaves the three open: {:?}", a.name, kept.actions);
    }
    // One more move each way: X to move after O's blunder at 2 (X wins at once with 3).
    let mut session = Session::new(TicTacToe, *session.state(), params.clone());
    session.search(Limits::playouts(2_000));
    session.advance(Event::Action(2)).unwrap();
    let report = session.search(Limits::playouts(200));
    assert_eq!((report.best, report.root_proof), (Some(3), Some(canopy_mcts::Proof::Win)), "{report:?}");
    assert!(report.root_value.unwrap() > 0.5, "{:?}", report.root_value);
}

#[test]
fn a_kept_root_already_proven_is_not_searched_again() {
    let mut session = Session::new(TicTacToe, TicTacToeState::parse("x.o/.o./..x").unwrap(), one_thread());
    let first = session.search(Limits::playouts(50_000));
    assert!(first.root_proof.is_some(), "a small position is proven");
    let again = session.search(Limits::playouts(50_000));
    assert_eq!(again.playouts, 0, "the proof stands");
    assert_eq!(again.best, first.best);
    assert_eq!(again.root_proof, first.root_proof);
}

#[test]
fn proven_nodes_list_the_solved_positions_with_their_paths() {
    // Tic-tac-toe is a draw: the solver proves the root, and every listed node replays to a position
    // whose exact minimax value is the listed proof.
    let mut session = Session::new(TicTacToe, TicTacToeState::default(), one_thread());
    let report = session.search(Limits::playouts(200_000));
    assert_eq!(report.root_proof, Some(Proof::Draw));
    let proven = session.proven_nodes(usize::MAX);
    assert_eq!((proven[0].path.len(), proven[0].proof), (0, Proof::Draw), "the root comes first");
    assert!(proven.len() > 100, "{} proven nodes", proven.len());
    for p in &proven {
        let mut s = TicTacToeState::default();
        for e in &p.path {
            match e {
                Event::Action(a) => {
                    TicTacToe.apply(&mut s, *a);
                }
                Event::Outcome(_) => unreachable!("no chance in tic-tac-toe"),
            }
        }
        if TicTacToe.to_move(&s) != Turn::Terminal {
            assert_eq!(minimax(&s), p.proof.value(), "{:?} after {:?}", p.proof, p.path);
        }
    }
    assert_eq!(session.proven_nodes(3).len(), 3, "the limit holds");
}

#[test]
fn limits_since_an_earlier_start_keep_what_is_left_of_the_time() {
    let began = std::time::Instant::now().checked_sub(Duration::from_millis(50)).expect("a clock 50 ms old");
    let left = Limits::time_ms(100).since(began).time_ms.expect("still a time limit");
    assert!((1..=50).contains(&left), "{left} ms left of 100 after 50");
    // Spent already: the search still gets its minimum of 1 ms.
    assert_eq!(Limits::time_ms(10).since(began), Limits::time_ms(1));
    // No time limit: nothing changes.
    assert_eq!(Limits::playouts(7).since(began), Limits::playouts(7));
    assert_eq!(Limits::none().since(began), Limits::none());
}

/// After a move the kept root records its value for the player who made the move; the report turns it
/// round for the player to move, who is read from the position, not from a child node: with edge
/// statistics and no solver a root edge may have visits and no node below it (a leaf gets its node
/// when it is expanded), which once gave the mover's opponent's value.
#[test]
fn the_root_value_after_a_move_is_the_player_to_moves_when_no_child_is_linked() {
    let params = SearchParams { solver: false, ..one_thread() };
    // X to move takes 6 and wins by a double threat: after it, O is lost.
    let fork = TicTacToeState::parse("x.o/.o./..x").unwrap();
    let mut session = Session::new(TicTacToe, fork, params);
    let first = session.search(Limits::playouts(11));
    assert_eq!(first.best, Some(6), "{first:?}");
    session.advance(Event::Action(6)).unwrap();
    // The kept root: each of O's moves tried at most once after one more playout, none with a node
    // (seed 7: the first search passed 6 four times, three of them below its node).
    let report = session.search(Limits::playouts(1));
    assert!(report.actions.iter().all(|a| a.visits <= 1), "{report:?}");
    let visits: u64 = report.actions.iter().map(|a| a.visits).sum();
    let weighted: f64 = report.actions.iter().filter_map(|a| a.mean.map(|m| m * a.visits as f64)).sum::<f64>();
    let value = report.root_value.expect("playouts ran");
    assert!(value < 0.5, "O is lost after 6, yet its root value is {value}: {report:?}");
    assert!((value - weighted / visits as f64).abs() < 0.2, "{value} against the moves' {}", weighted / visits as f64);
}

#[test]
fn set_params_refuses_parameters_out_of_range_and_keeps_the_ones_it_had() {
    let mut session = Session::new(TicTacToe, TicTacToeState::default(), one_thread());
    session.search(Limits::playouts(200));
    let bad = SearchParams { exploration: f64::NAN, ..one_thread() };
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| session.set_params(bad))).unwrap_err();
    let message = payload.downcast_ref::<String>().map(String::as_str).unwrap_or_default();
    assert_eq!(message, "invalid search parameters: exploration: NaN is not a number from 0 to 100");
    assert_eq!(session.params().exploration, 1.0);
    assert_eq!(session.root_visits(), 200);
}

#[test]
fn the_try_constructors_and_setter_return_the_parameters_error() {
    let bad = SearchParams { threads: 0, ..one_thread() };
    let e = Session::try_new(TicTacToe, TicTacToeState::default(), bad.clone()).err().expect("0 threads is refused");
    assert_eq!(e.to_string(), "threads: 0 is not a whole number from 1 to 1024");
    let mut session = Session::try_new(TicTacToe, TicTacToeState::default(), one_thread()).expect("in range");
    session.search(Limits::playouts(100));
    assert_eq!(session.try_set_params(bad).unwrap_err().to_string(), e.to_string());
    assert_eq!((session.params().threads, session.root_visits()), (1, 100));
    session.try_set_params(SearchParams { seed: 7, ..one_thread() }).expect("in range");
    assert_eq!((session.params().seed, session.root_visits()), (7, 100));
    // A session's limits are not used (each search takes its own), so they are not checked.
    let unused = SearchParams { playouts: Some(0), time_ms: Some(0), ..one_thread() };
    session.try_set_params(unused.clone()).expect("the limits are not checked");
    Session::try_new(TicTacToe, TicTacToeState::default(), unused).expect("the limits are not checked");
}
