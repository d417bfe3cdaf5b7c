//! Agents: one trait for "choose a move in this state", one game loop, one game record, one seed scheme.
//!
//! Every move chooser of the project — the tree search ([`Mcts`]) and every baseline of every game —
//! implements [`Agent`], so that one loop ([`play_game`]) plays any of them on any game, and the command
//! line's `play`, `compare`, `sweep` and `match` are written once.
//!
//! Seeds ([`GameSeeds`]): a game with seed `s` draws its chance outcomes from one stream, each player's
//! agent its own randomness from another, and the decision at ply `m` gets the seed `s · 1 000 003 + m`
//! (a search's seed). Two agents given the same game seed therefore meet the same chance outcomes for
//! as long as they make the same moves, and see the same start.
//!
//! ```
//! use canopy_mcts::agent::{play_game, Agent, GameSeeds, Mcts, RandomAgent};
//! use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
//! use canopy_mcts::SearchParams;
//!
//! let params = SearchParams { playouts: Some(2_000), threads: 1, ..SearchParams::default() };
//! // The search keeps its tree from move to move (`Mcts::with_reuse(false)` searches afresh each move).
//! let mut mcts = Mcts::<TicTacToe>::new(params);
//! let mut random = RandomAgent;
//! let mut agents: [&mut dyn Agent<TicTacToe>; 2] = [&mut mcts, &mut random];
//! let record = play_game(&TicTacToe, |_| TicTacToeState::default(), &mut agents, GameSeeds::new(7), None, |_, _| {});
//! assert!(record.finished);
//! // The search never loses tic-tac-toe against random moves.
//! assert!(record.returns[0] >= 0.5);
//! ```

use std::fmt;
use std::time::Instant;

use crate::game::{Game, Returns, Turn};
use crate::rng::{self, Rng};
use crate::search::{Event, Follower, Limits, Search, SearchParams, SearchReport, Session};
use crate::sync::AtomicBool;

/// How an agent arrived at its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    /// The best move of a tree search.
    Search,
    /// The only sensible move, played without a search (a win now, a forced block, the only legal or
    /// safe move).
    Forced,
    /// A game-specific procedure that settles the move without a search, named here (Gomoku: `"vcf"`, a
    /// victory by continuous fours, or `"vct"`, by continuous threats; Snake: `"cycle"`, following a
    /// closing Hamiltonian cycle).
    Tactic(&'static str),
    /// A baseline agent's rule (random, greedy, expectimax, flat Monte Carlo, ...).
    Baseline,
    /// The agent had nothing usable (a search stopped before its first playout); a stand-in move was
    /// played.
    Fallback,
}

impl How {
    /// Lowercase name: `search`, `forced`, the tactic's name, `baseline` or `fallback`.
    pub fn name(self) -> &'static str {
        match self {
            How::Search => "search",
            How::Forced => "forced",
            How::Tactic(name) => name,
            How::Baseline => "baseline",
            How::Fallback => "fallback",
        }
    }
}

impl fmt::Display for How {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An agent's choice for one position.
#[derive(Clone, Debug)]
pub struct Decision<A> {
    /// A legal action of the position.
    pub action: A,
    /// How it was chosen.
    pub how: How,
    /// Work done, in the agent's own unit: playouts (tree search), rollouts (flat Monte Carlo), nodes
    /// (expectimax), positions scored (greedy), 0 (random).
    pub work: u64,
    /// The search behind the choice, when there was one.
    pub report: Option<SearchReport<A>>,
}

impl<A> Decision<A> {
    /// A decision made by rule (no search, no work counted).
    pub fn by(action: A, how: How) -> Self {
        Decision { action, how, work: 0, report: None }
    }

    /// The decision of a finished search: its best action, its playouts as work. `None` when the search
    /// found no action (it stopped before its first playout).
    pub fn from_report(report: SearchReport<A>) -> Option<Self>
    where
        A: Copy,
    {
        let action = report.best?;
        Some(Decision { action, how: How::Search, work: report.playouts, report: Some(report) })
    }
}

/// What an agent is given besides the position.
pub struct Context<'a> {
    /// The seed of this decision ([`GameSeeds::decision`]); searches use it as their seed.
    pub seed: u64,
    /// The agent's own random stream for this game ([`GameSeeds::agent`]), for baselines' draws.
    pub rng: &'a mut Rng,
    /// Becomes true when the caller wants the decision now (a protocol's stop): searches end early.
    pub stop: Option<&'a AtomicBool>,
}

