//! Agents that choose a 2048 move, side by side with the same limits: MCTS (the engine), expectimax,
//! flat Monte Carlo, greedy and random.
//!
//! Every agent takes the same [`SearchParams`]: `time_ms` is the wall time per move, `playouts` a
//! budget per move in the agent's own unit, `threads` the worker threads, `seed` the random seed.
//!
//! | agent | per move | `--time` | `--playouts` | threads |
//! |---|---|---|---|---|
//! | `mcts` | the engine's search with the configured [`G2048Policy`] | search time | playouts | all |
//! | `expectimax` | [`expectimax`](super::expectimax::Expectimax) with the cache | iterative deepening | ignored | all |
//! | `flat` | rollouts from every move's afterstate, best mean | rollouts until then | rollouts (all moves) | all |
//! | `greedy` | best merge score + evaluation of the afterstate | ignored | ignored | 1 |
//! | `random` | a uniformly random legal move | ignored | ignored | 1 |
//!
//! Move values are in each agent's own units: MCTS and flat report mean returns (merge score plus, for
//! truncated rollouts, evaluation points; see [`super::RolloutPolicy`]), expectimax and greedy
//! evaluation points.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::expectimax::{self, ParallelExpectimax};
use super::{greedy_afterstate, tables, Board, Dir, G2048Policy, G2048State, RolloutPolicy, G2048};
use crate::agent::{GameRecord, GameSeeds, How, Step};
use crate::param::{Kind, Param, Settings, Store, Value};
use crate::rng::{self, Rng};
use crate::search::{Backup, Event, Follower, Limits, ProgressObserver, Search, SearchParams, SearchReport, Session};

/// The agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum AgentKind {
    /// Monte Carlo Tree Search (the engine).
    Mcts,
    /// Depth-limited expectimax with a probability cut-off and a cache.
    Expectimax,
    /// Flat Monte Carlo: rollouts from each move, best mean.
    Flat,
    /// The move with the best merge score plus evaluation of its afterstate.
    Greedy,
    /// A uniformly random legal move.
    Random,
}

impl AgentKind {
    /// Every agent, strongest first.
    pub const ALL: [AgentKind; 5] =
        [AgentKind::Mcts, AgentKind::Expectimax, AgentKind::Flat, AgentKind::Greedy, AgentKind::Random];

    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Mcts => "mcts",
            AgentKind::Expectimax => "expectimax",
            AgentKind::Flat => "flat",
            AgentKind::Greedy => "greedy",
            AgentKind::Random => "random",
        }
    }
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AgentKind {
    type Err = String;

    /// Reads an agent's name, in any case.
    ///
    /// # Errors
    /// A one-line message listing the agents.
    fn from_str(s: &str) -> Result<AgentKind, String> {
        AgentKind::ALL
            .into_iter()
            .find(|a| s.trim().eq_ignore_ascii_case(a.name()))
            .ok_or_else(|| format!("unknown agent '{s}' (expected mcts, expectimax, flat, greedy or random)"))
    }
}

/// Everything an agent needs to decide.
#[derive(Clone, Debug)]
pub struct AgentConfig {
    /// Which agent.
    pub kind: AgentKind,
    /// Limits per move and the engine's parameters (see the module documentation).
    pub search: SearchParams,
    /// The rollout policy used by MCTS and flat Monte Carlo, and the evaluation of every agent that
    /// evaluates boards.
    pub policy: G2048Policy,
    /// Expectimax depth and cut-off (its time comes from `search.time_ms`).
    pub expectimax: expectimax::Limits,
    /// Expectimax cache entries (16 bytes each), shared evenly by its threads.
    pub cache_slots: usize,
    /// MCTS in a game ([`crate::agent::play_game`]): keep the search tree from move to move, re-rooted
    /// on the move played and the tile spawned ([`Session`]), so that each search starts from what the
    /// last one learnt about the position.
    pub reuse: bool,
}

