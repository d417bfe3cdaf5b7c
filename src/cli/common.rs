//! Options shared by every searching command, and output helpers.

use crate::search::{parse_bytes, ChanceSelection, SearchParams, SearchReport};

/// Search options common to all commands.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Playouts per search (all threads together). Default: 10000 when no --time is given.
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
    /// UCT exploration constant C (values normalised to [0, 1]). Default 1.0; 2048 with --agent mcts: the
    /// tuned value in docs/2048.md.
    #[arg(long, value_parser = parse_non_negative)]
    pub exploration: Option<f64>,
    /// Virtual loss per in-flight playout (0 disables it).
    #[arg(long, default_value_t = 1)]
    pub virtual_loss: u32,
    /// Visits a node needs before it is expanded.
    #[arg(long, default_value_t = 1)]
    pub expand_threshold: u32,
    /// Chance-node outcome selection: stratified (visit shares follow the probabilities) or sample.
    #[arg(long, value_enum, default_value_t = ChanceArg::Stratified)]
    pub chance: ChanceArg,
}

/// The exploration constant when `--exploration` is not given (a game may choose its own).
pub const DEFAULT_EXPLORATION: f64 = 1.0;

/// `--chance` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChanceArg {
    /// The outcome whose visit share lags its probability most.
    Stratified,
    /// Sample outcomes by probability.
    Sample,
}

fn parse_memory(text: &str) -> Result<usize, String> {
    let n = parse_bytes(text)?;
    if n < 1 << 16 {
        return Err(format!("memory budget {n} bytes is below the 64KiB minimum"));
    }
    Ok(n)
}

fn parse_non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{text}' is not a non-negative number")),
    }
}

impl SearchArgs {
    /// The search parameters these options ask for; `default_playouts` applies when neither --playouts
    /// nor --time is given.
    pub fn params(&self, default_playouts: u64) -> SearchParams {
        let mut p = SearchParams {
            playouts: self.playouts,
            time_ms: self.time,
            memory_bytes: self.memory,
            seed: self.seed,
            pin_threads: !self.no_pin,
            transposition_table: !self.no_tt,
            exploration: self.exploration.unwrap_or(DEFAULT_EXPLORATION),
            virtual_loss: self.virtual_loss,
            expand_threshold: self.expand_threshold,
            chance: match self.chance {
                ChanceArg::Stratified => ChanceSelection::Stratified,
                ChanceArg::Sample => ChanceSelection::Sample,
            },
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
