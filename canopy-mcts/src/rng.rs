//! Random numbers for workers and rollouts: [`Rng`], one per worker, seeded from the search seed and the
//! worker index.

use rand_core::{RngCore, SeedableRng};

/// The engine's random number generator: wyhash's `WyRng` (64 bits of state, one multiply-xor per draw),
/// wrapped so that the engine's API does not depend on the wyhash crate's version.
///
/// It implements [`rand_core::RngCore`], so it works with the `rand` crate's distributions.
#[derive(Clone, Copy, Debug)]
pub struct Rng(wyhash::WyRng);

impl Rng {
    /// A generator seeded from a single `u64`.
    pub fn from_seed_u64(seed: u64) -> Self {
        Self(wyhash::WyRng::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

impl RngCore for Rng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest)
    }
}

/// A generator seeded from `seed` and a `stream` number (the worker index), so that workers draw
/// independent sequences and a one-thread search is reproducible.
pub fn seeded(seed: u64, stream: u64) -> Rng {
    Rng::from_seed_u64(seed ^ stream.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
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
