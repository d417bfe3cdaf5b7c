//! canopy's search against the `mcts` (0.3) and `treant` (0.4) crates on the same game, the same positions and the
//! same evaluation: playouts per second at each thread count, and each engine's speedup over its own one-thread
//! rate.
//!
//! Games (`--game`): canopy's synthetic P-game (`canopy_mcts::games::synthetic`, what `canopy bench --game
//! synthetic` searches: a pseudo-random value per move and a constant-time evaluation, so the figures are the
//! engines' own cost per playout), and freestyle Gomoku (`--size`, default 9) and tic-tac-toe from the empty board
//! with uniform random rollouts (`canopy_mcts::UniformPolicy`, every legal move a candidate): `canopy bench`'s hot
//! roots. All three engines call canopy's code for the rules and for the evaluation of a new node (the synthetic
//! tree's logistic evaluation, or one rollout), and run UCT with one new node per playout (canopy with its default
//! edge statistics creates a leaf's node when it expands it, so fewer; `--statistics node` keeps one per playout),
//! a transposition table, and one virtual visit of value 0 per playout in progress (the crates' `virtual_loss` 0
//! counts the visit on the way down and adds the value on the way up; canopy's `--virtual-loss 1` counts the
//! same). The crates' evaluations
//! are whole numbers, so values are scaled by [`SCALE`] and their exploration constant by the same; their UCT term
//! is `C·2·sqrt(ln(N+1)/n)`, so `C = SCALE · c / 2` gives canopy's `c·sqrt(ln N / n)`.
//!
//! A run's time is the wall time from building the engine's search (tree, table, threads) to the end of the last
//! playout; dropping the tree is not timed. A run's rate is the playouts it did over that time (canopy stops early
//! when MCTS-Solver proves the root). Each engine first runs one untimed search (a process's
//! first searches fault in memory that later ones reuse); then each (engine, thread count) runs `--repeat` times
//! and the highest rate counts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use canopy_mcts::games::gomoku::{Gomoku, Rule};
use canopy_mcts::games::synthetic::{Synthetic, SyntheticPolicy};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::rng::Rng;
use canopy_mcts::search::{Statistics, MAX_EXPLORATION};
use canopy_mcts::{Game, Policy, Search, SearchParams, UniformPolicy};
use clap::{Parser, ValueEnum};
use serde::Serialize;

/// Evaluations for the crates are whole numbers: a winning chance `p` is `round(p · SCALE)`.
const SCALE: f64 = 1_000_000.0;

/// Most playouts a search may ask for. The crates keep every node in memory with its moves (and make a
/// table of two slots a playout up front), and a failed allocation aborts the process; canopy searches
/// with [`CANOPY_MEMORY_BYTES`]. Gomoku's limit is lower ([`max_playouts`]).
const MAX_PLAYOUTS: u32 = 5_000_000;

/// Bytes a search's tree may hold, about, for the largest search allowed ([`max_playouts`]): the moves
/// of every expanded node at 48 bytes each and 256 more a node.
const TREE_BYTES: u64 = 4 << 30;

/// canopy's memory budget here: above what the largest search allowed needs, so that it adds a node a
/// playout as the crates do (a search that still runs out is refused, [`search`]).
const CANOPY_MEMORY_BYTES: usize = 8 << 30;

