//! `canopy compare` and `canopy sweep` for the two-player games: each agent (or the mcts agent at each
//! value of one parameter) plays the same series of games against one opponent, colours alternating
//! (game 1 first, game 2 second, ...); the table gives wins, draws, losses and the score rate (a win 1,
//! a draw 1/2) with its standard error.

use std::io::Write as _;

use serde::Serialize;
use serde_json::json;

use super::args::{self, agent_parser};
use super::gomoku::PositionArgs;
use super::matches::{agent_params, parse_agent, MATCH_DEFAULT_PLAYOUTS};
use super::params::SettingsFlags;
use super::search_args::{ForGomoku, ForTicTacToe};
use super::svg::svg_plot;
use super::two_player::{
    duel, tictactoe_agent, tictactoe_agent_with_params, warn_unused_options, AgentMaker, DuelGame, GOMOKU_AGENTS,
    TICTACTOE_AGENTS,
};
use super::{common, input_error, AgentName};
use canopy_mcts::games::gomoku::{Gomoku, GomokuState, PlayerAgent, Tuning};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::Game;

/// `canopy compare gomoku`.
pub type CompareGomoku = args::CompareArgs<GomokuRivals, ForGomoku>;
/// `canopy sweep gomoku`.
pub type SweepGomoku = args::SweepArgs<GomokuRival, ForGomoku>;
/// `canopy compare tictactoe`.
pub type CompareTicTacToe = args::CompareArgs<TicTacToeRivals, ForTicTacToe>;
/// `canopy sweep tictactoe`.
pub type SweepTicTacToe = args::SweepArgs<Opponent, ForTicTacToe>;

/// The agent every game of a two-player series is played against.
#[derive(clap::Args, Debug)]
pub struct Opponent {
    /// The opponent of every game, in `match`'s agent forms (e.g. threat, or mcts:playouts=2000).
    /// Default: threat (gomoku), random (tic-tac-toe).
    #[arg(long, value_name = "AGENT")]
    pub opponent: Option<String>,
}

/// The Gomoku agents to compare, their opponent, the opening and the brain settings.
#[derive(clap::Args, Debug)]
pub struct GomokuRivals {
    /// Agents to compare, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "mcts,flat,random", value_parser = agent_parser(GOMOKU_AGENTS))]
    pub agents: Vec<AgentName>,
    #[command(flatten)]
    pub rival: GomokuRival,
}

/// The opponent of a Gomoku series, the opening and the brain settings of the mcts agents.
#[derive(clap::Args, Debug)]
pub struct GomokuRival {
    #[command(flatten)]
    pub opponent: Opponent,
    /// The opening: every game starts after these moves (and on this board).
    #[command(flatten)]
    pub position: PositionArgs,
    /// The brain settings of the mcts agents.
    #[command(flatten)]
    pub brain: SettingsFlags<Tuning>,
}

/// The tic-tac-toe agents to compare and their opponent.
#[derive(clap::Args, Debug)]
pub struct TicTacToeRivals {
    /// Agents to compare, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "mcts,random", value_parser = agent_parser(TICTACTOE_AGENTS))]
    pub agents: Vec<AgentName>,
    #[command(flatten)]
    pub opponent: Opponent,
}

/// A row's results from its agent's side.
#[derive(Clone, Debug, Serialize)]
struct Score {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    /// (wins + draws / 2) / games.
    score: f64,
    /// Standard error of `score` (sample standard deviation of the per-game scores / sqrt(games)).
    stderr_score: f64,
    /// Mean moves per game, both sides.
    mean_moves: f64,
}

impl Score {
    fn of(games: &[DuelGame]) -> Score {
        let points: Vec<f64> = games.iter().map(|g| g.winner.map_or(0.5, |w| if w == 0 { 1.0 } else { 0.0 })).collect();
        let n = points.len() as f64;
        let mean = points.iter().sum::<f64>() / n.max(1.0);
        let var =
            if points.len() > 1 { points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
        let count = |w: Option<usize>| games.iter().filter(|g| g.winner == w).count() as u64;
        Score {
            games: games.len() as u64,
            wins: count(Some(0)),
            draws: count(None),
            losses: count(Some(1)),
            score: mean,
            stderr_score: (var / n.max(1.0)).sqrt(),
            mean_moves: games.iter().map(|g| g.moves.len()).sum::<usize>() as f64 / n.max(1.0),
        }
    }
}

/// What the rows of a series are: agents (`compare`) or values of a parameter (`sweep`).
struct Layout<'a> {
    game: &'static str,
    /// `agent`, or the swept parameter's name.
    column: &'a str,
    opponent: &'a str,
    games: u64,
    seed: u64,
    run: (args::Forms, bool, bool),
    /// The swept parameter and the plot's file (`sweep` only).
    sweep: Option<(&'a str, Option<&'a std::path::Path>)>,
}

