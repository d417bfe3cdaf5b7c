//! `canopy bench`: the JSON fields, the deterministic one-thread node count, every game, the plot and
//! bad input. Playout counts are tiny: these tests check the command, not the machine's speed (no timing
//! is asserted).

use serde_json::Value;

mod common;
use common::{canopy, json, refused, temp_dir, text};

/// `canopy bench --json --no-pin` with `args`, which must succeed.
fn bench_json(args: &[&str]) -> Value {
    json(&[&["bench", "--json", "--no-pin"], args].concat())
}

fn f(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} missing or not a number in {v}"))
}

fn u(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} missing or not an integer in {v}"))
}

#[test]
fn json_has_one_entry_per_thread_count_and_the_rollout_rate() {
    let v = bench_json(&["--game", "2048", "--threads", "2,1", "--playouts", "300", "--repeat", "2"]);
    assert_eq!(v["game"], "2048");
    // Every setting that shapes the tree is named.
    assert_eq!(v["chance"], "stratified", "{v}");
    assert_eq!(v["statistics"], "edge", "{v}");
    assert!(f(&v, "min_span") >= 0.0, "{v}");
    let sampled = bench_json(&[
        "--game",
        "2048",
        "--threads",
        "1",
        "--playouts",
        "100",
        "--repeat",
        "1",
        "--chance",
        "sample",
        "--min-span",
        "0.3",
        "--statistics",
        "edge",
    ]);
    assert_eq!((sampled["chance"].as_str(), f(&sampled, "min_span")), (Some("sample"), 0.3), "{sampled}");
    assert_eq!(sampled["statistics"], "edge", "{sampled}");
    assert_eq!(u(&v, "playouts_per_position"), 300);
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    for p in positions {
        assert!(f(p, "rollouts_per_sec") > 0.0);
        assert!(p["position"].as_str().is_some());
    }
    assert!(f(&v, "rollouts_per_sec") > 0.0);
    assert_eq!(u(&v, "rollouts"), 900);
    assert_eq!(u(&v, "baseline_threads"), 1);
    assert!(u(&v, "node_bytes") <= 64, "Node is {} bytes", v["node_bytes"]);
    let results = v["results"].as_array().unwrap();
    // Sorted by thread count, whatever order they were given in.
    assert_eq!(results.iter().map(|r| u(r, "threads")).collect::<Vec<_>>(), [1, 2]);
    for r in results {
        assert_eq!(u(r, "playouts"), 900);
        assert!(f(r, "playouts_per_sec") > 0.0);
        assert!(f(r, "speedup") > 0.0);
        assert!(f(r, "efficiency") > 0.0);
        assert!(f(r, "vs_rollouts") > 0.0);
        assert!(u(r, "nodes") > 3);
        assert_eq!(r["positions"].as_array().unwrap().len(), 3);
        for p in r["positions"].as_array().unwrap() {
            assert_eq!(u(p, "playouts"), 300);
            // The fastest of the two runs counts; the slowest is kept beside it.
            assert!(f(p, "slowest_ms") >= f(p, "elapsed_ms"), "{p}");
        }
        // The spread: the positions' slowest runs against their fastest.
        let positions = r["positions"].as_array().unwrap();
        let slowest: f64 = positions.iter().map(|p| f(p, "slowest_ms")).sum();
        assert!(f(r, "spread") >= 0.0, "{r}");
        assert!((f(r, "spread") - (slowest / f(r, "elapsed_ms") - 1.0)).abs() < 1e-9, "{r}");
        let efficiency = f(r, "speedup") / u(r, "threads") as f64;
        assert!((f(r, "efficiency") - efficiency).abs() < 1e-9);
    }
    assert_eq!(f(&results[0], "speedup"), 1.0);
    assert_eq!(f(&results[0], "efficiency"), 1.0);
    // Linux: the shares of the cores' time others and the host took during the run.
    if std::path::Path::new("/proc/stat").exists() {
        let c = &v["cpu_during_run"];
        for k in ["others", "steal"] {
            assert!((0.0..=1.0).contains(&f(c, k)), "{k}: {c}");
        }
        assert!(c["ticks"].as_u64().is_some(), "{c}");
        // A count, whatever it is (the untimed first searches may have mapped all the memory in).
        assert!(c["page_faults"].as_u64().is_some(), "{c}");
    }
    // Unpinned threads may share a core: no cache-line hand-over is measured.
    assert!(v.get("line_transfer_ns").is_none(), "{v}");
    // Two pinned threads on two cores: the hand-over between them, before and after the searches.
    let pinned =
        json(&["bench", "--json", "--game", "tictactoe", "--threads", "1,2", "--playouts", "100", "--repeat", "1"]);
    if u(&pinned, "logical_cores") >= 2 {
        let t = &pinned["line_transfer_ns"];
        assert!(f(t, "before") > 0.0 && f(t, "after") > 0.0, "{t}");
        let ratio = f(t, "before").max(f(t, "after")) / f(t, "before").min(f(t, "after"));
        assert_eq!(t["drifted"], ratio > 1.5, "{t}");
    }
    // One thread: nothing is handed over.
    let one = json(&["bench", "--json", "--game", "tictactoe", "--threads", "1", "--playouts", "100", "--repeat", "1"]);
    assert!(one.get("line_transfer_ns").is_none(), "{one}");
}

