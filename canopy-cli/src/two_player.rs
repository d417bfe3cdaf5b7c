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
    args.search.two_player(game_label(args.game))?;
    match args.game {
        GameName::Tictactoe => {
            let agent: Box<dyn Fn() -> Box<dyn Agent<TicTacToe>>> = match args.agent {
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
            series(&TicTacToe, |_| TicTacToeState::default(), &agent, args, |c| c.to_string())
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
            let agent: Box<dyn Fn() -> Box<dyn Agent<Gomoku>>> = Box::new(move || Box::new(player.clone()));
            series(&game, |_| game.new_game(), &agent, args, |c| c.to_string())
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

/// The self-play games of one agent, printed as lines and a tally (or JSON).
fn series<G: Game>(
    game: &G,
    start: impl Fn(&mut Rng) -> G::State,
    agent: &dyn Fn() -> Box<dyn Agent<G>>,
    args: &PlayArgs,
    name: impl Fn(&G::Action) -> String,
) -> anyhow::Result<()> {
    let lines = common::game_lines(args.search.no_progress, false);
    let (mut wins, mut draws) = ([0u64; 2], 0u64);
    let mut games = Vec::new();
    for g in 0..args.games {
        let (mut black, mut white) = (agent(), agent());
        let mut agents: [&mut dyn Agent<G>; 2] = [black.as_mut(), white.as_mut()];
        let record: GameRecord<G> =
            play_game(game, &start, &mut agents, GameSeeds::series(args.search.seed, g), None, |_, _| {});
        let winner = record.winner();
        match winner {
            Some(w) => wins[w] += 1,
            None => draws += 1,
        }
        let moves: Vec<String> = record.actions().map(|a| name(&a)).collect();
        let result = match winner {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        if lines || !args.json {
            let line = format!(
                "game {:>3}/{}: {result} in {} moves ({} playouts)  {}",
                g + 1,
                args.games,
                moves.len(),
                record.work.iter().sum::<u64>(),
                moves.join(" ")
            );
            if args.json {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
        games.push(json!({ "seed": record.seed, "result": result, "moves": moves, "playouts": record.work }));
    }
    let name = agent().name();
    if args.json {
        let v = json!({
            "game": game_label(args.game),
            "agent": name,
            "games": args.games,
            "summary": { "first_player_wins": wins[0], "second_player_wins": wins[1], "draws": draws },
            "records": games,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{name} against itself: first player {} wins, second player {} wins, {draws} draws", wins[0], wins[1]);
    }
    Ok(())
}
