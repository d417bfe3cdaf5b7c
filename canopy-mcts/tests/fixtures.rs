//! The benchmark positions: each text reads back to its state, names are unique, every board size the
//! bench accepts has its positions.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use std::collections::HashSet;

use canopy_mcts::games::fixtures::{self, Fixture, SNAKE_MIN_SIDE};
use canopy_mcts::games::g2048::{Board, G2048State};
use canopy_mcts::games::gomoku::{Gomoku, Rule, MAX_SIZE, MIN_SIZE};
use canopy_mcts::games::snake::{SnakeState, MAX_SIDE};
use canopy_mcts::games::tictactoe::TicTacToeState;

fn names<S>(list: &[Fixture<S>]) -> Vec<&'static str> {
    let names: Vec<&str> = list.iter().map(|f| f.name).collect();
    assert_eq!(names.iter().collect::<HashSet<_>>().len(), names.len(), "repeated names: {names:?}");
    names
}

#[test]
fn texts_read_back_to_the_states() {
    let g2048 = fixtures::g2048();
    assert_eq!(names(&g2048), ["start", "early", "middle"]);
    for f in &g2048 {
        assert_eq!(G2048State::from_board(f.text.parse::<Board>().unwrap()), f.state, "{}", f.name);
    }
    let tictactoe = fixtures::tictactoe();
    assert_eq!(names(&tictactoe), ["empty", "two"]);
    for f in &tictactoe {
        assert_eq!(TicTacToeState::parse(&f.text).unwrap(), f.state, "{}", f.name);
    }
    for size in MIN_SIZE..=MAX_SIZE {
        let game = Gomoku::new(size, Rule::Freestyle);
        let list = fixtures::gomoku(&game);
        let expected: &[&str] = if size >= 11 { &["empty", "opening", "middle"] } else { &["empty", "opening"] };
        assert_eq!(names(&list), expected, "{size}x{size}");
        for f in &list {
            assert_eq!(game.from_moves(&f.text).unwrap(), f.state, "{size}x{size} {}", f.name);
        }
    }
    for side in SNAKE_MIN_SIDE..=MAX_SIDE {
        let list = fixtures::snake(side);
        assert_eq!(names(&list), ["start", "middle"]);
        for f in &list {
            assert_eq!(f.text.parse::<SnakeState>().unwrap(), f.state, "{side}x{side} {}", f.name);
            assert_eq!((f.state.width(), f.state.food().is_some()), (side, true), "{side}x{side} {}", f.name);
        }
    }
}

#[test]
fn played_boards_are_seeded_and_have_legal_moves() {
    let boards = fixtures::g2048_played_boards(500, 7);
    assert_eq!(boards.len(), 500);
    assert!(boards.iter().all(|b| !b.legal_dirs().is_empty()));
    assert_eq!(boards, fixtures::g2048_played_boards(500, 7));
    assert_ne!(boards, fixtures::g2048_played_boards(500, 8));
}

#[test]
#[should_panic(expected = "snake fixtures need a side")]
fn snake_fixtures_refuse_a_board_too_small_for_them() {
    fixtures::snake(SNAKE_MIN_SIDE - 1);
}
