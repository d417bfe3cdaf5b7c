//! The `canopy` binary on tic-tac-toe: finished positions say who won, positions play cannot reach are
//! refused.

use serde_json::Value;

mod common;
use common::{json, refused, text};

#[test]
fn finished_positions_say_who_won() {
    for (board, winner, result) in [
        ("xxx/oo./...", Value::from("x"), "x wins"),
        ("ooo/xx./x..", Value::from("o"), "o wins"),
        ("xox/xoo/oxx", Value::Null, "draw"),
    ] {
        let v = json(&["analyze", "tictactoe", "--board", board, "--json"]);
        assert_eq!(v["game_over"], true, "{board}");
        assert_eq!(v["winner"], winner, "{board}");
        assert_eq!(v["result"], result, "{board}");
        assert_eq!(v["best_action"], Value::Null, "{board}");
        let out = text(&["analyze", "tictactoe", "--board", board]);
        assert_eq!(out.trim_end(), format!("game over: {result}"), "{board}");
    }
    let v = json(&["analyze", "tictactoe", "--board", "x.o/.o./..x", "--playouts", "200", "--json"]);
    assert_eq!(v["game_over"], false);
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["to_move"], "x");
}

#[test]
fn positions_play_cannot_reach_are_refused() {
    for (board, why) in [
        ("xxx/ooo/...", "both x and o have three in a row"),
        ("xxx/oo./o..", "x has three in a row, but o moved after it"),
        ("ooo/xx./xx.", "o has three in a row, but x moved after it"),
        ("xx./.../...", "impossible stone counts: 2 x and 0 o"),
    ] {
        let line = refused(&["analyze", "tictactoe", "--board", board]);
        assert!(line.starts_with("error: bad board: ") && line.contains(why), "{board}: {line}");
    }
}
