//! Options shared by every searching command, and output helpers.

use serde_json::{json, Map, Value};

use canopy_mcts::param::int_text;
use canopy_mcts::search::{
    parse_bytes, physical_memory_bytes, ActionStats, Progress, ProgressObserver, SearchReport, DEFAULT_MEMORY_BYTES,
};

/// The elements of a comma-separated option value (`1,2,4`), each trimmed of spaces.
///
/// # Errors
/// One line when the value or one of its elements is empty (`1,,2`, `1,`, `,1`), naming the element,
/// e.g. `element 2 of '1,,2' is empty`.
pub fn comma_list(text: &str) -> Result<Vec<&str>, String> {
    if text.trim().is_empty() {
        return Err("the list is empty".to_string());
    }
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    match items.iter().position(|t| t.is_empty()) {
        Some(i) => Err(format!("element {} of '{text}' is empty", i + 1)),
        None => Ok(items),
    }
}

/// The accepted values of a whole-number option of the command line, inclusive, declared once beside the
/// option (such as [`GAMES`]). The search options' ranges are the library's parameter declarations
/// instead (see [`super::params`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole {
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
}

impl Whole {
    /// Reads `text` as a whole number in the range.
    ///
    /// # Errors
    /// One line naming the value and the range, e.g. `-1 is not a whole number from 1 to 1024`.
    pub fn parse(self, text: &str) -> Result<u64, String> {
        let t = text.trim();
        match t.parse::<u64>() {
            Ok(v) if (self.min..=self.max).contains(&v) => Ok(v),
            _ => Err(format!("{t} is not a whole number from {} to {}", int_text(self.min), int_text(self.max))),
        }
    }

    /// [`Whole::parse`] for options stored in 32 bits (the range must fit in `u32`).
    ///
    /// # Errors
    /// As [`Whole::parse`].
    pub fn parse_u32(self, text: &str) -> Result<u32, String> {
        debug_assert!(self.max <= u64::from(u32::MAX));
        self.parse(text).map(|v| v as u32)
    }
}

/// A square board's side as `--size` takes it: `N`, or `NxN` as the commands write a board's size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareSide {
    /// The side.
    pub side: usize,
    /// The text given, for messages that name it.
    pub text: String,
}

impl SquareSide {
    /// Reads `text` as `N` or `NxN` (or `NXN`) with both sides equal, each a whole number; the caller
    /// checks the side against its game's range ([`SquareSide::check`]; [`SquareSide::parse`] does
    /// both).
    ///
    /// # Errors
    /// One line naming the text as given: `an empty value is not a board side: give N or NxN`, `abc is
    /// not a board side: give N or NxN`, `9x11: the boards are square: give one side (e.g. 9)`.
    pub fn read(text: &str) -> Result<SquareSide, String> {
        let t = text.trim();
        let bad = || {
            let what = if t.is_empty() { "an empty value".to_string() } else { t.to_string() };
            format!("{what} is not a board side: give N or NxN")
        };
        // A number too large for 64 bits is a side out of every range, not a malformed one.
        let side = |s: &str| match s.trim().parse::<u64>() {
            Ok(n) => Ok(n),
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Ok(u64::MAX),
            Err(_) => Err(bad()),
        };
        let side = match t.split_once(['x', 'X']) {
            Some((w, h)) => {
                let (w, h) = (side(w)?, side(h)?);
                if w != h {
                    return Err(format!("{t}: the boards are square: give one side (e.g. {w})"));
                }
                w
            }
            None => side(t)?,
        };
        Ok(SquareSide { side: usize::try_from(side).unwrap_or(usize::MAX), text: t.to_string() })
    }

    /// [`SquareSide::read`], then the side checked against `range`; `what` names the boards in the
    /// message (e.g. "gomoku boards").
    ///
    /// # Errors
    /// As [`SquareSide::read`], and `99x99 is not a side from 5 to 20 (gomoku boards)` for a side out of
    /// range.
    pub fn parse(text: &str, range: Whole, what: &str) -> Result<SquareSide, String> {
        let s = SquareSide::read(text)?;
        s.check(range, what)?;
        Ok(s)
    }

