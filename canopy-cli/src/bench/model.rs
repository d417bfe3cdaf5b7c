//! `canopy bench --model`: a contention model, calibrated on the one- and two-thread measurements, that
//! predicts the parallel efficiency at more threads than the machine has (docs/BENCHMARKS.md,
//! "Contention model", gives the derivation and its limits).
//!
//! Inputs, all measured by the same run:
//! - `t1`, `t2`: the time a thread spends per playout with one and with two threads (µs);
//! - `t1s`: the time per playout of one thread on the code paths of several workers (locked
//!   read-modify-writes, batched root statistics, the table's locked claims: `SearchParams::shared_paths`),
//!   so `t1s - t1` is what those paths cost and `t2 - t1s` what sharing cache lines costs;
//! - `c_x`: the time to hand one cache line from one core to the other (µs; a ping-pong between two
//!   threads on the cores workers 0 and 1 run on, best of `--repeat`);
//! - `p1`: the share of the playouts through the most visited root move (one-thread searches, weighted by
//!   playouts over the positions).
//!
//! Model: a worker that meets a node another worker has written since its own last visit pays `c_x` per
//! line. Between two visits of one worker to a node, the other `T - 1` workers visit it `T - 1` times on
//! average (they draw from the same visit distribution), so the chance that it was written is
//! `f(T) = 1 - e^-(T-1)` (a Poisson count). With `k` lines per playout that one thread keeps in its
//! cache and that are shared, a thread's time per playout among `T >= 2` workers is `t1s + k c_x f(T)`;
//! two threads measure `k = (t2 - t1s) / (c_x f(2))`. And the most written line, in the most visited root move's children
//! block (its root statistics are batched), takes two writes per pass (virtual loss and visit), each
//! holding the line for `c_x`: the playouts of all threads together cannot pass it faster than one per
//! `2 p1 c_x`, so a thread's time per playout is at least `2 p1 c_x T`. The prediction is
//! `t(T) = max(t1s + k c_x f(T), 2 p1 c_x T)` and the efficiency `t1 / t(T)`; the knee is the first
//! thread count where the second term wins (the speedup stops growing there). Without `t1s` (a report
//! without the shared-paths pass) `t1` stands in for it and `k` takes both costs.

use canopy_mcts::search::line_handover_secs;
use serde::Serialize;

/// Thread counts the model predicts.
pub(super) const PREDICTED: [usize; 7] = [2, 4, 8, 16, 32, 64, 128];

/// Hand-overs per line-transfer measurement.
pub(super) const HANDOVERS: u64 = 200_000;

/// The model's inputs and predictions.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Model {
    /// Microseconds per playout of one thread, one thread running.
    pub t1_us: f64,
    /// Microseconds per playout of one thread on the several-worker code paths, one thread running.
    pub t1_shared_us: f64,
    /// Microseconds per playout of one thread, two threads running.
    pub t2_us: f64,
    /// Microseconds per cache-line hand-over between the two cores.
    pub line_transfer_us: f64,
    /// Share of the playouts through the most visited root move (one thread).
    pub top_share: f64,
    /// Shared cache lines per playout that one thread would keep in its cache (fitted at two threads).
    pub shared_lines: f64,
    /// The first thread count at which the most written line limits the rate (none up to 4096).
    pub knee_threads: Option<usize>,
    /// The hot-line bound at two threads, `4 p1 c_x` (µs per playout and thread).
    pub hot_line_at_two_us: f64,
    /// Whether that bound is above the measured `t2`: the two-thread run passed the most written line
    /// faster than the bound allows, so the line is held for less than `c_x` per write (the ping-pong's
    /// hand-over is not what a write costs there), and the predictions where the hot line decides are
    /// too low; the prediction at two threads is then below the measured efficiency.
    pub hot_line_above_measured: bool,
    /// Predicted efficiency and speedup at each of [`PREDICTED`].
    pub predicted: Vec<Prediction>,
}

/// One predicted thread count.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Prediction {
    pub threads: usize,
    pub efficiency: f64,
    pub speedup: f64,
    /// Which term of the model decides: `coherence` or `hot line`.
    pub limit: &'static str,
}

/// `f(T) = 1 - e^-(T-1)`: the chance that another worker wrote a node between two visits of one worker.
fn written_share(threads: usize) -> f64 {
    1.0 - (-(threads as f64 - 1.0)).exp()
}

impl Model {
    /// The model from the measured inputs (see the module docs); `None` when `t2 < t1` leaves nothing to
    /// fit or an input is not positive.
    pub fn fit(t1_us: f64, t1_shared_us: f64, t2_us: f64, line_transfer_us: f64, top_share: f64) -> Option<Model> {
        if !(t1_us > 0.0 && t1_shared_us > 0.0 && t2_us > 0.0 && line_transfer_us > 0.0 && top_share > 0.0) {
            return None;
        }
        // Sharing costs what two threads pay beyond one thread on the same paths (never below zero, and
        // never more than their whole loss when noise puts the shared-paths figure under `t1`).
        let base = t1_shared_us.max(t1_us).min(t2_us.max(t1_us));
        let shared_lines = ((t2_us - base) / (line_transfer_us * written_share(2))).max(0.0);
        let time = |t: usize| -> (f64, &'static str) {
            let coherence = base + shared_lines * line_transfer_us * written_share(t);
            let hot = 2.0 * top_share * line_transfer_us * t as f64;
            if hot > coherence {
                (hot, "hot line")
            } else {
                (coherence, "coherence")
            }
        };
        let predicted = PREDICTED
            .iter()
            .map(|&threads| {
                let (t, limit) = time(threads);
                let efficiency = t1_us / t;
                Prediction { threads, efficiency, speedup: efficiency * threads as f64, limit }
            })
            .collect();
        let knee_threads = (2..=4096).find(|&t| time(t).1 == "hot line");
        let hot_line_at_two_us = 4.0 * top_share * line_transfer_us;
        Some(Model {
            t1_us,
            t1_shared_us,
            t2_us,
            line_transfer_us,
            top_share,
            shared_lines,
            knee_threads,
            hot_line_at_two_us,
            hot_line_above_measured: hot_line_at_two_us > t2_us,
            predicted,
        })
    }
}

