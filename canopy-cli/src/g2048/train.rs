//! `canopy train 2048`: trains an n-tuple network by TD(0) on afterstates and writes its weights file.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use crate::input_error;
use canopy_mcts::games::g2048::ntuple::{GameStats, NTuple, DEFAULT_ALPHA};
use canopy_mcts::rng;

/// The tiles whose reaching rates the report lines give.
const TILES: [u32; 5] = [1024, 2048, 4096, 8192, 16384];

/// `canopy train 2048`.
#[derive(clap::Args, Debug)]
#[command(long_about = "Train an n-tuple network for 2048 by temporal difference learning on afterstates (TD(0), \
                  Szubert and Jaśkowski 2014) and write its weights file.\n\n\
                  The player moves greedily by merge score + value of the afterstate; after each move the value \
                  of the previous afterstate moves toward the move's reward + the new afterstate's value. The \
                  network (--tuples): `standard`, the straight 4-tuples and the 2x2 squares under the 8 \
                  symmetries (1.25 MiB of weights), or `large`, four 5-tuples (16 MiB). Use the file with --eval ntuple:FILE (docs/2048.md). Ctrl-C stops after the \
                  current game and writes the weights learnt so far.")]
pub struct Train {
    /// Training games [1..].
    #[arg(long, value_parser = parse_games)]
    pub games: u64,
    /// Seed of the tile spawns: the same seed, games and rate give the same weights [0..=2^64-1].
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The weights file to write (created or replaced; checked before training starts).
    #[arg(long)]
    pub out: PathBuf,
    /// Learning rate per weight, in (0, 1] (default 0.0025, Szubert and Jaśkowski 2014).
    #[arg(long, default_value_t = DEFAULT_ALPHA, value_parser = parse_alpha, allow_hyphen_values = true)]
    pub alpha: f32,
    /// Games per report line, at most --games (default: a twentieth of the games, at least 1).
    #[arg(long, value_parser = parse_games)]
    pub block: Option<u64>,
    /// The network's tuples: standard (five 4-tuples, 1.25 MiB) or large (four 5-tuples, 16 MiB)
    /// [default: standard].
    #[arg(long, value_enum, conflicts_with = "init")]
    pub tuples: Option<Layout>,
    /// Go on training the network in this weights file (its tuples and weights) instead of starting from
    /// zero weights, for a second stage at a smaller --alpha; not with --tuples. Give the stage its own
    /// --seed: the same seed replays the first stage's spawns.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Print one JSON summary at the end instead of the report lines.
    #[arg(long)]
    pub json: bool,
    /// Do not draw the progress bar on stderr (the report lines on stdout stay).
    #[arg(long)]
    pub no_progress: bool,
}

/// The tuple layouts `--tuples` names.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The straight 4-tuples and the 2x2 squares (`ntuple::STANDARD_TUPLES`, 1.25 MiB of weights).
    Standard,
    /// Four 5-tuples: rows with a cell of the next row, 2x2 squares with a cell more
    /// (`ntuple::LARGE_TUPLES`, 16 MiB of weights).
    Large,
}

fn parse_games(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}

fn parse_alpha(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(a) if a.is_finite() && a > 0.0 && a <= 1.0 => Ok(a),
        Ok(a) => Err(format!("{a} is outside (0, 1]")),
        Err(_) => Err(format!("'{s}' is not a number")),
    }
}

/// One block of training games, as the report lines and the JSON give it.
#[derive(Clone, Debug, Serialize)]
struct Block {
    /// Games played so far (the last game of the block).
    games: u64,
    /// Games in the block.
    block_games: u64,
    /// Mean score of the block.
    mean_score: f64,
    /// Best score of the block.
    max_score: u64,
    /// Share of the block's games that reached each tile of [`TILES`] (or a larger one).
    reached: Vec<(u32, f64)>,
}

impl Block {
    fn of(games: u64, stats: &[GameStats]) -> Block {
        let n = stats.len().max(1) as f64;
        Block {
            games,
            block_games: stats.len() as u64,
            mean_score: stats.iter().map(|s| s.score as f64).sum::<f64>() / n,
            max_score: stats.iter().map(|s| s.score).max().unwrap_or(0),
            reached: TILES.iter().map(|&t| (t, stats.iter().filter(|s| s.max_tile >= t).count() as f64 / n)).collect(),
        }
    }