/// A move chooser for game `G`.
///
/// Implementations choose for the player to move in a [`Turn::Player`] position; the loop never asks
/// in a chance or terminal position.
pub trait Agent<G: Game> {
    /// Short lowercase name (`mcts`, `random`, `expectimax`, ...), for tables and records.
    fn name(&self) -> String;

    /// A legal action for the player to move in `state`, or `None` when the agent has none (the loop
    /// then plays a uniformly random legal action and records it as [`How::Fallback`]).
    fn choose(&mut self, game: &G, state: &G::State, cx: &mut Context<'_>) -> Option<Decision<G::Action>>;

    /// Sees what happened in the game: every move (its own and the others') and every chance outcome,
    /// in order, after it was applied. An agent that keeps a search tree between its moves
    /// ([`crate::Session::advance`]) follows the game here; the default ignores it.
    fn observe(&mut self, _game: &G, _event: Event<G::Action, G::Outcome>) {}
}

/// The seed scheme of a game: from one seed, independent streams for chance outcomes and for each
/// player's agent, and one seed per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSeeds {
    /// The game's seed.
    pub seed: u64,
}

/// Stream number of the chance outcomes (shared with the engine's historical 2048 and Snake loops).
const CHANCE_STREAM: u64 = 1 << 32;
/// Stream number of player 0's agent; player `p` uses `AGENT_STREAM + p`.
const AGENT_STREAM: u64 = 1 << 33;

impl GameSeeds {
    /// The streams of game seed `seed`.
    pub fn new(seed: u64) -> Self {
        GameSeeds { seed }
    }

    /// The seed of game `index` of a series started with `seed` (`seed + index`, wrapping).
    pub fn series(seed: u64, index: u64) -> Self {
        GameSeeds { seed: seed.wrapping_add(index) }
    }

    /// The chance stream: every spawn, food cell or other outcome of the game, in order.
    pub fn chance(&self) -> Rng {
        rng::seeded(self.seed, CHANCE_STREAM)
    }

    /// Player `player`'s agent stream.
    pub fn agent(&self, player: usize) -> Rng {
        rng::seeded(self.seed, AGENT_STREAM + player as u64)
    }

    /// The seed of the decision at `ply` (0-based count of the players' moves so far): `seed · 1 000 003 +
    /// ply`, wrapping.
    pub fn decision(&self, ply: u64) -> u64 {
        self.seed.wrapping_mul(1_000_003).wrapping_add(ply)
    }
}

/// One step of a played game.
#[derive(Clone, Debug)]
pub enum Step<G: Game> {
    /// A player's move.
    Move {
        /// The player who moved.
        player: usize,
        /// The action played.
        action: G::Action,
        /// How the agent chose it.
        how: How,
        /// The agent's work for it (see [`Decision::work`]).
        work: u64,
        /// Wall time of the decision, milliseconds.
        elapsed_ms: f64,
        /// The mover's immediate reward.
        reward: f64,
        /// Memory of the search behind the move, bytes (0 without a search).
        memory_bytes: usize,
        /// Whether that search reached its memory budget.
        memory_limited: bool,
        /// Playouts the search's root already held when it started, from the tree kept since the agent's
        /// last search (its `root_visits - playouts`; 0 for a fresh tree or without a search).
        kept_playouts: u64,
    },
    /// A chance outcome.
    Chance(G::Outcome),
}

/// A played game: the start, every step, the last position and the totals.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    /// The game's seed.
    pub seed: u64,
    /// The first position.
    pub start: G::State,
    /// Every move and chance outcome, in order.
    pub steps: Vec<Step<G>>,
    /// The last position.
    pub last: G::State,
    /// Whether the last position is terminal (false when the move limit stopped the game).
    pub finished: bool,
    /// Each player's return: the rewards of its moves plus, for a finished game, its terminal payoff.
    /// Two-player games here pay 1 for a win, 0.5 for a draw and 0 for a loss.
    pub returns: G::Returns,
    /// Moves played by each player (one entry per player).
    pub moves: Vec<u64>,
    /// Work of each player's decisions, summed (see [`Decision::work`]; one entry per player).
    pub work: Vec<u64>,
    /// Playouts each player's searches found in their kept trees when they started, summed (see
    /// [`Step::Move`]'s `kept_playouts`; one entry per player).
    pub kept_playouts: Vec<u64>,
    /// Decision time of each player, milliseconds (one entry per player).
    pub think_ms: Vec<f64>,
    /// Wall time of the whole game, milliseconds.
    pub elapsed_ms: f64,
}

