//! Re-rooting a kept search tree ([`Session::advance`]): the cost of copying the subtree under the move
//! played into fresh memory, for a tree of about a million nodes.
//!
//! `session/advance_1m`: a Gomoku 9x9 position searched for 1 000 000 playouts on one thread (one node
//! per playout: about 1M nodes), then advanced along the best move; only the advance is timed. The tree's
//! and the kept subtree's node counts are printed first.
//!
//! Run: `cargo bench -p canopy-mcts --bench session` (each sample rebuilds the tree: a few seconds each).

use std::time::{Duration, Instant};

use canopy_mcts::games::gomoku::{Gomoku, GomokuState, Rule};
use canopy_mcts::search::{Event, Limits, SearchParams, Session};
use criterion::{criterion_group, criterion_main, Criterion};

/// Playouts that build the tree.
const PLAYOUTS: u64 = 1_000_000;

fn position() -> (Gomoku, GomokuState) {
    let game = Gomoku::try_new(9, Rule::Freestyle).expect("a 9x9 board");
    let state = game.from_moves("4,4 3,3 4,3").expect("legal moves");
    (game, state)
}

/// A session holding a searched tree, and its best move.
fn searched() -> (Session<Gomoku>, canopy_mcts::games::gomoku::Cell) {
    let (game, state) = position();
    let params =
        SearchParams { threads: 1, pin_threads: false, seed: 1, memory_bytes: 2 << 30, ..SearchParams::default() };
    let mut session = Session::new(game, state, params);
    let report = session.search(Limits::playouts(PLAYOUTS));
    (session, report.best.expect("a move"))
}

fn advance(c: &mut Criterion) {
    let (mut session, best) = searched();
    let nodes = session.nodes();
    let kept = session.advance(Event::Action(best)).expect("a legal move");
    println!("tree of {nodes} nodes; the subtree under {best} keeps {} nodes, {} visits", kept.nodes, kept.visits);
    let mut group = c.benchmark_group("session");
    group.sample_size(10).warm_up_time(Duration::from_millis(1)).measurement_time(Duration::from_secs(1));
    group.bench_function("advance_1m", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (mut session, best) = searched();
                let t0 = Instant::now();
                let kept = session.advance(Event::Action(best)).expect("a legal move");
                total += t0.elapsed();
                std::hint::black_box(kept);
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, advance);
criterion_main!(benches);
