//! The max backup operator (`Backup::Max`) and its robust variant (`Backup::Robust`, the most visited
//! child's mean) on a single-player game with a chance node, where the mean backup under-rates a chance
//! node by the exploratory moves below it and the other two do not.
//!
//! The game: at the root, `Safe` ends the game with reward 0.6 and `Gamble` reaches a chance node with two
//! equally likely outcomes, each followed by a choice between reward 1.0 and reward 0.0. Expectimax
//! values: `Safe` 0.6, `Gamble` 1.0.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::game::{Game, Turn};
use canopy_mcts::rng::Rng;
use canopy_mcts::search::{Backup, Search, SearchParams};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Root,
    Spawn,
    Choose,
    Over,
}

struct Gamble;

impl Game for Gamble {
    type State = Stage;
    type Action = u8;
    type Outcome = u8;
    type Returns = [f64; 1];

    fn to_move(&self, s: &Stage) -> Turn {
        match s {
            Stage::Root | Stage::Choose => Turn::Player(0),
            Stage::Spawn => Turn::Chance,
            Stage::Over => Turn::Terminal,
        }
    }

    fn legal_actions(&self, s: &Stage, out: &mut Vec<u8>) {
        out.clear();
        if matches!(s, Stage::Root | Stage::Choose) {
            out.extend([0, 1]);
        }
    }

    fn apply(&self, s: &mut Stage, a: u8) -> f64 {
        match (*s, a) {
            (Stage::Root, 0) => {
                *s = Stage::Over;
                0.6
            }
            (Stage::Root, _) => {
                *s = Stage::Spawn;
                0.0
            }
            (_, a) => {
                *s = Stage::Over;
                if a == 0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    fn chance_outcomes(&self, _s: &Stage, out: &mut Vec<(u8, f64)>) {
        out.clear();
        out.extend([(0, 0.5), (1, 0.5)]);
    }

    fn sample_outcome(&self, _s: &Stage, rng: &mut Rng) -> u8 {
        canopy_mcts::rng::below(rng, 2) as u8
    }

    fn apply_outcome(&self, s: &mut Stage, _o: u8) {
        *s = Stage::Choose;
    }

    fn returns(&self, _s: &Stage) -> [f64; 1] {
        [0.0]
    }
}

fn gamble_mean(backup: Backup) -> f64 {
    let params = SearchParams {
        playouts: Some(4000),
        threads: 1,
        pin_threads: false,
        exploration: 2.0,
        backup,
        ..SearchParams::default()
    };
    let report = Search::new(&Gamble, params).run(&Stage::Root);
    assert_eq!(report.best, Some(1), "{backup:?}: Gamble (expectimax value 1.0) beats Safe (0.6)");
    report.action(&1).and_then(|a| a.mean).expect("Gamble was visited")
}

#[test]
fn max_backup_values_a_chance_node_by_its_best_replies() {
    let max = gamble_mean(Backup::Max);
    let mean = gamble_mean(Backup::Mean);
    // Once both replies of each outcome are tried, every playout carries the best reply's value, 1.0.
    assert!(max > 0.995, "max backup: Gamble's mean {max} should approach its expectimax value 1.0");
    // The mean backup counts the exploratory 0.0 replies too.
    assert!(mean < max - 0.005, "mean backup {mean} should sit below the max backup {max}");
}

#[test]
fn robust_backup_values_a_chance_node_by_its_most_visited_replies() {
    let robust = gamble_mean(Backup::Robust);
    let mean = gamble_mean(Backup::Mean);
    // UCT gives the 1.0 reply most of each outcome's visits, so every playout after the first few carries
    // 1.0, as with the max backup.
    assert!(robust > 0.99, "robust backup: Gamble's mean {robust} should approach its expectimax value 1.0");
    assert!(robust > mean + 0.005, "robust backup {robust} should sit above the mean backup {mean}");
}

#[test]
fn max_and_robust_backups_keep_the_accounting_exact_on_several_threads() {
    for backup in [Backup::Max, Backup::Robust] {
        let params = SearchParams {
            playouts: Some(20_000),
            threads: 4,
            pin_threads: false,
            audit: true,
            backup,
            ..SearchParams::default()
        };
        let report = Search::new(&Gamble, params).run(&Stage::Root);
        let audit = report.audit.expect("audit requested");
        assert_eq!(audit.root_visits, 20_000, "{backup:?}");
        assert_eq!(audit.in_flight, 0, "{backup:?}");
        assert_eq!(report.best, Some(1), "{backup:?}");
    }
}
