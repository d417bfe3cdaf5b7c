//! How 2048 decisions change with the playout budget, measured on positions rather than whole games
//! (a game at 30 000 playouts a move takes most of an hour on one core).
//!
//! Positions: every `--every`-th position (default 200) of games played by the default MCTS agent at
//! 300 playouts a move (seeds 500, 501, ...). Reference: canopy's expectimax searched to a fixed depth
//! (`--ref-depth`, default 5 moves, cut-off 1e-4) gives each legal move a value; a decision's *regret* is
//! the reference value of the reference's best move minus that of the move chosen, as a fraction of
//! the spread between the reference's best and worst moves (0 when the choices agree, 1 for the worst
//! move). For each MCTS setting and budget the example prints how
//! often the choice agrees with the reference, the mean regret, and the share of the root's visits
//! on the chosen move.
//!
//! ```sh
//! cargo run --release -p canopy-mcts --example g2048_budgets -- --games 2 --every 200 --ref-depth 5 \
//!     [--budgets 300,3000,30000] [--settings 0,3,4]
//! ```

use canopy_mcts::games::g2048::agents::{self, Agent, AgentConfig, AgentKind};
use canopy_mcts::games::g2048::expectimax::{self, Expectimax};
use canopy_mcts::games::g2048::Board;
use canopy_mcts::search::Backup;

struct Setting {
    name: &'static str,
    apply: fn(&mut AgentConfig),
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name} takes a number")))
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = arg(&args, "--games", 2);
    let every = arg(&args, "--every", 200) as usize;
    let ref_depth = arg(&args, "--ref-depth", 5) as u32;
    let budgets: Vec<u64> = args
        .iter()
        .position(|a| a == "--budgets")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.split(',').map(|b| b.parse().expect("--budgets takes numbers")).collect())
        .unwrap_or_else(|| vec![300, 3_000, 30_000]);

    // The positions.
    let mut boards: Vec<Board> = Vec::new();
    for g in 0..games {
        let mut config = AgentConfig::new(AgentKind::Mcts);
        config.search.playouts = Some(300);
        config.search.threads = 1;
        config.search.pin_threads = false;
        let mut agent = Agent::new(config);
        let mut n = 0usize;
        agents::play(&mut agent, 500 + g, |state, _| {
            if !state.spawn_pending {
                n += 1;
                if n % every == 0 && !state.board.legal_dirs().is_empty() {
                    boards.push(state.board);
                }
            }
        });
    }
    eprintln!("{} positions from {games} games", boards.len());

    // The reference values.
    let mut reference = Expectimax::new(1 << 20);
    let limits = expectimax::Limits { depth: Some(ref_depth), time_ms: None, prob_cutoff: 1e-4 };
    let refs: Vec<[Option<f64>; 4]> = boards.iter().map(|b| reference.search(b, &limits).values).collect();

    let all = [
        Setting { name: "default (max backup, C 4)", apply: |_| {} },
        Setting { name: "mean backup, C 4", apply: |c| c.search.backup = Backup::Mean },
        Setting { name: "max backup, C 1", apply: |c| c.search.exploration = 1.0 },
        Setting { name: "max backup, C 16", apply: |c| c.search.exploration = 16.0 },
        Setting { name: "max backup, C 4, expand threshold 8", apply: |c| c.search.expand_threshold = 8 },
        Setting {
            name: "max backup, C 16, expand threshold 8",
            apply: |c| {
                c.search.exploration = 16.0;
                c.search.expand_threshold = 8;
            },
        },
        Setting { name: "default on 2 threads", apply: |c| c.search.threads = 2 },
        Setting { name: "robust backup, C 4", apply: |c| c.search.backup = Backup::Robust },
    ];
    // `--settings 0,2,3`: the rows of `all` to run (default: all).
    let chosen: Vec<usize> = args
        .iter()
        .position(|a| a == "--settings")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.split(',').map(|b| b.parse().expect("--settings takes row numbers")).collect())
        .unwrap_or_else(|| (0..all.len()).collect());
    let settings: Vec<&Setting> = chosen.iter().map(|&i| &all[i]).collect();
    println!("| setting | playouts | agrees with expectimax d{ref_depth} | mean regret (% of the moves' spread) | visit share of the choice |");
    println!("|---|---:|---:|---:|---:|");
    for setting in settings {
        for &budget in &budgets {
            let mut agree = 0;
            let mut regret = 0.0;
            let mut share = 0.0;
            for (k, (board, values)) in boards.iter().zip(&refs).enumerate() {
                let mut config = AgentConfig::new(AgentKind::Mcts);
                config.search.playouts = Some(budget);
                config.search.threads = 1;
                config.search.pin_threads = false;
                config.reuse = false;
                config.search.audit = false;
                (setting.apply)(&mut config);
                let decision = Agent::new(config).decide(board, 7_000 + k as u64);
                let Some(chosen) = decision.best else { continue };
                let best_value = values.iter().flatten().cloned().fold(f64::NEG_INFINITY, f64::max);
                let chosen_value = values[chosen.index()].unwrap_or(0.0);
                if chosen_value >= best_value {
                    agree += 1;
                }
                let worst_value = values.iter().flatten().cloned().fold(f64::INFINITY, f64::min);
                regret += (best_value - chosen_value) / (best_value - worst_value).max(1.0);
                let total: u64 = decision.moves.iter().map(|m| m.visits).sum();
                let on_choice = decision.moves.iter().find(|m| m.dir == chosen).map_or(0, |m| m.visits);
                share += on_choice as f64 / total.max(1) as f64;
            }
            let n = boards.len() as f64;
            println!(
                "| {} | {budget} | {:.0}% | {:.1}% | {:.1}% |",
                setting.name,
                100.0 * agree as f64 / n,
                100.0 * regret / n,
                100.0 * share / n
            );
        }
    }
}
