//! Series of snake games: the setup `play`, `compare` and `sweep` share, one game through the generic
//! game loop, and the results and their summary.

use std::io::Write;
use std::time::Duration;

use serde::Serialize;
use serde_json::json;

use super::{parse_size, SnakePlayArgs};
use crate::common;
use crate::{input_error, AgentName};
use canopy_mcts::agent::{play_game, Agent, GameSeeds, Step};
use canopy_mcts::games::snake::{Baseline, End, How, MctsAgent, Snake, SnakePolicy, SnakeState, CYCLE};
use canopy_mcts::rng::Rng;
use canopy_mcts::search::SearchParams;

/// Default search time per move of `play snake --agent mcts` when neither `--playouts` nor `--time` is
/// given, in milliseconds.
pub const PLAY_DEFAULT_MS: u64 = 50;

/// Default board of `play snake`.
const DEFAULT_SIZE: (usize, usize) = (10, 10);

/// One finished (or capped) game.
#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    seed: u64,
    /// Final length in cells.
    length: usize,
    /// Final length / board cells.
    fill: f64,
    won: bool,
    /// "won", "body", "wall", "starved", or "unfinished" (the --max-moves cap).
    end: &'static str,
    /// Moves played.
    moves: u64,
    /// Food eaten (length gained).
    foods: u64,
    /// Moves per food eaten (`null` without food).
    steps_per_food: Option<f64>,
    /// Sum of the move rewards in food units (foods + survival bonus).
    score: f64,
    seconds: f64,
    /// Mean time to choose a move, in milliseconds.
    ms_per_move: f64,
    /// Longest time to choose a move, in milliseconds.
    max_ms_per_move: f64,
    /// Mean wall time of one search as the engine measured it, in milliseconds (`null` without searches).
    mean_search_ms: Option<f64>,
    /// Moves chosen by a search (MCTS; forced moves are played without one).
    searches: u64,
    /// Playouts the searches found in the tree kept from the earlier moves when they started, summed (0
    /// with --no-reuse).
    kept_playouts: u64,
    /// Moves along a closing cycle (MCTS endgame lock-in).
    cycle_moves: u64,
    /// Length of the snake when the agent locked into a closing cycle (`null`: never).
    locked_at_length: Option<usize>,
    /// Largest memory used by one search (tree and table), in bytes.
    max_search_memory_bytes: usize,
    /// Whether some search reached the memory budget.
    memory_limited: bool,
    /// The last position in the text format.
    final_state: String,
}

/// One series of snake games: the board, the agent and its search settings, as `play`, `compare` and
/// `sweep` share them.
pub struct SeriesSetup {
    rules: Snake,
    agent: AgentName,
    params: SearchParams,
    policy: SnakePolicy,
    endgame: usize,
    reuse: bool,
    /// What the per-game lines print after the agent's name (`sweep`'s `param=value`).
    label: Option<String>,
}

impl SeriesSetup {
    /// The same setup, its per-game lines naming `label` (e.g. `exploration=0.5`) after the agent.
    pub fn labelled(self, label: String) -> SeriesSetup {
        SeriesSetup { label: Some(label), ..self }
    }

    /// The setup the options ask for, for `agent`.
    ///
    /// # Errors
    /// A bad --size, or an agent snake does not have.
    pub fn new(agent: AgentName, search: &crate::SearchArgs, snake: &SnakePlayArgs) -> anyhow::Result<SeriesSetup> {
        let (w, h) = match &snake.size {
            Some(s) => parse_size(s)?,
            None => DEFAULT_SIZE,
        };
        agent_name(agent)?;
        let mut params = search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
        if search.playouts.is_none() && search.time.is_none() {
            (params.playouts, params.time_ms) = (None, Some(PLAY_DEFAULT_MS));
        }
        let endgame = snake.endgame.unwrap_or(MctsAgent::default_endgame(w, h));
        let policy = SnakePolicy { rollout_cycle_free: endgame, ..super::search_policy(&snake.search, w, h) };
        Ok(SeriesSetup { rules: Snake::new(w, h), agent, params, policy, endgame, reuse: !snake.no_reuse, label: None })
    }

    /// The search parameters the agent searches with: `None` for the baselines, which run no search
    /// (as `play snake --json` reports them, `params: null`).
    pub fn search_params(&self) -> Option<&SearchParams> {
        (self.agent == AgentName::Mcts).then_some(&self.params)
    }

    /// The MCTS agent's own settings as the `mcts` block of the JSON reports (its rollout policy, tail
    /// filter, endgame and tree reuse); `None` for the baselines.
    pub fn mcts_json(&self) -> Option<serde_json::Value> {
        (self.agent == AgentName::Mcts).then(|| {
            json!({
                // As --rollout names it.
                "rollout": crate::params::to_json(&self.policy, &[])["rollout"],
                "rollout_max_moves": self.policy.rollout_max_moves,
                "rollout_patience": self.policy.rollout_patience,
                "tail_filter": format!("{:?}", self.policy.tail_filter).to_lowercase(),
                "endgame_free_cells": self.endgame,
                "reuse": self.reuse,
            })
        })
    }

