//! The [`Game`] trait: the only thing the search engine knows about a game.
//!
//! A game is the rules and nothing else: a value (it may carry configuration such as a board size or a
//! winning rule) with four associated types: a [`Game::State`] (a position), a [`Game::Action`] (a
//! player's move), a [`Game::Outcome`] (a chance event such as a spawned tile) and [`Game::Returns`] (one
//! value per player, `[f64; N]` for `N` players). Games without chance events use [`NoOutcome`], an
//! uninhabited type, and need not write the chance methods (their defaults serve).
//! What a search knows beyond the rules (rollouts, priors, which moves to expand) is a
//! [`Policy`](crate::policy::Policy), given to the search separately.
//!
//! # Values and rewards
//!
//! Every transition made by a player yields an immediate reward credited to that player
//! ([`Game::apply`]); a terminal position yields a payoff per player ([`Game::returns`]). The engine
//! works with *return-to-go*: the sum of the rewards a player receives after a position plus the terminal
//! payoff. Single-player games (2048, Snake) have `Returns = [f64; 1]`; two-player zero-sum games
//! (tic-tac-toe, Gomoku) have `[f64; 2]`, give no intermediate rewards and pay `1.0` for a win, `0.5` for
//! a draw and `0.0` for a loss ([`Game::win_draw_loss`]).

//!
//! # Example
//!
//! A game without chance events writes only the rules: here, players take one or two stones in turn from a
//! pile, and whoever takes the last stone wins.
//!
//! ```
//! use canopy_mcts::{Game, NoOutcome, Proof, Search, SearchParams, Turn};
//!
//! /// The state: stones left and the player to move.
//! struct Take;
//!
//! impl Game for Take {
//!     type State = (u32, usize);
//!     type Action = u32;
//!     type Outcome = NoOutcome;
//!     type Returns = [f64; 2];
//!
//!     fn to_move(&self, &(stones, mover): &(u32, usize)) -> Turn {
//!         if stones == 0 { Turn::Terminal } else { Turn::Player(mover) }
//!     }
//!     fn legal_actions(&self, &(stones, _): &(u32, usize), out: &mut Vec<u32>) {
//!         out.clear();
//!         out.extend((1..=2).filter(|&t| t <= stones));
//!     }
//!     fn apply(&self, state: &mut (u32, usize), take: u32) -> f64 {
//!         *state = (state.0 - take, 1 - state.1);
//!         0.0
//!     }
//!     /// The player who took the last stone (the one not to move) wins.
//!     fn returns(&self, &(_, mover): &(u32, usize)) -> [f64; 2] {
//!         if mover == 0 { [0.0, 1.0] } else { [1.0, 0.0] }
//!     }
//!     fn value_bounds(&self) -> Option<(f64, f64)> {
//!         Some((0.0, 1.0))
//!     }
//!     fn win_draw_loss(&self) -> bool {
//!         true
//!     }
//! }
//!
//! // Seven stones: take one and leave a multiple of three.
//! let params = SearchParams { playouts: Some(5_000), threads: 1, ..SearchParams::default() };
//! let report = Search::new(&Take, params).run(&(7, 0));
//! assert_eq!((report.best, report.root_proof), (Some(1), Some(Proof::Win)));
//! ```

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Index, IndexMut};

use crate::rng::Rng;

/// Return-to-go (or terminal payoff) per player, indexed by player number: a game's
/// [`Game::Returns`]. Implemented for `[f64; N]`, so a game with `N` players writes
/// `type Returns = [f64; N]`: the search keeps one such array per playout on the stack (no allocation),
/// whatever the number of players. Entries of players that do not exist in a game instance are `0.0`.
pub trait Returns:
    Copy + Debug + PartialEq + Send + Sync + 'static + Index<usize, Output = f64> + IndexMut<usize> + AsRef<[f64]>
{
    /// Number of entries: the most players a game with these returns can have (at most 256: a tree
    /// node stores its player in a byte).
    const PLAYERS: usize;

    /// Every entry `0.0`.
    fn zero() -> Self;

    /// Adds `other` entry by entry.
    fn add(&mut self, other: &Self) {
        for p in 0..Self::PLAYERS {
            self[p] += other[p];
        }
    }
}

impl<const N: usize> Returns for [f64; N] {
    const PLAYERS: usize = N;

