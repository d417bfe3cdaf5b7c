//! Random numbers for workers and rollouts: wyhash's `WyRng` (one per worker, seeded from the search seed
//! and the worker index).

use rand::{RngCore, SeedableRng};

/// The engine's random number generator.
pub type Rng = wyhash::WyRng;

/// A generator seeded from `seed` and a `stream` number (the worker index), so that workers draw
/// independent sequences and a one-thread search is reproducible.
pub fn seeded(seed: u64, stream: u64) -> Rng {
    Rng::seed_from_u64(seed ^ stream.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A uniform integer in `0..n`, by Lemire's multiply-shift ("Fast Random Integer Generation in an
/// Interval", ACM TOMACS 2019) without the rejection step: the bias is below `n / 2^64`.
///
/// # Panics
/// Debug builds panic when `n == 0`.
#[inline]
pub fn below(rng: &mut Rng, n: usize) -> usize {
    debug_assert!(n > 0);
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// A uniform `f64` in `[0, 1)` (53 random bits).
#[inline]
pub fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}
