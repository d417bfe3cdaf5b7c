//! The MCTS agent for Snake: the engine's search over a [`Snake`] with a [`SnakePolicy`] configured for
//! strength.
//!
//! The policy ([`MctsAgent::search_policy`]) is what makes plain MCTS strong on long snakes:
//!
//! - **Tail-safe candidate moves** ([`TailFilter::Now`]): in every searched position only the
//!   moves after which the head can still reach its tail are searched, when any is. A snake that keeps that
//!   property never runs into itself, so the search spends no playouts on slow suicides and the agent
//!   can only die by starvation.
//! - **Safe-greedy rollouts** ([`RolloutPolicy::SafeGreedy`]) capped at a few board areas of moves
//!   ([`SnakePolicy::rollout_max_moves`]): the return of a playout is the food it eats before the cap (plus
//!   the survival bonus), so the search prefers moves after which food keeps coming quickly.
//! - **Forced moves are played without a search**: when only one move is tail-safe there is nothing to
//!   choose.
//! - **Closing cycles in rollouts** ([`SnakePolicy::rollout_cycle_free`], a quarter of the cells): a rollout
//!   that reaches a position from which a closing cycle exists ([`ClosingCycle`]) scores the rest of the
//!   board as eaten, so the search steers toward such positions.
//! - **Endgame lock-in** ([`MctsAgent::with_endgame`]): once at most `endgame_free` cells are free, the
//!   agent looks (a small depth-first search, [`ClosingCycle`]) for a path from the head through every
//!   free cell to the tail; with the body it closes a Hamiltonian cycle, and walking that cycle fills the
//!   board with every food at most (free cells) moves away. From then on the agent follows the cycle
//!   without searching. Off by default in [`MctsAgent::new`]; the command line turns it on.
//! - **The tree is kept between moves** ([`MctsAgent::with_reuse`], on by default): the search tree of
//!   one move, re-rooted on the move played and the food spawned ([`Session::advance`]), starts the next
//!   search. The agent follows every move of the game ([`Agent::observe`]), searched or not, so the tree
//!   still stands for the position after forced and cycle moves (a fresh one where the old tree has no
//!   node for it); a position it does not stand for starts a fresh tree.
//!
//! Food spawns are chance nodes: the game lists every free cell (closed loop, one edge per outcome)
//! while there are at most [`Snake::max_listed_outcomes`] of them; beyond that the list is empty and the
//! engine samples a spawn on each traversal (open loop).

use std::time::Instant;

use crate::agent::{Agent, Context, Decision, How};
use crate::policy::Policy;
use crate::search::{Event, Follower, Limits, Search, SearchParams, SearchReport, Session};

use super::cycle::ClosingCycle;
use super::state::{Cell, Dir, SnakeState};
use super::{RolloutPolicy, Snake, SnakePolicy, TailFilter};

/// Default rollout cap of the MCTS agent, in board areas (`width * height` moves).
pub const ROLLOUT_AREAS: u32 = 2;

/// Node budget of one search for a closing cycle (about a millisecond on 8x8 and 10x10 boards).
pub const CYCLE_BUDGET: u32 = 4_000;

/// What the agent chose and why.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move.
    pub dir: Dir,
    /// How it was chosen.
    pub how: How,
    /// The search behind it (`None` unless `how` is [`How::Search`]).
    pub report: Option<SearchReport<Dir>>,
}

/// An MCTS player: the game, a search policy, search parameters, the closing cycle it locked into and
/// the search tree it keeps between moves.
pub struct MctsAgent {
    game: Snake,
    policy: SnakePolicy,
    params: SearchParams,
    legal: Vec<Dir>,
    /// Look for a closing cycle once at most this many cells are free (0: never).
    endgame_free: usize,
    cycle: Option<ClosingCycle>,
    /// Keep the search tree between moves.
    reuse: bool,
    /// The kept tree, following the events observed.
    session: Follower<Snake, SnakePolicy>,
}

impl MctsAgent {
    /// The agent's search policy for a `width` x `height` board (see the [module docs](self)).
    pub fn search_policy(width: usize, height: usize) -> SnakePolicy {
        let area = (width * height) as u32;
        SnakePolicy {
            rollout: RolloutPolicy::SafeGreedy,
            rollout_max_moves: ROLLOUT_AREAS * area,
            rollout_patience: area,
            tail_filter: TailFilter::Now,
            rollout_cycle_free: MctsAgent::default_endgame(width, height),
        }
    }

