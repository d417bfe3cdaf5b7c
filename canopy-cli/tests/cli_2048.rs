//! The `canopy` binary on 2048: the shared move cases through `analyze --json`, the safe-move boards,
//! reproducibility, exact playout accounting, bad input, and `play`.

use serde_json::Value;

mod common;
use common::{canopy, json, refused, text};

fn dir_name(letter: &str) -> &'static str {
    match letter {
        "L" => "left",
        "R" => "right",
        "U" => "up",
        "D" => "down",
        other => panic!("unknown move {other}"),
    }
}

#[test]
fn analyze_json_shows_the_rules_afterstates_and_rewards() {
    let data = include_str!("../../tests/data/2048-moves.tsv");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let (id, board, mv, expected, gain) = (f[0], f[1], dir_name(f[2]), f[3], f[4]);
        let v = json(&["analyze", "2048", "--board", board, "--playouts", "200", "--threads", "1", "--json"]);
        let actions = v["actions"].as_array().unwrap();
        let entry = actions.iter().find(|a| a["action"] == mv);
        if expected == "ILLEGAL" {
            assert!(entry.is_none(), "{id}: illegal move {mv} listed");
        } else {
            let entry = entry.unwrap_or_else(|| panic!("{id}: legal move {mv} missing"));
            let want: Vec<u64> = expected.split(',').map(|t| t.trim().parse().unwrap()).collect();
            let got: Vec<u64> = entry["afterstate"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
            assert_eq!(got, want, "{id}: afterstate");
            assert_eq!(entry["reward"].as_f64().unwrap(), gain.parse::<f64>().unwrap(), "{id}: reward");
        }
        // Every listed action is legal: its afterstate differs from the board.
        for a in actions {
            assert_ne!(a["afterstate"], v["board"], "{id}: an illegal move is listed");
        }
        checked += 1;
    }
    assert_eq!(checked, 14);
}

#[test]
fn terminal_board_reports_game_over() {
    let v = json(&["analyze", "2048", "--board", "4,8,2,4,2,4,8,16,16,128,64,128,2,8,2,8", "--json"]);
    assert_eq!(v["best_action"], Value::Null);
    assert_eq!(v["game_over"], true);
    assert_eq!(v["actions"].as_array().unwrap().len(), 0);
}

