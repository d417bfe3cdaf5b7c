//! A synthetic two-player game tree of fixed branching and depth with a constant-time evaluation: the
//! engine's own cost per playout (selection, expansion, backup, the transposition table) measured apart
//! from any game's move generation and rollouts (`canopy bench --game synthetic`).
//!
//! The tree is a P-game (Smith and Nau, "An analysis of forward pruning", AAAI 1994; used for MCTS by
//! Kocsis and Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006): every move carries a
//! pseudo-random value in `-1000..=1000` drawn from a hash of the path to it, the players alternate
//! adding and subtracting them, and at depth `depth` the first player wins when the sum is positive.
//! Every path is its own position (a tree, no transpositions), so the search's shape depends only on
//! `branching`, `depth` and the statistics.
//!
//! ```
//! use canopy_mcts::games::synthetic::{Synthetic, SyntheticPolicy};
//! use canopy_mcts::{Search, SearchParams};
//!
//! let game = Synthetic::new(8, 12).unwrap();
//! let params = SearchParams { playouts: Some(2_000), threads: 1, ..SearchParams::default() };
//! let report = Search::with_policy(&game, &SyntheticPolicy, params).run(&game.start());
//! assert_eq!(report.playouts, 2_000);
//! ```

use crate::game::{win_draw_loss_returns, Game, NoOutcome, Turn};
use crate::games::mix64;
use crate::policy::Policy;
use crate::rng::Rng;

/// Fewest and most moves per position.
pub const BRANCHING: (u32, u32) = (2, 64);
/// Shallowest and deepest tree (plies).
pub const DEPTH: (u32, u32) = (1, 64);

/// A P-game tree: `branching` moves per position, `depth` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Synthetic {
    branching: u32,
    depth: u32,
}

/// A position: the plies played, the running sum of move values (for the first player) and the path's
/// hash (which is also its Zobrist key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SyntheticState {
    /// Plies played from the root.
    pub ply: u32,
    /// Sum of the move values so far, from the first player's point of view.
    pub sum: i64,
    /// Hash of the moves played (the position's key).
    pub key: u64,
}

impl Synthetic {
    /// A tree of `branching` moves per position ([`BRANCHING`]) and `depth` plies ([`DEPTH`]).
    ///
    /// # Errors
    /// A one-line message when `branching` or `depth` is outside its range.
    pub fn new(branching: u32, depth: u32) -> Result<Self, String> {
        if !(BRANCHING.0..=BRANCHING.1).contains(&branching) {
            return Err(format!("branching {branching} is outside {}..={}", BRANCHING.0, BRANCHING.1));
        }
        if !(DEPTH.0..=DEPTH.1).contains(&depth) {
            return Err(format!("depth {depth} is outside {}..={}", DEPTH.0, DEPTH.1));
        }
        Ok(Self { branching, depth })
    }

    /// Moves per position.
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// Plies from the root to the leaves.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The root.
    pub fn start(&self) -> SyntheticState {
        SyntheticState { ply: 0, sum: 0, key: mix64(u64::from(self.branching) << 32 | u64::from(self.depth)) }
    }
}

/// The value of the move that led to `key`, in `-1000..=1000`.
#[inline]
fn move_value(key: u64) -> i64 {
    (mix64(key ^ 0x9E37_79B9_7F4A_7C15) % 2001) as i64 - 1000
}

impl Game for Synthetic {
    type State = SyntheticState;
    type Action = u8;
    type Outcome = NoOutcome;
    type Returns = [f64; 2];

    fn to_move(&self, s: &SyntheticState) -> Turn {
        if s.ply >= self.depth {
            Turn::Terminal
        } else {
            Turn::Player((s.ply % 2) as usize)
        }
    }

    fn legal_actions(&self, s: &SyntheticState, out: &mut Vec<u8>) {
        out.clear();
        if s.ply < self.depth {
            out.extend(0..self.branching as u8);
        }
    }

    fn is_legal(&self, s: &SyntheticState, action: u8, _scratch: &mut Vec<u8>) -> bool {
        s.ply < self.depth && u32::from(action) < self.branching
    }

