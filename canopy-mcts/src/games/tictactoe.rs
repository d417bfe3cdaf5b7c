//! Tic-tac-toe: a tiny two-player game whose exact minimax values are known (the empty board is a draw).
//! The test suite uses it to check the search's two-player logic.
//!
//! Cells are numbered 0..9 row-major (row 0 first). Player 0 (X) moves first.

use crate::game::{win_draw_loss_returns, Game, NoOutcome, Turn};

/// The eight winning lines as cell bitmasks.
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// A tic-tac-toe position: one 9-bit mask of stones per player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToeState {
    /// `stones[p]` has bit `c` set when player `p` holds cell `c`.
    pub stones: [u16; 2],
}

impl TicTacToeState {
    /// The player to move (0 when both have placed the same number of stones).
    pub fn mover(&self) -> usize {
        (self.stones[0].count_ones() > self.stones[1].count_ones()) as usize
    }

    /// The winner, if a player holds a full line.
    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| LINES.iter().any(|&l| self.stones[p] & l == l))
    }

    fn full(&self) -> bool {
        (self.stones[0] | self.stones[1]) == 0o777
    }

    /// Parses nine characters (`x`, `o`, `.`, `-` or `_`; whitespace and `/` ignored), row-major.
    ///
    /// # Errors
    /// Returns a message naming the problem when the text is not nine cells or the position cannot arise
    /// in play: X moves first, so X has as many stones as O or one more; play stops at the first line, so
    /// at most one player has one, and that player made the last move (X with one stone more, O with as
    /// many).
    pub fn parse(text: &str) -> Result<Self, String> {
        let cells: Vec<char> = text.chars().filter(|c| !c.is_whitespace() && *c != '/').collect();
        if cells.len() != 9 {
            return Err(format!("expected 9 cells, got {}", cells.len()));
        }
        let mut s = Self::default();
        for (i, c) in cells.iter().enumerate() {
            match c.to_ascii_lowercase() {
                'x' => s.stones[0] |= 1 << i,
                'o' => s.stones[1] |= 1 << i,
                '.' | '-' | '_' => {}
                other => return Err(format!("bad cell '{other}' (use x, o or .)")),
            }
        }
        let (x, o) = (s.stones[0].count_ones(), s.stones[1].count_ones());
        if x != o && x != o + 1 {
            return Err(format!("impossible stone counts: {x} x and {o} o (x moves first)"));
        }
        let lines = |p: usize| LINES.iter().any(|&l| s.stones[p] & l == l);
        match (lines(0), lines(1)) {
            (true, true) => Err("impossible position: both x and o have three in a row".to_string()),
            (true, false) if x == o => {
                Err(format!("impossible position: x has three in a row, but o moved after it ({x} x and {o} o)"))
            }
            (false, true) if x == o + 1 => {
                Err(format!("impossible position: o has three in a row, but x moved after it ({x} x and {o} o)"))
            }
            _ => Ok(s),
        }
    }
}

/// The game of tic-tac-toe (3x3, three in a row wins).
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

impl Game for TicTacToe {
    type State = TicTacToeState;
    type Action = u8;
    type Outcome = NoOutcome;
    type Returns = [f64; 2];

    fn to_move(&self, s: &TicTacToeState) -> Turn {
        if s.winner().is_some() || s.full() {
            Turn::Terminal
        } else {
            Turn::Player(s.mover())
        }
    }

    fn legal_actions(&self, s: &TicTacToeState, out: &mut Vec<u8>) {
        out.clear();
        if self.to_move(s) == Turn::Terminal {
            return;
        }
        let occupied = s.stones[0] | s.stones[1];
        out.extend((0..9u8).filter(|&c| occupied & (1 << c) == 0));
    }

    fn apply(&self, s: &mut TicTacToeState, cell: u8) -> f64 {
        let p = s.mover();
        debug_assert!((s.stones[0] | s.stones[1]) & (1 << cell) == 0, "cell {cell} occupied");
        s.stones[p] |= 1 << cell;
        0.0
    }

    fn returns(&self, s: &TicTacToeState) -> [f64; 2] {
        win_draw_loss_returns(s.winner())
    }

    fn zobrist(&self, s: &TicTacToeState) -> Option<u64> {
        // The two 9-bit masks identify the position exactly; mix them so keys spread over the table.
        let raw = (s.stones[0] as u64) | (s.stones[1] as u64) << 9;
        Some(crate::games::mix64(raw + 1))
    }

    fn value_bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn has_rewards(&self) -> bool {
        false
    }

    /// Win 1, draw 0.5, loss 0, no rewards: MCTS-Solver applies.
    fn win_draw_loss(&self) -> bool {
        true
    }

    fn action_name(&self, cell: &u8) -> String {
        format!("{}", cell)
    }
}

/// Exact minimax value of `s` for the player to move (1 win, 0.5 draw, 0 loss), by full search.
pub fn minimax(s: &TicTacToeState) -> f64 {
    let g = TicTacToe;
    match g.to_move(s) {
        Turn::Terminal => g.returns(s)[s.mover()],
        _ => {
            let mut moves = Vec::new();
            g.legal_actions(s, &mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut t = *s;
                    g.apply(&mut t, m);
                    1.0 - minimax(&t)
                })
                .fold(0.0, f64::max)
        }
    }
}
