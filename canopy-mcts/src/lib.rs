//! canopy: a lock-free, tree-parallel Monte Carlo Tree Search engine.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod agent;
pub mod game;
pub mod games;
pub mod param;
pub mod policy;
pub mod rng;
pub mod search;
pub(crate) mod sync;

pub use game::{Game, NoOutcome, Returns, Turn};
pub use policy::{Coverage, Policy, UniformPolicy};
pub use rng::Rng;
pub use search::{ActionStats, Proof, Search, SearchParams, SearchReport, SolverStatus};

/// The shared tree and the transposition table, for this crate's loom models (`--cfg canopy_loom`) and
/// micro-benchmarks (feature `internals`). Not part of the public API: no stability promise.
#[cfg(any(canopy_loom, feature = "internals"))]
#[doc(hidden)]
pub mod internals {
    pub use crate::search::node::{Edge, Node, NodeKind, Step};
    pub use crate::search::tt::{Lookup, TranspositionTable};
}
