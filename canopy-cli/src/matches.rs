//! `canopy match gomoku`: games between two agents, with results per colour.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::json;

use super::common::{self, Whole};
use super::gomoku::{colour, PositionArgs};
use super::params::SettingsFlags;
use super::search_args::ForGomoku;
use super::{args, input_error};
use canopy_mcts::agent::{play_game, Agent, GameSeeds, Step};
use canopy_mcts::games::gomoku::{default_exploration, How, Player, PlayerAgent, Tuning, DEFAULT_FLAT_ROLLOUTS};
use canopy_mcts::param::Settings;
use canopy_mcts::search::SearchParams;

/// Rollouts per candidate of the flat agent (`rollouts=`).
const FLAT_ROLLOUTS: Whole = Whole { min: 1, max: u32::MAX as u64 };

/// Default playouts per MCTS move when neither --playouts nor --time is given.
pub const MATCH_DEFAULT_PLAYOUTS: u64 = 10_000;

/// `canopy match gomoku`.
pub type MatchGomoku = args::MatchArgs<MatchOptions, ForGomoku>;

/// Gomoku's options of `match`: the opening, the game record file and the brain settings of the mcts
/// agents.
#[derive(clap::Args, Debug)]
pub struct MatchOptions {
    /// Write every game's moves to this file: a header line, then one tab-separated line per game
    /// (game, black agent, white agent, result 1-0 / 0-1 / 1/2-1/2, moves x,y separated by spaces).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The opening: every game starts after these moves (and on this board).
    #[command(flatten)]
    pub position: PositionArgs,
    /// The brain settings of the mcts agents (per-agent keys after the colon override them).
    #[command(flatten)]
    pub brain: SettingsFlags<Tuning>,
}

/// Sets the declared search parameter `k` of a per-side setting to `v`, as the command's own flag would
/// (a memory budget no larger than the machine's memory); a playout or time limit of 0 lifts that limit
/// (the other limit then ends the search; an agent left with neither is refused, [`check_some_limit`]).
///
/// # Errors
/// The declaration's message for an unknown name or a value out of range.
pub fn set_search(params: &mut SearchParams, k: &str, v: &str) -> Result<(), String> {
    let name = k.trim().replace('-', "_");
    // The per-side settings are for the two-player games, which take none of these (as their flags).
    let skip = <super::search_args::ForGomoku as super::search_args::Profile>::SKIP;
    if let Some(skipped) = skip.iter().find(|s| **s == name) {
        return Err(format!("{skipped} is not a setting of the two-player games"));
    }
    if SearchParams::param(&name).is_none() {
        return Err(format!("unknown parameter '{}' (known: {})", k.trim(), two_player_search_params().join(", ")));
    }
    match (name.as_str(), v.trim()) {
        ("playouts", "0") => params.playouts = None,
        ("time", "0") => params.time_ms = None,
        ("memory", text) => {
            params.memory_bytes = common::parse_memory(text).map_err(|e| format!("memory: {e}"))?;
        }
        // The declared range starts at 1; here 0 is taken too, so the message says so.
        (name @ ("playouts" | "time"), text) => {
            params.set(name, text).map_err(|e| format!("{e}, or 0 to lift the limit"))?;
        }
        (name, text) => params.set(name, text).map_err(|e| e.to_string())?,
    }
    Ok(())
}

/// Refuses an mcts agent description `text` whose per-side settings lifted the last limit of `base`,
/// the command's parameters (`playouts=0,time=0`, or one of them where the command gave only that
/// one), leaving `params` with neither: its searches would end at the engine's default playouts, which
/// nobody asked for.
///
/// # Errors
/// A one-line message naming the agent description `text`.
pub fn check_some_limit(params: &SearchParams, base: &SearchParams, text: &str) -> Result<(), String> {
    let limited = |p: &SearchParams| p.playouts.is_some() || p.time_ms.is_some();
    if limited(base) && !limited(params) {
        return Err(format!(
            "'{text}' lifts every limit of its searches: keep a playout or time limit (e.g. \
             mcts:playouts=0,time=500)"
        ));
    }
    Ok(())
}

/// The declared search parameters a per-side setting of the two-player games may set (those their
/// commands offer as flags).
pub fn two_player_search_params() -> Vec<&'static str> {
    let skip = <super::search_args::ForGomoku as super::search_args::Profile>::SKIP;
    SearchParams::params().iter().map(|p| p.name).filter(|n| !skip.contains(n)).collect()
}

