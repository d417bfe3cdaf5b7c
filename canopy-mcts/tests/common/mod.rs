//! Helpers shared by the library's test files: playing a game one step at a time, or whole through the
//! library's game loop.

// Each test file is its own crate and uses only some of these helpers.
#![allow(dead_code)]

use canopy_mcts::agent::{play_game, Agent, FnAgent, GameRecord, GameSeeds};
use canopy_mcts::games::g2048::{G2048Policy, G2048};
use canopy_mcts::games::snake::{Dir, Snake, SnakeState};
use canopy_mcts::games::synthetic::{Synthetic, SyntheticPolicy};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::rng::below;
use canopy_mcts::{Game, Rng, Search, SearchParams, SearchReport, Turn};

/// Plays one step of `state`: at a chance turn an outcome drawn with `rng` by the game's distribution, at
/// a player turn the action `choose` gives for the position (it may draw from `rng` too). Returns whose
/// turn it was and the mover's reward (0 for a chance outcome), or `None`, changing nothing, when the
/// game is over.
pub fn step<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut Rng,
    choose: impl FnOnce(&G::State, &mut Rng) -> G::Action,
) -> Option<(Turn, f64)> {
    match game.to_move(state) {
        Turn::Terminal => None,
        Turn::Chance => {
            let outcome = game.sample_outcome(state, rng);
            game.apply_outcome(state, outcome);
            Some((Turn::Chance, 0.0))
        }
        turn @ Turn::Player(_) => {
            let action = choose(state, rng);
            Some((turn, game.apply(state, action)))
        }
    }
}

/// A uniformly random legal action of `state` (a player turn), listed into `scratch`.
pub fn random_action<G: Game>(game: &G, state: &G::State, rng: &mut Rng, scratch: &mut Vec<G::Action>) -> G::Action {
    game.legal_actions(state, scratch);
    scratch[below(rng, scratch.len())]
}

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

/// The report without its timings, as text (two searches that should be the same compare equal).
pub fn timeless<A: Clone + std::fmt::Debug>(r: &SearchReport<A>) -> String {
    let mut r = r.clone();
    r.elapsed_ms = 0.0;
    r.playouts_per_sec = 0.0;
    format!("{r:?}")
}

/// Checks a search's audit for exact accounting of `playouts` playouts: root visits equal them, no
/// virtual loss, overcounted, claimed or miscounted node is left, the root's edges hold every playout
/// and the root's value sum is what the playouts returned.
pub fn assert_exact_accounting<A>(r: &SearchReport<A>, playouts: u64, label: &str) {
    let audit = r.audit.as_ref().expect("audit requested");
    assert_eq!((r.playouts, audit.root_visits), (playouts, playouts), "{label}");
    assert_eq!(
        (audit.in_flight, audit.overcounted_nodes, audit.claimed_nodes, audit.miscounted_nodes),
        (0, 0, 0, 0),
        "{label}: {audit:?}"
    );
    assert_eq!(r.actions.iter().map(|a| a.visits).sum::<u64>(), playouts, "{label}");
    let tolerance = 1e-9 * audit.evaluated_value_sum.abs().max(1.0);
    assert!((audit.root_value_sum - audit.evaluated_value_sum).abs() < tolerance, "{label}: {audit:?}");
}

/// Searches the synthetic tree (branching 6, depth 10), a 2048 middle-game position and tic-tac-toe's
/// empty board with `params` (whose playout limit `playouts` must be, with the audit on) and checks each
/// for exact accounting ([`assert_exact_accounting`]); returns the tic-tac-toe report.
pub fn assert_exact_accounting_on_three_games(params: &SearchParams, playouts: u64, label: &str) -> SearchReport<u8> {
    let synthetic = Synthetic::new(6, 10).unwrap();
    let r = Search::with_policy(&synthetic, &SyntheticPolicy, params.clone()).run(&synthetic.start());
    assert_exact_accounting(&r, playouts, &format!("synthetic, {label}"));
    let g2048_root = canopy_mcts::games::fixtures::g2048()[1].state;
    let r = Search::with_policy(&G2048, &G2048Policy::default(), params.clone()).run(&g2048_root);
    assert_exact_accounting(&r, playouts, &format!("2048, {label}"));
    let r = Search::new(&TicTacToe, params.clone()).run(&TicTacToeState::default());
    assert_exact_accounting(&r, playouts, &format!("tic-tac-toe, {label}"));
    r
}
