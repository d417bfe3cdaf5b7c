//! Search parameters: each declared once with its range, default and meaning, and copied into the
//! workers when a search starts (the hot loop never reads shared configuration).

/// How a chance node picks the outcome a playout follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ChanceSelection {
    /// The outcome whose visit share lags its probability most (`argmax p_i·(N+1) − n_i`): visit
    /// shares track the probabilities closely with no sampling noise. Deterministic.
    #[default]
    Stratified,
    /// Sample an outcome by its probability with the worker's RNG.
    Sample,
}

/// The selection formula at decision nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Selection {
    /// UCT: `q + C·sqrt(ln N / n)`, unvisited moves first (Kocsis and Szepesvári, ECML 2006).
    #[default]
    Uct,
    /// PUCT: `q + C·P·sqrt(N) / (1 + n)` with the game's priors `P` (Silver et al., "Mastering the game of
    /// Go without human knowledge", Nature 2017; Rosin's PUCB, 2011). Unvisited moves score `q = 0` plus
    /// their exploration term, so a strong prior is tried first.
    Puct,
}

/// What a playout backs up through a decision node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Backup {
    /// The playout's return: a node's value is the mean of the playouts through it (classic MCTS).
    #[default]
    Mean,
    /// Single-player games only: above a decision node, the playout carries the best child's mean
    /// (`max_a reward(a) + mean(child a)` over visited children) instead of its own return, so a chance
    /// node averages its outcomes' best values as expectimax does, rather than the mix of good and
    /// exploratory moves below it (the max backup operator of Coulom, "Efficient selectivity and backup
    /// operators in Monte-Carlo tree search", CG 2006).
    Max,
    /// Single-player games only: as [`Backup::Max`], but the playout carries the mean of the most
    /// visited child (`reward(a) + mean(child a)` for the child edge with the most visits; ties go to
    /// the larger mean) instead of the largest mean, the "robust" choice of Coulom (CG 2006, the same
    /// paper): a child's mean after a few playouts is a noisy estimate, and the largest of several noisy
    /// estimates is biased upward.
    Robust,
}

/// Where the search keeps the statistics that UCT's means come from (Childs, Brodeur and Kocsis,
/// "Transpositions and move groups in Monte Carlo tree search", CIG 2008). The two are the same search
/// where no position is reached by two paths (the tree stays a tree: no transposition table, or none
/// found), and differ in what transposed nodes share and, without MCTS-Solver, in when a transposed
/// position is expanded (see [`Statistics::Edge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Statistics {
    /// UCT2: a move's mean is the mean of the node it leads to, which holds every playout through that
    /// position by any path. Every backup writes each node of the path.
    Node,
    /// UCT1: a move's mean is its edge's own (the playouts that took that move there). A backup writes
    /// the path's edges and, with several workers, no node but the root (and the count of a leaf not
    /// yet expanded, for the expansion threshold): the nodes below the root are read, not written, so
    /// workers hand each other fewer cache lines (docs/BENCHMARKS.md, "Throughput at hot roots", items
    /// 14 to 16). Edges are the same size either way (40 bytes). With MCTS-Solver off, a leaf's node is
    /// created when the leaf is expanded, not when it is first reached (its edge holds its statistics
    /// until then; the transposition table's node for the position is still linked when there is one;
    /// not at the batched plies of several workers, nor below a sampled chance outcome), so the search
    /// creates fewer nodes, and a position reached through several edges is expanded once one of them
    /// reaches the expansion threshold (docs/ARCHITECTURE.md, "One playout"). The default (Gomoku's
    /// search defaults keep [`Statistics::Node`]: [`crate::games::gomoku::DEFAULT_STATISTICS`]).
    #[default]
    Edge,
}

