//! Splits a one-thread search's time per playout into its rollout and the rest (the tree: selection,
//! expansion, moves down the path, the transposition table, backup), for the positions and settings of
//! `canopy bench` (docs/BENCHMARKS.md, section What "vs rollouts" asks of the tree).
//!
//! `canopy bench` divides the search's playout rate by the bare rollout rate from the same position.
//! This example also times each rollout inside the search (a wrapper policy reads the clock around every
//! call), so it shows whether the rollouts a search runs from its leaves cost what the bare rollouts
//! from the root cost, and what the tree itself costs per playout. Each line is the fastest of `ROUNDS`
//! runs of each kind: bare rollouts (`PLAYOUTS` of them from each position), the plain search, and the
//! search with its rollouts timed (the same search: one thread and a fixed seed make it reproducible).
//! `SIZE` 0 stands for the game's default (and is the only size of 2048 and tic-tac-toe).
//!
//! ```sh
//! cargo build --release -p canopy-mcts --example rollout_split
//! target/release/examples/rollout_split gomoku 9 5
//! target/release/examples/rollout_split 2048 0 5
//! ```

use std::time::Instant;

use canopy_mcts::game::{Game, Returns};
use canopy_mcts::games::fixtures::{self, Fixture, SNAKE_MIN_SIDE};
use canopy_mcts::games::g2048::{G2048Policy, G2048};
use canopy_mcts::games::gomoku::{
    Gomoku, GomokuPolicy, RolloutPolicy, Rule, MAX_SIZE as GOMOKU_MAX, MIN_SIZE as GOMOKU_MIN,
};
use canopy_mcts::games::snake::{Snake, SnakePolicy, MAX_SIDE as SNAKE_MAX};
use canopy_mcts::games::tictactoe::TicTacToe;
use canopy_mcts::policy::{Policy, TimedRollouts, UniformPolicy};
use canopy_mcts::rng;
use canopy_mcts::{Search, SearchParams};

/// Prints one line per position: bare rollout, search, the search's own rollouts ("its rollouts") and
/// the rest (the tree), in µs per playout (fastest of `rounds`); the ratio `canopy bench` calls "vs
/// rollouts"; the most the tree could cost for that ratio to reach 0.85 with the search's rollouts as
/// they are ("budget", `bare / 0.85 - its rollouts`); and the search's mean path length in edges.
fn split<G: Game, P: Policy<G>>(game: &G, policy: &P, positions: &[Fixture<G::State>], playouts: u64, rounds: u32) {
    println!(
        "{:<14} {:>9} {:>9} {:>12} {:>9} {:>12} {:>10} {:>6}",
        "position", "bare µs", "search µs", "its rollouts", "tree µs", "vs rollouts", "budget µs", "depth"
    );
    for p in positions {
        let params = SearchParams { threads: 1, playouts: Some(playouts), solver: false, ..SearchParams::default() };
        // One search first, untimed, as `canopy bench` runs: fresh memory and idle clocks slow the first.
        let _ = Search::with_policy(game, policy, params.clone()).run(&p.state);
        let (mut bare, mut search, mut inside, mut inside_search) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
        let mut depth = 0.0;
        for _ in 0..rounds {
            let mut rng = rng::seeded(params.seed, 0);
            let mut scratch = Vec::new();
            let mut sum = G::Returns::zero();
            let start = Instant::now();
            for _ in 0..playouts {
                sum.add(&policy.rollout(game, std::hint::black_box(&p.state), &mut rng, &mut scratch));
            }
            bare = bare.min(start.elapsed().as_secs_f64() * 1e6 / playouts as f64);
            std::hint::black_box(sum);

            let r = Search::with_policy(game, policy, params.clone()).run(&p.state);
            search = search.min(r.elapsed_ms * 1e3 / r.playouts as f64);
            depth = r.mean_depth;

            let timed = TimedRollouts::new(policy);
            let r = Search::with_policy(game, &timed, params.clone()).run(&p.state);
            let per_rollout = timed.rollout_nanos() as f64 / 1e3 / r.playouts as f64;
            if r.elapsed_ms * 1e3 / (r.playouts as f64) < inside_search {
                inside_search = r.elapsed_ms * 1e3 / r.playouts as f64;
                inside = per_rollout;
            }
        }
        // The tree: the plain search's time less the rollouts of the timed one (the same search).
        let tree = search - inside;
        println!(
            "{:<14} {:>9.3} {:>9.3} {:>12.3} {:>9.3} {:>12.2} {:>10.3} {:>6.1}",
            p.name,
            bare,
            search,
            inside,
            tree,
            bare / search,
            bare / 0.85 - inside,
            depth
        );
    }
}

/// The `k`-th argument as a number: `default` when it is absent, `None` when it is not a whole number
/// in `range`.
fn number<T: std::str::FromStr + PartialOrd>(args: &[String], k: usize, default: T, range: (T, T)) -> Option<T> {
    match args.get(k) {
        None => Some(default),
        Some(s) => s.parse().ok().filter(|n| *n >= range.0 && *n <= range.1),
    }
}

fn main() {
    // As the command-line tools do: each search reuses the memory of the one before (`canopy_mcts::keep_freed_memory`).
    // SAFETY: [I15] the first statement of `main`: no other thread has been started yet.
    unsafe { canopy_mcts::keep_freed_memory() };
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: rollout_split 2048|gomoku|tictactoe|snake [SIZE] [ROUNDS] [PLAYOUTS]\n\
                 SIZE: gomoku 5..=20 (default 15), snake 6..=32 (default 10), 0 for the default (the only \
                 size of 2048 and tic-tac-toe); ROUNDS 1..=1000 (default 5); PLAYOUTS a search, from 1 \
                 (default canopy bench's)";
    let fail = || -> ! {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let game = args.get(1).map(String::as_str).unwrap_or_else(|| fail());
    let (lo, hi, default_size) = match game {
        "gomoku" => (GOMOKU_MIN, GOMOKU_MAX, 15),
        "snake" => (SNAKE_MIN_SIDE, SNAKE_MAX, 10),
        "2048" | "tictactoe" => (0, 0, 0),
        _ => fail(),
    };
    let size = match number(&args, 2, 0usize, (0, hi)) {
        Some(0) => default_size,
        Some(n) if n >= lo => n,
        _ => fail(),
    };
    let rounds = number(&args, 3, 5u32, (1, 1000)).unwrap_or_else(|| fail());
    // `canopy bench`'s playouts a search unless given (0: not given).
    let given = number(&args, 4, 0u64, (1, u64::MAX)).unwrap_or_else(|| fail());
    let playouts = |bench: u64| if given > 0 { given } else { bench };
    match game {
        "2048" => split(&G2048, &G2048Policy::default(), &fixtures::g2048(), playouts(20_000), rounds),
        "tictactoe" => split(&TicTacToe, &UniformPolicy, &fixtures::tictactoe(), playouts(50_000), rounds),
        "gomoku" => {
            let game = Gomoku::new(size, Rule::Freestyle);
            let policy = GomokuPolicy::default().with_rollout_policy(RolloutPolicy::Uniform);
            let bench = if size <= 9 { 20_000 } else { 10_000 };
            split(&game, &policy, &fixtures::gomoku(&game), playouts(bench), rounds);
        }
        _ => {
            let policy = SnakePolicy::new(size, size);
            split(&Snake::new(size, size), &policy, &fixtures::snake(size), playouts(20_000), rounds);
        }
    }
}
