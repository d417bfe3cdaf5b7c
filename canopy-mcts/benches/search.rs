//! Search throughput and transposition-table speed.
//!
//! `search/g2048_*`: one whole search of a fixed playout count from fixed 2048 positions with a fixed seed,
//! at 1 and 2 threads, counted in playouts (criterion's `elem/s` is playouts per second). The one-thread
//! node count is printed first: it must not change unless the search itself changes.
//! `search/snake_*`: the same on `canopy bench --game snake`'s eight-cell snake (10x10).
//! `search/gomoku9_empty_*`: the same on `canopy bench --game gomoku --size 9`'s empty board with its
//! default (uniform) rollouts: wide nodes (every selection scores dozens of children).
//! `search/gomoku9_empty_{1,2}t_bench`, `search/gomoku15_middle_{1,2}t_bench`: one and two threads with
//! `canopy bench`'s own settings (no solver, `edge` statistics) on its Gomoku 9x9 empty board and 15x15
//! middle game.
//! `search/synthetic_root_*`: the same on the root of `canopy bench --game synthetic`'s tree (branching 8,
//! depth 12, a constant-time evaluation): the tree's own cost per playout.
//! Every search bench runs with the default node statistics (UCT2) and, named `..._edge`, with
//! `Statistics::Edge` (UCT1), so that one run compares the two.
//! `tt/*`: insert and probe of 65 536 distinct keys into a table of 131 072 slots (half full), counted per
//! key. The number of keys the table keeps (linear probing gives up after 8 occupied slots) is printed.
//!
//! Run: `cargo bench --bench search` (add `-- --warm-up-time 1 --measurement-time 5` for a quick look).
//! `canopy bench` reports the same search figures as a table with speedup and efficiency.

use std::hint::black_box;

use canopy_mcts::games::fixtures;
use canopy_mcts::games::g2048::{G2048Policy, G2048};
use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, RolloutPolicy as GomokuRollout, Rule};
use canopy_mcts::games::mix64;
use canopy_mcts::games::snake::{Snake, SnakePolicy};
use canopy_mcts::games::synthetic::{Synthetic, SyntheticPolicy};
use canopy_mcts::games::tictactoe::TicTacToe;
use canopy_mcts::internals::{Lookup, TranspositionTable, Vacancy};
use canopy_mcts::internals::{Node, NodeKind};
use canopy_mcts::search::{Search, SearchParams, Statistics};
use criterion::{criterion_group, BatchSize, Criterion, Throughput};

/// Playouts per 2048 search.
const PLAYOUTS_2048: u64 = 20_000;
/// Playouts per Snake search.
const PLAYOUTS_SNAKE: u64 = 20_000;
/// Playouts per Gomoku 9x9 search.
const PLAYOUTS_GOMOKU: u64 = 20_000;
/// Playouts per Gomoku 15x15 search (`canopy bench`'s count there).
const PLAYOUTS_GOMOKU15: u64 = 10_000;
/// Playouts per tic-tac-toe search.
const PLAYOUTS_TICTACTOE: u64 = 50_000;
/// Playouts per synthetic-tree search.
const PLAYOUTS_SYNTHETIC: u64 = 100_000;
/// Keys inserted into and probed from the transposition table.
const KEYS: usize = 1 << 16;

/// The statistics the search benches run with, and the suffix of their names.
const STATISTICS: [(&str, Statistics); 2] = [("", Statistics::Node), ("_edge", Statistics::Edge)];

fn params(playouts: u64, threads: usize) -> SearchParams {
    SearchParams { playouts: Some(playouts), threads, seed: 1, ..SearchParams::default() }
}

