//! `canopy compare snake` (several agents on the same games) and `canopy sweep snake` (one agent, one
//! declared search parameter over several values): length statistics as a table, CSV or JSON.

use std::io::Write as _;

use serde_json::json;

use super::common;
use super::snake::{self, progress_bar, GameResult, SeriesSetup, Summary};
use super::svg::svg_plot;
use super::{input_error, AgentName};
use canopy_mcts::games::snake::SnakePolicy;
use canopy_mcts::param::{Kind, Param, Settings, Store, Value};
use canopy_mcts::search::SearchParams;

/// The MCTS agent's own options that `sweep snake` varies besides the declared parameters (`--endgame`
/// and `--no-reuse`), declared here so that their values are read, checked and compared like the others'.
#[derive(Clone, Copy, Debug)]
struct AgentOptions {
    /// `--endgame N`.
    endgame: u64,
    /// Not `--no-reuse`.
    reuse: bool,
}

const AGENT_OPTIONS: &[Param<AgentOptions>] = &[
    Param {
        name: "endgame",
        help: "Follow a closing Hamiltonian cycle once one exists with at most N free cells (0: off)",
        kind: Kind::Int { min: snake::ENDGAME.min, max: snake::ENDGAME.max },
        store: Store::Int(|o, v| o.endgame = v),
        get: |o| Value::Int(o.endgame),
    },
    Param {
        name: "reuse",
        help: "Keep the search tree from move to move",
        kind: Kind::Flag,
        store: Store::Flag(|o, v| o.reuse = v),
        get: |o| Value::Flag(o.reuse),
    },
];

impl Settings for AgentOptions {
    fn params() -> &'static [Param<AgentOptions>] {
        AGENT_OPTIONS
    }
}

/// One row of a series: its label, the search parameters of the agent (`None` for a baseline, which
/// runs no search), the statistics and the games.
/// A row: its name, the search parameters and MCTS settings (`None` for a baseline), and its games.
type Row = (String, Option<SearchParams>, Option<serde_json::Value>, Summary, Vec<GameResult>);

/// `canopy compare snake`.
pub fn compare(args: &snake::Compare) -> anyhow::Result<()> {
    let agents = common::distinct("--agents", &args.run.game.agents)?;
    let options = &args.run.game.options;
    let setups =
        agents.iter().map(|&a| SeriesSetup::new(a, &args.run.search, options)).collect::<anyhow::Result<Vec<_>>>()?;
    snake::warn_unused_options(&agents, &args.run.search, options);
    let bar = progress_bar(args.games * setups.len() as u64, args.run.out.json || args.run.out.csv);
    let lines = common::game_lines(args.run.quiet || args.run.search.no_progress, true);
    let rows: Vec<Row> = setups
        .iter()
        .map(|setup| {
            let games = setup.run(args.games, args.run.search.seed, options, &bar, lines);
            let summary = Summary::of(&games, setup.cells());
            (setup.agent_name().to_string(), setup.search_params().cloned(), setup.mcts_json(), summary, games)
        })
        .collect();
    bar.finish_and_clear();
    print_rows(
        Columns { label: "agent", list: "agents", key: "agent" },
        &rows,
        args.run.out.json,
        args.run.out.csv,
        json!({ "game": "snake", "games": args.games, "seed": args.run.search.seed }),
    )
}