/// Parses an agent description `NAME[:key=value,...]` on top of the command's search parameters and
/// brain settings. `exploration_given`: whether the command line set `--exploration`; when it did not,
/// an agent that sets `selection` and not `exploration` gets Gomoku's exploration constant for that
/// selection ([`canopy_mcts::games::gomoku::default_exploration`]).
///
/// # Errors
/// A one-line message naming the unknown agent, key or bad value.
pub fn parse_agent(text: &str, base: &SearchParams, brain: Tuning, exploration_given: bool) -> Result<Player, String> {
    let (name, opts) = match text.split_once(':') {
        Some((n, o)) => (n.trim(), o.trim()),
        None => (text.trim(), ""),
    };
    let opts = if opts.is_empty() { Vec::new() } else { common::comma_list(opts)? };
    let pairs: Vec<(&str, &str)> = opts
        .into_iter()
        .map(|kv| kv.split_once('=').map(|(k, v)| (k.trim(), v.trim())).ok_or(kv))
        .collect::<Result<_, _>>()
        .map_err(|kv| format!("agent option '{kv}' in '{text}' is not key=value"))?;
    for (i, (k, _)) in pairs.iter().enumerate() {
        let key = k.replace('-', "_");
        if pairs[..i].iter().any(|(j, _)| j.replace('-', "_") == key) {
            return Err(format!("agent option {k} is given twice in '{text}'"));
        }
    }
    // A value checked against its option's range; the message names the agent option.
    fn within<T>(k: &str, checked: Result<T, String>) -> Result<T, String> {
        checked.map_err(|e| format!("agent option {k}: {e}"))
    }
    match name.to_ascii_lowercase().as_str() {
        "mcts" => {
            let mut params = base.clone();
            let mut tuning = brain;
            for &(k, v) in &pairs {
                // The Gomoku settings of the player, then the engine's parameters: both declared once in
                // the library, with their ranges.
                let result = match (Tuning::param(k), SearchParams::param(k)) {
                    (Some(p), _) => p.apply(&mut tuning, v).map_err(|e| e.to_string()),
                    (None, Some(_)) => set_search(&mut params, k, v),
                    (None, None) => {
                        let mut known: Vec<&str> = Tuning::params().iter().map(|p| p.name).collect();
                        known.extend(two_player_search_params());
                        return Err(format!("unknown mcts option '{k}' in '{text}' (known: {})", known.join(", ")));
                    }
                };
                result.map_err(|e| format!("agent option {e}"))?;
            }
            check_some_limit(&params, base, text)?;
            let has = |name: &str| pairs.iter().any(|(k, _)| k.replace('-', "_") == name);
            if has("selection") && !has("exploration") && !exploration_given {
                params.exploration = default_exploration(params.selection);
            }
            Ok(Player::Mcts { params, tuning })
        }
        "flat" => {
            let mut rollouts = DEFAULT_FLAT_ROLLOUTS;
            for (k, v) in pairs {
                match k {
                    "rollouts" => rollouts = within(k, FLAT_ROLLOUTS.parse_u32(v))?,
                    _ => return Err(format!("unknown flat option '{k}' in '{text}' (flat takes rollouts=N)")),
                }
            }
            Ok(Player::Flat { rollouts })
        }
        "threat" | "random" if !pairs.is_empty() => Err(format!("agent '{name}' takes no options")),
        "threat" => Ok(Player::Threat),
        "random" => Ok(Player::Random),
        _ => Err(format!("unknown agent '{name}' (use mcts, flat, threat or random)")),
    }
}

/// Wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, Serialize)]
struct Tally {
    wins: u64,
    losses: u64,
    draws: u64,
}

