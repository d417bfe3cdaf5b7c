//! Snake baselines: the Hamiltonian cycles are valid and fill boards; greedy and tail-following play
//! sensibly (their mean lengths are printed: run with `--nocapture`); the rollout policies are fast enough.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use std::collections::HashSet;
use std::time::Instant;

mod common;

use canopy_mcts::games::snake::{
    greedy, tailfollow, Baseline, Cell, Dir, End, Hamilton, RolloutPolicy, Snake, SnakePolicy, SnakeState,
};
use canopy_mcts::rng::seeded;
use canopy_mcts::{Game, Policy};

#[test]
fn hamilton_cycles_are_valid_on_every_board() {
    for w in 2..=32 {
        for h in 2..=32 {
            let cycle = Hamilton::new(w, h);
            let tour = cycle.tour();
            let odd = w % 2 == 1 && h % 2 == 1;
            assert_eq!(tour.len(), w * h - odd as usize, "{w}x{h}");
            let distinct: HashSet<Cell> = tour.iter().copied().collect();
            assert_eq!(distinct.len(), tour.len(), "{w}x{h}: cells repeat");
            for (i, c) in tour.iter().enumerate() {
                let n = tour[(i + 1) % tour.len()];
                assert!((c.x as usize) < w && (c.y as usize) < h, "{w}x{h}: {c} off board");
                assert_eq!(c.distance(n), 1, "{w}x{h}: {c} -> {n} not adjacent");
            }
            if odd {
                let k = Cell::new(w as u8 - 1, h as u8 - 1);
                assert!(!distinct.contains(&k), "{w}x{h}: the corner is the detour");
                // The tour passes B = (W-1,H-2), M = (W-2,H-2), A = (W-2,H-1) in this order.
                let b = tour.iter().position(|&c| c == Cell::new(w as u8 - 1, h as u8 - 2)).unwrap();
                assert_eq!(tour[(b + 1) % tour.len()], Cell::new(w as u8 - 2, h as u8 - 2));
                assert_eq!(tour[(b + 2) % tour.len()], Cell::new(w as u8 - 2, h as u8 - 1));
            }
        }
    }
}

/// Plays one game of `baseline` from the usual start; returns the final state and the moves played.
fn one_game(game: &Snake, baseline: Baseline, seed: u64) -> (SnakeState, u64) {
    let mut agent = baseline.agent(game.width, game.height);
    let record = common::play_snake(game, &game.start(), seed, u64::MAX, &mut agent);
    let moves = record.total_moves();
    (record.last, moves)
}

#[test]
fn hamilton_fills_even_and_odd_boards() {
    for (w, h, seeds) in [(8, 8, 5), (10, 10, 5), (2, 2, 3), (2, 3, 3), (5, 4, 3), (3, 3, 5), (5, 5, 5), (7, 9, 3)] {
        let game = Snake::new(w, h);
        for seed in 0..seeds {
            let (last, moves) = one_game(&game, Baseline::Hamilton, seed);
            assert_eq!(last.end(), Some(End::Won), "{w}x{h} seed {seed}:\n{last}");
            assert_eq!(last.len(), w * h);
            if seed == 0 {
                println!("hamilton {w}x{h}: won in {moves} moves");
            }
        }
    }
}

/// Mean final length (and moves) of `games` games of `baseline` on `game`'s board.
fn mean_length(game: &Snake, baseline: Baseline, games: u64) -> (f64, f64, Vec<End>) {
    let (mut len, mut moves, mut ends) = (0, 0, Vec::new());
    for seed in 0..games {
        let (last, m) = one_game(game, baseline, 1000 + seed);
        len += last.len();
        moves += m;
        ends.push(last.end().unwrap());
    }
    (len as f64 / games as f64, moves as f64 / games as f64, ends)
}

#[test]
fn baselines_on_8x8() {
    let game = Snake::new(8, 8);
    let games = 20;
    let mut means = Vec::new();
    for baseline in [Baseline::RandomSafe, Baseline::Greedy, Baseline::TailFollow, Baseline::Hamilton] {
        let t = Instant::now();
        let (len, moves, ends) = mean_length(&game, baseline, games);
        let count = |e: End| ends.iter().filter(|&&x| x == e).count();
        println!(
            "8x8 {:10} mean length {len:5.1} mean moves {moves:7.0} over {games} games \
             (won {}, body {}, wall {}, starved {}) {:.2}s",
            baseline.name(),
            count(End::Won),
            count(End::Body),
            count(End::Wall),
            count(End::Starved),
            t.elapsed().as_secs_f64()
        );
        means.push(len);
    }
    assert!(means[1] > means[0], "greedy beats random: {means:?}");
    assert!(means[2] > means[1], "tail-following beats greedy: {means:?}");
    assert_eq!(means[3], 64.0, "hamilton always fills 8x8");
}

#[test]
fn greedy_takes_the_bait_and_tailfollow_avoids_the_trap() {
    let game = Snake::new(4, 4);
    let mut rng = seeded(0, 0);
    // Food straight ahead on an open board: both go for it.
    let s: SnakeState = "6x6 body=2,2 1,2 food=4,2".parse().unwrap();
    assert_eq!(greedy(&s, &mut rng), Dir::Right);
    assert_eq!(tailfollow(&s, &mut rng), Dir::Right);
    // The food sits in the top-left corner, walled in by the snake's own neck: eating it leaves the head
    // with no move but into the body. Greedy eats; tail-following goes down, toward its tail.
    //   F o o o
    //   @ o . o
    //   . . . o
    //   . . . o   (tail at 3,3)
    let s: SnakeState = "4x4 body=0,1 1,1 1,0 2,0 3,0 3,1 3,2 3,3 food=0,0".parse().unwrap();
    assert_eq!(greedy(&s, &mut rng), Dir::Up);
    assert_eq!(tailfollow(&s, &mut rng), Dir::Down);
    let mut t = s.clone();
    game.apply(&mut t, Dir::Up);
    game.apply_outcome(&mut t, Cell::new(2, 2));
    assert!(Dir::ALL.iter().all(|&d| !t.is_safe(d)), "greedy is trapped:\n{t}");
}

/// Prints rollouts per second (a measurement, not a check: the machine may be shared).
#[test]
fn rollout_speed() {
    for (w, h) in [(10, 10), (20, 20)] {
        let game = Snake::new(w, h);
        let base = SnakePolicy::new(w, h);
        let capped = (4 * w * h) as u32;
        for (policy, rollouts) in [
            (SnakePolicy { rollout: RolloutPolicy::RandomSafe, ..base }, 20_000),
            (SnakePolicy { rollout: RolloutPolicy::TailFollow, ..base }, 200),
            (SnakePolicy { rollout: RolloutPolicy::TailFollow, rollout_max_moves: capped, ..base }, 1_000),
        ] {
            let mut rng = seeded(9, 0);
            let starts: Vec<SnakeState> = (0..50).map(|_| game.new_game(&mut rng)).collect();
            let t = Instant::now();
            let mut total = 0.0;
            for i in 0..rollouts {
                total += policy.rollout(&game, &starts[i % starts.len()], &mut rng, &mut Vec::new())[0];
            }
            let secs = t.elapsed().as_secs_f64();
            println!(
                "{w}x{h} {:?} max moves {}: {:.0} rollouts/s, mean return {:.2}",
                policy.rollout,
                policy.rollout_max_moves,
                rollouts as f64 / secs,
                total / rollouts as f64
            );
        }
    }
}