/// [`params`] with `statistics`.
fn params_with(playouts: u64, threads: usize, statistics: Statistics) -> SearchParams {
    SearchParams { statistics, ..params(playouts, threads) }
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    // Two of the positions of `canopy bench --game 2048`.
    for fixture in fixtures::g2048().into_iter().filter(|f| f.name != "early") {
        let (name, root) = (fixture.name, fixture.state);
        let nodes = Search::with_policy(&G2048, &G2048Policy::default(), params(PLAYOUTS_2048, 1)).run(&root).nodes;
        println!("2048 {name}: {PLAYOUTS_2048} playouts, 1 thread, seed 1: {nodes} nodes");
        group.throughput(Throughput::Elements(PLAYOUTS_2048));
        for threads in [1, 2] {
            for (tag, st) in STATISTICS {
                group.bench_function(format!("g2048_{name}_{threads}t{tag}"), |b| {
                    b.iter(|| {
                        Search::with_policy(&G2048, &G2048Policy::default(), params_with(PLAYOUTS_2048, threads, st))
                            .run(black_box(&root))
                            .playouts
                    })
                });
            }
        }
    }
    // The eight-cell snake of `canopy bench --game snake` (10x10): a food-spawn chance node under the root's
    // busy move, where outcome affinity keeps two workers in different subtrees.
    let game = Snake::new(10, 10);
    let policy = SnakePolicy::new(10, 10);
    let fixture = fixtures::snake(10).into_iter().last().expect("a snake fixture");
    let (name, root) = (fixture.name, fixture.state);
    let nodes = Search::with_policy(&game, &policy, params(PLAYOUTS_SNAKE, 1)).run(&root).nodes;
    println!("snake {name}: {PLAYOUTS_SNAKE} playouts, 1 thread, seed 1: {nodes} nodes");
    group.throughput(Throughput::Elements(PLAYOUTS_SNAKE));
    for threads in [1, 2] {
        for (tag, st) in STATISTICS {
            group.bench_function(format!("snake_{name}_{threads}t{tag}"), |b| {
                b.iter(|| {
                    Search::with_policy(&game, &policy, params_with(PLAYOUTS_SNAKE, threads, st))
                        .run(black_box(&root))
                        .playouts
                })
            });
        }
    }
    // `canopy bench --game gomoku --size 9`'s empty board, uniform rollouts.
    let game = Gomoku::new(9, Rule::Freestyle);
    let policy = GomokuPolicy::default().with_rollout_policy(GomokuRollout::Uniform);
    let root = fixtures::gomoku(&game).into_iter().find(|f| f.name == "empty").expect("the empty board").state;
    let nodes = Search::with_policy(&game, &policy, params(PLAYOUTS_GOMOKU, 1)).run(&root).nodes;
    println!("gomoku 9x9 empty: {PLAYOUTS_GOMOKU} playouts, 1 thread, seed 1: {nodes} nodes");
    group.throughput(Throughput::Elements(PLAYOUTS_GOMOKU));
    for threads in [1, 2] {
        for (tag, st) in STATISTICS {
            group.bench_function(format!("gomoku9_empty_{threads}t{tag}"), |b| {
                b.iter(|| {
                    Search::with_policy(&game, &policy, params_with(PLAYOUTS_GOMOKU, threads, st))
                        .run(black_box(&root))
                        .playouts
                })
            });
        }
    }
    // `canopy bench`'s own settings (no solver, `edge` statistics) on its Gomoku 9x9 empty board and
    // 15x15 middle game: the searches whose wide nodes the one-worker score cache serves (one thread)
    // and whose selections read the edges once (two threads).
    for (size, name, playouts) in [(9, "empty", PLAYOUTS_GOMOKU), (15, "middle", PLAYOUTS_GOMOKU15)] {
        let game = Gomoku::new(size, Rule::Freestyle);
        let root = fixtures::gomoku(&game).into_iter().find(|f| f.name == name).expect("a bench position").state;
        let bench = SearchParams { solver: false, ..params_with(playouts, 1, Statistics::Edge) };
        let nodes = Search::with_policy(&game, &policy, bench.clone()).run(&root).nodes;
        println!("gomoku {size}x{size} {name}, canopy bench's settings: {playouts} playouts, seed 1: {nodes} nodes");
        group.throughput(Throughput::Elements(playouts));
        for threads in [1, 2] {
            let bench = SearchParams { threads, ..bench.clone() };
            group.bench_function(format!("gomoku{size}_{name}_{threads}t_bench"), |b| {
                b.iter(|| Search::with_policy(&game, &policy, bench.clone()).run(black_box(&root)).playouts)
            });
        }
    }
    let root = fixtures::tictactoe().into_iter().find(|f| f.name == "empty").expect("the empty board").state;
    group.throughput(Throughput::Elements(PLAYOUTS_TICTACTOE));
    for threads in [1, 2] {
        for (tag, st) in STATISTICS {
            group.bench_function(format!("tictactoe_empty_{threads}t{tag}"), |b| {
                b.iter(|| {
                    Search::new(&TicTacToe, params_with(PLAYOUTS_TICTACTOE, threads, st)).run(black_box(&root)).playouts
                })
            });
        }
    }
    // The tree's own cost: `canopy bench --game synthetic`'s tree (branching 8, depth 12).
    let game = Synthetic::new(8, 12).expect("a valid shape");
    let root = game.start();
    let nodes = Search::with_policy(&game, &SyntheticPolicy, params(PLAYOUTS_SYNTHETIC, 1)).run(&root).nodes;
    println!("synthetic root: {PLAYOUTS_SYNTHETIC} playouts, 1 thread, seed 1: {nodes} nodes");
    group.throughput(Throughput::Elements(PLAYOUTS_SYNTHETIC));
    for threads in [1, 2] {
        for (tag, st) in STATISTICS {
            group.bench_function(format!("synthetic_root_{threads}t{tag}"), |b| {
                b.iter(|| {
                    Search::with_policy(&game, &SyntheticPolicy, params_with(PLAYOUTS_SYNTHETIC, threads, st))
                        .run(black_box(&root))
                        .playouts
                })
            });
        }
    }
    group.finish();
}

