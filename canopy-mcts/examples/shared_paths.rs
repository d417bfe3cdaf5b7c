//! One worker searching on the one-worker code paths or on the several-worker ones
//! ([`SearchParams::shared_paths`]), for a profiler: it runs the same searches either way and prints
//! their mean rate, so that `perf record` of the two runs shows which functions the several-worker
//! paths make dearer (docs/BENCHMARKS.md, "Where the two-thread loss goes").
//!
//! The searches are those of `canopy bench --game gomoku --size 9` on its empty board (uniform
//! rollouts, the engine's default search settings), 20 000 playouts each, seed 1.
//!
//! ```sh
//! cargo build --release -p canopy-mcts --example shared_paths
//! perf record -e cpu-clock -o one.data target/release/examples/shared_paths one 20
//! perf record -e cpu-clock -o several.data target/release/examples/shared_paths several 20
//! perf report -i one.data --no-children --stdio
//! ```

use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, RolloutPolicy, Rule};
use canopy_mcts::{Search, SearchParams};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: shared_paths one|several [SEARCHES]";
    let shared_paths = match args.get(1).map(String::as_str) {
        Some("one") => false,
        Some("several") => true,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let searches: u32 = match args.get(2).map(|s| s.parse()) {
        None => 20,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("{usage} (SEARCHES: a whole number from 1)");
            std::process::exit(2);
        }
    };
    let game = Gomoku::new(9, Rule::Freestyle);
    let policy = GomokuPolicy::default().with_rollout_policy(RolloutPolicy::Uniform);
    let state = game.new_game();
    let mut rate_sum = 0.0;
    for _ in 0..searches {
        let params = SearchParams { threads: 1, shared_paths, playouts: Some(20_000), ..SearchParams::default() };
        rate_sum += Search::with_policy(&game, &policy, params).run(&state).playouts_per_sec;
    }
    let paths = if shared_paths { "several-worker" } else { "one-worker" };
    println!("{paths} paths: {:.0} playouts/s, mean of {searches} searches", rate_sum / f64::from(searches));
}