    /// Plays move `action` (its value is added for the first player, subtracted for the second).
    fn apply(&self, s: &mut SyntheticState, action: u8) -> f64 {
        s.key = mix64(s.key.wrapping_add(u64::from(action) + 1));
        let v = move_value(s.key);
        s.sum += if s.ply % 2 == 0 { v } else { -v };
        s.ply += 1;
        0.0
    }

    /// Win/draw/loss at the leaves by the sign of the sum (the first player wins when it is positive).
    fn returns(&self, s: &SyntheticState) -> [f64; 2] {
        win_draw_loss_returns(match s.sum.cmp(&0) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        })
    }

    fn zobrist(&self, s: &SyntheticState) -> Option<u64> {
        Some(s.key)
    }

    fn value_bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn win_draw_loss(&self) -> bool {
        true
    }

    fn action_name(&self, action: &u8) -> String {
        action.to_string()
    }
}

/// The synthetic tree's search policy: every move a candidate, uniform priors, and a constant-time
/// evaluation in place of a rollout (no random numbers, no moves played).
#[derive(Clone, Copy, Debug, Default)]
pub struct SyntheticPolicy;

impl Policy<Synthetic> for SyntheticPolicy {
    /// The first player's winning chance as a logistic function of the sum so far (scale 1000, one move's
    /// largest value): `1 / (1 + e^(-sum/1000))`; the exact result at a leaf.
    fn rollout(&self, game: &Synthetic, s: &SyntheticState, _rng: &mut Rng, _scratch: &mut Vec<u8>) -> [f64; 2] {
        if s.ply >= game.depth {
            return game.returns(s);
        }
        let p = 1.0 / (1.0 + (-(s.sum as f64) / 1000.0).exp());
        [p, 1.0 - p]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_and_ranges() {
        let g = Synthetic::new(8, 12).unwrap();
        let mut s = g.start();
        let mut out = Vec::new();
        for ply in 0..12 {
            assert_eq!(g.to_move(&s), Turn::Player(ply % 2));
            g.legal_actions(&s, &mut out);
            assert_eq!(out, (0..8).collect::<Vec<u8>>());
            g.apply(&mut s, (ply % 8) as u8);
        }
        assert_eq!(g.to_move(&s), Turn::Terminal);
        g.legal_actions(&s, &mut out);
        assert!(out.is_empty());
        assert!(s.sum.abs() <= 12 * 1000);
        assert!(Synthetic::new(1, 12).unwrap_err().contains("branching 1"));
        assert!(Synthetic::new(8, 0).unwrap_err().contains("depth 0"));
        assert!(Synthetic::new(65, 12).is_err() && Synthetic::new(8, 65).is_err());
    }

    #[test]
    fn paths_are_distinct_positions_and_values_spread() {
        let g = Synthetic::new(8, 3).unwrap();
        let mut keys = std::collections::HashSet::new();
        let mut values = Vec::new();
        for a in 0..8u8 {
            for b in 0..8u8 {
                let mut s = g.start();
                g.apply(&mut s, a);
                g.apply(&mut s, b);
                keys.insert(s.key);
                values.push(move_value(s.key));
            }
        }
        assert_eq!(keys.len(), 64);
        assert!(values.iter().all(|v| (-1000..=1000).contains(v)));
        assert!(values.iter().any(|&v| v > 500) && values.iter().any(|&v| v < -500));
    }

    #[test]
    fn evaluation_agrees_with_the_sign_of_the_sum() {
        let g = Synthetic::new(4, 2).unwrap();
        let mut rng = crate::rng::seeded(1, 0);
        let pol = SyntheticPolicy;
        let up = SyntheticState { ply: 1, sum: 700, key: 1 };
        let down = SyntheticState { ply: 1, sum: -700, key: 1 };
        assert!(pol.rollout(&g, &up, &mut rng, &mut Vec::new())[0] > 0.6);
        assert!(pol.rollout(&g, &down, &mut rng, &mut Vec::new())[0] < 0.4);
        let leaf = SyntheticState { ply: 2, sum: 3, key: 1 };
        assert_eq!(pol.rollout(&g, &leaf, &mut rng, &mut Vec::new()), [1.0, 0.0]);
    }
}
