//! `canopy play` for the two-player games (tic-tac-toe and Gomoku): the agent plays both sides, game
//! after game, through the library's game loop; the table counts wins per colour and draws.

use serde_json::json;

use super::args::{self, agent_parser, Forms, NoOptions};
use super::gomoku::PositionArgs;
use super::matches::MATCH_DEFAULT_PLAYOUTS;
use super::params::SettingsFlags;
use super::search_args::{ForGomoku, ForTicTacToe};
use super::{common, input_error, AgentName};
use canopy_mcts::agent::{play_game, Agent, GameRecord, GameSeeds, Mcts, RandomAgent};
use canopy_mcts::games::gomoku::{Gomoku, Player, PlayerAgent, Tuning, DEFAULT_FLAT_ROLLOUTS};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::search::SearchParams;
use canopy_mcts::{Game, Rng};

/// The tic-tac-toe agents.
pub const TICTACTOE_AGENTS: &[AgentName] = &[AgentName::Mcts, AgentName::Random];
/// The Gomoku agents.
pub const GOMOKU_AGENTS: &[AgentName] = &[AgentName::Mcts, AgentName::Flat, AgentName::Threat, AgentName::Random];

/// `canopy play tictactoe`.
pub type PlayTicTacToe = args::PlayArgs<TicTacToeChooser, ForTicTacToe>;
/// `canopy play gomoku`.
pub type PlayGomoku = args::PlayArgs<GomokuChooser, ForGomoku>;
/// `canopy match tictactoe`.
pub type MatchTicTacToe = args::MatchArgs<NoOptions, ForTicTacToe>;

/// The tic-tac-toe agent of `play`.
#[derive(clap::Args, Debug)]
pub struct TicTacToeChooser {
    /// Who chooses the moves (both sides).
    #[arg(long, default_value = "mcts", value_parser = agent_parser(TICTACTOE_AGENTS))]
    pub agent: AgentName,
    /// mcts: search every move from a new tree (by default each side keeps its tree from move to move,
    /// re-rooted on both sides' moves).
    #[arg(long)]
    pub no_reuse: bool,
}

/// The Gomoku agent of `play`, the opening and the brain settings.
#[derive(clap::Args, Debug)]
pub struct GomokuChooser {
    /// Who chooses the moves (both sides).
    #[arg(long, default_value = "mcts", value_parser = agent_parser(GOMOKU_AGENTS))]
    pub agent: AgentName,
    /// The opening: every game starts after these moves (and on this board).
    #[command(flatten)]
    pub position: PositionArgs,
    /// The brain settings of the mcts agent.
    #[command(flatten)]
    pub brain: SettingsFlags<Tuning>,
}

/// Prints one warning line on stderr when search or brain options were given and no agent of the
/// series searches (`searching` is false): only mcts reads them. `why` says so (`threat does not
/// search`).
pub fn warn_unused_options(
    searching: bool,
    why: &str,
    search: &super::SearchArgs,
    brain: Option<&SettingsFlags<Tuning>>,
) {
    if searching {
        return;
    }
    let own = brain
        .into_iter()
        .flat_map(|b| b.given.iter().map(|(name, _)| super::params::flag_of(name, &Tuning::default())));
    let unused: Vec<String> =
        search.given_flags().filter(|(name, _)| *name != "seed").map(|(_, flag)| flag).chain(own).collect();
    if !unused.is_empty() {
        eprintln!("warning: {why}; {} ignored", unused.join(", "));
    }
}

/// Plays `args.games` self-play games of tic-tac-toe with the agent on both sides.
pub fn play_tictactoe(args: &PlayTicTacToe) -> anyhow::Result<()> {
    let searching = args.game.agent == AgentName::Mcts;
    warn_unused_options(searching, &format!("{} does not search", args.game.agent), &args.search, None);
    if !searching && args.game.no_reuse {
        eprintln!("warning: {} does not search; --no-reuse ignored", args.game.agent);
    }
    let agent: AgentMaker<TicTacToe> = match args.game.agent {
        AgentName::Mcts => {
            let params = args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
            let reuse = !args.game.no_reuse;
            Box::new(move || Box::new(Mcts::<TicTacToe>::new(params.clone()).with_reuse(reuse)))
        }
        _ => Box::new(|| Box::new(RandomAgent)),
    };
    let out = Out {
        game: "tic-tac-toe",
        games: args.games,
        seed: args.search.seed,
        forms: args.out,
        quiet: args.search.no_progress,
        params: None,
    };
    series(&TicTacToe, |_| TicTacToeState::default(), [&agent, &agent], false, &out, |c| c.to_string())
}

