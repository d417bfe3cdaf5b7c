//! The measurements of `canopy bench`: bare rollouts and searches, best of `--repeat`, on every position
//! at every thread count.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use canopy_mcts::game::{Game, Returns, Turn};
use canopy_mcts::games::fixtures::Fixture;
use canopy_mcts::param::Settings;
use canopy_mcts::policy::{Policy, TimedRollouts};
use canopy_mcts::rng;
use canopy_mcts::search::{tree_layout_bytes, Search, SearchParams};

use super::{
    logical_cores, BenchReport, Config, PositionInfo, PositionRun, PositionSplit, RolloutArg, ThreadResult, Unshared,
    UnsharedPosition,
};

/// Measures `game` searched with `search` (a summary of which is `policy`).
#[allow(clippy::too_many_arguments)]
pub(super) fn bench_game<G: Game, P: Policy<G>>(
    game: &G,
    search: &P,
    name: &'static str,
    size: Option<usize>,
    positions: Vec<Fixture<G::State>>,
    policy: &'static str,
    rollout: RolloutArg,
    cfg: &Config,
) -> BenchReport {
    let mut report = measure(game, search, &positions, cfg);
    report.game = name;
    report.size = size;
    report.rollout = rollout;
    report.rollout_policy = policy;
    report
}

