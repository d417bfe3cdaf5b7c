//! The small value types of the rules: board cells, head moves and why a game ended; and the step from
//! cell to cell in the fixed-stride numbering.

use std::fmt;

use super::parse::ParseError;
use super::state::STRIDE;

/// A board cell: `x` is the column, `y` the row, both 0-based; `(0,0)` is the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, `0..width`.
    pub x: u8,
    /// Row, `0..height` (row 0 is the top; [`Dir::Up`] decreases `y`).
    pub y: u8,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: u8, y: u8) -> Self {
        Self { x, y }
    }

    /// The cell's index in the fixed-stride numbering (`y * 32 + x`).
    #[inline]
    pub(crate) fn index(self) -> u16 {
        self.y as u16 * STRIDE as u16 + self.x as u16
    }

    /// The cell of a fixed-stride index.
    #[inline]
    pub(crate) fn from_index(i: u16) -> Self {
        Self::new((i as usize % STRIDE) as u8, (i as usize / STRIDE) as u8)
    }

    /// Manhattan distance to `other`, in steps.
    pub fn distance(self, other: Cell) -> u32 {
        self.x.abs_diff(other.x) as u32 + self.y.abs_diff(other.y) as u32
    }
}

/// Written `x,y`, the form the position parser reads.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A move of the snake's head. [`Dir::Up`] decreases the row `y`, [`Dir::Left`] the column `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// `y - 1`.
    Up = 0,
    /// `y + 1`.
    Down = 1,
    /// `x - 1`.
    Left = 2,
    /// `x + 1`.
    Right = 3,
}

impl Dir {
    /// The four moves in the fixed order used for legal-action lists.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The reverse move.
    #[inline]
    pub fn opposite(self) -> Dir {
        Self::from_bits(self as u8 ^ 1)
    }

    /// Lower-case name: `up`, `down`, `left`, `right`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// The move that takes `from` to the adjacent cell `to`, or `None` when they are not adjacent.
    pub fn between(from: Cell, to: Cell) -> Option<Dir> {
        match (to.x as i32 - from.x as i32, to.y as i32 - from.y as i32) {
            (0, -1) => Some(Dir::Up),
            (0, 1) => Some(Dir::Down),
            (-1, 0) => Some(Dir::Left),
            (1, 0) => Some(Dir::Right),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn from_bits(b: u8) -> Dir {
        match b & 3 {
            0 => Dir::Up,
            1 => Dir::Down,
            2 => Dir::Left,
            _ => Dir::Right,
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads `up`, `down`, `left`, `right` (or `u`, `d`, `l`, `r`), any case.
impl std::str::FromStr for Dir {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Dir, ParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "up" | "u" => Ok(Dir::Up),
            "down" | "d" => Ok(Dir::Down),
            "left" | "l" => Ok(Dir::Left),
            "right" | "r" => Ok(Dir::Right),
            _ => Err(ParseError::BadDir(s.to_string())),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The head moved off the board.
    Wall,
    /// The head moved into the snake's own body (not the tail cell being vacated).
    Body,
    /// `starvation_limit` moves in a row passed without food.
    Starved,
    /// The snake fills the whole board.
    Won,
}

impl End {
    /// Lower-case name: `wall`, `body`, `starved`, `won`.
    pub fn name(self) -> &'static str {
        match self {
            End::Wall => "wall",
            End::Body => "body",
            End::Starved => "starved",
            End::Won => "won",
        }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The index one step from `c` in `d`, without a bounds check (the caller knows it is on the board).
#[inline]
pub(crate) fn step_index(c: u16, d: Dir) -> u16 {
    match d {
        Dir::Up => c.wrapping_sub(STRIDE as u16),
        Dir::Down => c.wrapping_add(STRIDE as u16),
        Dir::Left => c.wrapping_sub(1),
        Dir::Right => c.wrapping_add(1),
    }
}