    /// Checks the side against `range`; `what` names the boards in the message.
    ///
    /// # Errors
    /// `99x99 is not a side from 5 to 20 (gomoku boards)` for a side out of range.
    pub fn check(&self, range: Whole, what: &str) -> Result<(), String> {
        if (range.min..=range.max).contains(&(self.side as u64)) {
            Ok(())
        } else {
            Err(format!("{} is not a side from {} to {} ({what})", self.text, range.min, range.max))
        }
    }
}

/// The items of a comma-separated option, each once.
///
/// # Errors
/// An input error naming the option and the first item given twice (a list is never shortened
/// silently).
pub fn distinct<T: PartialEq + Clone + std::fmt::Display>(flag: &str, items: &[T]) -> anyhow::Result<Vec<T>> {
    for (i, item) in items.iter().enumerate() {
        if items[..i].iter().any(|x| x.to_string().trim() == item.to_string().trim()) {
            return Err(super::input_error(format!("{flag}: {} is given twice", item.to_string().trim())));
        }
    }
    Ok(items.to_vec())
}

/// Refuses a sweep whose varied parameter also has a fixed value on the command line (`given`: the
/// flag that gave it, as typed in the help, or `None`): the fixed value would be dropped for every row
/// without a word. `param` is the name `--param` was given.
///
/// # Errors
/// An input error naming both options.
pub fn swept_not_fixed(param: &str, given: Option<String>) -> anyhow::Result<()> {
    match given {
        Some(flag) => Err(super::input_error(format!(
            "--param {}: {flag} also sets it; give its values with --values alone",
            param.trim()
        ))),
        None => Ok(()),
    }
}

/// Reads a sweep's `--values` as parameter `name` of `T` reads them, each on a copy of `reference`,
/// before any game: refuses a value out of the parameter's range (the parameter named as `--param`
/// takes it, with hyphens), and two values that give the same setting (`edge,EDGE`, `1,1.0`), whose rows would play
/// the same games. Nothing is checked when `T` has no parameter `name`.
///
/// # Errors
/// An input error naming the option and the value, or the two values.
pub fn check_values<T: canopy_mcts::param::Settings + Clone>(
    name: &str,
    values: &[String],
    reference: &T,
) -> anyhow::Result<()> {
    let Some(param) = T::param(name) else { return Ok(()) };
    let named = param.name.replace('_', "-");
    let mut seen: Vec<(canopy_mcts::param::Value, &str)> = Vec::new();
    for text in values {
        let mut target = reference.clone();
        if let Err(e) = param.apply(&mut target, text) {
            let reason = match e {
                canopy_mcts::param::ParamError::Invalid { value, range, .. } => {
                    format!("{} is not {range}", canopy_mcts::param::shown(&value))
                }
                other => other.to_string(),
            };
            return Err(super::input_error(format!("--values: {named}: {reason}")));
        }
        let value = (param.get)(&target);
        if let Some((_, first)) = seen.iter().find(|(v, _)| *v == value) {
            return Err(super::input_error(format!(
                "--values: {} and {} are the same value of {named}",
                first.trim(),
                text.trim()
            )));
        }
        seen.push((value, text));
    }
    Ok(())
}

/// Games of `play`, `compare`, `sweep` and `match` (`--games`).
pub const GAMES: Whole = Whole { min: 1, max: 1_000_000 };

/// Reads a `--memory` budget: a byte count of at least 64 KiB that this machine can hold. Budgets above
/// the default (1 GiB) that exceed the physical memory are refused (Linux, where it is known; the
/// default itself is always accepted, as a search takes only what it needs).
pub(super) fn parse_memory(text: &str) -> Result<usize, String> {
    // Worded as the parameter table words a `--memory` flag's bad value.
    let not_budget = || format!("{} is not a byte count of at least 64KiB (e.g. 512MB, 2GiB)", text.trim());
    let n = parse_bytes(text).map_err(|_| not_budget())?;
    if n < 1 << 16 {
        return Err(not_budget());
    }
    if let Some(machine) = physical_memory_bytes().filter(|&m| n > DEFAULT_MEMORY_BYTES && n > m) {
        return Err(format!("{} is more than this machine's {} of memory", text.trim(), format_bytes(machine)));
    }
    Ok(n)
}