#[test]
fn one_thread_node_counts_are_reproducible() {
    let args = ["--game", "2048", "--threads", "1", "--playouts", "500", "--repeat", "2", "--seed", "5"];
    let a = bench_json(&args);
    let b = bench_json(&args);
    let per_position = |v: &Value, key: &str| -> Vec<Value> {
        v["results"][0]["positions"].as_array().unwrap().iter().map(|p| p[key].clone()).collect()
    };
    for key in ["nodes", "max_depth", "mean_depth"] {
        assert_eq!(per_position(&a, key), per_position(&b, key), "{key}");
    }
    assert_eq!(u(&a["results"][0], "nodes"), u(&b["results"][0], "nodes"));
    // The bare rollouts are seeded too: the same mean returns.
    let means = |v: &Value| -> Vec<Value> {
        v["positions"].as_array().unwrap().iter().map(|p| p["rollout_mean_return"].clone()).collect()
    };
    assert_eq!(means(&a), means(&b));
    // Another seed searches and rolls out differently.
    let c = bench_json(&["--game", "2048", "--threads", "1", "--playouts", "500", "--repeat", "1", "--seed", "6"]);
    assert_ne!(per_position(&a, "mean_depth"), per_position(&c, "mean_depth"));
    assert_ne!(means(&a), means(&c));
}

#[test]
fn text_output_ends_with_the_nodes_and_nps_line() {
    let out = text(&["bench", "--game", "tictactoe", "--threads", "1,2", "--playouts", "400", "--repeat", "1"]);
    assert!(out.contains("playouts/s") && out.contains("efficiency") && out.contains("rollouts/s"), "{out}");
    // One run per setting: no spread to show.
    assert!(!out.contains("spread"), "{out}");
    if std::path::Path::new("/proc/stat").exists() {
        // A line either way: the shares, or that the run was under a clock tick (400 playouts may be).
        assert!(
            out.contains("during the run other programs used ")
                || out.contains("during the run less than one clock tick"),
            "{out}"
        );
        if out.contains("during the run other programs used ") {
            assert!(
                out.contains("page faults: ")
                    && out.contains(" during the timed searches (pages of 4 KiB the kernel mapped in"),
                "{out}"
            );
        }
    }
    let last = out.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 4, "last line: {last}");
    assert!(words[0].parse::<u64>().is_ok() && words[1] == "nodes", "last line: {last}");
    assert!(words[2].parse::<u64>().is_ok() && words[3] == "nps", "last line: {last}");
}

#[test]
fn vs_rollouts_is_the_search_rate_over_the_bare_rollout_rate_and_the_table_says_so() {
    let out = text(&["bench", "--game", "tictactoe", "--threads", "1", "--playouts", "400", "--repeat", "1"]);
    assert!(out.contains("vs rollouts: the search's playouts/s over the bare rollouts/s above"), "{out}");
    let v = bench_json(&["--game", "tictactoe", "--threads", "1", "--playouts", "400", "--repeat", "1"]);
    let one = &v["results"][0];
    let ratio = f(one, "playouts_per_sec") / f(&v, "rollouts_per_sec");
    assert!((f(one, "vs_rollouts") - ratio).abs() <= 1e-9 * ratio, "{v}");
}

