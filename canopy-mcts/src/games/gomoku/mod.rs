//! Gomoku: two players place stones on a square board; the first to make five in a row wins.
//!
//! - Boards from 5x5 to 20x20 (15x15 by default); coordinates are Gomocup's `x,y` (x = column, y = row,
//!   0-based, see [`Cell`]).
//! - Rules: [`Rule::Freestyle`] (five or more in a row wins), [`Rule::Standard`] (exactly five wins,
//!   an overline does not) and [`Rule::Renju`] (Black wins with exactly five and loses by a forbidden
//!   move, [`Foul`]; White wins with five or more; module `renju`). A full board without a winner is a
//!   draw.
//! - Player 0 is Black and moves first, player 1 is White. Returns: 1 for a win, 0 for a loss, 0.5 each
//!   for a draw.
//! - Every empty cell is a legal move ([`crate::Game::legal_actions`], row-major), Black's forbidden
//!   cells under renju included: the renju rule says that a forbidden move *loses*, so playing one ends
//!   the game as a win for White (as a game manager's judge does), and the search's candidates leave
//!   them out ([`GomokuPolicy`]). [`Gomoku`] holds the rules only (board size and winning rule).
//! - The search knowledge is a [`GomokuPolicy`]: the *candidates* the tree expands (empty cells within
//!   Chebyshev distance 2 of a stone, or the centre on an empty board; with threat pruning, the answers
//!   to a threat when there is one, module `tactics`) and the rollout (a winning cell when there is one,
//!   else a block of the opponent's winning cell, else with [`RolloutPolicy::Threats`] a straight four or
//!   the opponent's straight-four cell, with [`RolloutPolicy::Attacks`] (the default) then a double
//!   threat or the opponent's, else a random cell within distance 1 of a stone; module `playout`).
//! - Players ([`Player`]: MCTS, [`flat`] Monte Carlo, [`threat`], [`random`]) choose moves and play
//!   whole games through [`crate::agent::play_game`]; [`vcf`] searches victories by continuous fours; [`protocol`] is the
//!   Gomocup brain. docs/gomoku.md describes how they fit together.
//!
//! ```
//! use canopy_mcts::games::gomoku::{Cell, Gomoku, Rule};
//! use canopy_mcts::Game;
//!
//! let game = Gomoku::new(15, Rule::Freestyle);
//! let state = game.from_moves("5,7 5,8 6,7 6,8 7,7 7,8 8,7 0,0").unwrap();
//! assert_eq!(game.winning_moves(&state, 0), vec![Cell::new(4, 7), Cell::new(9, 7)]);
//! let mut next = state.clone();
//! game.apply(&mut next, Cell::new(9, 7));
//! assert_eq!(next.winner(), Some(0));
//! ```

mod agents;
mod board;
mod parse;
mod pattern;
mod player;
mod playout;
mod policy;
pub mod protocol;
mod renju;
mod rules;
mod tactics;
mod vct;

pub use crate::agent::How;
pub use agents::{
    flat, forced_move, random, threat, threat_score, ADJACENT_OPPONENT, ADJACENT_OWN, BLOCK_FIVE, BLOCK_FOUR,
    BLOCK_OPEN_FOUR, BLOCK_OPEN_THREE, FIVE, FOUR, OPEN_FOUR, OPEN_THREE,
};
pub use board::{Cell, GomokuState, BLACK, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, WHITE};
pub use parse::{check_size, parse_moves, PositionError};
pub use player::{
    default_exploration, default_search_params, fallback_move, Move, Plan, Player, PlayerAgent, Tuning,
    DEFAULT_EXPLORATION, DEFAULT_FLAT_ROLLOUTS, DEFAULT_PUCT_EXPLORATION, DEFAULT_REFUTE, DEFAULT_SELECTION,
    DEFAULT_STATISTICS, REFUTATION, REFUTE_MOVES, REFUTE_SHARE, VCF_BUDGET, VCF_DEFENCE_BUDGET, VCT_BUDGET,
    VCT_DEFENCE_BUDGET,
};
pub use renju::Foul;
pub use rules::Rule;
pub use tactics::vcf;
pub use vct::vct;

use crate::game::{win_draw_loss_returns, Game, NoOutcome, Turn};
pub use playout::RolloutPolicy;
pub use policy::{GomokuPolicy, DEFAULT_PRIOR_TEMPERATURE, PRIOR_TEMPERATURES};
use rules::{holds_win, wins_at, Lines};

