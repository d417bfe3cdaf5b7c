//! canopy: a lock-free, tree-parallel Monte Carlo Tree Search engine.
//!
//! Worker threads share one search graph (arena-allocated nodes with atomic statistics, virtual loss, a
//! lock-free transposition table); the engine knows a game only through the [`Game`] trait, and what a
//! search knows beyond the rules through a [`Policy`].
//!
//! # A tour
//!
//! A game is its rules: who moves ([`Game::to_move`]), the legal moves, what a move does and what a
//! finished game pays each player ([`Game::Returns`], one value per player). Below is Nim with one pile
//! (take one to three stones; whoever takes the last stone wins), searched with [`Search::new`]: plain
//! MCTS, every legal move expanded, uniformly random playouts. The [`SearchReport`] gives the best action,
//! the visits and mean value of every root action, and the principal variation. Then the same search with
//! a custom [`Policy`]: a [`Policy::rollout`] that values a leaf by Nim's theory instead of a random
//! playout ([`Policy::candidates`] and [`Policy::priors`] are the other things a policy can say).
//!
//! ```
//! use canopy_mcts::{Game, NoOutcome, Policy, Proof, Rng, Search, SearchParams, Turn};
//!
//! /// One pile of Nim: take 1, 2 or 3 stones; whoever takes the last stone wins.
//! struct Nim;
//!
//! /// Stones left and the player to move (0 or 1).
//! #[derive(Clone, Debug)]
//! struct Pile {
//!     stones: u32,
//!     mover: usize,
//! }
//!
//! impl Game for Nim {
//!     type State = Pile;
//!     type Action = u32; // stones taken
//!     type Outcome = NoOutcome; // no chance events
//!     type Returns = [f64; 2]; // two players
//!
//!     fn to_move(&self, s: &Pile) -> Turn {
//!         if s.stones == 0 { Turn::Terminal } else { Turn::Player(s.mover) }
//!     }
//!     fn legal_actions(&self, s: &Pile, out: &mut Vec<u32>) {
//!         out.clear();
//!         out.extend((1..=3).filter(|&take| take <= s.stones));
//!     }
//!     fn apply(&self, s: &mut Pile, take: u32) -> f64 {
//!         s.stones -= take;
//!         s.mover = 1 - s.mover;
//!         0.0 // no reward on the way: the game pays at the end
//!     }
//!     fn returns(&self, s: &Pile) -> [f64; 2] {
//!         // The player who took the last stone, the one not to move, wins.
//!         let mut r = [0.0; 2];
//!         r[1 - s.mover] = 1.0;
//!         r
//!     }
//!     fn value_bounds(&self) -> Option<(f64, f64)> {
//!         Some((0.0, 1.0))
//!     }
//!     fn win_draw_loss(&self) -> bool {
//!         true // MCTS-Solver may prove wins and losses
//!     }
//! }
//!
//! // Ten stones: taking two leaves a multiple of four, a lost position for the opponent.
//! let start = Pile { stones: 10, mover: 0 };
//! let params = SearchParams { playouts: Some(20_000), threads: 1, ..SearchParams::default() };
//! let report = Search::new(&Nim, params.clone()).run(&start);
//! assert_eq!(report.best, Some(2));
//! assert_eq!(report.root_proof, Some(Proof::Win));
//! for a in &report.actions {
//!     println!("take {}: {} visits, mean {:?}", a.name, a.visits, a.mean);
//! }
//! assert_eq!(report.pv[0], "2"); // the best action, then the best replies below it
//!
//! /// Search knowledge: the player to move loses exactly when the stones are a multiple of four.
//! struct Theory;
//!
//! impl Policy<Nim> for Theory {
//!     fn rollout(&self, _: &Nim, s: &Pile, _: &mut Rng, _: &mut Vec<u32>) -> [f64; 2] {
//!         let mover = if s.stones % 4 == 0 { 0.0 } else { 1.0 };
//!         let mut r = [1.0 - mover; 2];
//!         r[s.mover] = mover;
//!         r
//!     }
//! }
//!
//! let params = SearchParams { playouts: Some(300), ..params };
//! let report = Search::with_policy(&Nim, &Theory, params).run(&start);
//! assert_eq!(report.best, Some(2));
//! ```
//!
//! From here:
//! - [`games`] has the built-in games with their policies: [`games::g2048`] (single player, tile spawns
//!   as chance events), [`games::gomoku`] (with the Gomocup protocol brain), [`games::snake`] (food spawns
//!   as chance events), [`games::tictactoe`], and [`games::fixtures`], the benchmark positions.
//! - [`agent`]: an [`agent::Agent`] chooses moves (the search is [`agent::Mcts`]; every baseline is an
//!   agent too) and [`agent::play_game`] plays a whole game between agents.
//! - [`param`]: parameters declared once, set by name from text through [`param::Settings`]
//!   ([`SearchParams`] is one: `params.set("exploration", "0.7")`).
//! - The crate root re-exports [`Game`], [`Turn`], [`Returns`] and [`NoOutcome`] (from [`game`]);
//!   [`Policy`], [`Coverage`] and [`UniformPolicy`] (from [`policy`]); [`Rng`] (from [`rng`]); and
//!   [`Search`], [`SearchParams`], [`SearchReport`], [`ActionStats`], [`Proof`] and [`SolverStatus`]
//!   (from [`search`]).
//!
//! # Embedding in ten lines
//!
//! A built-in game searched on two threads (the README shows this same example):
//!
//! ```
//! use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
//! use canopy_mcts::{Search, SearchParams};
//!
//! let params = SearchParams { playouts: Some(20_000), threads: 2, ..SearchParams::default() };
//! let position = TicTacToeState::parse("x.o/.o./..x").unwrap(); // x to move
//! let report = Search::new(&TicTacToe, params).run(&position);
//! for a in &report.actions {
//!     println!("cell {}: {} visits, mean {:?}", a.name, a.visits, a.mean);
//! }
//! assert_eq!(report.best_name.as_deref(), Some("6")); // blocks o and makes two threats
//! ```

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod agent;
pub mod game;
pub mod games;
mod memory;
pub mod param;
pub mod policy;
pub mod rng;
pub mod search;
pub(crate) mod sync;

pub use game::{win_draw_loss_returns, Game, NoOutcome, Returns, Turn};
pub use memory::keep_freed_memory;
pub use param::ParamError;
pub use policy::{Coverage, Policy, UniformPolicy};
pub use rng::Rng;
pub use search::{
    ActionStats, Event, Limits, Proof, Search, SearchParams, SearchReport, Session, SolverStatus, Statistics,
};

/// The shared tree and the transposition table, for this crate's loom models (`--cfg canopy_loom`) and
/// micro-benchmarks (feature `internals`). Not part of the public API: no stability promise.
#[cfg(any(canopy_loom, feature = "internals"))]
#[doc(hidden)]
pub mod internals {
    pub use crate::search::node::{Edge, Node, NodeKind, Step};
    pub use crate::search::tt::{Lookup, TranspositionTable, Vacancy};
}
