//! The 2048 board: sixteen tiles stored as 5-bit exponents, moves, and the text formats.

use std::fmt;
use std::str::FromStr;

pub use super::dir::{Dir, DirSet, ParseDirError};
use super::tables::{
    self, count_nibbles, full_nibbles, move_rows, nonzero_nibbles, select, slide_line, spread16, transpose, RowTable,
    NIBBLE_LSB, TABLE_MAX_EXPONENT,
};
use super::Spawn;

/// The largest tile a board may be built with: 2^17 = 131072, the largest tile a game of 2048 can make
/// (building it needs 65536, 32768, ..., 8, 4 and a spawned 4 on the board at once: all sixteen cells).
pub const MAX_TILE: u32 = 1 << MAX_EXPONENT;

/// The exponent of [`MAX_TILE`].
pub const MAX_EXPONENT: u8 = 17;

/// Why a board could not be built from tiles or text. Messages are one line and name the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The input did not hold exactly 16 tile values.
    #[error("expected 16 tile values (row-major, row 0 first, 0 for empty), got {count}")]
    WrongCount {
        /// How many values the input held.
        count: usize,
    },
    /// A value that is not 0 or a power of two from 2 to 131072.
    #[error(
        "bad tile {value} at cell {cell} (row {}, column {}): a tile is 0 (empty) or a power of two from 2 to 131072",
        .cell / 4,
        .cell % 4
    )]
    BadValue {
        /// Cell index, row-major (0..16).
        cell: usize,
        /// The value given.
        value: u64,
    },
    /// A token that is not a whole number.
    #[error("cell {cell} (row {}, column {}): {text:?} is not a tile value (a whole number)", .cell / 4, .cell % 4)]
    NotANumber {
        /// Cell index, row-major (0..16).
        cell: usize,
        /// The token as written.
        text: String,
    },
    /// A position read from text holds no tile: no game reaches one (a game starts with two tiles and
    /// every move keeps at least one).
    #[error("the board has no tile: a 2048 position holds at least one")]
    Empty,
}

/// A 2048 board: 16 cells numbered row-major (cell `4 * row + column`, row 0 at the top), each empty or
/// holding a tile `2^e`.
///
/// Each cell stores its exponent `e` (0 = empty) in 5 bits, split in two fields so that the common case
/// is the classic 64-bit board: `lo` holds the low 4 bits of every exponent (cell `i` in bits
/// `4i..4i + 4`), `hi` holds bit 4 (cell `i` in bit `i`), which is set only for tiles of 65536 and more.
/// Moves on boards whose tiles are all at most 16384 are four lookups in a 64K-entry row table
/// (plus two transposes for vertical moves); lines holding bigger tiles are moved one cell at a time.
///
/// Exponents up to 31 fit. Boards built with the constructors hold tiles up to [`MAX_TILE`]; moves may
/// merge two of those into a bigger tile, but a tile of 2^31 needs a tile sum of 2^31, which from a sum
/// of at most 16 * 2^17 = 2^21 takes more than 500 million spawns (moves keep the sum; a spawn adds at
/// most 4).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Board {
    lo: u64,
    hi: u16,
}

/// Cells not in the last column (bit 0 of their nibble).
const NOT_LAST_COL: u64 = 0x0111_0111_0111_0111;
/// Cells not in the last row (bit 0 of their nibble).
const NOT_LAST_ROW: u64 = 0x0000_1111_1111_1111;

/// For each direction in [`Dir::ALL`] order, its four lines, each listed from the wall the tiles move
/// toward.
const LINES: [[[usize; 4]; 4]; 4] = {
    let mut lines = [[[0; 4]; 4]; 4];
    let mut i = 0;
    while i < 4 {
        let mut k = 0;
        while k < 4 {
            lines[0][i][k] = 4 * k + i; // up: column i from row 0
            lines[1][i][k] = 4 * (3 - k) + i; // down: column i from row 3
            lines[2][i][k] = 4 * i + k; // left: row i from column 0
            lines[3][i][k] = 4 * i + 3 - k; // right: row i from column 3
            k += 1;
        }
        i += 1;
    }
    lines
};

impl Board {
    /// The board without tiles.
    pub const EMPTY: Board = Board { lo: 0, hi: 0 };