/// Parameters of one search. `Default` gives the documented defaults.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SearchParams {
    /// Stop after this many playouts (all threads together), 1 to [`MAX_PLAYOUTS`]. `None` (the
    /// default): no playout limit; a search given no playout limit, no time limit and no stop flag runs
    /// [`DEFAULT_PLAYOUTS`].
    pub playouts: Option<u64>,
    /// Stop after this many milliseconds of wall time, 1 to [`MAX_TIME_MS`]. `None` (the default): no
    /// time limit. Given alone, the search runs for the whole time (unless MCTS-Solver proves the root
    /// first).
    pub time_ms: Option<u64>,
    /// Memory budget in bytes for the tree and the transposition table together. Past it the search stops
    /// adding nodes and keeps running playouts from the leaves it reaches. At least
    /// [`MIN_MEMORY_BYTES`]; default 1 GiB.
    pub memory_bytes: usize,
    /// Worker threads, 1 to [`MAX_THREADS`]. Default: the number of logical cores (at most
    /// [`MAX_THREADS`]).
    pub threads: usize,
    /// Seed of the workers' RNGs (worker `i` uses stream `i`). With one thread a search is reproducible.
    pub seed: u64,
    /// Pin worker `i` to core `i mod cores` (core_affinity). Default true. A pinned worker waits for its
    /// core: where another program keeps that core busy, the worker gets a share of it and a search
    /// with a time limit overruns it (`canopy play 2048 --time 1 --threads 1` beside a busy loop on core
    /// 0: 3.09 ms a move pinned, 1.07 ms unpinned), so a program on a shared machine turns it off.
    pub pin_threads: bool,
    /// Use the transposition table when the game provides Zobrist keys. Default true.
    pub transposition_table: bool,
    /// UCT exploration constant `C` in `q + C·sqrt(ln N / n)`, on values normalised to `[0, 1]`.
    /// A finite number from 0 to [`MAX_EXPLORATION`]; default 1.0 (Kocsis and Szepesvári's UCT, ECML 2006, uses `sqrt(2)` for rewards in
    /// `[0, 1]`; smaller values exploit more).
    pub exploration: f64,
    /// Selection formula at decision nodes. Default [`Selection::Uct`].
    pub selection: Selection,
    /// Smallest spread of the per-node normalisation, as a fraction of the children's largest absolute
    /// mean: a node whose children's means span `hi - lo` normalises them by `max(hi - lo, min_span ·
    /// max(|lo|, |hi|))`, so that moves within a fraction of a percent of each other are explored as
    /// close, not stretched over `[0, 1]`. Applies where values have no fixed bounds (single-player
    /// scores); range `0.0..=1.0`; default 0 (plain min/max normalisation).
    pub min_span: f64,
    /// Virtual loss: each in-flight playout on an edge counts as this many extra visits with the worst
    /// normalised value (0). 0 to [`MAX_VIRTUAL_LOSS`]; default 1; 0 disables virtual loss.
    pub virtual_loss: u32,
    /// With more than one worker, each worker backs up the edges of this many plies from the root (and
    /// the nodes below them) into its own batch and adds the batch to the tree every `root visits / 64`
    /// playouts (1 to 64): the most shared cache lines are then written once per batch instead of once
    /// per playout, at the price of the other workers seeing those statistics (and this worker's virtual
    /// loss there) late. Range `0..=2`; default 1 (the root's edges); 2 adds the next ply's edges once the
    /// root has 4 096 visits (before that its nodes are small, and two plies batched from the start made
    /// two-thread Gomoku searches of 2 000 playouts a move weaker; docs/BENCHMARKS.md, "Strength at two
    /// threads"); 0 writes every backup at once; one worker always writes at once (docs/CONCURRENCY.md).
    pub batch_plies: u32,
    /// A node is expanded (its children block built) once it has this many visits, 0 to
    /// [`MAX_EXPAND_THRESHOLD`]; default 1
    /// (0 expands a node the first time it is reached, so one playout can descend arbitrarily deep).
    pub expand_threshold: u32,
    /// Chance-node outcome selection. Default [`ChanceSelection::Stratified`].
    pub chance: ChanceSelection,
    /// Backup operator at decision nodes. Default [`Backup::Mean`]. [`Backup::Max`] applies to
    /// single-player games only; with more players the search backs up means (as the solver, which needs
    /// two players, is off in other games).
    pub backup: Backup,
    /// Where UCT's means are kept: in the nodes (UCT2, merged over transpositions) or in the edges (UCT1).
    /// Default [`Statistics::Edge`].
    pub statistics: Statistics,
    /// MCTS-Solver for games that declare [`crate::Game::win_draw_loss`]: proven wins, losses and draws
    /// propagate, are never searched again, and end the search once the root is proven (losses and draws
    /// only over candidate sets that are not [`crate::Coverage::Pruned`]). Other games ignore it;
    /// [`crate::SearchReport::solver`] says which applied. Default true.
    pub solver: bool,
    /// Walk the finished tree and report conservation checks ([`crate::search::TreeAudit`]). Default false.
    pub audit: bool,
    /// Run the search on the code paths of several workers even with one thread: locked
    /// read-modify-writes for the counters, the batched root statistics of [`SearchParams::batch_plies`]
    /// and the transposition table's claims by a locked `fetch_or` (docs/CONCURRENCY.md, I4, I7 and I13). One
    /// thread then pays what each of several workers pays per playout except the cost of sharing cache
    /// lines with them, which is how `canopy bench --model` takes the two apart
    /// (docs/BENCHMARKS.md, "Contention model"). A measuring aid: the tree differs from a one-thread
    /// search's only by the batched root statistics. Default false.
    pub shared_paths: bool,
}

