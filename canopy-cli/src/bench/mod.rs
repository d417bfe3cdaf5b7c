//! `canopy bench`: search throughput at several thread counts on fixed positions with a fixed seed.
//!
//! For each thread count the command runs one search of `--playouts` playouts on every position of the
//! game, `--repeat` times, and keeps the fastest run of each (best of N: the noise of a shared machine only
//! ever slows a run down). Each round of a position runs every thread count in turn, so that the
//! speedups compare runs from the same stretch of the machine's time. It reports playouts per second over all positions, the speedup and parallel
//! efficiency against the smallest thread count, and the nodes the searches created. It also times the
//! bare rollout policy, one thread, on the same positions with the same random number generator type
//! (`--playouts` rollouts per position), so the cost of the tree shows as the ratio "vs rollouts"; with 1
//! in `--threads` each round's bare rollouts run right before its one-thread search, so that both rates
//! see the same stretch of the machine's time.
//!
//! With one thread a search is reproducible, so its node count is a checksum of the search: the last line,
//! `N nodes M nps` (nodes created by the one-thread searches and nodes per second), must not change when a
//! change is meant to leave the search alone.

mod cpu;
mod measure;
mod model;
mod output;

use std::io::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use clap::{ArgMatches, Command};

use super::common::{self, comma_list, parse_memory, SquareSide, Whole};
use super::{input_error, params};
use canopy_mcts::games::fixtures::{self, Fixture, SNAKE_MIN_SIDE};
use canopy_mcts::games::g2048::{G2048Policy, G2048};
use canopy_mcts::games::gomoku::{
    Gomoku, GomokuPolicy, RolloutPolicy as GomokuRollout, Rule, MAX_SIZE as GOMOKU_MAX, MIN_SIZE as GOMOKU_MIN,
};
use canopy_mcts::games::snake::{Snake, SnakePolicy, MAX_SIDE as SNAKE_MAX};
use canopy_mcts::games::synthetic::{
    Synthetic, SyntheticPolicy, BRANCHING as SYNTHETIC_BRANCHING, DEPTH as SYNTHETIC_DEPTH,
};
use canopy_mcts::games::tictactoe::TicTacToe;
use canopy_mcts::param::Settings;
use canopy_mcts::policy::UniformPolicy;
use canopy_mcts::search::SearchParams;
use measure::bench_game;
use output::{plot_svg, print_report};

/// Runs per position and thread count (`--repeat`).
const REPEAT: Whole = Whole { min: 1, max: 100 };
/// Gomoku's bench boards (`--size`).
const GOMOKU_SIDE: Whole = Whole { min: GOMOKU_MIN as u64, max: GOMOKU_MAX as u64 };
/// Snake's bench boards (`--size`).
const SNAKE_SIDE: Whole = Whole { min: SNAKE_MIN_SIDE as u64, max: SNAKE_MAX as u64 };
/// `--branching` of the synthetic tree.
const BRANCHING: Whole = Whole { min: SYNTHETIC_BRANCHING.0 as u64, max: SYNTHETIC_BRANCHING.1 as u64 };
/// `--depth` of the synthetic tree.
const DEPTH: Whole = Whole { min: SYNTHETIC_DEPTH.0 as u64, max: SYNTHETIC_DEPTH.1 as u64 };

