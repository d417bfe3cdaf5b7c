//! Progress on stderr: a line every second of an analysis longer than a second, for every game, and a line
//! per finished game of `play` when stderr is not a terminal (as here, where the tests capture it);
//! `--no-progress` turns both off. No speed is asserted: `--time` makes each search last past the first
//! progress line whatever the machine.

mod common;
use common::canopy;

/// The progress lines (`info: ...`) `canopy` printed on stderr for `args`, which must succeed.
fn info_lines(args: &[&str]) -> Vec<String> {
    let out = canopy(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    err.lines().filter(|l| l.starts_with("info: ")).map(str::to_string).collect()
}

#[test]
fn every_game_analysis_longer_than_a_second_reports_progress() {
    let positions: [&[&str]; 4] = [
        &["analyze", "2048", "--board", "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0"],
        &["analyze", "gomoku", "--moves", "7,7 8,8"],
        &["analyze", "snake", "--state", "8x8 body=1,1 1,2 food=5,5"],
        &["analyze", "tictactoe", "--board", "x.o/.o./..x", "--no-solver"],
    ];
    for position in positions {
        let args = [position, &["--time", "1300", "--threads", "1", "--json"]].concat();
        let lines = info_lines(&args);
        assert!(!lines.is_empty(), "{args:?}: no progress line");
        assert!(
            lines[0].starts_with("info: 1.") && lines[0].contains("playouts ") && lines[0].contains("best "),
            "{lines:?}"
        );
    }
    let quiet =
        info_lines(&["analyze", "gomoku", "--moves", "7,7", "--time", "1300", "--threads", "1", "--no-progress"]);
    assert!(quiet.is_empty(), "{quiet:?}");
}

#[test]
fn play_prints_a_line_per_finished_game_when_stderr_is_not_a_terminal() {
    for (game, agent, word) in [("2048", "random", "score "), ("snake", "greedy", "length ")] {
        let out = canopy(&["play", game, "--agent", agent, "--games", "3", "--json"]);
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().filter(|l| l.contains(" game ") || l.starts_with("game ")).collect();
        assert_eq!(lines.len(), 3, "{game}: {err}");
        for (i, line) in lines.iter().enumerate() {
            assert!(line.contains(&format!("{}/3: ", i + 1)) && line.contains(word), "{game}: {line}");
        }
        // The JSON on stdout is untouched by the lines.
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        assert_eq!(v["games"].as_array().map(Vec::len), Some(3));
        let quiet = canopy(&["play", game, "--agent", agent, "--games", "3", "--json", "--no-progress"]);
        assert!(quiet.status.success() && quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
        // `compare` and `sweep` print the same lines, and `--no-progress` turns them off there too.
        let compare = ["compare", game, "--agents", "random,greedy", "--games", "1", "--json"];
        let out = canopy(&compare);
        assert!(out.status.success() && String::from_utf8_lossy(&out.stderr).contains(" game "), "{game}");
        let quiet = canopy(&[&compare[..], &["--no-progress"]].concat());
        assert!(quiet.status.success() && quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    }
}

/// `sweep`'s per-game lines name the value being tried after the agent (`mcts exploration=0.5 game
/// 1/1: ...`), for Snake as for 2048, so that a long sweep's progress says where it is.
#[test]
fn sweep_lines_name_the_value_being_tried() {
    for (game, size) in [("snake", ["--size", "6x6"]), ("2048", ["--seed", "1"])] {
        let mut args = vec!["sweep", game, "--param", "exploration", "--values", "0.5,2", "--games", "1"];
        args.extend(size);
        args.extend(["--playouts", "20", "--threads", "1", "--json"]);
        let out = canopy(&args);
        assert!(out.status.success(), "{game}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().filter(|l| l.contains(" game ")).collect();
        assert_eq!(lines.len(), 2, "{game}: {err}");
        assert!(lines[0].starts_with("mcts exploration=0.5 game "), "{game}: {}", lines[0]);
        assert!(lines[1].starts_with("mcts exploration=2 game "), "{game}: {}", lines[1]);
    }
}