#[test]
fn split_divides_the_one_thread_time_into_rollouts_and_tree() {
    let args = ["--game", "gomoku", "--size", "9", "--threads", "1", "--playouts", "400", "--repeat", "1", "--split"];
    let v = bench_json(&args);
    let split = v["split"].as_array().unwrap_or_else(|| panic!("split missing in {v}"));
    let one = &v["results"][0]["positions"];
    assert_eq!(split.len(), v["positions"].as_array().map_or(0, Vec::len), "{v}");
    for (i, s) in split.iter().enumerate() {
        assert_eq!(s["name"], v["positions"][i]["name"], "{v}");
        // The search time is the one-thread result's, the bare time its rollout rate's inverse.
        let run = &one[i];
        let search = f(run, "elapsed_ms") * 1e3 / u(run, "playouts") as f64;
        assert!((f(s, "search_us") - search).abs() <= 1e-9 * search, "{s} against {run}");
        let bare = 1e6 / f(&v["positions"][i], "rollouts_per_sec");
        assert!((f(s, "bare_us") - bare).abs() <= 1e-9 * bare, "{s}");
        assert!((f(s, "vs_rollouts") - bare / search).abs() <= 1e-9 * bare / search, "{s}");
        // Almost every playout of a Gomoku search from these positions runs one rollout (the few that
        // end at a terminal node in the tree run none), which takes time.
        let rollouts = f(s, "rollout_us");
        assert!(rollouts > 0.0, "{s}");
        let per_playout = f(s, "rollouts_per_playout");
        assert!(per_playout > 0.5 && per_playout <= 1.0, "{s}");
        // The tree is the timed search's time less its rollouts'.
        let timed = f(s, "timed_search_us");
        assert!(timed > rollouts, "{s}");
        assert!((f(s, "tree_us") - (timed - rollouts)).abs() <= 1e-9 * timed, "{s}");
        assert!((f(s, "budget_us") - (bare / 0.85 - rollouts)).abs() <= 1e-9 * bare, "{s}");
        let clock = f(&v, "clock_pair_us");
        assert!(clock > 0.0, "{v}");
        assert!((f(s, "clock_share") - per_playout * clock / timed).abs() <= 1e-9, "{s}");
    }
    // Without --split no split is reported; the text names the table.
    let plain = bench_json(&args[..args.len() - 1]);
    assert!(plain.get("split").is_none() && plain.get("clock_pair_us").is_none(), "{plain}");
    let out = text(&[&["bench", "--no-pin"], &args[..]].concat());
    assert!(out.contains("one thread, split (us per playout)"), "{out}");
    assert!(out.contains("tree (timed - rollouts)"), "{out}");
    // 400 playouts a position are few enough for the search's start-up to weigh on the tree column,
    // and the text says so; 1000 are not.
    assert!(out.contains("with 400 playouts a position the search's start-up (building its tree"), "{out}");
    let enough = args.map(|a| if a == "400" { "1000" } else { a });
    let out = text(&[&["bench", "--no-pin"], &enough[..]].concat());
    assert!(out.contains("one thread, split") && !out.contains("search's start-up"), "{out}");
}

#[test]
fn more_threads_than_cores_are_measured_with_a_note() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let over = (cores + 1).to_string();
    let threads = format!("1,{over}");
    let out = canopy(&["bench", "--game", "tictactoe", "--threads", &threads, "--playouts", "200", "--repeat", "1"]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("--threads {over} exceeds this machine's {cores} logical cores")), "{stderr}");
    let within = canopy(&["bench", "--game", "tictactoe", "--threads", "1", "--playouts", "200", "--repeat", "1"]);
    assert!(!String::from_utf8_lossy(&within.stderr).contains("exceeds"), "{within:?}");
}

#[test]
fn repeated_runs_show_their_spread() {
    let out = text(&["bench", "--game", "tictactoe", "--threads", "1", "--playouts", "400", "--repeat", "2"]);
    let header = out.lines().find(|l| l.trim_start().starts_with("threads")).expect("the table's header");
    assert!(header.trim_end().ends_with("spread"), "{out}");
    assert!(
        out.contains("spread: how much slower the slowest of the 2 runs of each position was than the fastest"),
        "{out}"
    );
    let one = bench_json(&["--game", "tictactoe", "--threads", "1", "--playouts", "100", "--repeat", "1"]);
    assert_eq!(f(&one["results"][0], "spread"), 0.0, "{one}");
    let p = &one["results"][0]["positions"][0];
    assert_eq!(f(p, "slowest_ms"), f(p, "elapsed_ms"), "{p}");
}

