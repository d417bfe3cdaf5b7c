//! `canopy analyze GAME --infinite`: an open-ended analysis that prints at a steady interval and stops
//! cleanly on a closed stdin, on Enter, on Ctrl-C (SIGINT) or at the limit given.

mod common;

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_canopy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run canopy")
}

/// The JSON Lines of a finished run: every line one object.
fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not one JSON object per line: {e}: {l}")))
        .collect()
}

#[test]
fn five_seconds_of_json_lines_then_the_report_when_stdin_closes() {
    let mut child = start(&["analyze", "gomoku", "--moves", "7,7 8,8", "--infinite", "--json", "--threads", "2"]);
    std::thread::sleep(Duration::from_millis(5_200));
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let objects = lines(&out.stdout);
    let (last, progress) = objects.split_last().expect("some output");
    assert!(progress.len() >= 4, "{} progress objects in 5 s", progress.len());
    for p in progress {
        assert_eq!(p["event"], "progress");
        assert!(p["playouts"].as_u64().unwrap() > 0 && p["memory_bytes"].as_u64().unwrap() > 0, "{p}");
        assert!(!p["best"].as_array().unwrap().is_empty() && !p["pv"].as_array().unwrap().is_empty(), "{p}");
    }
    let counts: Vec<u64> = progress.iter().map(|p| p["playouts"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert_eq!(last["event"], "report");
    assert_eq!(last["game"], "gomoku");
    assert!(last["playouts"].as_u64().unwrap() >= *counts.last().unwrap());
}

#[test]
fn ctrl_c_or_enter_stops_the_analysis_with_the_report() {
    let args = [
        "analyze",
        "tictactoe",
        "--board",
        "x.o/.o./..x",
        "--infinite",
        "--interval",
        "100",
        "--threads",
        "1",
        "--no-solver",
    ];
    // SIGINT, as Ctrl-C sends it.
    let child = start(&args);
    std::thread::sleep(Duration::from_millis(800));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.contains(" playouts ") && l.contains("best: ")), "{text}");
    assert!(text.contains("best: 6"), "the final table: {text}");
    // Enter.
    let mut child = start(&args);
    std::thread::sleep(Duration::from_millis(400));
    child.stdin.as_mut().unwrap().write_all(b"\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("best: 6"));
}

#[test]
fn a_given_limit_ends_the_analysis_and_other_agents_are_refused() {
    let mut child = start(&[
        "analyze",
        "tictactoe",
        "--board",
        "x.o/.o./..x",
        "--infinite",
        "--playouts",
        "5000",
        "--json",
        "--no-solver",
    ]);
    // The stdin pipe stays open (held here; `wait_with_output` would close it): the limit ends it.
    let stdin = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert!(out.status.success());
    let objects = lines(&out.stdout);
    assert_eq!(objects.last().unwrap()["playouts"], 5000);
    let board = "2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
    let line = common::refused(&["analyze", "2048", "--board", board, "--agent", "greedy", "--infinite"]);
    assert!(line.contains("--infinite is for --agent mcts"), "{line}");
    let line = common::refused(&["analyze", "tictactoe", "--board", "x.o/.o./..x", "--interval", "100"]);
    assert!(line.contains("--infinite"), "{line}");
}

#[test]
fn an_analysis_that_fills_its_budget_recycles_and_searches_on_within_it() {
    const BUDGET: u64 = 2 << 20;
    let board = "2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0";
    let mut child =
        start(&["analyze", "2048", "--board", board, "--infinite", "--memory", "2MiB", "--json", "--interval", "200"]);
    std::thread::sleep(Duration::from_millis(2_500));
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let objects = lines(&out.stdout);
    let (last, progress) = objects.split_last().unwrap();
    for p in progress {
        assert!(p["memory_bytes"].as_u64().unwrap() <= BUDGET, "{p}");
    }
    assert!(last["memory_bytes"].as_u64().unwrap() <= BUDGET, "{last}");
    assert!(last["recycled_nodes"].as_u64().unwrap() > 0, "2 MiB fill up in 2.5 s: {last}");
    let counts: Vec<u64> = progress.iter().map(|p| p["playouts"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "the count goes on across recycling: {counts:?}");
}
