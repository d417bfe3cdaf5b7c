//! Reading positions: move lists (`"7,7 8,8 ..."`), stone lists and board diagrams, and the errors they
//! report. Every error is one line that names the offending input.

use thiserror::Error;

use super::board::{Cell, MAX_SIZE, MIN_SIZE};

/// Why a board size, a move, a stone list or a diagram was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The board side is outside `MIN_SIZE..=MAX_SIZE`.
    #[error("board size {0} is outside {MIN_SIZE}..={MAX_SIZE}")]
    BadSize(usize),
    /// A move token is not `x,y` with two integers. `index` is 1-based.
    #[error("move {index} '{token}' is not of the form x,y (column,row, 0-based)")]
    Malformed {
        /// Position of the move in the list, from 1.
        index: usize,
        /// The token as written.
        token: String,
    },
    /// A move `x,y` names a cell outside the board (a coordinate is negative or at least `size`).
    /// `index` is 1-based.
    #[error("move {index} '{token}' is not a cell of the {size}x{size} board (x,y with 0 <= x,y < {size})")]
    OffBoard {
        /// Position of the move in the list, from 1.
        index: usize,
        /// The token as written.
        token: String,
        /// Board side, in cells.
        size: usize,
    },
    /// A move names a cell that an earlier move already took. `index` is 1-based.
    #[error("move {index} '{token}' is on an occupied cell")]
    Occupied {
        /// Position of the move in the list, from 1.
        index: usize,
        /// The token as written.
        token: String,
    },
    /// A move comes after a player already won. `index` is 1-based.
    #[error("move {index} '{token}' comes after the game ended")]
    AfterEnd {
        /// Position of the move in the list, from 1.
        index: usize,
        /// The token as written.
        token: String,
    },
    /// A cell handed to a move or a stone list is off the board.
    #[error("cell {cell} is off the {size}x{size} board")]
    CellOffBoard {
        /// The cell.
        cell: Cell,
        /// Board side, in cells.
        size: usize,
    },
    /// A cell handed to a move already holds a stone, or a stone list names a cell twice.
    #[error("cell {0} is occupied")]
    CellOccupied(Cell),
    /// A move was asked for in a finished game.
    #[error("the game is over")]
    GameOver,
    /// The stone counts cannot arise in play: Black moves first, so Black has as many stones as White
    /// or one more.
    #[error("impossible stone counts: {black} black and {white} white (Black moves first)")]
    Counts {
        /// Number of black stones.
        black: usize,
        /// Number of white stones.
        white: usize,
    },
    /// Both players hold a winning line.
    #[error("both players have a winning line")]
    BothWin,
    /// A player holds a winning line but the other one has played since: the winner must have made the
    /// last move (Black, with one stone more than White; White, with as many as Black).
    #[error("{} has a winning line but {} has played since (the game ends at the first five)", colour(*.winner), colour(1 - *.winner))]
    PlayedAfterWin {
        /// The player holding the line (0 Black, 1 White).
        winner: usize,
    },
    /// Under renju, Black holds an overline (a forbidden move, which ends the game as White's win) but
    /// White has played since.
    #[error("black has an overline, forbidden under renju, but white has played since (the game ends at the forbidden move)")]
    PlayedAfterFoul,
    /// A diagram has the wrong number of rows.
    #[error("the diagram has {rows} rows, expected {size}")]
    Rows {
        /// Rows found.
        rows: usize,
        /// Board side, in cells.
        size: usize,
    },
    /// A diagram row has the wrong number of cells. `row` is 0-based, as printed.
    #[error("diagram row {row} has {cells} cells, expected {size}")]
    RowLength {
        /// Row number, 0-based.
        row: usize,
        /// Cells found.
        cells: usize,
        /// Board side, in cells.
        size: usize,
    },
    /// A diagram row holds a character that is not a cell. `row` is 0-based.
    #[error("diagram row {row}: bad cell '{ch}' (use x, o or .)")]
    BadCell {
        /// Row number, 0-based.
        row: usize,
        /// The character.
        ch: char,
    },
}

