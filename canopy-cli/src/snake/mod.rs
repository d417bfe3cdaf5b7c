//! `canopy play snake` and `canopy analyze snake`: the snake options, reading a position, and
//! explaining a decision; series of games (for `play`, `compare` and `sweep`) are in the `play` submodule.

mod play;

use serde::Deserialize;
use serde_json::json;

use super::args::{self, agent_parser};
use super::common::{self, Whole};
use super::params::SettingsFlags;
use super::search_args::ForSnake;
use super::{input_error, AgentName};
use canopy_mcts::games::snake::{Cell, Dir, MctsAgent, Snake, SnakePolicy, SnakeState, MAX_SIDE};
use canopy_mcts::param::shown;
use canopy_mcts::search::Search;

pub use play::{play, progress_bar, warn_unused_options, GameResult, SeriesSetup, Summary, PLAY_DEFAULT_MS};

/// Pauses of `--watch` (`--delay`), in milliseconds.
const DELAY_MS: Whole = Whole { min: 0, max: 10_000 };
/// Move caps of `--max-moves`.
const MAX_MOVES: Whole = Whole { min: 1, max: u64::MAX };
/// Free cells of `--endgame`: 0 (off) to the largest board's cells.
pub(crate) const ENDGAME: Whole = Whole { min: 0, max: (MAX_SIDE * MAX_SIDE) as u64 };

/// The snake agents.
pub const AGENTS: &[AgentName] =
    &[AgentName::Mcts, AgentName::Greedy, AgentName::Tailfollow, AgentName::Hamilton, AgentName::Random];

/// `canopy analyze snake`.
pub type Analyze = args::AnalyzeArgs<Position, ForSnake>;
/// `canopy play snake`.
pub type Play = args::PlayArgs<Chooser, ForSnake>;
/// `canopy compare snake`.
pub type Compare = args::CompareArgs<Choosers, ForSnake>;
/// `canopy sweep snake`.
pub type Sweep = args::SweepArgs<Chooser, ForSnake>;

/// A snake position and the MCTS agent's search policy.
#[derive(clap::Args, Debug)]
pub struct Position {
    /// The position: "8x8 body=x,y x,y ... food=x,y [hunger=N] [steps=N]" (head first) or JSON (see
    /// docs/snake.md).
    #[arg(long, visible_alias = "board", required = true, allow_hyphen_values = true)]
    pub state: String,
    #[command(flatten)]
    pub policy: SnakeSearchArgs,
}

/// A snake agent and the game's options.
#[derive(clap::Args, Debug)]
pub struct Chooser {
    /// Who chooses the moves.
    #[arg(long, default_value = "mcts", value_parser = agent_parser(AGENTS))]
    pub agent: AgentName,
    #[command(flatten)]
    pub options: SnakePlayArgs,
}

/// The snake agents to compare and the game's options.
#[derive(clap::Args, Debug)]
pub struct Choosers {
    /// Agents to compare, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "mcts,tailfollow,hamilton", value_parser = agent_parser(AGENTS))]
    pub agents: Vec<AgentName>,
    #[command(flatten)]
    pub options: SnakePlayArgs,
}

/// Snake options of `play`, `compare` and `sweep`.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Snake")]
pub struct SnakePlayArgs {
    /// Board size WxH, each side 2..=32, or N for N x N (default 10x10).
    #[arg(long, value_name = "WxH", allow_hyphen_values = true)]
    pub size: Option<String>,
    /// Draw the board in the terminal after every move (not with --json or --csv, whose output it would
    /// break).
    #[arg(long, conflicts_with_all = ["json", "csv"])]
    pub watch: bool,
    /// Pause after each drawn move, in milliseconds, 0..=10000 (with --watch).
    #[arg(long, value_name = "MS", default_value_t = 30, requires = "watch", allow_negative_numbers = true, value_parser = |t: &str| DELAY_MS.parse(t))]
    pub delay: u64,
    /// Stop a game after this many moves, at least 1 (the game then counts as unfinished).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = |t: &str| MAX_MOVES.parse(t))]
    pub max_moves: Option<u64>,
    /// MCTS agent: follow a closing Hamiltonian cycle once one exists with at most N free cells, 0..=1024
    /// (default a quarter of the cells; 0 turns it off).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = |t: &str| ENDGAME.parse(t).map(|n| n as usize))]
    pub endgame: Option<usize>,
    /// MCTS agent: search every move from a new tree (by default the tree is kept from move to move,
    /// re-rooted on the move and the food spawn).
    #[arg(long)]
    pub no_reuse: bool,
    #[command(flatten)]
    pub search: SnakeSearchArgs,
}

/// Settings of the MCTS agent's search policy, shared by `play` and `analyze`: the flags of the library's
/// declarations ([`SnakePolicy`]'s table), applied to the agent's policy for the board.
pub type SnakeSearchArgs = SettingsFlags<SnakePolicy>;

/// The MCTS agent's search policy for a `width` x `height` board with the given settings.
fn search_policy(flags: &SnakeSearchArgs, width: usize, height: usize) -> SnakePolicy {
    let mut policy = MctsAgent::search_policy(width, height);
    flags.apply_to(&mut policy);
    policy
}

/// Reads `WxH`, or `N` for a square board.
fn parse_size(text: &str) -> anyhow::Result<(usize, usize)> {
    let bad =
        || input_error(format!("--size: {} is not WxH or N with each side from 2 to 32 (e.g. 8x10 or 8)", shown(text)));
    let (w, h) = text.trim().split_once(['x', 'X']).unwrap_or((text.trim(), text.trim()));
    let w: usize = w.parse().map_err(|_| bad())?;
    let h: usize = h.parse().map_err(|_| bad())?;
    if (2..=32).contains(&w) && (2..=32).contains(&h) {
        Ok((w, h))
    } else {
        Err(bad())
    }
}