/// Arguments of `canopy bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The game.
    #[arg(long, value_enum, default_value_t = BenchGame::G2048)]
    pub game: BenchGame,
    /// Board side, N or NxN (the positions are square boards): gomoku 5..=20 (default 15), snake 6..=32
    /// (default 10).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = SquareSide::read)]
    pub size: Option<SquareSide>,
    /// Synthetic tree: moves per position, 2..=64 (default 8).
    #[arg(long, allow_negative_numbers = true, value_parser = |t: &str| BRANCHING.parse_u32(t))]
    pub branching: Option<u32>,
    /// Synthetic tree: plies from the root to the leaves, 1..=64 (default 12).
    #[arg(long, allow_negative_numbers = true, value_parser = |t: &str| DEPTH.parse_u32(t))]
    pub depth: Option<u32>,
    /// Thread counts to measure, comma-separated (e.g. 1,2,4), each 1..=1024. Default: 1, 2, 4, ... up to
    /// the logical cores, and the core count itself.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true, value_parser = parse_thread_list)]
    pub threads: Option<ThreadList>,
    /// Runs per position and thread count, 1..=100; the fastest one counts (with 2 or more, the column
    /// "spread" gives how much slower the slowest was).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = |t: &str| REPEAT.parse_u32(t))]
    pub repeat: u32,
    /// Rollout policy: the game's own search policy (`game`) or uniform random (`uniform`: the uniform
    /// policy, every legal move expanded and played at random; gomoku: its own policy's candidates with
    /// uniformly random empty cells until a five). Default: game, except gomoku: uniform (plain UCT, the
    /// setting other engines' figures use).
    #[arg(long, value_enum)]
    pub rollout: Option<RolloutArg>,
    #[command(flatten)]
    pub search: BenchSearch,
    /// Also fit the contention model to the 1- and 2-thread figures (it measures the cache-line transfer
    /// between two cores, and one thread on the several-worker code paths, which splits the second
    /// thread's loss into the cost of those paths and the cost of sharing cache lines) and predict the
    /// efficiency at 2 to 128 threads (needs 1 and 2 in --threads; its inputs are timings, so run it on an
    /// idle machine; docs/BENCHMARKS.md, "Contention model").
    #[arg(long)]
    pub model: bool,
    /// Also run, at each thread count T from 2 up to the logical cores, T one-worker searches at once,
    /// each with its own tree (and the whole --memory budget) and its thread on its own core, each doing
    /// the one-thread search's work: the speedup over one thread that T workers reach on this machine
    /// when they share no tree, the ceiling of the shared tree's (the columns "unshared" and "of
    /// unshared", a column per T in the positions' table, and a second line in --plot; needs 1 in
    /// --threads and a count from 2 up to the logical cores; its inputs are timings, so run it on an idle
    /// machine).
    #[arg(long)]
    pub unshared: bool,
    /// Also split each position's one-thread time per playout into the search's own rollouts and the
    /// tree (selection, expansion, the moves down the path, the table, backup): each position is
    /// searched --repeat times more on one thread with a clock read around every rollout, and the
    /// fastest of those runs is split; beside it the most the tree may cost for "vs rollouts" to reach
    /// 0.85 (the table "one thread, split"; JSON `split`; needs 1 in --threads; docs/BENCHMARKS.md,
    /// section What "vs rollouts" asks of the tree).
    #[arg(long)]
    pub split: bool,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also draw playouts/s and parallel efficiency against threads into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// The search options of `canopy bench`, made from the library's parameter declarations as every
/// searching command's are (see [`super::search_args`]), less those bench sets itself or has no use for
/// ([`BENCH_SKIPPED`]). `--playouts` applies to every search and to the bare rollouts; its default depends
/// on the game (see [`run`]), so it is `None` when not given.
#[derive(Debug, Clone)]
pub struct BenchSearch {
    /// The parameters as given, on top of [`bench_defaults`].
    pub params: SearchParams,
    /// The names of the parameters given, in declaration order.
    pub given: Vec<&'static str>,
}

/// Declared search parameters that only games with chance events and unbounded values (2048, Snake)
/// take: the others' searches never read them.
const CHANCE_ONLY: [&str; 2] = ["chance", "min_span"];

/// Declared search parameters `canopy bench` does not take as search options: `threads` (bench's own
/// `--threads` is a list of counts to measure), `time` (a throughput is measured on a fixed number of
/// playouts), `solver` (it could end a search early), and `selection`, `backup` and `audit`.
const BENCH_SKIPPED: [&str; 6] = ["threads", "time", "solver", "selection", "backup", "audit"];

/// The search parameters of `canopy bench` before the options: the declared defaults, one thread, no
/// playout or time limit, and no solver (throughput is measured on a fixed amount of work: the solver
/// could end a search early).
fn bench_defaults() -> SearchParams {
    SearchParams { playouts: None, time_ms: None, threads: 1, solver: false, ..SearchParams::default() }
}

