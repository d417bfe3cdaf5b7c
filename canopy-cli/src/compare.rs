//! `canopy compare` (several agents on the same games) and `canopy sweep` (one agent, one parameter
//! over several values): the game statistics, their table, CSV and JSON forms, and the SVG plot.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::json;

use super::common::{self, GAMES};
use super::g2048::GameResult;
use super::g2048::{self, G2048Args};
use super::svg::svg_plot;
use super::{input_error, AgentName, GameName, SearchArgs};

/// Tiles whose reach the tables report.
pub const MILESTONES: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// Arguments of `canopy compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The game: 2048 or snake (two-player games are compared with `canopy match`).
    pub game: GameName,
    /// Agents to compare, comma-separated. 2048: mcts, expectimax, flat, greedy, random (default
    /// mcts,expectimax,flat); snake: mcts, greedy, tailfollow, hamilton, random (default
    /// mcts,tailfollow,hamilton).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub agents: Option<Vec<AgentName>>,
    /// Games per agent, 1..=1000000 (game i of every agent starts from the same board).
    #[arg(long, default_value_t = 20, allow_negative_numbers = true, value_parser = |t: &str| GAMES.parse(t))]
    pub games: u64,
    #[command(flatten)]
    pub run: SeriesOptions,
}

/// The options `compare` and `sweep` share: output forms and the search and game settings of every agent.
#[derive(clap::Args, Debug)]
pub struct SeriesOptions {
    /// Print one JSON object (summaries and every game) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Print CSV (one line per agent or value) instead of tables.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Do not print a line per finished game on stderr.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub g2048: G2048Args,
    #[command(flatten)]
    pub snake: super::snake::SnakePlayArgs,
}

/// 2048's own parameters `canopy sweep` can vary, beside the declared search parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SweepParam {
    /// Random-move probability of egreedy rollouts (--epsilon).
    Epsilon,
    /// Rollout length, a number or `end` (--rollout-depth).
    RolloutDepth,
    /// Rollout moves: random or egreedy (--rollout).
    Rollout,
    /// Expectimax lookahead scoring the end of truncated rollouts (--leaf-depth).
    LeafDepth,
    /// Expectimax depth (--depth).
    Depth,
    /// Expectimax probability cut-off (--prob-cutoff).
    ProbCutoff,
}

impl SweepParam {
    /// The option's name on the command line.
    pub fn flag(self) -> &'static str {
        match self {
            SweepParam::Epsilon => "epsilon",
            SweepParam::RolloutDepth => "rollout-depth",
            SweepParam::Rollout => "rollout",
            SweepParam::LeafDepth => "leaf-depth",
            SweepParam::Depth => "depth",
            SweepParam::ProbCutoff => "prob-cutoff",
        }
    }
}

/// What a 2048 sweep varies: a declared search parameter, or one of 2048's own.
#[derive(Clone, Copy, Debug)]
pub enum Swept {
    /// A parameter of the engine's declarations ([`canopy_mcts::SearchParams`]'s table), by name.
    Search(&'static str),
    /// A 2048 option.
    G2048(SweepParam),
}

impl Swept {
    /// Reads `--param`: a declared search parameter (hyphens or underscores) or a 2048 option.
    ///
    /// # Errors
    /// A one-line message listing what can be swept.
    pub fn parse(name: &str) -> Result<Swept, String> {
        use canopy_mcts::param::Settings;
        if let Some(p) = canopy_mcts::SearchParams::param(name) {
            return Ok(Swept::Search(p.name));
        }
        <SweepParam as clap::ValueEnum>::from_str(name, true).map(Swept::G2048).map_err(|_| {
            format!("'{name}' is not a search parameter or one of epsilon, rollout-depth, rollout, leaf-depth, depth, prob-cutoff")
        })
    }