/// Milliseconds between two progress lines of a running search.
pub const PROGRESS_INTERVAL_MS: u64 = 1000;

/// Prints one progress line of a running search on stderr: seconds so far, playouts, the most visited
/// move and its mean.
pub fn print_progress(p: &Progress) {
    eprintln!(
        "info: {:.1} s  playouts {}  best {}  mean {}",
        p.elapsed_ms / 1e3,
        p.playouts,
        p.best.as_deref().unwrap_or("-"),
        p.best_mean.map_or("-".to_string(), |m| format!("{m:.3}"))
    )
}

/// Runs a search, printing a progress line on stderr every second when it lasts longer than that
/// (none when `quiet`: `--no-progress`).
pub fn search_with_progress<G: canopy_mcts::Game, P: canopy_mcts::Policy<G>>(
    search: &canopy_mcts::search::Search<'_, G, P>,
    state: &G::State,
    quiet: bool,
) -> SearchReport<G::Action> {
    let mut line = print_progress;
    let progress: Option<ProgressObserver<'_>> = if quiet { None } else { Some((PROGRESS_INTERVAL_MS, &mut line)) };
    search.run_observed(state, None, progress)
}

/// Runs `work` (a search that reports no progress of its own, such as expectimax's) and prints a line on
/// stderr every second from the first on while it runs, `label` and the seconds so far, unless `quiet`
/// (`--no-progress`): the progress [`search_with_progress`] gives a tree search.
pub fn with_ticker<T: Send>(label: &str, quiet: bool, work: impl FnOnce() -> T + Send) -> T {
    if quiet {
        return work();
    }
    let every = std::time::Duration::from_millis(PROGRESS_INTERVAL_MS);
    ticking(every, |secs| eprintln!("{label}: {secs:.0} s"), work)
}

/// [`with_ticker`]'s loop: `tick(seconds so far)` at each multiple of `every` while `work` runs.
fn ticking<T: Send>(
    every: std::time::Duration,
    mut tick: impl FnMut(f64) + Send,
    work: impl FnOnce() -> T + Send,
) -> T {
    use std::sync::atomic::{AtomicBool, Ordering};
    let done = AtomicBool::new(false);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let step = (every / 20).max(std::time::Duration::from_millis(1));
            let mut next = every;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(step);
                if start.elapsed() >= next && !done.load(Ordering::Relaxed) {
                    tick(start.elapsed().as_secs_f64());
                    next += every;
                }
            }
        });
        let out = work();
        done.store(true, Ordering::Relaxed);
        out
    })
}

/// Whether finished games are reported as plain lines on stderr: always when stderr is not a terminal
/// (indicatif then hides its progress bar, so the lines are the only progress), unless `quiet`; on a
/// terminal when `on_terminal` (the bar shows the rest).
pub fn game_lines(quiet: bool, on_terminal: bool) -> bool {
    use std::io::IsTerminal;
    !quiet && (on_terminal || !std::io::stderr().is_terminal())
}

/// Seconds between two [`GameProgress`] lines.
pub const GAME_PROGRESS_SECS: u64 = 10;

/// Progress within a long game where no progress bar is drawn (stderr is not a terminal): at most one
/// line every [`GAME_PROGRESS_SECS`] seconds, so that a log shows a game that takes minutes moving, not
/// only its end.
#[derive(Debug)]
pub struct GameProgress {
    /// When the game began and when the last line was printed (or the game began); `None`: no lines
    /// (stderr is a terminal, or quiet).
    times: Option<(std::time::Instant, std::time::Instant)>,
    /// The least time between two lines ([`GAME_PROGRESS_SECS`]).
    every: std::time::Duration,
}

impl GameProgress {
    /// Lines when `lines` (the command reports its games as lines, [`game_lines`]) and stderr is not a
    /// terminal.
    pub fn new(lines: bool) -> Self {
        use std::io::IsTerminal;
        let now = std::time::Instant::now();
        GameProgress {
            times: (lines && !std::io::stderr().is_terminal()).then_some((now, now)),
            every: std::time::Duration::from_secs(GAME_PROGRESS_SECS),
        }
    }