impl clap::Args for BenchSearch {
    fn augment_args(cmd: Command) -> Command {
        let cmd = params::add_flags(cmd, &bench_defaults(), "Search options", &BENCH_SKIPPED, true);
        // The declared help speaks of searches with a time limit too, which `bench` does not take.
        let range = SearchParams::param("playouts").map(|p| p.kind.to_string()).unwrap_or_default();
        let cmd = CHANCE_ONLY.iter().fold(cmd, |cmd, name| {
            cmd.mut_arg(params::id(name), |a| {
                let help = a.get_help().map(ToString::to_string).unwrap_or_default();
                a.help(format!("{help} (--game 2048 and --game snake only)"))
            })
        });
        cmd.mut_arg(params::id("playouts"), |a| {
            a.help(format!(
                "Playouts of each search (all threads together), and bare rollouts per position; the default \
                 depends on the game (below) [{range}]"
            ))
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for BenchSearch {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let invalid = |msg: String| clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{msg}\n"));
        let mut p = bench_defaults();
        params::apply(m, &mut p).map_err(invalid)?;
        if let Some((_, text)) = params::given::<SearchParams>(m).iter().find(|(n, _)| *n == "memory") {
            parse_memory(text).map_err(|e| invalid(format!("--memory: {e}")))?;
        }
        let given = params::given::<SearchParams>(m).into_iter().map(|(name, _)| name).collect();
        Ok(BenchSearch { params: p, given })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The games `canopy bench` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchGame {
    /// 2048: a fresh start, an early-game and a middle-game board.
    #[value(name = "2048")]
    G2048,
    /// Tic-tac-toe: the empty board and a two-stone position.
    Tictactoe,
    /// Gomoku (freestyle, --size 5..=20): the empty board, an opening and, from 11x11 up, a middle game.
    Gomoku,
    /// Snake (--size 6..=32): a one-cell snake and an eight-cell snake.
    Snake,
    /// A synthetic two-player tree (--branching, --depth) with a constant-time evaluation: the engine's
    /// own cost per playout, apart from any game.
    Synthetic,
}

impl BenchGame {
    /// Whether the game has chance events (and values without fixed bounds), so that the search
    /// parameters of [`CHANCE_ONLY`] apply to it.
    fn has_chance(self) -> bool {
        matches!(self, BenchGame::G2048 | BenchGame::Snake)
    }
}

/// The shape of the synthetic tree.
#[derive(Clone, Copy, Debug, Serialize)]
struct TreeShape {
    branching: u32,
    depth: u32,
}

/// `--rollout` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RolloutArg {
    /// The game's own search policy (2048: `G2048Policy`, snake: `SnakePolicy`, gomoku: `GomokuPolicy`).
    Game,
    /// The uniform policy (every legal move expanded, uniform random legal actions and sampled chance
    /// outcomes in rollouts); gomoku: `GomokuPolicy`'s candidates with uniformly random empty cells
    /// anywhere on the board until a five.
    Uniform,
}

/// A sorted list of distinct thread counts (`--threads 1,2,4`; a count given twice is refused).
#[derive(Clone, Debug)]
pub struct ThreadList(pub Vec<usize>);

/// Reads `--threads`: each count is checked by the declaration of the `threads` search parameter.
fn parse_thread_list(text: &str) -> Result<ThreadList, String> {
    let declared = SearchParams::param("threads").expect("threads is a declared search parameter");
    let mut list = Vec::new();
    for token in comma_list(text).map_err(|e| format!("{e} (example: --threads 1,2,4)"))? {
        let mut p = bench_defaults();
        declared.apply(&mut p, token).map_err(|e| {
            let why = match e {
                canopy_mcts::param::ParamError::Invalid { value, range, .. } => format!("{value} is not {range}"),
                other => other.to_string(),
            };
            format!("{why} (example: --threads 1,2,4)")
        })?;
        if list.contains(&p.threads) {
            return Err(format!("{} is listed twice in '{text}' (example: --threads 1,2,4)", p.threads));
        }
        list.push(p.threads);
    }
    list.sort_unstable();
    Ok(ThreadList(list))
}

/// 1, 2, 4, ... up to the logical cores, and the core count itself.
fn default_threads() -> Vec<usize> {
    let cores = logical_cores();
    let mut list: Vec<usize> =
        std::iter::successors(Some(1usize), |t| Some(t * 2)).take_while(|&t| t <= cores).collect();
    if list.last() != Some(&cores) {
        list.push(cores);
    }
    list
}

/// What one bench run measures: everything but the game.
struct Config {
    threads: Vec<usize>,
    playouts: u64,
    repeat: u32,
    params: SearchParams,
    /// Also measure one thread on the several-worker code paths (`--model`).
    shared_paths_pass: bool,
    /// Also measure T one-worker searches at once at each thread count T from 2 up to the logical
    /// cores (`--unshared`).
    unshared_pass: bool,
    /// Also time the rollouts inside one-thread searches (`--split`).
    split_pass: bool,
}

/// Bare rollout figures of one position.
#[derive(Clone, Debug, Serialize)]
struct PositionInfo {
    name: String,
    position: String,
    /// Rollouts per second, one thread, best of `repeat`.
    rollouts_per_sec: f64,
    /// Mean return of the rollouts for the player to move (a checksum: the same seed gives the same mean).
    rollout_mean_return: f64,
}

/// One position's fastest search at one thread count.
#[derive(Clone, Debug, Serialize)]
struct PositionRun {
    name: String,
    playouts: u64,
    elapsed_ms: f64,
    playouts_per_sec: f64,
    nodes: u64,
    max_depth: u64,
    /// Mean playout path length (deterministic with one thread, and seed-dependent).
    mean_depth: f64,
    /// Share of the playouts through the most visited root move.
    top_share: f64,
    memory_limited: bool,
    /// The slowest of the `repeat` runs' wall time (`elapsed_ms` is the fastest's).
    slowest_ms: f64,
}

/// All positions at one thread count.
#[derive(Clone, Debug, Serialize)]
struct ThreadResult {
    threads: usize,
    /// Playouts over all positions.
    playouts: u64,
    /// Sum over the positions of the fastest search's wall time.
    elapsed_ms: f64,
    playouts_per_sec: f64,
    /// `playouts_per_sec` divided by that of the baseline (the smallest thread count).
    speedup: f64,
    /// `speedup` divided by `threads / baseline_threads`.
    efficiency: f64,
    /// Nodes created by the fastest searches (with one thread: by every run, they are identical).
    nodes: u64,
    nodes_per_sec: f64,
    /// `playouts_per_sec` divided by the bare `rollouts_per_sec`.
    vs_rollouts: f64,
    memory_limited: bool,
    /// How much slower the slowest runs were than the fastest: the positions' slowest wall times summed,
    /// divided by their fastest summed, minus 1 (0 with `--repeat 1`). The machine's own run-to-run
    /// noise at this setting.
    spread: f64,
    positions: Vec<PositionRun>,
    /// `threads` one-worker searches at once, nothing shared (`--unshared`, thread counts above one).
    #[serde(skip_serializing_if = "Option::is_none")]
    unshared: Option<Unshared>,
}

/// `threads` one-worker searches run at once, each with its own tree and its thread on its own core, each
/// doing the one-thread search's work on every position (`--unshared`): what the machine gives that many
/// workers when they share no cache line.
#[derive(Clone, Debug, Serialize)]
struct Unshared {
    /// Playouts of all the searches over all positions.
    playouts: u64,
    /// Sum over the positions of the fastest round's wall time, from the common start to the last search's
    /// end.
    elapsed_ms: f64,
    playouts_per_sec: f64,
    /// Nodes the searches created.
    nodes: u64,
    /// Whether the memory budget stopped a search's tree from growing.
    memory_limited: bool,
    /// `playouts_per_sec` divided by the baseline's (the shared tree's at the smallest thread count): the
    /// ceiling of the shared tree's speedup.
    speedup: f64,
    /// The shared tree's speedup divided by `speedup`: the share of the machine's own scaling the shared
    /// tree keeps.
    shared_share: f64,
    /// The same figures position by position, in the order of the report's positions.
    positions: Vec<UnsharedPosition>,
}

/// [`Unshared`] on one position.
#[derive(Clone, Debug, Serialize)]
struct UnsharedPosition {
    name: String,
    /// Playouts of all the searches on this position.
    playouts: u64,
    /// The fastest round's wall time, from the common start to the last search's end.
    elapsed_ms: f64,
    playouts_per_sec: f64,
    /// `playouts_per_sec` divided by the baseline's on this position.
    speedup: f64,
    /// The shared tree's rate on this position at the same thread count divided by `playouts_per_sec`.
    shared_share: f64,
}

/// One position's one-thread time per playout split into the search's own rollouts and the tree
/// (`--split`), in microseconds.
#[derive(Clone, Debug, Serialize)]
struct PositionSplit {
    name: String,
    /// A bare rollout from the position (the inverse of its `rollouts_per_sec`).
    bare_us: f64,
    /// The one-thread search's time per playout (the fastest run's, as in `results`).
    search_us: f64,
    /// `bare_us / search_us`: the position's own "vs rollouts" (`results` gives it over all positions
    /// together).
    vs_rollouts: f64,
    /// The time per playout of the fastest of `repeat` searches with a clock read around every rollout
    /// (the same search: one thread and the seed), which `rollout_us` and `tree_us` split.
    timed_search_us: f64,
    /// The time that search spent in the policy's rollouts, per playout (a playout that ends at a
    /// terminal node in the tree runs none).
    rollout_us: f64,
    /// Rollouts per playout in that search.
    rollouts_per_playout: f64,
    /// `timed_search_us - rollout_us`: the tree's own work per playout.
    tree_us: f64,
    /// `bare_us / 0.85 - rollout_us`: the most the tree may cost for "vs rollouts" to reach 0.85 on the
    /// position (below zero where the search's rollouts alone cost more).
    budget_us: f64,
    /// The clock reads' share of `timed_search_us`: a pair of reads (measured just before the
    /// searches) per rollout, about half of which falls inside the timed rollout and half in the tree.
    /// Above 0.1 the split is rough: the rollouts are not much longer than a clock read.
    clock_share: f64,
}

/// Everything `canopy bench` reports.
#[derive(Clone, Debug, Serialize)]
struct BenchReport {
    game: &'static str,
    size: Option<usize>,
    /// The synthetic tree's shape (`--game synthetic` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    tree: Option<TreeShape>,
    rollout: RolloutArg,
    rollout_policy: &'static str,
    seed: u64,
    playouts_per_position: u64,
    repeat: u32,
    pinned: bool,
    transposition_table: bool,
    memory_bytes: usize,
    /// The search settings that shape the tree (the rest are the declared defaults).
    exploration: f64,
    /// `SearchParams::min_span`: the smallest range values are normalised by, relative to their size
    /// (2048 and Snake only: the other games' values lie on fixed bounds).
    #[serde(skip_serializing_if = "Option::is_none")]
    min_span: Option<f64>,
    /// `SearchParams::chance`: how chance nodes pick their outcome, `stratified` or `sample` (2048 and
    /// Snake only: the other games have no chance events).
    #[serde(skip_serializing_if = "Option::is_none")]
    chance: Option<String>,
    /// `SearchParams::statistics`: where UCT's means are kept (`node` or `edge`).
    statistics: String,
    virtual_loss: u32,
    batch_plies: u32,
    expand_threshold: u32,
    logical_cores: usize,
    /// The one-minute load average when the run started (Linux), to tell an idle machine's figures from
    /// a busy one's.
    #[serde(skip_serializing_if = "Option::is_none")]
    load_average: Option<f64>,
    node_bytes: usize,
    edge_bytes: usize,
    positions: Vec<PositionInfo>,
    rollouts: u64,
    rollout_elapsed_ms: f64,
    rollouts_per_sec: f64,
    baseline_threads: usize,
    results: Vec<ThreadResult>,
    /// One thread on the code paths of several workers (`SearchParams::shared_paths`; `--model` only):
    /// what a worker pays per playout among others, less the cost of sharing cache lines with them.
    #[serde(skip_serializing_if = "Option::is_none")]
    shared_paths: Option<ThreadResult>,
    /// The contention model (`--model`).
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<model::Model>,
    /// Each position's one-thread time per playout split into rollouts and tree (`--split`).
    #[serde(skip_serializing_if = "Option::is_none")]
    split: Option<Vec<PositionSplit>>,
    /// The time of a pair of clock reads around a rollout, in microseconds (`--split`).
    #[serde(skip_serializing_if = "Option::is_none")]
    clock_pair_us: Option<f64>,
    /// The time to hand a cache line between the cores of workers 0 and 1 just before and just after
    /// the searches; with a thread count above 1 on two logical cores or more.
    #[serde(skip_serializing_if = "Option::is_none")]
    line_transfer_ns: Option<LineTransfer>,
    /// The thread counts `--unshared` did not measure: those above the logical cores.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unshared_not_measured: Vec<usize>,
    /// The shares of all the cores' time that other programs used, and that a virtual machine's host
    /// took, from the first timed search to the end of the measurements (Linux).
    #[serde(skip_serializing_if = "Option::is_none")]
    cpu_during_run: Option<cpu::CpuShare>,
    /// The CPU time counters when the timed searches began.
    #[serde(skip)]
    cpu_start: Option<cpu::CpuTimes>,
}

/// Nanoseconds per cache-line hand-over between the cores of workers 0 and 1 (a ping-pong of
/// [`model::HANDOVERS`], best of [`LINE_TRANSFER_REPEAT`]), before and after the searches. On a virtual
/// machine it can move by several times while the searches run (the host places the virtual cores), and
/// a shared tree's speedup with it (docs/BENCHMARKS.md, "The line transfer moves under the search").
#[derive(Clone, Copy, Debug, Serialize)]
struct LineTransfer {
    before: f64,
    after: f64,
    /// The two differ by more than [`LINE_TRANSFER_DRIFT`] times: the machine changed during the run.
    drifted: bool,
}

impl LineTransfer {
    /// The two measurements, and whether they differ by more than [`LINE_TRANSFER_DRIFT`] times.
    fn new(before: f64, after: f64) -> Self {
        LineTransfer { before, after, drifted: before.max(after) > LINE_TRANSFER_DRIFT * before.min(after) }
    }
}

/// Best of this many ping-pongs for each [`LineTransfer`] figure.
const LINE_TRANSFER_REPEAT: u32 = 3;

/// A ratio of the hand-over times before and after the searches above which `canopy bench` warns that
/// the machine changed while it measured (the 31 and 160-170 ns states of docs/BENCHMARKS.md differ by
/// five times; repeated measurements in one state within a few percent).
const LINE_TRANSFER_DRIFT: f64 = 1.5;

/// The hand-over time now (ns), where `threads` has a count above 1, the machine two logical cores and
/// the workers are pinned (unpinned, the two threads of the ping-pong may take turns on one core, and it
/// measures the scheduler).
fn line_transfer_now(threads: &[usize], pinned: bool) -> Option<f64> {
    (pinned && threads.iter().any(|&t| t > 1) && logical_cores() >= 2)
        .then(|| model::line_transfer_us(LINE_TRANSFER_REPEAT, true, model::HANDOVERS) * 1e3)
}

/// Runs `canopy bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let threads = args.threads.as_ref().map_or_else(default_threads, |t| t.0.clone());
    if args.unshared && !(threads.contains(&1) && threads.iter().any(|&t| t > 1)) {
        return Err(input_error(
            "--unshared compares T searches with one thread: give --threads with 1 and a count above 1 (e.g. 1,2)",
        ));
    }
    let cores = logical_cores();
    if args.unshared && !threads.iter().any(|&t| t > 1 && t <= cores) {
        return Err(input_error(format!(
            "--unshared runs T searches on T of this machine's {cores} logical cores: give --threads with a count above 1 \
             and at most {cores} (e.g. 1,2)"
        )));
    }
    if args.split && !threads.contains(&1) {
        return Err(input_error("--split divides the one-thread searches' time: give --threads with 1 (e.g. 1,2)"));
    }
    if args.model && !(threads.contains(&1) && threads.contains(&2)) {
        return Err(input_error("--model fits the 1- and 2-thread figures: give --threads with 1 and 2 (e.g. 1,2)"));
    }
    if args.game != BenchGame::Synthetic {
        for (flag, given) in [("--branching", args.branching.is_some()), ("--depth", args.depth.is_some())] {
            if given {
                return Err(input_error(format!("{flag} applies to --game synthetic only")));
            }
        }
    }
    if !args.game.has_chance() {
        if let Some(name) = CHANCE_ONLY.iter().find(|name| args.search.given.contains(name)) {
            let why = match *name {
                "chance" => "the other games have no chance events",
                _ => "the other games' values lie on fixed bounds",
            };
            return Err(input_error(format!(
                "--{} applies to --game 2048 and --game snake only ({why})",
                name.replace('_', "-")
            )));
        }
    }
    // The side as given, checked against the game's bench boards.
    let side = |range: Whole, what: &str, default: usize| -> anyhow::Result<usize> {
        match &args.size {
            Some(s) => s.check(range, what).map(|()| s.side).map_err(|e| input_error(format!("--size: {e}"))),
            None => Ok(default),
        }
    };
    let size = match (args.game, &args.size) {
        (BenchGame::G2048 | BenchGame::Tictactoe | BenchGame::Synthetic, Some(_)) => {
            return Err(input_error("--size applies to --game gomoku and --game snake only"))
        }
        (BenchGame::Gomoku, _) => Some(side(GOMOKU_SIDE, "gomoku's bench boards", 15)?),
        (BenchGame::Snake, _) => Some(side(SNAKE_SIDE, "snake's bench boards", 10)?),
        (_, None) => None,
    };
    let default_playouts = match (args.game, size) {
        (BenchGame::G2048, _) => 20_000,
        (BenchGame::Tictactoe, _) => 50_000,
        (BenchGame::Gomoku, Some(s)) if s <= 9 => 20_000,
        (BenchGame::Gomoku, _) => 10_000,
        (BenchGame::Snake, _) => 20_000,
        (BenchGame::Synthetic, _) => 100_000,
    };
    let playouts = args.search.params.playouts.unwrap_or(default_playouts);
    let params = SearchParams { playouts: Some(playouts), ..args.search.params.clone() };
    let cfg = Config {
        threads,
        playouts,
        repeat: args.repeat,
        params,
        shared_paths_pass: args.model,
        unshared_pass: args.unshared,
        split_pass: args.split,
    };
    // Open the plot file first, so that a bad path fails before the measurements rather than after.
    let plot_file = match &args.plot {
        Some(path) => Some((path, common::create_output("--plot", path)?)),
        None => None,
    };

    // Every check has passed: the note goes out only for a run that measures.
    let over: Vec<String> = cfg.threads.iter().filter(|&&t| t > cores).map(|t| t.to_string()).collect();
    if !over.is_empty() {
        eprintln!(
            "canopy bench: note: --threads {} exceeds this machine's {cores} logical cores: those workers share \
             cores, so their figures measure oversubscription, not scaling",
            over.join(",")
        );
    }

    let load_average = load_average();
    let pinned = args.search.params.pin_threads;
    let transfer_before = line_transfer_now(&cfg.threads, pinned);
    let rollout = args.rollout.unwrap_or(RolloutArg::Game);
    let report = match args.game {
        BenchGame::G2048 => match rollout {
            RolloutArg::Game => {
                let policy = "uniform random moves and spawns (G2048Policy's allocation-free playout)";
                bench_game(&G2048, &G2048Policy::default(), "2048", size, fixtures::g2048(), policy, rollout, &cfg)
            }
            RolloutArg::Uniform => {
                bench_game(&G2048, &UniformPolicy, "2048", size, fixtures::g2048(), UNIFORM, rollout, &cfg)
            }
        },
        BenchGame::Tictactoe => {
            let policy = match rollout {
                RolloutArg::Game => "uniform random (tic-tac-toe is searched with the uniform policy)",
                RolloutArg::Uniform => UNIFORM,
            };
            bench_game(&TicTacToe, &UniformPolicy, "tictactoe", size, fixtures::tictactoe(), policy, rollout, &cfg)
        }
        BenchGame::Gomoku => {
            let n = size.unwrap_or(15);
            let game = Gomoku::new(n, Rule::Freestyle);
            // The empty board's move list is empty: the tables show it by name.
            let positions: Vec<Fixture<_>> = fixtures::gomoku(&game)
                .into_iter()
                .map(|f| Fixture { text: if f.text.is_empty() { "(empty board)".into() } else { f.text }, ..f })
                .collect();
            match args.rollout.unwrap_or(RolloutArg::Uniform) {
                RolloutArg::Game => {
                    let policy = "GomokuPolicy's rollout: a winning cell, else a block of the opponent's win, else a \
                                  straight four or a block of the opponent's, else a uniform random cell within \
                                  distance 1 of a stone";
                    let search = GomokuPolicy::default();
                    bench_game(&game, &search, "gomoku", size, positions, policy, RolloutArg::Game, &cfg)
                }
                RolloutArg::Uniform => {
                    let search = GomokuPolicy::default().with_rollout_policy(GomokuRollout::Uniform);
                    let policy = "uniformly random empty cells until a five or a full board (GomokuPolicy's \
                                  allocation-free uniform playout)";
                    bench_game(&game, &search, "gomoku", size, positions, policy, RolloutArg::Uniform, &cfg)
                }
            }
        }
        BenchGame::Snake => {
            let n = size.unwrap_or(10);
            let game = Snake::new(n, n);
            match rollout {
                RolloutArg::Game => {
                    let policy = "SnakePolicy (random safe moves, stops after width*height moves without food)";
                    bench_game(&game, &SnakePolicy::new(n, n), "snake", size, fixtures::snake(n), policy, rollout, &cfg)
                }
                RolloutArg::Uniform => {
                    bench_game(&game, &UniformPolicy, "snake", size, fixtures::snake(n), UNIFORM, rollout, &cfg)
                }
            }
        }
        BenchGame::Synthetic => {
            let game = Synthetic::new(args.branching.unwrap_or(8), args.depth.unwrap_or(12)).map_err(input_error)?;
            let policy = "a constant-time evaluation (the first player's chance as a logistic function of the move \
                          values' sum; no moves played)";
            let mut report = bench_game(
                &game,
                &SyntheticPolicy,
                "synthetic",
                None,
                fixtures::synthetic(&game),
                policy,
                rollout,
                &cfg,
            );
            report.tree = Some(TreeShape { branching: game.branching(), depth: game.depth() });
            report
        }
    };

    let mut report = report;
    if !args.game.has_chance() {
        // Settings these searches never read.
        (report.min_span, report.chance) = (None, None);
    }
    report.load_average = load_average;
    report.cpu_during_run = report.cpu_start.zip(cpu::CpuTimes::now()).and_then(|(a, b)| a.share_until(&b));
    if let (true, Some(c)) = (args.json, report.cpu_during_run.filter(cpu::CpuShare::notable)) {
        // The tables say so under them; JSON readers get the line on stderr.
        eprintln!(
            "canopy bench: other programs used {:.0}% of the cores' time during the run and the host {:.0}%: the \
             timings shared the cores",
            c.others * 100.0,
            c.steal * 100.0
        );
    }
    report.line_transfer_ns = transfer_before
        .zip(line_transfer_now(&cfg.threads, pinned))
        .map(|(before, after)| LineTransfer::new(before, after));
    if args.unshared {
        report.unshared_not_measured = cfg.threads.iter().copied().filter(|&t| t > report.logical_cores).collect();
    }
    if args.model {
        // The hand-over just measured after the searches, where there is one.
        let after_us = report.line_transfer_ns.map(|t| t.after / 1e3);
        report.model = fit_model(&report, args.repeat, args.search.params.pin_threads, after_us);
    }

    if let Some((path, mut file)) = plot_file {
        file.write_all(plot_svg(&report).as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write the plot to {}: {e}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    Ok(())
}

/// The logical cores the operating system lets this process use (1 where it does not say).
fn logical_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The one-minute load average from `/proc/loadavg` (`None` where there is none).
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// The contention model of `report`'s 1- and 2-thread figures ([`model`]); `None` when they give nothing
/// to fit.
/// `line_transfer_us`: the hand-over time already measured after the searches, if any (else measured
/// here).
fn fit_model(report: &BenchReport, repeat: u32, pinned: bool, line_transfer_us: Option<f64>) -> Option<model::Model> {
    let at = |t: usize| report.results.iter().find(|r| r.threads == t);
    let (one, two) = (at(1)?, at(2)?);
    let per_playout_us = |r: &ThreadResult| r.threads as f64 * 1e6 / r.playouts_per_sec;
    let playouts: u64 = one.positions.iter().map(|p| p.playouts).sum();
    let top_share = one.positions.iter().map(|p| p.top_share * p.playouts as f64).sum::<f64>() / playouts.max(1) as f64;
    let c_x = line_transfer_us.unwrap_or_else(|| model::line_transfer_us(repeat, pinned, model::HANDOVERS));
    // Without the shared-paths pass the one-thread figure stands in for it (the older model).
    let t1s = report.shared_paths.as_ref().map_or(per_playout_us(one), per_playout_us);
    model::Model::fit(per_playout_us(one), t1s, per_playout_us(two), c_x, top_share)
}

const UNIFORM: &str =
    "uniform random legal actions and sampled chance outcomes (the uniform policy: every legal move expanded)";
