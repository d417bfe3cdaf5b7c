//! Property: the search never returns an illegal action, on random positions of every built-in game, with
//! the uniform policy and with the game's own policy.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::g2048::{Board, G2048Policy, G2048State, G2048};
use canopy_mcts::games::gomoku::{Gomoku, GomokuPolicy};
use canopy_mcts::games::tictactoe::TicTacToe;
use canopy_mcts::search::{Search, SearchParams};
use canopy_mcts::{Game, Policy, Turn, UniformPolicy};
use proptest::prelude::*;

mod common;
use common::{random_action, step};

fn params(seed: u64, threads: usize) -> SearchParams {
    SearchParams { playouts: Some(300), threads, seed, pin_threads: false, audit: true, ..SearchParams::default() }
}

/// Plays `moves` uniformly random moves (and chance outcomes) from the start of `game` with `seed`.
fn random_position<G: Game>(game: &G, mut state: G::State, moves: usize, seed: u64) -> G::State {
    let mut rng = canopy_mcts::rng::seeded(seed, 99);
    let mut actions = Vec::new();
    for _ in 0..moves {
        if step(game, &mut state, &mut rng, |s, rng| random_action(game, s, rng, &mut actions)).is_none() {
            break;
        }
    }
    // Finish on a decision turn where there is one.
    while game.to_move(&state) == Turn::Chance {
        step(game, &mut state, &mut rng, |_, _| unreachable!("a chance turn"));
    }
    state
}

/// The search of `state` with `policy`: its best action is legal and a candidate, and the root has one
/// action per candidate.
fn check<G: Game, P: Policy<G>>(
    game: &G,
    policy: &P,
    state: &G::State,
    seed: u64,
    threads: usize,
) -> Result<(), TestCaseError> {
    let r = Search::with_policy(game, policy, params(seed, threads)).run(state);
    let (mut legal, mut candidates) = (Vec::new(), Vec::new());
    game.legal_actions(state, &mut legal);
    policy.candidates(game, state, &mut candidates);
    prop_assert!(candidates.iter().all(|a| legal.contains(a)), "candidates {:?} not legal", candidates);
    match r.best {
        Some(best) => prop_assert!(candidates.contains(&best), "illegal best action {:?}", best),
        None => prop_assert!(legal.is_empty()),
    }
    prop_assert_eq!(r.actions.len(), candidates.len());
    let audit = r.audit.unwrap();
    prop_assert_eq!(audit.in_flight, 0);
    prop_assert_eq!(audit.root_visits, r.playouts);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn g2048_best_action_is_legal(moves in 0usize..400, seed in any::<u64>(), threads in 1usize..3) {
        let mut rng = canopy_mcts::rng::seeded(seed, 1);
        let start = G2048State::new_game(&mut rng);
        let state = random_position(&G2048, start, moves, seed);
        check(&G2048, &G2048Policy::default(), &state, seed, threads)?;
        check(&G2048, &UniformPolicy, &state, seed, threads)?;
    }

    #[test]
    fn g2048_any_board_is_handled(exps in proptest::collection::vec(0u8..12, 16), seed in any::<u64>()) {
        let board = Board::from_exponents(exps.try_into().unwrap());
        check(&G2048, &G2048Policy::default(), &G2048State::from_board(board), seed, 2)?;
    }

    #[test]
    fn gomoku_best_action_is_legal(moves in 0usize..60, seed in any::<u64>(), size in 5usize..12) {
        let game = Gomoku::new(size, Default::default());
        let state = random_position(&game, game.new_game(), moves, seed);
        check(&game, &GomokuPolicy::default(), &state, seed, 2)?;
        check(&game, &GomokuPolicy::default().with_threat_pruning(true), &state, seed, 2)?;
        check(&game, &UniformPolicy, &state, seed, 2)?;
    }

    #[test]
    fn tictactoe_best_action_is_legal(moves in 0usize..9, seed in any::<u64>()) {
        let state = random_position(&TicTacToe, Default::default(), moves, seed);
        check(&TicTacToe, &UniformPolicy, &state, seed, 2)?;
    }
}
