//! `play`, `compare`, `sweep` and `match` for every game where they make sense, through the library's
//! one game loop.

mod common;

use common::{json, refused};

#[test]
fn compare_snake_runs_every_agent_on_the_same_games() {
    let v = json(&[
        "compare",
        "snake",
        "--agents",
        "mcts,tailfollow,hamilton",
        "--size",
        "6x6",
        "--games",
        "2",
        "--playouts",
        "50",
        "--threads",
        "1",
        "--json",
        "--quiet",
    ]);
    // Named as compare 2048 names them.
    let rows = v["agents"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (row, agent) in rows.iter().zip(["mcts", "tailfollow", "hamilton"]) {
        assert_eq!(row["agent"], agent);
        assert_eq!(row["games"].as_array().unwrap().len(), 2);
        // Game i of every agent has the same seed.
        assert_eq!(row["games"][1]["seed"], 2);
    }
    // Hamilton fills the 6x6 board every time.
    assert_eq!(rows[2]["summary"]["win_rate"], 1.0);
}

#[test]
fn sweep_snake_varies_a_declared_search_parameter() {
    let v = json(&[
        "sweep",
        "snake",
        "--param",
        "exploration",
        "--values",
        "0.25,2",
        "--size",
        "6x6",
        "--games",
        "1",
        "--playouts",
        "50",
        "--threads",
        "1",
        "--json",
        "--quiet",
    ]);
    // Named as sweep 2048 names them: the agent swept, and each value as given.
    assert_eq!((&v["agent"], &v["param"]), (&serde_json::json!("mcts"), &serde_json::json!("exploration")));
    let rows = v["values"].as_array().unwrap();
    assert_eq!((&rows[0]["value"], &rows[1]["value"]), (&serde_json::json!("0.25"), &serde_json::json!("2")));
    assert_eq!(rows[0]["params"]["exploration"], 0.25);
    assert_eq!(rows[1]["params"]["exploration"], 2.0);
    assert!(refused(&["sweep", "snake", "--param", "explore", "--values", "1"]).contains("--param"));
    assert!(refused(&["sweep", "snake", "--param", "exploration", "--values", "-1"]).contains("--values"));
    // The agent's own --no-reuse and --endgame are swept as `reuse` and `endgame`: with the tree kept,
    // searches start with the visits of the last move's tree; without it, from nothing.
    let v = json(&[
        "sweep",
        "snake",
        "--param",
        "reuse",
        "--values",
        "true,false",
        "--size",
        "6x6",
        "--games",
        "1",
        "--playouts",
        "50",
        "--threads",
        "1",
        "--json",
        "--quiet",
    ]);
    assert_eq!(v["param"], "reuse");
    let kept: Vec<u64> =
        v["values"].as_array().unwrap().iter().map(|r| r["games"][0]["kept_playouts"].as_u64().unwrap()).collect();
    assert!(kept[0] > 0 && kept[1] == 0, "{kept:?}");
    let v = json(&[
        "sweep",
        "snake",
        "--param",
        "endgame",
        "--values",
        "0,9",
        "--size",
        "6x6",
        "--games",
        "1",
        "--playouts",
        "50",
        "--threads",
        "1",
        "--json",
        "--quiet",
    ]);
    let values: Vec<&str> = v["values"].as_array().unwrap().iter().map(|r| r["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["0", "9"]);
}

#[test]
fn play_works_for_the_two_player_games() {
    let v = json(&["play", "tictactoe", "--games", "2", "--playouts", "3000", "--threads", "1", "--json"]);
    // Perfect play draws tic-tac-toe; the search at 3000 playouts plays it perfectly.
    assert_eq!(v["summary"]["draws"], 2, "{v}");
    for agent in ["random", "threat", "flat"] {
        let v = json(&["play", "gomoku", "--agent", agent, "--size", "7", "--games", "1", "--json"]);
        assert_eq!(v["records"].as_array().unwrap().len(), 1, "{agent}");
    }
    assert!(refused(&["play", "tictactoe", "--agent", "hamilton"]).contains("[possible values: mcts, random]"));
    assert!(
        refused(&["play", "gomoku", "--agent", "expectimax"]).contains("[possible values: mcts, flat, threat, random]")
    );
}

#[test]
fn match_works_for_tictactoe_with_declared_settings() {
    let v = json(&[
        "match",
        "tictactoe",
        "--black",
        "mcts:playouts=2000,threads=1",
        "--white",
        "random",
        "--games",
        "4",
        "--swap",
        "--json",
    ]);
    let records = v["records"].as_array().unwrap();
    assert_eq!(records.len(), 4);
    assert_eq!(records[1]["first"], "B", "colours alternate");
    // The search never loses tic-tac-toe to random moves.
    assert_eq!(v["summary"]["b_wins"], 0, "{v}");
    assert!(refused(&["match", "tictactoe", "--black", "mcts:explore=1"]).contains("unknown mcts option 'explore'"));
    assert!(refused(&["match", "tictactoe", "--black", "mcts:threads=0"]).contains("threads: 0 is not a whole number"));
    assert_eq!(
        refused(&["match", "snake"]),
        "error: canopy match has no game 'snake' (its games: gomoku, tictactoe) (see canopy match --help)"
    );
}

#[test]
fn per_side_settings_follow_the_flags_rules() {
    // Tic-tac-toe's match has its own default opponent, and a limit of 0 lifts that limit.
    let v = json(&["match", "tictactoe", "--black", "mcts:playouts=0,time=30,threads=1", "--games", "1", "--json"]);
    assert_eq!(v["agents"]["b"], "random");
    // Lifting the only limit would leave the engine's default playouts: refused.
    for game in ["gomoku", "tictactoe"] {
        assert!(refused(&["match", game, "--black", "mcts:playouts=0"]).contains("lifts every limit of its searches"));
    }
    // A per-side memory budget is checked against the machine like --memory.
    for game in ["gomoku", "tictactoe"] {
        assert!(refused(&["match", game, "--black", "mcts:memory=1000T"]).contains("memory: 1000T is more than"));
    }
}

#[test]
fn series_commands_refuse_another_games_options() {
    for (args, flag) in [
        (&["compare", "snake", "--agents", "greedy", "--depth", "3"][..], "--depth"),
        (&["sweep", "snake", "--param", "exploration", "--values", "1", "--epsilon", "0.5"], "--epsilon"),
        (&["compare", "2048", "--size", "6x6"], "--size"),
        (&["sweep", "2048", "--param", "exploration", "--values", "1", "--tail-filter", "off"], "--tail-filter"),
        (&["play", "tictactoe", "--watch"], "--watch"),
        (&["play", "gomoku", "--max-moves", "3"], "--max-moves"),
    ] {
        let name = format!("canopy {} {}", args[0], args[1]);
        assert_eq!(refused(args), format!("error: {name} does not take {flag} (see {name} --help)"));
    }
    // A search parameter the game does not take cannot be swept either.
    let line = refused(&["sweep", "2048", "--param", "solver", "--values", "true,false"]);
    assert!(line.contains("'solver' is not a search parameter of this game"), "{line}");
    let line = refused(&["sweep", "snake", "--param", "solver", "--values", "true,false"]);
    assert!(line.starts_with("error: --param: 'solver' is not one of playouts,"), "{line}");
}

#[test]
fn a_sweep_refuses_a_fixed_value_of_the_parameter_it_varies() {
    // The fixed value would be replaced by every row's own: refused, naming both options, for a search
    // parameter and for each game's own settings (a flag that turns a setting off is named as typed).
    for (args, param, flag) in [
        (
            &["sweep", "tictactoe", "--param", "statistics", "--values", "node,edge", "--statistics", "edge"][..],
            "statistics",
            "--statistics",
        ),
        (&["sweep", "tictactoe", "--param", "tt", "--values", "true,false", "--no-tt"], "tt", "--no-tt"),
        (
            &["sweep", "gomoku", "--param", "expand-threshold", "--values", "1,2", "--expand-threshold", "2"],
            "expand-threshold",
            "--expand-threshold",
        ),
        (&["sweep", "gomoku", "--param", "radius", "--values", "1,2", "--radius", "2"], "radius", "--radius"),
        (&["sweep", "2048", "--param", "playouts", "--values", "10,20", "--playouts", "30"], "playouts", "--playouts"),
        (&["sweep", "2048", "--param", "reuse", "--values", "true,false", "--no-reuse"], "reuse", "--no-reuse"),
        (
            &["sweep", "snake", "--param", "exploration", "--values", "1,2", "--exploration", "3"],
            "exploration",
            "--exploration",
        ),
        (
            &["sweep", "snake", "--param", "rollout-moves", "--values", "10,20", "--rollout-moves", "30"],
            "rollout-moves",
            "--rollout-moves",
        ),
        (&["sweep", "snake", "--param", "reuse", "--values", "true,false", "--no-reuse"], "reuse", "--no-reuse"),
        (&["sweep", "snake", "--param", "endgame", "--values", "0,9", "--endgame", "4"], "endgame", "--endgame"),
    ] {
        assert_eq!(
            refused(args),
            format!(
                "error: --param {param}: {flag} also sets it; give its values with --values alone (see canopy {} {} \
                 --help)",
                args[0], args[1]
            ),
            "{args:?}"
        );
    }
    // Two values that the parameter reads as one would play the same games twice.
    for (args, same) in [
        (
            &["sweep", "tictactoe", "--param", "statistics", "--values", "edge,EDGE"][..],
            "edge and EDGE are the same value of statistics",
        ),
        (&["sweep", "gomoku", "--param", "radius", "--values", "1,2,02"], "2 and 02 are the same value of radius"),
        (
            &["sweep", "2048", "--param", "exploration", "--values", "1,1.0"],
            "1 and 1.0 are the same value of exploration",
        ),
        (
            &["sweep", "2048", "--param", "rollout-depth", "--values", "end,END"],
            "end and END are the same value of rollout-depth",
        ),
        (
            &["sweep", "snake", "--param", "rollout", "--values", "random,RANDOM"],
            "random and RANDOM are the same value of rollout",
        ),
        (&["sweep", "snake", "--param", "reuse", "--values", "true,yes"], "true and yes are the same value of reuse"),
    ] {
        let see = format!("(see canopy {} {} --help)", args[0], args[1]);
        assert_eq!(refused(args), format!("error: --values: {same} {see}"), "{args:?}");
    }
    // A value out of range is named by the parameter as --param takes it.
    assert_eq!(
        refused(&["sweep", "2048", "--param", "expand-threshold", "--values", "1,zz"]),
        "error: --values: expand-threshold: zz is not a whole number from 0 to 1000000 (see canopy sweep 2048 --help)"
    );
    // A parameter the agent does not use would play the same games for every value.
    assert_eq!(
        refused(&["sweep", "2048", "--param", "depth", "--values", "1,2"]),
        "error: --param depth: mcts does not use it; every value would play the same games (see canopy sweep 2048 \
         --help)"
    );
    assert_eq!(
        refused(&["sweep", "2048", "--agent", "expectimax", "--param", "exploration", "--values", "1,2"]),
        "error: --param exploration: expectimax does not use it; every value would play the same games (see canopy \
         sweep 2048 --help)"
    );
    assert_eq!(
        refused(&["sweep", "snake", "--agent", "greedy", "--param", "rollout-moves", "--values", "10,20"]),
        "error: --param rollout-moves: greedy does not search; every value would play the same games (see canopy \
         sweep snake --help)"
    );
    // A per-side setting lists only the settings the two-player games take.
    for game in ["tictactoe", "gomoku"] {
        let line = refused(&["match", game, "--black", "mcts:bogus=1"]);
        assert!(line.contains("'bogus'") && line.contains("expand_threshold"), "{line}");
        assert!(!["audit", "chance", "backup", "min_span"].iter().any(|s| line.contains(s)), "{line}");
    }
    // The lists of what can be swept spell the names as the options do.
    for game in ["2048", "snake", "gomoku", "tictactoe"] {
        let line = refused(&["sweep", game, "--param", "bogus", "--values", "1"]);
        assert!(!line.contains('_'), "{line}");
        assert!(line.contains("expand-threshold"), "{line}");
        if game == "2048" {
            assert!(line.contains("rollout-depth") && line.contains("prior-temperature"), "{line}");
        }
    }
}

#[test]
fn compare_and_sweep_work_for_the_two_player_games() {
    // Every agent plays the same games against one opponent, colours alternating.
    let v =
        json(&["compare", "tictactoe", "--games", "4", "--playouts", "2000", "--threads", "1", "--quiet", "--json"]);
    assert_eq!(v["opponent"], "random");
    let rows = v["agents"].as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["agent"].as_str().unwrap()).collect::<Vec<_>>(), ["mcts", "random"]);
    // Each row's search parameters, as the other games' series give them (null for random play).
    assert_eq!(
        (&rows[0]["params"]["playouts"], &rows[1]["params"]),
        (&serde_json::json!(2000), &serde_json::Value::Null)
    );
    let mcts = &rows[0]["summary"];
    assert_eq!(mcts["games"], 4);
    assert_eq!(mcts["losses"], 0, "the search never loses tic-tac-toe to random moves: {v}");
    let firsts: Vec<&str> = rows[0]["games"].as_array().unwrap().iter().map(|g| g["first"].as_str().unwrap()).collect();
    assert_eq!(firsts, ["A", "B", "A", "B"]);
    let score = mcts["score"].as_f64().unwrap();
    let wins = mcts["wins"].as_f64().unwrap();
    let draws = mcts["draws"].as_f64().unwrap();
    assert!((score - (wins + draws / 2.0) / 4.0).abs() < 1e-12, "{mcts}");
    // A brain setting of Gomoku's mcts agent, against the threat scorer on a small board.
    let v = json(&[
        "sweep",
        "gomoku",
        "--param",
        "radius",
        "--values",
        "1,2",
        "--size",
        "7",
        "--games",
        "2",
        "--playouts",
        "200",
        "--threads",
        "1",
        "--quiet",
        "--json",
    ]);
    assert_eq!((&v["param"], &v["agent"]), (&serde_json::json!("radius"), &serde_json::json!("mcts")));
    assert!(v["values"].as_array().unwrap().iter().all(|r| r["params"]["playouts"] == 200), "{v}");
    assert_eq!(v["opponent"], "threat");
    // The swept parameter is named as --param takes it, however it was typed.
    let t = json(&[
        "sweep",
        "tictactoe",
        "--param",
        "virtual_loss",
        "--values",
        "1,2",
        "--games",
        "1",
        "--playouts",
        "50",
        "--threads",
        "1",
        "--quiet",
        "--json",
    ]);
    assert_eq!(t["param"], "virtual-loss");
    let values: Vec<&str> = v["values"].as_array().unwrap().iter().map(|r| r["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["1", "2"]);
    // What the game cannot sweep or play against is refused before any game.
    assert!(refused(&["sweep", "gomoku", "--param", "chance", "--values", "sample"]).starts_with("error: --param:"));
    assert!(refused(&["sweep", "tictactoe", "--param", "radius", "--values", "1"]).starts_with("error: --param:"));
    assert!(refused(&["sweep", "gomoku", "--param", "radius", "--values", "0"]).starts_with("error: --values:"));
    assert!(refused(&["compare", "gomoku", "--opponent", "hamilton"]).starts_with("error: --opponent:"));
    assert!(refused(&["compare", "tictactoe", "--agents", "threat"]).contains("[possible values: mcts, random]"));
}

#[test]
fn options_only_the_search_reads_are_named_when_no_agent_searches() {
    let out = common::canopy(&["play", "gomoku", "--agent", "threat", "--size", "5", "--playouts", "5", "--no-vcf"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: threat does not search; --playouts, --no-vcf ignored"), "{err}");
    let out =
        common::canopy(&["compare", "tictactoe", "--agents", "random", "--games", "1", "--threads", "1", "--quiet"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("(random) search; --threads ignored"), "{err}");
    // With a searching agent in the series, nothing is said.
    let out =
        common::canopy(&["compare", "tictactoe", "--games", "1", "--playouts", "50", "--threads", "1", "--quiet"]);
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
}

#[test]
fn per_side_settings_are_refused_when_repeated_or_not_for_two_player_games_and_csv_quotes_moves() {
    for (args, why) in [
        (&["match", "tictactoe", "--black", "mcts:playouts=5,playouts=6"][..], "agent option playouts is given twice"),
        (&["match", "gomoku", "--black", "mcts:radius=2,radius=3"], "agent option radius is given twice"),
        (&["match", "gomoku", "--black", "mcts:backup=max"], "backup is not a setting of the two-player games"),
        (&["match", "tictactoe", "--white", "mcts:chance=sample"], "chance is not a setting of the two-player games"),
    ] {
        let line = refused(args);
        assert!(line.contains(why), "{args:?}: {line}");
    }
    // The moves of a game hold commas: the CSV field is quoted, so every row has the header's fields.
    let out = common::text(&["play", "gomoku", "--agent", "random", "--size", "5", "--games", "2", "--csv"]);
    let mut rows = out.lines();
    let header = rows.next().unwrap();
    assert_eq!(header.split(',').count(), 8);
    for row in rows {
        let (head, line) = row.split_once(",\"").expect("a quoted last field");
        assert_eq!(head.split(',').count(), 7, "{row}");
        assert!(line.ends_with('"') && !line[..line.len() - 1].contains('"'), "{row}");
    }
}

#[test]
fn a_gomoku_match_reports_each_agents_own_search_settings() {
    let v = json(&[
        "match",
        "gomoku",
        "--size",
        "9",
        "--black",
        "mcts:playouts=200,statistics=edge,threads=1",
        "--white",
        "threat",
        "--games",
        "1",
        "--no-pin",
        "--json",
    ]);
    // The command line's settings (Gomoku's default statistics are the nodes'), and each searching
    // agent's own after its options.
    assert_eq!(v["params"]["statistics"], "node", "{}", v["params"]);
    assert_eq!(v["agent_params"]["a"]["statistics"], "edge", "{}", v["agent_params"]);
    assert_eq!(v["agent_params"]["a"]["playouts"], 200, "{}", v["agent_params"]);
    assert_eq!(v["agent_params"]["a"]["threads"], 1, "{}", v["agent_params"]);
    assert!(v["agent_params"]["b"].is_null(), "the threat agent does not search: {}", v["agent_params"]);
    // Tic-tac-toe's match too.
    let v = json(&["match", "tictactoe", "--black", "mcts:playouts=300,statistics=node", "--games", "1", "--json"]);
    assert_eq!(v["params"]["statistics"], "edge", "{}", v["params"]);
    assert_eq!(v["agent_params"]["a"]["statistics"], "node", "{}", v["agent_params"]);
    assert_eq!(v["agent_params"]["a"]["playouts"], 300, "{}", v["agent_params"]);
    assert!(v["agent_params"]["b"].is_null(), "random does not search: {}", v["agent_params"]);
    // An empty value is named as such, on a flag and in an agent's options.
    assert!(refused(&["match", "tictactoe", "--statistics="]).contains("--statistics: an empty value is not one of"));
    assert!(
        refused(&["match", "tictactoe", "--black", "mcts:statistics="]).contains("statistics: an empty value is not")
    );
}
