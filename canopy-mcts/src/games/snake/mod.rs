//! Snake: the classic single-player game on a W x H grid, with food spawning as a chance event.
//!
//! # Rules
//!
//! Cells are `(x, y)`, `x` the column and `y` the row, 0-based, row 0 at the top ([`Dir::Up`] is
//! `y - 1`). Each move the head goes one cell up, down, left or right. Moving off the board ([`End::Wall`])
//! or into the body ([`End::Body`]) ends the game, except that the head may enter the cell the tail
//! leaves in the same move. Reversing into the neck is never a legal action. Moving onto the food grows
//! the snake by one (the tail stays) and new food then spawns uniformly on a free cell (a chance turn;
//! never on the snake, new head included). Filling the whole board wins ([`End::Won`]; no food spawns).
//! `starvation_limit` moves in a row without food end the game ([`End::Starved`]). The cases in
//! `tests/data/snake.tsv` (copied from the project's shared cases) pin these rules down.
//!
//! # Values (in food units)
//!
//! A move that eats earns `1`; every move the snake survives (all moves but a fatal one) also earns the
//! survival bonus `ε = min(0.001, 0.5 / starvation_limit)` (see [`Snake::survival_bonus`]). Terminal
//! payoffs are 0. So the return of a whole game is `(final length − start length) + ε · moves survived`:
//! length first, survival time as a tie-break. The cap on ε keeps the bonus earned between two foods
//! below half a food on any board, so no amount of stalling is worth as much as one more food within a
//! hunger period.
//!
//! # Transpositions
//!
//! The snake can loop back to an earlier body, so [`Snake::zobrist`](crate::Game::zobrist) keys the
//! body, the food, the end cause and the hunger counter (moves since food). The hunger counter grows
//! every move without food and the length grows with each food, so keys never repeat within a game and
//! the search graph stays acyclic; two states with the same key have the same future (the step count,
//! left out, changes no rule or reward).
//!
//! # Legal actions
//!
//! Every non-reversing move, fatal ones included: [`Game::apply`] plays any of them by the rules (a fatal
//! one ends the game). The search's candidates are [`SnakePolicy`]'s: the moves that do not die at once
//! ("safe" moves, [`Snake::safe_moves`]; when none is safe, every non-reversing move), narrowed further by
//! [`SnakePolicy::tail_filter`] (a search setting, not a rule).
//!
//! # Search
//!
//! Food spawns are chance turns with one outcome per free cell. [`Game::chance_outcomes`] lists them all
//! (closed loop: the engine builds one edge per free cell) while there are at most
//! [`Snake::max_listed_outcomes`], and leaves the list empty beyond (open loop: the engine samples a
//! spawn with [`Game::sample_outcome`] on each traversal). [`mcts::MctsAgent`] is the agent that
//! plays well (its [`SnakePolicy`]: tail-safe moves, safe-greedy rollouts); docs/snake.md has the design
//! and the measurements.
//!
//! # Example
//!
//! ```
//! use canopy_mcts::games::snake::{Dir, End, Snake, SnakeState};
//! use canopy_mcts::{Game, Turn};
//!
//! let game = Snake::new(2, 2);
//! let mut s: SnakeState = "2x2 body=0,0 0,1 1,1 food=1,0".parse().unwrap();
//! assert_eq!(game.apply(&mut s, Dir::Right), 1.0 + game.survival_bonus());
//! assert_eq!(s.end(), Some(End::Won));
//! assert_eq!(game.to_move(&s), Turn::Terminal);
//! ```

pub mod agents;
mod cell;
pub mod cycle;
pub mod hamilton;
pub mod mcts;
pub mod parse;
mod paths;
mod policy;
pub mod state;

pub use crate::agent::How;
pub use agents::{greedy, hamilton, random_safe, safe_greedy, tailfollow, Baseline, BaselineAgent};
pub use cycle::ClosingCycle;
pub use hamilton::Hamilton;
pub use mcts::{Choice, MctsAgent, CYCLE};
pub use parse::ParseError;
pub use policy::{RolloutPolicy, SnakePolicy, TailFilter, CYCLE_BUDGET};
pub use state::{Cell, Dir, End, SnakeState, MAX_SIDE, MIN_SIDE};

