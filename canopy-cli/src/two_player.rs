//! `canopy play` for the two-player games (tic-tac-toe and Gomoku): the agent plays both sides, game
//! after game, through the library's game loop; the table counts wins per colour and draws.

use serde_json::json;

use super::matches::MATCH_DEFAULT_PLAYOUTS;
use super::{common, input_error, AgentName, GameName, PlayArgs};
use canopy_mcts::agent::{play_game, Agent, GameRecord, GameSeeds, Mcts, RandomAgent};
use canopy_mcts::games::gomoku::{Gomoku, Player, Rule, Tuning, DEFAULT_EXPLORATION, DEFAULT_FLAT_ROLLOUTS};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::{Game, Rng};

/// Plays `args.games` self-play games of tic-tac-toe or Gomoku with `args.agent` on both sides.
pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    args.g2048.refuse_for(game_label(args.game))?;
    // Gomoku reads its board side from --size; every other snake option is refused.
    let snake = super::snake::SnakePlayArgs {
        size: if args.game == GameName::Gomoku { None } else { args.snake.size.clone() },
        ..args.snake.clone()
    };
    snake.refuse_for(game_label(args.game))?;
    args.search.two_player(game_label(args.game))?;
    match args.game {
        GameName::Tictactoe => {
            let agent: AgentMaker<TicTacToe> = match args.agent {
                AgentName::Mcts => {
                    let params = args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
                    Box::new(move || Box::new(Mcts::new(params.clone())))
                }
                AgentName::Random => Box::new(|| Box::new(RandomAgent)),
                other => {
                    return Err(input_error(format!(
                        "tic-tac-toe agents are mcts and random, not {}",
                        agent_name(other)
                    )))
                }
            };
            let out = Out {
                game: "tic-tac-toe",
                games: args.games,
                seed: args.search.seed,
                json: args.json,
                quiet: args.search.no_progress,
            };
            series(&TicTacToe, |_| TicTacToeState::default(), [&agent, &agent], false, &out, |c| c.to_string())
        }
        GameName::Gomoku => {
            let size = match &args.snake.size {
                Some(text) => text
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| input_error(format!("--size: '{text}' is not a gomoku board side (5..=20)")))?,
                None => 15,
            };
            let game = Gomoku::try_new(size, Rule::Freestyle).map_err(|e| input_error(format!("--size: {e}")))?;
            let player = match args.agent {
                AgentName::Mcts => Player::Mcts {
                    params: args.search.params_with(MATCH_DEFAULT_PLAYOUTS, DEFAULT_EXPLORATION),
                    tuning: Tuning::default(),
                },
                AgentName::Flat => Player::Flat { rollouts: DEFAULT_FLAT_ROLLOUTS },
                AgentName::Random => Player::Random,
                AgentName::Threat => Player::Threat,
                other => {
                    return Err(input_error(format!(
                        "gomoku agents are mcts, flat, threat and random, not {}",
                        agent_name(other)
                    )))
                }
            };
            let agent: AgentMaker<Gomoku> = Box::new(move || Box::new(player.clone()));
            let out = Out {
                game: "gomoku",
                games: args.games,
                seed: args.search.seed,
                json: args.json,
                quiet: args.search.no_progress,
            };
            series(&game, |_| game.new_game(), [&agent, &agent], false, &out, |c| c.to_string())
        }
        _ => unreachable!("the caller dispatches the one-player games"),
    }
}

/// The agent's name as the command line writes it.
fn agent_name(agent: AgentName) -> String {
    clap::ValueEnum::to_possible_value(&agent).map_or_else(|| format!("{agent:?}"), |v| v.get_name().to_string())
}

fn game_label(game: GameName) -> &'static str {
    match game {
        GameName::Tictactoe => "tic-tac-toe",
        _ => "gomoku",
    }
}