impl AgentConfig {
    /// The defaults of agent `kind`: the engine's [`SearchParams`] defaults with, for MCTS,
    /// [`MCTS_EXPLORATION`], the max backup ([`Backup::Max`]) and [`RolloutPolicy::TUNED`] rollouts; flat Monte Carlo with uniform-random
    /// rollouts to the end; expectimax at the depth [`expectimax::depth_for`] gives each board (or by
    /// iterative deepening once `search.time_ms` is set), cut-off 1e-4, [`DEFAULT_CACHE_SLOTS`].
    pub fn new(kind: AgentKind) -> AgentConfig {
        let mut search = SearchParams::default();
        let mut rollout = RolloutPolicy::RANDOM;
        if kind == AgentKind::Mcts {
            search.exploration = MCTS_EXPLORATION;
            search.backup = Backup::Max;
            rollout = RolloutPolicy::TUNED;
        }
        AgentConfig {
            kind,
            search,
            policy: G2048Policy::with_rollout(rollout),
            expectimax: expectimax::Limits::default(),
            cache_slots: DEFAULT_CACHE_SLOTS,
            reuse: true,
        }
    }
}

impl AgentKind {
    /// Whether this agent reads the declared parameter `name`: a search parameter
    /// ([`SearchParams`]'s table) or one of [`AgentConfig`]'s own. MCTS reads every search parameter;
    /// flat Monte Carlo `playouts`, `time`, `threads` and `seed`; expectimax `time`, `threads` and
    /// `memory` (its cache); random `seed`; greedy none. The rollout parameters are read by MCTS and
    /// flat, `depth` and `prob_cutoff` by expectimax; the evaluation (`eval`,
    /// [`G2048Policy::evaluation`]) by every agent but random.
    pub fn uses(self, name: &str) -> bool {
        use AgentKind::{Expectimax, Flat, Greedy, Mcts, Random};
        let users: &[AgentKind] = match name {
            "playouts" => &[Mcts, Flat],
            "time" | "threads" => &[Mcts, Flat, Expectimax],
            "seed" => &[Mcts, Flat, Random],
            "memory" => &[Mcts, Expectimax],
            "rollout" | "epsilon" | "rollout_depth" | "leaf_depth" => &[Mcts, Flat],
            "depth" | "prob_cutoff" => &[Expectimax],
            "reuse" => &[Mcts],
            "eval" => &[Mcts, Flat, Expectimax, Greedy],
            _ => &[Mcts],
        };
        users.contains(&self)
    }
}

/// The largest rollout length in moves (`rollout_depth`).
pub const MAX_ROLLOUT_DEPTH: u64 = 10_000;

/// The agents' own parameters; each agent starts from its defaults ([`AgentConfig::new`]).
const AGENT_PARAMS: &[Param<AgentConfig>] = &[
    Param {
        name: "rollout",
        help: "Rollout moves for mcts and flat: random (uniform) or egreedy (the best merge score + evaluation, a \
               random move with probability epsilon); mcts egreedy, flat random by default",
        kind: Kind::Choice(&["random", "egreedy"]),
        store: Store::Choice(|c, i| {
            let r = &mut c.policy.rollout;
            r.epsilon = match i {
                0 => 1.0,
                _ if r.epsilon >= 1.0 => DEFAULT_EPSILON,
                _ => r.epsilon,
            }
        }),
        get: |c| Value::Choice(if c.policy.rollout.epsilon >= 1.0 { "random" } else { "egreedy" }),
    },
    Param {
        name: "epsilon",
        help: "Probability of a random move in egreedy rollouts (mcts 0; egreedy flat 0.2)",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        store: Store::Real(|c, v| c.policy.rollout.epsilon = v),
        get: |c| Value::Real(c.policy.rollout.epsilon),
    },
    Param {
        name: "rollout_depth",
        help: "Rollout length: D stops after D moves and adds the evaluation of the board (docs/2048.md); end plays \
               to the end (mcts 1, flat end)",
        kind: Kind::Limit { min: 0, max: MAX_ROLLOUT_DEPTH, none: "end" },
        store: Store::Limit(|c, v| c.policy.rollout.depth = v.map(|d| d as u32)),
        get: |c| c.policy.rollout.depth.map_or(Value::Unset, |d| Value::Int(u64::from(d))),
    },
    Param {
        name: "leaf_depth",
        help: "Moves of expectimax that score the board where a truncated rollout stops, 0: the evaluation alone \
               (mcts 1, flat 0)",
        kind: Kind::Int { min: 0, max: 3 },
        store: Store::Int(|c, v| c.policy.rollout.leaf_depth = v as u32),
        get: |c| Value::Int(u64::from(c.policy.rollout.leaf_depth)),
    },
    Param {
        name: "prior_temperature",
        help: "PUCT priors (with --selection puct) from the evaluation: a softmax over the moves' merge score + \
               evaluation at this temperature, relative to the best move's value; 0: no priors (default 0)",
        kind: Kind::Real { min: 0.0, max: 1e6 },
        store: Store::Real(|c, v| c.policy.prior_temperature = v),
        get: |c| Value::Real(c.policy.prior_temperature),
    },
    Param {
        name: "depth",
        help: "Expectimax depth in moves (default: iterative deepening within the time; without one, max(4, \
               distinct tiles - 1))",
        kind: Kind::Int { min: 1, max: expectimax::MAX_DEPTH as u64 },
        store: Store::Int(|c, v| c.expectimax.depth = Some(v as u32)),
        get: |c| c.expectimax.depth.map_or(Value::Unset, |d| Value::Int(u64::from(d))),
    },
    Param {
        name: "prob_cutoff",
        help: "Expectimax probability cut-off: chance nodes reached with a smaller probability are scored by the \
               evaluation, 0 turns it off (default 0.0001)",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        store: Store::Real(|c, v| c.expectimax.prob_cutoff = v),
        get: |c| Value::Real(c.expectimax.prob_cutoff),
    },
    Param {
        name: "reuse",
        help: "Keep MCTS's search tree from move to move in a game (re-rooted on the move and the spawn)",
        kind: Kind::Flag,
        store: Store::Flag(|c, v| c.reuse = v),
        get: |c| Value::Flag(c.reuse),
    },
];