use crate::game::{Game, Turn};
use crate::rng::Rng;

use paths::Paths;
use state::{Step, NO_FOOD};

/// The largest survival bonus per move, in food units (see the module docs).
pub const SURVIVAL_BONUS: f64 = 0.001;

/// A move that [`Snake::try_apply`] refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The move reverses into the neck.
    #[error("{0} reverses into the neck")]
    Reversal(Dir),
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(End),
    /// The food has not spawned yet (a chance turn).
    #[error("food spawn pending: a chance turn, not a move")]
    ChanceTurn,
}

/// The most moves a position may have played ([`Snake::check_position`]): the step counter (32 bits) then
/// has room for more than three billion further moves, where a game on the largest board with the default
/// starvation limit lasts at most `32 * 32 * 2 * 32 * 32` (about two million: a food at least every
/// starvation limit, and at most one food per cell).
pub const MAX_STEPS: u32 = 1_000_000_000;

/// The Snake game: board size and starvation limit (the rules), and how the food spawns are offered to
/// the search. States are [`SnakeState`], actions [`Dir`], chance outcomes the food [`Cell`]. The search
/// knowledge (candidate moves, rollouts) is a [`SnakePolicy`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snake {
    /// Columns, `2..=32`.
    pub width: usize,
    /// Rows, `2..=32`.
    pub height: usize,
    /// Moves in a row without food that end the game (at least 1; default `2 * width * height`).
    pub starvation_limit: u32,
    /// [`Game::chance_outcomes`] lists the free cells only when there are at most this many; beyond it
    /// the list is left empty and the engine samples food spawns (open loop). Default: no limit.
    pub max_listed_outcomes: usize,
}

impl Default for Snake {
    /// A 10x10 board.
    fn default() -> Self {
        Snake::new(10, 10)
    }
}

impl Snake {
    /// A `width` x `height` board with the default settings.
    ///
    /// # Panics
    /// When a side is outside `2..=32`.
    pub fn new(width: usize, height: usize) -> Self {
        assert!(
            (MIN_SIDE..=MAX_SIDE).contains(&width) && (MIN_SIDE..=MAX_SIDE).contains(&height),
            "snake board {width}x{height}: each side must be in {MIN_SIDE}..={MAX_SIDE}"
        );
        let area = (width * height) as u32;
        Snake { width, height, starvation_limit: 2 * area, max_listed_outcomes: usize::MAX }
    }

    /// The board size and settings for a parsed position (default settings).
    pub fn for_state(s: &SnakeState) -> Self {
        Snake::new(s.width(), s.height())
    }

    /// Checks that `s`, a position read from text or another format, can arise in this game: its hunger
    /// counter is below [`Snake::starvation_limit`] (a snake that hungry has starved, an end the position
    /// formats cannot express), and its step counter is at most [`MAX_STEPS`] (so that the game can go on
    /// without the counter running over).
    ///
    /// # Errors
    /// [`ParseError::Starved`] or [`ParseError::TooManySteps`].
    pub fn check_position(&self, s: &SnakeState) -> Result<(), ParseError> {
        if s.hunger() >= self.starvation_limit {
            return Err(ParseError::Starved { hunger: s.hunger(), limit: self.starvation_limit });
        }
        if s.steps() > MAX_STEPS {
            return Err(ParseError::TooManySteps { steps: s.steps(), max: MAX_STEPS });
        }
        Ok(())
    }

    /// The survival bonus per move survived, `min(0.001, 0.5 / starvation_limit)`, in food units.
    pub fn survival_bonus(&self) -> f64 {
        SURVIVAL_BONUS.min(0.5 / self.starvation_limit.max(1) as f64)
    }

    /// The start of a game: a snake of length 1 in the middle cell `(width / 2, height / 2)`, food not yet
    /// spawned (a chance turn).
    pub fn start(&self) -> SnakeState {
        let mid = Cell::new((self.width / 2) as u8, (self.height / 2) as u8);
        SnakeState::from_body(self.width, self.height, &[mid], None).expect("a one-cell body on a valid board")
    }

