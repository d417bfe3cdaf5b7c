//! 2048 evaluation, rollout policies, expectimax and the agents: features on hand-made boards, the
//! expectimax cache against the uncached search, and the safe-move boards for every searching agent.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::agent::Step;
use canopy_mcts::games::g2048::agents::{flat, Agent, AgentConfig, AgentKind};
use canopy_mcts::games::g2048::eval::{Features, Heuristic, STANDARD};
use canopy_mcts::games::g2048::expectimax::{
    self, afterstate_value, depth_for, Expectimax, Limits, ParallelExpectimax,
};
use canopy_mcts::games::g2048::{Board, Dir, G2048Policy, G2048State, RolloutPolicy, G2048};
use canopy_mcts::rng::seeded;
use canopy_mcts::search::SearchParams;
use canopy_mcts::Policy;

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-3 * a.abs().max(b.abs()).max(1.0)
}

// ---------------------------------------------------------------------------------------------------
// Evaluation features.

#[test]
fn line_features_by_hand() {
    // 2 2 4 . : one empty cell, a run of two equal tiles (2 merges), monotonicity min(16, 15) = 15
    // (ranks to the power 4: 1 1 16 0), sum 1 + 1 + 2^3.5, smoothness |1-1| + |1-2| = 1, the
    // largest tile not at an end.
    let f = Features::of_line([1, 1, 2, 0], &STANDARD);
    assert_eq!(f.empty, 1.0);
    assert_eq!(f.merges, 2.0);
    assert_eq!(f.monotonicity, 15.0);
    assert!(close(f.sum, 2.0 + 2f32.powf(3.5)));
    assert_eq!(f.smoothness, 1.0);
    assert_eq!(f.corner, 0.0);

    // 8 4 2 . : monotone (0), smoothness 2, the 8 at an end: corner 3^4.
    let f = Features::of_line([3, 2, 1, 0], &STANDARD);
    assert_eq!((f.empty, f.merges, f.monotonicity, f.smoothness, f.corner), (1.0, 0.0, 0.0, 2.0, 81.0));

    // 2 . 2 . : merges skip the gap; 4 4 4 4: a run of four counts 4.
    assert_eq!(Features::of_line([1, 0, 1, 0], &STANDARD).merges, 2.0);
    assert_eq!(Features::of_line([2, 2, 2, 2], &STANDARD).merges, 4.0);
    // 2 8 2 8: no merge, not monotone: in rank^4 (1, 81, 1, 81) the down-steps add to 80, the up-steps
    // to 160; smoothness 2 + 2 + 2.
    let f = Features::of_line([1, 3, 1, 3], &STANDARD);
    assert_eq!(f.merges, 0.0);
    assert_eq!(f.monotonicity, 80.0);
    assert_eq!(f.smoothness, 6.0);
}

#[test]
fn board_features_and_evaluation_by_hand() {
    let h = Heuristic::standard();
    let empty = Board::EMPTY;
    let f = h.features(&empty);
    assert_eq!(f, Features { empty: 32.0, ..Features::default() });
    assert!(close(h.evaluate(&empty), 8.0 * 200_000.0 + 270.0 * 32.0));

    // One 2 in the corner: its row and its column have 3 empty cells, the 2 sits at the end of both.
    let corner = board("2,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0");
    let f = h.features(&corner);
    assert_eq!((f.empty, f.sum, f.corner, f.monotonicity, f.merges), (30.0, 2.0, 2.0, 0.0, 0.0));
    assert!(close(h.evaluate(&corner), f.value(&STANDARD, 8)));
}

#[test]
fn evaluation_prefers_order_room_and_a_cornered_big_tile() {
    let h = Heuristic::standard();
    let cornered = board("0,0,0,0, 0,0,0,0, 2,0,0,0, 2048,512,64,8");
    let centred = board("0,0,0,0, 0,2048,0,0, 2,0,512,0, 0,8,0,64");
    assert!(h.evaluate(&cornered) > h.evaluate(&centred));
    let roomy = board("0,0,0,0, 0,0,0,0, 0,0,0,0, 16,8,4,2");
    let crowded = board("2,4,2,4, 0,0,0,0, 0,0,0,0, 16,8,4,2");
    assert!(h.evaluate(&roomy) > h.evaluate(&crowded));
    // The table and the features agree on any board, including one with a 65536 (line by line).
    for b in [cornered, centred, board("65536,2,4,8, 0,0,0,0, 0,0,0,0, 0,0,0,0")] {
        assert!(close(h.evaluate(&b), h.features(&b).value(&STANDARD, 8)), "{b:?}");
    }
}

