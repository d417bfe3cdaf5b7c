//! A game that panics inside a worker: the search stops every worker at once and the caller gets the
//! game's own panic, with its message.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use canopy_mcts::games::chain::Chain;
use canopy_mcts::search::{Search, SearchParams};
use canopy_mcts::{Game, NoOutcome, Returns, Rng, Turn};

/// The chain, whose rollout panics from its `fail_at`-th call on.
struct FailingRollout {
    chain: Chain,
    calls: AtomicU64,
    fail_at: u64,
}

impl Game for FailingRollout {
    type State = u32;
    type Action = u8;
    type Outcome = NoOutcome;

    fn players(&self) -> usize {
        self.chain.players()
    }

    fn to_move(&self, s: &u32) -> Turn {
        self.chain.to_move(s)
    }

    fn legal_actions(&self, s: &u32, out: &mut Vec<u8>) {
        self.chain.legal_actions(s, out)
    }

    fn apply(&self, s: &mut u32, a: u8) -> f64 {
        self.chain.apply(s, a)
    }

    fn chance_outcomes(&self, s: &u32, out: &mut Vec<(NoOutcome, f64)>) {
        self.chain.chance_outcomes(s, out)
    }

    fn sample_outcome(&self, s: &u32, rng: &mut Rng) -> NoOutcome {
        self.chain.sample_outcome(s, rng)
    }

    fn apply_outcome(&self, s: &mut u32, outcome: NoOutcome) {
        self.chain.apply_outcome(s, outcome)
    }

    fn returns(&self, s: &u32) -> Returns {
        self.chain.returns(s)
    }

    fn rollout(&self, s: &u32, rng: &mut Rng, scratch: &mut Vec<u8>) -> Returns {
        let n = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        if n >= self.fail_at {
            panic!("rollout {n} failed on purpose");
        }
        self.chain.rollout(s, rng, scratch)
    }
}

#[test]
fn a_panicking_game_stops_every_worker_and_the_caller_gets_its_message() {
    let time_ms = 8_000;
    for threads in [1, 2, 4] {
        let game =
            FailingRollout { chain: Chain { length: 10_000, width: 4 }, calls: AtomicU64::new(0), fail_at: 1_000 };
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
        let result = panic::catch_unwind(AssertUnwindSafe(|| Search::new(&game, params).run(&0)));
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