/// Playouts of a search given neither a playout limit, nor a time limit, nor a stop flag (see
/// [`SearchParams::playouts`]).
pub const DEFAULT_PLAYOUTS: u64 = 10_000;

/// Default memory budget: 1 GiB.
pub const DEFAULT_MEMORY_BYTES: usize = 1 << 30;

impl Default for SearchParams {
    fn default() -> Self {
        Self {
            playouts: None,
            time_ms: None,
            memory_bytes: DEFAULT_MEMORY_BYTES,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS as usize),
            seed: 1,
            pin_threads: true,
            transposition_table: true,
            exploration: 1.0,
            selection: Selection::Uct,
            min_span: 0.0,
            virtual_loss: 1,
            batch_plies: 1,
            expand_threshold: 1,
            chance: ChanceSelection::Stratified,
            backup: Backup::Mean,
            statistics: Statistics::Edge,
            audit: false,
            solver: true,
            shared_paths: false,
        }
    }
}

/// Parses a byte count with an optional binary suffix: `1048576`, `512K`, `64MB`, `64MiB`, `2G`, `1GB`
/// (K/M/G/T are powers of 1024; case-insensitive; an optional `B` or `iB` may follow).
///
/// # Errors
/// Returns a one-line message when the text is not a whole number with a known suffix, or overflows.
pub fn parse_bytes(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(split);
    if digits.is_empty() {
        return Err(format!("'{text}' is not a byte count (examples: 1048576, 512MB, 2GiB)"));
    }
    let n: u64 = digits.parse().map_err(|_| format!("'{text}' is too large"))?;
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        other => return Err(format!("unknown size suffix '{other}' in '{text}' (use K, M, G or T)")),
    };
    n.checked_mul(1u64 << shift).and_then(|v| usize::try_from(v).ok()).ok_or_else(|| format!("'{text}' is too large"))
}

/// The machine's physical memory in bytes: `MemTotal` of `/proc/meminfo` on Linux; `None` elsewhere or
/// when it cannot be read. The search never sizes its transposition table past an eighth of it.
pub fn physical_memory_bytes() -> Option<usize> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    // "MemTotal:       24514588 kB"
    let mut fields = line["MemTotal:".len()..].split_whitespace();
    let kib: usize = fields.next()?.parse().ok()?;
    match fields.next() {
        Some("kB") => kib.checked_mul(1024),
        _ => None,
    }
}

