//! Precomputed row tables for the common case, the slow line move they are built from, and the nibble
//! bit tricks the board uses.
//!
//! A row is four 4-bit exponents packed into a `u16`, cell nearest the wall in the low nibble. The tables
//! give, for each of the 65 536 rows, the row after a move toward nibble 0 ("left"), the row after a move
//! toward nibble 3 ("right") and the merge score. They are valid for rows whose exponents are all at most
//! [`TABLE_MAX_EXPONENT`] (tiles up to 16384), so that a merge result (at most 15) still fits a nibble;
//! rows holding bigger tiles go through [`slide_line`].
//!
//! The tables are built once, on first use, behind a [`OnceLock`] (about 2 ms, 384 KiB).

use std::sync::OnceLock;

/// Number of distinct 16-bit rows.
const ROWS: usize = 1 << 16;

/// The largest exponent a row may hold for the tables to apply (tile 16384): two 14s merge into a 15,
/// the largest value a nibble holds.
pub(crate) const TABLE_MAX_EXPONENT: u8 = 14;

/// Bit 0 of every nibble of a `u64`.
pub(crate) const NIBBLE_LSB: u64 = 0x1111_1111_1111_1111;

/// One table row: both moves and the merge score.
///
/// The score is the same for both directions: merges pair up tiles inside each run of equal tiles of
/// the compacted row, and a run of `k` tiles gives `k / 2` merges whichever end it starts from.
#[derive(Clone, Copy, Default)]
pub(crate) struct RowEntry {
    /// `moves[0]`: the row after moving toward nibble 0; `moves[1]`: toward nibble 3.
    pub moves: [u16; 2],
    /// The merge score divided by 4 (every merge makes at least a 4; at most two 32768s, so it fits).
    pub score_q: u16,
}

/// The row table, indexed by the 16-bit row.
pub(crate) type RowTable = [RowEntry; ROWS];

/// The row table, built on first use.
#[inline]
pub(crate) fn row_table() -> &'static RowTable {
    static TABLE: OnceLock<Box<RowTable>> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Box<RowTable> {
    let entries: Vec<RowEntry> = (0..ROWS)
        .map(|row| {
            let line = unpack_row(row as u16);
            if line.iter().any(|&e| e > TABLE_MAX_EXPONENT) {
                // Never read: the board sends such rows to `slide_line`.
                return RowEntry::default();
            }
            let (left, score) = slide_line(line);
            let mut reversed = line;
            reversed.reverse();
            let (mut right, _) = slide_line(reversed);
            right.reverse();
            RowEntry { moves: [pack_row(left), pack_row(right)], score_q: (score / 4) as u16 }
        })
        .collect();
    entries.into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("the table has exactly 65536 entries"))
}

/// Moves one line of four exponents (0 = empty) toward index 0 by the rules of the original game:
/// tiles slide over empty cells; two equal tiles that meet merge into one of the next exponent, the pair
/// nearest the wall first; a tile made by a merge does not merge again in the same move.
///
/// Returns the new line and the merge score (the sum of the tiles created by merges, as tile values).
///
/// Source: `GameManager.prototype.move` in gabrielecirulli/2048 (`js/game_manager.js`).
///
/// # Panics
/// Debug builds panic when a merge would make an exponent above 31 (tile 2^31), which play from a board
/// built with [`super::Board`]'s constructors does not reach (see its documentation).
pub(crate) fn slide_line(line: [u8; 4]) -> ([u8; 4], u32) {
    let mut out = [0u8; 4];
    let mut len = 0;
    let mut score = 0u32;
    // Whether out[len - 1] may still merge (it was not made by a merge in this move).
    let mut mergeable = false;
    for e in line {
        if e == 0 {
            continue;
        }
        if mergeable && out[len - 1] == e {
            debug_assert!(e < 31, "merging two tiles 2^{e} overflows");
            out[len - 1] = e + 1;
            score += 1 << (e + 1);
            mergeable = false;
        } else {
            out[len] = e;
            len += 1;
            mergeable = true;
        }
    }
    (out, score)
}

/// The four nibbles of `row`, nibble 0 first.
#[inline]
pub(crate) fn unpack_row(row: u16) -> [u8; 4] {
    [0, 1, 2, 3].map(|k| ((row >> (4 * k)) & 0xF) as u8)
}

/// Packs four exponents (each below 16) into a row, index 0 in nibble 0.
#[inline]
pub(crate) fn pack_row(line: [u8; 4]) -> u16 {
    line.iter().enumerate().fold(0, |acc, (k, &e)| acc | (u16::from(e) & 0xF) << (4 * k))
}

/// Moves the four rows of a nibble board with the table, toward nibble 0 of each row (`side == 0`) or
/// toward nibble 3 (`side == 1`).
///
/// Returns the moved board and the merge score.
#[inline(always)]
pub(crate) fn move_rows(table: &RowTable, x: u64, side: usize) -> (u64, u32) {
    let mut out = 0u64;
    let mut score_q = 0u32;
    for r in 0..4 {
        let e = &table[((x >> (16 * r)) & 0xFFFF) as usize];
        out |= u64::from(e.moves[side & 1]) << (16 * r);
        score_q += u32::from(e.score_q);
    }
    (out, score_q * 4)
}

