//! How the process's allocator treats the memory of finished searches ([`keep_freed_memory`]).

/// Largest block glibc serves from its heaps rather than by a mapping of its own: the most `mallopt`
/// accepts on 64-bit targets (`DEFAULT_MMAP_THRESHOLD_MAX`, 32 MiB). Setting it also stops glibc from
/// moving the thresholds.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 32 << 20;

/// Free memory at the top of a heap that glibc keeps rather than returning it to the kernel.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: i32 = 1 << 30;

/// Makes glibc keep the memory of finished searches for the next ones: for a program that runs many
/// searches in one process (a bench's rounds, a series' moves, a match's games).
///
/// Every search builds its tree in arenas that are freed when it ends. With glibc's default settings
/// that memory is handed back to the kernel and faulted in again, page by page, by the next search:
/// freed blocks at the top of a thread's heap are trimmed, and the largest blocks are mapped and
/// unmapped on their own, with thresholds that glibc moves as the program runs. Which of the two a run
/// hits depends on the order of unrelated allocations: the same Gomoku 9x9 bench (`canopy bench --game
/// gomoku --size 9 --threads 1 --repeat 5`) took 4 744 page faults in one build and 21 095 in the next,
/// whose search differed by a cache of a few hundred kilobytes, and its kernel time went from 2% to 10%
/// of the run (docs/BENCHMARKS.md). This fixes the mmap threshold at 32 MiB and the trim threshold at
/// 1 GiB (`mallopt`), so that freed arenas stay in the heap for the next search (the same bench: 2 794
/// page faults).
///
/// The settings are the whole process's, not canopy's alone: every allocation of the program follows
/// them. The cost: memory the program frees stays in its heaps (up to 1 GiB free at the top of each
/// heap) instead of going back to the system, so its resident memory stays near its peak; blocks of
/// up to 32 MiB come from the heaps instead of mappings of their own. For a program whose largest use
/// of memory is its searches that peak is reached anyway; a program that frees much else and wants it
/// back should leave the defaults.
///
/// Call it first in `main`, before any thread starts (see Safety). A program whose runtime starts
/// threads before its own code runs (an async runtime's generated `main`, a plugin in a host process)
/// should call it before that runtime starts, or not at all. Elsewhere than on Linux with glibc it does
/// nothing. The library never calls it itself; canopy's command-line tools, search benches and
/// measuring examples do.
///
/// # Safety
/// No other thread of the process may be running: glibc's manual marks `mallopt` MT-Unsafe
/// (`const:mallopt`), as it changes settings that other threads' allocations read without a lock.
///
/// ```
/// // The first statement of `main`:
/// // SAFETY: no other thread has been started yet.
/// unsafe { canopy_mcts::keep_freed_memory() };
/// // ... the program's searches ...
/// ```
pub unsafe fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: [I15] `mallopt` only changes two of glibc's allocation thresholds; the caller guarantees
    // that no other thread is running, so no allocation runs beside the change.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