/// Times the bare rollouts and the searches on every position at every thread count.
fn measure<G: Game, P: Policy<G>>(game: &G, policy: &P, positions: &[Fixture<G::State>], cfg: &Config) -> BenchReport {
    let pinned = cfg.params.pin_threads;

    // Bare rollouts: one thread (pinned like search worker 0), the same generator type and seed stream;
    // per position the fastest time and the returns' sum. With 1 in `--threads` they are timed in turn
    // with the one-thread searches, each round's rollouts right before its search, so that both rates
    // (and "vs rollouts", their ratio) come from the same stretch of the machine's time: a machine whose
    // speed changes from minute to minute would otherwise give a ratio of two different machines.
    let time_bare = |p: &Fixture<G::State>, bare: &mut (f64, G::Returns)| {
        let (secs, s) = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    if pinned {
                        canopy_mcts::search::pin_to_worker_core(0);
                    }
                    time_rollouts(game, policy, &p.state, cfg.playouts, cfg.params.seed)
                })
                .join()
                .expect("rollout thread panicked")
        });
        bare.0 = bare.0.min(secs);
        bare.1 = s;
    };
    let mut bare: Vec<(f64, G::Returns)> = positions.iter().map(|_| (f64::INFINITY, G::Returns::zero())).collect();
    let interleaved = cfg.threads.contains(&1);
    if !interleaved {
        for (p, b) in positions.iter().zip(bare.iter_mut()) {
            for _ in 0..cfg.repeat {
                time_bare(p, b);
            }
        }
    }
    let rollouts = cfg.playouts * positions.len() as u64;
    // The positions' bare rollout figures and the rate over all of them, from `bare`.
    let bare_figures = |bare: &[(f64, G::Returns)]| -> (Vec<PositionInfo>, f64, f64) {
        let infos = positions
            .iter()
            .zip(bare)
            .map(|(p, &(secs, sum))| {
                let mover = match game.to_move(&p.state) {
                    Turn::Player(m) => m,
                    _ => 0,
                };
                PositionInfo {
                    name: p.name.to_string(),
                    position: p.text.clone(),
                    rollouts_per_sec: rate(cfg.playouts, secs),
                    rollout_mean_return: sum[mover] / cfg.playouts as f64,
                }
            })
            .collect();
        let secs: f64 = bare.iter().map(|b| b.0).sum();
        (infos, secs, rate(rollouts, secs))
    };

    // One configuration of the searches: `threads` workers; `shared_paths`: one worker on the
    // several-worker code paths (`SearchParams::shared_paths`, for the contention model).
    let variants: Vec<(usize, bool)> = cfg
        .threads
        .iter()
        .flat_map(|&t| {
            let paths = (t == 1 && cfg.shared_paths_pass).then_some((1, true));
            std::iter::once((t, false)).chain(paths)
        })
        .collect();
    // One untimed search per position at every thread count before the timed ones: a process's first
    // searches at a thread count run on memory fresh from the system (its pages are faulted in on first
    // touch) and often on cores still raising their clocks, which would make those runs slower for
    // reasons of their own, not of the machine's steadiness.
    for &threads in &cfg.threads {
        let params = SearchParams { threads, ..cfg.params.clone() };
        for p in positions {
            let _ = Search::with_policy(game, policy, params.clone()).run(&p.state);
        }
    }
    // The cores' time others take counts from here, the timed searches (not the start-up of, say, the
    // program that reads the output).
    let cpu_start = super::cpu::CpuTimes::now();
    // Every round of a position runs each configuration in turn (the bare rollouts right before the
    // one-thread search), so that the thread counts' figures, and the speedups, come from the same
    // stretch of the machine's time: on a virtual machine whose cache-line transfers slow down and speed
    // up within minutes, timing every one-thread run before every two-thread run made the speedup the
    // ratio of two different machines. `best[v][i]`: the fastest run of configuration `v` on position
    // `i`, with the slowest run's wall time.
    let mut best: Vec<Vec<Option<PositionRun>>> = vec![vec![None; positions.len()]; variants.len()];
    for (i, p) in positions.iter().enumerate() {
        for _ in 0..cfg.repeat {
            for (v, &(threads, shared_paths)) in variants.iter().enumerate() {
                if threads == 1 && !shared_paths {
                    time_bare(p, &mut bare[i]);
                }
                let params = SearchParams { threads, shared_paths, ..cfg.params.clone() };
                let r = Search::with_policy(game, policy, params).run(&p.state);
                let run = PositionRun {
                    name: p.name.to_string(),
                    playouts: r.playouts,
                    elapsed_ms: r.elapsed_ms,
                    playouts_per_sec: r.playouts_per_sec,
                    nodes: r.nodes,
                    max_depth: r.max_depth,
                    mean_depth: r.mean_depth,
                    top_share: r.actions.iter().map(|a| a.share).fold(0.0, f64::max),
                    memory_limited: r.memory_limited,
                    slowest_ms: r.elapsed_ms,
                };
                let slot = &mut best[v][i];
                let slowest_ms = slot.as_ref().map_or(run.elapsed_ms, |b| b.slowest_ms.max(run.elapsed_ms));
                match slot {
                    Some(b) if b.elapsed_ms <= run.elapsed_ms => b.slowest_ms = slowest_ms,
                    _ => *slot = Some(PositionRun { slowest_ms, ..run }),
                }
            }
        }
    }
    // A configuration's figures over all positions.
    let result_of = |threads: usize, runs: Vec<PositionRun>| -> ThreadResult {
        let playouts: u64 = runs.iter().map(|r| r.playouts).sum();
        let elapsed_ms: f64 = runs.iter().map(|r| r.elapsed_ms).sum();
        let slowest_ms: f64 = runs.iter().map(|r| r.slowest_ms).sum();
        let nodes: u64 = runs.iter().map(|r| r.nodes).sum();
        let pps = rate(playouts, elapsed_ms / 1e3);
        ThreadResult {
            threads,
            playouts,
            elapsed_ms,
            playouts_per_sec: pps,
            speedup: 1.0,
            efficiency: 1.0,
            nodes,
            nodes_per_sec: rate(nodes, elapsed_ms / 1e3),
            // Set below, once the bare rollouts are timed.
            vs_rollouts: 0.0,
            memory_limited: runs.iter().any(|r| r.memory_limited),
            spread: if elapsed_ms > 0.0 { slowest_ms / elapsed_ms - 1.0 } else { 0.0 },
            positions: runs,
            unshared: None,
        }
    };
    let mut results: Vec<ThreadResult> = Vec::new();
    let mut shared_paths = None;
    for (&(threads, paths), runs) in variants.iter().zip(best) {
        let runs: Vec<PositionRun> = runs.into_iter().map(|r| r.expect("repeat >= 1")).collect();
        let result = result_of(threads, runs);
        if paths {
            shared_paths = Some(result);
        } else {
            results.push(result);
        }
    }
    let figures = bare_figures(&bare);
    let mut split = None;
    let mut clock_pair = None;
    for result in results.iter_mut() {
        let threads = result.threads;
        if threads > 1 && threads <= logical_cores() && cfg.unshared_pass {
            result.unshared = Some(unshared(game, policy, positions, cfg, threads));
        }
        if threads == 1 && cfg.split_pass {
            let clock_us = clock_pair_us();
            clock_pair = Some(clock_us);
            split = Some(split_positions(game, policy, positions, cfg, &figures.0, result, clock_us));
        }
    }
    let (infos, rollout_secs, rollouts_per_sec) = figures;
    let baseline_threads = results.first().map_or(1, |r| r.threads);
    let base = results.first().map_or(0.0, |r| r.playouts_per_sec);
    let base_positions: Vec<f64> =
        results.first().map(|r| r.positions.iter().map(|p| p.playouts_per_sec).collect()).unwrap_or_default();
    for r in results.iter_mut().chain(shared_paths.iter_mut()) {
        r.vs_rollouts = if rollouts_per_sec > 0.0 { r.playouts_per_sec / rollouts_per_sec } else { 0.0 };
        r.speedup = if base > 0.0 { r.playouts_per_sec / base } else { 0.0 };
        r.efficiency = r.speedup * baseline_threads as f64 / r.threads as f64;
        if let Some(u) = r.unshared.as_mut() {
            u.speedup = if base > 0.0 { u.playouts_per_sec / base } else { 0.0 };
            u.shared_share = if u.playouts_per_sec > 0.0 { r.playouts_per_sec / u.playouts_per_sec } else { 0.0 };
            for (i, up) in u.positions.iter_mut().enumerate() {
                let base = base_positions.get(i).copied().unwrap_or(0.0);
                let shared = r.positions.get(i).map_or(0.0, |p| p.playouts_per_sec);
                up.speedup = if base > 0.0 { up.playouts_per_sec / base } else { 0.0 };
                up.shared_share = if up.playouts_per_sec > 0.0 { shared / up.playouts_per_sec } else { 0.0 };
            }
        }
    }

    BenchReport {
        game: "",
        size: None,
        tree: None,
        rollout: RolloutArg::Game,
        rollout_policy: "",
        seed: cfg.params.seed,
        playouts_per_position: cfg.playouts,
        repeat: cfg.repeat,
        pinned,
        transposition_table: cfg.params.transposition_table,
        memory_bytes: cfg.params.memory_bytes,
        exploration: cfg.params.exploration,
        min_span: Some(cfg.params.min_span),
        chance: SearchParams::param("chance").map(|p| (p.get)(&cfg.params).to_string()),
        statistics: SearchParams::param("statistics").map_or_else(String::new, |p| (p.get)(&cfg.params).to_string()),
        virtual_loss: cfg.params.virtual_loss,
        batch_plies: cfg.params.batch_plies,
        expand_threshold: cfg.params.expand_threshold,
        logical_cores: logical_cores(),
        load_average: None,
        node_bytes: tree_layout_bytes::<G>().0,
        edge_bytes: tree_layout_bytes::<G>().1,
        positions: infos,
        rollouts,
        rollout_elapsed_ms: rollout_secs * 1e3,
        rollouts_per_sec,
        baseline_threads,
        results,
        shared_paths,
        model: None,
        split,
        clock_pair_us: clock_pair,
        line_transfer_ns: None,
        unshared_not_measured: Vec::new(),
        cpu_during_run: None,
        cpu_start,
    }
}

