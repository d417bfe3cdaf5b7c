//! Zobrist keys of 2048 states (Zobrist, "A New Hashing Method with Application for Game Playing",
//! 1970): the XOR of one random constant per (cell, exponent) over the tiles on the board, XOR a constant
//! when a spawn is pending. Empty cells contribute nothing.
//!
//! The constants come from splitmix64 (Steele, Lea and Flood, OOPSLA 2014) with a fixed seed, computed
//! at compile time, so keys are the same in every run and on every machine.
//!
//! [`after_move`] and [`after_spawn`] update a key incrementally; they equal [`state_key`] of the new
//! state (checked by a property test).

use super::{Board, G2048State, Spawn};

/// The seed of the constants (arbitrary, fixed).
const SEED: u64 = 0x2048_C0FF_EE20_4800;

/// The random constants: `cell[c][e]` for exponent `e` in cell `c` (`cell[c][0] == 0`), and the key of
/// "a spawn is pending".
struct Keys {
    cell: [[u64; 32]; 16],
    spawn_pending: u64,
}

const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const KEYS: Keys = {
    let mut state = SEED;
    let mut cell = [[0u64; 32]; 16];
    let mut c = 0;
    while c < 16 {
        let mut e = 1;
        while e < 32 {
            cell[c][e] = splitmix64(&mut state);
            e += 1;
        }
        c += 1;
    }
    Keys { cell, spawn_pending: splitmix64(&mut state) }
};

/// The key of the tiles of `board` (a state without a pending spawn has this key).
pub fn board_key(board: &Board) -> u64 {
    board.exponents().iter().enumerate().fold(0, |key, (c, &e)| key ^ KEYS.cell[c][e as usize])
}

/// The key of `state`: [`board_key`], XOR the "spawn pending" constant when a spawn is pending.
pub fn state_key(state: &G2048State) -> u64 {
    board_key(&state.board) ^ if state.spawn_pending { KEYS.spawn_pending } else { 0 }
}

/// The key after a move from a state without pending spawn whose key is `key` and board is `before`, to
/// the afterstate `after` (where a spawn is pending). Only the cells that changed are rehashed.
pub fn after_move(key: u64, before: &Board, after: &Board) -> u64 {
    let mut changed = before.changed_nibbles(after);
    let mut key = key ^ KEYS.spawn_pending;
    while changed != 0 {
        let c = (changed.trailing_zeros() / 4) as usize;
        key ^= KEYS.cell[c][before.exponent(c) as usize] ^ KEYS.cell[c][after.exponent(c) as usize];
        changed &= changed - 1;
    }
    key
}

/// The key after `spawn` lands on an empty cell of a state with a pending spawn whose key is `key`.
pub fn after_spawn(key: u64, spawn: Spawn) -> u64 {
    key ^ KEYS.spawn_pending ^ KEYS.cell[spawn.cell as usize][spawn.exponent as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.cell.iter().flat_map(|row| row[1..].iter().copied()).collect();
        all.push(KEYS.spawn_pending);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
