//! The memory budget through the command line: `--memory 64MiB` on a 2048 search that would need more.

use std::process::Command;

use serde_json::Value;

#[test]
fn analyze_2048_with_64_mib_stays_within_it_and_runs_every_playout() {
    let budget: u64 = 64 << 20;
    // A middle-game board and two threads. `--expand-threshold 0` expands every node a playout reaches, so
    // each playout adds its whole path (tens of kilobytes) and the budget is reached within the first few
    // thousand playouts; the rest must still run.
    let out = Command::new(env!("CARGO_BIN_EXE_canopy"))
        .args([
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
        ])
        .output()
        .expect("run canopy");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let used = v["memory_bytes"].as_u64().unwrap();
    assert_eq!(v["memory_limited"], true, "budget never reached: {used} bytes");
    assert!(used <= budget, "{used} bytes > 64 MiB");
    assert_eq!(v["playouts"], 100_000);
    assert_eq!(v["root_visits"], 100_000);
}
