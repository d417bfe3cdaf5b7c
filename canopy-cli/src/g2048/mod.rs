//! `canopy analyze 2048`, `canopy play 2048`, `canopy train 2048`, and the 2048 parts of `compare` and
//! `sweep`: the 2048 options and explaining a decision here; building an agent from the options in the
//! `config` submodule, running games in `play`, training an n-tuple network in `train`.

mod config;
mod play;
mod train;

use serde::Serialize;
use serde_json::json;

use super::args::{self, agent_parser};
use super::common;
use super::params::SettingsFlags;
use super::search_args::For2048;
use super::{input_error, AgentName};
use canopy_mcts::games::g2048::agents::{Agent, AgentConfig, AgentKind, Decision};
use canopy_mcts::games::g2048::eval::{Evaluation, Features, Heuristic};
use canopy_mcts::games::g2048::ntuple::NTuple;
use canopy_mcts::games::g2048::{Board, Dir};
use canopy_mcts::search::Backup;

pub use config::{
    agent_config, agent_kind, agent_label, config_json, config_line, params_json, warn_unused_options, with_param,
};
pub use play::{play, progress_bar, run_games, GameResult};
pub use train::{train, Train};

/// Default playouts per move for `play`, `compare` and `sweep` without --playouts or --time (a full game
/// then takes seconds, not minutes).
pub const PLAY_DEFAULT_PLAYOUTS: u64 = 1_000;

/// The 2048 agents.
pub const AGENTS: &[AgentName] =
    &[AgentName::Mcts, AgentName::Expectimax, AgentName::Flat, AgentName::Greedy, AgentName::Random];

/// `canopy analyze 2048`.
pub type Analyze = args::AnalyzeArgs<Position, For2048>;
/// `canopy play 2048`.
pub type Play = args::PlayArgs<Chooser, For2048>;
/// `canopy compare 2048`.
pub type Compare = args::CompareArgs<Choosers, For2048>;
/// `canopy sweep 2048`.
pub type Sweep = args::SweepArgs<Chooser, For2048>;

/// A 2048 position and who chooses its move.
#[derive(clap::Args, Debug)]
pub struct Position {
    /// The board: 16 comma-separated tile values, row-major, row 0 first, 0 = empty.
    #[arg(long, required = true, allow_hyphen_values = true)]
    pub board: String,
    #[command(flatten)]
    pub chooser: Chooser,
}

/// A 2048 agent and its options.
#[derive(clap::Args, Debug)]
pub struct Chooser {
    /// Who chooses the moves.
    #[arg(long, default_value = "mcts", value_parser = agent_parser(AGENTS))]
    pub agent: AgentName,
    /// The evaluation of afterstates: heuristic (the hand-written one), ntuple (the large n-tuple network
    /// built into canopy, weights/2048-ntuple-large.bin) or ntuple:FILE (a network from canopy train
    /// 2048), for greedy, expectimax, and the truncated rollouts of mcts and flat [default heuristic].
    #[arg(long, value_name = "EVAL", value_parser = parse_eval)]
    pub eval: Option<Evaluation>,
    #[command(flatten)]
    pub options: G2048Args,
}

/// The 2048 agents to compare and their options.
#[derive(clap::Args, Debug)]
pub struct Choosers {
    /// Agents to compare, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "mcts,expectimax,flat", value_parser = agent_parser(AGENTS))]
    pub agents: Vec<AgentName>,
    /// The evaluation of afterstates for every agent: heuristic (the hand-written one), ntuple (the large
    /// n-tuple network built into canopy) or ntuple:FILE (a network from canopy train 2048) [default
    /// heuristic].
    #[arg(long, value_name = "EVAL", value_parser = parse_eval)]
    pub eval: Option<Evaluation>,
    #[command(flatten)]
    pub options: G2048Args,
}

/// The large n-tuple network canopy ships (`weights/2048-ntuple-large.bin`, made by the two `canopy train
/// 2048` commands in docs/2048.md, "The large network"), built into the binary so that `--eval ntuple`
/// works from any directory.
static BUILT_IN_NETWORK: &[u8] = include_bytes!("../../../weights/2048-ntuple-large.bin");

/// What the configuration says of the built-in network's source.
const BUILT_IN_SOURCE: &str = "built-in (weights/2048-ntuple-large.bin)";

/// Where each network `--eval` loaded came from (the built-in one, or the file as given), by the
/// network's address: what the configuration's `network` field and line name.
static NETWORK_SOURCES: std::sync::Mutex<Vec<(usize, String)>> = std::sync::Mutex::new(Vec::new());