#[test]
fn an_empty_board_is_no_position() {
    let line = refused(&["analyze", "2048", "--board", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"]);
    assert_eq!(
        line,
        "error: bad board: the board has no tile: a 2048 position holds at least one (see canopy analyze 2048 --help)"
    );
}

#[test]
fn picks_the_safe_move_on_every_safe_move_board() {
    let data = include_str!("../../tests/data/2048-safe-move.tsv");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let v = json(&["analyze", "2048", "--board", f[0], "--playouts", "20000", "--threads", "2", "--json"]);
        assert_eq!(v["best_action"], f[1], "board {}: {}", f[0], v["actions"]);
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn one_thread_and_a_seed_give_identical_json_apart_from_timings() {
    let args = ["analyze", "2048", "--board", "0,2,16,4,32,8,2,8,4,16,4,16,2,4,8,4", "--threads", "1", "--seed", "9"];
    let args: Vec<&str> = args.iter().copied().chain(["--playouts", "5000", "--json"]).collect();
    let strip = |mut v: Value| {
        for k in ["elapsed_ms", "playouts_per_sec"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let a = strip(json(&args));
    let b = strip(json(&args));
    assert_eq!(a, b);
    assert_eq!(a["playouts"], 5000);
}

#[test]
fn two_threads_lose_no_playout() {
    let v = json(&[
        "analyze",
        "2048",
        "--board",
        "2,0,0,2,0,4,0,0,0,0,8,0,0,0,0,2",
        "--threads",
        "2",
        "--playouts",
        "100000",
        "--json",
    ]);
    assert_eq!(v["playouts"], 100_000);
    assert_eq!(v["root_visits"], 100_000);
    let visits: u64 = v["actions"].as_array().unwrap().iter().map(|a| a["visits"].as_u64().unwrap()).sum();
    assert_eq!(visits, 100_000, "root visits must equal playouts");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["analyze", "2048", "--board", "2,2,4"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,3"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,x"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,1"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,262144"],
        &["analyze", "2048", "--board", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0", "--playouts", "0"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0", "--memory", "lots"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0", "--threads", "-1"],
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0", "--bogus"],
        &["analyze", "chess", "--board", "x"],
        &["play", "2048", "--games", "0"],
    ];
    for args in cases {
        refused(args);
    }
}

#[test]
fn memory_suffixes_are_accepted() {
    let v = json(&[
        "analyze",
        "2048",
        "--board",
        "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0",
        "--memory",
        "512MB",
        "--playouts",
        "500",
        "--json",
    ]);
    assert_eq!(v["playouts"], 500);
}

#[test]
fn play_three_games_beats_random_play() {
    let v = json(&["play", "2048", "--games", "3", "--playouts", "300", "--seed", "1", "--json"]);
    let mean = v["summary"]["mean_score"].as_f64().unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 3);
    // Uniform random play averages about 1,100 (tests/g2048_rules.rs measures it).
    assert!(mean > 5_000.0, "mean score {mean}");
}

// ---------------------------------------------------------------------------------------------------
// Agents, compare and sweep.

const MID_BOARD: &str = "2,0,0,2,0,4,0,0,0,0,8,0,0,16,0,2";

#[test]
fn analyze_with_every_agent_explains_every_move() {
    for agent in ["mcts", "expectimax", "flat", "greedy", "random"] {
        let v = json(&[
            "analyze",
            "2048",
            "--board",
            MID_BOARD,
            "--agent",
            agent,
            "--playouts",
            "300",
            "--threads",
            "1",
            "--json",
        ]);
        assert_eq!(v["agent"], agent);
        let actions = v["actions"].as_array().unwrap();
        assert_eq!(actions.len(), 4, "{agent}: every direction is legal here");
        let best = v["best_action"].as_str().unwrap();
        assert!(actions.iter().any(|a| a["action"] == best), "{agent}");
        for a in actions {
            let e = &a["explain"];
            assert!(e["empty_cells_change"].is_i64(), "{agent}: {a}");
            assert!(e["eval_change"].is_f64(), "{agent}: {a}");
            for f in ["empty", "merges", "monotonicity", "sum", "smoothness", "corner"] {
                assert!(e["points_change"][f].is_number(), "{agent}: {f}");
                assert!(e["features_change"][f].is_number(), "{agent}: {f}");
            }
        }
    }
    // The text form ends with the explanation of the choice.
    let text = text(&["analyze", "2048", "--board", MID_BOARD, "--agent", "expectimax", "--depth", "2"]);
    assert!(text.contains("why:") && text.contains(" rather than "), "{text}");
}

#[test]
fn play_with_each_baseline_reports_milestones() {
    for (agent, extra) in [
        ("greedy", vec![]),
        ("random", vec![]),
        ("flat", vec!["--playouts", "40"]),
        ("expectimax", vec!["--depth", "1"]),
    ] {
        let mut args = vec!["play", "2048", "--agent", agent, "--games", "2", "--threads", "1", "--json"];
        args.extend(extra);
        let v = json(&args);
        assert_eq!(v["agent"], agent);
        assert_eq!(v["games"].as_array().unwrap().len(), 2);
        let reached: Vec<u64> =
            v["summary"]["reached"].as_array().unwrap().iter().map(|r| r["tile"].as_u64().unwrap()).collect();
        assert_eq!(reached, [2048, 4096, 8192, 16384, 32768]);
        assert!(v["summary"]["mean_score"].as_f64().unwrap() > 0.0);
    }
    let text = text(&["play", "2048", "--agent", "greedy", "--games", "3", "--csv"]);
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(text.starts_with("seed,score,max_tile"));
}

#[test]
fn compare_prints_a_row_per_agent_as_table_csv_and_json() {
    let base = ["compare", "2048", "--agents", "greedy,random", "--games", "3", "--quiet"];
    let table = text(&base);
    let header = table.lines().next().unwrap();
    for col in ["agent", "mean", "median", "max", "2048", "4096", "8192", "16384", "32768"] {
        assert!(header.contains(col), "{header}");
    }
    assert!(table.lines().any(|l| l.starts_with("greedy ")) && table.lines().any(|l| l.starts_with("random ")));

    let csv = text(&[&base[..], &["--csv"]].concat());
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[0].starts_with("agent,games,mean_score"));
    assert!(lines[1].starts_with("greedy,3,") && lines[2].starts_with("random,3,"));

    let v = json(&[&base[..], &["--json"]].concat());
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2);
    assert_eq!(agents[0]["games"].as_array().unwrap().len(), 3);
    // Each row's tree-search parameters as `params`, as in play 2048 and the other games' series: none
    // for agents that run no tree search.
    assert!(agents[0]["params"].is_null() && agents[1]["params"].is_null(), "{v}");
    // Game i of every agent starts from the same seed.
    assert_eq!(agents[0]["games"][1]["seed"], agents[1]["games"][1]["seed"]);
}

#[test]
fn sweep_prints_a_row_per_value_and_draws_the_plot() {
    let svg = std::env::temp_dir().join(format!("canopy-sweep-{}.svg", std::process::id()));
    let svg_arg = svg.to_string_lossy().to_string();
    let text = text(&[
        "sweep",
        "2048",
        "--agent",
        "flat",
        "--param",
        "playouts",
        "--values",
        "8,16",
        "--games",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--csv",
        "--svg",
        &svg_arg,
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("playouts,games,mean_score") && lines[1].starts_with("8,2,"));
    let plot = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert!(plot.starts_with("<svg") && plot.matches("<circle").count() == 2);
}

#[test]
fn bad_agent_options_exit_2_with_one_line() {
    let b = MID_BOARD;
    let cases: &[&[&str]] = &[
        &["analyze", "2048", "--board", b, "--agent", "bogus"],
        &["analyze", "2048", "--board", b, "--epsilon", "2"],
        &["analyze", "2048", "--board", b, "--rollout", "random", "--epsilon", "0.1"],
        &["analyze", "2048", "--board", b, "--rollout-depth", "x"],
        &["analyze", "2048", "--board", b, "--leaf-depth", "9"],
        &["analyze", "2048", "--board", b, "--agent", "expectimax", "--depth", "0"],
        &["analyze", "2048", "--board", b, "--prob-cutoff", "5"],
        &["analyze", "2048", "--board", b, "--prior-temperature", "0.01"],
        &["analyze", "2048", "--board", b, "--selection", "puct", "--prior-temperature", "-1"],
        &["analyze", "2048", "--board", b, "--min-span", "1.5"],
        &["analyze", "gomoku", "--moves", "7,7", "--min-span", "0.1"],
        &["analyze", "tictactoe", "--board", "x.o/.o./..x", "--agent", "flat"],
        &["play", "2048", "--agent", "greedy", "--json", "--csv"],
        &["compare", "chess"],
        &["compare", "2048", "--agents", "mcts,bogus"],
        &["compare", "2048", "--games", "0"],
        &["compare", "tictactoe", "--agents", "flat"],
        &["sweep", "2048", "--param", "exploration"],
        &["sweep", "2048", "--param", "exploration", "--values", "0.1,abc"],
        &["sweep", "2048", "--param", "bogus", "--values", "1"],
        &["sweep", "2048", "--param", "time", "--values", "0"],
        &["sweep", "2048", "--param", "rollout-depth", "--values", "2,never"],
    ];
    for args in cases {
        refused(args);
    }
}

#[test]
fn a_closed_standard_output_ends_the_tool_quietly() {
    use std::process::{Command, Stdio};
    // The reading end of the pipe is closed before the search finishes, so the first line printed fails.
    let mut child = Command::new(env!("CARGO_BIN_EXE_canopy"))
        .args(["analyze", "2048", "--board", "0,2,16,4,32,8,2,8,4,16,4,16,2,4,8,4", "--playouts", "20000"])
        .args(["--threads", "1", "--no-progress"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run canopy");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for canopy");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

#[test]
fn options_no_agent_uses_are_named_on_stderr() {
    let warning = |args: &[&str]| {
        let out = canopy(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).lines().find(|l| l.starts_with("warning:")).map(str::to_string)
    };
    let b = "0,0,2,4,0,2,8,16,2,4,32,64,8,16,128,512";
    assert_eq!(
        warning(&["analyze", "2048", "--board", b, "--agent", "expectimax", "--depth", "2", "--playouts", "500"])
            .as_deref(),
        Some("warning: expectimax does not use --playouts; ignored")
    );
    assert_eq!(
        warning(&["compare", "2048", "--agents", "greedy,random", "--games", "1", "--quiet", "--depth", "3"])
            .as_deref(),
        Some("warning: none of greedy, random uses --depth; ignored")
    );
    // An option that one of the compared agents uses is not reported.
    let both = ["compare", "2048", "--agents", "greedy,expectimax", "--games", "1", "--quiet", "--depth", "1"];
    assert_eq!(warning(&both), None);
}

#[test]
fn priors_and_the_normalisation_floor_are_named_in_the_configuration() {
    let b = MID_BOARD;
    let args =
        ["analyze", "2048", "--board", b, "--playouts", "200", "--selection", "puct", "--prior-temperature", "0.01"];
    let v = json(&[&args[..], &["--min-span", "0.02", "--json"]].concat());
    let config = &v["config"];
    assert_eq!(config["prior_temperature"], 0.01, "{config}");
    assert_eq!(config["search"]["selection"], "puct", "{config}");
    assert_eq!(config["search"]["min_span"], 0.02, "{config}");
    let line = text(&args);
    assert!(line.contains("puct (prior temperature 0.01)"), "{line}");
    // Root batching is named where it acts, with several threads.
    let base = ["analyze", "2048", "--board", b, "--playouts", "50", "--batch-plies", "2"];
    let two = text(&[&base[..], &["--threads", "2"]].concat());
    assert!(two.contains("virtual loss 1, batch plies 2,"), "{two}");
    let one = text(&[&base[..], &["--threads", "1"]].concat());
    assert!(!one.contains("batch plies"), "{one}");
}

#[test]
fn play_reports_the_work_per_move_in_the_agents_unit() {
    let mcts =
        json(&["play", "2048", "--agent", "mcts", "--playouts", "30", "--threads", "1", "--games", "1", "--json"]);
    assert_eq!(mcts["work_unit"], "playouts");
    // Every move of a fixed-budget search runs exactly its playouts (those kept from earlier moves are not
    // counted again).
    assert_eq!(mcts["games"][0]["work_per_move"].as_f64(), Some(30.0), "{}", mcts["games"][0]);
    let greedy = json(&["play", "2048", "--agent", "greedy", "--games", "1", "--json"]);
    assert_eq!(greedy["work_unit"], "afterstates");
    let afterstates = greedy["games"][0]["work_per_move"].as_f64().unwrap();
    assert!((1.0..=4.0).contains(&afterstates), "greedy looks at 1 to 4 afterstates a move, not {afterstates}");
    let random = json(&["play", "2048", "--agent", "random", "--games", "1", "--json"]);
    assert!(random["work_unit"].is_null(), "{}", random["work_unit"]);
    assert_eq!(random["games"][0]["work_per_move"].as_f64(), Some(0.0));
    let csv = text(&["play", "2048", "--agent", "mcts", "--playouts", "30", "--threads", "1", "--games", "1", "--csv"]);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",work_per_move"), "{csv}");
    assert!(lines.next().unwrap().ends_with(",30.0"), "{csv}");
}

/// The `params` blocks of the games' `--json` list the search parameters the game takes and no other:
/// 2048 and Snake take no `solver` (MCTS-Solver proves two-player results) and no command takes
/// `audit`; Gomoku and tic-tac-toe take no `chance`, `backup` or `min_span`. The analyses of Snake, Gomoku
/// and tic-tac-toe give theirs too (2048's gives its agent's configuration).
#[test]
fn json_params_list_only_the_parameters_the_game_takes() {
    let keys = |v: &serde_json::Value| -> Vec<String> {
        v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().cloned().collect()
    };
    let g2048 =
        json(&["play", "2048", "--agent", "mcts", "--playouts", "20", "--threads", "1", "--games", "1", "--json"]);
    let snake = json(&[
        "play",
        "snake",
        "--size",
        "6x6",
        "--agent",
        "mcts",
        "--playouts",
        "20",
        "--threads",
        "1",
        "--games",
        "1",
        "--json",
    ]);
    let analysis =
        |args: &[&str]| json(&[&["analyze"], args, &["--playouts", "30", "--threads", "1", "--json"]].concat());
    let snake_analysis = analysis(&["snake", "--state", "8x8 body=3,3 3,4 food=6,6"]);
    let g2048_analysis = analysis(&["2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0"]);
    // 2048's analysis names its search parameters as `params`, as the other analyses and `play 2048`
    // do, beside its configuration.
    assert_eq!(g2048_analysis["params"], g2048_analysis["config"]["search"], "{g2048_analysis}");
    for agent in ["expectimax", "greedy"] {
        let other = analysis(&["2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0", "--agent", agent]);
        assert!(other["params"].is_null(), "{agent}: {other}");
    }
    for (label, params) in [
        ("2048", &g2048["params"]),
        ("2048 config", &g2048["config"]["search"]),
        ("2048 analysis", &g2048_analysis["params"]),
        ("snake", &snake["params"]),
        ("snake analysis", &snake_analysis["params"]),
    ] {
        let k = keys(params);
        assert!(k.contains(&"playouts".to_string()) && k.contains(&"chance".to_string()), "{label}: {k:?}");
        assert!(!k.contains(&"solver".to_string()) && !k.contains(&"audit".to_string()), "{label}: {k:?}");
    }
    let gomoku = json(&[
        "match",
        "gomoku",
        "--size",
        "9",
        "--black",
        "mcts:playouts=20",
        "--white",
        "random",
        "--games",
        "1",
        "--threads",
        "1",
        "--json",
    ]);
    let tictactoe =
        json(&["match", "tictactoe", "--black", "mcts:playouts=20", "--games", "1", "--threads", "1", "--json"]);
    let gomoku_analysis = analysis(&["gomoku", "--size", "9", "--moves", "4,4"]);
    let tictactoe_analysis = analysis(&["tictactoe", "--board", "x../.o./..."]);
    for (label, params) in [
        ("gomoku", &gomoku["params"]),
        ("gomoku agent", &gomoku["agent_params"]["a"]),
        ("tic-tac-toe", &tictactoe["params"]),
        ("gomoku analysis", &gomoku_analysis["params"]),
        ("tic-tac-toe analysis", &tictactoe_analysis["params"]),
    ] {
        let k = keys(params);
        assert!(k.contains(&"playouts".to_string()) && k.contains(&"solver".to_string()), "{label}: {k:?}");
        for skipped in ["chance", "backup", "min_span", "audit"] {
            assert!(!k.contains(&skipped.to_string()), "{label}: {k:?}");
        }
    }
    // An analysis names the settings it searched with, as given.
    for v in [&snake_analysis, &gomoku_analysis, &tictactoe_analysis] {
        assert_eq!((v["params"]["playouts"].as_u64(), v["params"]["threads"].as_u64()), (Some(30), Some(1)), "{v}");
    }
}

/// The "why" lines say when the search chose by visits a move whose value is below the runner-up's,
/// instead of crediting the look ahead (one thread and a seed: the same search every run).
#[test]
fn the_why_lines_say_when_visits_chose_a_lower_value() {
    let out = text(&[
        "analyze",
        "2048",
        "--board",
        "2,4,8,16,0,0,2,4,0,0,0,2,0,0,0,0",
        "--playouts",
        "8",
        "--threads",
        "1",
        "--seed",
        "12",
    ]);
    let line = out.lines().find(|l| l.contains(": value ")).unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("chose it by its visits, though its value is lower"), "{line}");
    let diff = line.rsplit_once('(').unwrap().1.trim_end_matches(')');
    assert!(diff.parse::<f64>().unwrap() < 0.0, "{line}");
}
