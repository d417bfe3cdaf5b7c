//! Trials of the 2048 evaluation weights: plays seeded games with the greedy agent and with expectimax
//! at fixed depths for several smoothness and corner weights (the other weights stay at
//! `eval::STANDARD`), and prints the mean score of each setting (docs/2048.md, "Evaluation weights").
//!
//! Run: `cargo run --release --example g2048_weights -- GAMES DEPTHS SETTINGS`, for example
//! `-- 200 0,2 s0,s200,s1000,s3000,c5,c20`: 200 games per cell; depth 0 is the greedy agent, other
//! depths expectimax; `sN` is smoothness weight N, `cN` corner weight N.

use canopy_mcts::games::g2048::agents::{play, Agent, AgentConfig, AgentKind};
use canopy_mcts::games::g2048::eval::{Heuristic, Weights, STANDARD};
use canopy_mcts::games::g2048::G2048Policy;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let depths: Vec<u32> =
        args.get(2).map_or("0,2", String::as_str).split(',').map(|d| d.parse().expect("a depth")).collect();
    let settings: Vec<(String, Weights)> = args
        .get(3)
        .map_or("s0,s200,s1000,s3000,c5,c20", String::as_str)
        .split(',')
        .map(|s| {
            let v: f32 = s[1..].parse().expect("a weight");
            match &s[..1] {
                "s" => (format!("smoothness {v}"), Weights { smoothness: v, ..STANDARD }),
                "c" => (format!("corner {v}"), Weights { corner: v, ..STANDARD }),
                _ => panic!("settings are sN or cN"),
            }
        })
        .collect();
    println!("{games} games per cell, seeds 1..={games}; mean score (standard error)");
    let mut head = format!("{:<20}", "weights");
    for d in &depths {
        head.push_str(&format!(" {:>18}", if *d == 0 { "greedy".to_string() } else { format!("expectimax d{d}") }));
    }
    println!("{head}");
    for (name, w) in settings {
        let heuristic: &'static Heuristic = Box::leak(Box::new(Heuristic::new(w)));
        let mut row = format!("{name:<20}");
        for &depth in &depths {
            let kind = if depth == 0 { AgentKind::Greedy } else { AgentKind::Expectimax };
            let mut config = AgentConfig::new(kind);
            config.policy = G2048Policy { evaluation: heuristic.into(), ..config.policy };
            config.search.threads = 1;
            config.expectimax.depth = Some(depth.max(1));
            config.cache_slots = 1 << 20;
            let mut agent = Agent::new(config);
            let scores: Vec<f64> = (1..=games).map(|seed| play(&mut agent, seed, |_, _| {}).returns[0]).collect();
            let n = scores.len() as f64;
            let mean = scores.iter().sum::<f64>() / n;
            let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            row.push_str(&format!(" {:>10.0} ({:>5.0})", mean, (var / n).sqrt()));
        }
        println!("{row}");
    }
}
