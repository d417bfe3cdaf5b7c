//! Gomoku throughput: [`GomokuPolicy`]'s rollouts from the empty 9x9 and 15x15 boards and from a 15x15
//! middle game, and its candidate generation. One rollout per iteration, fixed seeds; criterion prints rollouts per second
//! as `elem/s`.
//!
//! Run: `cargo bench --bench gomoku`.

use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, Rule};
use canopy_mcts::rng::seeded;
use canopy_mcts::Policy;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// A 15x15 middle-game position (20 stones) for the rollout and candidate benches.
const MIDDLE: &str = "7,7 8,8 7,8 7,6 8,7 6,7 9,6 6,9 5,8 8,6 9,7 10,7 6,6 5,5 9,9 10,10 4,7 9,8 6,8 8,9";

/// Black's wins in 10 000 rollouts from the empty board with seed 2024: printed so that a change to the
/// rules or the policy shows up as a different count, not only as a different time.
fn black_wins(game: &Gomoku) -> usize {
    let (state, mut rng, mut scratch) = (game.new_game(), seeded(2024, 0), Vec::new());
    let policy = GomokuPolicy::default();
    (0..10_000)
        .filter(|_| {
            let r = policy.rollout(game, &state, &mut rng, &mut scratch);
            assert_eq!(r[0] + r[1], 1.0);
            r[0] == 1.0
        })
        .count()
}

fn rollouts(c: &mut Criterion) {
    for size in [9, 15] {
        let wins = black_wins(&Gomoku::new(size, Rule::Freestyle));
        eprintln!("gomoku {size}x{size} freestyle: black wins {wins} of 10000 seeded rollouts");
    }
    let mut group = c.benchmark_group("gomoku_rollout");
    group.throughput(Throughput::Elements(1));
    let policy = GomokuPolicy::default();
    let cases = [
        ("empty_9x9_freestyle", Gomoku::new(9, Rule::Freestyle), policy, ""),
        ("empty_15x15_freestyle", Gomoku::new(15, Rule::Freestyle), policy, ""),
        ("empty_15x15_standard", Gomoku::new(15, Rule::Standard), policy, ""),
        ("empty_15x15_radius2", Gomoku::new(15, Rule::Freestyle), policy.with_rollout_radius(2), ""),
        ("middle_15x15_freestyle", Gomoku::new(15, Rule::Freestyle), policy, MIDDLE),
    ];
    for (name, game, policy, moves) in cases {
        let state = game.from_moves(moves).expect("bench position");
        let mut rng = seeded(2024, 0);
        let mut scratch = Vec::new();
        group.bench_function(name, |b| b.iter(|| policy.rollout(&game, black_box(&state), &mut rng, &mut scratch)));
    }
    group.finish();
}

fn candidates(c: &mut Criterion) {
    let game = Gomoku::new(15, Rule::Freestyle);
    let state = game.from_moves(MIDDLE).expect("bench position");
    let policy = GomokuPolicy::default();
    let mut out = Vec::new();
    c.bench_function("gomoku_candidates_middle_15x15", |b| {
        b.iter(|| {
            policy.candidates(&game, black_box(&state), &mut out);
            out.len()
        })
    });
}

criterion_group!(benches, rollouts, candidates);
criterion_main!(benches);