#[test]
fn contributions_carry_the_weights_signs() {
    let f = Features { empty: 2.0, merges: 1.0, monotonicity: 3.0, sum: 4.0, smoothness: 5.0, corner: 6.0 };
    let c = f.contributions(&STANDARD);
    assert_eq!(c.empty, 540.0);
    assert_eq!(c.merges, 700.0);
    assert_eq!(c.monotonicity, -141.0);
    assert_eq!(c.sum, -44.0);
}

// ---------------------------------------------------------------------------------------------------
// Rollout policies.

#[test]
fn truncated_rollouts_score_the_afterstate() {
    let h = Heuristic::standard();
    let after = board("2,4,8,0, 0,0,0,0, 0,0,0,0, 0,0,0,0");
    let pending = G2048State { board: after, spawn_pending: true };
    let d0 = G2048Policy::with_rollout(RolloutPolicy { epsilon: 0.0, depth: Some(0), leaf_depth: 0 });
    assert_eq!(d0.rollout_value(&pending, &mut seeded(1, 0)), f64::from(h.evaluate(&after)));
    // From a position to move, depth 0 plays the greedy move and scores its afterstate.
    let pos = board("2,2,8,0, 0,0,0,0, 0,0,0,0, 0,0,0,0");
    let best = Dir::ALL
        .iter()
        .filter_map(|&d| pos.shift(d))
        .map(|(a, gain)| gain as f32 + h.evaluate(&a))
        .fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(d0.rollout_value(&G2048State::from_board(pos), &mut seeded(1, 0)), f64::from(best));
    // With a lookahead, the pending afterstate is scored by the expectimax value.
    let l1 = G2048Policy::with_rollout(RolloutPolicy { epsilon: 0.0, depth: Some(0), leaf_depth: 1 });
    let want = afterstate_value(h, &after, 1, expectimax::DEFAULT_PROB_CUTOFF);
    assert_eq!(l1.rollout_value(&pending, &mut seeded(1, 0)), f64::from(want));
}

#[test]
fn a_lost_game_is_worth_nothing_and_rollouts_are_reproducible() {
    let dead = G2048State::from_board(board("4,8,2,4, 2,4,8,16, 16,128,64,128, 2,8,2,8"));
    for policy in [
        RolloutPolicy::RANDOM,
        RolloutPolicy::TUNED,
        RolloutPolicy { epsilon: 0.2, depth: None, leaf_depth: 0 },
        RolloutPolicy { epsilon: 0.2, depth: Some(5), leaf_depth: 1 },
    ] {
        let g = G2048Policy::with_rollout(policy);
        assert_eq!(g.rollout_value(&dead, &mut seeded(3, 0)), 0.0, "{policy:?}");
        let s = G2048State::from_board(board("2,0,0,2, 0,4,0,0, 0,0,8,0, 0,0,0,2"));
        let a = g.rollout(&G2048, &s, &mut seeded(7, 1), &mut Vec::new());
        let b = g.rollout(&G2048, &s, &mut seeded(7, 1), &mut Vec::new());
        assert_eq!(a, b, "{policy:?}");
        assert!(a[0] > 0.0);
    }
}

#[test]
fn greedy_rollouts_outscore_random_ones() {
    let start = G2048State::from_board(board("2,0,0,2, 0,0,0,0, 0,0,0,0, 0,0,0,0"));
    let mean = |g: &G2048Policy| -> f64 {
        let mut rng = seeded(11, 0);
        (0..40).map(|_| g.rollout_value(&start, &mut rng)).sum::<f64>() / 40.0
    };
    let random = mean(&G2048Policy::default());
    let greedy = mean(&G2048Policy::with_rollout(RolloutPolicy { epsilon: 0.0, depth: None, leaf_depth: 0 }));
    assert!(greedy > 2.0 * random, "greedy {greedy} random {random}");
}

// ---------------------------------------------------------------------------------------------------
// Expectimax.

const BOARDS: [&str; 4] = [
    "0,0,2,4, 0,2,8,16, 2,4,32,64, 8,16,128,512",
    "2,0,0,0, 4,2,0,0, 8,16,4,0, 256,64,32,8",
    "0,0,0,0, 0,0,2,0, 0,4,0,0, 2,0,0,0",
    "2,8,2,2, 8,2,32,4, 4,32,4,8, 2,4,8,4",
];

#[test]
fn the_cache_gives_exactly_the_uncached_values() {
    let h = Heuristic::standard();
    for cutoff in [expectimax::DEFAULT_PROB_CUTOFF, 0.0, 0.01] {
        let mut cached = Expectimax::new(1 << 16);
        let mut tiny = Expectimax::new(16); // collisions overwrite entries
        let mut plain = Expectimax::new(0);
        for text in BOARDS {
            let b = board(text);
            for depth in 1..=3 {
                for dir in Dir::ALL {
                    let reference = plain.move_value(&b, dir, depth, cutoff, false);
                    let Some(after) = b.shift(dir).map(|x| x.0) else {
                        assert_eq!(reference, None);
                        continue;
                    };
                    let free = f64::from(afterstate_value(h, &after, depth - 1, cutoff));
                    assert_eq!(reference, Some(free), "{text} {dir} depth {depth}");
                    // Twice: the second time answers from the warm cache.
                    for _ in 0..2 {
                        assert_eq!(cached.move_value(&b, dir, depth, cutoff, true), reference, "{text} {dir} {depth}");
                        assert_eq!(tiny.move_value(&b, dir, depth, cutoff, true), reference, "{text} {dir} {depth}");
                    }
                }
            }
        }
    }
}

