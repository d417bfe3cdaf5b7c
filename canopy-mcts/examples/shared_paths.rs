//! One worker searching on the one-worker code paths or on the several-worker ones
//! ([`SearchParams::shared_paths`]), for a profiler: it runs the same searches either way and prints
//! their mean rate, so that `perf record` of the two runs shows which functions the several-worker
//! paths make dearer (docs/BENCHMARKS.md, "Where the two-thread loss goes").
//!
//! The searches are those of `canopy bench` on the first position of a game's bench set, one worker,
//! the engine's default search settings without MCTS-Solver (as `canopy bench` searches), seed 1: `gomoku9` (the default: the 9x9 empty board, uniform
//! rollouts, 20 000 playouts a search), `synthetic` (the tree of branching 8 and depth 12, 100 000) or
//! `tictactoe` (the empty board, 50 000).
//!
//! ```sh
//! cargo build --release -p canopy-mcts --example shared_paths
//! perf record -e cpu-clock -o one.data target/release/examples/shared_paths one 20
//! perf record -e cpu-clock -o several.data target/release/examples/shared_paths several 20
//! perf report -i one.data --no-children --stdio
//! target/release/examples/shared_paths several 20 synthetic
//! ```

use canopy_mcts::game::Game;
use canopy_mcts::games::fixtures;
use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy, RolloutPolicy, Rule};
use canopy_mcts::games::synthetic::{Synthetic, SyntheticPolicy};
use canopy_mcts::games::tictactoe::TicTacToe;
use canopy_mcts::policy::{Policy, UniformPolicy};
use canopy_mcts::{Search, SearchParams};

/// The mean playout rate of `searches` one-worker searches of `playouts` each from `state`.
fn rate<G: Game, P: Policy<G>>(
    game: &G,
    policy: &P,
    state: &G::State,
    shared_paths: bool,
    searches: u32,
    playouts: u64,
) -> f64 {
    let mut rate_sum = 0.0;
    for _ in 0..searches {
        let params = SearchParams {
            threads: 1,
            shared_paths,
            playouts: Some(playouts),
            solver: false,
            ..SearchParams::default()
        };
        rate_sum += Search::with_policy(game, policy, params).run(state).playouts_per_sec;
    }
    rate_sum / f64::from(searches)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: shared_paths one|several [SEARCHES] [gomoku9|synthetic|tictactoe]";
    let shared_paths = match args.get(1).map(String::as_str) {
        Some("one") => false,
        Some("several") => true,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    if args.len() > 4 {
        eprintln!("{usage} (more arguments than that: {})", args[4..].join(" "));
        std::process::exit(2);
    }
    let searches: u32 = match args.get(2).map(|s| s.parse()) {
        None => 20,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("{usage} (SEARCHES: a whole number from 1)");
            std::process::exit(2);
        }
    };
    let rate = match args.get(3).map_or("gomoku9", String::as_str) {
        "gomoku9" => {
            let game = Gomoku::new(9, Rule::Freestyle);
            let policy = GomokuPolicy::default().with_rollout_policy(RolloutPolicy::Uniform);
            rate(&game, &policy, &game.new_game(), shared_paths, searches, 20_000)
        }
        "synthetic" => {
            let game = Synthetic::new(8, 12).expect("a valid tree shape");
            let state = &fixtures::synthetic(&game)[0].state;
            rate(&game, &SyntheticPolicy, state, shared_paths, searches, 100_000)
        }
        "tictactoe" => {
            let state = &fixtures::tictactoe()[0].state;
            rate(&TicTacToe, &UniformPolicy, state, shared_paths, searches, 50_000)
        }
        other => {
            eprintln!("{usage} (not a game here: {other})");
            std::process::exit(2);
        }
    };
    let paths = if shared_paths { "several-worker" } else { "one-worker" };
    let plural = if searches == 1 { "" } else { "es" };
    println!("{paths} paths: {rate:.0} playouts/s, mean of {searches} search{plural}");
}