    fn zero() -> Self {
        [0.0; N]
    }
}

/// The terminal payoff of a two-player win/draw/loss game ([`Game::win_draw_loss`]): `1.0` to the
/// winner and `0.0` to the loser, or `0.5` each for a draw (`winner` is `None`). Games write their
/// [`Game::returns`] (and rollouts their results) with it.
///
/// ```
/// use canopy_mcts::win_draw_loss_returns;
///
/// assert_eq!(win_draw_loss_returns(Some(0)), [1.0, 0.0]);
/// assert_eq!(win_draw_loss_returns(Some(1)), [0.0, 1.0]);
/// assert_eq!(win_draw_loss_returns(None), [0.5, 0.5]);
/// ```
///
/// # Panics
/// When `winner` is `Some(p)` with `p > 1` (not a player of a two-player game):
///
/// ```should_panic
/// canopy_mcts::win_draw_loss_returns(Some(2));
/// ```
#[inline]
pub fn win_draw_loss_returns(winner: Option<usize>) -> [f64; 2] {
    match winner {
        Some(0) => [1.0, 0.0],
        Some(1) => [0.0, 1.0],
        Some(p) => panic!("player {p} won a two-player game"),
        None => [0.5, 0.5],
    }
}

/// Who acts in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Player `p` (0-based, `p < Game::players()`) chooses an action.
    Player(usize),
    /// Nature chooses an outcome (see [`Game::chance_outcomes`] and [`Game::sample_outcome`]).
    Chance,
    /// The game is over; [`Game::returns`] gives the payoff.
    Terminal,
}

/// The outcome type of a game without chance events. It has no values, so no outcome is ever built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoOutcome {}

/// A game the engine can search.
///
/// Implementations must be deterministic given the state (randomness enters only through chance turns and
/// the `rng` handed to [`Game::sample_outcome`]), and must never give a
/// [`Turn::Player`] position without legal actions or a [`Turn::Chance`] position without outcomes.
pub trait Game: Sync {
    /// A position. Cheap to clone (bitboards, small arrays).
    type State: Clone + Send + Sync + Debug;
    /// A player's move.
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// A chance event. Use [`NoOutcome`] when the game has none.
    type Outcome: Copy + Eq + Debug + Send + Sync + 'static;
    /// Return-to-go per player: `[f64; N]` for a game of `N` players (see the trait [`Returns`]).
    type Returns: Returns;

    /// Number of players, `1..=Self::Returns::PLAYERS`. The default is the length of
    /// [`Game::Returns`]; a game whose instances differ in their number of players overrides it.
    fn players(&self) -> usize {
        <Self::Returns as Returns>::PLAYERS
    }

    /// Who acts in `state`.
    fn to_move(&self, state: &Self::State) -> Turn;

    /// Clears `out` and fills it with the legal actions of `state`, in a fixed order: exactly the moves
    /// the rules allow, no fewer (narrowing the moves a search expands is a policy's
    /// [`candidates`](crate::policy::Policy::candidates)). Empty exactly when `to_move` is not
    /// [`Turn::Player`].
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// Whether `action` is legal in `state`. The engine asks only in open-loop parts of the tree (below a
    /// sampled chance outcome), where a stored action may not fit every sampled position. The default
    /// lists the legal actions into `scratch`.
    fn is_legal(&self, state: &Self::State, action: Self::Action, scratch: &mut Vec<Self::Action>) -> bool {
        self.legal_actions(state, scratch);
        scratch.contains(&action)
    }

    /// Plays a legal `action` for the player to move and returns that player's immediate reward
    /// (2048: the merge score; two-player games: `0.0`).
    ///
    /// # Panics
    /// May panic, or leave a meaningless state, if `action` is not legal in `state`; callers in the
    /// engine only pass actions from [`Game::legal_actions`].
    fn apply(&self, state: &mut Self::State, action: Self::Action) -> f64;

    /// Whether [`Game::apply_to_non_terminal`] is cheaper than [`Game::apply`]: then the search, on its
    /// way down the tree, reads a move's child node before playing the move, to call it where the child
    /// is stored as not terminal. Default `false` (reading the child first costs a game whose `apply`
    /// has nothing to skip about 1%: 2048, docs/BENCHMARKS.md).
    const APPLY_TO_NON_TERMINAL_SKIPS_WORK: bool = false;

