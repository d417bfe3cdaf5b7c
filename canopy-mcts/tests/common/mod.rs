//! Helpers shared by the library's test files.

#![allow(dead_code)] // Each test file uses some of them.

use canopy_mcts::agent::{play_game, Agent, FnAgent, GameRecord, GameSeeds};
use canopy_mcts::games::snake::{Dir, Snake, SnakeState};
use canopy_mcts::Rng;

/// Plays Snake from `start` for at most `max_moves` moves with `agent`, chance and agent streams from
/// `seed` ([`GameSeeds`]).
pub fn play_snake(
    game: &Snake,
    start: &SnakeState,
    seed: u64,
    max_moves: u64,
    agent: &mut dyn Agent<Snake>,
) -> GameRecord<Snake> {
    let mut agents = [agent];
    play_game(game, |_| start.clone(), &mut agents, GameSeeds::new(seed), Some(max_moves), |_, _| {})
}

/// [`play_snake`] with an agent written as a function of the position and the agent's stream.
pub fn play_snake_fn(
    game: &Snake,
    start: &SnakeState,
    seed: u64,
    max_moves: u64,
    f: impl FnMut(&SnakeState, &mut Rng) -> Dir,
) -> GameRecord<Snake> {
    play_snake(game, start, seed, max_moves, &mut FnAgent::new("function", f))
}