/// The time of one cache-line hand-over between the cores of workers 0 and 1 (µs), best of `repeat`
/// runs of `handovers` ([`canopy_mcts::search::line_handover_secs`]).
pub(super) fn line_transfer_us(repeat: u32, pinned: bool, handovers: u64) -> f64 {
    let handovers = (handovers / 2 * 2).max(2);
    let best = (0..repeat.max(1)).map(|_| line_handover_secs(handovers, pinned)).fold(f64::INFINITY, f64::min);
    best * 1e6 / handovers as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_reproduces_two_threads_and_finds_the_knee() {
        let m = Model::fit(1.0, 1.0, 1.5, 0.1, 0.5).unwrap();
        // At two threads the coherence term is the measured time: efficiency t1 / t2.
        let two = &m.predicted[0];
        assert_eq!((two.threads, two.limit), (2, "coherence"));
        assert!((two.efficiency - 1.0 / 1.5).abs() < 1e-12);
        // The hot line (2 * 0.5 * 0.1 µs per playout and thread) overtakes t1 + k c_x f(T) (at most
        // 1 + 0.5 / f(2) µs) between 16 and 32 threads.
        let knee = m.knee_threads.unwrap();
        assert!((16..=32).contains(&knee), "{knee}");
        let last = m.predicted.last().unwrap();
        assert_eq!(last.limit, "hot line");
        // Past the knee the speedup stays at 1 / (2 p1 c_x) / (1 / t1) = 10.
        assert!((last.speedup - 10.0).abs() < 1e-9, "{}", last.speedup);
        assert!(m.predicted.windows(2).all(|w| w[1].efficiency <= w[0].efficiency + 1e-12));
    }

    #[test]
    fn no_fit_without_positive_inputs_and_no_negative_sharing() {
        assert!(Model::fit(0.0, 1.0, 1.0, 0.1, 0.5).is_none());
        assert!(Model::fit(1.0, 1.0, 1.0, 0.0, 0.5).is_none());
        let faster = Model::fit(1.0, 1.0, 0.9, 0.1, 0.01).unwrap();
        assert_eq!(faster.shared_lines, 0.0);
        assert_eq!(faster.predicted[0].efficiency, 1.0);
    }

    #[test]
    fn the_shared_paths_cost_is_not_counted_as_shared_lines() {
        // One thread on the shared paths pays 1.2 of the 1.5 µs two threads pay: only 0.3 µs is sharing.
        let split = Model::fit(1.0, 1.2, 1.5, 0.1, 0.01).unwrap();
        let whole = Model::fit(1.0, 1.0, 1.5, 0.1, 0.01).unwrap();
        assert!((split.shared_lines * 0.1 * written_share(2) - 0.3).abs() < 1e-12, "{}", split.shared_lines);
        // Both reproduce two threads; with the paths' cost fixed, more threads lose less.
        assert!((split.predicted[0].efficiency - 1.0 / 1.5).abs() < 1e-12);
        assert!((whole.predicted[0].efficiency - 1.0 / 1.5).abs() < 1e-12);
        let at8 = |m: &Model| m.predicted.iter().find(|p| p.threads == 8).unwrap().efficiency;
        assert!(at8(&split) > at8(&whole), "{} {}", at8(&split), at8(&whole));
        // A shared-paths figure above the two-thread one leaves no shared lines; one below t1 counts as t1.
        assert_eq!(Model::fit(1.0, 1.6, 1.5, 0.1, 0.01).unwrap().shared_lines, 0.0);
        let low = Model::fit(1.0, 0.8, 1.5, 0.1, 0.01).unwrap();
        assert!((low.shared_lines - whole.shared_lines).abs() < 1e-12);
    }

    #[test]
    fn a_hot_line_bound_above_the_two_thread_measurement_is_flagged() {
        // 4 * 0.9 * 0.5 = 1.8 µs at two threads against a measured 1.2: the bound is refuted.
        let m = Model::fit(1.0, 1.0, 1.2, 0.5, 0.9).unwrap();
        assert!((m.hot_line_at_two_us - 1.8).abs() < 1e-12, "{}", m.hot_line_at_two_us);
        assert!(m.hot_line_above_measured);
        assert_eq!(m.predicted[0].limit, "hot line");
        assert!(m.predicted[0].efficiency < 1.0 / 1.2);
        // A bound below the measurement is not.
        let m = Model::fit(1.0, 1.0, 1.5, 0.1, 0.5).unwrap();
        assert!(!m.hot_line_above_measured);
    }

    #[test]
    fn a_line_transfer_takes_some_time() {
        let us = line_transfer_us(1, false, 200);
        assert!(us.is_finite() && us > 0.0, "{us}");
    }
}
