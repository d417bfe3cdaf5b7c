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
        (ttt(&["--seed", "-1"]), "error: --seed: -1 is not a whole number from 0 to 18446744073709551615"),
        (vec!["play", "2048", "--games", "-3"], "error: --games: -3 is not a whole number from 1 to 1000000"),
        (vec!["match", "gomoku", "--games", "-3"], "error: --games: -3 is not a whole number from 1 to 1000000"),
        (
            vec!["analyze", "gomoku", "--moves", "-1,3"],
            "error: --moves: move 1 '-1,3' is not a cell of the 15x15 board (x,y with 0 <= x,y < 15)",
        ),
        (
            vec!["analyze", "gomoku", "--moves", "7,7", "--size", "-9"],
            "error: --size: -9 is not a whole number from 5 to 20",
        ),
        (vec!["play", "snake", "--delay", "-5"], "error: --delay: -5 is not a whole number from 0 to 10000"),
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
                "sweep", "2048", "--agent", "greedy", "--param", "epsilon", "--values", "0.1", "--games", "2", "--svg",
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
        "greedy",
        "--param",
        "epsilon",
        "--values",
        "0.1",
        "--svg",
        tmp.to_str().unwrap(),
    ]);
    assert!(line.starts_with("error: --svg: cannot write"), "{line}");
}
