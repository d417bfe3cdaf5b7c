//! `canopy analyze GAME ... --infinite`: an open-ended analysis on a background search
//! ([`canopy_mcts::search::Session::start`]) that prints a line (or, with `--json`, one JSON object) at a
//! steady interval until Enter, a closed stdin, Ctrl-C, or the `--time`/`--playouts` limit.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use canopy_mcts::search::{Limits, Search, SearchReport, Session, Snapshot};
use canopy_mcts::{Game, Policy};

use super::common::{self, Whole};

/// Milliseconds between two lines of an open-ended analysis (`--interval`).
const INTERVAL_MS: Whole = Whole { min: 50, max: 3_600_000 };

/// Moves each line names, best first.
const LINE_MOVES: usize = 3;

/// The options of an open-ended analysis.
#[derive(clap::Args, Debug, Clone, Copy)]
#[command(next_help_heading = "Open-ended analysis")]
pub struct InfiniteArgs {
    /// Search until Enter, a closed stdin or Ctrl-C (with --time or --playouts: until Enter, Ctrl-C or
    /// the limit), printing the
    /// statistics at every interval; with --json, one JSON object per line (JSON Lines), the last one the
    /// final report.
    #[arg(long)]
    pub infinite: bool,
    /// Milliseconds between two lines of --infinite, 50..=3600000.
    #[arg(long, value_name = "MS", default_value_t = 1000, allow_negative_numbers = true,
          value_parser = |t: &str| INTERVAL_MS.parse(t), requires = "infinite")]
    pub interval: u64,
}

/// Set by Ctrl-C (SIGINT), by a line on the standard input (Enter) or, when `eof_stops`, by its end;
/// installed once.
fn stop_flag(eof_stops: bool) -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let on_signal = Arc::clone(&flag);
        // Without a handler (some sandboxes refuse it) Ctrl-C ends the process as usual.
        let _ = ctrlc::set_handler(move || on_signal.store(true, Ordering::Relaxed));
        let on_input = Arc::clone(&flag);
        std::thread::spawn(move || {
            // Any line (Enter) stops the analysis; so does the end of the input unless a limit will
            // (a closed stdin, as under `< /dev/null`, then leaves the limit to end it).
            let mut line = String::new();
            let read = std::io::stdin().lock().read_line(&mut line);
            if eof_stops || !matches!(read, Ok(0)) {
                on_input.store(true, Ordering::Relaxed);
            }
        });
        flag
    }))
}

/// Runs `search`'s game, policy, parameters and root restriction on `state` as an open-ended analysis,
/// printing a line per interval; returns the final report (of the whole search). When standard output
/// is closed (a reader such as `head` went away), stops the search and ends the process quietly with
/// [`crate::BROKEN_PIPE_EXIT`].
/// `limits` are the limits the user gave (none: until stopped).
pub fn analyse<G, P>(
    search: &Search<'_, G, P>,
    state: &G::State,
    limits: Limits,
    options: InfiniteArgs,
    json: bool,
) -> SearchReport<G::Action>
where
    G: Game + Clone + Send + 'static,
    P: Policy<G> + Clone + Send + 'static,
{
    let params = search.params().clone();
    let mut session: Session<G, P> =
        Session::with_policy(search.game().clone(), search.policy().clone(), state.clone(), params);
    session.restrict_root(search.root_restriction().map(|(m, c)| (m.to_vec(), c)));
    let stop = stop_flag(limits.playouts.is_none() && limits.time_ms.is_none());
    let game = search.game().clone();
    let interval = Duration::from_millis(options.interval);
    let began = Instant::now();
    let mut next = began + interval;
    // Playouts of the segments before the current one, and nodes recycled between them: each segment
    // ends when the tree fills the budget, the session lets go of its least visited subtrees, and the
    // next segment searches on (within what is left of the limits).
    let (mut before, mut recycled) = (0u64, 0u64);
    let mut until_full = true;
    loop {
        let left = Limits {
            playouts: limits.playouts.map(|p| p.saturating_sub(before)),
            time_ms: limits.time_ms.map(|t| t.saturating_sub(began.elapsed().as_millis() as u64)),
        };
        let handle = if until_full { session.start_until_full(left) } else { session.start(left) };
        let mut out = std::io::stdout().lock();
        while !stop.load(Ordering::Relaxed) && !handle.is_finished() {
            std::thread::sleep(Duration::from_millis(10).min(interval));
            if Instant::now() < next {
                continue;
            }
            next += interval;
            let mut snap = handle.snapshot();
            snap.playouts += before;
            snap.elapsed_ms = began.elapsed().as_secs_f64() * 1e3;
            let line = if json { progress_json(&game, &snap).to_string() } else { progress_text(&snap) };
            if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                drop(handle);
                std::process::exit(crate::BROKEN_PIPE_EXIT);
            }
        }
        drop(out);
        let (kept, mut report) = handle.stop();
        session = kept;
        before += report.playouts;
        let limit_reached = limits.playouts.is_some_and(|p| before >= p)
            || limits.time_ms.is_some_and(|t| began.elapsed().as_millis() as u64 >= t);
        let full =
            report.memory_limited && !stop.load(Ordering::Relaxed) && !limit_reached && report.root_proof.is_none();
        let freed = if full { session.recycle() } else { Default::default() };
        if full {
            // Nothing to let go: search on in the full tree (by rollouts from its leaves) until stopped.
            until_full = freed.nodes_after < freed.nodes_before;
            recycled += freed.nodes_before - freed.nodes_after;
            continue;
        }
        report.playouts = before;
        report.recycled_nodes += recycled;
        report.memory_limited |= recycled > 0;
        report.elapsed_ms = began.elapsed().as_secs_f64() * 1e3;
        report.playouts_per_sec = before as f64 / began.elapsed().as_secs_f64().max(1e-9);
        return report;
    }
}

