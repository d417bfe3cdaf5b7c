//! Cells, the position (one 20-bit row mask per row and player), Zobrist keys and the text diagram.

use std::fmt;

/// The smallest supported board side, in cells.
pub const MIN_SIZE: usize = 5;
/// The largest supported board side, in cells (Gomocup plays 15x15 and 20x20).
pub const MAX_SIZE: usize = 20;
/// The default board side, in cells (the standard Gomoku board).
pub const DEFAULT_SIZE: usize = 15;

/// Black, the player who moves first (player 0).
pub const BLACK: usize = 0;
/// White, the player who moves second (player 1).
pub const WHITE: usize = 1;

/// A board cell in Gomocup coordinates: `x` is the column and `y` the row, both 0-based, `(0, 0)` at the
/// top left. Two bytes, independent of the board size; [`Cell::index`] gives the row-major index
/// `y * size + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, 0-based.
    pub x: u8,
    /// Row, 0-based.
    pub y: u8,
}

impl Cell {
    /// The cell in column `x` and row `y`.
    ///
    /// # Panics
    /// Panics when `x` or `y` is not below [`MAX_SIZE`].
    pub fn new(x: usize, y: usize) -> Self {
        assert!(x < MAX_SIZE && y < MAX_SIZE, "cell {x},{y} is beyond the largest board");
        Cell { x: x as u8, y: y as u8 }
    }

    /// The row-major index `y * size + x` of the cell on a `size` x `size` board.
    pub fn index(self, size: usize) -> usize {
        self.y as usize * size + self.x as usize
    }

    /// The cell with row-major index `index` on a `size` x `size` board.
    ///
    /// # Panics
    /// Panics when `index >= size * size` or `size > MAX_SIZE`.
    pub fn from_index(index: usize, size: usize) -> Self {
        assert!(index < size * size, "cell index {index} is off the {size}x{size} board");
        Cell::new(index % size, index / size)
    }

    /// Whether the cell lies on a `size` x `size` board.
    pub fn on_board(self, size: usize) -> bool {
        (self.x as usize) < size && (self.y as usize) < size
    }

    /// Parses Gomocup coordinates `"x,y"` (spaces around the numbers allowed). Returns `None` when the
    /// text is not two non-negative integers below [`MAX_SIZE`] separated by a comma; the board size is
    /// not checked (see [`Cell::on_board`]).
    pub fn parse(text: &str) -> Option<Self> {
        let (x, y) = text.split_once(',')?;
        let x: usize = x.trim().parse().ok()?;
        let y: usize = y.trim().parse().ok()?;
        (x < MAX_SIZE && y < MAX_SIZE).then(|| Cell::new(x, y))
    }
}

impl fmt::Display for Cell {
    /// Gomocup coordinates `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// splitmix64's step (Steele, Lea and Flood, OOPSLA 2014), usable in constants: the state advance plus
/// the finaliser of [`crate::games::mix64`], which is not a `const fn`.
const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Seed of the Zobrist table (arbitrary and fixed, so keys are identical in every run and build).
const ZOBRIST_SEED: u64 = 0x676F_6D6F_6B75_2121;

/// Zobrist keys per player and cell (`y * MAX_SIZE + x`), drawn from splitmix64 with a fixed seed, plus
/// at index `[0][MAX_SIZE * MAX_SIZE]` the side-to-move key (XORed in when White is to move).
static ZOBRIST: [[u64; MAX_SIZE * MAX_SIZE + 1]; 2] = {
    let mut table = [[0u64; MAX_SIZE * MAX_SIZE + 1]; 2];
    let mut state = ZOBRIST_SEED;
    let mut p = 0;
    while p < 2 {
        let mut i = 0;
        while i <= MAX_SIZE * MAX_SIZE {
            let (next, value) = splitmix64(state);
            state = next;
            table[p][i] = value;
            i += 1;
        }
        p += 1;
    }
    table
};

/// The Zobrist key of a stone of `player` on `cell`.
#[inline]
pub(crate) fn stone_key(player: usize, cell: Cell) -> u64 {
    ZOBRIST[player][cell.y as usize * MAX_SIZE + cell.x as usize]
}

/// The side-to-move Zobrist key, part of the key exactly when White is to move.
pub(crate) fn white_to_move_key() -> u64 {
    ZOBRIST[0][MAX_SIZE * MAX_SIZE]
}

/// No winner yet (stored in [`GomokuState`]'s `winner` byte).
const NO_WINNER: u8 = u8::MAX;

/// A Gomoku position: the stones of each player as one bit mask per row (bit `x` of `rows[p][y]`), the
/// side to move (implied by the stone count: Black when it is even), the winner if the last stone made a
/// five, the last move and the Zobrist key, maintained incrementally. 176 bytes, `Clone` is a copy.
///
/// Build positions with [`super::Gomoku::new_game`], [`super::Gomoku::from_stones`],
/// [`super::Gomoku::from_moves`] or [`super::Gomoku::parse_board`], and play with the
/// [`crate::Game`] methods or [`super::Gomoku::try_apply`].
///
/// Equality compares everything, the last move included; use [`GomokuState::key`] to compare positions
/// regardless of move order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GomokuState {
    /// `rows[p][y]` has bit `x` set when player `p` has a stone on cell `(x, y)`.
    pub(crate) rows: [[u32; MAX_SIZE]; 2],
    /// Zobrist key: XOR of [`stone_key`] over all stones, and [`white_to_move_key`] when White moves.
    pub(crate) key: u64,
    /// Number of stones on the board.
    pub(crate) count: u16,
    /// Board side, in cells.
    pub(crate) size: u8,
    /// The player (0 or 1) holding a winning line, or [`NO_WINNER`].
    pub(crate) winner: u8,
    /// The last stone placed, if the position was reached by play.
    pub(crate) last: Option<Cell>,
}

