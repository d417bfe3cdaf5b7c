//! One JSON shape for every game's `analyze --json`: the same search keys (moves as strings in the game's
//! notation, principal variations as lists of such strings, the same statistics), with each game's own
//! keys beside them.

use serde_json::Value;

mod common;
use common::json;

/// The keys of the search part, in every analysis.
const SEARCH_KEYS: [&str; 16] = [
    "best_action",
    "pv",
    "root_value",
    "actions",
    "playouts",
    "root_visits",
    "nodes",
    "max_depth",
    "mean_depth",
    "elapsed_ms",
    "playouts_per_sec",
    "memory_bytes",
    "memory_limited",
    "table",
    "threads",
    "normalisation",
];

/// The keys of every move in `actions`.
const ACTION_KEYS: [&str; 5] = ["action", "visits", "share", "mean", "pv"];

fn strings(v: &Value, what: &str) -> Vec<String> {
    let list = v.as_array().unwrap_or_else(|| panic!("{what} is not a list: {v}"));
    list.iter().map(|s| s.as_str().unwrap_or_else(|| panic!("{what}: {s} is not a string")).to_string()).collect()
}

/// Checks the search part of an analysis of a position with a legal move.
fn check_shape(args: &[&str]) -> Value {
    let v = json(args);
    for key in SEARCH_KEYS.iter().chain(&["game", "game_over"]) {
        assert!(v.get(key).is_some(), "{args:?}: no {key}");
    }
    assert_eq!(v["game_over"], false, "{args:?}");
    let best = v["best_action"].as_str().unwrap_or_else(|| panic!("{args:?}: best_action {}", v["best_action"]));
    let pv = strings(&v["pv"], "pv");
    assert_eq!(pv.first().map(String::as_str), Some(best), "{args:?}: the line starts with the best move");
    assert!(v["playouts"].is_u64(), "{args:?}");
    let actions = v["actions"].as_array().unwrap();
    assert!(actions.iter().any(|a| a["action"] == best), "{args:?}");
    for a in actions {
        for key in ACTION_KEYS {
            assert!(a.get(key).is_some(), "{args:?}: move {a} has no {key}");
        }
        assert!(a["action"].is_string() && a["visits"].is_u64(), "{args:?}: {a}");
        assert!(a["share"].is_null() || a["share"].is_f64(), "{args:?}: {a}");
        assert!(a["mean"].is_null() || a["mean"].is_f64(), "{args:?}: {a}");
        strings(&a["pv"], "a move's pv");
    }
    v
}

#[test]
fn every_game_and_agent_shares_the_search_keys() {
    let search = ["--playouts", "300", "--threads", "1", "--json"];
    let board = "2,0,0,2,0,4,0,0,0,0,8,0,0,16,0,2";
    let mut runs: Vec<Vec<&str>> = vec![
        vec!["analyze", "tictactoe", "--board", "x.o/.o./..x", "--no-solver"],
        vec!["analyze", "gomoku", "--moves", "7,7 8,8"],
        vec!["analyze", "snake", "--state", "6x6 body=1,1 1,2 food=4,4"],
    ];
    for agent in ["mcts", "flat", "greedy", "random"] {
        runs.push(vec!["analyze", "2048", "--board", board, "--agent", agent]);
    }
    runs.push(vec!["analyze", "2048", "--board", board, "--agent", "expectimax", "--depth", "2"]);
    for run in &mut runs {
        run.extend(search);
        let v = check_shape(run);
        // The game-specific keys stand beside the search part.
        let own = match v["game"].as_str().unwrap() {
            "tictactoe" => ["board", "to_move", "winner"],
            "gomoku" => ["board", "to_move", "winner"],
            "snake" => ["board", "state", "length"],
            "2048" => ["board", "agent", "board_eval"],
            other => panic!("game {other}"),
        };
        for key in own {
            assert!(v.get(key).is_some(), "{run:?}: no {key}");
        }
    }
    // Tic-tac-toe's moves are cells 0..9, as strings.
    let v = json(&["analyze", "tictactoe", "--board", "x.o/.o./..x", "--playouts", "300", "--json"]);
    let cells: Vec<String> =
        v["actions"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap().to_string()).collect();
    assert_eq!(cells, ["1", "3", "5", "6", "7"]);
}

#[test]
fn a_finished_position_has_the_same_keys_and_no_move() {
    for args in [
        ["analyze", "tictactoe", "--board", "xxx/oo./...", "--json"],
        ["analyze", "2048", "--board", "4,8,2,4,2,4,8,16,16,128,64,128,2,8,2,8", "--json"],
        ["analyze", "snake", "--state", "2x2 body=0,0 0,1 1,1 1,0", "--json"],
        ["analyze", "gomoku", "--moves", "0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0", "--json"],
    ] {
        let v = json(&args);
        for key in SEARCH_KEYS {
            assert!(v.get(key).is_some(), "{args:?}: no {key}");
        }
        assert_eq!(v["game_over"], true, "{args:?}");
        assert_eq!(v["best_action"], Value::Null, "{args:?}");
        assert_eq!(v["pv"], Value::Array(vec![]), "{args:?}");
        assert_eq!(v["actions"], Value::Array(vec![]), "{args:?}");
    }
}
