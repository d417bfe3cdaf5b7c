//! The search finds Connect Four's immediate wins and blocks immediate losses, through the public API.

use canopy_mcts::{Game, Search, SearchParams, Turn};
use connect_four::{ConnectFour, Position};

fn best(moves: &str, seed: u64) -> u8 {
    let position = Position::from_moves(moves).unwrap();
    let params = SearchParams { playouts: Some(20_000), threads: 2, seed, ..SearchParams::default() };
    Search::new(&ConnectFour, params).run(&position).best.expect("a move")
}

#[test]
fn rules_find_the_four_kinds_of_line() {
    // Vertical, horizontal, rising and falling diagonals, each completed by Red's last stone.
    for moves in ["0101010", "0011223", "44201423433", "42123521311"] {
        let p = Position::from_moves(moves).unwrap();
        assert_eq!(p.winner(), Some(0), "{moves}");
        assert_eq!(ConnectFour.to_move(&p), Turn::Terminal, "{moves}");
        // One stone fewer: nobody has won yet.
        let before = Position::from_moves(&moves[..moves.len() - 1]).unwrap();
        assert_eq!(before.winner(), None, "{moves}");
        assert_eq!(ConnectFour.to_move(&before), Turn::Player(0), "{moves}");
    }
    assert!(Position::from_moves("0000000").is_err(), "a column holds six stones");
    assert!(Position::from_moves("01010101").is_err(), "no move after a win");
    assert!(Position::from_moves("7").is_err(), "seven columns, 0 to 6");
}

#[test]
fn finds_an_immediate_win() {
    // Red has 0, 1, 2 in the bottom row; 3 wins. Several seeds: the answer must not be luck.
    for seed in 1..=3 {
        // Red: 0, 1, 2 in the bottom row (Yellow threatens column 6): 3 wins now.
        assert_eq!(best("061626", seed), 3, "seed {seed}");
        // Red: three in column 4 (Yellow threatens column 0): 4 wins now.
        assert_eq!(best("404040", seed), 4, "seed {seed}");
    }
}

#[test]
fn blocks_an_immediate_loss() {
    for seed in 1..=3 {
        // Yellow to move; Red has 0, 1, 2 in the bottom row: every move but 3 loses at once.
        assert_eq!(best("06162", seed), 3, "seed {seed}");
        // Yellow to move; Red has three in column 4: Yellow must cover it.
        assert_eq!(best("40404", seed), 4, "seed {seed}");
    }
}