    /// Prints `line()` on stderr, with the seconds since the game began, when the last line (or the
    /// game's start) is [`GAME_PROGRESS_SECS`] or more ago; returns the line printed.
    pub fn tick(&mut self, line: impl FnOnce() -> String) -> Option<String> {
        let (start, last) = self.times.as_mut()?;
        if last.elapsed() < self.every {
            return None;
        }
        let text = format!("{}, {:.0} s into the game", line(), start.elapsed().as_secs_f64());
        eprintln!("{text}");
        *last = std::time::Instant::now();
        Some(text)
    }
}

/// Creates (or truncates) the output file `path` of option `flag` before any work starts, so that a path
/// that cannot be written stops the command at once rather than after the games or measurements.
///
/// # Errors
/// An input error naming the option, the path and the reason.
pub fn create_output(flag: &str, path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    std::fs::File::create(path).map_err(|e| super::input_error(format!("{flag}: cannot write {}: {e}", path.display())))
}

/// Human-readable byte count (binary units).
pub fn format_bytes(n: usize) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// The totals block printed under every analysis table.
pub fn print_totals<A>(r: &SearchReport<A>) {
    println!(
        "playouts {}  nodes {}  elapsed {:.1} ms  {:.0} playouts/s  threads {}",
        r.playouts, r.nodes, r.elapsed_ms, r.playouts_per_sec, r.threads
    );
    let table = match &r.table {
        Some(t) => format!("table {} slots, {} filled, {} hits", t.slots, t.filled, t.hits),
        None => "table off".to_string(),
    };
    println!(
        "memory {}{}  depth max {} mean {:.1}  {}  values: {}",
        format_bytes(r.memory_bytes),
        if r.memory_limited { " (budget reached: tree stopped growing)" } else { "" },
        r.max_depth,
        r.mean_depth,
        table,
        r.normalisation
    );
}

/// The keys of the search statistics every `--json` analysis carries, in order: `playouts`, `root_visits`,
/// `nodes`, `max_depth`, `mean_depth`, `elapsed_ms` (milliseconds), `playouts_per_sec`, `memory_bytes`,
/// `memory_limited`, `recycled_nodes` (nodes an open-ended analysis let go to grow on within its budget),
/// `table` (null when the transposition table is off), `threads`, `normalisation` and
/// `solver` (whether MCTS-Solver ran: "on", "off: disabled by params" or "off: game is not two-player
/// win/draw/loss").
const STATS_KEYS: [&str; 14] = [
    "playouts",
    "root_visits",
    "nodes",
    "max_depth",
    "mean_depth",
    "elapsed_ms",
    "playouts_per_sec",
    "memory_bytes",
    "memory_limited",
    "recycled_nodes",
    "table",
    "threads",
    "normalisation",
    "solver",
];

/// The search statistics of `r` under [`STATS_KEYS`].
pub fn search_stats_json<A>(r: &SearchReport<A>) -> Map<String, Value> {
    let values = [
        json!(r.playouts),
        json!(r.root_visits),
        json!(r.nodes),
        json!(r.max_depth),
        json!(r.mean_depth),
        json!(r.elapsed_ms),
        json!(r.playouts_per_sec),
        json!(r.memory_bytes),
        json!(r.memory_limited),
        json!(r.recycled_nodes),
        json!(r.table),
        json!(r.threads),
        json!(r.normalisation),
        json!(r.solver),
    ];
    STATS_KEYS.iter().map(|k| k.to_string()).zip(values).collect()
}

/// The statistics under [`STATS_KEYS`] of a decision made without a search tree (2048's expectimax, flat,
/// greedy and random agents): `playouts` (the rollouts of flat Monte Carlo, else 0), `elapsed_ms` and
/// `threads` (null for the agents without threads); the tree's statistics are null.
pub fn treeless_stats_json(playouts: u64, elapsed_ms: f64, threads: Option<usize>) -> Map<String, Value> {
    STATS_KEYS
        .iter()
        .map(|&k| {
            let v = match k {
                "playouts" => json!(playouts),
                "elapsed_ms" => json!(elapsed_ms),
                "threads" => json!(threads),
                _ => Value::Null,
            };
            (k.to_string(), v)
        })
        .collect()
}