#[test]
fn search_reports_the_values_of_the_legal_moves() {
    let mut s = Expectimax::new(1 << 16);
    let b = board(BOARDS[1]);
    let r = s.search(&b, &Limits { depth: Some(2), ..Limits::default() });
    assert_eq!(r.depth, 2);
    let legal = b.legal_dirs();
    for d in Dir::ALL {
        assert_eq!(r.values[d.index()].is_some(), legal.contains(d));
        if let Some(v) = r.values[d.index()] {
            assert_eq!(Some(v), s.move_value(&b, d, 2, expectimax::DEFAULT_PROB_CUTOFF, false));
        }
    }
    let best = r.best.unwrap();
    assert!(Dir::ALL.iter().all(|d| r.values[d.index()].unwrap_or(f64::MIN) <= r.values[best.index()].unwrap()));
    // With a time limit the search deepens and returns a legal move; the answer never depends on timing
    // being fast, only on the move being legal.
    let t = s.search(&b, &Limits { time_ms: Some(5), ..Limits::default() });
    assert!(t.depth >= 1 && legal.contains(t.best.unwrap()));
    // No legal move: no best move.
    let dead = board("4,8,2,4, 2,4,8,16, 16,128,64,128, 2,8,2,8");
    assert_eq!(s.search(&dead, &Limits::default()).best, None);
}

#[test]
fn threads_give_the_values_of_one_thread() {
    let h = Heuristic::standard();
    for text in BOARDS {
        let b = board(text);
        for depth in 1..=3 {
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let one = Expectimax::new(1 << 12).search(&b, &limits);
            let mut par = ParallelExpectimax::new(h, 3, 1 << 12);
            assert_eq!(par.threads(), 3);
            let many = par.search(&b, &limits);
            assert_eq!(many.values, one.values, "{text} depth {depth}");
            assert_eq!((many.best, many.depth), (one.best, one.depth));
        }
    }
}

#[test]
fn fixed_depth_follows_the_distinct_tiles() {
    assert_eq!(depth_for(&board("2,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,2")), 4);
    assert_eq!(depth_for(&board("2,4,8,16, 32,64,128,256, 0,0,0,0, 0,0,0,0")), 7);
}

// ---------------------------------------------------------------------------------------------------
// Agents.

/// (board, safe move) from tests/data/2048-safe-move.tsv.
fn safe_move_boards() -> Vec<(Board, Dir)> {
    include_str!("../../tests/data/2048-safe-move.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (board(f[0]), f[1].parse().unwrap())
        })
        .collect()
}

fn config(kind: AgentKind, playouts: u64) -> AgentConfig {
    let mut c = AgentConfig::new(kind);
    c.search = SearchParams { playouts: Some(playouts), threads: 1, seed: 5, ..c.search };
    c.cache_slots = 1 << 16;
    c
}

#[test]
fn every_searching_agent_picks_the_safe_move() {
    let boards = safe_move_boards();
    assert_eq!(boards.len(), 4);
    for kind in [AgentKind::Mcts, AgentKind::Expectimax, AgentKind::Flat] {
        let mut agent = Agent::new(config(kind, 20_000));
        for (b, safe) in &boards {
            let d = agent.decide(b, 9);
            assert_eq!(d.best, Some(*safe), "{kind} on {b:?}: {:?}", d.moves);
        }
    }
}

#[test]
fn agents_choose_legal_moves_and_report_every_legal_move() {
    let b = board(BOARDS[0]);
    let legal = b.legal_dirs();
    for kind in AgentKind::ALL {
        let mut agent = Agent::new(config(kind, 400));
        let d = agent.decide(&b, 1);
        assert!(legal.contains(d.best.unwrap()), "{kind}");
        assert_eq!(d.moves.iter().map(|m| m.dir).collect::<Vec<_>>(), legal.iter().collect::<Vec<_>>(), "{kind}");
        match kind {
            AgentKind::Mcts | AgentKind::Flat => assert_eq!(d.work, 400, "{kind}"),
            AgentKind::Random => assert!(d.moves.iter().all(|m| m.value.is_none())),
            _ => assert!(d.moves.iter().all(|m| m.value.is_some()), "{kind}"),
        }
    }
}