    fn line(&self, total: u64, games_per_s: f64) -> String {
        let rates: Vec<String> = self.reached.iter().map(|(t, r)| format!("{t} {:>5.1}%", 100.0 * r)).collect();
        format!(
            "games {:>w$}/{total}  mean {:>9.1} (last {})  best {:>7}  {}  {:.0} games/s",
            self.games,
            self.mean_score,
            self.block_games,
            self.max_score,
            rates.join("  "),
            games_per_s,
            w = total.to_string().len()
        )
    }
}

/// Trains a network and writes it.
///
/// # Errors
/// An input error when the `--init` file cannot be read as a network, or the weights file cannot be
/// written (checked before training, and when written).
pub fn train(args: &Train) -> anyhow::Result<()> {
    // Fail before hours of training, not after (and before --out is touched).
    if let Some(block) = args.block.filter(|&b| b > args.games) {
        return Err(input_error(format!("--block {block} is more games than --games {}", args.games)));
    }
    let mut net = match (&args.init, args.tuples) {
        (Some(path), _) => NTuple::load(path).map_err(|e| input_error(format!("--init: {e}")))?,
        (None, Some(Layout::Large)) => NTuple::large(),
        (None, _) => NTuple::standard(),
    };
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&args.out)
        .map_err(|e| input_error(format!("--out {}: {e}", args.out.display())))?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed));
    }
    let block = args.block.unwrap_or((args.games / 20).max(1));
    let mut r = rng::seeded(args.seed, 0);
    let bar = if args.no_progress { indicatif::ProgressBar::hidden() } else { super::progress_bar(args.games) };
    let start = Instant::now();
    let mut blocks = Vec::new();
    let mut pending: Vec<GameStats> = Vec::with_capacity(block.min(1 << 20) as usize);
    let (mut played, mut best) = (0u64, GameStats::default());
    while played < args.games && !stop.load(Ordering::Relaxed) {
        let g = net.train_game(&mut r, args.alpha);
        played += 1;
        if g.score > best.score {
            best = g;
        }
        pending.push(g);
        bar.inc(1);
        if pending.len() as u64 == block || played == args.games {
            let b = Block::of(played, &pending);
            pending.clear();
            let rate = played as f64 / start.elapsed().as_secs_f64().max(1e-9);
            if !args.json {
                bar.suspend(|| println!("{}", b.line(args.games, rate)));
            }
            bar.set_message(format!("mean {:.0} (last block)", b.mean_score));
            blocks.push(b);
        }
    }
    if !pending.is_empty() {
        let b = Block::of(played, &pending);
        if !args.json {
            println!("{}", b.line(args.games, played as f64 / start.elapsed().as_secs_f64().max(1e-9)));
        }
        blocks.push(b);
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    net.save(&args.out).map_err(|e| input_error(e.to_string()))?;
    let bytes = net.to_bytes().len();
    let stopped = played < args.games;
    if args.json {
        let v = json!({
            "game": "2048",
            "network": "ntuple",
            "tuples": net.tuples(),
            "weights": net.weights().len(),
            "file_bytes": bytes,
            "out": args.out.display().to_string(),
            "init": args.init.as_ref().map(|p| p.display().to_string()),
            "seed": args.seed,
            // The rate as given (0.001), not the f32's widened digits (0.0010000000474974513).
            "alpha": args.alpha.to_string().parse::<f64>().unwrap_or(f64::from(args.alpha)),
            "games": played,
            "games_asked": args.games,
            "stopped": stopped,
            "seconds": seconds,
            "best": best,
            "blocks": blocks,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    if stopped {
        println!("stopped after {played} of {} games", args.games);
    }
    let from = match &args.init {
        Some(path) => format!(" from {}", path.display()),
        None => String::new(),
    };
    println!(
        "trained {played} games{from} in {seconds:.1} s ({} tuples, seed {}, alpha {}); best score {} (max tile {}); wrote {} ({bytes} bytes)",
        net.tuples().len(),
        args.seed,
        args.alpha,
        best.score,
        best.max_tile,
        args.out.display()
    );
    Ok(())
}
