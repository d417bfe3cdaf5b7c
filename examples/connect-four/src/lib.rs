//! Connect Four (7 columns, 6 rows, four in a row wins) implemented outside canopy with only its public
//! API: the rules as a [`canopy_mcts::Game`], searched by [`canopy_mcts::Search`].
//!
//! ```
//! use canopy_mcts::{Search, SearchParams};
//! use connect_four::{ConnectFour, Position};
//!
//! // Red (to move) has 0, 1 and 2 in the bottom row: column 3 wins at once.
//! let position = Position::from_moves("061626").unwrap();
//! let params = SearchParams { playouts: Some(5_000), threads: 1, ..SearchParams::default() };
//! let report = Search::new(&ConnectFour, params).run(&position);
//! assert_eq!(report.best, Some(3));
//! ```
//!
//! The board is two bitboards in the classic layout: 7 bits per column (6 cells and a guard bit), bit
//! `7 * column + row`, row 0 at the bottom. Four in a row is found with four shift-and-mask tests.

use canopy_mcts::{win_draw_loss_returns, Game, NoOutcome, Turn};

/// Columns of the board.
pub const COLUMNS: usize = 7;
/// Rows of the board.
pub const ROWS: usize = 6;
/// Bits per column in the bitboards (the rows and a guard bit).
const STRIDE: usize = ROWS + 1;
/// Bits of the bottom cell of every column.
const BOTTOM: u64 = 0b0000001_0000001_0000001_0000001_0000001_0000001_0000001;
/// Bits of every playable cell.
const FULL: u64 = BOTTOM * ((1 << ROWS) - 1);

/// A position: the stones of each player and whose turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones of player 0 (Red, who moves first) and player 1 (Yellow).
    stones: [u64; 2],
    /// Stones on the board.
    count: u32,
}

impl Position {
    /// The player to move: 0 (Red) or 1 (Yellow).
    pub fn mover(&self) -> usize {
        (self.count % 2) as usize
    }

    /// Whether `column` (0-based) has room for a stone.
    pub fn can_play(&self, column: usize) -> bool {
        column < COLUMNS && (self.occupied() & top_bit(column)) == 0
    }

    /// The position after the player to move drops a stone in `column`.
    ///
    /// # Errors
    /// A message when the column is off the board or full, or the game is over.
    pub fn play(&self, column: usize) -> Result<Position, String> {
        if self.winner().is_some() || self.count as usize == COLUMNS * ROWS {
            return Err("the game is over".to_string());
        }
        if !self.can_play(column) {
            return Err(format!("column {column} is full or off the board (0..{COLUMNS})"));
        }
        let mut next = *self;
        next.drop_stone(column);
        Ok(next)
    }

    /// The position reached by playing columns given as digits from the empty board (`"3344"`).
    ///
    /// # Errors
    /// A message naming the first move that is not a digit or cannot be played.
    pub fn from_moves(moves: &str) -> Result<Position, String> {
        moves.chars().enumerate().try_fold(Position::default(), |p, (i, c)| {
            let column = c.to_digit(10).ok_or_else(|| format!("move {}: '{c}' is not a column digit", i + 1))?;
            p.play(column as usize).map_err(|e| format!("move {}: {e}", i + 1))
        })
    }

    /// The player with four in a row, if any.
    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| has_four(self.stones[p]))
    }

    fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    fn drop_stone(&mut self, column: usize) {
        // Adding the column's bottom bit to its occupied bits carries into the lowest empty cell.
        let mask = column_mask(column);
        let landing = (self.occupied() + bottom_bit(column)) & mask;
        self.stones[self.mover()] |= landing;
        self.count += 1;
    }
}

fn bottom_bit(column: usize) -> u64 {
    1 << (column * STRIDE)
}

fn top_bit(column: usize) -> u64 {
    1 << (column * STRIDE + ROWS - 1)
}

fn column_mask(column: usize) -> u64 {
    ((1 << ROWS) - 1) << (column * STRIDE)
}

/// Whether `b` holds four in a row: vertical (shift 1), horizontal (`STRIDE`), and both diagonals.
fn has_four(b: u64) -> bool {
    [1, STRIDE, STRIDE - 1, STRIDE + 1].into_iter().any(|d| {
        let pairs = b & (b >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

/// The rules of Connect Four. Wins pay 1, draws (a full board) 0.5, losses 0.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFour;

impl Game for ConnectFour {
    type State = Position;
    type Action = u8;
    type Outcome = NoOutcome;
    type Returns = [f64; 2];

    fn to_move(&self, p: &Position) -> Turn {
        if p.winner().is_some() || p.occupied() & FULL == FULL {
            Turn::Terminal
        } else {
            Turn::Player(p.mover())
        }
    }

    fn legal_actions(&self, p: &Position, out: &mut Vec<u8>) {
        out.clear();
        if self.to_move(p) != Turn::Terminal {
            out.extend((0..COLUMNS as u8).filter(|&c| p.can_play(c as usize)));
        }
    }

    fn apply(&self, p: &mut Position, column: u8) -> f64 {
        p.drop_stone(column as usize);
        0.0
    }

    fn returns(&self, p: &Position) -> [f64; 2] {
        win_draw_loss_returns(p.winner())
    }

    fn value_bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn win_draw_loss(&self) -> bool {
        true
    }

    fn has_rewards(&self) -> bool {
        false
    }

    fn action_name(&self, column: &u8) -> String {
        column.to_string()
    }
}