/// Mixed into the key of a position that Black lost by a forbidden move (arbitrary, fixed).
const FOUL_KEY: u64 = 0x5245_4E4A_555F_464F;

/// Default Chebyshev radius of [`GomokuPolicy`]'s candidate moves around the stones.
pub const DEFAULT_RADIUS: usize = 2;
/// Default Chebyshev radius of [`GomokuPolicy`]'s rollout moves around the stones.
pub const DEFAULT_ROLLOUT_RADIUS: usize = 1;

/// The game of Gomoku on a `size` x `size` board under a [`Rule`]: the rules only (the search knowledge
/// is a [`GomokuPolicy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gomoku {
    size: usize,
    rule: Rule,
}

impl Default for Gomoku {
    /// 15x15, freestyle.
    fn default() -> Self {
        Gomoku::new(DEFAULT_SIZE, Rule::Freestyle)
    }
}

impl Gomoku {
    /// Gomoku on a `size` x `size` board.
    ///
    /// # Panics
    /// Panics when `size` is outside `MIN_SIZE..=MAX_SIZE` (5..=20); see [`Gomoku::try_new`].
    pub fn new(size: usize, rule: Rule) -> Self {
        match Gomoku::try_new(size, rule) {
            Ok(game) => game,
            Err(e) => panic!("{e}"),
        }
    }

    /// Gomoku on a `size` x `size` board.
    ///
    /// # Errors
    /// [`PositionError::BadSize`] when `size` is outside `MIN_SIZE..=MAX_SIZE` (5..=20).
    pub fn try_new(size: usize, rule: Rule) -> Result<Self, PositionError> {
        check_size(size)?;
        Ok(Gomoku { size, rule })
    }

    /// Board side, in cells.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The winning rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The empty board, Black to move.
    pub fn new_game(&self) -> GomokuState {
        GomokuState::empty(self.size)
    }