#[test]
fn every_game_and_rollout_policy_runs() {
    let cases: [&[&str]; 7] = [
        &["--game", "tictactoe", "--rollout", "uniform"],
        &["--game", "synthetic", "--branching", "4", "--depth", "6"],
        &["--game", "gomoku", "--size", "9"],
        &["--game", "gomoku", "--size", "15"],
        &["--game", "gomoku", "--size", "9", "--rollout", "uniform"],
        &["--game", "snake"],
        &["--game", "2048", "--rollout", "uniform", "--no-tt"],
    ];
    for case in cases {
        let mut args = vec!["--threads", "1,2", "--playouts", "60", "--repeat", "1"];
        args.extend_from_slice(case);
        let v = bench_json(&args);
        // Only the games with chance events (and values without fixed bounds) name the settings for them.
        let chance = case.contains(&"snake") || case.contains(&"2048");
        assert_eq!(v.get("chance").is_some() && v.get("min_span").is_some(), chance, "{case:?}: {v}");
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), 2, "{case:?}");
        for r in results {
            assert_eq!(u(r, "playouts"), 60 * v["positions"].as_array().unwrap().len() as u64, "{case:?}");
            assert!(f(r, "playouts_per_sec") > 0.0, "{case:?}");
        }
        assert!(f(&v, "rollouts_per_sec") > 0.0, "{case:?}");
    }
    let v = bench_json(&["--game", "gomoku", "--size", "15", "--threads", "1", "--playouts", "20", "--repeat", "1"]);
    assert_eq!(u(&v, "size"), 15);
    assert_eq!(v["positions"].as_array().unwrap().len(), 3);
    // A side may be written as `play` writes a board's size.
    let v = bench_json(&["--game", "snake", "--size", "8x8", "--threads", "1", "--playouts", "20", "--repeat", "1"]);
    assert_eq!(u(&v, "size"), 8);
}

#[test]
fn the_synthetic_tree_reports_its_shape_and_its_nodes() {
    let v = bench_json(&["--game", "synthetic", "--threads", "1", "--playouts", "500", "--repeat", "1"]);
    assert_eq!(v["game"], "synthetic");
    assert_eq!(u(&v["tree"], "branching"), 8);
    assert_eq!(u(&v["tree"], "depth"), 12);
    assert!(v.get("size").is_some_and(Value::is_null));
    let edge = u(&v["results"][0], "nodes");
    // With node statistics, expansion threshold 1 and no transpositions: the root, and each playout adds
    // the one node it steps into (none when it ends at a leaf of the tree already in it; at depth 12
    // and 500 playouts rare).
    let args = ["--game", "synthetic", "--threads", "1", "--playouts", "500", "--repeat", "1", "--statistics", "node"];
    let node = u(&bench_json(&args)["results"][0], "nodes");
    assert!((450..=501).contains(&node), "{node} nodes for 500 playouts");
    // With edge statistics (the default) a leaf gets its node when it is expanded, on its second visit:
    // a node's eight children are each reached once before any is reached again.
    assert!(edge > 8 && edge < node / 2, "{edge} nodes with edge statistics, {node} with node statistics");
    let out = text(&["bench", "--no-pin", "--game", "synthetic", "--depth", "3", "--threads", "1", "--playouts", "50"]);
    assert!(out.contains("synthetic branching 8 depth 3"), "{out}");
}

#[test]
fn the_contention_model_is_fitted_to_one_and_two_threads() {
    let v = bench_json(&["--game", "tictactoe", "--threads", "1,2", "--playouts", "2000", "--repeat", "1", "--model"]);
    let m = &v["model"];
    for key in ["t1_us", "t2_us", "line_transfer_us", "top_share", "shared_lines"] {
        assert!(f(m, key) >= 0.0, "{key} in {m}");
    }
    assert!(f(m, "t1_us") > 0.0 && f(m, "line_transfer_us") > 0.0);
    let predicted = m["predicted"].as_array().unwrap();
    let threads: Vec<u64> = predicted.iter().map(|p| u(p, "threads")).collect();
    assert_eq!(threads, [2, 4, 8, 16, 32, 64, 128]);
    for p in predicted {
        let (e, s) = (f(p, "efficiency"), f(p, "speedup"));
        assert!(e > 0.0 && e <= 1.0 + 1e-9, "{p}");
        assert!((s - e * u(p, "threads") as f64).abs() < 1e-6, "{p}");
    }
    // The root's most visited move is a share of the playouts.
    assert!(f(m, "top_share") <= 1.0);
    // The hot-line bound at two threads, and whether the two-thread run went faster than it allows.
    let bound = 4.0 * f(m, "top_share") * f(m, "line_transfer_us");
    assert!((f(m, "hot_line_at_two_us") - bound).abs() < 1e-9, "{m}");
    assert_eq!(m["hot_line_above_measured"].as_bool(), Some(bound > f(m, "t2_us")), "{m}");
    assert!(v["results"][0]["positions"][0]["top_share"].as_f64().is_some());
    // Without --model the JSON has no model.
    let plain = bench_json(&["--game", "tictactoe", "--threads", "1", "--playouts", "50", "--repeat", "1"]);
    assert!(plain.get("model").is_none());
}