/// One line of text: elapsed time, playouts and their rate, memory, the best moves with their visit
/// shares and values, and the principal variation.
fn progress_text<A>(s: &Snapshot<A>) -> String {
    let mut ranked: Vec<_> = s.actions.iter().collect();
    ranked.sort_by_key(|a| std::cmp::Reverse(a.visits));
    let moves: Vec<String> = ranked
        .iter()
        .take(LINE_MOVES)
        .map(|a| format!("{} {:.1}% {}", a.name, a.share * 100.0, a.mean.map_or("-".into(), |m| format!("{m:.3}"))))
        .collect();
    format!(
        "{:>7.1} s  {} playouts  {}/s  {}  best: {}  pv: {}",
        s.elapsed_ms / 1e3,
        s.playouts,
        rate(s),
        common::format_bytes(s.memory_bytes),
        moves.join(", "),
        s.pv.join(" ")
    )
}

fn rate<A>(s: &Snapshot<A>) -> u64 {
    if s.elapsed_ms > 0.0 {
        (s.playouts as f64 / (s.elapsed_ms / 1e3)) as u64
    } else {
        0
    }
}

/// One JSON object of progress (`"event": "progress"`).
fn progress_json<G: Game>(_game: &G, s: &Snapshot<G::Action>) -> serde_json::Value {
    let mut ranked: Vec<_> = s.actions.iter().collect();
    ranked.sort_by_key(|a| std::cmp::Reverse(a.visits));
    json!({
        "event": "progress",
        "elapsed_ms": s.elapsed_ms,
        "playouts": s.playouts,
        "playouts_per_sec": rate(s),
        "root_visits": s.root_visits,
        "memory_bytes": s.memory_bytes,
        "best": ranked.iter().take(LINE_MOVES).map(|a| json!({
            "move": a.name, "visits": a.visits, "share": a.share, "mean": a.mean,
        })).collect::<Vec<_>>(),
        "pv": s.pv,
    })
}

/// Prints an analysis's JSON object: pretty, or, after an open-ended analysis's progress lines, on one
/// line marked `"event": "report"` (so that the output is JSON Lines).
///
/// # Errors
/// A failed serialisation.
pub fn print_report_json(mut v: serde_json::Value, infinite: bool) -> anyhow::Result<()> {
    if infinite {
        if let Some(obj) = v.as_object_mut() {
            obj.insert("event".into(), json!("report"));
        }
        println!("{}", serde_json::to_string(&v)?);
    } else {
        println!("{}", serde_json::to_string_pretty(&v)?);
    }
    Ok(())
}