    /// The position with the given stones. The side to move is Black when both have as many stones,
    /// White when Black has one more. A player already holding a winning line is the winner (the
    /// position is terminal); that player must have made the last move. Under [`Rule::Renju`] a Black
    /// overline without a Black five is Black's forbidden move: White has won, and Black moved last.
    ///
    /// # Errors
    /// [`PositionError::CellOffBoard`], [`PositionError::CellOccupied`] (a cell listed twice),
    /// [`PositionError::Counts`] for other stone counts, [`PositionError::BothWin`],
    /// [`PositionError::PlayedAfterWin`] for a winning line followed by a move of the other player,
    /// [`PositionError::PlayedAfterFoul`] for a renju overline of Black followed by a White move.
    pub fn from_stones(&self, black: &[Cell], white: &[Cell]) -> Result<GomokuState, PositionError> {
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return Err(PositionError::Counts { black: black.len(), white: white.len() });
        }
        let (mut state, wins) = self.place([(BLACK, black), (WHITE, white)])?;
        let black_moved_last = black.len() > white.len();
        if self.black_overline_lost(&state) {
            // Black's forbidden move ended the game: it came last, and no White five came before it.
            if !black_moved_last {
                return Err(PositionError::PlayedAfterFoul);
            }
            if wins.1 {
                return Err(PositionError::PlayedAfterWin { winner: WHITE });
            }
            state.set_winner(WHITE);
            return Ok(state);
        }
        match wins {
            (true, true) => return Err(PositionError::BothWin),
            (true, false) if !black_moved_last => return Err(PositionError::PlayedAfterWin { winner: BLACK }),
            (false, true) if black_moved_last => return Err(PositionError::PlayedAfterWin { winner: WHITE }),
            (true, false) => state.set_winner(BLACK),
            (false, true) => state.set_winner(WHITE),
            (false, false) => {}
        }
        Ok(state)
    }

    /// The position where the side to move holds the stones `to_move` and the other side `other`, for
    /// positions that do not say which colour is which (the Gomocup protocol's BOARD). The colours follow
    /// from the stone count: the side to move is Black when the board holds an even number of stones, else
    /// White. The rules do not depend on the colour, so any counts are accepted. Under [`Rule::Renju`]
    /// a Black overline without a Black five is White's win, as in [`Gomoku::from_stones`].
    ///
    /// # Errors
    /// [`PositionError::CellOffBoard`], [`PositionError::CellOccupied`] (a cell listed twice),
    /// [`PositionError::BothWin`].
    pub fn from_sides(&self, to_move: &[Cell], other: &[Cell]) -> Result<GomokuState, PositionError> {
        let mover = (to_move.len() + other.len()) % 2;
        let (mut state, wins) = self.place([(mover, to_move), (1 - mover, other)])?;
        match wins {
            (true, true) => return Err(PositionError::BothWin),
            (true, false) => state.set_winner(BLACK),
            (false, true) => state.set_winner(WHITE),
            (false, false) if self.black_overline_lost(&state) => state.set_winner(WHITE),
            (false, false) => {}
        }
        Ok(state)
    }

    /// Whether, under [`Rule::Renju`], the board holds a Black overline and no Black five: a forbidden
    /// move, which Black can only have made as the game's last, losing it. (A move that makes a five and
    /// an overline at once wins, so a Black five on the board counts first.) For positions given as
    /// stones, whose last move is not known ([`Gomoku::lost_by_foul`] names the move of a position
    /// reached by play).
    pub fn black_overline_lost(&self, state: &GomokuState) -> bool {
        self.rule.has_fouls() && rules::holds_overline(state, BLACK) && !holds_win(state, BLACK, self.rule)
    }

    /// The board with each side's stones placed (`(player, stones)`, in the order given) and no last
    /// move, and whether Black and White hold a winning line.
    ///
    /// # Errors
    /// [`PositionError::CellOffBoard`], [`PositionError::CellOccupied`] (a cell listed twice).
    fn place(&self, sides: [(usize, &[Cell]); 2]) -> Result<(GomokuState, (bool, bool)), PositionError> {
        let mut state = self.new_game();
        for (player, stones) in sides {
            for &cell in stones {
                if !cell.on_board(self.size) {
                    return Err(PositionError::CellOffBoard { cell, size: self.size });
                }
                if state.stone(cell).is_some() {
                    return Err(PositionError::CellOccupied(cell));
                }
                state.put(player, cell);
            }
        }
        state.last = None;
        // `put` toggled the side-to-move key once per stone, as play does, so the key is already right.
        let wins = (holds_win(&state, BLACK, self.rule), holds_win(&state, WHITE, self.rule));
        Ok((state, wins))
    }

    /// The position after the moves of `text` (Gomocup `x,y` tokens, see [`parse_moves`]) played from the
    /// empty board, Black first.
    ///
    /// # Errors
    /// As [`parse_moves`], and [`PositionError::AfterEnd`] for a move after a win.
    pub fn from_moves(&self, text: &str) -> Result<GomokuState, PositionError> {
        let moves = parse_moves(text, self.size)?;
        let mut state = self.new_game();
        for (i, &cell) in moves.iter().enumerate() {
            if state.winner().is_some() {
                let token = cell.to_string();
                return Err(PositionError::AfterEnd { index: i + 1, token });
            }
            self.apply(&mut state, cell);
        }
        Ok(state)
    }

    /// The position drawn in `text`: [`GomokuState`]'s `Display` output, or plain rows of `x`, `o`, `.`
    /// (see the diagram rules in `parse.rs`); stones as in [`Gomoku::from_stones`].
    ///
    /// # Errors
    /// [`PositionError::BadCell`], [`PositionError::RowLength`], [`PositionError::Rows`] when the diagram
    /// is not `size` rows of `size` cells, and the errors of [`Gomoku::from_stones`].
    pub fn parse_board(&self, text: &str) -> Result<GomokuState, PositionError> {
        let (black, white) = parse::parse_diagram(text, self.size)?;
        self.from_stones(&black, &white)
    }

    /// Plays `cell` for the side to move, checking it first: any empty cell of the board is legal.
    ///
    /// # Errors
    /// [`PositionError::GameOver`], [`PositionError::CellOffBoard`] or [`PositionError::CellOccupied`];
    /// the state is unchanged then.
    pub fn try_apply(&self, state: &mut GomokuState, cell: Cell) -> Result<(), PositionError> {
        if state.is_terminal() {
            return Err(PositionError::GameOver);
        }
        if !cell.on_board(self.size) {
            return Err(PositionError::CellOffBoard { cell, size: self.size });
        }
        if state.stone(cell).is_some() {
            return Err(PositionError::CellOccupied(cell));
        }
        self.apply(state, cell);
        Ok(())
    }

    /// The cells where a stone of `player` wins at once under the rule, row-major, whoever is to move.
    /// Empty for a terminal position.
    pub fn winning_moves(&self, state: &GomokuState, player: usize) -> Vec<Cell> {
        if state.is_terminal() {
            return Vec::new();
        }
        Lines::new(state).winning_cells(player, self.rule)
    }

    /// Whether a Black stone on `cell` would be a forbidden move, and which: `Some` only under
    /// [`Rule::Renju`], for an empty on-board cell where Black makes an overline, a double four or a
    /// double three and no exact five (module `renju` gives the definitions). Whoever is to move: the
    /// answer is about a Black stone there.
    pub fn foul(&self, state: &GomokuState, cell: Cell) -> Option<Foul> {
        if !self.rule.has_fouls() || !state.is_empty_cell(cell) {
            return None;
        }
        renju::foul_in(state, cell)
    }
}

