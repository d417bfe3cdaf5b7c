//! The four moves of 2048 and sets of them (the legal moves of a board).

use std::fmt;
use std::str::FromStr;

/// A move: the direction every tile slides. Rows are numbered from the top (row 0), so [`Dir::Up`] moves
/// tiles toward row 0 and [`Dir::Left`] toward column 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Toward row 0.
    Up,
    /// Toward row 3.
    Down,
    /// Toward column 0.
    Left,
    /// Toward column 3.
    Right,
}

impl Dir {
    /// The four directions, in the order legal moves are listed.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The lowercase name: `"up"`, `"down"`, `"left"` or `"right"`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// The position of `self` in [`Dir::ALL`] (0..4).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A direction name that [`Dir::from_str`] does not know; holds the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown direction {0:?} (expected up, down, left, right or U, D, L, R)")]
pub struct ParseDirError(pub String);

impl FromStr for Dir {
    type Err = ParseDirError;

    /// Reads `up`, `down`, `left`, `right` or `U`, `D`, `L`, `R`, in any case, surrounding spaces ignored.
    ///
    /// # Errors
    /// [`ParseDirError`] holding the text for anything else.
    fn from_str(s: &str) -> Result<Dir, ParseDirError> {
        let t = s.trim();
        Dir::ALL
            .into_iter()
            .find(|d| t.eq_ignore_ascii_case(d.name()) || t.eq_ignore_ascii_case(&d.name()[..1]))
            .ok_or_else(|| ParseDirError(s.to_string()))
    }
}

/// A set of directions (the legal moves of a board), as a 4-bit mask over [`Dir::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DirSet(u8);

impl DirSet {
    /// The empty set.
    pub const EMPTY: DirSet = DirSet(0);

    /// The set whose bit `i` stands for `Dir::ALL[i]` (bits 4..8 are ignored).
    #[inline]
    pub fn from_bits(bits: u8) -> DirSet {
        DirSet(bits & 0xF)
    }

    /// Bit `i` set when `Dir::ALL[i]` is in the set.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// Whether `dir` is in the set.
    #[inline]
    pub fn contains(self, dir: Dir) -> bool {
        self.0 & (1 << dir.index()) != 0
    }

    /// Number of directions in the set (0..=4).
    #[inline]
    pub fn len(self) -> usize {
        DIRSET_LEN[usize::from(self.0 & 0xF)] as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The `k`-th direction of the set in [`Dir::ALL`] order.
    ///
    /// # Panics
    /// When `k >= self.len()`.
    #[inline]
    pub fn nth(self, k: usize) -> Dir {
        assert!(k < self.len(), "direction {k} of a set of {}", self.len());
        Dir::ALL[usize::from(DIRSET_NTH[usize::from(self.0 & 0xF)][k & 3])]
    }

    /// The directions of the set in [`Dir::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |&d| self.contains(d))
    }
}

/// `DIRSET_LEN[bits]`: the number of set bits of a 4-bit mask.
const DIRSET_LEN: [u8; 16] = {
    let mut len = [0; 16];
    let mut bits = 0;
    while bits < 16 {
        len[bits] = (bits as u8).count_ones() as u8;
        bits += 1;
    }
    len
};

/// `DIRSET_NTH[bits][k]`: the position of the `k`-th set bit of a 4-bit mask (0 when there is none).
const DIRSET_NTH: [[u8; 4]; 16] = {
    let mut nth = [[0; 4]; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut k = 0;
        let mut i = 0;
        while i < 4 {
            if bits & (1 << i) != 0 {
                nth[bits][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        bits += 1;
    }
    nth
};
