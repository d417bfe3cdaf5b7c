//! The `canopy` binary on Gomoku: `analyze gomoku` (table, board, JSON fields), `match gomoku` (results,
//! --swap, --out, --json) and bad input (exit status 2, one line on stderr).

use serde_json::{json, Value};

mod common;
use common::{json, refused, temp_dir, text};

const T1_MOVES: &str = "5,7 5,8 6,7 6,8 7,7 7,8 8,7 0,0";

#[test]
fn analyze_json_fields() {
    let v = json(&["analyze", "gomoku", "--moves", T1_MOVES, "--playouts", "2000", "--threads", "1", "--json"]);
    assert_eq!(v["game"], "gomoku");
    assert_eq!(v["size"], 15);
    assert_eq!(v["rule"], "freestyle");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["game_over"], false);
    assert_eq!(v["winner"], Value::Null);
    // MCTS-Solver proves the win in one at once and ends the search early.
    let playouts = v["playouts"].as_u64().unwrap();
    assert!((1..=2000).contains(&playouts), "{playouts}");
    assert_eq!(v["board"].as_array().unwrap().len(), 15);
    assert_eq!(v["board"][7], ".....XXXX......");
    assert_eq!(v["black"].as_array().unwrap().len(), 4);
    let best = v["best_action"].as_str().unwrap();
    assert!(best == "4,7" || best == "9,7", "{best}");
    assert!(v["forced_move"] == "4,7" || v["forced_move"] == "9,7");
    assert_eq!(v["pv"][0], best);
    let actions = v["actions"].as_array().unwrap();
    assert!(!actions.is_empty());
    for key in ["action", "visits", "share", "win_rate", "proof", "pv"] {
        assert!(actions[0].get(key).is_some(), "action field {key} missing");
    }
    assert_eq!(actions[0]["action"], best);
    assert!(actions[0]["win_rate"].as_f64().unwrap() > 0.9);
    // Most visited first.
    let visits: Vec<u64> = actions.iter().map(|a| a["visits"].as_u64().unwrap()).collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
    for key in ["root_proof", "best_proof", "best_win_rate", "root_value", "nodes", "elapsed_ms", "memory_bytes"] {
        assert!(v.get(key).is_some(), "field {key} missing");
    }
    assert_eq!(v["solver"], "on");
    let off = json(&[
        "analyze",
        "gomoku",
        "--moves",
        T1_MOVES,
        "--playouts",
        "200",
        "--threads",
        "1",
        "--no-solver",
        "--json",
    ]);
    assert_eq!(off["solver"], "off: disabled by params");
    let snake =
        json(&["analyze", "snake", "--state", "6x6 body=2,2 food=0,0", "--playouts", "50", "--threads", "1", "--json"]);
    assert_eq!(snake["solver"], "off: game is not two-player win/draw/loss");
    // The proofs are null or one of the solver's words.
    for a in actions {
        assert!(matches!(a["proof"].as_str(), None | Some("win" | "loss" | "draw")), "{}", a["proof"]);
    }
}