    /// Builds a board from 16 tile values, row-major, row 0 first, 0 for an empty cell.
    ///
    /// # Errors
    /// [`BoardError::WrongCount`] unless `tiles` has 16 values; [`BoardError::BadValue`] for a value that
    /// is not 0 or a power of two from 2 to [`MAX_TILE`].
    pub fn from_tiles(tiles: &[u32]) -> Result<Board, BoardError> {
        if tiles.len() != 16 {
            return Err(BoardError::WrongCount { count: tiles.len() });
        }
        let mut board = Board::EMPTY;
        for (cell, &value) in tiles.iter().enumerate() {
            board.set(cell, tile_exponent(cell, u64::from(value))?);
        }
        Ok(board)
    }

    /// Builds a board from 16 exponents (0 for empty, `e` for the tile `2^e`), row-major.
    ///
    /// # Panics
    /// When an exponent exceeds [`MAX_EXPONENT`].
    pub fn from_exponents(exponents: [u8; 16]) -> Board {
        let mut board = Board::EMPTY;
        for (cell, e) in exponents.into_iter().enumerate() {
            board = board.with_tile(cell, e);
        }
        board
    }

    /// The 16 tile values, row-major, 0 for empty.
    pub fn tiles(&self) -> [u32; 16] {
        self.exponents().map(|e| if e == 0 { 0 } else { 1 << e })
    }

    /// The 16 exponents (0 for empty, `e` for the tile `2^e`), row-major.
    pub fn exponents(&self) -> [u8; 16] {
        std::array::from_fn(|cell| self.exponent(cell))
    }

    /// The exponent in `cell` (0 for empty, `e` for the tile `2^e`).
    ///
    /// # Panics
    /// When `cell >= 16`.
    #[inline]
    pub fn exponent(&self, cell: usize) -> u8 {
        assert!(cell < 16, "cell {cell} is not on the board (0..16)");
        (((self.lo >> (4 * cell)) & 0xF) as u8) | ((((self.hi >> cell) & 1) as u8) << 4)
    }

    /// The tile value in `cell` (0 for empty).
    ///
    /// # Panics
    /// When `cell >= 16`.
    pub fn tile(&self, cell: usize) -> u32 {
        match self.exponent(cell) {
            0 => 0,
            e => 1 << e,
        }
    }

    /// This board with `cell` set to the tile `2^exponent` (exponent 0 empties the cell).
    ///
    /// # Panics
    /// When `cell >= 16` or `exponent > MAX_EXPONENT`.
    #[must_use]
    pub fn with_tile(self, cell: usize, exponent: u8) -> Board {
        assert!(cell < 16, "cell {cell} is not on the board (0..16)");
        assert!(exponent <= MAX_EXPONENT, "exponent {exponent} exceeds {MAX_EXPONENT} (tile {MAX_TILE})");
        let mut board = self;
        board.set(cell, exponent);
        board
    }

    /// This board with `spawn` placed.
    ///
    /// # Panics
    /// Debug builds panic when the cell is not empty or the spawn is not a 2 or a 4.
    #[inline]
    #[must_use]
    pub fn with_spawn(self, spawn: Spawn) -> Board {
        debug_assert!(self.exponent(spawn.cell as usize) == 0, "spawn on full cell {}", spawn.cell);
        debug_assert!(matches!(spawn.exponent, 1 | 2), "spawned tile 2^{}", spawn.exponent);
        Board { lo: self.lo | u64::from(spawn.exponent) << (4 * spawn.cell), hi: self.hi }
    }

    /// Writes exponent `e` (< 32) into `cell` (< 16).
    #[inline]
    fn set(&mut self, cell: usize, e: u8) {
        debug_assert!(cell < 16 && e < 32);
        self.lo = (self.lo & !(0xF << (4 * cell))) | u64::from(e & 0xF) << (4 * cell);
        self.hi = (self.hi & !(1 << cell)) | u16::from((e >> 4) & 1) << cell;
    }

    /// Moves every tile toward `dir` and merges by the original game's rules.
    ///
    /// Returns the afterstate (the board after the move, before the random spawn) and the merge score
    /// (the sum of the tiles created by merges), or `None` when the move is illegal (changes nothing).
    #[inline]
    pub fn shift(self, dir: Dir) -> Option<(Board, u32)> {
        let (after, score) = self.afterstate(dir);
        (after != self).then_some((after, score))
    }

    /// Like [`Board::shift`] without the legality check: an illegal move gives `(self, 0)`.
    #[inline]
    pub fn afterstate(self, dir: Dir) -> (Board, u32) {
        self.afterstate_with(tables::row_table(), dir)
    }

