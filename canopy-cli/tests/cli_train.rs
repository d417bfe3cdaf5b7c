//! `canopy train 2048` and `--eval ntuple:FILE`: the training summary, reproducible weights, the file
//! read back by the agents, and bad input.

mod common;
use common::{canopy, json, refused, temp_dir, text};

#[test]
fn train_writes_reproducible_weights_and_reports_blocks() {
    let dir = temp_dir("train");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    let (a_s, b_s) = (a.to_str().unwrap(), b.to_str().unwrap());
    let v = json(&["train", "2048", "--games", "60", "--seed", "5", "--block", "20", "--out", a_s, "--json"]);
    assert_eq!(v["games"], 60);
    assert_eq!(v["stopped"], false);
    let blocks = v["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[2]["games"], 60);
    for blk in blocks {
        assert_eq!(blk["block_games"], 20);
        assert!(blk["mean_score"].as_f64().unwrap() > 0.0, "{blk}");
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes.len() as u64, v["file_bytes"].as_u64().unwrap());
    assert_eq!(&bytes[..8], b"CNPY2048");
    // The same seed and games give the same file; the text report has a line per block and a summary.
    // (--no-progress, as the other game commands take it, hides the bar only.)
    let out = text(&["train", "2048", "--games", "60", "--seed", "5", "--block", "20", "--out", b_s, "--no-progress"]);
    assert_eq!(out.lines().filter(|l| l.starts_with("games ")).count(), 3, "{out}");
    assert!(out.lines().last().unwrap().starts_with("trained 60 games"), "{out}");
    assert_eq!(std::fs::read(&b).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_large_layout_trains_four_five_tuples() {
    let dir = temp_dir("train-large");
    let path = dir.join("large.bin");
    let p = path.to_str().unwrap();
    let v = json(&["train", "2048", "--tuples", "large", "--games", "5", "--seed", "2", "--out", p, "--json"]);
    let tuples = v["tuples"].as_array().unwrap();
    assert_eq!(tuples.len(), 4);
    assert!(tuples.iter().all(|t| t.as_array().unwrap().len() == 5), "{v}");
    assert_eq!(v["weights"], 4 << 20);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), v["file_bytes"].as_u64().unwrap());
    // The file carries its layout: the agents read it like the standard one.
    let eval = format!("ntuple:{p}");
    let g = json(&["play", "2048", "--agent", "greedy", "--games", "1", "--seed", "3", "--eval", &eval, "--json"]);
    assert_eq!(g["config"]["evaluation"], "ntuple");
    let line = refused(&["train", "2048", "--tuples", "huge", "--games", "1", "--out", p]);
    assert!(line.contains("--tuples"), "{line}");
    // --init goes on from a file: its layout, its weights (so not the weights of a fresh start).
    let more = dir.join("more.bin");
    let m = more.to_str().unwrap();
    let v =
        json(&["train", "2048", "--init", p, "--games", "5", "--seed", "2", "--alpha", "0.001", "--out", m, "--json"]);
    assert_eq!(v["tuples"].as_array().unwrap().len(), 4);
    assert_eq!(v["init"], p);
    let fresh = dir.join("fresh.bin");
    let f = fresh.to_str().unwrap();
    json(&[
        "train", "2048", "--tuples", "large", "--games", "5", "--seed", "2", "--alpha", "0.001", "--out", f, "--json",
    ]);
    assert_ne!(std::fs::read(&more).unwrap(), std::fs::read(&fresh).unwrap());
    let line = refused(&["train", "2048", "--init", p, "--tuples", "large", "--games", "1", "--out", m]);
    assert!(line.contains("--init") || line.contains("--tuples"), "{line}");
    let never = dir.join("never.bin");
    let missing = dir.join("missing.bin");
    let line = refused(&[
        "train",
        "2048",
        "--init",
        missing.to_str().unwrap(),
        "--games",
        "1",
        "--out",
        never.to_str().unwrap(),
    ]);
    assert!(line.contains("--init") && line.contains("missing.bin"), "{line}");
    assert!(!never.exists(), "a refused command wrote its file");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_agents_play_with_a_trained_network() {
    let dir = temp_dir("train-eval");
    let path = dir.join("net.bin");
    let p = path.to_str().unwrap();
    text(&["train", "2048", "--games", "300", "--seed", "1", "--out", p]);
    let eval = format!("ntuple:{p}");
    let games = |eval: Option<&str>| {
        let mut args = vec!["play", "2048", "--agent", "greedy", "--games", "20", "--seed", "3", "--json"];
        if let Some(e) = eval {
            args.extend(["--eval", e]);
        }
        json(&args)
    };
    let trained = games(Some(&eval));
    assert_eq!(trained["config"]["evaluation"], "ntuple");
    assert!(trained["config"]["weights"].is_null());
    // --eval heuristic is the default.
    let by_default = games(None);
    assert_eq!(by_default["config"]["evaluation"], "heuristic");
    let scores = |v: &serde_json::Value| -> Vec<u64> {
        v["games"].as_array().unwrap().iter().map(|g| g["score"].as_u64().unwrap()).collect()
    };
    assert_eq!(scores(&games(Some("heuristic"))), scores(&by_default));
    // Different evaluations play different games on the same seeds.
    assert_ne!(scores(&trained), scores(&by_default));
    // analyze and compare take it; analyze has no heuristic features to explain by.
    let board = "2,4,8,16,0,32,0,2,4,0,0,0,0,0,0,8";
    let v = json(&["analyze", "2048", "--board", board, "--agent", "greedy", "--eval", &eval, "--json"]);
    assert!(v["board_features"].is_null());
    assert!(v["best_action"].is_string(), "{v}");
    let v = json(&[
        "compare",
        "2048",
        "--agents",
        "greedy,expectimax",
        "--eval",
        &eval,
        "--games",
        "1",
        "--depth",
        "1",
        "--json",
    ]);
    for a in v["agents"].as_array().unwrap() {
        assert_eq!(a["config"]["evaluation"], "ntuple");
    }
    // The agent that evaluates nothing is warned.
    let out = canopy(&["play", "2048", "--agent", "random", "--eval", &eval, "--games", "1", "--no-progress"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("random does not use --eval"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_ntuple_is_the_shipped_large_network() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../weights/2048-ntuple-large.bin");
    let games = |eval: &str, network: &str| {
        let v = json(&["play", "2048", "--agent", "greedy", "--games", "3", "--seed", "4", "--eval", eval, "--json"]);
        assert_eq!(v["config"]["evaluation"], "ntuple");
        // The configuration says which network played.
        assert_eq!(v["config"]["network"], network);
        v["games"].as_array().unwrap().iter().map(|g| g["score"].as_u64().unwrap()).collect::<Vec<_>>()
    };
    let built_in = games("ntuple", "built-in (weights/2048-ntuple-large.bin)");
    assert_eq!(built_in, games(&format!("ntuple:{file}"), file));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = temp_dir("train-bad");
    let ok = dir.join("ok.bin");
    let ok_s = ok.to_str().unwrap();
    let line = refused(&["train", "2048", "--games", "0", "--out", ok_s]);
    assert!(line.contains("--games") && line.contains("at least 1"), "{line}");
    for alpha in ["0", "-0.1", "1.5", "nan", "inf", "x"] {
        let line = refused(&["train", "2048", "--games", "1", "--alpha", alpha, "--out", ok_s]);
        assert!(line.contains("--alpha"), "{alpha}: {line}");
    }
    let unwritable = dir.join("no-such-dir").join("x.bin");
    let line = refused(&["train", "2048", "--games", "1", "--out", unwritable.to_str().unwrap()]);
    assert!(line.contains("--out") && line.contains("no-such-dir"), "{line}");
    let line = refused(&["train", "2048", "--games", "1", "--out", dir.to_str().unwrap()]);
    assert!(line.contains("--out"), "{line}");
    // A report block larger than the run is refused, not shrunk to it.
    let line = refused(&["train", "2048", "--games", "5", "--block", "100", "--out", ok_s]);
    assert!(line.contains("--block 100") && line.contains("--games 5"), "{line}");
    assert!(!ok.exists(), "a refused command wrote its file");
    // Bad --eval values: unknown, missing file, not a weights file, truncated.
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"hello").unwrap();
    text(&["train", "2048", "--games", "2", "--out", ok_s]);
    let full = std::fs::read(&ok).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &full[..full.len() / 2]).unwrap();
    let mut flipped = full.clone();
    flipped[1000] ^= 1;
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, &flipped).unwrap();
    for (eval, why) in [
        ("ntuple:", "not an evaluation"),
        ("nn:x", "not an evaluation"),
        (&format!("ntuple:{}", dir.join("missing.bin").display())[..], "missing.bin"),
        (&format!("ntuple:{}", junk.display())[..], "bad magic"),
        (&format!("ntuple:{}", cut.display())[..], "header says"),
        (&format!("ntuple:{}", corrupt.display())[..], "checksum"),
    ] {
        let line = refused(&["play", "2048", "--agent", "greedy", "--games", "1", "--eval", eval]);
        assert!(line.contains("--eval") && line.contains(why), "{eval}: {line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
