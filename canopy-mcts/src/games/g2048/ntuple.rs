//! A learned 2048 evaluation: an n-tuple network over the board's exponents, trained by temporal
//! difference learning on afterstates.
//!
//! An n-tuple is a list of cells; its weight table holds one `f32` per combination of the exponents in
//! those cells (16 values per cell: empty, 2, ..., 32768; larger tiles count as 32768). The value of an
//! afterstate is the sum, over every tuple and each of the 8 symmetries of the square (rotations and
//! reflections), of the weight its cells select:
//!
//! ```text
//! V(b) = Σ_tuples Σ_{g in D4} w_t[ index_t(g(b)) ],   index_t(b) = Σ_k e(b, cell_k) · 16^k
//! ```
//!
//! so the 8 symmetric boards have the same value and each tuple learns from every orientation at once
//! ("symmetric sampling", Szubert and Jaśkowski, "Temporal difference learning of n-tuple networks for
//! the game 2048", IEEE CIG 2014, section IV). The value estimates the merge score still to come from
//! the afterstate, in score units; a game that is over is worth 0.
//!
//! [`STANDARD_TUPLES`] is the network canopy trains by default: the straight 4-tuples (an outer and an
//! inner row) and the 2x2 squares (corner, edge and centre), the five shapes of Szubert and Jaśkowski's
//! 17-tuple network that symmetry leaves distinct. 5 tuples × 16^4 weights × 4 bytes = 1 310 720 bytes
//! (1.25 MiB; the file adds 45 bytes); an evaluation is 40 lookups in tables that fit the L2/L3 cache.
//!
//! Learning ([`NTuple::train_game`], "TD-afterstate" in Szubert and Jaśkowski, Fig. 6): the player
//! moves greedily by `argmax_a reward(a) + V(afterstate(a))`, and after each move the previous
//! afterstate's value moves toward `reward + V(new afterstate)`, or toward 0 when the game ended:
//! every weight it selects changes by `alpha · (target − V(previous))`. [`DEFAULT_ALPHA`] is their
//! learning rate.
//!
//! ```
//! use canopy_mcts::games::g2048::ntuple::{NTuple, DEFAULT_ALPHA};
//! use canopy_mcts::rng;
//!
//! let mut net = NTuple::standard();
//! let mut r = rng::seeded(7, 0);
//! let game = net.train_game(&mut r, DEFAULT_ALPHA);
//! assert!(game.moves > 0);
//! let bytes = net.to_bytes();
//! assert_eq!(NTuple::from_bytes(&bytes).unwrap().weights(), net.weights());
//! ```
//!
//! The weights file format is [`NTuple::to_bytes`] (documented there and in docs/2048.md).

use std::fmt;
use std::path::{Path, PathBuf};

use super::tables::{self, spread16};
use super::{greedy_afterstate, Board};
use crate::rng::Rng;

/// The longest tuple: 16^6 weights (64 MiB) for one tuple of six cells.
pub const MAX_TUPLE_LEN: usize = 6;

/// The most tuples a network may have.
pub const MAX_TUPLES: usize = 64;

/// The 8 symmetries of the square, as maps of `(row, column)`.
const SYMMETRIES: usize = 8;

/// canopy's default network: the outer and inner straight 4-tuples (rows 0 and 1) and the 2x2 squares
/// at the corner, the middle of an edge and the centre (cells row-major, 0 top left). With the 8
/// symmetries they cover every row, column and 2x2 square of the board (Szubert and Jaśkowski 2014,
/// the network of Fig. 4: all straight 4-tuples and all squares). 327 680 weights, 1.25 MiB.
pub const STANDARD_TUPLES: &[&[u8]] = &[&[0, 1, 2, 3], &[4, 5, 6, 7], &[0, 1, 4, 5], &[1, 2, 5, 6], &[5, 6, 9, 10]];

/// The larger network `canopy train 2048 --tuples large` trains: four 5-tuples, each a row with the
/// cell below its first (rows 0 and 1) or a 2x2 square with the cell right of its top row (at the corner
/// and one row down) — the shapes of the 6-tuple networks common in the 2048 literature (a row with two
/// cells of the next one, a 2x3 rectangle), one cell shorter so that the weights fit 16 MiB:
/// 4 × 16^5 weights × 4 bytes = 16 777 216 bytes; an evaluation is 32 lookups.
pub const LARGE_TUPLES: &[&[u8]] = &[&[0, 1, 2, 3, 4], &[4, 5, 6, 7, 8], &[0, 1, 2, 4, 5], &[4, 5, 6, 8, 9]];