const AFTER_HELP: &str = "\
Columns: playouts (of the fastest run: fewer than asked only if a search stopped early), playouts/s (the
fastest run of --repeat), speedup (over the same engine's one-thread rate, when 1 is in --threads), best
ms and slow ms (the fastest and slowest run's wall time), nodes and move (the fastest run's tree size and
chosen root move). canopy runs without MCTS-Solver here (the crates have none), so all three do the same
playouts. Each engine runs one untimed search at the first thread count before the timed ones.";

#[derive(Parser)]
#[command(
    about = "canopy against the mcts and treant crates on the same game, positions and evaluation",
    after_help = AFTER_HELP,
    allow_negative_numbers = true
)]
struct Args {
    /// The game: canopy's synthetic tree, or Gomoku or tic-tac-toe from the empty board with uniform
    /// rollouts.
    #[arg(long, value_enum, ignore_case = true, default_value_t = GameArg::Synthetic)]
    game: GameArg,
    /// Gomoku's board side (5 to 20) [default: 9].
    #[arg(long)]
    size: Option<usize>,
    /// The synthetic tree's moves per position (2 to 64) [default: 8].
    #[arg(long)]
    branching: Option<u32>,
    /// The synthetic tree's plies from the root to the leaves (1 to 64) [default: 12].
    #[arg(long)]
    depth: Option<u32>,
    /// Playouts per search, 1 to 5000000 (Gomoku: fewer on large boards) [default: synthetic 100000,
    /// Gomoku 20000, tic-tac-toe 50000].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PLAYOUTS as i64))]
    playouts: Option<u32>,
    /// Thread counts, comma-separated, each 1 to 1024.
    #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Vec<u32>,
    /// Searches per (engine, thread count); the highest rate counts.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Engines to run, comma-separated.
    #[arg(long, value_delimiter = ',', ignore_case = true, default_value = "canopy,mcts,treant")]
    engines: Vec<Engine>,
    /// UCT exploration constant c of `q + c·sqrt(ln N / n)`, with values q in [0, 1]: above 0, at most
    /// 100 (canopy's `--exploration`).
    #[arg(long, default_value_t = 1.0)]
    exploration: f64,
    /// Where canopy keeps UCT's means: in the edges (UCT1, its default, as the `mcts` crate keeps its,
    /// per move) or in the nodes (UCT2); canopy's `--statistics`.
    #[arg(long, value_enum, ignore_case = true, default_value_t = StatisticsArg::Edge)]
    statistics: StatisticsArg,
    /// Do not pin canopy's workers to cores (the crates do not pin theirs).
    #[arg(long)]
    no_pin: bool,
    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum GameArg {
    Synthetic,
    Gomoku,
    Tictactoe,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum StatisticsArg {
    Node,
    Edge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum Engine {
    Canopy,
    Mcts,
    Treant,
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::Canopy => "canopy",
            Engine::Mcts => "mcts",
            Engine::Treant => "treant",
        }
    }
}

/// A two-player game, its policy and the position searched, shared by every engine's threads.
struct Setup<G: Game, P> {
    game: G,
    policy: P,
    root: G::State,
}

/// One timed search.
struct Run {
    secs: f64,
    /// Playouts done: the count asked for (canopy runs without MCTS-Solver here, which could end a search
    /// once the root is proven).
    playouts: u64,
    /// The root move the engine would play, by the game's name for it.
    best: Option<String>,
    /// Tree nodes at the end.
    nodes: u64,
}

#[derive(Serialize)]
struct Row {
    engine: Engine,
    threads: u32,
    /// Playouts of the fastest run.
    playouts: u64,
    best_ms: f64,
    slowest_ms: f64,
    playouts_per_sec: f64,
    /// This engine's rate over its own one-thread rate (when one thread was measured).
    speedup: Option<f64>,
    nodes: u64,
    best_move: Option<String>,
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    if !(args.exploration > 0.0 && args.exploration <= MAX_EXPLORATION) {
        return Err(format!(
            "--exploration {:?} is not a number above 0 and at most {MAX_EXPLORATION}",
            args.exploration
        ));
    }
    for (i, t) in args.threads.iter().enumerate() {
        if args.threads[..i].contains(t) {
            return Err(format!("--threads lists {t} twice"));
        }
    }
    for (i, e) in args.engines.iter().enumerate() {
        if args.engines[..i].contains(e) {
            return Err(format!("--engines lists {} twice", e.name()));
        }
    }
    match args.game {
        GameArg::Synthetic => {
            if args.size.is_some() {
                return Err("--size is Gomoku's board side; the synthetic tree takes --branching and --depth".into());
            }
            let game =
                Synthetic::new(args.branching.unwrap_or(8), args.depth.unwrap_or(12)).map_err(|e| format!("--{e}"))?;
            let setup = Setup { game, policy: SyntheticPolicy, root: game.start() };
            measure(Box::leak(Box::new(setup)), args, 100_000)
        }
        GameArg::Gomoku => {
            if args.branching.is_some() || args.depth.is_some() {
                return Err("--branching and --depth shape the synthetic tree; Gomoku takes --size".into());
            }
            let game = Gomoku::try_new(args.size.unwrap_or(9), Rule::Freestyle).map_err(|e| format!("--size: {e}"))?;
            let root = game.new_game();
            let most = max_playouts(game.size() * game.size());
            if args.playouts.is_some_and(|p| p > most) {
                return Err(format!(
                    "--playouts {asked} is more than {most}, the most on a {side}x{side} board: every engine keeps \
                     each node's {moves} moves in memory",
                    asked = args.playouts.unwrap_or(0),
                    side = game.size(),
                    moves = game.size() * game.size()
                ));
            }
            measure(Box::leak(Box::new(Setup { game, policy: UniformPolicy, root })), args, 20_000)
        }
        GameArg::Tictactoe => {
            if args.size.is_some() || args.branching.is_some() || args.depth.is_some() {
                return Err("tic-tac-toe takes no --size, --branching or --depth".into());
            }
            let root = TicTacToeState::default();
            measure(Box::leak(Box::new(Setup { game: TicTacToe, policy: UniformPolicy, root })), args, 50_000)
        }
    }
}

/// The most playouts a search may ask for on a game of `moves` moves at the root: [`MAX_PLAYOUTS`], or
/// fewer when that many nodes of `moves` moves would hold more than [`TREE_BYTES`].
fn max_playouts(moves: usize) -> u32 {
    let per_node = 48 * moves as u64 + 256;
    (TREE_BYTES / per_node).min(u64::from(MAX_PLAYOUTS)) as u32
}

fn measure<G, P>(setup: &'static Setup<G, P>, args: &Args, default_playouts: u32) -> Result<(), String>
where
    G: Game<Returns = [f64; 2]> + 'static,
    P: Policy<G> + 'static,
{
    let playouts = args.playouts.unwrap_or(default_playouts);
    let mut rows = Vec::new();
    for &engine in &args.engines {
        // One untimed search first: a process's first searches fault in memory the later ones reuse.
        search(engine, setup, args, playouts, args.threads[0] as usize)?;
        let first_row = rows.len();
        for &threads in &args.threads {
            let runs = (0..args.repeat)
                .map(|_| search(engine, setup, args, playouts, threads as usize))
                .collect::<Result<Vec<Run>, String>>()?;
            let rate = |r: &Run| r.playouts as f64 / r.secs;
            let fastest = runs.iter().max_by(|a, b| rate(a).total_cmp(&rate(b))).expect("repeat is at least 1");
            let slowest = runs.iter().map(|r| r.secs).fold(0.0, f64::max);
            let pps = rate(fastest);
            rows.push(Row {
                engine,
                threads,
                playouts: fastest.playouts,
                best_ms: fastest.secs * 1e3,
                slowest_ms: slowest * 1e3,
                playouts_per_sec: pps,
                speedup: None,
                nodes: fastest.nodes,
                best_move: fastest.best.clone(),
            });
        }
        // Each speedup over this engine's one-thread rate, wherever 1 is in the list.
        let mine = &mut rows[first_row..];
        let one = mine.iter().find(|r| r.threads == 1).map(|r| r.playouts_per_sec);
        for row in mine.iter_mut() {
            row.speedup = one.map(|one| row.playouts_per_sec / one);
        }
        if !args.json {
            for (i, row) in rows[first_row..].iter().enumerate() {
                print_row(row, first_row + i == 0);
            }
        }
    }
    if args.json {
        let out = serde_json::json!({
            "game": args.game,
            "size": (args.game == GameArg::Gomoku).then(|| args.size.unwrap_or(9)),
            "branching": (args.game == GameArg::Synthetic).then(|| args.branching.unwrap_or(8)),
            "depth": (args.game == GameArg::Synthetic).then(|| args.depth.unwrap_or(12)),
            "playouts": playouts,
            "repeat": args.repeat,
            "exploration": args.exploration,
            "canopy_statistics": args.statistics,
            "canopy_pinned": !args.no_pin,
            "results": rows,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("plain data"));
    }
    Ok(())
}

fn print_row(row: &Row, first: bool) {
    if first {
        println!(
            "{:<8} {:>7} {:>9} {:>12} {:>8} {:>10} {:>10} {:>9} {:>6}",
            "engine", "threads", "playouts", "playouts/s", "speedup", "best ms", "slow ms", "nodes", "move"
        );
    }
    let speedup = row.speedup.map_or("-".to_string(), |s| format!("{s:.2}"));
    println!(
        "{:<8} {:>7} {:>9} {:>12.0} {:>8} {:>10.1} {:>10.1} {:>9} {:>6}",
        row.engine.name(),
        row.threads,
        row.playouts,
        row.playouts_per_sec,
        speedup,
        row.best_ms,
        row.slowest_ms,
        row.nodes,
        row.best_move.as_deref().unwrap_or("-")
    );
}

/// One timed search.
///
/// # Errors
/// When canopy's search ran out of its memory budget ([`CANOPY_MEMORY_BYTES`]) and so did not add a node
/// a playout as the crates do.
fn search<G, P>(
    engine: Engine,
    setup: &'static Setup<G, P>,
    args: &Args,
    playouts: u32,
    threads: usize,
) -> Result<Run, String>
where
    G: Game<Returns = [f64; 2]> + 'static,
    P: Policy<G> + 'static,
{
    match engine {
        Engine::Canopy => {
            let params = SearchParams {
                playouts: Some(u64::from(playouts)),
                threads,
                pin_threads: !args.no_pin,
                exploration: args.exploration,
                // The crates have no MCTS-Solver: without it canopy does every playout asked, as they do.
                solver: false,
                memory_bytes: CANOPY_MEMORY_BYTES,
                statistics: match args.statistics {
                    StatisticsArg::Node => Statistics::Node,
                    StatisticsArg::Edge => Statistics::Edge,
                },
                ..SearchParams::default()
            };
            let start = Instant::now();
            let report = Search::with_policy(&setup.game, &setup.policy, params).run(&setup.root);
            let secs = start.elapsed().as_secs_f64();
            if report.memory_limited {
                return Err(format!(
                    "canopy ran out of its {} GiB memory budget after {} nodes, so it did not add a node a playout \
                     as the crates do: ask for fewer --playouts",
                    CANOPY_MEMORY_BYTES >> 30,
                    report.nodes
                ));
            }
            Ok(Run { secs, playouts: report.playouts, best: report.best_name, nodes: report.nodes })
        }
        Engine::Mcts => Ok(crates::mcts_search(setup, args.exploration, playouts, threads)),
        Engine::Treant => Ok(crates::treant_search(setup, args.exploration, playouts, threads)),
    }
}

/// A position for the crates: the setup it belongs to and canopy's state.
pub(crate) struct Position<G: Game + 'static, P: 'static> {
    setup: &'static Setup<G, P>,
    state: G::State,
}

impl<G: Game, P> Clone for Position<G, P> {
    fn clone(&self) -> Self {
        Position { setup: self.setup, state: self.state.clone() }
    }
}

impl<G: Game<Returns = [f64; 2]>, P: Policy<G>> Position<G, P> {
    fn moves(&self) -> Vec<G::Action> {
        let mut out = Vec::new();
        if !matches!(self.setup.game.to_move(&self.state), canopy_mcts::Turn::Terminal) {
            self.setup.game.legal_actions(&self.state, &mut out);
        }
        out
    }

    /// The player to move (0 at a finished position: no move is chosen there).
    fn player(&self) -> usize {
        match self.setup.game.to_move(&self.state) {
            canopy_mcts::Turn::Player(p) => p,
            _ => 0,
        }
    }

    fn play(&mut self, m: G::Action) {
        self.setup.game.apply(&mut self.state, m);
    }

    fn key(&self) -> u64 {
        // The crates' tables treat 0 as empty; canopy's keys are mixed 64-bit hashes.
        self.setup.game.zobrist(&self.state).unwrap_or(0) | 1
    }

    /// The first player's value from canopy's evaluation (a rollout, or the game's result at a finished
    /// position), scaled by [`SCALE`].
    fn evaluation(&self, scratch: &mut Scratch<G::Action>) -> i64 {
        let returns = if matches!(self.setup.game.to_move(&self.state), canopy_mcts::Turn::Terminal) {
            self.setup.game.returns(&self.state)
        } else {
            self.setup.policy.rollout(&self.setup.game, &self.state, &mut scratch.rng, &mut scratch.moves)
        };
        (returns[0] * SCALE).round() as i64
    }
}

/// A crate worker's rollout state: its random numbers (one stream per worker thread) and move buffer.
pub(crate) struct Scratch<A> {
    rng: Rng,
    moves: Vec<A>,
}

/// Streams handed out to the crates' worker threads, in the order they start.
static STREAMS: AtomicU64 = AtomicU64::new(0);

impl<A> Default for Scratch<A> {
    fn default() -> Self {
        Scratch { rng: canopy_mcts::rng::seeded(1, STREAMS.fetch_add(1, Ordering::Relaxed)), moves: Vec::new() }
    }
}

/// The same glue for both crates (treant is a fork of mcts with the same traits).
macro_rules! crate_engine {
    ($module:ident, $krate:ident, $run:ident) => {
        mod $module {
            use std::marker::PhantomData;

            use canopy_mcts::{Game, Policy};
            use $krate::transposition_table::{ApproxTable, TranspositionHash};
            use $krate::tree_policy::UCTPolicy;
            use $krate::{CycleBehaviour, Evaluator, GameState, MoveList, SearchHandle, MCTS};

            use crate::{Position, Scratch, SCALE};

            impl<G: Game<Returns = [f64; 2]>, P: Policy<G>> GameState for Position<G, P> {
                type Move = G::Action;
                type Player = usize;
                type MoveList = Vec<G::Action>;

                fn current_player(&self) -> usize {
                    self.player()
                }

                fn available_moves(&self) -> Vec<G::Action> {
                    self.moves()
                }

                fn make_move(&mut self, m: &G::Action) {
                    self.play(*m)
                }
            }

            impl<G: Game<Returns = [f64; 2]>, P: Policy<G>> TranspositionHash for Position<G, P> {
                fn hash(&self) -> u64 {
                    self.key()
                }
            }

            pub(crate) struct Eval<G, P>(PhantomData<fn() -> (G, P)>);

            impl<G: Game<Returns = [f64; 2]> + 'static, P: Policy<G> + 'static> Evaluator<Spec<G, P>> for Eval<G, P> {
                type StateEvaluation = i64;

                fn evaluate_new_state(
                    &self,
                    state: &Position<G, P>,
                    moves: &MoveList<Spec<G, P>>,
                    handle: Option<SearchHandle<Spec<G, P>>>,
                ) -> (Vec<()>, i64) {
                    let value = match handle {
                        Some(mut h) => state.evaluation(&mut h.thread_data().extra_data),
                        None => state.evaluation(&mut Scratch::default()),
                    };
                    (vec![(); moves.len()], value)
                }

                fn evaluate_existing_state(&self, _: &Position<G, P>, e: &i64, _: SearchHandle<Spec<G, P>>) -> i64 {
                    *e
                }

                fn interpret_evaluation_for_player(&self, e: &i64, player: &usize) -> i64 {
                    if *player == 0 {
                        *e
                    } else {
                        SCALE as i64 - *e
                    }
                }
            }

            pub(crate) struct Spec<G, P>(PhantomData<fn() -> (G, P)>);

            impl<G: Game<Returns = [f64; 2]> + 'static, P: Policy<G> + 'static> MCTS for Spec<G, P> {
                type State = Position<G, P>;
                type Eval = Eval<G, P>;
                type NodeData = ();
                type ExtraThreadData = Scratch<G::Action>;
                type TreePolicy = UCTPolicy;
                type TranspositionTable = ApproxTable<Self>;

                fn cycle_behaviour(&self) -> CycleBehaviour<Self> {
                    CycleBehaviour::UseCurrentEvalWhenCycleDetected
                }
            }

            pub(crate) fn run<G: Game<Returns = [f64; 2]> + 'static, P: Policy<G> + 'static>(
                setup: &'static crate::Setup<G, P>,
                exploration: f64,
                playouts: u32,
                threads: usize,
            ) -> crate::Run {
                let start = std::time::Instant::now();
                let root = Position { setup, state: setup.root.clone() };
                let table = ApproxTable::new((2 * playouts as usize).next_power_of_two());
                let policy = UCTPolicy::new(SCALE * exploration / 2.0);
                let mut manager = $krate::MCTSManager::new(root, Spec(PhantomData), Eval(PhantomData), policy, table);
                manager.playout_n_parallel(playouts, threads);
                let secs = start.elapsed().as_secs_f64();
                let best = manager.best_move().map(|m| setup.game.action_name(&m));
                let nodes = manager.tree().num_nodes() as u64;
                crate::Run { secs, playouts: u64::from(playouts), best, nodes }
            }
        }

        pub(crate) use $module::run as $run;
    };
}

mod crates {
    crate_engine!(with_mcts, mcts, mcts_search);
    crate_engine!(with_treant, treant, treant_search);
}

#[cfg(test)]
mod tests {
    use super::*;
    use canopy_mcts::games::synthetic::SyntheticState;

    /// The minimax value for the first player (1 win, 0.5 draw, 0 loss) of `state`.
    fn minimax(game: &Synthetic, state: &SyntheticState) -> f64 {
        let mut moves = Vec::new();
        game.legal_actions(state, &mut moves);
        if moves.is_empty() {
            return game.returns(state)[0];
        }
        let values = moves.iter().map(|&m| {
            let mut next = *state;
            game.apply(&mut next, m);
            minimax(game, &next)
        });
        if state.ply.is_multiple_of(2) {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        }
    }

    fn args(argv: &[&str]) -> Args {
        Args::parse_from(std::iter::once("canopy-compare").chain(argv.iter().copied()))
    }

    #[test]
    fn choices_are_taken_in_any_case_as_canopys_are() {
        let a = args(&["--game", "TicTacToe", "--statistics", "NODE", "--engines", "Canopy,MCTS"]);
        assert_eq!((a.game, a.statistics), (GameArg::Tictactoe, StatisticsArg::Node));
        assert_eq!(a.engines, [Engine::Canopy, Engine::Mcts]);
        assert_eq!(args(&[]).statistics, StatisticsArg::Edge, "canopy's default");
    }

    /// Every engine (canopy with node and with edge statistics), on one and two threads, plays the one
    /// root move that minimax proves to win in three small trees where a search that let both players
    /// maximise the first player's value would find every root move winning: the glue (players, values,
    /// scaling) gives the crates the same game.
    #[test]
    fn every_engine_finds_the_minimax_move() {
        for (branching, depth) in [(4, 4), (5, 4), (6, 4)] {
            let game = Synthetic::new(branching, depth).unwrap();
            let root = game.start();
            let values: Vec<f64> = (0..branching as u8)
                .map(|m| {
                    let mut next = root;
                    game.apply(&mut next, m);
                    minimax(&game, &next)
                })
                .collect();
            let winning: Vec<usize> = (0..values.len()).filter(|&m| values[m] == 1.0).collect();
            assert_eq!(winning.len(), 1, "{branching}x{depth}: {values:?}");
            let setup: &'static _ = Box::leak(Box::new(Setup { game, policy: SyntheticPolicy, root }));
            // canopy with each of its statistics settings, then the crates.
            let runs =
                [(Engine::Canopy, "node"), (Engine::Canopy, "edge"), (Engine::Mcts, "node"), (Engine::Treant, "node")];
            for (engine, statistics) in runs {
                for threads in [1, 2] {
                    let run = search(engine, setup, &args(&["--statistics", statistics]), 50_000, threads).unwrap();
                    let m = run.best.unwrap_or_else(|| panic!("{engine:?} on {threads} threads chose no move"));
                    assert_eq!(
                        m,
                        winning[0].to_string(),
                        "{engine:?} ({statistics}) on {threads} threads, {branching}x{depth}: chose {m}, minimax {values:?}"
                    );
                    assert!(run.nodes > 1 && run.secs > 0.0);
                }
            }
        }
    }

    /// Gomoku with uniform rollouts: every engine, on one and two threads, blocks a four. On a 7x7 board
    /// White holds 0,6 to 3,6 (the board's edge closes one end) and Black, to move, has no four of its
    /// own, so every move but 4,6 loses at once.
    #[test]
    fn every_engine_blocks_a_four_at_gomoku() {
        let game = Gomoku::try_new(7, Rule::Freestyle).unwrap();
        let root = game.from_moves("0,0 0,6 2,0 1,6 4,0 2,6 0,3 3,6").unwrap();
        every_engine_plays(Setup { game, policy: UniformPolicy, root }, "gomoku", 20_000, "4,6");
    }

    /// Tic-tac-toe with uniform rollouts: every engine, on one and two threads, takes the win at cell 2
    /// rather than block the opponent's row at cell 5.
    #[test]
    fn every_engine_takes_the_win_at_tictactoe() {
        let root = TicTacToeState::parse("xx./oo./...").unwrap();
        every_engine_plays(Setup { game: TicTacToe, policy: UniformPolicy, root }, "tictactoe", 5_000, "2");
    }

    /// Asserts that every engine, on one and two threads, plays `expected` from `setup`'s position with
    /// `playouts` playouts (`game`: the `--game` value).
    fn every_engine_plays<G, P>(setup: Setup<G, P>, game: &str, playouts: u32, expected: &str)
    where
        G: Game<Returns = [f64; 2]> + 'static,
        P: Policy<G> + 'static,
    {
        let setup: &'static _ = Box::leak(Box::new(setup));
        for engine in [Engine::Canopy, Engine::Mcts, Engine::Treant] {
            for threads in [1, 2] {
                let run = search(engine, setup, &args(&["--game", game]), playouts, threads).unwrap();
                assert_eq!(run.best.as_deref(), Some(expected), "{engine:?} on {threads} threads");
            }
        }
    }

    /// Each bad option is refused, and the message names the option.
    #[test]
    fn bad_options_are_refused_by_name() {
        let refused = |argv: &[&str]| -> String {
            match Args::try_parse_from(std::iter::once("canopy-compare").chain(argv.iter().copied())) {
                Err(e) => e.to_string(),
                Ok(a) => run(&a).expect_err(&format!("{argv:?} was accepted")),
            }
        };
        for (argv, named) in [
            (&["--threads", "1,1"][..], "--threads"),
            (&["--threads", "0"], "--threads"),
            (&["--threads", "1025"], "--threads"),
            (&["--engines", "canopy,canopy"], "--engines"),
            (&["--engines", "alphazero"], "--engines"),
            (&["--branching", "1"], "--branching"),
            (&["--depth", "65"], "--depth"),
            (&["--game", "gomoku", "--size", "4"], "--size"),
            (&["--game", "chess"], "--game"),
            (&["--size", "9"], "--size"),
            (&["--game", "gomoku", "--depth", "4"], "--depth"),
            (&["--game", "tictactoe", "--size", "3"], "--size"),
            (&["--exploration", "-1"], "--exploration"),
            (&["--exploration", "0"], "--exploration"),
            (&["--exploration", "nan"], "--exploration"),
            (&["--exploration", "1e303"], "--exploration"),
            (&["--playouts", "0"], "--playouts"),
            (&["--playouts", "-5"], "--playouts"),
            (&["--playouts", "5000001"], "--playouts"),
            (&["--game", "gomoku", "--size", "20", "--playouts", "3000000"], "--playouts"),
            (&["--repeat", "0"], "--repeat"),
            (&["--statistics", "both"], "--statistics"),
        ] {
            let message = refused(argv);
            assert!(message.contains(named), "{argv:?}: {message}");
        }
    }
}