impl<G: Game> GameRecord<G> {
    /// Moves of all players together.
    pub fn total_moves(&self) -> u64 {
        self.moves.iter().sum()
    }

    /// The actions played, in order (chance outcomes left out).
    pub fn actions(&self) -> impl Iterator<Item = G::Action> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Move { action, .. } => Some(*action),
            Step::Chance(_) => None,
        })
    }

    /// The winner of a finished two-player game with win/draw/loss payoffs (`None`: a draw, an unfinished
    /// game, or a game of another kind).
    pub fn winner(&self) -> Option<usize> {
        if !self.finished || <G::Returns as Returns>::PLAYERS != 2 {
            return None;
        }
        match (self.returns[0], self.returns[1]) {
            (a, b) if a > b => Some(0),
            (a, b) if b > a => Some(1),
            _ => None,
        }
    }
}

/// Plays one game of `game` to its end, or until `max_moves` player moves when given.
///
/// `start` builds the first position from the game's chance stream (2048 spawns its first two tiles
/// from it; a fixed position ignores it). `agents[p]` plays for player `p`; a game with fewer players
/// uses the first entries. Chance outcomes are sampled with [`Game::sample_outcome`] from
/// [`GameSeeds::chance`]. An agent that returns `None` or an illegal action is replaced for that move by
/// a uniformly random legal action recorded as [`How::Fallback`]. `on_step` sees every step with the
/// position after it.
///
/// # Panics
/// Panics when `agents` has fewer entries than the game's players.
pub fn play_game<G: Game>(
    game: &G,
    start: impl FnOnce(&mut Rng) -> G::State,
    agents: &mut [&mut dyn Agent<G>],
    seeds: GameSeeds,
    max_moves: Option<u64>,
    mut on_step: impl FnMut(&G::State, &Step<G>),
) -> GameRecord<G> {
    assert!(agents.len() >= game.players(), "{} agents for a {}-player game", agents.len(), game.players());
    let began = Instant::now();
    let mut chance = seeds.chance();
    let mut agent_rngs: Vec<Rng> = (0..game.players()).map(|p| seeds.agent(p)).collect();
    let start = start(&mut chance);
    let mut state = start.clone();
    let mut record: GameRecord<G> = GameRecord {
        seed: seeds.seed,
        start,
        steps: Vec::new(),
        last: state.clone(),
        finished: false,
        returns: G::Returns::zero(),
        moves: vec![0; game.players()],
        work: vec![0; game.players()],
        kept_playouts: vec![0; game.players()],
        think_ms: vec![0.0; game.players()],
        elapsed_ms: 0.0,
    };
    let mut legal = Vec::new();
    let mut ply = 0u64;
    loop {
        match game.to_move(&state) {
            Turn::Terminal => {
                record.finished = true;
                Returns::add(&mut record.returns, &game.returns(&state));
                break;
            }
            Turn::Chance => {
                let outcome = game.sample_outcome(&state, &mut chance);
                game.apply_outcome(&mut state, outcome);
                let step = Step::Chance(outcome);
                for agent in agents.iter_mut() {
                    agent.observe(game, Event::Outcome(outcome));
                }
                on_step(&state, &step);
                record.steps.push(step);
            }
            Turn::Player(p) => {
                if max_moves.is_some_and(|m| ply >= m) {
                    break;
                }
                let t0 = Instant::now();
                let mut cx = Context { seed: seeds.decision(ply), rng: &mut agent_rngs[p], stop: None };
                let decision = agents[p].choose(game, &state, &mut cx);
                let elapsed_ms = t0.elapsed().as_secs_f64() * 1e3;
                let decision = match decision.filter(|d| game.is_legal(&state, d.action, &mut legal)) {
                    Some(d) => d,
                    None => {
                        game.legal_actions(&state, &mut legal);
                        Decision::by(legal[rng::below(&mut agent_rngs[p], legal.len())], How::Fallback)
                    }
                };
                let reward = game.apply(&mut state, decision.action);
                for agent in agents.iter_mut() {
                    agent.observe(game, Event::Action(decision.action));
                }
                record.returns[p] += reward;
                record.moves[p] += 1;
                record.work[p] += decision.work;
                let kept_playouts = decision.report.as_ref().map_or(0, |r| r.root_visits.saturating_sub(r.playouts));
                record.kept_playouts[p] += kept_playouts;
                record.think_ms[p] += elapsed_ms;
                let step = Step::Move {
                    player: p,
                    action: decision.action,
                    how: decision.how,
                    work: decision.work,
                    elapsed_ms,
                    reward,
                    memory_bytes: decision.report.as_ref().map_or(0, |r| r.memory_bytes),
                    memory_limited: decision.report.as_ref().is_some_and(|r| r.memory_limited),
                    kept_playouts,
                };
                on_step(&state, &step);
                record.steps.push(step);
                ply += 1;
            }
        }
    }
    record.last = state;
    record.elapsed_ms = began.elapsed().as_secs_f64() * 1e3;
    record
}