/// Keeps `net` for the whole run and notes where it came from.
fn keep_network(net: NTuple, source: String) -> &'static NTuple {
    let net: &'static NTuple = Box::leak(Box::new(net));
    if let Ok(mut sources) = NETWORK_SOURCES.lock() {
        sources.push((net as *const NTuple as usize, source));
    }
    net
}

/// Where `net` came from (see [`NETWORK_SOURCES`]), when `--eval` loaded it.
pub fn network_source(net: &NTuple) -> Option<String> {
    let addr = net as *const NTuple as usize;
    let sources = NETWORK_SOURCES.lock().ok()?;
    sources.iter().find(|(a, _)| *a == addr).map(|(_, s)| s.clone())
}

/// Reads `--eval`: `heuristic`; `ntuple`, the built-in network; or `ntuple:FILE`, whose network is
/// loaded. A network is kept for the whole run.
fn parse_eval(s: &str) -> Result<Evaluation, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("heuristic") {
        return Ok(Evaluation::standard());
    }
    if s.eq_ignore_ascii_case("ntuple") {
        let net = NTuple::from_bytes(BUILT_IN_NETWORK).map_err(|e| format!("the built-in network: {e}"))?;
        return Ok(Evaluation::NTuple(keep_network(net, BUILT_IN_SOURCE.to_string())));
    }
    match s.split_once(':') {
        Some((kind, path)) if kind.eq_ignore_ascii_case("ntuple") && !path.is_empty() => {
            let net = NTuple::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
            Ok(Evaluation::NTuple(keep_network(net, path.to_string())))
        }
        _ => Err(format!("'{s}' is not an evaluation (expected heuristic, ntuple or ntuple:FILE)")),
    }
}

/// The 2048 agents' own options, from the library's declarations ([`AgentConfig`]'s table): each agent
/// starts from its defaults and takes the options given.
pub type G2048Args = SettingsFlags<AgentConfig>;

/// What a move changes on the board, in the evaluation's terms.
#[derive(Clone, Debug, Serialize)]
struct Explanation {
    /// Empty cells after the move (before the spawn) minus empty cells before it.
    empty_cells_change: i32,
    /// Evaluation of the afterstate minus evaluation of the board, in points.
    eval_change: f64,
    /// Change of each raw feature (afterstate minus board).
    features_change: Features,
    /// Change of each feature's share of the evaluation, in points (raw change times signed weight).
    points_change: Features,
}

fn explain(h: &Heuristic, board: &Board, dir: Dir) -> Option<Explanation> {
    let (after, _) = board.shift(dir)?;
    let (fb, fa) = (h.features(board), h.features(&after));
    let w = h.weights();
    Some(Explanation {
        empty_cells_change: after.empty_count() as i32 - board.empty_count() as i32,
        eval_change: f64::from(h.evaluate(&after)) - f64::from(h.evaluate(board)),
        features_change: fa.minus(&fb),
        points_change: fa.contributions(w).minus(&fb.contributions(w)),
    })
}