/// The learning rate of TD-afterstate learning per weight: 0.0025, the best rate Szubert and Jaśkowski
/// found for it (CIG 2014, section V-A). With [`STANDARD_TUPLES`] (40 lookups per evaluation) each update
/// moves the value `40 · 0.0025 = 0.1` of the way to its target.
pub const DEFAULT_ALPHA: f32 = 0.0025;

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"CNPY2048";

/// The file format version [`NTuple::to_bytes`] writes and [`NTuple::from_bytes`] reads.
pub const FORMAT_VERSION: u32 = 1;

/// Weights files larger than this are refused before they are read (1 GiB).
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Why a network could not be built, read or written. Messages are one line and name the file.
#[derive(Debug, thiserror::Error)]
pub enum NTupleError {
    /// The tuple layout is not one this module can use.
    #[error("bad n-tuple layout: {0}")]
    Layout(String),
    /// Reading or writing the file failed.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not a canopy 2048 n-tuple weights file (bad magic bytes)")]
    BadMagic,
    /// The file has a format version this build does not read.
    #[error("weights file format version {0}, this build reads version {FORMAT_VERSION}")]
    Version(u32),
    /// The file is shorter or longer than its header says.
    #[error("weights file is {actual} bytes, its header says {expected}")]
    Size {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes read.
        actual: u64,
    },
    /// The checksum at the end does not match the bytes before it.
    #[error("weights file is corrupt (checksum mismatch)")]
    Checksum,
    /// A weight is infinite or NaN.
    #[error("weights file is corrupt (weight {0} is not a finite number)")]
    NotFinite(usize),
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("weights file is {0} bytes, more than the {MAX_FILE_BYTES} bytes allowed")]
    TooLarge(u64),
    /// A stream with no length (a pipe, a device) goes on past the size its header gives; it is read
    /// no further than one byte past it.
    #[error("weights stream goes on past the {0} bytes its header says")]
    TooLong(u64),
}

/// The most bytes a file's header (magic bytes to the weight count) can take: [`MAX_TUPLES`] tuples of
/// up to 255 cells as the format can write them.
const MAX_HEADER_BYTES: u64 = 16 + MAX_TUPLES as u64 * 256 + 8;

/// The file size the header at the start of `bytes` declares (header, weights, checksum); `None` when
/// `bytes` ends inside the header or it lists more than [`MAX_TUPLES`] tuples ([`NTuple::from_bytes`]
/// says what is wrong then).
fn declared_size(bytes: &[u8]) -> Option<u64> {
    let count = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?) as usize;
    if count > MAX_TUPLES {
        return None;
    }
    let mut at = 16;
    for _ in 0..count {
        at += 1 + *bytes.get(at)? as usize;
    }
    let stored = u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?);
    Some((at as u64 + 8).saturating_add(stored.saturating_mul(4)).saturating_add(8))
}

/// One tuple in one orientation: where its weights start and the bit offsets (4 × cell) of its cells.
#[derive(Clone, Copy, Debug)]
struct Feature {
    offset: u32,
    len: u8,
    shifts: [u8; MAX_TUPLE_LEN],
}

/// An n-tuple network (see the module documentation): the tuples, their symmetric expansions and the
/// weights.
#[derive(Clone)]
pub struct NTuple {
    tuples: Vec<Vec<u8>>,
    /// Every tuple under the 8 symmetries, tuple by tuple.
    features: Box<[Feature]>,
    /// The weight tables, tuple by tuple (`16^len` each).
    weights: Box<[f32]>,
}

impl fmt::Debug for NTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NTuple")
            .field("tuples", &self.tuples)
            .field("weights", &self.weights.len())
            .finish_non_exhaustive()
    }
}

/// `cell` under symmetry `g` (0..8): identity, the mirror images and the rotations of the square.
fn symmetric_cell(cell: u8, g: usize) -> u8 {
    let (r, c) = (cell / 4, cell % 4);
    let (r, c) = match g {
        0 => (r, c),
        1 => (r, 3 - c),
        2 => (3 - r, c),
        3 => (3 - r, 3 - c),
        4 => (c, r),
        5 => (c, 3 - r),
        6 => (3 - c, r),
        _ => (3 - c, 3 - r),
    };
    4 * r + c
}

/// The board's 16 exponents as nibbles (cell `i` in bits `4i..4i + 4`), tiles above 32768 counted as
/// 32768 (exponent 15).
#[inline(always)]
fn clipped_nibbles(board: &Board) -> u64 {
    let (lo, hi) = board.raw();
    if hi == 0 {
        lo
    } else {
        // A cell with bit 4 set holds exponent 16 or more: its nibble becomes 15.
        lo | (spread16(hi) * 0xF)
    }
}