    /// [`Board::afterstate`] with the row table already fetched (for hot loops).
    #[inline(always)]
    pub(crate) fn afterstate_with(self, table: &RowTable, dir: Dir) -> (Board, u32) {
        if self.hi == 0 && full_nibbles(self.lo) == 0 {
            // Every exponent is at most 14: table moves on the 64-bit board, on its transpose for
            // vertical moves. Branch-free in the direction, which a random playout cannot predict.
            let vertical = dir.index() < 2; // Up, Down
            let side = dir.index() & 1; // Down, Right: toward nibble 3 of the (transposed) rows
            let x = select(vertical, transpose(self.lo), self.lo);
            let (moved, score) = move_rows(table, x, side);
            let lo = select(vertical, transpose(moved), moved);
            (Board { lo, hi: 0 }, score)
        } else {
            self.afterstate_by_lines(table, dir)
        }
    }

    /// Moves line by line: the table for lines whose exponents are all at most 14, [`slide_line`] for
    /// the others.
    #[cold]
    #[inline(never)]
    fn afterstate_by_lines(self, table: &RowTable, dir: Dir) -> (Board, u32) {
        let mut board = self;
        let mut score = 0;
        for line in &LINES[dir.index()] {
            let before = line.map(|cell| self.exponent(cell));
            let (after, gain) = if before.iter().all(|&e| e <= TABLE_MAX_EXPONENT) {
                let entry = &table[tables::pack_row(before) as usize];
                (tables::unpack_row(entry.moves[0]), u32::from(entry.score_q) * 4)
            } else {
                slide_line(before)
            };
            for (&cell, e) in line.iter().zip(after) {
                board.set(cell, e);
            }
            score += gain;
        }
        (board, score)
    }

    /// The 64-bit nibble board (cell `i` in bits `4i..4i + 4`) when every tile is at most 32768, the
    /// form the row tables read; `None` when a tile of 65536 or more is on the board.
    #[inline(always)]
    pub(crate) fn nibbles(&self) -> Option<u64> {
        (self.hi == 0).then_some(self.lo)
    }

    /// The two words of the board, `(lo, hi)` (see the type's documentation): equal words, equal boards.
    #[inline(always)]
    pub(crate) fn raw(&self) -> (u64, u16) {
        (self.lo, self.hi)
    }

    /// Bit 0 of nibble `i` set when cell `i` holds a tile.
    #[inline(always)]
    fn occupied_nibbles(&self) -> u64 {
        nonzero_nibbles(self.lo) | if self.hi == 0 { 0 } else { spread16(self.hi) }
    }

    /// Bit 0 of nibble `i` set when cell `i` is empty.
    #[inline(always)]
    pub(crate) fn empty_nibbles(&self) -> u64 {
        !self.occupied_nibbles() & NIBBLE_LSB
    }

    /// The legal moves: the directions in which some tile slides or merges.
    ///
    /// Computed with bit tricks on whole rows and columns (a move is legal when some line has an empty
    /// cell before a tile, or two equal tiles side by side), without moving anything.
    #[inline]
    pub fn legal_dirs(&self) -> DirSet {
        let lo = self.lo;
        let hs = if self.hi == 0 { 0 } else { spread16(self.hi) };
        let occ = nonzero_nibbles(lo) | hs;
        let empty = !occ & NIBBLE_LSB;
        // Cell i and cell i + 1 (same row): equal tiles.
        let h_pair = !nonzero_nibbles((lo ^ (lo >> 4)) | (hs ^ (hs >> 4))) & occ & NOT_LAST_COL;
        let left = h_pair | (empty & (occ >> 4) & NOT_LAST_COL);
        let right = h_pair | (occ & (empty >> 4) & NOT_LAST_COL);
        // Cell i and cell i + 4 (same column).
        let v_pair = !nonzero_nibbles((lo ^ (lo >> 16)) | (hs ^ (hs >> 16))) & occ & NOT_LAST_ROW;
        let up = v_pair | (empty & (occ >> 16) & NOT_LAST_ROW);
        let down = v_pair | (occ & (empty >> 16) & NOT_LAST_ROW);
        DirSet::from_bits(
            u8::from(up != 0) | u8::from(down != 0) << 1 | u8::from(left != 0) << 2 | u8::from(right != 0) << 3,
        )
    }

    /// Number of empty cells (0..=16).
    #[inline]
    pub fn empty_count(&self) -> u32 {
        count_nibbles(self.empty_nibbles())
    }