    /// The option's name on the command line (without `--`).
    pub fn flag(self) -> String {
        match self {
            Swept::Search(name) => name.replace('_', "-"),
            Swept::G2048(p) => p.flag().to_string(),
        }
    }
}

/// Arguments of `canopy sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// The game: 2048 or snake.
    pub game: GameName,
    /// The agent whose parameter varies.
    #[arg(long, value_enum, default_value_t = AgentName::Mcts)]
    pub agent: AgentName,
    /// The parameter to vary (the other options hold for every value). 2048: exploration, virtual-loss,
    /// expand-threshold, epsilon, rollout-depth, rollout, leaf-depth, time, playouts, threads, depth,
    /// prob-cutoff. Snake: any search parameter (playouts, time, threads, exploration, virtual-loss,
    /// expand-threshold, selection, chance, backup, ...).
    #[arg(long)]
    pub param: String,
    /// The values to try, comma-separated in one argument (0.1,0.3,1), as the parameter's own option would
    /// take them.
    #[arg(long, value_delimiter = ',', required = true, num_args = 1, allow_hyphen_values = true)]
    pub values: Vec<String>,
    /// Games per value, 1..=1000000 (game i of every value starts from the same board).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = |t: &str| GAMES.parse(t))]
    pub games: u64,
    /// Write a plot of the mean score (with its standard error) against the values to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub run: SeriesOptions,
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
pub fn compare(args: &CompareArgs) -> anyhow::Result<()> {
    match args.game {
        GameName::G2048 => args.run.snake.refuse_for("2048")?,
        GameName::Snake => return super::snake_series::compare(args),
        _ => return Err(input_error("compare supports 2048 and snake (two-player games: canopy match)")),
    }
    let mut agents = Vec::new();
    let named = args.agents.clone().unwrap_or_else(|| vec![AgentName::Mcts, AgentName::Expectimax, AgentName::Flat]);
    for &name in &named {
        if !agents.contains(&name) {
            agents.push(name);
        }
    }
    g2048::warn_unused_options(&agents, &args.run.search, &args.run.g2048)?;
    let configs = agents
        .iter()
        .map(|&a| g2048::agent_config(a, &args.run.search, &args.run.g2048, g2048::PLAY_DEFAULT_PLAYOUTS))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let bar = g2048::progress_bar(args.games * agents.len() as u64);
    let mut rows = Vec::new();
    for (name, config) in agents.iter().zip(&configs) {
        let label = g2048::agent_label(*name);
        let games = g2048::run_games(config, args.games, args.run.search.seed, &bar, &label, args.run.quiet);
        rows.push((label, config, Summary::of(&games), games));
    }
    bar.finish_and_clear();
    if args.run.json {
        let v = json!({
            "game": "2048",
            "games": args.games,
            "seed": args.run.search.seed,
            "agents": rows.iter().map(|(label, config, summary, games)| json!({
                "agent": label,
                "config": g2048::config_json(config),
                "summary": summary,
                "games": games,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if args.run.csv {
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
pub fn sweep(args: &SweepArgs) -> anyhow::Result<()> {
    // clap split the list at its commas; an empty element is refused by name, not read as a value.
    common::comma_list(&args.values.join(","))
        .map_err(|e| input_error(format!("--values: {e} (example: --values 0.1,0.3,1)")))?;
    match args.game {
        GameName::G2048 => args.run.snake.refuse_for("2048")?,
        GameName::Snake => return super::snake_series::sweep(args),
        _ => return Err(input_error("sweep supports 2048 and snake")),
    }
    let param = Swept::parse(&args.param).map_err(|e| input_error(format!("--param: {e}")))?;
    let kind = g2048::agent_kind(args.agent)?;
    // Build every configuration and create the plot's file first, so that a bad value or path stops the
    // sweep before any game (and before any warning, so that a refusal is one line).
    let mut configs = Vec::new();
    let swept_flag = format!("--{}", param.flag());
    let flag = param.flag();
    let mut swept_unused = false;
    for value in &args.values {
        let (search, g) = g2048::with_param(&args.run.search, &args.run.g2048, param, value)
            .map_err(|e| input_error(format!("--values: {e}")))?;
        if configs.is_empty() {
            swept_unused = g2048::unused_options(&[kind], &search, &g).contains(&swept_flag.as_str());
        }
        configs.push((
            value.trim().to_string(),
            g2048::agent_config(args.agent, &search, &g, g2048::PLAY_DEFAULT_PLAYOUTS)?,
        ));
    }
    let mut svg_file = args.svg.as_deref().map(|path| common::create_output("--svg", path)).transpose()?;
    g2048::warn_unused_options(&[args.agent], &args.run.search, &args.run.g2048)?;
    if swept_unused {
        eprintln!(
            "warning: {} does not use {swept_flag}; every value plays the same games",
            g2048::agent_label(args.agent)
        );
    }
    let bar = g2048::progress_bar(args.games * configs.len() as u64);
    let agent = g2048::agent_label(args.agent);
    let mut rows = Vec::new();
    for (value, config) in &configs {
        let label = format!("{agent} {flag}={value}");
        let games = g2048::run_games(config, args.games, args.run.search.seed, &bar, &label, args.run.quiet);
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
    if args.run.json {
        let v = json!({
            "game": "2048",
            "agent": agent,
            "param": flag,
            "games": args.games,
            "seed": args.run.search.seed,
            "values": rows.iter().map(|(value, config, summary, games)| json!({
                "value": value,
                "config": g2048::config_json(config),
                "summary": summary,
                "games": games,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if args.run.csv {
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
        if let Some((_, config, _, _)) = rows.first() {
            println!("{agent} ({flag} varies): {}", g2048::config_line(config));
        }
    }
    Ok(())
}