/// Statistics of one game played by [`NTuple::train_game`] or [`NTuple::play_greedy`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameStats {
    /// The final score (sum of merge scores).
    pub score: u64,
    /// The largest tile at the end.
    pub max_tile: u32,
    /// Moves played.
    pub moves: u32,
}

impl NTuple {
    /// A network with the tuples `tuples` and every weight 0.
    ///
    /// # Errors
    /// [`NTupleError::Layout`] when there are no tuples or more than [`MAX_TUPLES`], or a tuple is empty,
    /// longer than [`MAX_TUPLE_LEN`], names a cell outside `0..16` or names a cell twice.
    pub fn new(tuples: &[&[u8]]) -> Result<NTuple, NTupleError> {
        if tuples.is_empty() || tuples.len() > MAX_TUPLES {
            return Err(NTupleError::Layout(format!("{} tuples (1 to {MAX_TUPLES} allowed)", tuples.len())));
        }
        let mut features = Vec::with_capacity(tuples.len() * SYMMETRIES);
        let mut offset = 0usize;
        for (t, cells) in tuples.iter().enumerate() {
            if cells.is_empty() || cells.len() > MAX_TUPLE_LEN {
                return Err(NTupleError::Layout(format!(
                    "tuple {t} has {} cells (1 to {MAX_TUPLE_LEN} allowed)",
                    cells.len()
                )));
            }
            for (k, &c) in cells.iter().enumerate() {
                if c >= 16 {
                    return Err(NTupleError::Layout(format!("tuple {t} names cell {c} (cells are 0 to 15)")));
                }
                if cells[..k].contains(&c) {
                    return Err(NTupleError::Layout(format!("tuple {t} names cell {c} twice")));
                }
            }
            for g in 0..SYMMETRIES {
                let mut shifts = [0u8; MAX_TUPLE_LEN];
                for (k, &c) in cells.iter().enumerate() {
                    shifts[k] = 4 * symmetric_cell(c, g);
                }
                features.push(Feature { offset: offset as u32, len: cells.len() as u8, shifts });
            }
            offset += 1 << (4 * cells.len());
        }
        // At most 64 tuples of 16^6 weights: 2^30 weights, which fits the u32 offsets.
        Ok(NTuple {
            tuples: tuples.iter().map(|t| t.to_vec()).collect(),
            features: features.into_boxed_slice(),
            weights: vec![0.0; offset].into_boxed_slice(),
        })
    }

    /// The untrained network of [`STANDARD_TUPLES`].
    pub fn standard() -> NTuple {
        NTuple::new(STANDARD_TUPLES).expect("the standard layout is valid")
    }

    /// The untrained network of [`LARGE_TUPLES`].
    pub fn large() -> NTuple {
        NTuple::new(LARGE_TUPLES).expect("the large layout is valid")
    }

    /// The tuples (cells row-major, 0 top left).
    pub fn tuples(&self) -> &[Vec<u8>] {
        &self.tuples
    }

    /// All weights, tuple by tuple (tuple `t` holds `16^len(t)` weights; index `Σ_k e_k · 16^k` for the
    /// exponents `e_k` of its cells).
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Weight lookups per evaluation: 8 per tuple.
    pub fn lookups(&self) -> usize {
        self.features.len()
    }

    /// The weight index of feature `f` on the nibble board `x`.
    #[inline(always)]
    fn index(f: &Feature, x: u64) -> usize {
        let mut i = 0usize;
        for k in 0..f.len as usize {
            i |= (((x >> f.shifts[k]) & 0xF) as usize) << (4 * k);
        }
        f.offset as usize + i
    }

