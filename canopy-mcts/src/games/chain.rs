//! A synthetic single-player chain: `length` forced steps, each worth a reward of 1, then the end.
//! Used to test very deep trees (depth 100 000 and more) and the search's memory handling, with
//! [`ChainPolicy`]'s exact leaf values.

use crate::game::{Game, NoOutcome, Turn};
use crate::policy::Policy;
use crate::rng::Rng;

/// A chain of `length` steps with `width` identical actions per step (so the tree is a DAG of width 1
/// when the transposition table is on, and a wide tree when it is off).
#[derive(Clone, Copy, Debug)]
pub struct Chain {
    /// Number of steps until the end.
    pub length: u32,
    /// Number of legal actions per step (>= 1).
    pub width: u8,
}

impl Game for Chain {
    /// Steps taken so far.
    type State = u32;
    type Action = u8;
    type Outcome = NoOutcome;
    type Returns = [f64; 1];

    fn to_move(&self, s: &u32) -> Turn {
        if *s >= self.length {
            Turn::Terminal
        } else {
            Turn::Player(0)
        }
    }

    fn legal_actions(&self, s: &u32, out: &mut Vec<u8>) {
        out.clear();
        if *s < self.length {
            out.extend(0..self.width.max(1));
        }
    }

    fn apply(&self, s: &mut u32, _a: u8) -> f64 {
        *s += 1;
        1.0
    }

    fn returns(&self, _s: &u32) -> [f64; 1] {
        [0.0]
    }

    fn zobrist(&self, s: &u32) -> Option<u64> {
        Some(crate::games::mix64(*s as u64 + 1))
    }
}

/// The chain's exact leaf value: every step is worth 1, so the return-to-go is the number of steps left
/// (no playout loop; the default uniform rollout reaches the same value in `length - s` moves).
#[derive(Clone, Copy, Debug, Default)]
pub struct ChainPolicy;

impl Policy<Chain> for ChainPolicy {
    /// `[length - s]`.
    fn rollout(&self, game: &Chain, s: &u32, _rng: &mut Rng, _scratch: &mut Vec<u8>) -> [f64; 1] {
        [game.length.saturating_sub(*s) as f64]
    }
}