    /// The search parameters (for `sweep` to vary).
    pub fn params_mut(&mut self) -> &mut SearchParams {
        &mut self.params
    }

    /// The agent's name.
    pub fn agent_name(&self) -> &'static str {
        agent_name(self.agent).expect("checked in new")
    }

    /// Board cells.
    pub fn cells(&self) -> usize {
        self.rules.width * self.rules.height
    }

    fn agent(&self) -> Box<dyn Agent<Snake>> {
        let (w, h) = (self.rules.width, self.rules.height);
        match self.agent {
            AgentName::Mcts => Box::new(
                MctsAgent::new(self.rules, self.policy, self.params.clone())
                    .with_endgame(self.endgame)
                    .with_reuse(self.reuse),
            ),
            AgentName::Random => Box::new(Baseline::RandomSafe.agent(w, h)),
            AgentName::Greedy => Box::new(Baseline::Greedy.agent(w, h)),
            AgentName::Tailfollow => Box::new(Baseline::TailFollow.agent(w, h)),
            AgentName::Hamilton => Box::new(Baseline::Hamilton.agent(w, h)),
            AgentName::Expectimax | AgentName::Flat | AgentName::Threat => unreachable!("refused in new"),
        }
    }

    /// Plays `games` games, game `i` with seed `seed + i`, advancing `bar` once per game and printing a
    /// line per game on stderr when `lines` (and, where stderr is not a terminal, one every
    /// [`crate::common::GAME_PROGRESS_SECS`] seconds within a game).
    pub fn run(
        &self,
        games: u64,
        seed: u64,
        play: &SnakePlayArgs,
        bar: &indicatif::ProgressBar,
        lines: bool,
    ) -> Vec<GameResult> {
        let mut results = Vec::new();
        let name = match &self.label {
            Some(label) => format!("{} {label}", self.agent_name()),
            None => self.agent_name().to_string(),
        };
        for i in 0..games {
            let seed = seed.wrapping_add(i);
            let progress = crate::common::GameProgress::new(lines);
            let r = play_one(&self.rules, self.agent().as_mut(), seed, play, (i + 1, games), (bar, progress, &name));
            bar.inc(1);
            if lines {
                bar.suspend(|| {
                    eprintln!(
                        "{name} game {:>3}/{games}: length {:>4}  fill {:>5.1}%  {:<10}  moves {:>7}  {:.1} ms/move  seed {seed}",
                        i + 1,
                        r.length,
                        r.fill * 100.0,
                        r.end,
                        r.moves,
                        r.ms_per_move
                    )
                });
            }
            results.push(r);
        }
        results
    }
}

fn agent_name(agent: AgentName) -> anyhow::Result<&'static str> {
    Ok(match agent {
        AgentName::Mcts => "mcts",
        AgentName::Random => "random",
        AgentName::Greedy => "greedy",
        AgentName::Tailfollow => "tailfollow",
        AgentName::Hamilton => "hamilton",
        AgentName::Expectimax | AgentName::Flat | AgentName::Threat => {
            return Err(input_error("snake agents are mcts, greedy, tailfollow, hamilton and random"))
        }
    })
}

/// A progress bar over `n` games (hidden when `hidden`).
pub fn progress_bar(n: u64, hidden: bool) -> indicatif::ProgressBar {
    let bar = if hidden { indicatif::ProgressBar::hidden() } else { indicatif::ProgressBar::new(n) };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} game {pos}/{len} [{elapsed_precise}] {msg}")
            .expect("static template"),
    );
    bar
}

/// Prints one warning line on stderr when search or search-policy options were given that none of
/// `agents` uses (only the MCTS agent searches; `--seed` seeds every game's food).
pub fn warn_unused_options(agents: &[AgentName], search: &crate::SearchArgs, snake: &SnakePlayArgs) {
    if agents.contains(&AgentName::Mcts) {
        return;
    }
    let policy = snake.search.given.iter().map(|(name, _)| format!("--{}", name.replace('_', "-")));
    let endgame = snake.endgame.map(|_| "--endgame".to_string());
    let no_reuse = snake.no_reuse.then(|| "--no-reuse".to_string());
    let unused: Vec<String> = search
        .given_flags()
        .filter(|(name, _)| *name != "seed")
        .map(|(_, flag)| flag)
        .chain(policy)
        .chain(endgame)
        .chain(no_reuse)
        .collect();
    if !unused.is_empty() {
        let names: Vec<String> = agents.iter().map(ToString::to_string).collect();
        eprintln!(
            "warning: {} {} not search; {} ignored",
            names.join(", "),
            if names.len() == 1 { "does" } else { "do" },
            unused.join(", ")
        );
    }
}