/// The tree search as an agent for game `G`, with `params` (their seed replaced by the decision's).
///
/// By default it keeps its search tree from move to move in a game ([`Session`]): every move and chance
/// outcome the game loop reports ([`Agent::observe`]) re-roots the tree, so that the next search starts
/// from what the earlier ones learnt about the position. A position the tree does not stand for (a new
/// game, a move it could not follow) starts a fresh tree. [`Mcts::with_reuse`]`(false)` runs one fresh
/// [`Search`] per move instead.
pub struct Mcts<G: Game> {
    /// Search parameters of every move.
    pub params: SearchParams,
    /// Keep the tree between moves.
    reuse: bool,
    /// The kept tree, following the events observed.
    session: Follower<G>,
}

impl<G: Game> Mcts<G> {
    /// The search agent with `params`, keeping its tree between moves.
    pub fn new(params: SearchParams) -> Self {
        Mcts { params, reuse: true, session: Follower::default() }
    }

    /// The same agent keeping its tree between moves (`true`, the default) or searching every move from a
    /// new tree (`false`).
    pub fn with_reuse(mut self, reuse: bool) -> Self {
        self.reuse = reuse;
        self.session.clear();
        self
    }

    /// Whether the agent keeps its tree between moves.
    pub fn reuse(&self) -> bool {
        self.reuse
    }
}

impl<G: Game> fmt::Debug for Mcts<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mcts")
            .field("params", &self.params)
            .field("reuse", &self.reuse)
            .field("kept_nodes", &self.session.peek().map(Session::nodes))
            .finish()
    }
}

/// States are compared to tell whether the kept tree stands for the position asked about.
impl<G: Game + Clone> Agent<G> for Mcts<G>
where
    G::State: PartialEq,
{
    fn name(&self) -> String {
        "mcts".to_string()
    }

    fn choose(&mut self, game: &G, state: &G::State, cx: &mut Context<'_>) -> Option<Decision<G::Action>> {
        let began = Instant::now();
        let params = SearchParams { seed: cx.seed, ..self.params.clone() };
        if !self.reuse {
            return Decision::from_report(Search::new(game, params).run_with_stop(state, cx.stop));
        }
        let limits = Limits { playouts: params.playouts, time_ms: params.time_ms };
        let session = match self.session.slot() {
            Some(s) if s.state() == state => {
                s.set_params(params);
                s
            }
            kept => kept.insert(Session::new(game.clone(), state.clone(), params)),
        };
        // The re-rooting is part of the move's time.
        Decision::from_report(session.search_observed(limits.since(began), cx.stop, None))
    }

    /// Queues the event for the kept tree, which is re-rooted before the next search ([`Follower`]).
    fn observe(&mut self, _game: &G, event: Event<G::Action, G::Outcome>) {
        self.session.observe(event);
    }
}

/// A uniformly random legal action, for any game.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, game: &G, state: &G::State, cx: &mut Context<'_>) -> Option<Decision<G::Action>> {
        let mut legal = Vec::new();
        game.legal_actions(state, &mut legal);
        (!legal.is_empty()).then(|| Decision::by(legal[rng::below(cx.rng, legal.len())], How::Baseline))
    }
}

/// An agent made of a function of the position and the agent's random stream (a baseline written as a
/// plain function, such as Snake's `greedy`).
pub struct FnAgent<F> {
    name: &'static str,
    choose: F,
}

impl<F> FnAgent<F> {
    /// The agent `name` that plays `choose(state, rng)`.
    pub fn new(name: &'static str, choose: F) -> Self {
        FnAgent { name, choose }
    }
}

impl<G: Game, F: FnMut(&G::State, &mut Rng) -> G::Action> Agent<G> for FnAgent<F> {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn choose(&mut self, _game: &G, state: &G::State, cx: &mut Context<'_>) -> Option<Decision<G::Action>> {
        Some(Decision::by((self.choose)(state, cx.rng), How::Baseline))
    }
}