    /// [`Snake::start`] with the first food spawned.
    pub fn new_game(&self, rng: &mut Rng) -> SnakeState {
        let mut s = self.start();
        let food = s.sample_free(rng);
        s.place_food(food);
        s
    }

    /// The tail-safe moves of `s` (a position where the snake is to move), in the order up, down, left,
    /// right: the safe moves after which the head can still reach the tail through free cells, plus a move
    /// that wins by eating the last free cell. Writes them to the front of `out` and returns how many
    /// (0 when no safe move keeps the tail in reach).
    ///
    /// One flood fill answers for every move that does not eat. Such a move into `n` frees the tail cell
    /// `t` and moves the tail to the next body cell `t'`; the head can then reach the tail exactly when
    /// `n` is joined to `t` or `t'` by a path of cells free now (the path avoids `n` itself, and `t` is
    /// next to `t'`): a flood from both through the free cells. A move that eats leaves the tail on `t`,
    /// so it needs a free path from `n` to `t` (a second flood, only when the food is next to the head).
    /// The property can always be kept once it holds (step along the path to the tail, or into the tail
    /// cell), so a snake that only plays tail-safe moves never runs into itself; it can still starve.
    /// Snakes shorter than 3 cells count every safe move as tail-safe.
    pub fn tail_safe_moves(s: &SnakeState, out: &mut [Dir; 4]) -> usize {
        let (mut cells, mut moves, mut k) = ([0u16; 4], [Dir::Up; 4], 0);
        for d in Dir::ALL {
            if let (false, Ok(n)) = (s.is_reversal(d), s.target(d)) {
                cells[k] = n;
                moves[k] = d;
                k += 1;
            }
        }
        if s.len() < 3 {
            out[..k].copy_from_slice(&moves[..k]);
            return k;
        }
        let (tail, food) = (s.tail_index(), s.food_index());
        let next = state::step_index(tail, s.dir_at(tail));
        let moving = paths::flood(s, &[tail, next], &cells[..k]);
        let wins = s.len() + 1 == s.area();
        let mut n = 0;
        for i in 0..k {
            let keeps = if cells[i] == food {
                wins || paths::flood(s, &[tail], &cells[i..=i]).dist[0] != u16::MAX
            } else {
                moving.dist[i] != u16::MAX
            };
            if keeps {
                out[n] = moves[i];
                n += 1;
            }
        }
        n
    }

    /// The safe moves of `s` after which the head can reach the tail along a timed path (a body cell can be
    /// entered once the tail has left it, assuming no food is eaten on the way), or that win; written to
    /// the front of `out`, in the order up, down, left, right. Returns how many.
    pub fn timed_tail_moves(s: &SnakeState, out: &mut [Dir; 4]) -> usize {
        let mut paths = Paths::new();
        let mut n = 0;
        for d in Dir::ALL {
            if !s.is_safe(d) {
                continue;
            }
            let mut v = s.clone();
            v.step(d, u32::MAX);
            if v.end() == Some(End::Won) || paths.tail_distance(&v).dist.is_some() {
                out[n] = d;
                n += 1;
            }
        }
        n
    }

    /// Clears `out` and fills it with the safe moves of `s` (a position where the snake is to move: the
    /// non-reversing moves that do not die at once) in the order up, down, left, right; with every
    /// non-reversing move when none is safe (all of them lose), so the list is empty only when the snake
    /// is not to move.
    pub fn safe_moves(s: &SnakeState, out: &mut Vec<Dir>) {
        out.clear();
        if s.end().is_some() || s.food_index() == NO_FOOD {
            return;
        }
        out.extend(Dir::ALL.into_iter().filter(|&d| s.is_safe(d)));
        if out.is_empty() {
            out.extend(Dir::ALL.into_iter().filter(|&d| !s.is_reversal(d)));
        }
    }

