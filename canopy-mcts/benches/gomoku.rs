//! Gomoku throughput: [`GomokuPolicy`]'s rollouts from the empty 9x9 and 15x15 boards and from a 15x15
//! middle game, and its candidate generation. One rollout per iteration, fixed seeds; criterion prints rollouts per second
//! as `elem/s`.
//!
//! Run: `cargo bench --bench gomoku`.

use canopy_mcts::games::fixtures;
use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, GomokuState, Rule};
use canopy_mcts::rng::seeded;
use canopy_mcts::Policy;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

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

/// The fixture position `name` of `game`'s board (the positions of `canopy bench --game gomoku`).
fn position(game: &Gomoku, name: &str) -> GomokuState {
    fixtures::gomoku(game).into_iter().find(|f| f.name == name).expect("a fixture of this board").state
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
        ("empty_9x9_freestyle", Gomoku::new(9, Rule::Freestyle), policy, "empty"),
        ("empty_15x15_freestyle", Gomoku::new(15, Rule::Freestyle), policy, "empty"),
        ("empty_15x15_standard", Gomoku::new(15, Rule::Standard), policy, "empty"),
        ("empty_15x15_radius2", Gomoku::new(15, Rule::Freestyle), policy.with_rollout_radius(2), "empty"),
        ("middle_15x15_freestyle", Gomoku::new(15, Rule::Freestyle), policy, "middle"),
    ];
    for (name, game, policy, fixture) in cases {
        let state = position(&game, fixture);
        let mut rng = seeded(2024, 0);
        let mut scratch = Vec::new();
        group.bench_function(name, |b| b.iter(|| policy.rollout(&game, black_box(&state), &mut rng, &mut scratch)));
    }
    group.finish();
}

fn candidates(c: &mut Criterion) {
    let game = Gomoku::new(15, Rule::Freestyle);
    let state = position(&game, "middle");
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