/// Largest playout limit a user may set: 10^12 (at a million playouts a second, eleven days).
pub const MAX_PLAYOUTS: u64 = 1_000_000_000_000;
/// Largest time limit a user may set, milliseconds: 10^9 (about eleven days).
pub const MAX_TIME_MS: u64 = 1_000_000_000;
/// Most worker threads a search may have.
pub const MAX_THREADS: u64 = 1024;
/// Smallest memory budget: 64 KiB.
pub const MIN_MEMORY_BYTES: u64 = 1 << 16;
/// Largest exploration constant: values normalised to `[0, 1]` make anything larger pure exploration.
pub const MAX_EXPLORATION: f64 = 100.0;
/// Largest virtual loss per in-flight playout.
pub const MAX_VIRTUAL_LOSS: u64 = 1000;
/// Largest [`SearchParams::batch_plies`] (the plies `search/worker.rs` can batch).
pub const MAX_BATCH_PLIES: u64 = crate::search::worker::BATCH_PLIES as u64;
/// Largest expansion threshold, visits.
pub const MAX_EXPAND_THRESHOLD: u64 = 1_000_000;

use crate::param::{Kind, Param, ParamError, Settings, Store, Value};

/// The engine's parameters, each declared once (see [`crate::param`]).
static SEARCH_PARAMS: &[Param<SearchParams>] = &[
    Param {
        name: "playouts",
        help: "Playouts per search, all threads together (whichever of playouts and time comes first; with neither, 10000)",
        kind: Kind::Int { min: 1, max: MAX_PLAYOUTS },
        store: Store::Int(|p, v| p.playouts = Some(v)),
        get: |p| p.playouts.map_or(Value::Unset, Value::Int),
    },
    Param {
        name: "time",
        help: "Wall time per search, milliseconds",
        kind: Kind::Int { min: 1, max: MAX_TIME_MS },
        store: Store::Int(|p, v| p.time_ms = Some(v)),
        get: |p| p.time_ms.map_or(Value::Unset, Value::Int),
    },
    Param {
        name: "threads",
        help: "Worker threads",
        kind: Kind::Int { min: 1, max: MAX_THREADS },
        store: Store::Int(|p, v| p.threads = v as usize),
        get: |p| Value::Int(p.threads as u64),
    },
    Param {
        name: "seed",
        help: "Seed of the workers' random streams (one thread and a seed: reproducible)",
        kind: Kind::Int { min: 0, max: u64::MAX },
        store: Store::Int(|p, v| p.seed = v),
        get: |p| Value::Int(p.seed),
    },
    Param {
        name: "memory",
        help: "Memory budget of the tree and the transposition table (512MB, 2GiB, ...: K, M, G and T are powers of 1024, \
               with or without B or iB; no more than the machine's memory)",
        kind: Kind::Bytes { min: MIN_MEMORY_BYTES, max: usize::MAX as u64 },
        store: Store::Int(|p, v| p.memory_bytes = v as usize),
        get: |p| Value::Int(p.memory_bytes as u64),
    },
    Param {
        name: "pin",
        help: "Pin worker i to core i (a core busy with another program holds its worker back and timed searches overrun: turn off on a shared machine)",
        kind: Kind::Flag,
        store: Store::Flag(|p, v| p.pin_threads = v),
        get: |p| Value::Flag(p.pin_threads),
    },
    Param {
        name: "tt",
        help: "Use the transposition table where the game has Zobrist keys (a DAG instead of a tree)",
        kind: Kind::Flag,
        store: Store::Flag(|p, v| p.transposition_table = v),
        get: |p| Value::Flag(p.transposition_table),
    },
    Param {
        name: "exploration",
        help: "Exploration constant C of UCT/PUCT, on values normalised to [0, 1]",
        kind: Kind::Real { min: 0.0, max: MAX_EXPLORATION },
        store: Store::Real(|p, v| p.exploration = v),
        get: |p| Value::Real(p.exploration),
    },
    Param {
        name: "selection",
        help: "Selection formula: uct, or puct (with the policy's priors)",
        kind: Kind::Choice(&["uct", "puct"]),
        store: Store::Choice(|p, i| p.selection = [Selection::Uct, Selection::Puct][i]),
        get: |p| Value::Choice(["uct", "puct"][p.selection as usize]),
    },
    Param {
        name: "min_span",
        help: "Smallest spread of the per-node value normalisation, as a fraction of the largest mean (0: min/max)",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        store: Store::Real(|p, v| p.min_span = v),
        get: |p| Value::Real(p.min_span),
    },
    Param {
        name: "virtual_loss",
        help: "Virtual loss per in-flight playout, in visits of the worst value (0: off)",
        kind: Kind::Int { min: 0, max: MAX_VIRTUAL_LOSS },
        store: Store::Int(|p, v| p.virtual_loss = v as u32),
        get: |p| Value::Int(u64::from(p.virtual_loss)),
    },
    Param {
        name: "batch_plies",
        help: "With several threads: plies from the root whose backups each thread batches (fewer shared writes, \
               later statistics for the others; 2: also the second ply, from 4096 root visits on; 0: none)",
        kind: Kind::Int { min: 0, max: MAX_BATCH_PLIES },
        store: Store::Int(|p, v| p.batch_plies = v as u32),
        get: |p| Value::Int(u64::from(p.batch_plies)),
    },
    Param {
        name: "expand_threshold",
        help: "Visits a node needs before its children are built",
        kind: Kind::Int { min: 0, max: MAX_EXPAND_THRESHOLD },
        store: Store::Int(|p, v| p.expand_threshold = v as u32),
        get: |p| Value::Int(u64::from(p.expand_threshold)),
    },
    Param {
        name: "chance",
        help: "Outcome selection at chance nodes: stratified (visit shares follow the probabilities) or sample",
        kind: Kind::Choice(&["stratified", "sample"]),
        store: Store::Choice(|p, i| p.chance = [ChanceSelection::Stratified, ChanceSelection::Sample][i]),
        get: |p| Value::Choice(["stratified", "sample"][p.chance as usize]),
    },
    Param {
        name: "backup",
        help: "Backup at decision nodes of single-player games: mean (the playout's return), max (the best child's mean) or robust (the most visited child's mean)",
        kind: Kind::Choice(&["mean", "max", "robust"]),
        store: Store::Choice(|p, i| p.backup = [Backup::Mean, Backup::Max, Backup::Robust][i]),
        get: |p| Value::Choice(["mean", "max", "robust"][p.backup as usize]),
    },
    Param {
        name: "statistics",
        help: "Where UCT's means are kept: node (UCT2, shared by every path to a position) or edge (UCT1, \
               per move; backups write no node below the root with several threads)",
        kind: Kind::Choice(&["node", "edge"]),
        store: Store::Choice(|p, i| p.statistics = [Statistics::Node, Statistics::Edge][i]),
        get: |p| Value::Choice(["node", "edge"][p.statistics as usize]),
    },
    Param {
        name: "solver",
        help: "MCTS-Solver in two-player win/draw/loss games: proven results propagate and end the search",
        kind: Kind::Flag,
        store: Store::Flag(|p, v| p.solver = v),
        get: |p| Value::Flag(p.solver),
    },
    Param {
        name: "audit",
        help: "Walk the finished tree and report conservation checks",
        kind: Kind::Flag,
        store: Store::Flag(|p, v| p.audit = v),
        get: |p| Value::Flag(p.audit),
    },
];

impl Settings for SearchParams {
    fn params() -> &'static [Param<SearchParams>] {
        SEARCH_PARAMS
    }
}

impl SearchParams {
    /// Checks every parameter against the range its field documents (the ranges the command line
    /// accepts): what [`crate::Search`] and [`crate::Session`] require of the parameters they are given.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] naming the first parameter out of range as the command line and
    /// [`Settings::set`] name it (`time` for [`SearchParams::time_ms`], `memory` for
    /// [`SearchParams::memory_bytes`]), its value and the range in words (`threads: 0 is not a whole
    /// number from 1 to 1024`).
    pub fn check(&self) -> Result<(), ParamError> {
        <Self as Settings>::check(self)
    }
}
