//! Playing series of 2048 games: `play 2048`, and the games of `compare` and `sweep`.

use serde::Serialize;
use serde_json::json;

use super::{
    agent_config, agent_label, config_json, config_line, params_json, warn_unused_options, PLAY_DEFAULT_PLAYOUTS,
};
use crate::common;
use crate::compare;

use canopy_mcts::agent::Step;
use canopy_mcts::games::g2048::agents::{self, Agent, AgentConfig};
use canopy_mcts::games::g2048::Board;

/// A progress bar on stderr over `len` games (drawn only on a terminal).
pub fn progress_bar(len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {wide_bar} {pos}/{len} games [{elapsed_precise}, eta {eta}] {msg}",
        )
        .expect("static template"),
    );
    bar
}

/// One finished game of 2048, as the command line reports it.
#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    /// The game's seed (spawns and the agent's randomness follow from it).
    pub seed: u64,
    /// Final score: the sum of the merge scores.
    pub score: u64,
    /// Largest tile at the end.
    pub max_tile: u32,
    /// Moves played.
    pub moves: u64,
    /// Wall time of the game in seconds.
    pub seconds: f64,
    /// Mean wall time per move in milliseconds (the agent's decisions only).
    pub ms_per_move: f64,
    /// Mean work per move in the agent's own unit: playouts (mcts, the new ones of each move, not those
    /// kept from earlier moves), rollouts (flat), nodes (expectimax), afterstates (greedy), 0 (random).
    pub work_per_move: f64,
    /// The final board, row-major.
    pub final_board: [u32; 16],
}

impl GameResult {
    /// The figures of a game played by [`agents::play`].
    pub fn of(r: &canopy_mcts::agent::GameRecord<canopy_mcts::games::g2048::G2048>) -> GameResult {
        let moves = r.total_moves();
        GameResult {
            seed: r.seed,
            score: r.returns[0] as u64,
            max_tile: r.last.board.max_tile(),
            moves,
            seconds: r.elapsed_ms / 1e3,
            ms_per_move: if moves > 0 { r.think_ms[0] / moves as f64 } else { 0.0 },
            work_per_move: if moves > 0 { r.work[0] as f64 / moves as f64 } else { 0.0 },
            final_board: r.last.board.tiles(),
        }
    }
}

/// Plays `games` games with the agent `config` describes, game `i` with seed `seed + i`; advances `bar`
/// once per game and, unless `quiet`, prints a line per game on stderr (and, where stderr is not a
/// terminal, one every [`common::GAME_PROGRESS_SECS`] seconds within a game).
pub fn run_games(
    config: &AgentConfig,
    games: u64,
    seed: u64,
    bar: &indicatif::ProgressBar,
    label: &str,
    quiet: bool,
) -> Vec<GameResult> {
    let mut agent = Agent::new(config.clone());
    let mut results = Vec::new();
    for i in 0..games {
        let game_seed = seed.wrapping_add(i);
        let (mut moves, mut score) = (0u64, 0.0);
        let mut progress = common::GameProgress::new(!quiet);
        let record = agents::play(&mut agent, game_seed, |state, step| {
            if let Step::Move { reward, .. } = step {
                moves += 1;
                score += reward;
                let line = || {
                    format!(
                        "{label}: game {}/{games}, move {moves}, score {score}, max tile {}",
                        i + 1,
                        state.board.max_tile()
                    )
                };
                progress.tick(line);
                if moves % 64 == 0 {
                    bar.set_message(line());
                }
            }
        });
        let r = GameResult::of(&record);
        bar.inc(1);
        if !quiet {
            bar.suspend(|| {
                eprintln!(
                    "{label} game {:>3}/{games}: score {:>7}  max tile {:>6}  moves {:>6}  {:.2} ms/move  seed {game_seed}",
                    i + 1,
                    r.score,
                    r.max_tile,
                    r.moves,
                    r.ms_per_move
                )
            });
        }
        results.push(r);
    }
    results
}

/// The unit of an agent's work per move ([`GameResult::work_per_move`]); `None` for the random agent,
/// which does no work.
fn work_unit(agent: agents::AgentKind) -> Option<&'static str> {
    match agent {
        agents::AgentKind::Mcts => Some("playouts"),
        agents::AgentKind::Flat => Some("rollouts"),
        agents::AgentKind::Expectimax => Some("nodes"),
        agents::AgentKind::Greedy => Some("afterstates"),
        agents::AgentKind::Random => None,
    }
}

/// Plays games of 2048 and prints score statistics.
pub fn play(args: &super::Play) -> anyhow::Result<()> {
    let super::Chooser { agent, eval, options } = &args.game;
    warn_unused_options(&[*agent], &args.search, options, eval.is_some())?;
    let config = agent_config(*agent, &args.search, options, *eval, PLAY_DEFAULT_PLAYOUTS)?;
    let bar = progress_bar(args.games);
    let label = agent_label(*agent);
    // A line per game on stderr: on a terminal beside the bar when several games are played as a table,
    // and always when stderr is not a terminal (the bar is hidden then), unless --no-progress.
    let quiet = !common::game_lines(args.search.no_progress, !(args.out.json || args.out.csv || args.games == 1));
    let results = run_games(&config, args.games, args.search.seed, &bar, &label, quiet);
    bar.finish_and_clear();
    let summary = compare::Summary::of(&results);
    if args.out.json {
        let v = json!({
            "game": "2048",
            "agent": config.kind,
            // The unit of each game's `work_per_move` (null: the random agent does no work).
            "work_unit": work_unit(config.kind),
            "params": params_json(&config),
            "config": config_json(&config),
            "summary": summary,
            "games": results,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    if args.out.csv {
        println!("seed,score,max_tile,moves,seconds,ms_per_move,work_per_move");
        for r in &results {
            println!(
                "{},{},{},{},{:.3},{:.3},{:.1}",
                r.seed, r.score, r.max_tile, r.moves, r.seconds, r.ms_per_move, r.work_per_move
            );
        }
        return Ok(());
    }
    if let [only] = results.as_slice() {
        println!("{}", Board::from_tiles(&only.final_board).map_err(|e| anyhow::anyhow!("{e}"))?);
        let work = match work_unit(config.kind) {
            // Small figures (greedy's afterstates) keep a decimal: 3.6 is not 4.
            Some(unit) if only.work_per_move < 100.0 => format!(", {:.1} {unit} per move", only.work_per_move),
            Some(unit) => format!(", {:.0} {unit} per move", only.work_per_move),
            None => String::new(),
        };
        println!(
            "score {}  max tile {}  moves {}  ({:.1} s, {:.2} ms/move{work})",
            only.score, only.max_tile, only.moves, only.seconds, only.ms_per_move
        );
    }
    println!("{}", compare::table_header("agent", label.len().max(5)));
    println!("{}", compare::table_row(&label, label.len().max(5), &summary));
    println!("{label}: {}", config_line(&config));
    Ok(())
}
