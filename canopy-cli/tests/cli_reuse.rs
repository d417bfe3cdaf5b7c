//! `canopy play` keeps each MCTS agent's search tree between its moves (Snake, tic-tac-toe, Gomoku):
//! with reuse, some searches start from playouts kept from the earlier moves (`kept_playouts`: root
//! visits less the search's own playouts, summed); with `--no-reuse` (or `match`'s per-side
//! `reuse=false`) none does.

use serde_json::Value;

mod common;
use common::{json, refused};

/// The `kept_playouts` of every record of `games`, per player.
fn kept(games: &Value, key: &str) -> Vec<Vec<u64>> {
    games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g[key].as_array().unwrap_or_else(|| panic!("no {key}: {g}")).iter().map(|k| k.as_u64().unwrap()).collect()
        })
        .collect()
}

const FAST: [&str; 5] = ["--threads", "1", "--no-pin", "--seed", "3"];

#[test]
fn snake_keeps_the_tree_unless_told_not_to() {
    let run = |extra: &[&str]| {
        let mut args = vec!["play", "snake", "--size", "6x6", "--games", "2", "--playouts", "150", "--json"];
        args.extend(FAST);
        args.extend(extra);
        json(&args)
    };
    let with = run(&[]);
    assert_eq!(with["mcts"]["reuse"], true);
    let games = with["games"].as_array().unwrap();
    assert!(games.iter().all(|g| g["searches"].as_u64().unwrap() > 1), "{games:?}");
    assert!(games.iter().all(|g| g["kept_playouts"].as_u64().unwrap() > 0), "nothing kept: {games:?}");
    let without = run(&["--no-reuse"]);
    assert_eq!(without["mcts"]["reuse"], false);
    let games = without["games"].as_array().unwrap();
    assert!(games.iter().all(|g| g["searches"].as_u64().unwrap() > 1), "{games:?}");
    assert!(games.iter().all(|g| g["kept_playouts"] == 0), "kept without reuse: {games:?}");
}

#[test]
fn tictactoe_sides_keep_their_trees_unless_told_not_to() {
    let run = |extra: &[&str]| {
        let mut args = vec!["play", "tictactoe", "--games", "2", "--playouts", "300", "--json"];
        args.extend(FAST);
        args.extend(extra);
        json(&args)
    };
    let with = kept(&run(&[])["records"], "kept_playouts");
    assert!(with.iter().all(|sides| sides.iter().any(|&k| k > 0)), "nothing kept: {with:?}");
    let without = kept(&run(&["--no-reuse"])["records"], "kept_playouts");
    assert!(without.iter().flatten().all(|&k| k == 0), "kept without reuse: {without:?}");
    // match: per side.
    let v = json(&[
        "match",
        "tictactoe",
        "--black",
        "mcts:reuse=false",
        "--white",
        "mcts",
        "--games",
        "2",
        "--playouts",
        "300",
        "--threads",
        "1",
        "--json",
    ]);
    let sides = kept(&v["records"], "kept_playouts");
    assert!(sides.iter().all(|k| k[0] == 0), "first side kept a tree: {sides:?}");
    assert!(sides.iter().any(|k| k[1] > 0), "second side kept nothing: {sides:?}");
    let err = refused(&["match", "tictactoe", "--black", "mcts:reuse=maybe", "--playouts", "10"]);
    assert!(err.contains("reuse: maybe is not true or false"), "{err}");
}

#[test]
fn gomoku_sides_keep_their_trees_unless_told_not_to() {
    let run = |extra: &[&str]| {
        let mut args = vec!["play", "gomoku", "--size", "9", "--games", "1", "--playouts", "200", "--json"];
        args.extend(FAST);
        args.extend(extra);
        json(&args)
    };
    let with = kept(&run(&[])["records"], "kept_playouts");
    assert!(with[0].iter().all(|&k| k > 0), "nothing kept: {with:?}");
    let without = kept(&run(&["--no-reuse"])["records"], "kept_playouts");
    assert!(without.iter().flatten().all(|&k| k == 0), "kept without reuse: {without:?}");
    // match: per side, colours swapped every game.
    let v = json(&[
        "match",
        "gomoku",
        "--size",
        "9",
        "--black",
        "mcts:reuse=false",
        "--white",
        "mcts",
        "--games",
        "2",
        "--swap",
        "--playouts",
        "200",
        "--threads",
        "1",
        "--json",
    ]);
    for g in v["games"].as_array().unwrap() {
        let k: Vec<u64> = g["kept_playouts"].as_array().unwrap().iter().map(|k| k.as_u64().unwrap()).collect();
        let (a, b) = if g["black"] == "a" { (k[0], k[1]) } else { (k[1], k[0]) };
        assert_eq!(a, 0, "A (reuse=false) kept a tree: {g}");
        assert!(b > 0, "B kept nothing: {g}");
    }
}