/// Transposes a 4x4 board of nibbles (cell `4r + c` goes to `4c + r`) with three masked swaps.
///
/// Source: `transpose` in nneonneo/2048-ai (`2048.cpp`).
#[inline(always)]
pub(crate) fn transpose(x: u64) -> u64 {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// `a` when `cond` holds, else `b`, without a branch (for unpredictable conditions in hot loops).
#[inline(always)]
pub(crate) fn select(cond: bool, a: u64, b: u64) -> u64 {
    let mask = 0u64.wrapping_sub(u64::from(cond));
    (a & mask) | (b & !mask)
}

/// Number of nibbles of `x` with bit 0 set, when `x` has no other bits (a cell mask).
#[inline(always)]
pub(crate) fn count_nibbles(x: u64) -> u32 {
    debug_assert_eq!(x & !NIBBLE_LSB, 0);
    // The multiply adds every nibble into the top one (mod 16); only the full mask reaches 16.
    if x == NIBBLE_LSB {
        16
    } else {
        (x.wrapping_mul(NIBBLE_LSB) >> 60) as u32
    }
}

/// Bit 0 of nibble `i` set exactly when nibble `i` of `x` is not zero.
#[inline(always)]
pub(crate) fn nonzero_nibbles(x: u64) -> u64 {
    let y = x | (x >> 1);
    (y | (y >> 2)) & NIBBLE_LSB
}

/// Bit 0 of nibble `i` set exactly when nibble `i` of `x` is 15.
#[inline(always)]
pub(crate) fn full_nibbles(x: u64) -> u64 {
    x & (x >> 1) & (x >> 2) & (x >> 3) & NIBBLE_LSB
}

/// Spreads bit `i` of `x` to bit `4i` (bit 0 of nibble `i`).
#[inline(always)]
pub(crate) fn spread16(x: u16) -> u64 {
    let mut y = u64::from(x);
    y = (y | (y << 24)) & 0x0000_00FF_0000_00FF;
    y = (y | (y << 12)) & 0x000F_000F_000F_000F;
    y = (y | (y << 6)) & 0x0303_0303_0303_0303;
    (y | (y << 3)) & NIBBLE_LSB
}

/// The inverse of [`spread16`]: bit `4i` of `x` goes to bit `i`; other bits are ignored.
#[inline(always)]
pub(crate) fn gather16(x: u64) -> u16 {
    let mut y = x & NIBBLE_LSB;
    y = (y | (y >> 3)) & 0x0303_0303_0303_0303;
    y = (y | (y >> 6)) & 0x000F_000F_000F_000F;
    y = (y | (y >> 12)) & 0x0000_00FF_0000_00FF;
    ((y | (y >> 24)) & 0xFFFF) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_and_gather_are_inverse() {
        for x in [0u16, 1, 0x8000, 0xFFFF, 0x1234, 0xA5A5] {
            let s = spread16(x);
            assert_eq!(s & !NIBBLE_LSB, 0);
            for i in 0..16 {
                assert_eq!((s >> (4 * i)) & 1, u64::from((x >> i) & 1));
            }
            assert_eq!(gather16(s), x);
        }
    }

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let x: u64 = 0xFEDC_BA98_7654_3210; // nibble i holds i
        let t = transpose(x);
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!((t >> (4 * (4 * c + r))) & 0xF, (4 * r + c) as u64);
            }
        }
        assert_eq!(transpose(t), x);
    }

    #[test]
    fn table_matches_slide_line_and_scores_are_symmetric() {
        let t = row_table();
        for row in 0..=u16::MAX {
            let line = unpack_row(row);
            if line.iter().any(|&e| e > TABLE_MAX_EXPONENT) {
                continue;
            }
            let (left, score) = slide_line(line);
            assert_eq!(t[row as usize].moves[0], pack_row(left));
            assert_eq!(u32::from(t[row as usize].score_q) * 4, score);
            let mut rev = line;
            rev.reverse();
            let (_, right_score) = slide_line(rev);
            assert_eq!(right_score, score, "row {line:?}");
        }
    }

    #[test]
    fn slide_line_follows_the_original_rules() {
        assert_eq!(slide_line([1, 1, 2, 0]), ([2, 2, 0, 0], 4));
        assert_eq!(slide_line([1, 1, 1, 1]), ([2, 2, 0, 0], 8));
        assert_eq!(slide_line([0, 1, 0, 1]), ([2, 0, 0, 0], 4));
        assert_eq!(slide_line([16, 16, 0, 0]), ([17, 0, 0, 0], 131072));
        assert_eq!(slide_line([3, 2, 1, 0]), ([3, 2, 1, 0], 0));
    }
}