/// `canopy match tictactoe`: agents `mcts[:key=value,...]` (the declared search parameters) or `random`.
pub fn matched(args: &super::matches::MatchArgs) -> anyhow::Result<()> {
    args.search.two_player("tic-tac-toe")?;
    args.position.refuse_for("tic-tac-toe")?;
    if args.out.is_some() {
        return Err(input_error("--out is for gomoku matches"));
    }
    let base = args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
    let parse = |flag: &str, text: &str| -> anyhow::Result<AgentMaker<TicTacToe>> {
        let (name, opts) = text.split_once(':').unwrap_or((text, ""));
        match name.trim() {
            "random" if opts.trim().is_empty() => Ok(Box::new(|| Box::new(RandomAgent))),
            "mcts" => {
                let mut params = base.clone();
                let opts = opts.trim();
                let opts = if opts.is_empty() {
                    Vec::new()
                } else {
                    common::comma_list(opts).map_err(|e| input_error(format!("{flag}: {e}")))?
                };
                for kv in opts {
                    let (k, v) =
                        kv.split_once('=').ok_or_else(|| input_error(format!("{flag}: '{kv}' is not key=value")))?;
                    super::matches::set_search(&mut params, k, v)
                        .map_err(|e| input_error(format!("{flag}: agent option {e}")))?;
                }
                Ok(Box::new(move || Box::new(Mcts::new(params.clone()))))
            }
            other => Err(input_error(format!(
                "{flag}: '{other}' is not a tic-tac-toe agent (mcts[:key=value,...] or random)"
            ))),
        }
    };
    let white = args.white.as_deref().unwrap_or("random");
    let (a, b) = (parse("--black", &args.black)?, parse("--white", white)?);
    let out = Out { game: "tic-tac-toe", games: args.games, seed: args.search.seed, json: args.json, quiet: false };
    series(&TicTacToe, |_| TicTacToeState::default(), [a.as_ref(), b.as_ref()], args.swap, &out, |c| c.to_string())
}

/// A maker of fresh agents for game `G` (one per game played).
type AgentMaker<G> = Box<dyn Fn() -> Box<dyn Agent<G>>>;

/// What [`series`] prints and how.
struct Out {
    game: &'static str,
    games: u64,
    seed: u64,
    json: bool,
    quiet: bool,
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
    // Wins of agent A and agent B, and draws.
    let (mut wins, mut draws) = ([0u64; 2], 0u64);
    let mut games = Vec::new();
    for g in 0..out.games {
        let a_first = !swap || g % 2 == 0;
        let (mut first, mut second) = if a_first { (agents[0](), agents[1]()) } else { (agents[1](), agents[0]()) };
        let mut players: [&mut dyn Agent<G>; 2] = [first.as_mut(), second.as_mut()];
        let record: GameRecord<G> =
            play_game(game, &start, &mut players, GameSeeds::series(out.seed, g), None, |_, _| {});
        let winner = record.winner();
        // The winning agent: 0 for A, 1 for B.
        let by_agent = winner.map(|w| usize::from((w == 0) != a_first));
        match by_agent {
            Some(a) => wins[a] += 1,
            None => draws += 1,
        }
        let moves: Vec<String> = record.actions().map(|a| name(&a)).collect();
        let result = match winner {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        let first_name = if a_first { "A" } else { "B" };
        if lines || !out.json {
            let line = format!(
                "game {:>3}/{}: {first_name} first, {result} in {} moves ({} playouts)  {}",
                g + 1,
                out.games,
                moves.len(),
                record.work.iter().sum::<u64>(),
                moves.join(" ")
            );
            if out.json {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
        games.push(json!({ "seed": record.seed, "first": first_name, "result": result, "moves": moves, "playouts": record.work }));
    }
    let (a, b) = (agents[0]().name(), agents[1]().name());
    if out.json {
        let v = json!({
            "game": out.game,
            "agents": { "a": a, "b": b },
            "games": out.games,
            "summary": { "a_wins": wins[0], "b_wins": wins[1], "draws": draws },
            "records": games,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("A ({a}) {} wins, B ({b}) {} wins, {draws} draws", wins[0], wins[1]);
    }
    Ok(())
}
