//! The [`Policy`] trait: what a search knows about a game beyond its rules.
//!
//! A [`Game`] says what the moves are; a policy says which of them the tree expands
//! ([`Policy::candidates`]), how a leaf is valued ([`Policy::rollout`]) and, for PUCT, which moves look
//! promising ([`Policy::priors`]). The search is given both ([`crate::Search::with_policy`]);
//! [`crate::Search::new`] uses [`UniformPolicy`], the plain-MCTS default: every legal move is a candidate
//! and rollouts play uniformly random legal moves.
//!
//! The search is generic over the policy (no `dyn`): every call is resolved at compile time, and a
//! policy's methods get reused buffers, so the playout loop allocates nothing.
//!
//! ```
//! use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
//! use canopy_mcts::{Coverage, Game, Policy, Search, SearchParams, UniformPolicy};
//!
//! /// Tic-tac-toe searched over the legal moves, with every cell's prior weight its number of lines.
//! struct Lines;
//!
//! impl Policy<TicTacToe> for Lines {
//!     fn priors(&self, _: &TicTacToe, _: &TicTacToeState, actions: &[u8], out: &mut Vec<f32>) -> bool {
//!         out.clear();
//!         out.extend(actions.iter().map(|&c| match c {
//!             4 => 4.0,
//!             0 | 2 | 6 | 8 => 3.0,
//!             _ => 2.0,
//!         }));
//!         true
//!     }
//! }
//!
//! let mut moves = Vec::new();
//! assert_eq!(UniformPolicy.candidates(&TicTacToe, &TicTacToeState::default(), &mut moves), Coverage::Complete);
//! assert_eq!(moves.len(), 9);
//! let params = SearchParams { playouts: Some(2_000), threads: 1, ..SearchParams::default() };
//! let report = Search::with_policy(&TicTacToe, &Lines, params).run(&TicTacToeState::default());
//! assert_eq!(report.playouts, 2_000);
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::game::{Game, Returns, Turn};
use crate::rng::{self, Rng};

/// How a policy's candidate moves ([`Policy::candidates`]) relate to the legal moves, which decides
/// whether MCTS-Solver may prove a loss or a draw over them.
///
/// A win needs one winning move, so it is proven over any candidate set. A loss (every move loses) or a
/// draw (no move wins, the best draws) is a statement about *all* legal moves: the solver claims it only
/// at a node whose candidates are [`Coverage::Complete`] or [`Coverage::ProofSafe`]; at a
/// [`Coverage::Pruned`] node the value stays a statistic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Coverage {
    /// Every legal move is a candidate.
    #[default]
    Complete,
    /// Some legal moves are left out, and each left-out move is known to be no better for the side to
    /// move than the best candidate (for example: against the opponent's four, every move but the
    /// blocks loses at once). A proof over the candidates is a proof over the position.
    ProofSafe,
    /// Some legal moves are left out by a heuristic (a neighbourhood, a pattern): a left-out move might
    /// be better than every candidate, so only wins are proven here.
    Pruned,
}

impl Coverage {
    /// Whether the solver may prove a loss or a draw over the candidates (not [`Coverage::Pruned`]).
    pub fn allows_proofs(self) -> bool {
        self != Coverage::Pruned
    }

    /// The weaker of two coverages (for a candidate set narrowed twice).
    pub fn and(self, other: Coverage) -> Coverage {
        match (self, other) {
            (Coverage::Pruned, _) | (_, Coverage::Pruned) => Coverage::Pruned,
            (Coverage::ProofSafe, _) | (_, Coverage::ProofSafe) => Coverage::ProofSafe,
            _ => Coverage::Complete,
        }
    }
}

/// Search knowledge about a game `G`: candidate moves, leaf values and priors.
///
/// Every method has a default, the plain-MCTS choice ([`UniformPolicy`] keeps them all). Methods get the
/// game, so one policy value serves every game of its type; buffers come from the caller and are reused
/// (no allocation in the playout loop). A policy is shared by the search's worker threads, hence `Sync`.
pub trait Policy<G: Game>: Sync {
    /// Clears `out` and fills it with the moves the tree expands at `state` (a [`Turn::Player`]
    /// position): a non-empty subset of [`Game::legal_actions`], in a fixed order (the search tries
    /// unvisited moves in this order). Returns how the set relates to the legal moves (see
    /// [`Coverage`]).
    ///
    /// The default lists every legal move: [`Coverage::Complete`].
    fn candidates(&self, game: &G, state: &G::State, out: &mut Vec<G::Action>) -> Coverage {
        game.legal_actions(state, out);
        Coverage::Complete
    }

