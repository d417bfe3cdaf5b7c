//! `canopy analyze 2048` and `canopy play 2048`.

use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use super::{common, input_error, AgentName, AnalyzeArgs, PlayArgs};
use crate::game::Game;
use crate::games::g2048::{Board, Dir, G2048State, G2048};
use crate::rng;
use crate::search::{Search, SearchParams};

/// Default playouts per move for `play` (a full game then takes seconds, not minutes).
const PLAY_DEFAULT_PLAYOUTS: u64 = 1_000;

/// Tiles whose reach `play` reports.
const MILESTONES: [u32; 10] = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

/// Analyses a 2048 position.
pub fn analyze(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let board: Board = args.board()?.parse().map_err(|e| input_error(format!("bad board: {e}")))?;
    let state = G2048State::from_board(board);
    let game = G2048;
    let search = Search::new(&game, args.search.params(crate::search::params::DEFAULT_PLAYOUTS));
    let report = common::search_with_progress(&search, &state, args.search.quiet);
    let afterstate = |d: Dir| board.shift(d).map(|(b, _)| b.tiles());
    if args.json {
        let v = json!({
            "game": "2048",
            "board": board.tiles(),
            "game_over": report.best.is_none(),
            "best_action": report.best.map(|d| d.name()),
            "actions": report.actions.iter().map(|a| json!({
                "action": a.action.name(),
                "visits": a.visits,
                "share": a.share,
                "mean": a.mean,
                "reward": a.reward,
                "afterstate": afterstate(a.action),
                "pv": a.pv,
            })).collect::<Vec<_>>(),
            "pv": report.pv,
            "root_value": report.root_value,
            "playouts": report.playouts,
            "root_visits": report.root_visits,
            "nodes": report.nodes,
            "max_depth": report.max_depth,
            "mean_depth": report.mean_depth,
            "elapsed_ms": report.elapsed_ms,
            "playouts_per_sec": report.playouts_per_sec,
            "memory_bytes": report.memory_bytes,
            "memory_limited": report.memory_limited,
            "table": report.table,
            "threads": report.threads,
            "normalisation": report.normalisation,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("{board}");
    if report.best.is_none() {
        println!("game over: no legal move");
        return Ok(());
    }
    println!("{:<6} {:>9} {:>7} {:>12} {:>7}  afterstate", "move", "visits", "share", "mean return", "reward");
    for a in &report.actions {
        let after = afterstate(a.action).map(|t| t.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","));
        println!(
            "{:<6} {:>9} {:>6.1}% {:>12} {:>7}  {}",
            a.name,
            a.visits,
            a.share * 100.0,
            a.mean.map_or("-".into(), |m| format!("{m:.1}")),
            a.reward,
            after.unwrap_or_default()
        );
    }
    println!("mean return = immediate merge score + expected score still to come after the move");
    println!("best: {}   pv: {}", report.best_name.as_deref().unwrap_or("-"), report.pv.join(" "));
    common::print_totals(&report);
    Ok(())
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
struct GameResult {
    seed: u64,
    score: u64,
    max_tile: u32,
    moves: u64,
    seconds: f64,
    final_board: [u32; 16],
}

/// Plays games of 2048 and prints score statistics.
pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    if !matches!(args.agent, AgentName::Mcts | AgentName::Random) {
        return Err(input_error("2048 agents are mcts and random"));
    }
    let params = args.search.params(PLAY_DEFAULT_PLAYOUTS);
    let game = G2048;
    let bar = indicatif::ProgressBar::new(args.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} game {pos}/{len} [{elapsed_precise}] {msg}")
            .expect("static template"),
    );
    let mut results = Vec::new();
    for i in 0..args.games {
        let seed = args.search.seed.wrapping_add(i);
        let r = play_one(&game, args.agent, &params, seed, &bar);
        bar.inc(1);
        if !args.json && args.games > 1 {
            bar.println(format!(
                "game {:>3}: score {:>7}  max tile {:>6}  moves {:>6}",
                i + 1,
                r.score,
                r.max_tile,
                r.moves
            ));
        }
        results.push(r);
    }
    bar.finish_and_clear();
    let summary = Summary::of(&results);
    if args.json {
        let v = json!({
            "game": "2048",
            "agent": format!("{:?}", args.agent).to_lowercase(),
            "params": params,
            "summary": summary,
            "games": results,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    if let [only] = results.as_slice() {
        println!("{}", Board::from_tiles(&only.final_board).map_err(|e| anyhow::anyhow!("{e}"))?);
        println!("score {}  max tile {}  moves {}  ({:.1} s)", only.score, only.max_tile, only.moves, only.seconds);
    }
    println!(
        "games {}  mean score {:.0}  median {:.0}  max {}  moves/s {:.1}",
        summary.games, summary.mean_score, summary.median_score, summary.max_score, summary.moves_per_sec
    );
    let reached: Vec<String> = summary
        .reached
        .iter()
        .filter(|r| r.share > 0.0)
        .map(|r| format!("{} {:.0}%", r.tile, r.share * 100.0))
        .collect();
    println!("reached: {}", if reached.is_empty() { "none of 256..131072".to_string() } else { reached.join("  ") });
    Ok(())
}

fn play_one(
    game: &G2048,
    agent: AgentName,
    params: &SearchParams,
    seed: u64,
    bar: &indicatif::ProgressBar,
) -> GameResult {
    let start = Instant::now();
    let mut spawn_rng = rng::seeded(seed, 1 << 32);
    let mut state = G2048State::new_game(&mut spawn_rng);
    let mut score = 0u64;
    let mut moves = 0u64;
    let mut actions = Vec::new();
    loop {
        match game.to_move(&state) {
            crate::Turn::Terminal => break,
            crate::Turn::Chance => {
                let o = game.sample_outcome(&state, &mut spawn_rng);
                game.apply_outcome(&mut state, o);
                continue;
            }
            crate::Turn::Player(_) => {}
        }
        let action = match agent {
            AgentName::Mcts => {
                let p = SearchParams { seed: seed.wrapping_mul(1_000_003).wrapping_add(moves), ..params.clone() };
                Search::new(game, p).run(&state).best.expect("a non-terminal position has a best move")
            }
            // `play` refuses the other agents.
            _ => {
                game.legal_actions(&state, &mut actions);
                actions[rng::below(&mut spawn_rng, actions.len())]
            }
        };
        score += game.apply(&mut state, action) as u64;
        moves += 1;
        if moves % 50 == 0 {
            bar.set_message(format!("move {moves}  score {score}  max tile {}", state.board.max_tile()));
        }
    }
    GameResult {
        seed,
        score,
        max_tile: state.board.max_tile(),
        moves,
        seconds: start.elapsed().as_secs_f64(),
        final_board: state.board.tiles(),
    }
}

/// Share of games whose largest tile reached `tile`.
#[derive(Clone, Debug, Serialize)]
struct Reached {
    tile: u32,
    share: f64,
}

/// Statistics over many games.
#[derive(Clone, Debug, Serialize)]
struct Summary {
    games: usize,
    mean_score: f64,
    median_score: f64,
    max_score: u64,
    min_score: u64,
    moves_per_sec: f64,
    reached: Vec<Reached>,
}

impl Summary {
    fn of(results: &[GameResult]) -> Self {
        let mut scores: Vec<u64> = results.iter().map(|r| r.score).collect();
        scores.sort_unstable();
        let n = scores.len();
        let median = if n % 2 == 1 { scores[n / 2] as f64 } else { (scores[n / 2 - 1] + scores[n / 2]) as f64 / 2.0 };
        let moves: u64 = results.iter().map(|r| r.moves).sum();
        let secs: f64 = results.iter().map(|r| r.seconds).sum();
        Self {
            games: n,
            mean_score: scores.iter().sum::<u64>() as f64 / n as f64,
            median_score: median,
            max_score: *scores.last().unwrap_or(&0),
            min_score: *scores.first().unwrap_or(&0),
            moves_per_sec: if secs > 0.0 { moves as f64 / secs } else { 0.0 },
            reached: MILESTONES
                .iter()
                .map(|&t| Reached {
                    tile: t,
                    share: results.iter().filter(|r| r.max_tile >= t).count() as f64 / n as f64,
                })
                .collect(),
        }
    }
}