/// Plays `args.games` self-play games of Gomoku with the agent on both sides, from the opening.
pub fn play_gomoku(args: &PlayGomoku) -> anyhow::Result<()> {
    let GomokuChooser { agent, position, brain } = &args.game;
    warn_unused_options(*agent == AgentName::Mcts, &format!("{agent} does not search"), &args.search, Some(brain));
    let game = position.game()?;
    let start = position.position(&game, None, true)?;
    if start.is_terminal() {
        return Err(input_error("the opening position is already over"));
    }
    let player = match agent {
        AgentName::Mcts => Player::Mcts { params: args.search.params(MATCH_DEFAULT_PLAYOUTS), tuning: brain.settings },
        AgentName::Flat => Player::Flat { rollouts: DEFAULT_FLAT_ROLLOUTS },
        AgentName::Threat => Player::Threat,
        _ => Player::Random,
    };
    // Each side gets its own agent, and so its own kept tree.
    let agent: AgentMaker<Gomoku> = Box::new(move || Box::new(PlayerAgent::new(player.clone())));
    let out = Out {
        game: "gomoku",
        games: args.games,
        seed: args.search.seed,
        forms: args.out,
        quiet: args.search.no_progress,
        params: None,
    };
    series(&game, |_| start.clone(), [&agent, &agent], false, &out, |c| c.to_string())
}

/// A tic-tac-toe agent from its description: `mcts[:key=value,...]` (the declared search parameters, on
/// top of `base`, and `reuse=true|false`: keep the tree between moves, default true) or `random`.
///
/// # Errors
/// A one-line message naming the unknown agent, key or bad value.
pub fn tictactoe_agent(text: &str, base: &SearchParams) -> Result<AgentMaker<TicTacToe>, String> {
    tictactoe_agent_with_params(text, base).map(|(maker, _)| maker)
}

/// [`tictactoe_agent`] and the search settings the agent plays with (`None` for `random`).
///
/// # Errors
/// As [`tictactoe_agent`].
pub(crate) fn tictactoe_agent_with_params(
    text: &str,
    base: &SearchParams,
) -> Result<(AgentMaker<TicTacToe>, Option<SearchParams>), String> {
    let (name, opts) = text.split_once(':').unwrap_or((text, ""));
    match name.trim() {
        "random" if opts.trim().is_empty() => Ok((Box::new(|| Box::new(RandomAgent)), None)),
        "mcts" => {
            let mut params = base.clone();
            let mut reuse = true;
            let opts = opts.trim();
            let opts = if opts.is_empty() { Vec::new() } else { common::comma_list(opts)? };
            let mut seen: Vec<String> = Vec::new();
            for kv in opts {
                let (k, v) = kv.split_once('=').ok_or_else(|| format!("'{kv}' is not key=value"))?;
                let key = k.trim().replace('-', "_");
                if seen.contains(&key) {
                    return Err(format!("agent option {} is given twice in '{text}'", k.trim()));
                }
                seen.push(key.clone());
                if k.trim() == "reuse" {
                    reuse = match v.trim() {
                        "true" => true,
                        "false" => false,
                        other => return Err(format!("agent option reuse: {other} is not true or false")),
                    };
                    continue;
                }
                if <SearchParams as canopy_mcts::param::Settings>::param(&key).is_none() {
                    return Err(format!(
                        "unknown mcts option '{}' in '{text}' (known: {}, reuse)",
                        k.trim(),
                        super::matches::two_player_search_params().join(", ")
                    ));
                }
                super::matches::set_search(&mut params, k, v).map_err(|e| format!("agent option {e}"))?;
            }
            super::matches::check_some_limit(&params, base, text)?;
            let settings = params.clone();
            Ok((Box::new(move || Box::new(Mcts::<TicTacToe>::new(params.clone()).with_reuse(reuse))), Some(settings)))
        }
        "random" => Err("agent 'random' takes no options".to_string()),
        other => Err(format!("'{other}' is not a tic-tac-toe agent (mcts[:key=value,...] or random)")),
    }
}

/// `canopy match tictactoe`: agents `mcts[:key=value,...]` (the declared search parameters) or `random`.
pub fn matched(args: &MatchTicTacToe) -> anyhow::Result<()> {
    let base = args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
    let parse = |flag: &str, text: &str| {
        tictactoe_agent_with_params(text, &base).map_err(|e| input_error(format!("{flag}: {e}")))
    };
    let white = args.white.as_deref().unwrap_or("random");
    let ((a, a_params), (b, b_params)) = (parse("--black", &args.black)?, parse("--white", white)?);
    let forms = Forms { json: args.json, csv: false };
    let skipped = args.search.skipped();
    let settings = |p: Option<SearchParams>| p.map_or(serde_json::Value::Null, |p| super::params::to_json(&p, skipped));
    let params = Some((super::params::to_json(&base, skipped), [settings(a_params), settings(b_params)]));
    let out = Out { game: "tic-tac-toe", games: args.games, seed: args.search.seed, forms, quiet: false, params };
    series(&TicTacToe, |_| TicTacToeState::default(), [a.as_ref(), b.as_ref()], args.swap, &out, |c| c.to_string())
}