    /// [`Game::apply`] where the caller knows that the position `action` leads to is not terminal: the
    /// search calls it on its way down the tree (never below a sampled chance outcome) when the move's
    /// child node is stored as a decision or chance node and [`Game::APPLY_TO_NON_TERMINAL_SKIPS_WORK`]
    /// is set, so that a game whose `apply` checks for the end of the game (a five in Gomoku) may skip
    /// the check. The state must end as `apply` leaves it. A game that opts in must give a terminal
    /// position and a non-terminal one different [`Game::zobrist`] keys (the transposition table shares
    /// a node between positions of one key: Gomoku's renju keys mark a position lost by a foul). Default:
    /// `apply`.
    ///
    /// # Panics
    /// As [`Game::apply`]; a game that skips its checks may leave a meaningless state if the position
    /// is terminal after all.
    #[inline]
    fn apply_to_non_terminal(&self, state: &mut Self::State, action: Self::Action) -> f64 {
        self.apply(state, action)
    }

    /// Clears `out` and fills it with every chance outcome of a [`Turn::Chance`] state and its
    /// probability (the probabilities sum to 1): the engine then builds one edge per outcome (closed
    /// loop). Games whose outcomes are too many to enumerate leave `out` empty; the engine then samples an
    /// outcome with [`Game::sample_outcome`] on every traversal (open loop), keeps one child for all of
    /// them, and turns the transposition table off below that point.
    ///
    /// The default clears `out`: right for games without chance turns, which need not write any of the
    /// three chance methods.
    fn chance_outcomes(&self, _state: &Self::State, out: &mut Vec<(Self::Outcome, f64)>) {
        out.clear();
    }

    /// Draws one chance outcome of a [`Turn::Chance`] state with the game's distribution.
    ///
    /// # Panics
    /// The default panics. It is only for games without chance turns, whose [`Game::to_move`] never
    /// returns [`Turn::Chance`], so the engine never calls it; a game with chance turns must override it.
    fn sample_outcome(&self, _state: &Self::State, _rng: &mut Rng) -> Self::Outcome {
        panic!(
            "sample_outcome called on a game without chance turns (override it when to_move can return Turn::Chance)"
        )
    }

    /// Applies a chance outcome to a [`Turn::Chance`] state.
    ///
    /// # Panics
    /// The default panics, for the same reason as [`Game::sample_outcome`]'s: only games without chance
    /// turns may keep it.
    fn apply_outcome(&self, _state: &mut Self::State, _outcome: Self::Outcome) {
        panic!("apply_outcome called on a game without chance turns (override it when to_move can return Turn::Chance)")
    }

    /// Terminal payoff per player of a [`Turn::Terminal`] state (0.0 for single-player games whose score
    /// is made of rewards).
    fn returns(&self, state: &Self::State) -> Self::Returns;

    /// Zobrist key of `state`, or `None` when the game has no transposition table. Two states with the same
    /// key must be the same position for the search (same legal moves, same futures).
    fn zobrist(&self, _state: &Self::State) -> Option<u64> {
        None
    }

    /// Bounds `(low, high)` on every player's return-to-go, when the game knows them (two-player games:
    /// `(0.0, 1.0)`). `None` makes the search normalise values per node with the min/max of the children's
    /// means (see docs/ARCHITECTURE.md).
    fn value_bounds(&self) -> Option<(f64, f64)> {
        None
    }

    /// Whether the game is a two-player, zero-sum win/draw/loss game: [`Game::players`] is 2, no move
    /// earns a reward, and every terminal position pays `1.0` to the winner and `0.0` to the loser, or
    /// `0.5` each for a draw. Such games can be solved: MCTS-Solver (`SearchParams::solver`) proves wins,
    /// losses and draws only for games that declare it. Default `false`.
    fn win_draw_loss(&self) -> bool {
        false
    }

    /// Whether [`Game::apply`] can return a non-zero reward. Games that never do return `false` and save
    /// the engine from computing rewards of unexplored actions at expansion.
    fn has_rewards(&self) -> bool {
        true
    }

    /// Human-readable name of an action (used in reports and principal variations).
    fn action_name(&self, action: &Self::Action) -> String {
        format!("{action:?}")
    }

    /// Human-readable name of a chance outcome.
    fn outcome_name(&self, outcome: &Self::Outcome) -> String {
        format!("{outcome:?}")
    }
}
