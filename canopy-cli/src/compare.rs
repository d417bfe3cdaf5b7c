//! `canopy compare` (several agents on the same games) and `canopy sweep` (one agent, one parameter
//! over several values): the game statistics, their table, CSV and JSON forms, and the SVG plot.

use std::fmt::Write as _;
use std::io::Write as _;

use serde::Serialize;
use serde_json::json;

use super::common;
use super::g2048::{self, GameResult};
use super::input_error;
use super::svg::svg_plot;

/// Tiles whose reach the tables report.
pub const MILESTONES: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// What a 2048 sweep varies: a declared search parameter, or one of the 2048 agents' own
/// ([`canopy_mcts::games::g2048::agents::AgentConfig`]'s table), by name.
#[derive(Clone, Copy, Debug)]
pub enum Swept {
    /// A parameter of the engine's declarations ([`canopy_mcts::SearchParams`]'s table).
    Search(&'static str),
    /// A parameter of the 2048 agents.
    Agent(&'static str),
}

impl Swept {
    /// Reads `--param`: a declared search parameter or a 2048 agent parameter (hyphens or underscores).
    /// `skipped`: the search parameters 2048 does not take, left out of the error's list.
    ///
    /// # Errors
    /// A one-line message listing what can be swept.
    pub fn parse(name: &str, skipped: &[&str]) -> Result<Swept, String> {
        use canopy_mcts::games::g2048::agents::AgentConfig;
        use canopy_mcts::param::Settings;
        if let Some(p) = canopy_mcts::SearchParams::param(name) {
            return Ok(Swept::Search(p.name));
        }
        if let Some(p) = AgentConfig::param(name) {
            return Ok(Swept::Agent(p.name));
        }
        let known: Vec<String> = canopy_mcts::SearchParams::params()
            .iter()
            .map(|p| p.name)
            .filter(|n| !skipped.contains(n))
            .chain(AgentConfig::params().iter().map(|p| p.name))
            .map(|n| n.replace('_', "-"))
            .collect();
        Err(format!("'{name}' is not one of {}", known.join(", ")))
    }

    /// The option's name on the command line (without `--`).
    pub fn flag(self) -> String {
        match self {
            Swept::Search(name) | Swept::Agent(name) => name.replace('_', "-"),
        }
    }
}

/// Share of games whose largest tile reached `tile`.
#[derive(Clone, Debug, Serialize)]
pub struct Reached {
    /// The tile.
    pub tile: u32,
    /// Share of games, in `[0, 1]`.
    pub share: f64,
}

/// Statistics over a set of games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Mean final score.
    pub mean_score: f64,
    /// Standard error of the mean score (sample standard deviation / sqrt(games); 0 for one game).
    pub stderr_score: f64,
    /// Median final score.
    pub median_score: f64,
    /// Largest final score.
    pub max_score: u64,
    /// Smallest final score.
    pub min_score: u64,
    /// Mean moves per game.
    pub mean_moves: f64,
    /// Mean decision time per move in milliseconds.
    pub ms_per_move: f64,
    /// Shares of games reaching 2048, 4096, 8192, 16384 and 32768.
    pub reached: Vec<Reached>,
}

impl Summary {
    /// The statistics of `results` (at least one game).
    pub fn of(results: &[GameResult]) -> Summary {
        let mut scores: Vec<u64> = results.iter().map(|r| r.score).collect();
        scores.sort_unstable();
        let n = scores.len().max(1);
        let mean = scores.iter().sum::<u64>() as f64 / n as f64;
        let median = match scores.len() {
            0 => 0.0,
            len if len % 2 == 1 => scores[len / 2] as f64,
            len => (scores[len / 2 - 1] + scores[len / 2]) as f64 / 2.0,
        };
        let var = if scores.len() > 1 {
            scores.iter().map(|&s| (s as f64 - mean).powi(2)).sum::<f64>() / (scores.len() - 1) as f64
        } else {
            0.0
        };
        let moves: u64 = results.iter().map(|r| r.moves).sum();
        let decide_ms: f64 = results.iter().map(|r| r.ms_per_move * r.moves as f64).sum();
        Summary {
            games: scores.len(),
            mean_score: mean,
            stderr_score: (var / n as f64).sqrt(),
            median_score: median,
            max_score: scores.last().copied().unwrap_or(0),
            min_score: scores.first().copied().unwrap_or(0),
            mean_moves: moves as f64 / n as f64,
            ms_per_move: if moves > 0 { decide_ms / moves as f64 } else { 0.0 },
            reached: MILESTONES
                .iter()
                .map(|&tile| Reached {
                    tile,
                    share: results.iter().filter(|r| r.max_tile >= tile).count() as f64 / n as f64,
                })
                .collect(),
        }
    }
}

/// The header of the summary table, with `label` naming the first column.
pub fn table_header(label: &str, width: usize) -> String {
    let mut s = format!("{label:<width$} {:>5} {:>9} {:>9} {:>9}", "games", "mean", "median", "max");
    for t in MILESTONES {
        let _ = write!(s, " {t:>6}");
    }
    s.push_str("   ms/move  moves/game");
    s
}

/// One row of the summary table.
pub fn table_row(label: &str, width: usize, s: &Summary) -> String {
    let mut row =
        format!("{label:<width$} {:>5} {:>9.0} {:>9.0} {:>9}", s.games, s.mean_score, s.median_score, s.max_score);
    for r in &s.reached {
        let _ = write!(row, " {:>5.0}%", r.share * 100.0);
    }
    let _ = write!(row, " {:>9.2} {:>11.0}", s.ms_per_move, s.mean_moves);
    row
}

/// The CSV header matching [`csv_row`].
pub fn csv_header(label: &str) -> String {
    let mut s = format!("{label},games,mean_score,stderr_score,median_score,max_score,min_score");
    for t in MILESTONES {
        let _ = write!(s, ",reach_{t}");
    }
    s.push_str(",ms_per_move,mean_moves");
    s
}

/// One CSV line.
pub fn csv_row(label: &str, s: &Summary) -> String {
    let mut row = format!(
        "{label},{},{:.1},{:.1},{:.1},{},{}",
        s.games, s.mean_score, s.stderr_score, s.median_score, s.max_score, s.min_score
    );
    for r in &s.reached {
        let _ = write!(row, ",{:.4}", r.share);
    }
    let _ = write!(row, ",{:.3},{:.1}", s.ms_per_move, s.mean_moves);
    row
}

/// `canopy compare`.
pub fn compare(args: &g2048::Compare) -> anyhow::Result<()> {
    let agents = common::distinct("--agents", &args.run.game.agents)?;
    let options = &args.run.game.options;
    let eval = args.run.game.eval;
    g2048::warn_unused_options(&agents, &args.run.search, options, eval.is_some())?;
    let configs = agents
        .iter()
        .map(|&a| g2048::agent_config(a, &args.run.search, options, eval, g2048::PLAY_DEFAULT_PLAYOUTS))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let bar = g2048::progress_bar(args.games * agents.len() as u64);
    let quiet = args.run.quiet || args.run.search.no_progress;
    let mut rows = Vec::new();
    for (name, config) in agents.iter().zip(&configs) {
        let label = g2048::agent_label(*name);
        let games = g2048::run_games(config, args.games, args.run.search.seed, &bar, &label, quiet);
        rows.push((label, config, Summary::of(&games), games));
    }
    bar.finish_and_clear();
    if args.run.out.json {
        let v = json!({
            "game": "2048",
            "games": args.games,
            "seed": args.run.search.seed,
            "agents": rows.iter().map(|(label, config, summary, games)| json!({
                "agent": label,
                "params": g2048::params_json(config),
                "config": g2048::config_json(config),
                "summary": summary,
                "games": games,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if args.run.out.csv {
        println!("{}", csv_header("agent"));
        for (label, _, summary, _) in &rows {
            println!("{}", csv_row(label, summary));
        }
    } else {
        let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(5).max(5);
        println!("{}", table_header("agent", width));
        for (label, _, summary, _) in &rows {
            println!("{}", table_row(label, width, summary));
        }
        for (label, config, _, _) in &rows {
            println!("{label}: {}", g2048::config_line(config));
        }
    }
    Ok(())
}

/// `canopy sweep`.
pub fn sweep(args: &g2048::Sweep) -> anyhow::Result<()> {
    let param =
        Swept::parse(&args.param, args.run.search.skipped()).map_err(|e| input_error(format!("--param: {e}")))?;
    let g2048::Chooser { agent, eval, options } = &args.run.game;
    common::swept_not_fixed(
        &args.param,
        match param {
            Swept::Search(name) => args.run.search.given_flag(name),
            Swept::Agent(name) => options.given_flag(name),
        },
    )?;
    let agent = *agent;
    let kind = g2048::agent_kind(agent)?;
    let values = args.values()?;
    match param {
        Swept::Search(name) => common::check_values(name, &values, &args.run.search.params(1))?,
        Swept::Agent(name) => common::check_values(name, &values, &options.settings)?,
    }
    // Every game starts from the seed's board, whatever the agent.
    let (Swept::Search(name) | Swept::Agent(name)) = param;
    if name != "seed" && !kind.uses(name) {
        return Err(input_error(format!(
            "--param {}: {} does not use it; every value would play the same games",
            param.flag(),
            g2048::agent_label(agent)
        )));
    }
    // Build every configuration and create the plot's file first, so that a bad value or path stops the
    // sweep before any game (and before any warning, so that a refusal is one line).
    let mut configs = Vec::new();
    let flag = param.flag();
    for value in &values {
        let (search, g) = g2048::with_param(&args.run.search, options, param, value)
            .map_err(|e| input_error(format!("--values: {e}")))?;
        configs.push((
            value.trim().to_string(),
            g2048::agent_config(agent, &search, &g, *eval, g2048::PLAY_DEFAULT_PLAYOUTS)?,
        ));
    }
    let mut svg_file = args.svg.as_deref().map(|path| common::create_output("--svg", path)).transpose()?;
    g2048::warn_unused_options(&[agent], &args.run.search, options, eval.is_some())?;
    let bar = g2048::progress_bar(args.games * configs.len() as u64);
    let quiet = args.run.quiet || args.run.search.no_progress;
    let agent = g2048::agent_label(agent);
    let mut rows = Vec::new();
    for (value, config) in &configs {
        let label = format!("{agent} {flag}={value}");
        let games = g2048::run_games(config, args.games, args.run.search.seed, &bar, &label, quiet);
        rows.push((value.clone(), config, Summary::of(&games), games));
    }
    bar.finish_and_clear();
    if let (Some(path), Some(file)) = (&args.svg, svg_file.as_mut()) {
        let points: Vec<(String, f64, f64)> =
            rows.iter().map(|(v, _, s, _)| (v.clone(), s.mean_score, s.stderr_score)).collect();
        let title = format!("2048, {agent}: mean score against {flag} ({} games per value)", args.games);
        file.write_all(svg_plot(&title, &flag, &points).as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    let flag = &*flag;
    if args.run.out.json {
        let v = json!({
            "game": "2048",
            "agent": agent,
            "param": flag,
            "games": args.games,
            "seed": args.run.search.seed,
            "values": rows.iter().map(|(value, config, summary, games)| json!({
                "value": value,
                "params": g2048::params_json(config),
                "config": g2048::config_json(config),
                "summary": summary,
                "games": games,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if args.run.out.csv {
        println!("{}", csv_header(flag));
        for (value, _, summary, _) in &rows {
            println!("{}", csv_row(value, summary));
        }
    } else {
        let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(flag.len());
        println!("{}", table_header(flag, width));
        for (value, _, summary, _) in &rows {
            println!("{}", table_row(value, width, summary));
        }
        // The settings the rows share, written out as the first row has them (its value of the varied
        // parameter named, so that it is not read as fixed).
        if let Some((value, config, _, _)) = rows.first() {
            println!(
                "{agent}, first row ({flag} {value}; the other rows differ only in {flag}): {}",
                g2048::config_line(config)
            );
        }
    }
    Ok(())
}