/// Plays games of Snake and prints length statistics.
pub fn play(args: &super::Play) -> anyhow::Result<()> {
    let super::Chooser { agent, options } = &args.game;
    let setup = SeriesSetup::new(*agent, &args.search, options)?;
    warn_unused_options(&[*agent], &args.search, options);
    let (rules, params) = (setup.rules, &setup.params);
    let (w, h) = (rules.width, rules.height);
    let agent_name = setup.agent_name();
    let bar = progress_bar(args.games, options.watch || args.out.json);
    // A line per game on stderr: on a terminal beside the bar when several games are played as a table,
    // and always when stderr is not a terminal (the bar is hidden then), unless --no-progress.
    let lines = common::game_lines(args.search.no_progress, !args.out.json && args.games > 1 && !options.watch);
    let results = setup.run(args.games, args.search.seed, options, &bar, lines);
    bar.finish_and_clear();
    let summary = Summary::of(&results, w * h);
    if args.out.json {
        let v = json!({
            "game": "snake",
            "size": format!("{w}x{h}"),
            "cells": w * h,
            "agent": agent_name,
            "starvation_limit": rules.starvation_limit,
            "survival_bonus": rules.survival_bonus(),
            "params": (*agent == AgentName::Mcts).then(|| crate::params::to_json(params, <crate::search_args::ForSnake as crate::search_args::Profile>::SKIP)),
            "mcts": setup.mcts_json(),
            "summary": summary,
            "games": results,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    if args.out.csv {
        println!("seed,length,fill,end,moves,foods,score,seconds,ms_per_move");
        for r in &results {
            println!(
                "{},{},{:.4},{},{},{},{:.3},{:.3},{:.3}",
                r.seed, r.length, r.fill, r.end, r.moves, r.foods, r.score, r.seconds, r.ms_per_move
            );
        }
        return Ok(());
    }
    if let [only] = results.as_slice() {
        println!("{}", only.final_state);
    }
    println!(
        "{agent_name} on {w}x{h}: games {}  mean length {:.2}  median {:.1}  fill {:.1}%  won {:.0}%  \
         steps/food {:.1}  {:.1} ms/move (max {:.1})",
        summary.games,
        summary.mean_length,
        summary.median_length,
        summary.mean_fill * 100.0,
        summary.win_rate * 100.0,
        summary.steps_per_food.unwrap_or(0.0),
        summary.ms_per_move,
        summary.max_ms_per_move,
    );
    let e = &summary.ends;
    println!(
        "ends: won {}  body {}  wall {}  starved {}  unfinished {}",
        e.won, e.body, e.wall, e.starved, e.unfinished
    );
    if let Some(ms) = summary.mean_search_ms {
        println!("mean search {ms:.1} ms (forced and cycle moves are played without one)");
    }
    Ok(())
}

/// Plays one game of `agent` with seed `seed` through the generic game loop, drawing it with --watch.
fn play_one(
    rules: &Snake,
    agent: &mut dyn Agent<Snake>,
    seed: u64,
    play: &SnakePlayArgs,
    (index, games): (u64, u64),
    (bar, mut progress, name): (&indicatif::ProgressBar, crate::common::GameProgress, &str),
) -> GameResult {
    let watch = play.watch;
    let start = |chance: &mut Rng| {
        let s = rules.new_game(chance);
        if watch {
            draw(&s, index, games, 0);
        }
        s
    };
    let (mut moves, mut length_before, mut locked_at_length) = (0u64, 0usize, None);
    let mut agents = [agent];
    let record = play_game(rules, start, &mut agents, GameSeeds::new(seed), play.max_moves, |s, step| {
        if let Step::Move { how, .. } = step {
            moves += 1;
            if *how == CYCLE {
                locked_at_length.get_or_insert(length_before);
            }
            if watch {
                draw(s, index, games, moves);
                if play.delay > 0 {
                    std::thread::sleep(Duration::from_millis(play.delay));
                }
            } else {
                progress.tick(|| format!("{name}: game {index}/{games}, move {moves}, length {}", s.len()));
                if moves % 100 == 0 {
                    bar.set_message(format!("move {moves}  length {}", s.len()));
                }
            }
        }
        length_before = s.len();
    });
    let (mut searches, mut search_ms, mut cycle_moves, mut max_ms) = (0u64, 0.0, 0u64, 0.0f64);
    let (mut max_memory, mut memory_limited) = (0usize, false);
    for step in &record.steps {
        if let Step::Move { how, elapsed_ms, memory_bytes, memory_limited: limited, .. } = step {
            max_ms = max_ms.max(*elapsed_ms);
            if *how == How::Search {
                searches += 1;
                search_ms += elapsed_ms;
                max_memory = max_memory.max(*memory_bytes);
                memory_limited |= limited;
            }
            cycle_moves += u64::from(*how == CYCLE);
        }
    }
    let (s, moves) = (&record.last, record.total_moves());
    let foods = (s.len() - record.start.len()) as u64;
    GameResult {
        seed,
        length: s.len(),
        fill: s.len() as f64 / s.area() as f64,
        won: s.end() == Some(End::Won),
        end: s.end().map_or("unfinished", |e| e.name()),
        moves,
        foods,
        steps_per_food: (foods > 0).then(|| moves as f64 / foods as f64),
        score: record.returns[0],
        seconds: record.elapsed_ms / 1e3,
        ms_per_move: if moves > 0 { record.think_ms[0] / moves as f64 } else { 0.0 },
        max_ms_per_move: max_ms,
        mean_search_ms: (searches > 0).then(|| search_ms / searches as f64),
        searches,
        kept_playouts: record.kept_playouts[0],
        cycle_moves,
        locked_at_length,
        max_search_memory_bytes: max_memory,
        memory_limited,
        final_state: s.notation().to_string(),
    }
}

/// Redraws the board at the top of the terminal (ANSI clear screen).
fn draw(s: &SnakeState, index: u64, games: u64, moves: u64) {
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "\x1b[H\x1b[2J{s}\ngame {index}/{games}  move {moves}  length {}\n", s.len());
    let _ = out.flush();
}

/// How many games ended each way.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Ends {
    won: usize,
    body: usize,
    wall: usize,
    starved: usize,
    unfinished: usize,
}

/// Statistics over many games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub games: usize,
    pub mean_length: f64,
    /// Standard error of the mean length (sample standard deviation / sqrt(games); 0 for one game).
    pub stderr_length: f64,
    pub median_length: f64,
    pub min_length: usize,
    pub max_length: usize,
    /// Mean of length / cells.
    pub mean_fill: f64,
    /// Share of games that filled the board.
    pub win_rate: f64,
    /// All moves / all food eaten.
    pub steps_per_food: Option<f64>,
    /// All thinking time / all moves, in milliseconds.
    pub ms_per_move: f64,
    /// Longest time to choose one move, in milliseconds.
    pub max_ms_per_move: f64,
    /// Mean wall time of one search, in milliseconds (`null` without searches).
    pub mean_search_ms: Option<f64>,
    pub max_search_memory_bytes: usize,
    pub ends: Ends,
}

