//! `canopy bench`'s one-thread searches, run again and again with nothing else in the process: the mean
//! time per playout over all of them, for comparing two builds run alternately, or for `perf record`
//! (docs/BENCHMARKS.md, section What "vs rollouts" asks of the tree).
//!
//! Each round searches every position of the game's bench set once: 2048's three boards with
//! `G2048Policy`, or Gomoku's (9x9: two, 15x15: three) with uniform rollouts; one thread, no solver, the
//! engine's other defaults (as `canopy bench --threads 1`), and 20 000 playouts a search for every game
//! (`canopy bench`'s number, except at 15x15, where it searches 10 000).
//!
//! ```sh
//! cargo build --release -p canopy-mcts --example bench_searches
//! target/release/examples/bench_searches gomoku9 10
//! perf record -e cpu-clock target/release/examples/bench_searches 2048 20
//! ```

use canopy_mcts::game::Game;
use canopy_mcts::games::fixtures::{self, Fixture};
use canopy_mcts::games::g2048::{G2048Policy, G2048};
use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, RolloutPolicy, Rule};
use canopy_mcts::policy::Policy;
use canopy_mcts::{Search, SearchParams};

/// Runs `rounds` searches of every position; returns the elapsed milliseconds and the playouts.
fn run<G: Game, P: Policy<G>>(game: &G, policy: &P, positions: &[Fixture<G::State>], rounds: u32) -> (f64, u64) {
    let params = SearchParams { threads: 1, playouts: Some(20_000), solver: false, ..SearchParams::default() };
    let (mut ms, mut playouts) = (0.0, 0);
    for _ in 0..rounds {
        for p in positions {
            let r = Search::with_policy(game, policy, params.clone()).run(&p.state);
            ms += r.elapsed_ms;
            playouts += r.playouts;
        }
    }
    (ms, playouts)
}

fn main() {
    // As the command-line tools do: each search reuses the memory of the one before (`canopy_mcts::keep_freed_memory`).
    // SAFETY: [I15] the first statement of `main`: no other thread has been started yet.
    unsafe { canopy_mcts::keep_freed_memory() };
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: bench_searches 2048|gomoku9|gomoku15 [ROUNDS]";
    if args.len() > 3 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let rounds: u32 = match args.get(2).map(|s| s.parse()) {
        None => 10,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("{usage} (ROUNDS: a whole number from 1)");
            std::process::exit(2);
        }
    };
    let (ms, playouts) = match args.get(1).map(String::as_str) {
        Some("2048") => run(&G2048, &G2048Policy::default(), &fixtures::g2048(), rounds),
        Some(name @ ("gomoku9" | "gomoku15")) => {
            let game = Gomoku::new(if name == "gomoku9" { 9 } else { 15 }, Rule::Freestyle);
            let policy = GomokuPolicy::default().with_rollout_policy(RolloutPolicy::Uniform);
            run(&game, &policy, &fixtures::gomoku(&game), rounds)
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    println!("{:.3} µs a playout over {playouts} playouts", ms * 1e3 / playouts as f64);
}
