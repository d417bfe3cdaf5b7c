//! Options shared by every searching command, and output helpers.

use canopy_mcts::search::{parse_bytes, Backup, ChanceSelection, SearchParams, SearchReport, Selection};

/// Search options common to all commands.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Playouts per search (all threads together). Default when no --time is given: 10000 (2048's play,
    /// compare and sweep: 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Time per search in milliseconds (whichever of --playouts/--time comes first).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time: Option<u64>,
    /// Worker threads. Default: all logical cores.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Random seed (searches with --threads 1 are reproducible).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Memory budget for the tree and transposition table, e.g. 512MB, 2GiB, 1048576.
    #[arg(long, value_name = "BYTES", default_value = "1GiB", value_parser = parse_memory)]
    pub memory: usize,
    /// Do not pin worker threads to cores.
    #[arg(long)]
    pub no_pin: bool,
    /// Do not use the transposition table (search a tree instead of a DAG).
    #[arg(long)]
    pub no_tt: bool,
    /// UCT exploration constant C (values normalised to [0, 1]). Default 1.0 (gomoku: 0.5; 2048 with
    /// --agent mcts: the tuned value in docs/2048.md).
    #[arg(long, value_parser = parse_non_negative)]
    pub exploration: Option<f64>,
    /// Selection formula: uct, or puct (uses the game's move priors).
    #[arg(long, value_enum, default_value_t = SelectionArg::Uct)]
    pub selection: SelectionArg,
    /// Virtual loss per in-flight playout (0 disables it).
    #[arg(long, default_value_t = 1)]
    pub virtual_loss: u32,
    /// Visits a node needs before it is expanded.
    #[arg(long, default_value_t = 1)]
    pub expand_threshold: u32,
    /// Turn MCTS-Solver off (two-player games): no proven wins or losses, no early stop.
    #[arg(long)]
    pub no_solver: bool,
    /// No progress lines on stderr during long searches.
    #[arg(long)]
    pub no_progress: bool,
    /// Chance-node outcome selection: stratified (visit shares follow the probabilities) or sample.
    #[arg(long, value_enum, default_value_t = ChanceArg::Stratified)]
    pub chance: ChanceArg,
    /// Backup at decision nodes of single-player games: mean (the playout's return) or max (the best
    /// child's mean). Default mean (2048 with --agent mcts: the tuned value in docs/2048.md).
    #[arg(long, value_enum)]
    pub backup: Option<BackupArg>,
}

/// `--backup` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackupArg {
    /// The playout's return (classic MCTS).
    Mean,
    /// The best child's mean (expectimax-like; single-player games).
    Max,
}

impl From<BackupArg> for Backup {
    fn from(b: BackupArg) -> Backup {
        match b {
            BackupArg::Mean => Backup::Mean,
            BackupArg::Max => Backup::Max,
        }
    }
}

/// `--selection` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SelectionArg {
    /// UCT: q + C·sqrt(ln N / n).
    Uct,
    /// PUCT: q + C·P·sqrt(N) / (1 + n) with the game's priors P.
    Puct,
}

/// `--chance` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChanceArg {
    /// The outcome whose visit share lags its probability most.
    Stratified,
    /// Sample outcomes by probability.
    Sample,
}

pub(super) fn parse_memory(text: &str) -> Result<usize, String> {
    let n = parse_bytes(text)?;
    if n < 1 << 16 {
        return Err(format!("memory budget {n} bytes is below the 64KiB minimum"));
    }
    Ok(n)
}

pub(super) fn parse_non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{text}' is not a non-negative number")),
    }
}

impl SearchArgs {
    /// Refuses the options that only single-player games take (`--backup max`) for two-player `game`.
    ///
    /// # Errors
    /// An input error naming the option.
    pub fn two_player(&self, game: &str) -> anyhow::Result<()> {
        if self.backup == Some(BackupArg::Max) {
            return Err(super::input_error(format!(
                "--backup max is for single-player games; {game} is a two-player game"
            )));
        }
        Ok(())
    }

    /// The search parameters these options ask for; `default_playouts` applies when neither --playouts
    /// nor --time is given.
    pub fn params(&self, default_playouts: u64) -> SearchParams {
        self.params_with(default_playouts, SearchParams::default().exploration)
    }

    /// [`SearchArgs::params`] with the game's own default exploration constant.
    pub fn params_with(&self, default_playouts: u64, default_exploration: f64) -> SearchParams {
        let mut p = SearchParams {
            playouts: self.playouts,
            time_ms: self.time,
            memory_bytes: self.memory,
            seed: self.seed,
            pin_threads: !self.no_pin,
            transposition_table: !self.no_tt,
            exploration: self.exploration.unwrap_or(default_exploration),
            virtual_loss: self.virtual_loss,
            selection: match self.selection {
                SelectionArg::Uct => Selection::Uct,
                SelectionArg::Puct => Selection::Puct,
            },
            expand_threshold: self.expand_threshold,
            solver: !self.no_solver,
            chance: match self.chance {
                ChanceArg::Stratified => ChanceSelection::Stratified,
                ChanceArg::Sample => ChanceSelection::Sample,
            },
            backup: self.backup.map_or(Backup::Mean, Backup::from),
            ..SearchParams::default()
        };
        if let Some(t) = self.threads {
            p.threads = t as usize;
        }
        if p.playouts.is_none() && p.time_ms.is_none() {
            p.playouts = Some(default_playouts);
        }
        p
    }
}

/// Runs a search, printing a progress line on stderr every second when it lasts longer than that.
pub fn search_with_progress<G: canopy_mcts::Game>(
    search: &canopy_mcts::search::Search<'_, G>,
    state: &G::State,
    quiet: bool,
) -> SearchReport<G::Action> {
    let mut line = |p: &canopy_mcts::search::Progress| {
        eprintln!(
            "info: {:.1} s  playouts {}  best {}  mean {}",
            p.elapsed_ms / 1e3,
            p.playouts,
            p.best.as_deref().unwrap_or("-"),
            p.best_mean.map_or("-".to_string(), |m| format!("{m:.3}"))
        )
    };
    let progress: Option<canopy_mcts::search::ProgressObserver<'_>> =
        if quiet { None } else { Some((1000, &mut line)) };
    search.run_observed(state, None, progress)
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

/// The search statistics every `--json` analysis carries, in this key order: `playouts`, `root_visits`, `nodes`,
/// `max_depth`, `mean_depth`, `elapsed_ms` (milliseconds), `playouts_per_sec`, `memory_bytes`, `memory_limited`,
/// `table` (null when the transposition table is off), `threads`, `normalisation` and `solver` (whether
/// MCTS-Solver ran: "on", "off: disabled by params" or "off: game is not two-player win/draw/loss").
pub fn search_stats_json<A>(r: &SearchReport<A>) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::json;
    [
        ("playouts", json!(r.playouts)),
        ("root_visits", json!(r.root_visits)),
        ("nodes", json!(r.nodes)),
        ("max_depth", json!(r.max_depth)),
        ("mean_depth", json!(r.mean_depth)),
        ("elapsed_ms", json!(r.elapsed_ms)),
        ("playouts_per_sec", json!(r.playouts_per_sec)),
        ("memory_bytes", json!(r.memory_bytes)),
        ("memory_limited", json!(r.memory_limited)),
        ("table", json!(r.table)),
        ("threads", json!(r.threads)),
        ("normalisation", json!(r.normalisation)),
        ("solver", json!(r.solver)),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_string(), value))
    .collect()
}