/// A position as JSON: `{"size": "8x8", "body": [[x, y], ...], "food": [x, y], "hunger": 0, "steps": 0}`
/// (`width` and `height` may replace `size`; `food` may be null or absent for a pending spawn).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonState {
    size: Option<String>,
    width: Option<usize>,
    height: Option<usize>,
    body: Vec<[u8; 2]>,
    food: Option<[u8; 2]>,
    #[serde(default)]
    hunger: u32,
    #[serde(default)]
    steps: u32,
}

/// Reads a position in the text format of `games::snake::parse` or as JSON (see [`JsonState`]).
fn parse_state(text: &str) -> anyhow::Result<SnakeState> {
    if !text.trim_start().starts_with('{') {
        return text.parse().map_err(|e| input_error(format!("bad snake state: {e}")));
    }
    let j: JsonState =
        serde_json::from_str(text).map_err(|e| input_error(format!("bad snake state JSON: {}", one_line(&e))))?;
    let (w, h) = match (&j.size, j.width, j.height) {
        (Some(s), None, None) => parse_size(s)?,
        (None, Some(w), Some(h)) => (w, h),
        _ => return Err(input_error("bad snake state JSON: give either \"size\" or \"width\" and \"height\"")),
    };
    let body: Vec<Cell> = j.body.iter().map(|&[x, y]| Cell::new(x, y)).collect();
    let mut s = SnakeState::from_body(w, h, &body, j.food.map(|[x, y]| Cell::new(x, y)))
        .map_err(|e| input_error(format!("bad snake state: {e}")))?;
    s.set_hunger(j.hunger);
    s.set_steps(j.steps);
    Ok(s)
}

fn one_line(e: &impl std::fmt::Display) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}

/// Analyses a snake position with the MCTS agent's search policy.
pub fn analyze(args: &Analyze) -> anyhow::Result<()> {
    let state = parse_state(&args.game.state)?;
    let game = Snake::for_state(&state);
    game.check_position(&state).map_err(|e| input_error(format!("bad snake state: {e}")))?;
    if state.end().is_none() && state.food().is_none() {
        return Err(input_error(
            "bad snake state: the position has no food: add food=x,y (analyze needs the snake to move)",
        ));
    }
    let policy = search_policy(&args.game.policy, state.width(), state.height());
    let params = args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
    let report = args.run(&Search::with_policy(&game, &policy, params.clone()), &state);
    // Every safe move (all non-reversing moves when none is safe), marked when the tail filter left it
    // out of the search.
    let mut legal = Vec::new();
    Snake::safe_moves(&state, &mut legal);
    let rows: Vec<(Dir, Option<&canopy_mcts::search::ActionStats<Dir>>)> =
        legal.iter().map(|&d| (d, report.actions.iter().find(|a| a.action == d))).collect();
    let safe = |d: Dir| state.is_safe(d);
    let units = format!(
        "food eaten (1 per food) + {} per move survived, over the tree and a rollout of at most {} moves",
        game.survival_bonus(),
        policy.rollout_max_moves
    );
    if args.json {
        let mut v = json!({
            "game": "snake",
            "state": state.notation().to_string(),
            "board": state.to_string().lines().skip(1).collect::<Vec<_>>(),
            "length": state.len(),
            "game_over": report.best.is_none(),
            "end": state.end().map(|e| e.name()),
            "value_units": units,
        });
        // Every move the rules allow; one the tail filter kept out of the search has no visit.
        let actions = rows
            .iter()
            .map(|(d, a)| {
                let mut m = match a {
                    Some(a) => common::action_json(a),
                    None => common::move_json(d.name(), 0, Some(0.0), None, &[]),
                };
                m.insert("searched".into(), json!(a.is_some()));
                m.insert("safe".into(), json!(safe(*d)));
                m.insert("reward".into(), json!(a.map_or(0.0, |a| a.reward)));
                m
            })
            .collect();
        if let Some(obj) = v.as_object_mut() {
            obj.extend(common::analysis_json(&report, actions));
            obj.insert("rollout".into(), json!(format!("{:?}", policy.rollout)));
            obj.insert("tail_filter".into(), json!(format!("{:?}", policy.tail_filter).to_lowercase()));
        }
        args.print_json(v, Some(&params))?;
        return Ok(());
    }
    println!("{state}");
    if report.best.is_none() {
        println!("game over: {}", state.end().map_or("no move", |e| e.name()));
        return Ok(());
    }
    println!("{:<6} {:>9} {:>7} {:>10}  principal variation", "move", "visits", "share", "mean");
    for (d, a) in &rows {
        match a {
            Some(a) => println!(
                "{:<6} {:>9} {:>6.1}% {:>10}  {}",
                d.name(),
                a.visits,
                a.share * 100.0,
                a.mean.map_or("-".into(), |m| format!("{m:.3}")),
                a.pv.join(" ")
            ),
            None => println!(
                "{:<6} {:>9} {:>7} {:>10}  (not searched: the tail would be out of reach)",
                d.name(),
                0,
                "-",
                "-"
            ),
        }
    }
    println!("mean = {units}");
    println!("best: {}   pv: {}", report.best_name.as_deref().unwrap_or("-"), report.pv.join(" "));
    common::print_totals(&report);
    Ok(())
}