    /// Plays `d` like [`Game::apply`], but refuses an illegal move instead of panicking.
    ///
    /// # Errors
    /// [`IllegalMove`] when the game is over, the food is pending, or `d` reverses into the neck.
    pub fn try_apply(&self, s: &mut SnakeState, d: Dir) -> Result<f64, IllegalMove> {
        if let Some(end) = s.end() {
            return Err(IllegalMove::GameOver(end));
        }
        if s.food_index() == NO_FOOD {
            return Err(IllegalMove::ChanceTurn);
        }
        if s.is_reversal(d) {
            return Err(IllegalMove::Reversal(d));
        }
        Ok(self.play_move(s, d))
    }

    /// One move by the rules and its reward (the caller has checked the move).
    #[inline]
    fn play_move(&self, s: &mut SnakeState, d: Dir) -> f64 {
        match s.step(d, self.starvation_limit) {
            Step::Died => 0.0,
            Step::Moved => self.survival_bonus(),
            Step::Ate => 1.0 + self.survival_bonus(),
        }
    }
}

impl Game for Snake {
    type State = SnakeState;
    type Action = Dir;
    type Outcome = Cell;
    type Returns = [f64; 1];

    fn to_move(&self, s: &SnakeState) -> Turn {
        debug_assert_eq!((s.width(), s.height()), (self.width, self.height), "state of another board");
        if s.end().is_some() {
            Turn::Terminal
        } else if s.food_index() == NO_FOOD {
            Turn::Chance
        } else {
            Turn::Player(0)
        }
    }

    /// Every non-reversing move in the order up, down, left, right, fatal ones included (the rules; the
    /// search's candidates are [`SnakePolicy`]'s safe moves).
    fn legal_actions(&self, s: &SnakeState, out: &mut Vec<Dir>) {
        out.clear();
        if self.to_move(s) != Turn::Player(0) {
            return;
        }
        out.extend(Dir::ALL.into_iter().filter(|&d| !s.is_reversal(d)));
    }

    /// Plays `d` and returns `1` for eating plus the survival bonus for surviving (0 for a fatal move).
    ///
    /// # Panics
    /// When `s` is not at a player turn or `d` reverses into the neck (see [`Snake::try_apply`]).
    fn apply(&self, s: &mut SnakeState, d: Dir) -> f64 {
        match self.try_apply(s, d) {
            Ok(r) => r,
            Err(e) => panic!("illegal snake move: {e}"),
        }
    }

    /// Every free cell with probability `1 / free cells`, or nothing when there are more than
    /// `max_listed_outcomes` (the engine then samples).
    fn chance_outcomes(&self, s: &SnakeState, out: &mut Vec<(Cell, f64)>) {
        out.clear();
        if self.to_move(s) != Turn::Chance || s.free_cells() > self.max_listed_outcomes {
            return;
        }
        let p = 1.0 / s.free_cells() as f64;
        s.for_each_free(|c| out.push((Cell::from_index(c), p)));
    }

    /// A free cell drawn uniformly (rejection sampling, then counting free cells row by row).
    ///
    /// # Panics
    /// When no cell is free (a finished game).
    fn sample_outcome(&self, s: &SnakeState, rng: &mut Rng) -> Cell {
        Cell::from_index(s.sample_free(rng))
    }

    /// Puts the food on `cell`.
    ///
    /// # Panics
    /// When `s` is not at a chance turn or `cell` is off the board or on the body.
    fn apply_outcome(&self, s: &mut SnakeState, cell: Cell) {
        assert!(self.to_move(s) == Turn::Chance, "food spawn outside a chance turn");
        assert!(
            (cell.x as usize) < s.width() && (cell.y as usize) < s.height() && !s.is_body(cell),
            "food {cell} off the board or on the body"
        );
        s.place_food(cell.index());
    }

    /// 0: the whole value of a game is in the move rewards.
    fn returns(&self, _s: &SnakeState) -> [f64; 1] {
        [0.0]
    }

    fn zobrist(&self, s: &SnakeState) -> Option<u64> {
        Some(s.zobrist())
    }

    fn action_name(&self, d: &Dir) -> String {
        d.name().to_string()
    }

    /// `food@x,y`: one token without spaces, so that a principal variation joined by spaces reads back
    /// token by token.
    fn outcome_name(&self, cell: &Cell) -> String {
        format!("food@{cell}")
    }
}