/// Analyses a 2048 position with the agent of `--agent`.
pub fn analyze(args: &Analyze) -> anyhow::Result<()> {
    let board: Board = args.game.board.parse().map_err(|e| input_error(format!("bad board: {e}")))?;
    let Chooser { agent, eval, options } = &args.game.chooser;
    if args.infinite.infinite && *agent != AgentName::Mcts {
        return Err(input_error("--infinite is for --agent mcts (the other agents do not search a tree)"));
    }
    warn_unused_options(&[*agent], &args.search, options, eval.is_some())?;
    let config = agent_config(*agent, &args.search, options, *eval, canopy_mcts::search::DEFAULT_PLAYOUTS)?;
    let evaluation = config.policy.evaluation;
    let mut agent = Agent::new(config.clone());
    let d = if config.kind == AgentKind::Mcts {
        agent.decide_searching(&board, args.search.seed, |search, state| args.run(search, state))
    } else {
        // The tree-less agents report no progress of their own; a deep expectimax search can take minutes.
        let label = format!("searching with {} ({})", config.kind, config_line(&config));
        common::with_ticker(&label, args.search.no_progress, || {
            agent.decide_searching(&board, args.search.seed, |search, state| args.run(search, state))
        })
    };
    let afterstate = |dir: Dir| board.shift(dir).map(|(b, _)| b.tiles());
    if args.json {
        let mut v = analysis_json(&config, &board, &d);
        if let Some(obj) = v.as_object_mut() {
            obj.insert("params".into(), params_json(&config));
        }
        args.print_json(v, None)?;
        return Ok(());
    }
    println!("{board}");
    println!("agent: {} ({})", config.kind, config_line(&config));
    if d.best.is_none() {
        println!("game over: no legal move");
        return Ok(());
    }
    match &d.report {
        Some(report) => {
            println!("{:<6} {:>9} {:>7} {:>14} {:>7}  afterstate", "move", "visits", "share", "mean return", "reward");
            for a in &report.actions {
                let after = afterstate(a.action).map(|t| t.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","));
                println!(
                    "{:<6} {:>9} {:>6.1}% {:>14} {:>7}  {}",
                    a.name,
                    a.visits,
                    a.share * 100.0,
                    a.mean.map_or("-".into(), |m| format!("{m:.1}")),
                    a.reward,
                    after.unwrap_or_default()
                );
            }
            if config.policy.rollout.depth.is_some() {
                println!(
                    "mean return = merge score of the move + mean over playouts of (merge scores gathered + evaluation"
                );
                println!(
                    "  of the afterstate where the truncated rollout stopped); a lost game counts 0 (docs/2048.md)"
                );
            } else {
                println!("mean return = immediate merge score + expected score still to come after the move");
            }
            // What a playout carries up through the decision nodes below the move (docs/2048.md).
            match config.search.backup {
                Backup::Max => {
                    println!("  (max backup: below the move each decision node passes up its best move's mean)")
                }
                Backup::Robust => println!(
                    "  (robust backup: below the move each decision node passes up its most visited move's mean)"
                ),
                Backup::Mean => {}
            }
            println!("best: {}   pv: {}", report.best_name.as_deref().unwrap_or("-"), report.pv.join(" "));
            common::print_totals(report);
        }
        None => {
            let (head, unit) = match config.kind {
                AgentKind::Expectimax => ("value", "expected evaluation (points) of the searched future"),
                AgentKind::Flat => ("mean return", "merge score + mean rollout return"),
                AgentKind::Greedy => ("value", "merge score + evaluation of the afterstate (points)"),
                _ => ("value", "random agent: no values"),
            };
            println!("{:<6} {:>14} {:>9} {:>7}  afterstate", "move", head, "rollouts", "reward");
            for m in &d.moves {
                let after = afterstate(m.dir).map(|t| t.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","));
                println!(
                    "{:<6} {:>14} {:>9} {:>7}  {}",
                    m.dir.name(),
                    m.value.map_or("-".into(), |v| format!("{v:.1}")),
                    m.visits,
                    m.reward,
                    after.unwrap_or_default()
                );
            }
            println!("{head} = {unit}");
            let extra = d.depth.map(|dd| format!("  depth {dd}")).unwrap_or_default();
            println!(
                "best: {}   work {} ({}){extra}   elapsed {:.1} ms",
                d.best.map_or("-", |b| b.name()),
                d.work,
                match config.kind {
                    AgentKind::Expectimax => "nodes",
                    AgentKind::Flat => "rollouts",
                    AgentKind::Greedy => "afterstates",
                    _ => "none",
                },
                d.elapsed_ms
            );
        }
    }
    match evaluation.heuristic() {
        Some(h) => print_explanations(h, &board, &d),
        None => println!("(the n-tuple evaluation has no features to explain the moves by)"),
    }
    Ok(())
}

