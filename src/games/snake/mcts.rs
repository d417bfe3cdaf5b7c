//! The MCTS agent for Snake: the engine's search over a [`Snake`] configured for strength.
//!
//! The configuration ([`MctsAgent::search_game`]) is what makes plain MCTS strong on long snakes:
//!
//! - **Tail-safe candidate moves** ([`Snake::keep_tail_reachable`]): in every searched position only the
//!   moves after which the head can still reach its tail are legal, when any is. A snake that keeps that
//!   property never runs into itself, so the search spends no playouts on slow suicides and the agent
//!   can only die by starvation.
//! - **Safe-greedy rollouts** ([`RolloutPolicy::SafeGreedy`]) capped at a few board areas of moves
//!   ([`Snake::rollout_max_moves`]): the return of a playout is the food it eats before the cap (plus
//!   the survival bonus), so the search prefers moves after which food keeps coming quickly.
//! - **Forced moves are played without a search**: when only one move is tail-safe there is nothing to
//!   choose.
//!
//! Food spawns are chance nodes: the game lists every free cell (closed loop, one edge per outcome)
//! while there are at most [`Snake::max_listed_outcomes`] of them; beyond that the list is empty and the
//! engine samples a spawn on each traversal (open loop).

use crate::game::Game;
use crate::rng::Rng;
use crate::search::{Search, SearchParams, SearchReport};

use super::state::{Dir, SnakeState};
use super::{RolloutPolicy, Snake};

/// Default rollout cap of the MCTS agent, in board areas (`width * height` moves).
pub const ROLLOUT_AREAS: u32 = 2;

/// What the agent chose and why.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move.
    pub dir: Dir,
    /// The search behind it (`None` for a forced move, played without a search).
    pub report: Option<SearchReport<Dir>>,
}

/// An MCTS player: a search game, search parameters and a move counter that varies the seed per move.
pub struct MctsAgent {
    game: Snake,
    params: SearchParams,
    moves: u64,
    legal: Vec<Dir>,
}

impl MctsAgent {
    /// The agent's search configuration for a `width` x `height` board (see the [module docs](self)).
    pub fn search_game(width: usize, height: usize) -> Snake {
        let area = (width * height) as u32;
        Snake {
            rollout: RolloutPolicy::SafeGreedy,
            rollout_max_moves: ROLLOUT_AREAS * area,
            rollout_patience: area,
            keep_tail_reachable: true,
            ..Snake::new(width, height)
        }
    }

    /// An agent searching `game` (its rules must match the game played) with `params`. Move `i` of the
    /// agent searches with seed `params.seed + i`.
    pub fn new(game: Snake, params: SearchParams) -> Self {
        MctsAgent { game, params, moves: 0, legal: Vec::with_capacity(4) }
    }

    /// The search game.
    pub fn game(&self) -> &Snake {
        &self.game
    }

    /// The search parameters.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Chooses a move for `s`, a position where the snake is to move.
    ///
    /// # Panics
    /// When the snake is not to move in `s` (the game is over or the food is pending).
    pub fn choose(&mut self, s: &SnakeState) -> Choice {
        self.game.legal_actions(s, &mut self.legal);
        assert!(!self.legal.is_empty(), "the MCTS agent needs a position where the snake is to move");
        let seed = self.params.seed.wrapping_add(self.moves);
        self.moves += 1;
        if self.legal.len() == 1 {
            return Choice { dir: self.legal[0], report: None };
        }
        let params = SearchParams { seed, ..self.params.clone() };
        let report = Search::new(&self.game, params).run(s);
        let dir = report.best.unwrap_or(self.legal[0]);
        Choice { dir, report: Some(report) }
    }

    /// [`MctsAgent::choose`] as an agent function for [`super::play`] (the generator is unused: the search
    /// seeds its own).
    pub fn agent(&mut self) -> impl FnMut(&SnakeState, &mut Rng) -> Dir + '_ {
        |s, _| self.choose(s).dir
    }
}