// The search clones states on every playout: keep them small.
const _: () = assert!(std::mem::size_of::<GomokuState>() <= 176);

impl GomokuState {
    /// The empty `size` x `size` board, Black to move.
    pub(crate) fn empty(size: usize) -> Self {
        GomokuState { rows: [[0; MAX_SIZE]; 2], key: 0, count: 0, size: size as u8, winner: NO_WINNER, last: None }
    }

    /// Board side, in cells.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The player (0 = Black, 1 = White) whose stone is on `cell`, if any.
    pub fn stone(&self, cell: Cell) -> Option<usize> {
        let bit = 1u32 << cell.x;
        let y = cell.y as usize;
        (0..2).find(|&p| self.rows[p][y] & bit != 0)
    }

    /// Whether `cell` is on the board and empty.
    pub fn is_empty_cell(&self, cell: Cell) -> bool {
        cell.on_board(self.size()) && self.stone(cell).is_none()
    }

    /// The player to place the next stone: Black (0) when the stone count is even, else White (1).
    /// Meaningful also in terminal positions (it is the player who would move next).
    pub fn mover(&self) -> usize {
        (self.count & 1) as usize
    }

    /// The player who made a winning line, if any.
    pub fn winner(&self) -> Option<usize> {
        (self.winner != NO_WINNER).then_some(self.winner as usize)
    }

    /// Whether the game is over: a player has won or the board is full.
    pub fn is_terminal(&self) -> bool {
        self.winner != NO_WINNER || self.is_full()
    }

    /// Whether every cell holds a stone.
    pub fn is_full(&self) -> bool {
        self.count as usize == self.size() * self.size()
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.count as usize
    }

    /// The last stone placed, when the position was reached by play (`None` for positions built from a
    /// stone list or a diagram).
    pub fn last_move(&self) -> Option<Cell> {
        self.last
    }

    /// The stones of `player`, in row-major order.
    pub fn stones(&self, player: usize) -> impl Iterator<Item = Cell> + '_ {
        self.rows[player][..self.size()].iter().enumerate().flat_map(|(y, &row)| {
            let mut rest = row;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let x = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    Cell { x, y: y as u8 }
                })
            })
        })
    }

    /// The Zobrist key, maintained incrementally by every move.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key computed from scratch from the stones and the side to move (equals
    /// [`GomokuState::key`]; the property tests check it).
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = 0;
        for p in 0..2 {
            for cell in self.stones(p) {
                key ^= stone_key(p, cell);
            }
        }
        if self.mover() == WHITE {
            key ^= white_to_move_key();
        }
        key
    }

    /// Bit mask of the occupied cells of row `y`.
    #[inline]
    pub(crate) fn occupied_row(&self, y: usize) -> u32 {
        self.rows[0][y] | self.rows[1][y]
    }

    /// Puts a stone of `player` on the empty on-board `cell` and updates the count, key and last move (not
    /// the winner).
    #[inline]
    pub(crate) fn put(&mut self, player: usize, cell: Cell) {
        debug_assert!(self.is_empty_cell(cell), "cell {cell} is occupied or off the board");
        self.rows[player][cell.y as usize] |= 1 << cell.x;
        self.count += 1;
        self.key ^= stone_key(player, cell) ^ white_to_move_key();
        self.last = Some(cell);
    }

    /// Records `player` as the winner.
    pub(crate) fn set_winner(&mut self, player: usize) {
        self.winner = player as u8;
    }
}

impl GomokuState {
    /// The character of `cell`: `X` (Black), `O` (White), `*` for the empty cell `mark`, `.` (empty).
    fn cell_char(&self, cell: Cell, mark: Option<Cell>) -> char {
        match self.stone(cell) {
            Some(BLACK) => 'X',
            Some(_) => 'O',
            None if Some(cell) == mark => '*',
            None => '.',
        }
    }

    /// One string per board row, top row first, one character per cell (`X`, `O`, `.`).
    pub fn rows(&self) -> Vec<String> {
        let size = self.size();
        (0..size).map(|y| (0..size).map(|x| self.cell_char(Cell::new(x, y), None)).collect()).collect()
    }

    /// The board as a diagram: a header of column numbers, then one line per row starting with the row
    /// number, cells `X` (Black), `O` (White) and `.` (empty), three characters per cell; the empty cell
    /// `mark`, when given, drawn as `*` (a move to show).
    pub fn diagram(&self, mark: Option<Cell>) -> String {
        let size = self.size();
        let mut text = String::from("  ");
        for x in 0..size {
            text += &format!(" {x:>2}");
        }
        text.push('\n');
        for y in 0..size {
            text += &format!("{y:>2}");
            for x in 0..size {
                text += &format!("  {}", self.cell_char(Cell::new(x, y), mark));
            }
            text.push('\n');
        }
        text
    }
}

impl fmt::Display for GomokuState {
    /// [`GomokuState::diagram`] with no mark. The last move, when known, is not marked, so that the
    /// diagram parses back to the same stones ([`super::Gomoku::parse_board`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram(None))
    }
}