/// "black" (player 0) or "white", for the messages.
fn colour(player: usize) -> &'static str {
    if player == 0 {
        "black"
    } else {
        "white"
    }
}

/// Checks a board side: `Ok(size)` when it is in `MIN_SIZE..=MAX_SIZE`.
///
/// # Errors
/// [`PositionError::BadSize`] otherwise.
pub fn check_size(size: usize) -> Result<usize, PositionError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(PositionError::BadSize(size))
    }
}

/// Parses a move list in Gomocup coordinates, `"7,7 8,8 7,8"` (x = column, y = row, 0-based; moves
/// separated by whitespace or `;`), for a `size` x `size` board. Moves alternate from Black; whether a
/// move comes after a win depends on the rule and is checked by [`super::Gomoku::from_moves`].
///
/// # Errors
/// [`PositionError::BadSize`] for a bad `size`; [`PositionError::Malformed`] (not two integers),
/// [`PositionError::OffBoard`] (two integers, one of them negative or at least `size`) or
/// [`PositionError::Occupied`] for the first bad move, naming it (1-based) and its text.
pub fn parse_moves(text: &str, size: usize) -> Result<Vec<Cell>, PositionError> {
    check_size(size)?;
    let mut moves = Vec::new();
    let mut taken = [0u32; MAX_SIZE];
    let tokens = text.split(|c: char| c.is_whitespace() || c == ';').filter(|t| !t.is_empty());
    for (i, token) in tokens.enumerate() {
        let index = i + 1;
        let bad = || PositionError::Malformed { index, token: token.to_string() };
        let (x, y) = token.split_once(',').ok_or_else(bad)?;
        let x: i64 = x.parse().map_err(|_| bad())?;
        let y: i64 = y.parse().map_err(|_| bad())?;
        let side = 0..size as i64;
        if !side.contains(&x) || !side.contains(&y) {
            return Err(PositionError::OffBoard { index, token: token.to_string(), size });
        }
        let (x, y) = (x as usize, y as usize);
        if taken[y] >> x & 1 != 0 {
            return Err(PositionError::Occupied { index, token: token.to_string() });
        }
        taken[y] |= 1 << x;
        moves.push(Cell::new(x, y));
    }
    Ok(moves)
}

/// Reads the stones of a diagram of `size` rows: either [`super::GomokuState`]'s `Display` (a header of
/// column numbers, rows starting with their number) or plain rows of `x`, `o` and `.` (any case, spaces
/// optional; `-`, `_`, `+` and `*`, the best move `canopy analyze` marks, also mean empty). Blank lines
/// and lines of numbers only are skipped, and a leading number on a row is its label. Returns the black
/// and the white stones, row-major.
///
/// # Errors
/// [`PositionError::BadCell`], [`PositionError::RowLength`] or [`PositionError::Rows`].
pub(crate) fn parse_diagram(text: &str, size: usize) -> Result<(Vec<Cell>, Vec<Cell>), PositionError> {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    let mut row = 0;
    for line in text.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let numeric = |t: &&str| t.chars().all(|c| c.is_ascii_digit());
        if tokens.is_empty() || tokens.iter().all(numeric) {
            continue;
        }
        let cells = if numeric(&tokens[0]) { &tokens[1..] } else { &tokens[..] };
        let mut x = 0;
        for ch in cells.iter().flat_map(|t| t.chars()) {
            let stone = match ch.to_ascii_lowercase() {
                'x' => Some(&mut black),
                'o' => Some(&mut white),
                '.' | '-' | '_' | '+' | '*' => None,
                _ => return Err(PositionError::BadCell { row, ch }),
            };
            if x < size && row < size {
                if let Some(list) = stone {
                    list.push(Cell::new(x, row));
                }
            }
            x += 1;
        }
        if x != size {
            return Err(PositionError::RowLength { row, cells: x, size });
        }
        row += 1;
    }
    if row != size {
        return Err(PositionError::Rows { rows: row, size });
    }
    Ok((black, white))
}