/// `threads` one-worker searches at once on every position, best of `repeat` rounds each: each on its own
/// thread (pinned to worker `i`'s core when the searches pin), with its own tree and the one-thread
/// search's parameters and seed, so each does exactly the one-thread search's work and nothing is shared
/// between them but the read-only game and policy. A round's time runs from a common start (a barrier) to
/// the end of its slowest search. The speedup fields are filled in by the caller.
fn unshared<G: Game, P: Policy<G>>(
    game: &G,
    policy: &P,
    positions: &[Fixture<G::State>],
    cfg: &Config,
    threads: usize,
) -> Unshared {
    let pinned = cfg.params.pin_threads;
    // The thread pins itself; its search's worker thread inherits the pinning.
    let params = SearchParams { threads: 1, pin_threads: false, ..cfg.params.clone() };
    let (mut playouts, mut nodes, mut memory_limited, mut elapsed) = (0u64, 0u64, false, Duration::ZERO);
    let mut per_position = Vec::with_capacity(positions.len());
    for p in positions {
        let mut best: Option<(Duration, (u64, u64, bool))> = None;
        for _ in 0..cfg.repeat {
            let barrier = Barrier::new(threads);
            let round: Vec<(Duration, (u64, u64, bool))> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|i| {
                        let (params, barrier) = (params.clone(), &barrier);
                        scope.spawn(move || {
                            if pinned {
                                canopy_mcts::search::pin_to_worker_core(i);
                            }
                            let search = Search::with_policy(game, policy, params);
                            barrier.wait();
                            let start = Instant::now();
                            let r = search.run(&p.state);
                            (start, Instant::now(), (r.playouts, r.nodes, r.memory_limited))
                        })
                    })
                    .collect();
                let ends: Vec<_> = handles.into_iter().map(|h| h.join().expect("search thread panicked")).collect();
                let first = ends.iter().map(|e| e.0).min().expect("threads >= 2");
                ends.iter().map(|&(_, end, n)| (end - first, n)).collect()
            });
            let wall = round.iter().map(|r| r.0).max().unwrap_or_default();
            let n = round.iter().fold((0, 0, false), |(p, k, m), r| (p + r.1 .0, k + r.1 .1, m || r.1 .2));
            if best.is_none_or(|(b, _)| wall < b) {
                best = Some((wall, n));
            }
        }
        let (wall, (n, k, m)) = best.expect("repeat >= 1");
        per_position.push(UnsharedPosition {
            name: p.name.to_string(),
            playouts: n,
            elapsed_ms: wall.as_secs_f64() * 1e3,
            playouts_per_sec: rate(n, wall.as_secs_f64()),
            speedup: 0.0,
            shared_share: 0.0,
        });
        elapsed += wall;
        playouts += n;
        nodes += k;
        memory_limited |= m;
    }
    Unshared {
        playouts,
        elapsed_ms: elapsed.as_secs_f64() * 1e3,
        playouts_per_sec: rate(playouts, elapsed.as_secs_f64()),
        nodes,
        memory_limited,
        speedup: 0.0,
        shared_share: 0.0,
        positions: per_position,
    }
}