impl Tally {
    fn add(&mut self, result: Option<bool>) {
        match result {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    fn text(&self) -> String {
        let rate = if self.games() > 0 { 100.0 * self.wins as f64 / self.games() as f64 } else { 0.0 };
        format!("{:>3} won {:>3} lost {:>3} drawn ({rate:5.1}% won)", self.wins, self.losses, self.draws)
    }
}

/// One agent's results by colour.
#[derive(Clone, Copy, Debug, Default, Serialize)]
struct Record {
    as_black: Tally,
    as_white: Tally,
    total: Tally,
}

fn result_text(winner: Option<usize>) -> &'static str {
    match winner {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    }
}

/// Runs `canopy match`.
pub fn run(args: &MatchGomoku) -> anyhow::Result<()> {
    let position = &args.game.position;
    let game = position.game()?;
    let start = position.position(&game, None, true)?;
    if start.is_terminal() {
        return Err(input_error("the opening position is already over"));
    }
    let base = args.search.params(MATCH_DEFAULT_PLAYOUTS);
    let brain = args.game.brain.settings;
    let white_spec = args.white.clone().unwrap_or_else(|| "threat".to_string());
    let given = args.search.exploration.is_some();
    let agents = [
        parse_agent(&args.black, &base, brain, given).map_err(|e| input_error(format!("--black: {e}")))?,
        parse_agent(&white_spec, &base, brain, given).map_err(|e| input_error(format!("--white: {e}")))?,
    ];
    let labels = [format!("A ({})", args.black), format!("B ({white_spec})")];
    let mut out = match &args.game.out {
        Some(path) => {
            let mut f = common::create_output("--out", path)?;
            writeln!(f, "# game\tblack\twhite\tresult\tmoves")?;
            Some(f)
        }
        None => None,
    };
    let mut records = [Record::default(); 2];
    let mut games = Vec::new();
    for g in 0..args.games {
        // Agent index playing Black in this game.
        let a_black = !args.swap || g % 2 == 0;
        let (black, white) = if a_black { (0, 1) } else { (1, 0) };
        let mut searched = [0u64; 2];
        // Fresh agents every game: each keeps its own search tree through the game.
        let (mut a, mut b) = (PlayerAgent::new(agents[black].clone()), PlayerAgent::new(agents[white].clone()));
        let mut players: [&mut dyn Agent<canopy_mcts::games::gomoku::Gomoku>; 2] = [&mut a, &mut b];
        let opening = |_: &mut canopy_mcts::Rng| start.clone();
        let record =
            play_game(&game, opening, &mut players, GameSeeds::series(args.search.seed, g), None, |_, step| {
                if let Step::Move { player, how: How::Search, .. } = step {
                    searched[*player] += 1;
                }
            });
        let winner = record.winner();
        let moves: Vec<String> = record.actions().map(|c| c.to_string()).collect();
        for (agent, side) in [(black, 0usize), (white, 1usize)] {
            let result = winner.map(|w| w == side);
            let r = &mut records[agent];
            if side == 0 {
                r.as_black.add(result);
            } else {
                r.as_white.add(result);
            }
            r.total.add(result);
        }
        if let Some(f) = out.as_mut() {
            let names = [&args.black, &white_spec];
            writeln!(f, "{}\t{}\t{}\t{}\t{}", g + 1, names[black], names[white], result_text(winner), moves.join(" "))?;
            f.flush()?;
        }
        let winner_agent = winner.map(|w| if w == 0 { black } else { white });
        if !args.json {
            let who = match (winner, winner_agent) {
                (Some(w), Some(a)) => format!("{} wins: {}", colour(w), labels[a]),
                _ => "draw".to_string(),
            };
            let per_move = |side: usize| {
                let n = record.moves[side];
                if n == 0 {
                    0.0
                } else {
                    record.think_ms[side] / n as f64
                }
            };
            println!(
                "game {:>3}  black {}  white {}  {:<7}  {who} in {} moves  (ms/move black {:.0}, white {:.0}; playouts black {}, white {})",
                g + 1,
                labels[black],
                labels[white],
                result_text(winner),
                moves.len(),
                per_move(0),
                per_move(1),
                record.work[0],
                record.work[1],
            );
            std::io::stdout().flush()?;
        }
        const IDS: [&str; 2] = ["a", "b"];
        let (black_id, white_id) = (IDS[black], IDS[white]);
        games.push(json!({
            "game": g + 1,
            "black": black_id,
            "white": white_id,
            "result": result_text(winner),
            "winner": winner.map(colour),
            "winner_agent": winner_agent.map(|a| IDS[a]),
            "moves": moves,
            "playouts": record.work,
            "kept_playouts": record.kept_playouts,
            "think_ms": record.think_ms,
            "searched_moves": searched,
        }));
    }
    if args.json {
        let v = json!({
            "game": "gomoku",
            "size": game.size(),
            "rule": game.rule().name(),
            "opening": position.moves,
            "swap": args.swap,
            "agents": { "a": args.black, "b": white_spec },
            // The command line's search settings, which each `mcts` agent's options change; its own are
            // under `agent_params` (null for an agent that does not search).
            "params": super::params::to_json(&base, <super::search_args::ForGomoku as super::search_args::Profile>::SKIP),
            "agent_params": { "a": agent_params(&agents[0]), "b": agent_params(&agents[1]) },
            "summary": { "a": records[0], "b": records[1] },
            "games": games,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!();
    for (i, label) in labels.iter().enumerate() {
        let r = &records[i];
        println!("{label}");
        println!("  as black  {}", r.as_black.text());
        println!("  as white  {}", r.as_white.text());
        println!("  total     {}", r.total.text());
    }
    Ok(())
}

/// The search settings `agent` plays with, as `--json` gives them (null for an agent that does not search).
pub(crate) fn agent_params(agent: &Player) -> serde_json::Value {
    match agent {
        Player::Mcts { params, .. } => {
            super::params::to_json(params, <super::search_args::ForGomoku as super::search_args::Profile>::SKIP)
        }
        _ => serde_json::Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use canopy_mcts::games::gomoku::{default_search_params, DEFAULT_EXPLORATION, DEFAULT_PUCT_EXPLORATION};

    fn exploration(spec: &str, base: &SearchParams, given: bool) -> f64 {
        match parse_agent(spec, base, Tuning::default(), given).unwrap() {
            Player::Mcts { params, .. } => params.exploration,
            other => panic!("{other:?}"),
        }
    }

    /// An agent that switches the selection gets that selection's exploration constant unless the
    /// command line or the agent sets one.
    #[test]
    fn the_exploration_default_follows_an_agents_selection() {
        let base = default_search_params();
        assert_eq!(base.exploration, DEFAULT_PUCT_EXPLORATION);
        assert_eq!(exploration("mcts", &base, false), DEFAULT_PUCT_EXPLORATION);
        assert_eq!(exploration("mcts:selection=uct", &base, false), DEFAULT_EXPLORATION);
        assert_eq!(exploration("mcts:selection=uct,exploration=1.5", &base, false), 1.5);
        // --exploration on the command line holds for every agent.
        let given = SearchParams { exploration: 3.0, ..base.clone() };
        assert_eq!(exploration("mcts:selection=uct", &given, true), 3.0);
        let uct = SearchParams { selection: canopy_mcts::search::Selection::Uct, exploration: 0.5, ..base };
        assert_eq!(exploration("mcts:selection=puct", &uct, false), DEFAULT_PUCT_EXPLORATION);
    }

    /// Lifting one limit leaves the other to end the searches; lifting both (or the only one) is refused
    /// instead of falling back to the engine's default playouts.
    #[test]
    fn an_agent_left_without_a_limit_is_refused() {
        let base = SearchParams { playouts: Some(500), time_ms: None, ..default_search_params() };
        let parse = |text: &str| parse_agent(text, &base, Tuning::default(), false);
        match parse("mcts:playouts=0,time=300") {
            Ok(Player::Mcts { params, .. }) => assert_eq!((params.playouts, params.time_ms), (None, Some(300))),
            other => panic!("{}", other.err().unwrap_or_default()),
        }
        for text in ["mcts:playouts=0", "mcts:playouts=0,time=0"] {
            let e = parse(text).err().unwrap_or_default();
            assert!(e.contains("lifts every limit of its searches"), "{text}: {e}");
        }
        // The tic-tac-toe agents' options take the same rule.
        let tictactoe = |text: &str| super::super::two_player::tictactoe_agent_with_params(text, &base).err();
        let e = tictactoe("mcts:playouts=0").unwrap_or_default();
        assert!(e.contains("lifts every limit of its searches"), "{e}");
        assert!(tictactoe("mcts:playouts=0,time=300").is_none());
        assert_eq!(tictactoe("random:threads=2").as_deref(), Some("agent 'random' takes no options"));
    }

    /// A per-side playout or time limit takes 0 (no limit) beside its declared range, and a value
    /// outside both says that 0 is allowed.
    #[test]
    fn a_limit_of_zero_lifts_it_and_the_error_says_so() {
        let mut params = default_search_params();
        params.playouts = Some(500);
        set_search(&mut params, "playouts", "0").unwrap();
        assert_eq!(params.playouts, None);
        set_search(&mut params, "time", "250").unwrap();
        assert_eq!(params.time_ms, Some(250));
        set_search(&mut params, "time", "0").unwrap();
        assert_eq!(params.time_ms, None);
        for key in ["playouts", "time"] {
            let e = set_search(&mut params, key, "-5").unwrap_err();
            assert!(e.ends_with(", or 0 to lift the limit"), "{e}");
        }
        let e = set_search(&mut params, "threads", "0").unwrap_err();
        assert!(!e.contains("lift"), "{e}");
    }
}
