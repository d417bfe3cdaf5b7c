//! A game that panics inside a worker: the search stops every worker at once and the caller gets the
//! game's own panic, with its message.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use canopy_mcts::games::chain::{Chain, ChainPolicy};
use canopy_mcts::search::{Search, SearchParams};
use canopy_mcts::{Policy, Rng};

/// The chain's policy, whose rollout panics from its `fail_at`-th call on.
struct FailingRollout {
    calls: AtomicU64,
    fail_at: u64,
}

impl Policy<Chain> for FailingRollout {
    fn rollout(&self, game: &Chain, s: &u32, rng: &mut Rng, scratch: &mut Vec<u8>) -> [f64; 1] {
        let n = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        if n >= self.fail_at {
            panic!("rollout {n} failed on purpose");
        }
        ChainPolicy.rollout(game, s, rng, scratch)
    }
}

#[test]
fn a_panicking_game_stops_every_worker_and_the_caller_gets_its_message() {
    let time_ms = 8_000;
    for threads in [1, 2, 4] {
        let game = Chain { length: 10_000, width: 4 };
        let policy = FailingRollout { calls: AtomicU64::new(0), fail_at: 1_000 };
        // No playout limit: only the time limit would end the other workers' loops.
        let params = SearchParams {
            playouts: None,
            time_ms: Some(time_ms),
            threads,
            pin_threads: false,
            transposition_table: false,
            ..SearchParams::default()
        };
        let start = Instant::now();
        let result = panic::catch_unwind(AssertUnwindSafe(|| Search::with_policy(&game, &policy, params).run(&0)));
        let elapsed = start.elapsed().as_millis() as u64;
        let payload = result.expect_err("the game's panic reaches the caller");
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .expect("the original payload: a message");
        assert!(
            message.starts_with("rollout ") && message.ends_with(" failed on purpose"),
            "{threads} threads: {message:?}"
        );
        assert!(elapsed < time_ms / 4, "{threads} threads: the search ended {elapsed} ms after it started");
    }
}

#[test]
fn a_panicking_progress_observer_stops_an_open_search() {
    // A stop flag that is never set and no limit: only the observer's panic can end this search.
    let never = std::sync::atomic::AtomicBool::new(false);
    let params = SearchParams { threads: 2, pin_threads: false, ..SearchParams::default() };
    let search = Search::new(&Chain { length: 10_000, width: 4 }, params);
    let mut observer = |_: &canopy_mcts::search::Progress| panic!("observer gave up");
    let result =
        panic::catch_unwind(AssertUnwindSafe(|| search.run_observed(&0, Some(&never), Some((10, &mut observer)))));
    let payload = result.expect_err("the observer's panic reaches the caller");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"observer gave up"));
}
