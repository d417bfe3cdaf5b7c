//! The `canopy` binary on Snake: `play` and `analyze` JSON fields, the state formats, the tail filter in
//! the analysis, `--watch`, and bad input (exit status 2, one line on stderr).

use serde_json::Value;

mod common;
use common::{json, refused, text};

/// The greedy trap: up eats the food in the corner and walls the head in; down keeps the tail in reach.
const TRAP: &str = "4x4 body=0,1 1,1 1,0 2,0 3,0 3,1 3,2 3,3 food=0,0";

#[test]
fn play_json_has_the_summary_and_one_record_per_game() {
    let v = json(&["play", "snake", "--size", "6x6", "--agent", "tailfollow", "--games", "4", "--seed", "5", "--json"]);
    assert_eq!(v["game"], "snake");
    assert_eq!(v["size"], "6x6");
    assert_eq!(v["cells"], 36);
    assert_eq!(v["agent"], "tailfollow");
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for g in games {
        for k in ["seed", "length", "fill", "won", "end", "moves", "foods", "steps_per_food", "score", "final_state"] {
            assert!(g.get(k).is_some(), "game record lacks {k}: {g}");
        }
        let len = g["length"].as_u64().unwrap();
        assert!((g["fill"].as_f64().unwrap() - len as f64 / 36.0).abs() < 1e-12);
        assert_eq!(g["foods"].as_u64().unwrap(), len - 1);
        assert_eq!(g["won"], g["end"] == "won");
    }
    // One side for a square board: the same games.
    let square =
        json(&["play", "snake", "--size", "6", "--agent", "tailfollow", "--games", "4", "--seed", "5", "--json"]);
    let finals = |v: &serde_json::Value| -> Vec<String> {
        v["games"].as_array().unwrap().iter().map(|g| g["final_state"].to_string()).collect()
    };
    assert_eq!((&square["size"], finals(&square)), (&v["size"], finals(&v)));
    let s = &v["summary"];
    for k in ["mean_length", "median_length", "mean_fill", "win_rate", "steps_per_food", "ends", "ms_per_move"] {
        assert!(s.get(k).is_some(), "summary lacks {k}: {s}");
    }
    let ends = &s["ends"];
    let total: u64 = ["won", "body", "wall", "starved", "unfinished"].iter().map(|k| ends[k].as_u64().unwrap()).sum();
    assert_eq!(total, 4);
    // A baseline runs no search: no search parameters, in `play` as in `compare`.
    assert!(v["params"].is_null(), "{}", v["params"]);
    let compare = json(&[
        "compare",
        "snake",
        "--size",
        "6x6",
        "--agents",
        "mcts,tailfollow",
        "--games",
        "1",
        "--playouts",
        "20",
        "--threads",
        "1",
        "--json",
    ]);
    let rows = compare["agents"].as_array().unwrap();
    let params: Vec<(&str, bool)> =
        rows.iter().map(|r| (r["agent"].as_str().unwrap(), r["params"].is_object())).collect();
    assert_eq!(params, [("mcts", true), ("tailfollow", false)], "{compare}");
    assert!(rows[1]["params"].is_null());
    // The MCTS agent's own settings too, as play snake's `mcts` block.
    assert_eq!(
        (&rows[0]["mcts"]["rollout"], &rows[1]["mcts"]),
        (&serde_json::json!("safegreedy"), &serde_json::Value::Null)
    );
}

#[test]
fn hamilton_fills_the_board_and_mcts_plays_within_a_move_cap() {
    let v = json(&["play", "snake", "--size", "4x4", "--agent", "hamilton", "--games", "2", "--json"]);
    assert_eq!(v["summary"]["win_rate"], 1.0);
    assert_eq!(v["summary"]["mean_length"], 16.0);
    let v = json(&[
        "play",
        "snake",
        "--size",
        "6x6",
        "--agent",
        "mcts",
        "--playouts",
        "100",
        "--threads",
        "1",
        "--max-moves",
        "150",
        "--memory",
        "1MiB",
        "--json",
    ]);
    let g = &v["games"][0];
    assert!(g["moves"].as_u64().unwrap() <= 150);
    assert!(g["searches"].as_u64().unwrap() > 0);
    assert!(g["max_search_memory_bytes"].as_u64().unwrap() <= 1 << 20);
    assert_ne!(g["end"], "body");
    assert_ne!(g["end"], "wall");
    assert_eq!(v["params"]["playouts"], 100);
    assert_eq!(v["mcts"]["tail_filter"], "now");
    // Named as --rollout takes it.
    assert_eq!(v["mcts"]["rollout"], "safegreedy");
    assert_eq!(v["mcts"]["endgame_free_cells"], 9, "a quarter of 36 cells");
    assert!(g["cycle_moves"].is_u64());
    assert!(g.get("locked_at_length").is_some());
}

