//! Options shared by the commands, through the `canopy` binary: negative and out-of-range numbers are
//! refused with one line that names the option, the value and what the option takes.

mod common;
use common::refused;

const TTT: [&str; 4] = ["analyze", "tictactoe", "--board", "x.o/.o./..x"];

/// `TTT` followed by `extra`.
fn ttt(extra: &[&'static str]) -> Vec<&'static str> {
    TTT.iter().chain(extra).copied().collect()
}

#[test]
fn negative_numbers_are_refused_with_what_the_option_takes() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (ttt(&["--threads", "-1"]), "error: --threads: -1 is not a whole number from 1 to 1024"),
        (ttt(&["--playouts", "-5"]), "error: --playouts: -5 is not a whole number from 1 to 1000000000000"),
        (ttt(&["--time", "-10"]), "error: --time: -10 is not a whole number from 1 to 1000000000"),
        (ttt(&["--seed", "-1"]), "error: --seed: -1 is not a whole number from 0 to 2^64-1"),
        (vec!["play", "2048", "--games", "-3"], "error: --games: -3 is not a whole number from 1 to 1000000"),
        (vec!["match", "gomoku", "--games", "-3"], "error: --games: -3 is not a whole number from 1 to 1000000"),
        (
            vec!["analyze", "gomoku", "--moves", "-1,3"],
            "error: --moves: move 1 '-1,3' is not a cell of the 15x15 board (x,y with 0 <= x,y < 15)",
        ),
        (
            vec!["analyze", "gomoku", "--moves", "7,7", "--size", "-9"],
            "error: --size: -9 is not a board side: give N or NxN",
        ),
        (vec!["play", "snake", "--delay", "-5"], "error: --delay: -5 is not a whole number from 0 to 10000"),
        (
            vec!["play", "snake", "--size", "99x99"],
            "error: --size: 99x99 is not WxH or N with each side from 2 to 32 (e.g. 8x10 or 8)",
        ),
        (
            vec!["bench", "--game", "gomoku", "--size", "3"],
            "error: --size: 3 is not a side from 5 to 20 (gomoku's bench boards)",
        ),
        (
            vec!["bench", "--game", "gomoku", "--size", "99x99"],
            "error: --size: 99x99 is not a side from 5 to 20 (gomoku's bench boards)",
        ),
        (
            vec!["analyze", "gomoku", "--moves", "4,4", "--size", "9x10"],
            "error: --size: 9x10: the boards are square: give one side (e.g. 9)",
        ),
        (
            vec!["analyze", "gomoku", "--moves", "4,4", "--size", "30x30"],
            "error: --size: 30x30 is not a side from 5 to 20 (gomoku boards)",
        ),
        (
            vec!["bench", "--game", "gomoku", "--size", ""],
            "error: --size: an empty value is not a board side: give N or NxN",
        ),
        (
            vec!["analyze", "gomoku", "--board", "x..../...../...../...../....."],
            "error: --board: diagram row 0 has 5 cells, expected 15 (for a 5x5 board give --size 5)",
        ),
        // No size reads a diagram of rows of different lengths: no hint.
        (
            vec!["analyze", "gomoku", "--board", "x..../...../...../....../.....", "--size", "5"],
            "error: --board: diagram row 3 has 6 cells, expected 5 (see",
        ),
        (
            vec!["analyze", "gomoku", "--moves", "4,4", "--size", "99999999999999999999"],
            "error: --size: 99999999999999999999 is not a side from 5 to 20 (gomoku boards)",
        ),
        (vec!["bench", "--threads", "-1,2"], "error: --threads: -1 is not a whole number from 1 to 1024"),
        (vec!["bench", "--repeat", "-2"], "error: --repeat: -2 is not a whole number from 1 to 100"),
        (
            vec!["analyze", "2048", "--board", "2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "--leaf-depth", "-1"],
            "error: --leaf-depth: -1 is not a whole number from 0 to 3",
        ),
    ];
    for (args, want) in cases {
        let line = refused(&args);
        assert!(line.starts_with(want), "{args:?}: {line}");
    }
}

#[test]
fn a_gomoku_size_is_read_as_n_or_nxn() {
    // `analyze` writes a board's size as NxN; the same text is read back, as `bench --size` reads it.
    for size in ["9", "9x9", "9X9"] {
        let out = common::json(&["analyze", "gomoku", "--moves", "4,4", "--size", size, "--playouts", "50", "--json"]);
        assert_eq!(out["size"], 9, "--size {size}: {out}");
    }
}

#[test]
fn a_board_may_start_with_a_hyphen() {
    // Tic-tac-toe reads '-' as an empty cell; the board is a value, not an option.
    let out = common::json(&["analyze", "tictactoe", "--board", "-xo/---/---", "--playouts", "50", "--json"]);
    assert_eq!(out["game"], "tictactoe");
    assert!(out["actions"].as_array().is_some_and(|a| a.len() == 7), "{out}");
}

#[test]
fn output_paths_are_checked_before_any_work() {
    let dir = std::env::temp_dir().join(format!("canopy-no-such-dir-{}", std::process::id()));
    assert!(!dir.exists());
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (svg, tsv, plot) = (file("sweep.svg"), file("games.tsv"), file("bench.svg"));
    // Without --quiet a sweep prints a line per game on stderr, and a match a line per game on stdout:
    // `refused` sees neither, so no game was played before the refusal.
    let cases: [(Vec<&str>, &str); 3] = [
        (
            vec![
                "sweep", "2048", "--agent", "flat", "--param", "epsilon", "--values", "0.1", "--games", "2", "--svg",
                &svg,
            ],
            "--svg",
        ),
        (vec!["match", "gomoku", "--black", "random", "--white", "random", "--size", "5", "--out", &tsv], "--out"),
        (
            vec![
                "bench",
                "--game",
                "tictactoe",
                "--playouts",
                "10",
                "--repeat",
                "1",
                "--threads",
                "1",
                "--plot",
                &plot,
            ],
            "--plot",
        ),
    ];
    for (args, flag) in cases {
        let line = refused(&args);
        assert!(line.starts_with(&format!("error: {flag}: cannot write {}", dir.display())), "{args:?}: {line}");
    }
    assert!(!dir.exists());
    // A directory is not a file either.
    let tmp = std::env::temp_dir();
    let line = refused(&[
        "sweep",
        "2048",
        "--agent",
        "flat",
        "--param",
        "epsilon",
        "--values",
        "0.1",
        "--svg",
        tmp.to_str().unwrap(),
    ]);
    assert!(line.starts_with("error: --svg: cannot write"), "{line}");
}

#[test]
fn search_options_outside_their_ranges_are_refused_by_every_command() {
    let board = "2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
    // Each bad setting, as an option and as match's per-agent key=value.
    let settings = [
        ("exploration", "1e308", "1e308 is not a number from 0 to 100"),
        ("exploration", "nan", "nan is not a number from 0 to 100"),
        ("exploration", "inf", "inf is not a number from 0 to 100"),
        ("expand-threshold", "4294967295", "4294967295 is not a whole number from 0 to 1000000"),
        ("virtual-loss", "1001", "1001 is not a whole number from 0 to 1000"),
        ("threads", "1025", "1025 is not a whole number from 1 to 1024"),
        ("playouts", "1000000000001", "1000000000001 is not a whole number from 1 to 1000000000000"),
        ("time", "1000000001", "1000000001 is not a whole number from 1 to 1000000000"),
    ];
    for (flag, value, why) in settings {
        let option = format!("--{flag}");
        let commands: [Vec<&str>; 6] = [
            ttt(&[]),
            vec!["analyze", "2048", "--board", board],
            vec!["play", "snake", "--agent", "mcts"],
            vec!["compare", "2048", "--agents", "mcts"],
            vec!["match", "gomoku"],
            vec!["gomocup"],
        ];
        for mut args in commands {
            // The error points to the help of the command and game given.
            let help = if args[0] == "gomocup" {
                "canopy gomocup".to_string()
            } else {
                format!("canopy {} {}", args[0], args[1])
            };
            args.extend([option.as_str(), value]);
            let line = refused(&args);
            assert_eq!(line, format!("error: {option}: {why} (see {help} --help)"), "{args:?}");
        }
        if flag != "time" {
            let line = refused(&["bench", &option, value]);
            assert!(line.starts_with(&format!("error: {option}: {why}")), "bench {option} {value}: {line}");
        }
        let key = flag.replace('-', "_");
        let agent = format!("mcts:{key}={value}");
        let line = refused(&["match", "gomoku", "--black", &agent]);
        // A per-agent playout or time limit also takes 0 (no limit), and its message says so.
        let zero = if matches!(flag, "playouts" | "time") { ", or 0 to lift the limit" } else { "" };
        assert_eq!(line, format!("error: --black: agent option {key}: {why}{zero} (see canopy match gomoku --help)"));
    }
    // Sweep's values are checked against the same ranges, before any game.
    for (param, values, why) in [
        ("exploration", "1,nan", "nan is not a number from 0 to 100"),
        ("virtual-loss", "1,5000", "5000 is not a whole number from 0 to 1000"),
        ("expand-threshold", "1,4294967296", "4294967296 is not a whole number from 0 to 1000000"),
        ("threads", "1,2000", "2000 is not a whole number from 1 to 1024"),
    ] {
        let line = refused(&["sweep", "2048", "--param", param, "--values", values]);
        assert_eq!(line, format!("error: --values: {param}: {why} (see canopy sweep 2048 --help)"));
    }
    // The edges of the ranges are accepted, and -0 is 0.
    let v = common::json(&ttt(&[
        "--exploration",
        "-0",
        "--virtual-loss",
        "1000",
        "--playouts",
        "30",
        "--no-solver",
        "--json",
    ]));
    assert_eq!(v["playouts"], 30);
}

#[test]
fn a_missing_game_is_named_and_options_a_game_does_not_take_are_refused() {
    for (command, games) in [
        ("analyze", "2048, tictactoe, snake, gomoku"),
        ("play", "2048, tictactoe, snake, gomoku"),
        ("match", "gomoku, tictactoe"),
        ("compare", "2048, tictactoe, snake, gomoku"),
        ("sweep", "2048, tictactoe, snake, gomoku"),
    ] {
        let line = refused(&[command]);
        assert_eq!(line, format!("error: canopy {command} needs a game: {games} (see canopy {command} --help)"));
    }
    let snake = ["analyze", "snake", "--state", "8x8 body=1,1 food=2,2"];
    let gomoku = ["analyze", "gomoku", "--moves", "7,7"];
    let g2048 = ["analyze", "2048", "--board", "2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0"];
    // Each game's subcommand has only the options the game uses: another game's option, or a search
    // parameter the game has no use for, is refused by name, whatever its value (the default included).
    let cases: Vec<(&[&str], &[&str], &str)> = vec![
        (&snake, &["--agent", "greedy"], "--agent"),
        (&gomoku, &["--agent", "random"], "--agent"),
        (&snake, &["--prob-cutoff", "0.0001"], "--prob-cutoff"),
        (&snake, &["--no-vcf"], "--no-vcf"),
        (&snake, &["--no-solver"], "--no-solver"),
        (&g2048, &["--no-solver"], "--no-solver"),
        (&g2048, &["--moves", "7,7"], "--moves"),
        (&gomoku, &["--chance", "stratified"], "--chance"),
        (&gomoku, &["--backup", "mean"], "--backup"),
        (&gomoku, &["--tail-filter", "now"], "--tail-filter"),
        (&["play", "tictactoe"], &["--size", "5"], "--size"),
        (&["match", "tictactoe"], &["--out", "x.tsv"], "--out"),
        (&["compare", "snake"], &["--epsilon", "0.1"], "--epsilon"),
    ];
    for (command, extra, flag) in cases {
        let args: Vec<&str> = command.iter().chain(extra).copied().collect();
        let line = refused(&args);
        let name = format!("canopy {} {}", command[0], command[1]);
        assert_eq!(line, format!("error: {name} does not take {flag} (see {name} --help)"), "{args:?}");
    }
    // An agent a game does not have is refused with the game's agents.
    let line = refused(&["play", "2048", "--agent", "hamilton"]);
    assert!(line.contains("[possible values: mcts, expectimax, flat, greedy, random]"), "{line}");
    let line = refused(&["compare", "snake", "--agents", "mcts,expectimax"]);
    assert!(line.contains("[possible values: mcts, greedy, tailfollow, hamilton, random]"), "{line}");
    // A list that names an item twice is refused, not shortened.
    let line = refused(&["compare", "2048", "--agents", "greedy,greedy"]);
    assert_eq!(line, "error: --agents: greedy is given twice (see canopy compare 2048 --help)");
}

/// A comma-separated list with an empty element (two commas in a row, one at an end, or nothing at all)
/// is refused by naming the element, not by showing an empty value.
#[test]
fn an_empty_element_of_a_comma_list_is_named() {
    let cases: [(&[&str], &str); 9] = [
        (&["bench", "--threads", "1,,2"], "error: --threads: element 2 of '1,,2' is empty (example: --threads 1,2,4)"),
        (&["bench", "--threads", ",1"], "error: --threads: element 1 of ',1' is empty"),
        (&["bench", "--threads", "1,2,"], "error: --threads: element 3 of '1,2,' is empty"),
        (&["bench", "--threads", ""], "error: --threads: the list is empty"),
        (
            &["sweep", "2048", "--param", "exploration", "--values", "0.1,,1"],
            "error: --values: element 2 of '0.1,,1' is empty (example: --values 0.1,0.3,1)",
        ),
        (
            &["sweep", "snake", "--param", "exploration", "--values", "0.5,"],
            "error: --values: element 2 of '0.5,' is empty",
        ),
        (
            &["match", "gomoku", "--black", "mcts:playouts=10,,threads=1"],
            "error: --black: element 2 of 'playouts=10,,threads=1' is empty",
        ),
        (&["match", "gomoku", "--white", "mcts:playouts=10,"], "error: --white: element 2 of 'playouts=10,' is empty"),
        (
            &["match", "tictactoe", "--black", "mcts:,playouts=10"],
            "error: --black: element 1 of ',playouts=10' is empty",
        ),
    ];
    for (args, start) in cases {
        let line = refused(args);
        assert!(line.starts_with(start), "{args:?}: {line}");
    }
}

/// Every search option a searching command takes reaches the search it runs: `analyze 2048` reports the
/// parameters it searched with (`config.search`), so each option, given a value other than its default,
/// must come back with that value.
#[test]
fn every_search_option_given_reaches_the_search() {
    let given: [(&str, &str, serde_json::Value); 12] = [
        ("--playouts", "65", 65.into()),
        ("--threads", "2", 2.into()),
        ("--seed", "9", 9.into()),
        ("--memory", "64MiB", (64u64 << 20).into()),
        ("--exploration", "2.5", 2.5.into()),
        ("--selection", "puct", "puct".into()),
        ("--virtual-loss", "3", 3.into()),
        ("--batch-plies", "2", 2.into()),
        ("--expand-threshold", "4", 4.into()),
        ("--chance", "sample", "sample".into()),
        ("--backup", "mean", "mean".into()),
        ("--no-tt", "", false.into()),
    ];
    let board = "0,0,0,0,0,0,2,0,0,0,0,0,2,0,0,0";
    for (flag, value, expected) in given {
        let mut args = vec!["analyze", "2048", "--board", board, "--no-pin", "--json", flag];
        if !value.is_empty() {
            args.push(value);
        }
        if flag != "--playouts" {
            args.extend(["--playouts", "64"]);
        }
        let v = common::json(&args);
        let key = match flag {
            "--no-tt" => "tt".to_string(),
            other => other.trim_start_matches("--").replace('-', "_"),
        };
        assert_eq!(v["config"]["search"][&key], expected, "{flag} {value}: {}", v["config"]["search"]);
    }
}