#[test]
fn flat_splits_the_rollouts_over_the_moves() {
    let b = board(BOARDS[1]);
    let params = SearchParams { playouts: Some(301), threads: 2, ..SearchParams::default() };
    let (means, counts) = flat(&G2048Policy::default(), &b, &params, 3);
    let legal: Vec<Dir> = b.legal_dirs().iter().collect();
    assert_eq!(counts.iter().sum::<u64>(), 301);
    for d in Dir::ALL {
        assert_eq!(counts[d.index()] > 0, legal.contains(&d));
        assert!(means[d.index()] >= 0.0);
    }
}

#[test]
fn flat_values_every_move_even_without_time() {
    // A 1 ms budget on a busy machine may pass before the threads start: one round is still played.
    let b = board(BOARDS[2]);
    let params = SearchParams { playouts: None, time_ms: Some(1), threads: 2, ..SearchParams::default() };
    let (_, counts) = flat(&G2048Policy::default(), &b, &params, 3);
    for d in b.legal_dirs().iter() {
        assert!(counts[d.index()] >= 1, "{d}: {counts:?}");
    }
}

#[test]
fn a_game_ends_with_the_record_of_its_moves() {
    let mut agent = Agent::new(config(AgentKind::Greedy, 1));
    let r = canopy_mcts::games::g2048::agents::play(&mut agent, 4, |_, _| {});
    assert!(r.finished && r.total_moves() > 50 && r.returns[0] > 0.0);
    assert!(r.last.board.legal_dirs().is_empty());
    // The score is the sum of the merges, move by move.
    let merges: f64 = r.steps.iter().map(|s| if let Step::Move { reward, .. } = s { *reward } else { 0.0 }).sum();
    assert_eq!(merges, r.returns[0]);
    // Same seed, same agent: the same game.
    let again = canopy_mcts::games::g2048::agents::play(&mut agent, 4, |_, _| {});
    assert_eq!((again.returns, again.total_moves()), (r.returns, r.total_moves()));
    assert_eq!(again.actions().collect::<Vec<_>>(), r.actions().collect::<Vec<_>>());
}

#[test]
fn priors_are_a_softmax_of_the_moves_afterstate_values() {
    let board: Board = "0,0,2,4,0,2,8,16,2,4,32,64,8,16,128,512".parse().unwrap();
    let state = G2048State { board, spawn_pending: false };
    let mut actions = Vec::new();
    canopy_mcts::Game::legal_actions(&G2048, &state, &mut actions);
    assert!(actions.len() >= 2, "{actions:?}");
    let mut out = Vec::new();
    // No temperature: no priors.
    assert!(!G2048Policy::default().priors(&G2048, &state, &actions, &mut out));
    let value = |d: Dir| {
        let (after, gain) = board.afterstate(d);
        gain as f32 + G2048Policy::default().evaluation.evaluate(&after)
    };
    let top = actions.iter().map(|&d| value(d)).fold(f32::NEG_INFINITY, f32::max);
    for t in [0.001, 0.01, 0.1] {
        let policy = G2048Policy { prior_temperature: t, ..G2048Policy::default() };
        assert!(policy.priors(&G2048, &state, &actions, &mut out));
        assert_eq!(out.len(), actions.len());
        for (&d, &w) in actions.iter().zip(&out) {
            let expected = ((value(d) - top) / (t as f32 * top.abs().max(1.0))).exp();
            assert!((w - expected).abs() <= 1e-6 * expected.max(1e-30), "{d:?} at {t}: {w} vs {expected}");
            assert!(w > 0.0 || value(d) < top, "only worse moves may underflow to 0");
        }
        // The best move has the weight 1, the largest.
        assert!(out.contains(&1.0) && out.iter().all(|&w| w <= 1.0));
    }
}

#[test]
fn a_floor_on_the_normalisations_spread_explores_close_moves() {
    // Two moves within 1% of each other: min/max normalisation stretches their gap over [0, 1] and the
    // search spends nearly everything on one; a spread of at least 5% of the values keeps both in play.
    let board: Board = "0,0,2,4,0,2,8,16,2,4,32,64,8,16,128,512".parse().unwrap();
    let runner_up_share = |min_span: f64| {
        let mut config = AgentConfig::new(AgentKind::Mcts);
        config.search =
            SearchParams { playouts: Some(20_000), threads: 1, pin_threads: false, min_span, ..config.search };
        let d = Agent::new(config).decide(&board, 1);
        let mut visits: Vec<u64> = d.moves.iter().map(|m| m.visits).collect();
        visits.sort_unstable();
        let total: u64 = visits.iter().sum();
        visits[visits.len() - 2] as f64 / total as f64
    };
    let (plain, floored) = (runner_up_share(0.0), runner_up_share(0.05));
    assert!(plain < 0.05, "plain min/max: the runner-up has {plain}");
    assert!(floored > 0.25, "with the floor: the runner-up has {floored}");
}
