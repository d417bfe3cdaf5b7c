//! The one door for atomics and threads.
//!
//! Everything shared between workers imports its atomics from here, never from `std::sync::atomic`
//! directly, so that building with `RUSTFLAGS="--cfg canopy_loom"` swaps in loom's model-checked types
//! (see tests/loom.rs and docs/CONCURRENCY.md).

#[cfg(not(canopy_loom))]
pub use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};

#[cfg(canopy_loom)]
pub use loom::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};

/// An `f64` updated atomically (crate atomic_float normally; a compare-exchange loop over loom's
/// `AtomicU64` under `--cfg canopy_loom`, with only the methods the crate calls: `new`, `load`,
/// `fetch_add`).
#[cfg(not(canopy_loom))]
pub use atomic_float::AtomicF64;

#[cfg(canopy_loom)]
pub use loom_f64::AtomicF64;

#[cfg(canopy_loom)]
mod loom_f64 {
    use super::{AtomicU64, Ordering};

    /// `f64` stored as its bits in a loom `AtomicU64`.
    #[derive(Debug)]
    pub struct AtomicF64(AtomicU64);

    impl AtomicF64 {
        pub fn new(v: f64) -> Self {
            Self(AtomicU64::new(v.to_bits()))
        }

        pub fn load(&self, order: Ordering) -> f64 {
            f64::from_bits(self.0.load(order))
        }

        pub fn store(&self, v: f64, order: Ordering) {
            self.0.store(v.to_bits(), order)
        }

        pub fn fetch_add(&self, v: f64, order: Ordering) -> f64 {
            let mut cur = self.0.load(Ordering::Relaxed);
            loop {
                let new = (f64::from_bits(cur) + v).to_bits();
                match self.0.compare_exchange_weak(cur, new, order, Ordering::Relaxed) {
                    Ok(old) => return f64::from_bits(old),
                    Err(actual) => cur = actual,
                }
            }
        }
    }
}
