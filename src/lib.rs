//! canopy: a lock-free, tree-parallel Monte Carlo Tree Search engine.

#![deny(unsafe_op_in_unsafe_fn)]

pub mod cli;
pub mod game;
pub mod games;
pub mod rng;
pub mod search;
pub mod sync;

pub use game::{Game, NoOutcome, Returns, Turn, MAX_PLAYERS};