impl Gomoku {
    /// The forbidden move that ended the game, and why, when Black lost by one under [`Rule::Renju`]:
    /// the last move of a position reached by play whose winner is White although Black moved last.
    pub fn lost_by_foul(&self, state: &GomokuState) -> Option<(Cell, Foul)> {
        let last = state.last_move()?;
        if !self.rule.has_fouls() || state.winner() != Some(WHITE) || state.mover() != WHITE {
            return None;
        }
        let mut lines = Lines::new(state);
        lines.remove(BLACK, last);
        renju::foul(&lines, last).map(|f| (last, f))
    }
}

impl Game for Gomoku {
    type State = GomokuState;
    type Action = Cell;
    type Outcome = NoOutcome;
    type Returns = [f64; 2];

    fn to_move(&self, state: &GomokuState) -> Turn {
        if state.is_terminal() {
            Turn::Terminal
        } else {
            Turn::Player(state.mover())
        }
    }

    /// Every empty cell, row-major (none in a terminal position), Black's forbidden cells under renju
    /// included (they are legal and lose, see [`Gomoku::apply`]). The search's candidates are
    /// [`GomokuPolicy`]'s.
    fn legal_actions(&self, state: &GomokuState, out: &mut Vec<Cell>) {
        out.clear();
        if state.is_terminal() {
            return;
        }
        let size = self.size;
        for y in 0..size {
            let occupied = state.rows[0][y] | state.rows[1][y];
            out.extend((0..size).filter(|&x| occupied >> x & 1 == 0).map(|x| Cell::new(x, y)));
        }
    }

    fn is_legal(&self, state: &GomokuState, cell: Cell, _scratch: &mut Vec<Cell>) -> bool {
        !state.is_terminal() && cell.on_board(self.size) && state.is_empty_cell(cell)
    }

    /// Places the stone and records a win made by it (checking only the four lines through `cell`).
    /// Under [`Rule::Renju`], a Black stone that makes no exact five and is forbidden ([`Gomoku::foul`])
    /// makes White the winner.
    fn apply(&self, state: &mut GomokuState, cell: Cell) -> f64 {
        let player = state.mover();
        let foul = self.rule.has_fouls() && player == BLACK && renju::foul_in(state, cell).is_some();
        state.put(player, cell);
        if wins_at(state, player, cell, self.rule) {
            state.set_winner(player);
        } else if foul {
            state.set_winner(WHITE);
        }
        0.0
    }

    /// Looking for a five through the new stone is most of what [`Gomoku::apply`] costs.
    const APPLY_TO_NON_TERMINAL_SKIPS_WORK: bool = true;

    /// Places the stone without looking for a five or a foul: the caller knows the game goes on, so
    /// [`Gomoku::apply`] would record no winner.
    fn apply_to_non_terminal(&self, state: &mut GomokuState, cell: Cell) -> f64 {
        let player = state.mover();
        debug_assert!(
            !(self.rule.has_fouls() && player == BLACK && renju::foul_in(state, cell).is_some()),
            "{cell} is a foul on a non-terminal path"
        );
        state.put(player, cell);
        debug_assert!(!wins_at(state, player, cell, self.rule), "{cell} makes a five on a non-terminal path");
        0.0
    }

    fn returns(&self, state: &GomokuState) -> [f64; 2] {
        win_draw_loss_returns(state.winner())
    }

    /// The position's key; under [`Rule::Renju`], a position that Black lost by a forbidden move gets
    /// another key than the same stones reached without one (a forbidden move depends on which stone
    /// came last, so the stones alone do not say whether the game is over).
    fn zobrist(&self, state: &GomokuState) -> Option<u64> {
        if self.rule.has_fouls() && state.winner() == Some(WHITE) && state.mover() == WHITE {
            return Some(state.key() ^ FOUL_KEY);
        }
        Some(state.key())
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

    fn action_name(&self, cell: &Cell) -> String {
        cell.to_string()
    }
}