fn table(c: &mut Criterion) {
    let keys: Vec<u64> = (0..KEYS as u64).map(|i| mix64(i + 1)).collect();
    let missing: Vec<u64> = (0..KEYS as u64).map(|i| mix64(i + 1 + KEYS as u64)).collect();
    let mut nodes: Vec<Node<u8>> = keys.iter().map(|&k| Node::new(NodeKind::Decision, 0, k)).collect();
    let base = nodes.as_mut_ptr();
    let fill = |t: &TranspositionTable<u8>| {
        let mut hits = 0;
        for (i, &k) in keys.iter().enumerate() {
            // SAFETY: [I6] the nodes are fully built, never moved (the vector is not resized) and outlive
            // every table of this bench.
            if let Lookup::Hit(_) = unsafe { t.get_or_insert(k, base.add(i)) } {
                hits += 1;
            }
        }
        hits
    };
    let full = TranspositionTable::<u8>::with_slots(2 * KEYS);
    assert_eq!(fill(&full), 0, "distinct keys never hit");
    let stored = keys.iter().filter(|&&k| full.probe(k).is_some()).count();
    let false_hits = missing.iter().filter(|&&k| full.probe(k).is_some()).count();
    println!("table {} slots: {stored} of {KEYS} keys stored, {false_hits} hits for absent keys", full.capacity());
    assert_eq!(false_hits, 0);

    let mut group = c.benchmark_group("tt");
    group.throughput(Throughput::Elements(KEYS as u64));
    group.bench_function("insert", |b| {
        // The table is built and dropped outside the timed routine.
        b.iter_batched_ref(|| TranspositionTable::<u8>::with_slots(2 * KEYS), |t| fill(t), BatchSize::LargeInput)
    });
    group.bench_function("probe_hit", |b| {
        b.iter(|| keys.iter().filter(|&&k| full.probe(black_box(k)).is_some()).count())
    });
    group.bench_function("probe_miss", |b| {
        b.iter(|| missing.iter().filter(|&&k| full.probe(black_box(k)).is_some()).count())
    });
    group.bench_function("get_or_insert_hit", |b| b.iter(|| fill(&full)));
    // A search with one worker: one probe walk that finds the vacant slot, then two plain stores ([I13]).
    let fill_exclusive = |t: &TranspositionTable<u8>| {
        let mut hits = 0;
        for (i, &k) in keys.iter().enumerate() {
            match t.probe_exclusive(k) {
                // SAFETY: [I6] as in `fill`; [I13] this thread is the table's only writer.
                Vacancy::Vacant(slot) => unsafe { t.insert_exclusive(slot, k, base.add(i)) },
                Vacancy::Hit(_) => hits += 1,
                Vacancy::Full => {}
            }
        }
        hits
    };
    group.bench_function("insert_exclusive", |b| {
        b.iter_batched_ref(
            || TranspositionTable::<u8>::with_slots(2 * KEYS),
            |t| fill_exclusive(t),
            BatchSize::LargeInput,
        )
    });
    group.finish();
    drop(full);
    drop(nodes);
}

criterion_group!(benches, search, table);

/// `criterion_main!`'s work, after fixing glibc's allocation thresholds (`canopy_mcts::keep_freed_memory`): every bench
/// iteration builds and frees a tree, and with the thresholds left to glibc whether the next one faults
/// that memory in again depends on the order of the process's allocations, which differs from build to
/// build (docs/BENCHMARKS.md).
fn main() {
    // SAFETY: [I15] the first statement of `main`: no other thread has been started yet.
    unsafe { canopy_mcts::keep_freed_memory() };
    benches();
    Criterion::default().configure_from_args().final_summary();
}