#[test]
fn unshared_runs_one_worker_search_per_thread_beside_the_shared_tree() {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        // One core: no count of unshared searches to measure, which is refused.
        refused(&["bench", "--game", "tictactoe", "--threads", "1,2", "--unshared"]);
        return;
    }
    let v =
        bench_json(&["--game", "tictactoe", "--threads", "1,2,3", "--playouts", "500", "--repeat", "2", "--unshared"]);
    let results = v["results"].as_array().unwrap();
    // The baseline has nothing to compare with.
    assert!(results[0].get("unshared").is_none(), "{}", results[0]);
    let base = f(&results[0], "playouts_per_sec");
    let cores = u(&v, "logical_cores");
    assert!(cores < 2 || results[1].get("unshared").is_some(), "two threads on {cores} cores: {}", results[1]);
    for r in &results[1..] {
        let t = u(r, "threads");
        if t > cores {
            // T searches would share cores: not measured, and said.
            assert!(r.get("unshared").is_none(), "{r}");
            assert!(v["unshared_not_measured"].as_array().unwrap().iter().any(|n| n.as_u64() == Some(t)), "{v}");
            continue;
        }
        let un = &r["unshared"];
        // Each of the T searches does the one-thread search's work on both positions.
        assert_eq!(u(un, "playouts"), t * 2 * 500, "{un}");
        // Each search is the one-thread search (same parameters and seed): T times its nodes.
        assert_eq!(u(un, "nodes"), t * u(&results[0], "nodes"), "{un}");
        assert_eq!(un["memory_limited"], false, "{un}");
        let pps = f(un, "playouts_per_sec");
        assert!(pps > 0.0 && f(un, "elapsed_ms") > 0.0, "{un}");
        assert!((pps - u(un, "playouts") as f64 / (f(un, "elapsed_ms") / 1e3)).abs() / pps < 1e-9, "{un}");
        assert!((f(un, "speedup") - pps / base).abs() < 1e-9, "{un}");
        assert!((f(un, "shared_share") - f(r, "playouts_per_sec") / pps).abs() < 1e-9, "{un}");
        // Position by position: the same figures, adding up to the totals.
        let per = un["positions"].as_array().unwrap();
        let shared = r["positions"].as_array().unwrap();
        let one = results[0]["positions"].as_array().unwrap();
        assert_eq!(per.len(), 2, "{un}");
        assert_eq!(per.iter().map(|p| u(p, "playouts")).sum::<u64>(), u(un, "playouts"), "{un}");
        let elapsed: f64 = per.iter().map(|p| f(p, "elapsed_ms")).sum();
        assert!((elapsed - f(un, "elapsed_ms")).abs() < 1e-6 * elapsed.max(1.0), "{un}");
        for (i, p) in per.iter().enumerate() {
            assert_eq!(p["name"], shared[i]["name"], "{un}");
            assert_eq!(u(p, "playouts"), t * 500, "{p}");
            let pps = f(p, "playouts_per_sec");
            assert!((pps - 500.0 * t as f64 / (f(p, "elapsed_ms") / 1e3)).abs() / pps < 1e-9, "{p}");
            assert!((f(p, "speedup") - pps / f(&one[i], "playouts_per_sec")).abs() < 1e-9, "{p}");
            assert!((f(p, "shared_share") - f(&shared[i], "playouts_per_sec") / pps).abs() < 1e-9, "{p}");
        }
    }
    // The text output names the columns and says what they are.
    let out =
        text(&["bench", "--no-pin", "--game", "tictactoe", "--threads", "1,2", "--playouts", "200", "--unshared"]);
    assert!(out.contains("unshared") && out.contains("of unshared"), "{out}");
    assert!(out.contains("each with its own tree"), "{out}");
    if cores >= 2 {
        // The positions' table has a column of the unshared searches at two threads.
        assert!(out.contains("2 unsh pl/s") && out.contains("T unsh pl/s: "), "{out}");
        // The plot draws them beside the shared tree: the one thread and the two unshared searches, in
        // each chart.
        let dir = temp_dir("bench-plot-unshared");
        let path = dir.join("unshared.svg");
        let p = path.to_str().unwrap();
        bench_json(&[
            "--game",
            "tictactoe",
            "--threads",
            "1,2",
            "--playouts",
            "200",
            "--repeat",
            "1",
            "--unshared",
            "--plot",
            p,
        ]);
        let svg = std::fs::read_to_string(&path).unwrap();
        assert_eq!(svg.matches("unshared search(es)").count(), 4, "{svg}");
        assert!(svg.contains("unshared searches (--unshared)"), "{svg}");
    }
    // Searches this short are flagged.
    assert!(out.contains("some searches took under 10 ms"), "{out}");
    // Without --unshared there is no such entry.
    let plain = bench_json(&["--game", "tictactoe", "--threads", "1,2", "--playouts", "50", "--repeat", "1"]);
    assert!(plain["results"][1].get("unshared").is_none());
}