/// The "why" table: what each move does to the empty cells and to each weighted feature, and a sentence
/// comparing the chosen move with the runner-up.
fn print_explanations(h: &Heuristic, board: &Board, d: &Decision) {
    let w = h.weights();
    let weighted: Vec<(&str, f32)> = Features {
        empty: w.empty,
        merges: w.merges,
        monotonicity: w.monotonicity,
        sum: w.sum,
        smoothness: w.smoothness,
        corner: w.corner,
    }
    .named()
    .into_iter()
    .filter(|(_, wt)| *wt != 0.0)
    .collect();
    println!();
    println!("why: what each move changes (afterstate minus board, before the spawn; points of the evaluation)");
    let mut head = format!("{:<6} {:>6} {:>7} {:>11}", "move", "reward", "empty", "eval");
    for (name, _) in &weighted {
        head.push_str(&format!(" {name:>12}"));
    }
    println!("{head}");
    let mut explained = Vec::new();
    for m in &d.moves {
        let Some(e) = explain(h, board, m.dir) else { continue };
        let mut row =
            format!("{:<6} {:>6} {:>+7} {:>+11.0}", m.dir.name(), m.reward, e.empty_cells_change, e.eval_change);
        let points = e.points_change.named();
        for (name, _) in &weighted {
            let v = points.iter().find(|(n, _)| n == name).map_or(0.0, |p| p.1);
            row.push_str(&format!(" {v:>+12.0}"));
        }
        println!("{row}");
        explained.push((m, e));
    }
    println!("(empty: change in empty cells; the other columns: change in points, so larger is better everywhere)");
    let Some(best) = d.best else { return };
    let Some((bm, be)) = explained.iter().find(|(m, _)| m.dir == best) else { return };
    let runner = explained
        .iter()
        .filter(|(m, _)| m.dir != best)
        .max_by(|a, b| a.0.value.unwrap_or(f64::MIN).total_cmp(&b.0.value.unwrap_or(f64::MIN)));
    let Some((rm, re)) = runner else {
        println!("{} is the only legal move", best.name());
        return;
    };
    // Differences in points between the chosen move and the runner-up, largest first.
    let mut diffs: Vec<(f32, String)> = Vec::new();
    let cells = be.empty_cells_change - re.empty_cells_change;
    if cells != 0 {
        let plural = if cells.abs() == 1 { "" } else { "s" };
        diffs.push((w.empty * 2.0 * cells as f32, format!("{} empty cell{plural}", cells.abs())));
    }
    for ((name, b), (_, r)) in be.points_change.named().iter().zip(re.points_change.named().iter()) {
        let diff = b - r;
        if *name != "empty" && diff.abs() >= 1.0 {
            diffs.push((diff, format!("{name} {:.0} points", diff.abs())));
        }
    }
    let reward = i64::from(bm.reward) - i64::from(rm.reward);
    if reward != 0 {
        diffs.push((reward as f32, format!("merge score {}", reward.abs())));
    }
    diffs.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
    let list = |better: bool| -> String {
        diffs.iter().filter(|d| (d.0 > 0.0) == better).map(|d| d.1.clone()).collect::<Vec<_>>().join(", ")
    };
    let (gains, losses) = (list(true), list(false));
    let mut sentence = format!("{} rather than {}:", best.name(), rm.dir.name());
    if !gains.is_empty() {
        sentence.push_str(&format!(" better by {gains}"));
    }
    if !losses.is_empty() {
        sentence.push_str(&format!("{} worse by {losses}", if gains.is_empty() { "" } else { ";" }));
    }
    if gains.is_empty() && losses.is_empty() {
        sentence.push_str(" the same board features now");
    }
    println!("{sentence}");
    if let (Some(a), Some(b)) = (bm.value, rm.value) {
        // A search chooses by visits, so the chosen move's value can be the lower of the two.
        let what = if a < b {
            "the agent's search chose it by its visits, though its value is lower"
        } else if losses.is_empty() {
            "and the agent's look ahead agrees"
        } else {
            "the agent's look ahead decides"
        };
        println!("  {what}: value {a:.1} against {b:.1} ({:+.1})", a - b);
    }
}

fn analysis_json(config: &AgentConfig, board: &Board, d: &Decision) -> serde_json::Value {
    let evaluation = config.policy.evaluation;
    let h = evaluation.heuristic();
    let afterstate = |dir: Dir| board.shift(dir).map(|(b, _)| b.tiles());
    let mut v = json!({
        "game": "2048",
        "agent": config.kind,
        "board": board.tiles(),
        "game_over": d.best.is_none(),
        "board_eval": evaluation.evaluate(board),
        "board_features": h.map(|h| h.features(board)),
    });
    // Agents without a search tree have no share, mean or line beyond the move, except flat Monte Carlo,
    // whose visits are rollouts and whose value is their mean return.
    let rollouts: u64 = d.moves.iter().map(|m| m.visits).sum();
    let actions = d
        .moves
        .iter()
        .map(|m| {
            let mut a = match d.report.as_ref().and_then(|r| r.action(&m.dir)) {
                Some(r) => common::action_json(r),
                None if config.kind == AgentKind::Flat && rollouts > 0 => {
                    common::move_json(m.dir.name(), m.visits, Some(m.visits as f64 / rollouts as f64), m.value, &[])
                }
                None => common::move_json(m.dir.name(), m.visits, None, None, &[]),
            };
            a.insert("value".into(), json!(m.value));
            a.insert("reward".into(), json!(m.reward));
            a.insert("afterstate".into(), json!(afterstate(m.dir)));
            a.insert("explain".into(), json!(h.and_then(|h| explain(h, board, m.dir))));
            a
        })
        .collect();
    let search = match &d.report {
        Some(report) => common::analysis_json(report, actions),
        None => {
            let threads =
                matches!(config.kind, AgentKind::Expectimax | AgentKind::Flat).then_some(config.search.threads);
            let playouts = if config.kind == AgentKind::Flat { d.work } else { 0 };
            common::analysis_parts_json(
                d.best.map(|b| b.name().to_string()),
                d.best.map(|b| vec![b.name().to_string()]).unwrap_or_default(),
                None,
                actions,
                common::treeless_stats_json(playouts, d.elapsed_ms, threads),
            )
        }
    };
    if let Some(obj) = v.as_object_mut() {
        obj.extend(search);
        obj.insert("work".into(), json!(d.work));
        obj.insert("depth".into(), json!(d.depth));
        obj.insert("config".into(), json!(config_json(config)));
    }
    v
}