impl Summary {
    /// The statistics of `results` on a board of `cells` cells.
    pub fn of(results: &[GameResult], cells: usize) -> Self {
        let mut lengths: Vec<usize> = results.iter().map(|r| r.length).collect();
        lengths.sort_unstable();
        let n = lengths.len();
        let median =
            if n % 2 == 1 { lengths[n / 2] as f64 } else { (lengths[n / 2 - 1] + lengths[n / 2]) as f64 / 2.0 };
        let moves: u64 = results.iter().map(|r| r.moves).sum();
        let foods: u64 = results.iter().map(|r| r.foods).sum();
        let think: f64 = results.iter().map(|r| r.ms_per_move * r.moves as f64).sum();
        let mut ends = Ends::default();
        for r in results {
            match r.end {
                "won" => ends.won += 1,
                "body" => ends.body += 1,
                "wall" => ends.wall += 1,
                "starved" => ends.starved += 1,
                _ => ends.unfinished += 1,
            }
        }
        let mean_length = lengths.iter().sum::<usize>() as f64 / n as f64;
        let var = if n > 1 {
            lengths.iter().map(|&l| (l as f64 - mean_length).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Summary {
            games: n,
            mean_length,
            stderr_length: (var / n as f64).sqrt(),
            median_length: median,
            min_length: lengths.first().copied().unwrap_or(0),
            max_length: lengths.last().copied().unwrap_or(0),
            mean_fill: mean_length / cells as f64,
            win_rate: ends.won as f64 / n as f64,
            steps_per_food: (foods > 0).then(|| moves as f64 / foods as f64),
            ms_per_move: if moves > 0 { think / moves as f64 } else { 0.0 },
            max_ms_per_move: results.iter().map(|r| r.max_ms_per_move).fold(0.0, f64::max),
            mean_search_ms: {
                let n: u64 = results.iter().map(|r| r.searches).sum();
                let ms: f64 = results.iter().filter_map(|r| r.mean_search_ms.map(|m| m * r.searches as f64)).sum();
                (n > 0).then(|| ms / n as f64)
            },
            max_search_memory_bytes: results.iter().map(|r| r.max_search_memory_bytes).max().unwrap_or(0),
            ends,
        }
    }
}