#[test]
fn plot_writes_an_svg() {
    let dir = temp_dir("bench-plot");
    let path = dir.join("scaling.svg");
    let p = path.to_str().unwrap();
    let v =
        bench_json(&["--game", "tictactoe", "--threads", "1,2,4", "--playouts", "200", "--repeat", "1", "--plot", p]);
    assert_eq!(v["results"].as_array().unwrap().len(), 3);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert!(svg.contains("playouts/s") && svg.contains("efficiency"));
    assert_eq!(svg.matches("<circle").count(), 6, "one point per thread count in each chart");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: [&[&str]; 22] = [
        &["bench", "--game", "tictactoe", "--threads", "1,4", "--model"],
        &["bench", "--game", "tictactoe", "--threads", "2", "--split"],
        &["bench", "--game", "tictactoe", "--threads", "1", "--unshared"],
        &["bench", "--game", "tictactoe", "--threads", "2,4", "--unshared"],
        &["bench", "--game", "tictactoe", "--threads", "2", "--model"],
        &["bench", "--game", "synthetic", "--branching", "1"],
        &["bench", "--game", "synthetic", "--branching", "65"],
        &["bench", "--game", "synthetic", "--depth", "0"],
        &["bench", "--game", "2048", "--depth", "5"],
        &["bench", "--game", "synthetic", "--size", "9"],
        &["bench", "--threads", "0,x"],
        &["bench", "--threads", "0"],
        &["bench", "--threads", "1,,2"],
        &["bench", "--playouts", "0"],
        &["bench", "--repeat", "0"],
        &["bench", "--game", "chess"],
        &["bench", "--game", "gomoku", "--size", "3"],
        &["bench", "--game", "2048", "--size", "9"],
        &["bench", "--game", "snake", "--size", "8x10"],
        &["bench", "--game", "snake", "--size", "x8"],
        &["bench", "--game", "snake", "--size", "4x4"],
        &["bench", "--game", "tictactoe", "--playouts", "10", "--plot", "/nonexistent-dir/x.svg"],
    ];
    for args in cases {
        refused(args);
    }
    // Settings for chance events only, given for a game without them, are refused, not ignored.
    for (game, flag, value) in
        [("gomoku", "--chance", "sample"), ("tictactoe", "--min-span", "0.3"), ("synthetic", "--chance", "stratified")]
    {
        let out = refused(&["bench", "--game", game, flag, value]);
        assert!(out.contains(&format!("{flag} applies to --game 2048 and --game snake only")), "{out}");
    }
    let out = text(&["bench", "--no-pin", "--game", "tictactoe", "--threads", "1", "--playouts", "50"]);
    assert!(out.contains("statistics edge\n") && !out.contains("chance") && !out.contains("min span"), "{out}");
    // A thread count given twice is refused, not merged.
    let out = refused(&["bench", "--game", "tictactoe", "--threads", "1,2,1"]);
    assert!(out.contains("1 is listed twice"), "{out}");
    // A side that is no number says what a side is.
    let out = refused(&["bench", "--game", "gomoku", "--size", "-3"]);
    assert!(out.contains("--size: -3 is not a board side: give N or NxN"), "{out}");
    // --unshared with no thread count it could measure on this machine's cores.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let beyond = (cores + 1).to_string();
    let out = refused(&["bench", "--game", "tictactoe", "--threads", &format!("1,{beyond}"), "--unshared"]);
    assert!(out.contains("--unshared") && out.contains("logical cores"), "{out}");
}
