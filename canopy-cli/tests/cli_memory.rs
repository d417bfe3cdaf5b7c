//! The memory budget through the command line: `--memory 64MiB` on a 2048 search that would need more.

mod common;
use common::{json, refused};

#[test]
fn analyze_2048_with_64_mib_stays_within_it_and_runs_every_playout() {
    let budget: u64 = 64 << 20;
    // A middle-game board and two threads. `--expand-threshold 0` expands every node a playout reaches, so
    // each playout adds its whole path (tens of kilobytes) and the budget is reached within the first few
    // thousand playouts; the rest must still run.
    let v = json(&[
        "analyze",
        "2048",
        "--board",
        "0,0,2,0,4,2,8,2,16,64,32,4,256,512,128,8",
        "--memory",
        "64MiB",
        "--playouts",
        "100000",
        "--expand-threshold",
        "0",
        "--threads",
        "2",
        "--no-pin",
        "--json",
    ]);
    let used = v["memory_bytes"].as_u64().unwrap();
    assert_eq!(v["memory_limited"], true, "budget never reached: {used} bytes");
    assert!(used <= budget, "{used} bytes > 64 MiB");
    assert_eq!(v["playouts"], 100_000);
    assert_eq!(v["root_visits"], 100_000);
}

#[test]
fn a_tiny_budget_on_a_wide_gomoku_position_is_reported_and_every_playout_runs() {
    // A 20x20 board with stones spread out: some fifty candidate moves, so a children block is about 1.6
    // KiB against 40 bytes for a node, and an expansion can fail while nodes still fit. Every node a
    // playout reaches is expanded (`--expand-threshold 0`). Among these seeds and budgets, before failed
    // expansions gave their claim back, six searches reported `memory_limited: false`.
    for seed in ["1", "3", "6", "7"] {
        for memory in ["64KiB", "80KiB", "100KiB"] {
            let v = json(&[
                "analyze",
                "gomoku",
                "--size",
                "20",
                "--moves",
                "0,0 19,19 0,19 19,0 10,10 5,5 15,15 5,15 15,5",
                "--memory",
                memory,
                "--expand-threshold",
                "0",
                "--playouts",
                "2000",
                "--threads",
                "1",
                "--seed",
                seed,
                "--json",
                "--no-progress",
            ]);
            let label = format!("seed {seed}, --memory {memory}");
            assert_eq!(v["memory_limited"], true, "{label}: budget reached but not reported");
            assert_eq!(v["playouts"], 2000, "{label}");
            assert_eq!(v["root_visits"], 2000, "{label}");
        }
    }
}

/// Linux only: elsewhere the machine's memory is unknown and every budget is accepted.
#[cfg(target_os = "linux")]
#[test]
fn a_budget_beyond_the_machines_memory_is_refused_in_one_line() {
    // Before, the transposition table was allocated from such a budget and the process aborted.
    for args in [
        &["analyze", "tictactoe", "--board", "x.o/.o./..x", "--memory", "1000T"][..],
        &["analyze", "tictactoe", "--board", "x.o/.o./..x", "--memory", "1000T", "--time", "100", "--json"][..],
        &["bench", "--game", "tictactoe", "--memory", "1000T"][..],
    ] {
        let line = refused(args);
        assert!(line.contains("1000T is more than this machine's"), "{args:?}: {line}");
    }
    let v = json(&["analyze", "tictactoe", "--board", "x.o/.o./..x", "--memory", "64MiB", "--json", "--threads", "1"]);
    // x must block o's diagonal 2-4-6.
    assert_eq!(v["best_action"], "6");
    assert_eq!(v["root_visits"], v["playouts"]);
    assert!(v["memory_bytes"].as_u64().unwrap() <= 64 << 20);
}

#[test]
fn a_bad_budget_reads_the_same_as_a_flag_or_as_an_agent_option() {
    for bad in ["1", "lots", "64KiX"] {
        let flag = refused(&["bench", "--game", "tictactoe", "--memory", bad]);
        let option = refused(&["match", "gomoku", "--black", &format!("mcts:memory={bad}"), "--games", "1"]);
        let expected = format!("{bad} is not a byte count of at least 64KiB (e.g. 512MB, 2GiB)");
        assert!(flag.contains(&format!("--memory: {expected}")), "{flag}");
        assert!(option.contains(&format!("--black: agent option memory: {expected}")), "{option}");
    }
}