/// `text` as one CSV field: quoted (moves hold commas), inner quotes doubled.
fn csv_field(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// A maker of fresh agents for game `G` (one per game played).
pub type AgentMaker<G> = Box<dyn Fn() -> Box<dyn Agent<G>>>;

/// One game of a [`duel`], as its record and line describe it.
pub struct DuelGame {
    /// The game's number, from 1.
    pub number: u64,
    /// Whether agent A moved first.
    pub a_first: bool,
    /// The winning agent: 0 for A, 1 for B, `None` for a draw.
    pub winner: Option<usize>,
    /// The result from the first player's side: `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// The moves in the game's notation.
    pub moves: Vec<String>,
    /// The game's JSON record.
    pub json: serde_json::Value,
}

/// Plays `games` games between agents A and B from `start` (A first in game 1; with `swap`, the sides
/// alternate), game `g` seeded by [`GameSeeds::series`]`(seed, g)` so that every series with the same
/// seed starts alike; `on_game` sees each game as it ends.
pub fn duel<G: Game>(
    game: &G,
    start: impl Fn(&mut Rng) -> G::State,
    agents: [&dyn Fn() -> Box<dyn Agent<G>>; 2],
    (games, seed, swap): (u64, u64, bool),
    name: impl Fn(&G::Action) -> String,
    mut on_game: impl FnMut(&DuelGame, &GameRecord<G>),
) -> Vec<DuelGame> {
    let mut out = Vec::new();
    for g in 0..games {
        let a_first = !swap || g % 2 == 0;
        let (mut first, mut second) = if a_first { (agents[0](), agents[1]()) } else { (agents[1](), agents[0]()) };
        let mut players: [&mut dyn Agent<G>; 2] = [first.as_mut(), second.as_mut()];
        let record: GameRecord<G> = play_game(game, &start, &mut players, GameSeeds::series(seed, g), None, |_, _| {});
        let won = record.winner();
        let moves: Vec<String> = record.actions().map(|a| name(&a)).collect();
        let result = match won {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        let first_name = if a_first { "A" } else { "B" };
        let json = json!({
            "seed": record.seed,
            "first": first_name,
            "result": result,
            "moves": moves,
            "playouts": record.work,
            "kept_playouts": record.kept_playouts,
        });
        let played = DuelGame {
            number: g + 1,
            a_first,
            winner: won.map(|w| usize::from((w == 0) != a_first)),
            result,
            moves,
            json,
        };
        on_game(&played, &record);
        out.push(played);
    }
    out
}

/// What [`series`] prints and how.
struct Out {
    game: &'static str,
    games: u64,
    seed: u64,
    forms: Forms,
    quiet: bool,
    /// For `--json`: the command line's search settings and each agent's own (null for one that does
    /// not search), where the agents are given separately.
    params: Option<(serde_json::Value, [serde_json::Value; 2])>,
}

/// Games between agents A and B (A first in game 1; with `swap`, the sides alternate), printed as lines
/// and a tally of A's and B's results (or JSON).
fn series<G: Game>(
    game: &G,
    start: impl Fn(&mut Rng) -> G::State,
    agents: [&dyn Fn() -> Box<dyn Agent<G>>; 2],
    swap: bool,
    out: &Out,
    name: impl Fn(&G::Action) -> String,
) -> anyhow::Result<()> {
    let lines = common::game_lines(out.quiet, false);
    let tables = !(out.forms.json || out.forms.csv);
    if out.forms.csv {
        println!("game,seed,first,result,moves,playouts_first,playouts_second,line");
    }
    let played = duel(game, start, agents, (out.games, out.seed, swap), name, |g, record| {
        let first_name = if g.a_first { "A" } else { "B" };
        if out.forms.csv {
            let [first, second] = [record.work[0], record.work[1]];
            println!(
                "{},{},{first_name},{},{},{first},{second},{}",
                g.number,
                record.seed,
                g.result,
                g.moves.len(),
                csv_field(&g.moves.join(" "))
            );
        }
        if lines || tables {
            let line = format!(
                "game {:>3}/{}: {first_name} first, {} in {} moves ({} playouts)  {}",
                g.number,
                out.games,
                g.result,
                g.moves.len(),
                record.work.iter().sum::<u64>(),
                g.moves.join(" ")
            );
            if tables {
                println!("{line}");
            } else {
                eprintln!("{line}");
            }
        }
    });
    // Wins of agent A and agent B, and draws.
    let (mut wins, mut draws) = ([0u64; 2], 0u64);
    for g in &played {
        match g.winner {
            Some(a) => wins[a] += 1,
            None => draws += 1,
        }
    }
    let games: Vec<&serde_json::Value> = played.iter().map(|g| &g.json).collect();
    let (a, b) = (agents[0]().name(), agents[1]().name());
    if out.forms.json {
        let mut v = json!({
            "game": out.game,
            "agents": { "a": a, "b": b },
            "games": out.games,
            "summary": { "a_wins": wins[0], "b_wins": wins[1], "draws": draws },
            "records": games,
        });
        if let Some((base, [pa, pb])) = &out.params {
            v["params"] = base.clone();
            v["agent_params"] = json!({ "a": pa, "b": pb });
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if tables {
        println!("A ({a}) {} wins, B ({b}) {} wins, {draws} draws", wins[0], wins[1]);
    }
    Ok(())
}
