//! 2048 move generation and rollout speed.
//!
//! `shift_all_dirs`: [`Board::shift`] in all four directions over a fixed set of positions (taken from
//! seeded random games), counted per move; `shift_all_dirs_65536`: the same with a 65536 tile on each
//! board (the line-by-line path for big tiles). `legal_dirs`: the legal-move mask, counted per position.
//! `rollout`: one uniform-random playout to the end from a fixed start position, counted per rollout.
//! `evaluate`: the 2048 evaluation function, per board. `rollout_truncated_d1`, `rollout_truncated_d1_leaf1`,
//! `rollout_egreedy_end`: rollouts of the MCTS policies from afterstates of the benchmark positions.
//!
//! Run: `cargo bench --bench movegen` (add `-- --warm-up-time 1 --measurement-time 3` for a quick look).

use std::hint::black_box;

use canopy_mcts::games::fixtures;
use canopy_mcts::games::g2048::eval::Heuristic;
use canopy_mcts::games::g2048::{Board, Dir, G2048Policy, G2048State, RolloutPolicy, G2048};
use canopy_mcts::rng::seeded;
use canopy_mcts::Policy;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Number of benchmark positions.
const POSITIONS: usize = 4096;

/// Positions met in seeded uniform-random games (every position of as many games as needed).
fn positions() -> Vec<Board> {
    fixtures::g2048_played_boards(POSITIONS, 2048)
}

/// Every board shifted in all four directions; a checksum of the results (so nothing is optimised away).
fn shift_all(boards: &[Board]) -> u64 {
    let mut acc = 0u64;
    for &b in boards {
        for d in Dir::ALL {
            if let Some((after, score)) = black_box(b).shift(d) {
                acc = acc.wrapping_add(after.empty_count() as u64 + score as u64);
            }
        }
    }
    acc
}

fn movegen(c: &mut Criterion) {
    let boards = positions();
    // Count the legal moves once, so a change in the rules shows up as a changed count, not only a time.
    let legal: usize = boards.iter().map(|b| Dir::ALL.iter().filter(|&&d| b.shift(d).is_some()).count()).sum();
    println!("{} positions, {} legal moves of {}", boards.len(), legal, 4 * boards.len());

    let mut group = c.benchmark_group("g2048");
    group.throughput(Throughput::Elements(4 * boards.len() as u64));
    group.bench_function("shift_all_dirs", |bench| bench.iter(|| shift_all(&boards)));
    // The same positions with their largest tile replaced by a 65536: the line-by-line path.
    let big: Vec<Board> = boards
        .iter()
        .map(|b| {
            let cell = (0..16).max_by_key(|&c| b.exponent(c)).unwrap();
            b.with_tile(cell, 16)
        })
        .collect();
    group.bench_function("shift_all_dirs_65536", |bench| bench.iter(|| shift_all(&big)));
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("legal_dirs", |bench| {
        bench.iter(|| boards.iter().map(|b| black_box(b).legal_dirs().bits() as u64).sum::<u64>())
    });

    let start = G2048State::new_game(&mut seeded(1, 0));
    let mut rng = seeded(7, 0);
    let mut scratch = Vec::new();
    group.throughput(Throughput::Elements(1));
    group.bench_function("rollout", |bench| {
        bench.iter(|| G2048Policy::default().rollout(&G2048, black_box(&start), &mut rng, &mut scratch))
    });

    // The evaluation (eight table lookups), counted per board.
    let h = Heuristic::standard();
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("evaluate", |bench| {
        bench.iter(|| boards.iter().map(|b| f64::from(h.evaluate(black_box(b)))).sum::<f64>())
    });

    // Rollouts of the MCTS policies from the afterstates of the benchmark positions, counted per rollout.
    let afters: Vec<G2048State> = boards
        .iter()
        .filter_map(|b| b.legal_dirs().iter().next().map(|d| b.afterstate(d).0))
        .map(|board| G2048State { board, spawn_pending: true })
        .take(256)
        .collect();
    for (name, policy) in [
        ("rollout_truncated_d1", RolloutPolicy { epsilon: 0.0, depth: Some(1), leaf_depth: 0 }),
        ("rollout_truncated_d1_leaf1", RolloutPolicy { epsilon: 0.0, depth: Some(1), leaf_depth: 1 }),
        ("rollout_egreedy_end", RolloutPolicy { epsilon: 0.2, depth: None, leaf_depth: 0 }),
    ] {
        let g = G2048Policy::with_rollout(policy);
        group.throughput(Throughput::Elements(afters.len() as u64));
        group.bench_function(name, |bench| {
            bench.iter(|| afters.iter().map(|s| g.rollout_value(black_box(s), &mut rng)).sum::<f64>())
        });
    }
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