#[test]
fn analyze_board_diagram_rule_and_text_output() {
    // R1 as a diagram: Black's six under freestyle, the overline cell is the move.
    let mut rows = vec![String::from("..............."); 15];
    let put = |rows: &mut Vec<String>, x: usize, y: usize, c: &str| rows[y].replace_range(x..x + 1, c);
    for x in [0, 1, 2, 4, 5] {
        put(&mut rows, x, 7, "x");
    }
    for (x, y) in [(9, 9), (10, 9), (11, 9), (9, 12), (13, 0)] {
        put(&mut rows, x, y, "o");
    }
    let board = rows.join("/");
    let v = json(&["analyze", "gomoku", "--board", &board, "--playouts", "1500", "--threads", "1", "--json"]);
    assert_eq!(v["best_action"], "3,7");
    assert_eq!(v["to_move"], "black");
    let v = json(&[
        "analyze",
        "gomoku",
        "--board",
        &board,
        "--rule",
        "standard",
        "--playouts",
        "1500",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(v["rule"], "standard");
    assert_eq!(v["forced_move"], Value::Null);

    let out = text(&["analyze", "gomoku", "--moves", T1_MOVES, "--playouts", "1000", "--threads", "1"]);
    assert!(out.contains("black to move"), "{out}");
    assert!(out.contains("win rate") && out.contains("proof") && out.contains("pv"), "{out}");
    assert!(out.contains("forced:"), "{out}");
    // The best move is marked on the board: row 7 shows the four and a '*' at one end.
    let row7 = out.lines().find(|l| l.starts_with(" 7")).unwrap();
    assert!(row7.contains("*  X  X  X  X") || row7.contains("X  X  X  X  *"), "{row7}");

    let over = json(&["analyze", "gomoku", "--moves", "0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0", "--json"]);
    assert_eq!(over["game_over"], true);
    assert_eq!(over["winner"], "black");
    assert_eq!(over["result"], "black wins");
    assert_eq!(over["best_action"], Value::Null);
}

#[test]
fn impossible_positions_are_refused() {
    let board = |rows: [&str; 7]| rows.join("/");
    let cases = [
        (
            board(["xxxxx..", "ooooo..", ".......", ".......", ".......", ".......", "......."]),
            "both players have a winning line",
        ),
        (
            board(["xxxxx..", "oooo...", ".......", ".......", ".......", ".......", "o......"]),
            "black has a winning line but white has played since",
        ),
        (
            board(["xxxx...", "ooooo..", ".......", ".......", ".......", ".......", "x.....x"]),
            "white has a winning line but black has played since",
        ),
        (
            board(["xxx....", ".......", ".......", ".......", ".......", ".......", "......."]),
            "impossible stone counts: 3 black and 0 white",
        ),
    ];
    for (diagram, why) in cases {
        let line = refused(&["analyze", "gomoku", "--size", "7", "--board", &diagram]);
        assert!(line.starts_with("error: --board: ") && line.contains(why), "{diagram}: {line}");
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["analyze", "gomoku", "--moves", "7,7 99,3"],
        &["analyze", "gomoku", "--moves", "7,7 7,7"],
        &["analyze", "gomoku", "--moves", "7,7 x"],
        &["analyze", "gomoku", "--moves", "1,1", "--size", "21"],
        &["analyze", "gomoku", "--moves", "1,1", "--size", "4"],
        &["analyze", "gomoku", "--moves", "1,1", "--rule", "caro"],
        &["analyze", "gomoku", "--moves", "1,1", "--board", "x"],
        &["analyze", "gomoku"],
        &["analyze", "gomoku", "--board", "x.../...."],
        &["analyze", "gomoku", "--moves", "0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0 4,1"],
        &["analyze", "2048"],
        &["match", "gomoku", "--black", "alphazero"],
        &["match", "gomoku", "--black", "mcts:playouts=many"],
        &["match", "gomoku", "--black", "mcts:warp=9"],
        &["match", "gomoku", "--white", "threat:depth=3"],
        &["match", "gomoku", "--games", "0"],
        &["match", "2048"],
        &["match", "gomoku", "--moves", "0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0"],
        &["play", "gomoku", "--agent", "hamilton"],
    ];
    for args in cases {
        refused(args);
    }
}

#[test]
fn match_threat_against_random_with_swap_and_out() {
    let dir = temp_dir("match");
    let file = dir.join("games.tsv");
    let path = file.to_str().unwrap();
    let v = json(&[
        "match", "gomoku", "--black", "threat", "--white", "random", "--games", "4", "--swap", "--size", "9", "--out",
        path, "--json",
    ]);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["black"], "a");
    assert_eq!(games[1]["black"], "b");
    let a = &v["summary"]["a"];
    let sum = |t: &Value| t["wins"].as_u64().unwrap() + t["losses"].as_u64().unwrap() + t["draws"].as_u64().unwrap();
    assert_eq!(sum(&a["as_black"]), 2);
    assert_eq!(sum(&a["as_white"]), 2);
    assert_eq!(a["total"]["wins"], v["summary"]["b"]["total"]["losses"]);
    assert!(a["total"]["wins"].as_u64().unwrap() >= 3, "threat won {} of 4 against random", a["total"]["wins"]);
    let saved = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = saved.lines().collect();
    assert_eq!(lines.len(), 5, "{saved}");
    assert!(lines[0].starts_with('#'));
    for (i, line) in lines[1..].iter().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(f[0], (i + 1).to_string());
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&f[3]), "{line}");
        let moves = games[i]["moves"].as_array().unwrap();
        assert_eq!(f[4].split(' ').count(), moves.len());
        // The saved moves replay to the recorded result.
        let replay = json(&["analyze", "gomoku", "--size", "9", "--moves", f[4], "--playouts", "1", "--json"]);
        assert_eq!(replay["game_over"], true, "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();

    let out = text(&[
        "match",
        "gomoku",
        "--black",
        "mcts:playouts=300",
        "--white",
        "flat:rollouts=3",
        "--size",
        "9",
        "--threads",
        "1",
    ]);
    assert!(out.contains("A (mcts:playouts=300)"), "{out}");
    assert!(out.contains("as black") && out.contains("as white") && out.contains("total"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2, "{out}");
}

/// `--rule renju`: the search does not play Black's double three (the freestyle answer), a forbidden
/// move in `--moves` ends the game as White's win, and a renju match replays to its results.
#[test]
fn renju_rule_in_analyze_and_match() {
    let moves = "7,5 0,14 7,6 4,14 5,7 8,14 6,7 12,14";
    let args = |rule| {
        ["analyze", "gomoku", "--moves", moves, "--rule", rule, "--playouts", "2000", "--threads", "1", "--json"]
    };
    let free = json(&args("freestyle"));
    assert_eq!(free["best_action"], "7,7");
    let renju = json(&args("renju"));
    assert_eq!(renju["rule"], "renju");
    assert_ne!(renju["best_action"], "7,7");
    assert!(renju["actions"].as_array().unwrap().iter().all(|a| a["action"] != "7,7"));
    let lost = json(&["analyze", "gomoku", "--moves", &format!("{moves} 7,7"), "--rule", "renju", "--json"]);
    assert_eq!(lost["game_over"], true);
    assert_eq!(lost["winner"], "white");
    assert_eq!(lost["forbidden_move"]["cell"], "7,7");
    assert_eq!(lost["forbidden_move"]["foul"], "double-three");
    assert_eq!(free.get("forbidden_move"), None);
    let out = text(&["analyze", "gomoku", "--moves", &format!("{moves} 7,7"), "--rule", "renju"]);
    assert!(out.contains("game over: white has won (black's 7,7 is a forbidden double-three)"), "{out}");
    // A Black overline: the moves and the same stones as a board give the same result (the board cannot
    // tell which stone came last).
    let overline = "0,7 9,9 1,7 10,9 2,7 11,9 4,7 9,12 5,7 13,13 9,2 0,0 3,7";
    let out = text(&["analyze", "gomoku", "--moves", overline, "--rule", "renju"]);
    assert!(out.contains("game over: white has won (black's 3,7 is a forbidden overline)"), "{out}");
    let diagram: String = out.lines().take(16).collect::<Vec<_>>().join("\n");
    let board = json(&["analyze", "gomoku", "--board", &diagram, "--rule", "renju", "--json"]);
    assert_eq!((&board["game_over"], &board["winner"]), (&json!(true), &json!("white")), "{board}");
    assert_eq!(board["forbidden_move"], json!({ "cell": null, "foul": "overline" }));
    let out = text(&["analyze", "gomoku", "--board", &diagram, "--rule", "renju"]);
    assert!(out.contains("game over: white has won (black's overline is forbidden under renju)"), "{out}");
    let v = json(&[
        "match", "gomoku", "--rule", "renju", "--black", "threat", "--white", "random", "--games", "2", "--size", "9",
        "--json",
    ]);
    assert_eq!(v["rule"], "renju");
    for game in v["games"].as_array().unwrap() {
        let played: Vec<&str> = game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let replay =
            json(&["analyze", "gomoku", "--size", "9", "--rule", "renju", "--moves", &played.join(" "), "--json"]);
        assert_eq!(replay["game_over"], true);
        assert_eq!(replay["winner"], game["winner"]);
    }
}

/// The board `analyze` prints (with its '*') reads back as the same position.
#[test]
fn analyze_board_reads_back() {
    let out = text(&["analyze", "gomoku", "--moves", "7,7 8,8 7,8", "--playouts", "300", "--threads", "1"]);
    let diagram: String = out.lines().take(16).collect::<Vec<_>>().join("\n");
    assert!(diagram.contains('*'));
    let a = json(&["analyze", "gomoku", "--board", &diagram, "--playouts", "1", "--json"]);
    let b = json(&["analyze", "gomoku", "--moves", "7,7 8,8 7,8", "--playouts", "1", "--json"]);
    assert_eq!(a["board"], b["board"]);
    assert_eq!(a["to_move"], "white");
}

#[test]
fn analyze_shows_the_move_the_brain_plays() {
    // Black has four in a column: the brain wins at once without a search, and says so.
    let v = common::json(&[
        "analyze",
        "gomoku",
        "--moves",
        "7,7 0,0 7,8 0,1 7,9 0,2 7,10 14,14",
        "--playouts",
        "500",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(v["decision"]["how"], "forced", "{}", v["decision"]);
    let best = v["best_action"].as_str().unwrap();
    assert!(best == "7,6" || best == "7,11", "{best}");
    assert_eq!(v["decision"]["move"], best);
    // A quiet opening: the brain searches, and plays the search's best move.
    let v = common::json(&["analyze", "gomoku", "--moves", "7,7 8,8", "--playouts", "500", "--threads", "1", "--json"]);
    assert_eq!(v["decision"]["how"], "search");
    assert_eq!(v["decision"]["move"], v["best_action"]);
}

#[test]
fn analyze_json_reports_the_move_played_when_the_refutation_check_replaces_the_best() {
    // The position of the refutation test in canopy-mcts/tests/gomoku_proofs.rs: with seed 2 the search
    // prefers 7,4, which loses to Black's victory by threats, and the brain plays another move. The
    // best_* fields describe the move played; search_best and pv the search's own choice.
    let moves = "6,8 5,7 6,6 6,5 7,7 7,8 8,6 9,5 5,5 8,8 6,4";
    let args = ["analyze", "gomoku", "--moves", moves, "--playouts", "100000", "--threads", "1", "--no-pin"];
    let v = json(&[&args[..], &["--seed", "2", "--json"]].concat());
    assert_eq!(v["decision"]["how"], "refutation", "{}", v["decision"]);
    let (played, search_best) = (v["best_action"].as_str().unwrap(), v["search_best"].as_str().unwrap());
    assert_eq!(search_best, "7,4");
    assert_ne!(played, search_best);
    assert_eq!(v["decision"]["move"], played);
    assert_eq!(v["pv"][0], search_best);
    let row = v["actions"].as_array().unwrap().iter().find(|a| a["action"] == played).expect("the move played");
    assert_eq!(v["best_win_rate"], row["win_rate"]);
    // With the check off the search's choice is played.
    let off = json(&[&args[..], &["--seed", "2", "--refute", "0", "--json"]].concat());
    assert_eq!(off["decision"]["how"], "search");
    assert_eq!(off["best_action"], off["search_best"]);
}