    /// The empty cells as a mask: bit `i` set when cell `i` is empty.
    pub fn empty_mask(&self) -> u16 {
        tables::gather16(self.empty_nibbles())
    }

    /// The largest tile (0 on the empty board).
    pub fn max_tile(&self) -> u32 {
        match self.exponents().into_iter().max().unwrap_or(0) {
            0 => 0,
            e => 1 << e,
        }
    }

    /// The sum of all tiles. A move keeps it; a spawn adds 2 or 4.
    pub fn sum(&self) -> u32 {
        self.tiles().into_iter().sum()
    }

    /// A random spawn by the original game's rule: a uniformly chosen empty cell gets a 2 with
    /// probability 0.9 and a 4 otherwise ([`super::P_FOUR`]). `None` when the board is full.
    ///
    /// Draws with [`crate::rng::below`] (the cell) and [`crate::rng::unit`] (the tile).
    #[inline]
    pub fn random_spawn(&self, rng: &mut crate::rng::Rng) -> Option<Spawn> {
        let mut empty = self.empty_nibbles();
        let n = count_nibbles(empty) as usize;
        if n == 0 {
            return None;
        }
        for _ in 0..crate::rng::below(rng, n) {
            empty &= empty - 1;
        }
        let cell = (empty.trailing_zeros() / 4) as u8;
        let exponent = if crate::rng::unit(rng) < super::P_FOUR { 2 } else { 1 };
        Some(Spawn { cell, exponent })
    }

    /// Bit 0 of nibble `i` set when cell `i` differs between `self` and `other`.
    pub(crate) fn changed_nibbles(&self, other: &Board) -> u64 {
        nonzero_nibbles(self.lo ^ other.lo) | spread16(self.hi ^ other.hi)
    }
}

/// The exponent of tile `value` in `cell`, or the error naming it.
fn tile_exponent(cell: usize, value: u64) -> Result<u8, BoardError> {
    match value {
        0 => Ok(0),
        v if v.is_power_of_two() && (2..=u64::from(MAX_TILE)).contains(&v) => Ok(v.trailing_zeros() as u8),
        _ => Err(BoardError::BadValue { cell, value }),
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Reads 16 tile values, row-major, row 0 first, 0 (or `.`) for an empty cell. Values are separated
    /// by commas (spaces around them allowed), or, when the text has no comma, by whitespace, so both the
    /// one-line form (`{:#}`) and the grid drawn by `Display` (`{}`) read back. The text is a position, so
    /// it holds at least one tile ([`Board::EMPTY`] is not read from text).
    ///
    /// # Errors
    /// [`BoardError::WrongCount`], [`BoardError::NotANumber`] (holding the token),
    /// [`BoardError::BadValue`] or [`BoardError::Empty`].
    fn from_str(s: &str) -> Result<Board, BoardError> {
        let tokens: Vec<&str> =
            if s.contains(',') { s.split(',').map(str::trim).collect() } else { s.split_whitespace().collect() };
        if tokens.len() != 16 {
            return Err(BoardError::WrongCount { count: tokens.len() });
        }
        let mut board = Board::EMPTY;
        for (cell, token) in tokens.into_iter().enumerate() {
            let value = match token {
                "." => 0,
                t => t.parse::<u64>().map_err(|_| BoardError::NotANumber { cell, text: t.to_string() })?,
            };
            board.set(cell, tile_exponent(cell, value)?);
        }
        if board == Board::EMPTY {
            return Err(BoardError::Empty);
        }
        Ok(board)
    }
}

impl fmt::Display for Board {
    /// `{}` draws a 4x4 grid (rows on separate lines, `.` for empty cells, numbers right-aligned);
    /// `{:#}` writes the one-line form `2,0,4,...` (16 values, row-major) that [`Board::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tiles = self.tiles();
        if f.alternate() {
            for (cell, t) in tiles.iter().enumerate() {
                if cell > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{t}")?;
            }
            return Ok(());
        }
        let width = tiles.iter().map(|t| t.to_string().len()).max().unwrap_or(1);
        for row in 0..4 {
            if row > 0 {
                f.write_str("\n")?;
            }
            for col in 0..4 {
                if col > 0 {
                    f.write_str(" ")?;
                }
                match tiles[4 * row + col] {
                    0 => write!(f, "{:>width$}", ".")?,
                    t => write!(f, "{t:>width$}")?,
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    /// `Board(2,0,4,...)`: the 16 tile values, row-major.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self:#})")
    }
}