    /// The value of the afterstate `board`: the sum of the weights its tuples select, in score units
    /// (the merge score expected from here on, once trained). No allocation; [`NTuple::lookups`] table
    /// reads.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> f32 {
        let x = clipped_nibbles(board);
        let w = &self.weights;
        let mut v = 0.0f32;
        for f in self.features.iter() {
            v += w[Self::index(f, x)];
        }
        v
    }

    /// Adds `delta` to every weight `board` selects (a weight selected twice gets it twice).
    #[inline]
    pub fn update(&mut self, board: &Board, delta: f32) {
        let x = clipped_nibbles(board);
        for f in self.features.iter() {
            let i = Self::index(f, x);
            self.weights[i] += delta;
        }
    }

    /// Plays one game from the original start ([`super::G2048State::new_game`]) greedily by `reward +
    /// V(afterstate)` and learns from it by TD(0) on afterstates with learning rate `alpha` per weight
    /// (see the module documentation). The spawns come from `rng`, so a seeded generator gives the same
    /// game and the same weights every time.
    pub fn train_game(&mut self, rng: &mut Rng, alpha: f32) -> GameStats {
        self.game(rng, Some(alpha))
    }

    /// Plays one game greedily by `reward + V(afterstate)` without learning (the greedy agent with
    /// this network). The spawns come from `rng`.
    pub fn play_greedy(&mut self, rng: &mut Rng) -> GameStats {
        self.game(rng, None)
    }

    fn game(&mut self, rng: &mut Rng, alpha: Option<f32>) -> GameStats {
        let table = tables::row_table();
        let mut board = super::G2048State::new_game(rng).board;
        let mut stats = GameStats::default();
        let mut previous: Option<Board> = None;
        loop {
            let legal = board.legal_dirs();
            if legal.is_empty() {
                if let (Some(alpha), Some(prev)) = (alpha, previous) {
                    let error = -self.evaluate(&prev);
                    self.update(&prev, alpha * error);
                }
                break;
            }
            let (_, (after, gain), value) = greedy_afterstate(&*self, table, board, legal);
            if let (Some(alpha), Some(prev)) = (alpha, previous) {
                // The target is the chosen move's reward plus the value of its afterstate.
                let error = value - self.evaluate(&prev);
                self.update(&prev, alpha * error);
            }
            stats.score += u64::from(gain);
            stats.moves += 1;
            previous = Some(after);
            // A legal move always leaves an empty cell.
            board = match after.random_spawn(rng) {
                Some(spawn) => after.with_spawn(spawn),
                None => after,
            };
        }
        stats.max_tile = board.max_tile();
        stats
    }

    /// The network as a weights file, all numbers little-endian:
    ///
    /// ```text
    /// bytes   field
    /// 8       magic "CNPY2048" (MAGIC)
    /// 4       u32 format version (1)
    /// 4       u32 tuple count T (1..=64)
    /// T × …   per tuple: u8 length n (1..=6), then n u8 cells (0..16, row-major, distinct)
    /// 8       u64 weight count W = Σ 16^n
    /// 4 W     f32 weights, tuple by tuple, index Σ_k e_k · 16^k
    /// 8       u64 FNV-1a (64-bit) checksum of every byte before it
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.weights.len() * 4 + 64);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.tuples.len() as u32).to_le_bytes());
        for t in &self.tuples {
            out.push(t.len() as u8);
            out.extend_from_slice(t);
        }
        out.extend_from_slice(&(self.weights.len() as u64).to_le_bytes());
        for w in self.weights.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network written by [`NTuple::to_bytes`].
    ///
    /// # Errors
    /// [`NTupleError::BadMagic`], [`NTupleError::Version`], [`NTupleError::Layout`] (a bad tuple list),
    /// [`NTupleError::Size`] (the bytes are fewer or more than the header says), [`NTupleError::Checksum`]
    /// or [`NTupleError::NotFinite`]. Never panics on any input.
    pub fn from_bytes(bytes: &[u8]) -> Result<NTuple, NTupleError> {
        let actual = bytes.len() as u64;
        // The header read so far implies at least `need` bytes.
        let short = |need: usize| NTupleError::Size { expected: need as u64 + 8, actual };
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(NTupleError::BadMagic);
        }
        let u32_at = |at: usize| -> Result<u32, NTupleError> {
            let b = bytes.get(at..at + 4).ok_or_else(|| short(at + 4))?;
            Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
        };
        let version = u32_at(8)?;
        if version != FORMAT_VERSION {
            return Err(NTupleError::Version(version));
        }
        let count = u32_at(12)? as usize;
        if count == 0 || count > MAX_TUPLES {
            return Err(NTupleError::Layout(format!("{count} tuples (1 to {MAX_TUPLES} allowed)")));
        }
        let mut at = 16;
        let mut tuples: Vec<&[u8]> = Vec::with_capacity(count);
        for _ in 0..count {
            let n = *bytes.get(at).ok_or_else(|| short(at + 1))? as usize;
            let cells = bytes.get(at + 1..at + 1 + n).ok_or_else(|| short(at + 1 + n))?;
            tuples.push(cells);
            at += 1 + n;
        }
        let mut net = NTuple::new(&tuples)?;
        let w = bytes.get(at..at + 8).ok_or_else(|| short(at + 8))?;
        let stored = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        at += 8;
        let want = net.weights.len();
        if stored != want as u64 {
            return Err(NTupleError::Layout(format!("{stored} weights stored, the tuples have {want}")));
        }
        let expected = (at + 4 * want + 8) as u64;
        if actual != expected {
            return Err(NTupleError::Size { expected, actual });
        }
        let body = &bytes[..bytes.len() - 8];
        let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
        if fnv1a(body) != sum {
            return Err(NTupleError::Checksum);
        }
        for (i, (w, chunk)) in net.weights.iter_mut().zip(body[at..].chunks_exact(4)).enumerate() {
            *w = f32::from_le_bytes(chunk.try_into().expect("4 bytes"));
            if !w.is_finite() {
                return Err(NTupleError::NotFinite(i));
            }
        }
        Ok(net)
    }

    /// Writes [`NTuple::to_bytes`] to `path` (created or replaced).
    ///
    /// # Errors
    /// [`NTupleError::Io`] naming the path when it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), NTupleError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| NTupleError::Io { path: path.to_path_buf(), source })
    }

    /// Reads a weights file written by [`NTuple::save`].
    ///
    /// # Errors
    /// [`NTupleError::Io`] when the file cannot be read, [`NTupleError::TooLarge`] above
    /// [`MAX_FILE_BYTES`], [`NTupleError::TooLong`] for a stream longer than its header says, and every
    /// error of [`NTuple::from_bytes`].
    pub fn load(path: &Path) -> Result<NTuple, NTupleError> {
        use std::io::Read as _;
        let io = |source| NTupleError::Io { path: path.to_path_buf(), source };
        let meta = std::fs::metadata(path).map_err(io)?;
        let len = meta.len();
        if len > MAX_FILE_BYTES {
            return Err(NTupleError::TooLarge(len));
        }
        // Read through limits, the magic bytes first. A device or a pipe reports no length: it is read
        // to the header, then no further than one byte past the size the header gives (`/dev/zero`
        // would otherwise be read until memory runs out, and an endless stream after a valid header up
        // to MAX_FILE_BYTES). A regular file's length is known and at most MAX_FILE_BYTES.
        let mut file = std::fs::File::open(path).map_err(io)?.take(MAX_FILE_BYTES + 1);
        let mut bytes = Vec::new();
        (&mut file).take(MAGIC.len() as u64).read_to_end(&mut bytes).map_err(io)?;
        if bytes != MAGIC {
            return NTuple::from_bytes(&bytes);
        }
        if meta.is_file() {
            file.read_to_end(&mut bytes).map_err(io)?;
        } else {
            // Without a declared size (the stream ended in the header, or its tuple count is out of
            // range) `from_bytes` says what is wrong with what was read.
            (&mut file).take(MAX_HEADER_BYTES - MAGIC.len() as u64).read_to_end(&mut bytes).map_err(io)?;
            if let Some(total) = declared_size(&bytes) {
                if total > MAX_FILE_BYTES {
                    return Err(NTupleError::TooLarge(total));
                }
                let limit = total + 1;
                (&mut file).take(limit.saturating_sub(bytes.len() as u64)).read_to_end(&mut bytes).map_err(io)?;
                if bytes.len() as u64 > total {
                    return Err(NTupleError::TooLong(total));
                }
            }
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(NTupleError::TooLarge(bytes.len() as u64));
        }
        NTuple::from_bytes(&bytes)
    }
}