    /// Whether `action` is among [`Policy::candidates`] of `state`. The engine asks only in open-loop
    /// parts of the tree (below a sampled chance outcome), where a stored action may not fit every
    /// sampled position. The default lists the candidates into `scratch`.
    fn is_candidate(&self, game: &G, state: &G::State, action: G::Action, scratch: &mut Vec<G::Action>) -> bool {
        self.candidates(game, state, scratch);
        scratch.contains(&action)
    }

    /// Prior probabilities of `actions` (the candidates of `state`, in that order) for PUCT selection:
    /// clears `out`, pushes one non-negative weight per action and returns `true`; the engine normalises
    /// them to sum to 1. The default returns `false` (no priors: uniform).
    fn priors(&self, _game: &G, _state: &G::State, _actions: &[G::Action], _out: &mut Vec<f32>) -> bool {
        false
    }

    /// The value of a leaf `state` for each player: the return-to-go of a playout from it (the sum of
    /// the rewards received on the way plus the terminal payoff), or an estimate of it (a truncated
    /// playout plus an evaluation, or an evaluation alone: the policy's leaf evaluation). `scratch` is a
    /// reusable buffer.
    ///
    /// The default is [`uniform_rollout`]: uniformly random legal moves and sampled chance outcomes to
    /// the end of the game.
    fn rollout(&self, game: &G, state: &G::State, rng: &mut Rng, scratch: &mut Vec<G::Action>) -> G::Returns {
        uniform_rollout(game, state, rng, scratch)
    }
}

/// The plain-MCTS policy: every legal move is a candidate, no priors, uniform random rollouts
/// ([`uniform_rollout`]). What [`crate::Search::new`] uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UniformPolicy;

impl<G: Game> Policy<G> for UniformPolicy {
    /// [`Game::is_legal`] (the candidates are the legal moves).
    fn is_candidate(&self, game: &G, state: &G::State, action: G::Action, scratch: &mut Vec<G::Action>) -> bool {
        game.is_legal(state, action, scratch)
    }
}

/// A policy that is `inner` in everything, and also adds up the wall time of its rollouts and counts
/// them: to split a search's time into its rollouts and the tree (`canopy bench --split`). Each rollout
/// pays two clock reads (some 30 ns each on the machine of docs/BENCHMARKS.md), about one of which falls inside the time it
/// adds. The sums are shared by the search's workers (Relaxed atomics).
#[derive(Debug)]
pub struct TimedRollouts<'a, P> {
    inner: &'a P,
    nanos: AtomicU64,
    count: AtomicU64,
}

impl<'a, P> TimedRollouts<'a, P> {
    /// `inner`, with its rollout time and count at zero.
    pub fn new(inner: &'a P) -> Self {
        Self { inner, nanos: AtomicU64::new(0), count: AtomicU64::new(0) }
    }

    /// The wall time spent in rollouts so far, in nanoseconds (summed over the threads that ran them).
    pub fn rollout_nanos(&self) -> u64 {
        self.nanos.load(Ordering::Relaxed)
    }

    /// The rollouts run so far.
    pub fn rollouts(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }
}

impl<G: Game, P: Policy<G>> Policy<G> for TimedRollouts<'_, P> {
    fn candidates(&self, game: &G, state: &G::State, out: &mut Vec<G::Action>) -> Coverage {
        self.inner.candidates(game, state, out)
    }

    fn is_candidate(&self, game: &G, state: &G::State, action: G::Action, scratch: &mut Vec<G::Action>) -> bool {
        self.inner.is_candidate(game, state, action, scratch)
    }

    fn priors(&self, game: &G, state: &G::State, actions: &[G::Action], out: &mut Vec<f32>) -> bool {
        self.inner.priors(game, state, actions, out)
    }

    fn rollout(&self, game: &G, state: &G::State, rng: &mut Rng, scratch: &mut Vec<G::Action>) -> G::Returns {
        let start = Instant::now();
        let returns = self.inner.rollout(game, state, rng, scratch);
        self.nanos.fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        returns
    }
}

/// Plays `state` to the end with uniformly random legal moves ([`Game::legal_actions`], listed into
/// `scratch`) and chance outcomes drawn by [`Game::sample_outcome`]; returns each player's return-to-go
/// from `state`. The default [`Policy::rollout`].
pub fn uniform_rollout<G: Game>(game: &G, state: &G::State, rng: &mut Rng, scratch: &mut Vec<G::Action>) -> G::Returns {
    let mut s = state.clone();
    let mut g = G::Returns::zero();
    loop {
        match game.to_move(&s) {
            Turn::Player(p) => {
                game.legal_actions(&s, scratch);
                let a = scratch[rng::below(rng, scratch.len())];
                g[p] += game.apply(&mut s, a);
            }
            Turn::Chance => {
                let o = game.sample_outcome(&s, rng);
                game.apply_outcome(&mut s, o);
            }
            Turn::Terminal => {
                g.add(&game.returns(&s));
                return g;
            }
        }
    }
}