/// The time of what [`TimedRollouts`] adds around a rollout, a pair of clock reads and the sums, in
/// microseconds: the fastest of a few batches.
fn clock_pair_us() -> f64 {
    const PAIRS: u32 = 100_000;
    let nanos = AtomicU64::new(0);
    let mut fastest = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..PAIRS {
            let t = Instant::now();
            nanos.fetch_add(black_box(t).elapsed().as_nanos() as u64, Ordering::Relaxed);
        }
        fastest = fastest.min(start.elapsed().as_secs_f64() * 1e6 / f64::from(PAIRS));
    }
    black_box(nanos.load(Ordering::Relaxed));
    fastest
}

/// `--split`: for every position, `repeat` one-thread searches with the rollouts timed inside
/// ([`TimedRollouts`]; one thread and the seed make it the same search as the untimed one); the
/// fastest is split into its rollouts and the rest, beside the untimed search's time per playout
/// (`one`, the one-thread result), the bare rollout (`infos`) and the clock reads' share (`clock_us`,
/// [`clock_pair_us`]).
fn split_positions<G: Game, P: Policy<G>>(
    game: &G,
    policy: &P,
    positions: &[Fixture<G::State>],
    cfg: &Config,
    infos: &[PositionInfo],
    one: &ThreadResult,
    clock_us: f64,
) -> Vec<PositionSplit> {
    let params = SearchParams { threads: 1, ..cfg.params.clone() };
    positions
        .iter()
        .zip(infos)
        .zip(&one.positions)
        .map(|((p, info), run)| {
            // (µs per playout of the search, of its rollouts, rollouts per playout) of the fastest run.
            let mut fastest: Option<(f64, f64, f64)> = None;
            for _ in 0..cfg.repeat {
                let timed = TimedRollouts::new(policy);
                let r = Search::with_policy(game, &timed, params.clone()).run(&p.state);
                let playouts = r.playouts.max(1) as f64;
                let search_us = r.elapsed_ms * 1e3 / playouts;
                let rollout_us = timed.rollout_nanos() as f64 / 1e3 / playouts;
                let per_playout = timed.rollouts() as f64 / playouts;
                if fastest.is_none_or(|(us, _, _)| search_us < us) {
                    fastest = Some((search_us, rollout_us, per_playout));
                }
            }
            let (timed_search_us, rollout_us, rollouts_per_playout) = fastest.unwrap_or((0.0, 0.0, 0.0));
            let bare_us = if info.rollouts_per_sec > 0.0 { 1e6 / info.rollouts_per_sec } else { 0.0 };
            let search_us = if run.playouts > 0 { run.elapsed_ms * 1e3 / run.playouts as f64 } else { 0.0 };
            PositionSplit {
                name: p.name.to_string(),
                bare_us,
                search_us,
                vs_rollouts: if search_us > 0.0 { bare_us / search_us } else { 0.0 },
                timed_search_us,
                rollout_us,
                rollouts_per_playout,
                tree_us: timed_search_us - rollout_us,
                budget_us: bare_us / 0.85 - rollout_us,
                clock_share: if timed_search_us > 0.0 {
                    rollouts_per_playout * clock_us / timed_search_us
                } else {
                    0.0
                },
            }
        })
        .collect()
}

/// `n` rollouts of `policy` from `state` with a generator seeded like search worker 0; returns the seconds
/// taken and the sum of the returns.
fn time_rollouts<G: Game, P: Policy<G>>(
    game: &G,
    policy: &P,
    state: &G::State,
    n: u64,
    seed: u64,
) -> (f64, G::Returns) {
    let mut rng = rng::seeded(seed, 0);
    let mut scratch = Vec::new();
    let mut sum = G::Returns::zero();
    let start = Instant::now();
    for _ in 0..n {
        sum.add(&policy.rollout(game, black_box(state), &mut rng, &mut scratch));
    }
    (start.elapsed().as_secs_f64(), black_box(sum))
}

/// `count` per second over `secs` seconds (0 when no time passed).
fn rate(count: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        count as f64 / secs
    } else {
        0.0
    }
}