    /// An agent searching `game` (its rules must match the game played) with `policy` and `params`,
    /// keeping its tree between moves. Each search takes its seed from [`MctsAgent::choose`]'s caller.
    pub fn new(game: Snake, policy: SnakePolicy, params: SearchParams) -> Self {
        MctsAgent {
            game,
            policy,
            params,
            legal: Vec::with_capacity(4),
            endgame_free: 0,
            cycle: None,
            reuse: true,
            session: Follower::default(),
        }
    }

    /// The same agent keeping its search tree between moves (`true`, the default; see the
    /// [module docs](self)) or searching every move from a new tree (`false`).
    pub fn with_reuse(mut self, reuse: bool) -> Self {
        self.reuse = reuse;
        self.session.clear();
        self
    }

    /// Whether the agent keeps its search tree between moves.
    pub fn reuse(&self) -> bool {
        self.reuse
    }

    /// The same agent with the endgame lock-in: it looks for a closing cycle whenever at most
    /// `free_cells` cells are free (0 turns the lock-in off). See the [module docs](self).
    pub fn with_endgame(mut self, free_cells: usize) -> Self {
        self.endgame_free = free_cells;
        self
    }

    /// The default endgame threshold for a `width` x `height` board: a quarter of the cells.
    pub fn default_endgame(width: usize, height: usize) -> usize {
        width * height / 4
    }

    /// The game.
    pub fn game(&self) -> &Snake {
        &self.game
    }

    /// The search policy.
    pub fn policy(&self) -> &SnakePolicy {
        &self.policy
    }

    /// The search parameters.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Chooses a move for `s`, a position where the snake is to move; a search uses `seed`. With
    /// [`MctsAgent::with_reuse`] on, the search goes on in the kept tree when that stands for `s` (the
    /// caller reported every event since the last choice to [`MctsAgent::observe`]), else in a fresh one
    /// kept from now on.
    ///
    /// # Panics
    /// When the snake is not to move in `s` (the game is over or the food is pending).
    pub fn choose(&mut self, s: &SnakeState, seed: u64) -> Choice {
        self.policy.candidates(&self.game, s, &mut self.legal);
        assert!(!self.legal.is_empty(), "the MCTS agent needs a position where the snake is to move");
        if let Some(dir) = self.cycle_move(s) {
            return Choice { dir, how: CYCLE, report: None };
        }
        if self.legal.len() == 1 {
            return Choice { dir: self.legal[0], how: How::Forced, report: None };
        }
        let began = Instant::now();
        let params = SearchParams { seed, ..self.params.clone() };
        let report = if self.reuse {
            let limits = Limits { playouts: params.playouts, time_ms: params.time_ms };
            let session = match self.session.slot() {
                Some(kept) if kept.state() == s => {
                    kept.set_params(params);
                    kept
                }
                slot => slot.insert(Session::with_policy(self.game, self.policy, s.clone(), params)),
            };
            // The re-rooting is part of the move's time.
            session.search(limits.since(began))
        } else {
            Search::with_policy(&self.game, &self.policy, params).run(s)
        };
        let dir = report.best.unwrap_or(self.legal[0]);
        Choice { dir, how: How::Search, report: Some(report) }
    }

    /// Follows the game on the kept tree: `event` is the move played or the food spawned, in order; the
    /// events re-root the tree together before the next search ([`Follower`]), and a tree that cannot
    /// follow is dropped (the next search starts a fresh one). Without a kept tree it does nothing.
    pub fn observe(&mut self, event: Event<Dir, Cell>) {
        self.session.observe(event);
    }

    /// The next move along the closing cycle, finding one first when the endgame has come.
    fn cycle_move(&mut self, s: &SnakeState) -> Option<Dir> {
        if let Some(d) = self.cycle.as_ref().and_then(|c| c.next_move(s)) {
            return Some(d);
        }
        self.cycle = None;
        if s.free_cells() > self.endgame_free {
            return None;
        }
        let cycle = ClosingCycle::find(s, CYCLE_BUDGET)?;
        let d = cycle.next_move(s);
        self.cycle = d.is_some().then_some(cycle);
        d
    }
}

/// How the agent names a move along its closing cycle.
pub const CYCLE: How = How::Tactic("cycle");

impl Agent<Snake> for MctsAgent {
    fn name(&self) -> String {
        "mcts".to_string()
    }

    fn choose(&mut self, _game: &Snake, s: &SnakeState, cx: &mut Context<'_>) -> Option<Decision<Dir>> {
        let c = MctsAgent::choose(self, s, cx.seed);
        let work = c.report.as_ref().map_or(0, |r| r.playouts);
        Some(Decision { action: c.dir, how: c.how, work, report: c.report })
    }

    fn observe(&mut self, _game: &Snake, event: Event<Dir, Cell>) {
        MctsAgent::observe(self, event);
    }
}