/// One root move of an analysis in `--json`, with the keys every game's moves share: `action` (the move
/// in the game's notation), `visits`, `share` (of the root's visits, in [0, 1]), `mean` (the move's mean
/// return for the side to move; null before its first visit) and `pv` (the principal variation after the
/// move: moves and chance outcomes in the game's notation). A game adds its own keys after these.
pub fn action_json<A>(a: &ActionStats<A>) -> Map<String, Value> {
    move_json(&a.name, a.visits, Some(a.share), a.mean, &a.pv)
}

/// [`action_json`] from its parts, for moves a search did not report (visits 0, or agents without a tree).
pub fn move_json(
    action: &str,
    visits: u64,
    share: Option<f64>,
    mean: Option<f64>,
    pv: &[String],
) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("action".into(), json!(action));
    m.insert("visits".into(), json!(visits));
    m.insert("share".into(), json!(share));
    m.insert("mean".into(), json!(mean));
    m.insert("pv".into(), json!(pv));
    m
}

/// The search part every game's `analyze --json` carries, in this order: `best_action` (the chosen move
/// in the game's notation; null when there is none), `pv` (the principal variation from the root, a list
/// in the game's notation that starts with the best move), `root_value` (the root's mean return for the
/// side to move), `actions` (one object per root move, each starting with the keys of [`action_json`]),
/// then the statistics of [`search_stats_json`]. The game's own keys (board, score, ...) stand beside
/// them.
pub fn analysis_json<A>(r: &SearchReport<A>, actions: Vec<Map<String, Value>>) -> Map<String, Value> {
    analysis_parts_json(r.best_name.clone(), r.pv.clone(), r.root_value, actions, search_stats_json(r))
}

/// [`analysis_json`] from its parts (for decisions made without a search tree).
pub fn analysis_parts_json(
    best_action: Option<String>,
    pv: Vec<String>,
    root_value: Option<f64>,
    actions: Vec<Map<String, Value>>,
    stats: Map<String, Value>,
) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("best_action".into(), json!(best_action));
    m.insert("pv".into(), json!(pv));
    m.insert("root_value".into(), json!(root_value));
    m.insert("actions".into(), json!(actions));
    m.extend(stats);
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ticker ticks once per interval passed while the work runs, never after it, and returns the
    /// work's result; work shorter than the interval gets no tick.
    #[test]
    fn the_ticker_ticks_while_the_work_runs() {
        let every = std::time::Duration::from_millis(40);
        let mut ticks = Vec::new();
        let start = std::time::Instant::now();
        let out = ticking(
            every,
            |s| ticks.push(s),
            || {
                std::thread::sleep(std::time::Duration::from_millis(210));
                7
            },
        );
        let elapsed = start.elapsed().as_secs_f64();
        assert_eq!(out, 7);
        // About five (at 40, 80, ... 200 ms; fewer when the machine is busy), at most one per interval
        // passed, each after its interval and none after the work.
        assert!(!ticks.is_empty() && ticks.len() as f64 <= elapsed / 0.04, "{ticks:?} in {elapsed} s");
        for (i, &t) in ticks.iter().enumerate() {
            assert!(t >= 0.04 * (i + 1) as f64 && t <= elapsed, "{ticks:?} in {elapsed} s");
        }
        let mut none = Vec::new();
        ticking(std::time::Duration::from_secs(5), |s| none.push(s), || ());
        assert!(none.is_empty());
    }

    /// In-game lines come once the interval has passed since the last, say how long the game has run,
    /// and never where lines are off.
    #[test]
    fn game_progress_prints_a_line_per_interval_and_none_when_off() {
        let now = std::time::Instant::now();
        let mut on = GameProgress { times: Some((now, now)), every: std::time::Duration::from_millis(300) };
        assert_eq!(on.tick(|| "move 1".into()), None);
        std::thread::sleep(std::time::Duration::from_millis(320));
        let line = on.tick(|| "move 2".into()).expect("a line after the interval");
        assert!(line.starts_with("move 2, ") && line.ends_with(" s into the game"), "{line}");
        assert_eq!(on.tick(|| "move 3".into()), None, "the interval starts again at each line");
        let mut off = GameProgress { times: None, every: std::time::Duration::ZERO };
        assert_eq!(off.tick(|| "move 1".into()), None);
    }
}
