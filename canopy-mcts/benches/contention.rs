//! The costs of the tree's shared writes, the inputs of the contention model in docs/BENCHMARKS.md
//! ("Contention model"):
//!
//! - `contention/fetch_add_private`: one `fetch_add` on a cache line only this thread touches (the
//!   atomic's own cost, the line in the core's cache);
//! - `contention/f64_add_private`: the same for the `AtomicF64` add (a compare-exchange loop) of a node's
//!   value sum;
//! - `contention/fetch_add_shared_2t`: two threads pinned to two cores both `fetch_add` the same line,
//!   as two workers on a hot root edge do; the time is per operation of one thread;
//! - `contention/f64_add_shared_2t`: the same with the `AtomicF64` add;
//! - `contention/line_transfer`: two threads take turns writing one line and waiting for the other's
//!   write (ping-pong); the time is per hand-over, one cache-line transfer between the cores: `c_x`.
//!
//! Run: `cargo bench -p canopy-mcts --bench contention` (about a minute). On a loaded machine the
//! shared and transfer figures include waits for a descheduled partner and are upper bounds.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use atomic_float::AtomicF64;
use canopy_mcts::search::{line_handover_secs, pin_to_worker_core};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use crossbeam_utils::CachePadded;

/// Runs `op` `iters` times on each of two threads pinned to cores 0 and 1, started together; returns
/// the slower thread's time.
fn two_threads(iters: u64, op: &(impl Fn() + Sync)) -> Duration {
    let barrier = Barrier::new(2);
    std::thread::scope(|s| {
        let run = |core: usize| {
            let barrier = &barrier;
            s.spawn(move || {
                pin_to_worker_core(core);
                barrier.wait();
                let t = Instant::now();
                for _ in 0..iters {
                    op();
                }
                t.elapsed()
            })
        };
        let (a, b) = (run(0), run(1));
        a.join().expect("bench thread").max(b.join().expect("bench thread"))
    })
}

fn contention(c: &mut Criterion) {
    let mut group = c.benchmark_group("contention");
    group.throughput(Throughput::Elements(1));
    let counter = CachePadded::new(AtomicU64::new(0));
    let sum = CachePadded::new(AtomicF64::new(0.0));
    group.bench_function("fetch_add_private", |b| b.iter(|| counter.fetch_add(1, Ordering::Relaxed)));
    group.bench_function("f64_add_private", |b| b.iter(|| sum.fetch_add(black_box(0.5), Ordering::Relaxed)));
    group.bench_function("fetch_add_shared_2t", |b| {
        b.iter_custom(|iters| {
            two_threads(iters, &|| {
                counter.fetch_add(1, Ordering::Relaxed);
            })
        })
    });
    group.bench_function("f64_add_shared_2t", |b| {
        b.iter_custom(|iters| {
            two_threads(iters, &|| {
                sum.fetch_add(black_box(0.5), Ordering::Relaxed);
            })
        })
    });
    // Ping-pong: the two threads take turns incrementing one counter.
    group.bench_function("line_transfer", |b| {
        b.iter_custom(|iters| Duration::from_secs_f64(line_handover_secs(iters.max(1) * 2, true) / 2.0))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = contention
}
criterion_main!(benches);