/// FNV-1a, 64 bits (Fowler, Noll and Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_the_eight_maps_of_the_square() {
        // The corner cell 0 goes to each of the four corners, twice.
        let mut corners: Vec<u8> = (0..8).map(|g| symmetric_cell(0, g)).collect();
        corners.sort_unstable();
        assert_eq!(corners, [0, 0, 3, 3, 12, 12, 15, 15]);
        // Cell 1 (top edge, next to the corner) goes to the eight distinct edge cells next to corners.
        let mut edge: Vec<u8> = (0..8).map(|g| symmetric_cell(1, g)).collect();
        edge.sort_unstable();
        assert_eq!(edge, [1, 2, 4, 7, 8, 11, 13, 14]);
        // Each symmetry is a permutation of the cells.
        for g in 0..8 {
            let mut image: Vec<u8> = (0..16).map(|c| symmetric_cell(c, g)).collect();
            image.sort_unstable();
            assert_eq!(image, (0..16).collect::<Vec<u8>>(), "symmetry {g}");
        }
    }

    #[test]
    fn clipping_counts_large_tiles_as_32768() {
        let b = Board::from_exponents([17, 16, 15, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
        let x = clipped_nibbles(&b);
        let nib = |c: usize| (x >> (4 * c)) & 0xF;
        assert_eq!((nib(0), nib(1), nib(2), nib(3), nib(4), nib(15)), (15, 15, 15, 1, 0, 2));
    }
}
