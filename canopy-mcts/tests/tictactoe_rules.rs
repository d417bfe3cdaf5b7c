//! Reading tic-tac-toe positions: finished games read with their winner, positions play cannot reach are
//! refused with a message that says why.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::{Game, Turn};

#[test]
fn finished_positions_read_with_their_winner() {
    for (text, winner) in [("xxx/oo./...", Some(0)), ("ooo/xx./x..", Some(1)), ("xox/xoo/oxx", None)] {
        let s = TicTacToeState::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(TicTacToe.to_move(&s), Turn::Terminal, "{text}");
        assert_eq!(s.winner(), winner, "{text}");
    }
    // X wins with two lines made by one move.
    let double = TicTacToeState::parse("xxx/xoo/xoo").unwrap();
    assert_eq!(double.winner(), Some(0));
}

#[test]
fn positions_play_cannot_reach_are_refused() {
    let cases = [
        ("xxx/ooo/...", "both x and o have three in a row"),
        ("xxx/oo./o..", "x has three in a row, but o moved after it (3 x and 3 o)"),
        ("ooo/xx./xx.", "o has three in a row, but x moved after it (4 x and 3 o)"),
        ("xx./.../...", "impossible stone counts: 2 x and 0 o (x moves first)"),
        ("oo./x../...", "impossible stone counts: 1 x and 2 o (x moves first)"),
    ];
    for (text, why) in cases {
        let e = TicTacToeState::parse(text).expect_err(text);
        assert!(e.ends_with(why), "{text}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