#[test]
fn analyze_shows_every_move_and_leaves_the_trap_out_of_the_search() {
    let v = json(&["analyze", "snake", "--state", TRAP, "--playouts", "400", "--threads", "1", "--json"]);
    assert_eq!(v["best_action"], "down");
    let actions = v["actions"].as_array().unwrap();
    let names: Vec<&str> = actions.iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(names, ["up", "down"]);
    assert_eq!(actions[0]["searched"], false);
    assert_eq!(actions[0]["visits"], 0);
    assert_eq!(actions[1]["searched"], true);
    assert_eq!(actions[1]["visits"], 400);
    assert_eq!(v["playouts"], 400);
    assert!(actions[1]["mean"].as_f64().is_some());
    // Without the filter both moves are searched and the trap scores worse.
    let v = json(&[
        "analyze",
        "snake",
        "--state",
        TRAP,
        "--playouts",
        "2000",
        "--threads",
        "1",
        "--tail-filter",
        "off",
        "--json",
    ]);
    let a = v["actions"].as_array().unwrap();
    assert!(a.iter().all(|x| x["searched"] == true));
    assert_eq!(v["best_action"], "down", "{a:?}");
}

#[test]
fn the_json_state_format_reads_like_the_text_one() {
    let text = "8x8 body=3,3 3,4 3,5 food=6,1 hunger=4";
    let js = r#"{"size": "8x8", "body": [[3,3],[3,4],[3,5]], "food": [6,1], "hunger": 4}"#;
    let js2 = r#"{"width": 8, "height": 8, "body": [[3,3],[3,4],[3,5]], "food": [6,1], "hunger": 4}"#;
    let strip = |mut v: Value| {
        for k in ["elapsed_ms", "playouts_per_sec"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let run = |state: &str| {
        strip(json(&[
            "analyze",
            "snake",
            "--state",
            state,
            "--playouts",
            "500",
            "--threads",
            "1",
            "--seed",
            "3",
            "--json",
        ]))
    };
    let a = run(text);
    assert_eq!(a["state"], text);
    assert_eq!(a["board"].as_array().unwrap().len(), 8);
    assert_eq!(run(js), a);
    assert_eq!(run(js2), a);
}

/// A principal variation through a food spawn: every step one token (`food@x,y` for the spawn), in the
/// JSON lists and in the text line that joins them with spaces.
#[test]
fn principal_variations_name_spawns_in_one_token() {
    let args = ["analyze", "snake", "--state", "4x4 body=0,1 food=0,0", "--playouts", "400", "--threads", "1"];
    let v = json(&[&args[..], &["--seed", "3", "--json"]].concat());
    let pv: Vec<&str> = v["pv"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert!(pv.iter().all(|s| !s.is_empty() && !s.contains(char::is_whitespace)), "{pv:?}");
    let spawn = pv.iter().find(|s| s.starts_with("food@")).unwrap_or_else(|| panic!("no spawn in {pv:?}"));
    let (x, y) = spawn["food@".len()..].split_once(',').unwrap();
    assert!(x.parse::<u8>().unwrap() < 4 && y.parse::<u8>().unwrap() < 4, "{spawn}");
    let out = text(&[&args[..], &["--seed", "3"]].concat());
    let line = out.lines().find(|l| l.starts_with("best:")).unwrap();
    let (_, joined) = line.split_once("pv: ").unwrap();
    assert_eq!(joined.split(' ').collect::<Vec<_>>(), pv, "{line}");
}

#[test]
fn analyze_text_output_and_a_finished_game() {
    let text = text(&["analyze", "snake", "--state", TRAP, "--playouts", "200", "--threads", "1"]);
    assert!(text.contains("best: down"), "{text}");
    assert!(text.contains("not searched"), "{text}");
    let v = json(&["analyze", "snake", "--state", "2x2 body=0,0 0,1 1,1 1,0", "--json"]);
    assert_eq!(v["game_over"], true);
    assert_eq!(v["end"], "won");
    assert_eq!(v["best_action"], Value::Null);
}

#[test]
fn a_snake_hungrier_than_the_starvation_limit_is_refused() {
    // An 8x8 board starves the snake after 128 moves without food.
    for state in [
        "8x8 body=1,1 food=2,2 hunger=128",
        "8x8 body=1,1 food=2,2 hunger=4294967295",
        r#"{"size": "8x8", "body": [[1,1]], "food": [2,2], "hunger": 4294967295}"#,
    ] {
        let line = refused(&["analyze", "snake", "--state", state]);
        assert!(line.contains("is not below the starvation limit of 128 moves"), "{state}: {line}");
    }
    let v = json(&["analyze", "snake", "--state", "8x8 body=1,1 food=2,2 hunger=127", "--playouts", "50", "--json"]);
    assert_eq!(v["state"], "8x8 body=1,1 food=2,2 hunger=127");
}

#[test]
fn a_step_counter_near_its_end_is_refused() {
    for state in [
        "8x8 body=1,1 food=2,2 steps=4294967295",
        r#"{"size": "8x8", "body": [[1,1]], "food": [2,2], "steps": 1000000001}"#,
    ] {
        let line = refused(&["analyze", "snake", "--state", state]);
        assert!(line.contains("is past 1000000000, the most moves a position may have played"), "{state}: {line}");
    }
    let v =
        json(&["analyze", "snake", "--state", "8x8 body=1,1 food=2,2 steps=1000000000", "--playouts", "50", "--json"]);
    assert_eq!(v["state"], "8x8 body=1,1 food=2,2 steps=1000000000");
}

#[test]
fn watch_draws_every_move() {
    let text = text(&["play", "snake", "--size", "3x4", "--agent", "hamilton", "--watch", "--delay", "0"]);
    let frames = text.matches("\x1b[2J").count();
    assert!(frames > 12, "{frames} frames");
    assert!(text.contains("length 12"), "{text}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["play", "snake", "--size", "8by8"],
        &["play", "snake", "--size", "1x8"],
        &["play", "snake", "--size", "40x40"],
        &["play", "snake", "--size", "-3"],
        &["play", "snake", "--size", "40"],
        &["play", "snake", "--agent", "perfect"],
        &["play", "snake", "--games", "0"],
        &["play", "2048", "--agent", "hamilton"],
        &["play", "2048", "--size", "8x8"],
        &["play", "2048", "--endgame", "3"],
        &["play", "snake", "--endgame", "lots"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0", "--tail-filter", "off"],
        &["analyze", "snake", "--state", "8x8 body=9,9 food=1,1"],
        &["analyze", "snake", "--state", "8x8 body=1,1 3,3 food=5,5"],
        &["analyze", "snake", "--state", "8x8 body=1,1 1,2 food=1,2"],
        &["analyze", "snake", "--state", "8x8 body=1,1 1,2"],
        &["analyze", "snake", "--state", "8x8 food=1,2"],
        &["analyze", "snake", "--state", "banana"],
        &["analyze", "snake", "--state", "{\"size\": \"8x8\", \"body\": [[1,1]], \"colour\": 1}"],
        &["analyze", "snake", "--state", "{\"size\": \"8x8\", \"body\": ["],
        &["analyze", "snake", "--state", "{\"body\": [[1,1]]}"],
        &["analyze", "snake", "--state", "8x8 body=1,1 food=2,2", "--rollout", "perfect"],
        &["analyze", "snake", "--state", "8x8 body=1,1 food=2,2", "--playouts", "0"],
        &["analyze", "snake", "--state", "8x8 body=1,1 food=2,2", "--epsilon", "0.1"],
        &["play", "snake", "--agent", "greedy", "--depth", "3"],
        // --watch draws on stdout, which --json and --csv keep for their output.
        &["play", "snake", "--size", "6", "--watch", "--json"],
        &["compare", "snake", "--size", "6", "--watch", "--csv"],
        // --delay paces --watch's drawing only.
        &["play", "snake", "--agent", "greedy", "--size", "6", "--delay", "10"],
        &["analyze", "gomoku", "--moves", "7,7", "--epsilon", "0.1"],
        &["analyze", "gomoku", "--moves", "7,7", "--backup", "max"],
    ];
    for args in cases {
        refused(args);
    }
}

#[test]
fn the_search_policy_settings_come_from_their_declarations() {
    let state = "8x8 body=3,3 3,4 3,5 food=6,1";
    let v = common::json(&[
        "analyze",
        "snake",
        "--state",
        state,
        "--rollout",
        "tailfollow",
        "--tail-filter",
        "timed",
        "--playouts",
        "300",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(v["rollout"], "TailFollow");
    assert_eq!(v["tail_filter"], "timed");
    // Out of the declared range: the declaration's message.
    let line = common::refused(&["analyze", "snake", "--state", state, "--rollout-moves", "0"]);
    assert!(line.starts_with("error: --rollout-moves: 0 is not a whole number from 1 to 2^32-1"), "{line}");
    // A policy setting can be swept like a search parameter.
    let v = common::json(&[
        "sweep",
        "snake",
        "--param",
        "tail-filter",
        "--values",
        "off,now",
        "--size",
        "6x6",
        "--games",
        "1",
        "--playouts",
        "50",
        "--threads",
        "1",
        "--quiet",
        "--json",
    ]);
    assert_eq!(v["param"], "tail-filter");
}
