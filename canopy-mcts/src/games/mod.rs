//! The built-in games. Each implements [`crate::Game`]; none touches the search tree.

pub mod chain;
pub mod fixtures;
pub mod g2048;
pub mod gomoku;
pub mod snake;
pub mod synthetic;
pub mod tictactoe;

/// A 64-bit finaliser (splitmix64's, from Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): spreads structured keys over the transposition table.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