impl Settings for AgentConfig {
    fn params() -> &'static [Param<AgentConfig>] {
        AGENT_PARAMS
    }
}

/// The UCT exploration constant of the MCTS agent on 2048 (on per-node min/max normalised values), chosen by
/// the trials in docs/2048.md: with the max backup, `C = 4` scored 264480 on average against 218667 for the
/// engine's generic 1.0 (10 ms per move, 2 threads, the same 20 starts), and it keeps the root from settling
/// on one move early, so that extra time per move still changes choices.
pub const MCTS_EXPLORATION: f64 = 4.0;

/// Epsilon of egreedy rollouts when the agent has no default of its own (flat Monte Carlo).
pub const DEFAULT_EPSILON: f64 = 0.2;

/// Expectimax cache entries by default: 4 Mi entries, 64 MiB.
pub const DEFAULT_CACHE_SLOTS: usize = 1 << 22;

/// One legal move as an agent saw it.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveInfo {
    /// The move.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub dir: Dir,
    /// The agent's value of the move in its own units (`None`: not evaluated).
    pub value: Option<f64>,
    /// Playouts (MCTS) or rollouts (flat) through the move; 0 for the other agents.
    pub visits: u64,
    /// Merge score of the move.
    pub reward: u32,
}

/// An agent's decision on one board.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The chosen move (`None`: no legal move).
    pub best: Option<Dir>,
    /// Every legal move, in [`Dir::ALL`] order.
    pub moves: Vec<MoveInfo>,
    /// Work done: playouts (MCTS), rollouts (flat), nodes (expectimax), afterstates (greedy), 0 (random).
    pub work: u64,
    /// Expectimax: depth of the deepest completed iteration.
    pub depth: Option<u32>,
    /// Wall time of the decision in milliseconds.
    pub elapsed_ms: f64,
    /// The engine's full report (MCTS only).
    pub report: Option<SearchReport<Dir>>,
}

/// An agent with its state between moves (the expectimax cache).
pub struct Agent {
    config: AgentConfig,
    expectimax: Option<ParallelExpectimax>,
    /// The kept search tree of MCTS in a game ([`AgentConfig::reuse`]).
    session: Follower<G2048, G2048Policy>,
}

impl Agent {
    /// The agent `config` describes.
    pub fn new(config: AgentConfig) -> Agent {
        // Build the row table now rather than inside the first timed decision.
        let _ = tables::row_table();
        let expectimax = (config.kind == AgentKind::Expectimax)
            .then(|| ParallelExpectimax::new(config.policy.evaluation, config.search.threads, config.cache_slots));
        Agent { config, expectimax, session: Follower::default() }
    }

    /// The configuration.
    pub fn config(&self) -> &AgentConfig {
        &self.config
    }

    /// Chooses a move for `board` (the player to move). `seed` seeds this decision's randomness (MCTS
    /// workers, flat rollouts, random moves).
    pub fn decide(&mut self, board: &Board, seed: u64) -> Decision {
        self.decide_observed(board, seed, None)
    }

    /// [`Agent::decide`], calling `progress` while the MCTS agent's search runs (see
    /// [`Search::run_observed`]); the other agents do not call it.
    pub fn decide_observed(&mut self, board: &Board, seed: u64, progress: Option<ProgressObserver<'_>>) -> Decision {
        self.decide_searching(board, seed, |search, state| search.run_observed(state, None, progress))
    }