/// Plays every row's series against the opponent and prints the table, CSV or JSON (and the plot).
fn run_rows<G: Game>(
    game: &G,
    start: &G::State,
    rows: Vec<(String, AgentMaker<G>, serde_json::Value)>,
    opponent: AgentMaker<G>,
    layout: &Layout<'_>,
    name: impl Fn(&G::Action) -> String + Copy,
) -> anyhow::Result<()> {
    let (forms, quiet, no_progress) = layout.run;
    let mut svg_file = match layout.sweep {
        Some((_, Some(path))) => Some(common::create_output("--svg", path)?),
        _ => None,
    };
    let lines = common::game_lines(quiet || no_progress, true);
    let mut results = Vec::new();
    for (label, agent, _) in &rows {
        let played = duel(
            game,
            |_| start.clone(),
            [agent.as_ref(), opponent.as_ref()],
            (layout.games, layout.seed, true),
            name,
            |g, _| {
                if lines {
                    let side = if g.a_first { "first" } else { "second" };
                    let who = match g.winner {
                        Some(0) => "won",
                        Some(_) => "lost",
                        None => "drew",
                    };
                    eprintln!("{label}: game {}/{} ({side}) {who} in {} moves", g.number, layout.games, g.moves.len());
                }
            },
        );
        results.push((label.clone(), Score::of(&played), played));
    }
    if let (Some((param, Some(path))), Some(file)) = (layout.sweep, svg_file.as_mut()) {
        let points: Vec<(String, f64, f64)> =
            results.iter().map(|(v, s, _)| (v.clone(), s.score, s.stderr_score)).collect();
        let title = format!(
            "{}, mcts against {}: score against {param} ({} games per value)",
            layout.game, layout.opponent, layout.games
        );
        file.write_all(svg_plot(&title, param, &points).as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    if forms.json {
        let (key, rows_key) = if layout.sweep.is_some() { ("value", "values") } else { ("agent", "agents") };
        let rows: Vec<serde_json::Value> = results
            .iter()
            .zip(&rows)
            .map(|((label, score, played), (_, _, params))| {
                let games: Vec<_> = played.iter().map(|g| &g.json).collect();
                json!({ key: label, "params": params, "summary": score, "games": games })
            })
            .collect();
        let mut v =
            json!({ "game": layout.game, "opponent": layout.opponent, "games": layout.games, "seed": layout.seed });
        if let Some((param, _)) = layout.sweep {
            // Only the mcts agent is swept.
            v["agent"] = json!("mcts");
            v["param"] = json!(param);
        }
        v[rows_key] = json!(rows);
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if forms.csv {
        println!("{},games,wins,draws,losses,score,stderr_score,mean_moves", layout.column);
        for (label, s, _) in &results {
            println!(
                "{label},{},{},{},{},{:.4},{:.4},{:.1}",
                s.games, s.wins, s.draws, s.losses, s.score, s.stderr_score, s.mean_moves
            );
        }
    } else {
        let width = results.iter().map(|r| r.0.len()).max().unwrap_or(0).max(layout.column.len());
        println!(
            "{:<width$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7} {:>6}",
            layout.column, "games", "won", "drawn", "lost", "score", "+-se", "moves"
        );
        for (label, s, _) in &results {
            println!(
                "{label:<width$} {:>6} {:>5} {:>5} {:>5} {:>7.3} {:>7.3} {:>6.1}",
                s.games, s.wins, s.draws, s.losses, s.score, s.stderr_score, s.mean_moves
            );
        }
        println!(
            "against {} ({} game{} per row, colours alternating, seed {}; score = (wins + draws/2) / games)",
            layout.opponent,
            layout.games,
            if layout.games == 1 { "" } else { "s" },
            layout.seed
        );
    }
    Ok(())
}

/// A Gomoku agent maker from its description (`match`'s forms); `given`: whether the command line set
/// `--exploration` (see [`parse_agent`]).
fn gomoku_agent(
    spec: &str,
    base: (&canopy_mcts::SearchParams, bool),
    brain: Tuning,
) -> Result<AgentMaker<Gomoku>, String> {
    gomoku_agent_with_params(spec, base, brain).map(|(maker, _)| maker)
}

/// [`gomoku_agent`] and the search parameters it plays with as `--json` gives them (null for an agent
/// that does not search).
fn gomoku_agent_with_params(
    spec: &str,
    (base, given): (&canopy_mcts::SearchParams, bool),
    brain: Tuning,
) -> Result<(AgentMaker<Gomoku>, serde_json::Value), String> {
    let player = parse_agent(spec, base, brain, given)?;
    let params = agent_params(&player);
    Ok((Box::new(move || Box::new(PlayerAgent::new(player.clone()))), params))
}

/// [`tictactoe_agent`] and its search parameters as `--json` gives them (null for `random`).
fn tictactoe_agent_json(
    spec: &str,
    base: &canopy_mcts::SearchParams,
) -> Result<(AgentMaker<TicTacToe>, serde_json::Value), String> {
    let (maker, params) = tictactoe_agent_with_params(spec, base)?;
    let params = params.map_or(serde_json::Value::Null, |p| {
        super::params::to_json(&p, <ForTicTacToe as super::search_args::Profile>::SKIP)
    });
    Ok((maker, params))
}

/// The Gomoku game, opening and opponent of a series.
fn gomoku_setup(
    rival: &GomokuRival,
    base: (&canopy_mcts::SearchParams, bool),
) -> anyhow::Result<(Gomoku, GomokuState, String, AgentMaker<Gomoku>)> {
    let game = rival.position.game()?;
    let start = rival.position.position(&game, None, true)?;
    if start.is_terminal() {
        return Err(input_error("the opening position is already over"));
    }
    let spec = rival.opponent.opponent.clone().unwrap_or_else(|| "threat".to_string());
    let opponent =
        gomoku_agent(&spec, base, rival.brain.settings).map_err(|e| input_error(format!("--opponent: {e}")))?;
    Ok((game, start, spec, opponent))
}

/// `canopy compare gomoku`.
pub fn compare_gomoku(args: &CompareGomoku) -> anyhow::Result<()> {
    let params = args.run.search.params(MATCH_DEFAULT_PLAYOUTS);
    let base = (&params, args.run.search.exploration.is_some());
    let rival = &args.run.game.rival;
    let (game, start, spec, opponent) = gomoku_setup(rival, base)?;
    let agents = common::distinct("--agents", &args.run.game.agents)?;
    let searching = agents.contains(&AgentName::Mcts) || spec.trim_start().starts_with("mcts");
    warn_unused_options(
        searching,
        &format!("neither the agents nor the opponent ({spec}) search"),
        &args.run.search,
        Some(&rival.brain),
    );
    let mut rows = Vec::new();
    for agent in agents {
        let (maker, params) =
            gomoku_agent_with_params(&agent.to_string(), base, rival.brain.settings).map_err(input_error)?;
        rows.push((agent.to_string(), maker, params));
    }
    let layout = layout("gomoku", "agent", &spec, args.games, &args.run, None);
    run_rows(&game, &start, rows, opponent, &layout, |c| c.to_string())
}

/// `canopy sweep gomoku`: a search parameter or a brain setting of the mcts agent.
pub fn sweep_gomoku(args: &SweepGomoku) -> anyhow::Result<()> {
    let params = args.run.search.params(MATCH_DEFAULT_PLAYOUTS);
    let base = (&params, args.run.search.exploration.is_some());
    let rival = &args.run.game;
    let (game, start, spec, opponent) = gomoku_setup(rival, base)?;
    let param = swept_name(&args.param, args.run.search.skipped(), true)?;
    common::swept_not_fixed(
        &args.param,
        args.run.search.given_flag(&param).or_else(|| rival.brain.given_flag(&param)),
    )?;
    let values = args.values()?;
    common::check_values(&param, &values, &params)?;
    common::check_values(&param, &values, &rival.brain.settings)?;
    let mut rows = Vec::new();
    for value in values {
        let (maker, params) =
            gomoku_agent_with_params(&format!("mcts:{param}={}", value.trim()), base, rival.brain.settings)
                .map_err(|e| input_error(format!("--values: {e}")))?;
        rows.push((value.trim().to_string(), maker, params));
    }
    // The tables, the JSON and the plot name it as `--param` takes it.
    let label = param.replace('_', "-");
    let layout = layout("gomoku", &label, &spec, args.games, &args.run, Some((&label, args.svg.as_deref())));
    run_rows(&game, &start, rows, opponent, &layout, |c| c.to_string())
}

/// `canopy compare tictactoe`.
pub fn compare_tictactoe(args: &CompareTicTacToe) -> anyhow::Result<()> {
    let base = args.run.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
    let spec = args.run.game.opponent.opponent.clone().unwrap_or_else(|| "random".to_string());
    let opponent = tictactoe_agent(&spec, &base).map_err(|e| input_error(format!("--opponent: {e}")))?;
    let agents = common::distinct("--agents", &args.run.game.agents)?;
    let searching = agents.contains(&AgentName::Mcts) || spec.trim_start().starts_with("mcts");
    warn_unused_options(
        searching,
        &format!("neither the agents nor the opponent ({spec}) search"),
        &args.run.search,
        None,
    );
    let mut rows = Vec::new();
    for agent in agents {
        let (maker, params) = tictactoe_agent_json(&agent.to_string(), &base).map_err(input_error)?;
        rows.push((agent.to_string(), maker, params));
    }
    let layout = layout("tic-tac-toe", "agent", &spec, args.games, &args.run, None);
    run_rows(&TicTacToe, &TicTacToeState::default(), rows, opponent, &layout, |c| c.to_string())
}

/// `canopy sweep tictactoe`: a search parameter of the mcts agent.
pub fn sweep_tictactoe(args: &SweepTicTacToe) -> anyhow::Result<()> {
    let base = args.run.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
    let spec = args.run.game.opponent.clone().unwrap_or_else(|| "random".to_string());
    let opponent = tictactoe_agent(&spec, &base).map_err(|e| input_error(format!("--opponent: {e}")))?;
    let param = swept_name(&args.param, args.run.search.skipped(), false)?;
    common::swept_not_fixed(&args.param, args.run.search.given_flag(&param))?;
    let values = args.values()?;
    common::check_values(&param, &values, &base)?;
    let mut rows = Vec::new();
    for value in values {
        let (maker, params) = tictactoe_agent_json(&format!("mcts:{param}={}", value.trim()), &base)
            .map_err(|e| input_error(format!("--values: {e}")))?;
        rows.push((value.trim().to_string(), maker, params));
    }
    // The tables, the JSON and the plot name it as `--param` takes it.
    let label = param.replace('_', "-");
    let layout = layout("tic-tac-toe", &label, &spec, args.games, &args.run, Some((&label, args.svg.as_deref())));
    run_rows(&TicTacToe, &TicTacToeState::default(), rows, opponent, &layout, |c| c.to_string())
}

/// The layout of a series from its options.
fn layout<'a, G: clap::Args, P: super::search_args::Profile>(
    game: &'static str,
    column: &'a str,
    opponent: &'a str,
    games: u64,
    run: &args::SeriesOptions<G, P>,
    sweep: Option<(&'a str, Option<&'a std::path::Path>)>,
) -> Layout<'a> {
    Layout {
        game,
        column,
        opponent,
        games,
        seed: run.search.seed,
        run: (run.out, run.quiet, run.search.no_progress),
        sweep,
    }
}

/// The declared name of the swept parameter: a search parameter the game takes, or, `with_brain`, a
/// brain setting of Gomoku's mcts agent.
///
/// # Errors
/// An input error listing what can be swept.
fn swept_name(name: &str, skipped: &[&str], with_brain: bool) -> anyhow::Result<String> {
    use canopy_mcts::param::Settings;
    let key = name.trim().replace('-', "_");
    let search = canopy_mcts::SearchParams::param(&key).filter(|p| !skipped.contains(&p.name)).is_some();
    let brain = with_brain && Tuning::param(&key).is_some();
    if search || brain {
        return Ok(key);
    }
    let mut known: Vec<String> = canopy_mcts::SearchParams::params()
        .iter()
        .map(|p| p.name)
        .filter(|n| !skipped.contains(n))
        .map(|n| n.replace('_', "-"))
        .collect();
    if with_brain {
        known.extend(Tuning::params().iter().map(|p| p.name.replace('_', "-")));
    }
    Err(input_error(format!("--param: '{name}' is not one of {}", known.join(", "))))
}