/// `canopy sweep snake`: the values of one declared search parameter ([`SearchParams`]'s table) or
/// search-policy setting ([`SnakePolicy`]'s).
pub fn sweep(args: &snake::Sweep) -> anyhow::Result<()> {
    let snake::Chooser { agent, options } = &args.run.game;
    let skipped = args.run.search.skipped();
    let search_param = SearchParams::param(&args.param).filter(|p| !skipped.contains(&p.name));
    let policy_param = SnakePolicy::param(&args.param);
    let agent_param = AgentOptions::param(&args.param);
    if search_param.is_none() && policy_param.is_none() && agent_param.is_none() {
        let known: Vec<String> = SearchParams::params()
            .iter()
            .map(|p| p.name)
            .filter(|name| !skipped.contains(name))
            .chain(SnakePolicy::params().iter().map(|p| p.name))
            .chain(AgentOptions::params().iter().map(|p| p.name))
            .map(|name| name.replace('_', "-"))
            .collect();
        return Err(input_error(format!("--param: '{}' is not one of {}", args.param.trim(), known.join(", "))));
    }
    common::swept_not_fixed(
        &args.param,
        match (search_param, policy_param) {
            (Some(p), _) => args.run.search.given_flag(p.name),
            (None, Some(p)) => options.search.given_flag(p.name),
            (None, None) => match agent_param.map(|p| p.name) {
                Some("reuse") => options.no_reuse.then(|| "--no-reuse".to_string()),
                Some(_) => options.endgame.map(|_| "--endgame".to_string()),
                None => None,
            },
        },
    )?;
    let swept_name = match (search_param, policy_param, agent_param) {
        (Some(p), _, _) => p.name,
        (None, Some(p), _) => p.name,
        (None, None, Some(p)) => p.name,
        (None, None, None) => unreachable!("checked above"),
    };
    // The tables, the JSON and the plot name it as `--param` takes it.
    let label = swept_name.replace('_', "-");
    // Every game starts from the seed's board and food, whatever the agent.
    if *agent != AgentName::Mcts && swept_name != "seed" {
        return Err(input_error(format!(
            "--param {label}: {agent} does not search; every value would play the same games"
        )));
    }
    let values = args.values()?;
    match search_param {
        Some(p) => common::check_values(p.name, &values, &args.run.search.params(1))?,
        None => {
            common::check_values(swept_name, &values, &options.search.settings)?;
            common::check_values(swept_name, &values, &AgentOptions { endgame: 0, reuse: true })?;
        }
    }
    let mut setups = Vec::new();
    for value in values {
        let invalid = |e: canopy_mcts::param::ParamError| input_error(format!("--values: {e}"));
        let setup = match (search_param, policy_param) {
            (Some(declared), _) => {
                let mut setup = SeriesSetup::new(*agent, &args.run.search, options)?;
                declared.apply(setup.params_mut(), &value).map_err(invalid)?;
                setup
            }
            (None, Some(declared)) => {
                let mut swept = options.clone();
                declared.apply(&mut swept.search.settings, &value).map_err(invalid)?;
                swept.search.given.retain(|(name, _)| *name != declared.name);
                swept.search.given.push((declared.name, value.trim().to_string()));
                SeriesSetup::new(*agent, &args.run.search, &swept)?
            }
            (None, None) => {
                let declared = agent_param.expect("checked above");
                let mut own = AgentOptions { endgame: 0, reuse: true };
                declared.apply(&mut own, &value).map_err(invalid)?;
                let mut swept = options.clone();
                match declared.name {
                    "reuse" => swept.no_reuse = !own.reuse,
                    _ => swept.endgame = Some(own.endgame as usize),
                }
                SeriesSetup::new(*agent, &args.run.search, &swept)?
            }
        };
        let setup = setup.labelled(format!("{label}={}", value.trim()));
        setups.push((value.trim().to_string(), setup));
    }
    let mut svg_file = args.svg.as_deref().map(|path| common::create_output("--svg", path)).transpose()?;
    let bar = progress_bar(args.games * setups.len() as u64, args.run.out.json || args.run.out.csv);
    let lines = common::game_lines(args.run.quiet || args.run.search.no_progress, true);
    let rows: Vec<Row> = setups
        .iter()
        .map(|(value, setup)| {
            let games = setup.run(args.games, args.run.search.seed, options, &bar, lines);
            (
                value.clone(),
                setup.search_params().cloned(),
                setup.mcts_json(),
                Summary::of(&games, setup.cells()),
                games,
            )
        })
        .collect();
    bar.finish_and_clear();
    if let (Some(path), Some(file)) = (&args.svg, svg_file.as_mut()) {
        let points: Vec<(String, f64, f64)> =
            rows.iter().map(|(v, _, _, s, _)| (v.clone(), s.mean_length, s.stderr_length)).collect();
        let title = format!("snake: mean length against {label} ({} games per value)", args.games);
        file.write_all(svg_plot(&title, &label, &points).as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    let head = json!({
        "game": "snake",
        "agent": agent.to_string(),
        "param": label,
        "games": args.games,
        "seed": args.run.search.seed,
    });
    print_rows(
        Columns { label: &label, list: "values", key: "value" },
        &rows,
        args.run.out.json,
        args.run.out.csv,
        head,
    )
}

/// How [`print_rows`] names its rows: the first column of the table and CSV (`label`), and in the JSON
/// the list of rows and each row's name, as `compare 2048` and `sweep 2048` name them (`agents` with
/// `agent`, `values` with `value`).
struct Columns<'l> {
    label: &'l str,
    list: &'static str,
    key: &'static str,
}

/// Prints `rows` as a table, CSV or JSON (with `head`'s keys first).
fn print_rows(
    columns: Columns<'_>,
    rows: &[Row],
    json: bool,
    csv: bool,
    head: serde_json::Value,
) -> anyhow::Result<()> {
    let label = columns.label;
    if json {
        let mut v = head;
        v[columns.list] = rows
            .iter()
            .map(|(name, params, mcts, summary, games)| {
                let params = params.as_ref().map(|p| {
                    super::params::to_json(p, <crate::search_args::ForSnake as crate::search_args::Profile>::SKIP)
                });
                json!({ columns.key: name, "params": params, "mcts": mcts, "summary": summary, "games": games })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    if csv {
        println!("{label},games,mean_length,stderr_length,median_length,max_length,fill,won,ms_per_move");
        for (name, _, _, s, _) in rows {
            println!(
                "{name},{},{:.2},{:.2},{:.1},{},{:.4},{:.4},{:.3}",
                s.games,
                s.mean_length,
                s.stderr_length,
                s.median_length,
                s.max_length,
                s.mean_fill,
                s.win_rate,
                s.ms_per_move
            );
        }
        return Ok(());
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(label.len());
    println!(
        "{label:<width$} {:>5} {:>8} {:>6} {:>7} {:>4} {:>6} {:>5} {:>9}",
        "games", "length", "±", "median", "max", "fill", "won", "ms/move"
    );
    for (name, _, _, s, _) in rows {
        println!(
            "{name:<width$} {:>5} {:>8.2} {:>6.2} {:>7.1} {:>4} {:>5.1}% {:>4.0}% {:>9.2}",
            s.games,
            s.mean_length,
            s.stderr_length,
            s.median_length,
            s.max_length,
            s.mean_fill * 100.0,
            s.win_rate * 100.0,
            s.ms_per_move
        );
    }
    Ok(())
}