    /// [`Agent::decide`], with the MCTS agent's search run by `run` (given the configured search and the
    /// position; an open-ended analysis, say); the other agents do not call it.
    pub fn decide_searching(
        &mut self,
        board: &Board,
        seed: u64,
        run: impl FnOnce(&Search<'_, G2048, G2048Policy>, &G2048State) -> SearchReport<Dir>,
    ) -> Decision {
        let start = Instant::now();
        let legal = board.legal_dirs();
        let mut moves: Vec<MoveInfo> =
            legal.iter().map(|dir| MoveInfo { dir, value: None, visits: 0, reward: board.afterstate(dir).1 }).collect();
        let mut decision =
            Decision { best: None, moves: Vec::new(), work: 0, depth: None, elapsed_ms: 0.0, report: None };
        if legal.is_empty() {
            return decision;
        }
        let policy = &self.config.policy;
        match self.config.kind {
            AgentKind::Mcts => {
                let params = SearchParams { seed, ..self.config.search.clone() };
                let report = run(&Search::with_policy(&G2048, policy, params), &G2048State::from_board(*board));
                for m in &mut moves {
                    if let Some(a) = report.action(&m.dir) {
                        m.value = a.mean;
                        m.visits = a.visits;
                    }
                }
                decision.best = report.best;
                decision.work = report.playouts;
                decision.report = Some(report);
            }
            AgentKind::Expectimax => {
                let limits = expectimax::Limits { time_ms: self.config.search.time_ms, ..self.config.expectimax };
                let config = &self.config;
                let searcher = self.expectimax.get_or_insert_with(|| {
                    ParallelExpectimax::new(config.policy.evaluation, config.search.threads, config.cache_slots)
                });
                let r = searcher.search(board, &limits);
                for m in &mut moves {
                    m.value = r.values[m.dir.index()];
                }
                decision.best = r.best;
                decision.work = r.nodes;
                decision.depth = Some(r.depth);
            }
            AgentKind::Flat => {
                let (values, visits) = flat(policy, board, &self.config.search, seed);
                for m in &mut moves {
                    m.visits = visits[m.dir.index()];
                    m.value = (m.visits > 0).then(|| values[m.dir.index()]);
                }
                decision.best = best_by_value(&moves);
                decision.work = visits.iter().sum();
            }
            AgentKind::Greedy => {
                let h = &policy.evaluation;
                for m in &mut moves {
                    let (after, gain) = board.afterstate(m.dir);
                    m.value = Some(f64::from(gain as f32 + h.evaluate(&after)));
                }
                decision.best = Some(greedy_afterstate(h, tables::row_table(), *board, legal).0);
                decision.work = moves.len() as u64;
            }
            AgentKind::Random => {
                let mut r = rng::seeded(seed, 0);
                decision.best = Some(legal.nth(rng::below(&mut r, legal.len())));
            }
        }
        if decision.best.is_none() {
            // Every agent above names a move when one is legal; this keeps a game going if one did not.
            decision.best = legal.iter().next();
        }
        decision.moves = moves;
        decision.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
        decision
    }
}

/// The move with the largest value (ties: the first).
fn best_by_value(moves: &[MoveInfo]) -> Option<Dir> {
    let mut best: Option<(Dir, f64)> = None;
    for m in moves {
        if let Some(v) = m.value {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((m.dir, v));
            }
        }
    }
    best.map(|(d, _)| d)
}

/// Flat Monte Carlo: rollouts with `policy` from every legal move's afterstate (a spawn first),
/// taking the moves in turn, until the playout budget (all moves and threads together) or the time runs
/// out; the first thread always completes one round, so every move has a rollout when the budget
/// allows. Returns each move's mean of `merge score + rollout value` and its rollout count, in
/// [`Dir::ALL`] order.
pub fn flat(policy: &G2048Policy, board: &Board, params: &SearchParams, seed: u64) -> ([f64; 4], [u64; 4]) {
    let legal: Vec<(Dir, Board, f64)> = board
        .legal_dirs()
        .iter()
        .map(|d| {
            let (after, gain) = board.afterstate(d);
            (d, after, f64::from(gain))
        })
        .collect();
    let threads = params.threads.max(1);
    let deadline = params.time_ms.map(|ms| Instant::now() + Duration::from_millis(ms));
    let budget = match (params.playouts, params.time_ms) {
        (Some(p), _) => p,
        (None, Some(_)) => u64::MAX,
        (None, None) => crate::search::DEFAULT_PLAYOUTS,
    };
    let worker = |t: usize| -> ([f64; 4], [u64; 4]) {
        let mut rng: Rng = rng::seeded(seed, t as u64);
        let mut sums = [0.0; 4];
        let mut counts = [0u64; 4];
        // This thread's share of the budget.
        let share = budget / threads as u64 + u64::from((t as u64) < budget % threads as u64);
        let mut done = 0u64;
        'outer: loop {
            for &(d, after, gain) in &legal {
                // Thread 0 finishes one round whatever the clock says, so that every move has a value
                // even when the threads start late on a busy machine.
                let first_round = t == 0 && done < legal.len() as u64;
                if done >= share || (!first_round && deadline.is_some_and(|dl| Instant::now() >= dl)) {
                    break 'outer;
                }
                let s = G2048State { board: after, spawn_pending: true };
                sums[d.index()] += gain + policy.rollout_value(&s, &mut rng);
                counts[d.index()] += 1;
                done += 1;
            }
        }
        (sums, counts)
    };
    let results: Vec<([f64; 4], [u64; 4])> = if threads == 1 {
        vec![worker(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || worker(t))).collect();
            handles.into_iter().map(|h| h.join().expect("flat Monte Carlo worker panicked")).collect()
        })
    };
    let mut sums = [0.0; 4];
    let mut counts = [0u64; 4];
    for (s, c) in results {
        for i in 0..4 {
            sums[i] += s[i];
            counts[i] += c[i];
        }
    }
    let means = std::array::from_fn(|i| if counts[i] > 0 { sums[i] / counts[i] as f64 } else { 0.0 });
    (means, counts)
}

impl crate::agent::Agent<G2048> for Agent {
    fn name(&self) -> String {
        self.config.kind.name().to_string()
    }

    /// [`Agent::decide`] on the state's board with the decision's seed; MCTS with
    /// [`AgentConfig::reuse`] searches on the tree kept from its last move instead.
    fn choose(
        &mut self,
        _game: &G2048,
        state: &G2048State,
        cx: &mut crate::agent::Context<'_>,
    ) -> Option<crate::agent::Decision<Dir>> {
        if self.config.kind == AgentKind::Mcts && self.config.reuse {
            let began = Instant::now();
            let params = SearchParams { seed: cx.seed, ..self.config.search.clone() };
            let session = match self.session.slot() {
                Some(s) if s.state() == state => {
                    s.set_params(params.clone());
                    s
                }
                kept => kept.insert(Session::with_policy(G2048, self.config.policy, *state, params.clone())),
            };
            // The re-rooting is part of the move's time.
            let report = session.search(Limits { playouts: params.playouts, time_ms: params.time_ms }.since(began));
            return Some(crate::agent::Decision {
                action: report.best?,
                how: How::Search,
                work: report.playouts,
                report: Some(report),
            });
        }
        let d = self.decide(&state.board, cx.seed);
        let how = if self.config.kind == AgentKind::Mcts { How::Search } else { How::Baseline };
        Some(crate::agent::Decision { action: d.best?, how, work: d.work, report: d.report })
    }

    /// Follows the game on the kept tree (MCTS with [`AgentConfig::reuse`]): the move and the spawn
    /// re-root it together before the next search ([`Follower`]); a tree that cannot follow is dropped.
    fn observe(&mut self, _game: &G2048, event: Event<Dir, <G2048 as crate::Game>::Outcome>) {
        self.session.observe(event);
    }
}

/// Plays one game of 2048 from the original start ([`G2048State::new_game`]: two tiles spawned on the
/// empty board) to the end with `agent`, through the generic loop ([`crate::agent::play_game`]) and its
/// seed scheme: the spawns come from the chance stream of `seed` alone, so two agents given the same seed start from the same board, and the decision at move `m` is
/// seeded with `seed · 1 000 003 + m`. `on_move` sees the position after every step.
pub fn play(agent: &mut Agent, seed: u64, on_move: impl FnMut(&G2048State, &Step<G2048>)) -> GameRecord<G2048> {
    let mut agents: [&mut dyn crate::agent::Agent<G2048>; 1] = [agent];
    crate::agent::play_game(&G2048, G2048State::new_game, &mut agents, GameSeeds::new(seed), None, on_move)
}
