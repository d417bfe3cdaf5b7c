//! 2048 (Gabriele Cirulli, 2014; rules as in gabrielecirulli/2048, `js/game_manager.js`).
//!
//! One player slides all tiles of a 4x4 board up, down, left or right. Two equal tiles that meet merge
//! into their sum, which is added to the score; a tile made by a merge does not merge again in the same
//! move; a move that changes nothing is illegal. After every move a tile spawns on a uniformly chosen
//! empty cell of the board after the move: a 2 with probability 0.9, a 4 with probability 0.1. The game
//! starts with two spawns on an empty board and ends when no move is legal.
//!
//! For the search a move is a decision node and the spawn a chance node: [`G2048State`] is either a
//! position with the player to move, or an afterstate (the board after the move) with a spawn pending.
//! The reward of a move is its merge score; the terminal payoff is 0.
//!
//! ```
//! use canopy_mcts::games::g2048::{Board, Dir};
//!
//! let board: Board = "2,2,4,0, 0,0,0,0, 0,0,0,0, 0,0,0,0".parse().unwrap();
//! let (after, score) = board.shift(Dir::Right).unwrap();
//! assert_eq!(after.tiles()[..4], [0, 0, 4, 4]);
//! assert_eq!(score, 4);
//! assert_eq!(board.shift(Dir::Up), None);
//! ```

pub mod agents;
mod board;
mod dir;
pub mod eval;
pub mod expectimax;
pub mod ntuple;
mod tables;
pub mod zobrist;

use std::fmt;

pub use board::{Board, BoardError, Dir, DirSet, ParseDirError, MAX_EXPONENT, MAX_TILE};
use eval::{Evaluate, Evaluation};

use crate::game::{Game, Turn};
use crate::policy::Policy;
use crate::rng::{self, Rng};

/// Probability that a spawned tile is a 4 rather than a 2 (`Math.random() < 0.9 ? 2 : 4` in
/// `GameManager.prototype.addRandomTile`, gabrielecirulli/2048).
pub const P_FOUR: f64 = 0.1;

/// A chance outcome: the tile `2^exponent` spawns in `cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spawn {
    /// Cell index, row-major (0..16).
    pub cell: u8,
    /// 1 for a 2, 2 for a 4.
    pub exponent: u8,
}

impl Spawn {
    /// The tile value (2 or 4).
    pub fn tile(&self) -> u32 {
        1 << self.exponent
    }
}

impl fmt::Display for Spawn {
    /// `2@c5`: a 2 in cell 5.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@c{}", self.tile(), self.cell)
    }
}

/// A 2048 state: a board and whether a spawn is pending.
///
/// With `spawn_pending == false` the player moves (or the game is over when no move is legal); with
/// `spawn_pending == true`, `board` is the afterstate of a move and nature spawns a tile next. After a
/// legal move the board always has an empty cell (a slide leaves the cell it came from, a merge frees
/// one), so a pending spawn always has somewhere to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct G2048State {
    /// The tiles.
    pub board: Board,
    /// Whether a tile spawns before the next move.
    pub spawn_pending: bool,
}

impl G2048State {
    /// The start of a game as in the original: an empty board and two random spawns.
    pub fn new_game(rng: &mut Rng) -> G2048State {
        let mut board = Board::EMPTY;
        for _ in 0..2 {
            let spawn = board.random_spawn(rng).expect("the board has room for two tiles");
            board = board.with_spawn(spawn);
        }
        G2048State::from_board(board)
    }

    /// The position `board` with the player to move.
    pub fn from_board(board: Board) -> G2048State {
        G2048State { board, spawn_pending: false }
    }

    /// The Zobrist key (see [`zobrist::state_key`]).
    pub fn zobrist_key(&self) -> u64 {
        zobrist::state_key(self)
    }
}

/// How a rollout chooses its moves and when it stops.
///
/// Moves: with probability `epsilon` a uniformly random legal move, otherwise the greedy move, the one
/// whose merge score plus the evaluation ([`G2048Policy::evaluation`]) of its afterstate is largest (`epsilon = 1`: uniform
/// random play). Length: to the end of the game (`depth: None`), or truncated: the rollout stops at
/// the `(depth + 1)`-th afterstate it reaches, counting the start when a spawn is pending there, and
/// adds the evaluation of that afterstate to the merge score gathered on the way. So a truncated rollout
/// from an afterstate with `depth = 0` is its evaluation, and from a position with the player to move it
/// plays one move first; every leaf of a search is scored at an afterstate either way.
///
/// Units. A rollout to the end returns the merge score until the game ends (score units, what the
/// game's rewards add up to). A truncated rollout returns `merge score + evaluation`: the hand-written
/// evaluation is in heuristic points (about 1.6 million for a live board, see [`eval`]), which dwarf the
/// merge scores; a trained n-tuple network ([`ntuple`]) is in score units, the merge score expected
/// from the afterstate. A game that ends inside the rollout (or a terminal node of the tree) is worth 0. Every leaf
/// of one search uses the same scale, and the engine normalises each node's child means by their min
/// and max, so the search compares moves consistently; its means are then "points", not expected score.
///
/// Leaf lookahead. With `leaf_depth = L > 0` a truncated rollout scores the afterstate where it stops
/// with an expectimax search of `L` more moves ([`expectimax::afterstate_value`], probability cut-off
/// 1e-4, no cache) instead of the bare evaluation, and picks its last move by that value: the same
/// points, seen further. `L = 1` costs about 120 evaluations per rollout.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RolloutPolicy {
    /// Probability of a uniformly random move instead of the greedy one, in `[0, 1]`.
    pub epsilon: f64,
    /// `None`: play to the end. `Some(d)`: stop at the `(d + 1)`-th afterstate and add its evaluation.
    pub depth: Option<u32>,
    /// Moves of expectimax lookahead that score the afterstate where a truncated rollout stops (0: the
    /// evaluation alone). Ignored by rollouts to the end.
    pub leaf_depth: u32,
}

impl RolloutPolicy {
    /// Uniform-random moves to the end of the game (the classic rollout).
    pub const RANDOM: RolloutPolicy = RolloutPolicy { epsilon: 1.0, depth: None, leaf_depth: 0 };

    /// The policy `canopy` uses for MCTS by default on 2048 (chosen by the experiments in
    /// docs/2048.md): greedy moves (`epsilon = 0`), truncated after one move (`depth = 1`: a spawn,
    /// then the move) whose afterstate is scored by a one-move expectimax (`leaf_depth = 1`).
    pub const TUNED: RolloutPolicy = RolloutPolicy { epsilon: 0.0, depth: Some(1), leaf_depth: 1 };
}

impl Default for RolloutPolicy {
    /// [`RolloutPolicy::RANDOM`].
    fn default() -> Self {
        RolloutPolicy::RANDOM
    }
}

/// The game of 2048 with the original rules and a Zobrist key per state. The search knowledge (rollouts
/// and their evaluation) is a [`G2048Policy`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct G2048;

/// The search policy for 2048: every legal move is a candidate, and rollouts play with a
/// [`RolloutPolicy`] (uniform random to the end by default) scored with an evaluation function; with a
/// prior temperature, PUCT priors from the same evaluation ([`G2048Policy::prior_temperature`]).
#[derive(Clone, Copy, Debug)]
pub struct G2048Policy {
    /// How rollouts play.
    pub rollout: RolloutPolicy,
    /// The evaluation used by greedy and truncated rollouts (and by the agents that evaluate boards).
    pub evaluation: Evaluation,
    /// Temperature `T` of the PUCT priors (relative to the best move's value), 0 = no priors (PUCT then
    /// weighs the moves alike; UCT never reads priors). A move with the value `v = merge score +
    /// evaluation of its afterstate` gets the weight `exp((v - v_max) / (T · max(|v_max|, 1)))`: with
    /// `T = 0.01` a move worth 1% less than the best has `1/e` of its weight. A softmax over the
    /// evaluation's afterstate values, as Monte-Carlo softmax search uses its network's (Watanabe and
    /// Matsuzaki, TAAI 2022); the relative scale makes one `T` fit evaluations in any units.
    pub prior_temperature: f64,
}

impl Default for G2048Policy {
    /// Uniform-random rollouts to the end, the [`eval::STANDARD`] evaluation, no priors.
    fn default() -> Self {
        G2048Policy { rollout: RolloutPolicy::RANDOM, evaluation: Evaluation::standard(), prior_temperature: 0.0 }
    }
}

impl G2048Policy {
    /// The policy with `rollout` and the standard evaluation.
    pub fn with_rollout(rollout: RolloutPolicy) -> G2048Policy {
        G2048Policy { rollout, ..G2048Policy::default() }
    }

    /// A rollout with the configured policy from `s` (see [`RolloutPolicy`]); the value it returns.
    /// No allocation: the row tables move the board, the evaluation table scores it.
    pub fn rollout_value(&self, s: &G2048State, rng: &mut Rng) -> f64 {
        let policy = self.rollout;
        if policy.epsilon >= 1.0 && policy.depth.is_none() {
            return random_rollout(s, rng);
        }
        // One dispatch per rollout: the loop below is compiled for each evaluation.
        match self.evaluation {
            Evaluation::Heuristic(h) => rollout_with(policy, h, s, rng),
            Evaluation::NTuple(n) => rollout_with(policy, n, s, rng),
        }
    }
}

/// [`G2048Policy::rollout_value`] with the evaluation `h`, for a policy that is not uniform random to the
/// end.
#[inline(always)]
fn rollout_with<E: Evaluate>(policy: RolloutPolicy, h: &E, s: &G2048State, rng: &mut Rng) -> f64 {
    let table = tables::row_table();
    // The score of the afterstate where a truncated rollout stops.
    let leaf = |b: &Board| -> f64 {
        f64::from(match policy.leaf_depth {
            0 => h.evaluate(b),
            l => expectimax::afterstate_value(h, b, l, expectimax::DEFAULT_PROB_CUTOFF),
        })
    };
    let mut local = *rng;
    let mut board = s.board;
    // Afterstates still to pass before the one that is scored (u32::MAX: never).
    let mut left = policy.depth.unwrap_or(u32::MAX);
    let mut score = 0u64;
    if s.spawn_pending {
        if left == 0 {
            return leaf(&board);
        }
        left -= 1;
        if let Some(spawn) = board.random_spawn(&mut local) {
            board = board.with_spawn(spawn);
        }
    }
    let value = loop {
        let legal = board.legal_dirs();
        if legal.is_empty() {
            break score as f64;
        }
        let random = policy.epsilon > 0.0 && (policy.epsilon >= 1.0 || rng::unit(&mut local) < policy.epsilon);
        if left == 0 {
            // The last move: chosen (unless at random) and scored by the leaf value.
            if random {
                let (after, gain) = board.afterstate_with(table, legal.nth(rng::below(&mut local, legal.len())));
                break (score + u64::from(gain)) as f64 + leaf(&after);
            }
            if policy.leaf_depth == 0 {
                break score as f64 + f64::from(greedy_afterstate(h, table, board, legal).2);
            }
            let mut best = f64::NEG_INFINITY;
            for dir in legal.iter() {
                let (after, gain) = board.afterstate_with(table, dir);
                best = best.max(f64::from(gain) + leaf(&after));
            }
            break score as f64 + best;
        }
        let (after, gain) = if random {
            board.afterstate_with(table, legal.nth(rng::below(&mut local, legal.len())))
        } else {
            greedy_afterstate(h, table, board, legal).1
        };
        score += u64::from(gain);
        left = left.saturating_sub(1);
        board = match after.random_spawn(&mut local) {
            Some(spawn) => after.with_spawn(spawn),
            None => after,
        };
    };
    *rng = local;
    value
}

impl Policy<G2048> for G2048Policy {
    /// Softmax priors over the moves' afterstate values (see [`G2048Policy::prior_temperature`]);
    /// `false` (no priors) when the temperature is 0.
    fn priors(&self, _game: &G2048, s: &G2048State, actions: &[Dir], out: &mut Vec<f32>) -> bool {
        if self.prior_temperature <= 0.0 {
            return false;
        }
        out.clear();
        out.extend(actions.iter().map(|&dir| {
            let (after, gain) = s.board.afterstate(dir);
            gain as f32 + self.evaluation.evaluate(&after)
        }));
        let top = out.iter().fold(f32::NEG_INFINITY, |a, &v| a.max(v));
        let scale = (self.prior_temperature * f64::from(top.abs().max(1.0))) as f32;
        out.iter_mut().for_each(|v| *v = ((*v - top) / scale).exp());
        true
    }

    /// A rollout with the configured [`RolloutPolicy`] ([`G2048Policy::rollout_value`]): `[value]`.
    /// With the default policy, a uniform-random playout that consumes the generator exactly as
    /// [`crate::policy::uniform_rollout`] does and returns the merge score until no move is legal.
    fn rollout(&self, _game: &G2048, s: &G2048State, rng: &mut Rng, _scratch: &mut Vec<Dir>) -> [f64; 1] {
        [self.rollout_value(s, rng)]
    }
}

/// The greedy move among `legal` (non-empty): the largest merge score plus evaluation of the afterstate
/// (ties: the first in [`Dir::ALL`] order). Returns the move, its afterstate and merge score, and the
/// value.
#[inline(always)]
pub(crate) fn greedy_afterstate<E: Evaluate + ?Sized>(
    h: &E,
    table: &tables::RowTable,
    board: Board,
    legal: DirSet,
) -> (Dir, (Board, u32), f32) {
    let mut best = (Dir::Up, (board, 0), f32::NEG_INFINITY);
    for dir in Dir::ALL {
        if !legal.contains(dir) {
            continue;
        }
        let (after, gain) = board.afterstate_with(table, dir);
        let v = gain as f32 + h.evaluate(&after);
        if v > best.2 {
            best = (dir, (after, gain), v);
        }
    }
    best
}

/// A uniform-random playout on the board itself: legal moves from bit tricks, the move from the row
/// table, spawns with 0.9 / 0.1 on a uniformly chosen empty cell; no allocation. Returns the sum of the
/// merge scores until no move is legal. A pending spawn is placed first.
fn random_rollout(s: &G2048State, rng: &mut Rng) -> f64 {
    let table = tables::row_table();
    // A local copy keeps the generator's state in a register; it is written back at the end, so
    // the caller's generator advances exactly as with `crate::policy::uniform_rollout`.
    let mut local = *rng;
    let mut board = s.board;
    if s.spawn_pending {
        if let Some(spawn) = board.random_spawn(&mut local) {
            board = board.with_spawn(spawn);
        }
    }
    let mut score = 0u64;
    loop {
        let legal = board.legal_dirs();
        if legal.is_empty() {
            break;
        }
        let dir = legal.nth(crate::rng::below(&mut local, legal.len()));
        let (after, gain) = board.afterstate_with(table, dir);
        score += u64::from(gain);
        // A legal move always leaves an empty cell.
        board = match after.random_spawn(&mut local) {
            Some(spawn) => after.with_spawn(spawn),
            None => after,
        };
    }
    *rng = local;
    score as f64
}

impl Game for G2048 {
    type State = G2048State;
    type Action = Dir;
    type Outcome = Spawn;
    type Returns = [f64; 1];

    /// [`Turn::Chance`] when a spawn is pending (and the board has an empty cell), else
    /// [`Turn::Player`]`(0)` when a move is legal, else [`Turn::Terminal`].
    fn to_move(&self, s: &G2048State) -> Turn {
        if s.spawn_pending && s.board.empty_count() > 0 {
            Turn::Chance
        } else if s.board.legal_dirs().is_empty() {
            Turn::Terminal
        } else {
            Turn::Player(0)
        }
    }

    /// The legal moves in [`Dir::ALL`] order (none while a spawn is pending).
    fn legal_actions(&self, s: &G2048State, out: &mut Vec<Dir>) {
        out.clear();
        if self.to_move(s) == Turn::Player(0) {
            out.extend(s.board.legal_dirs().iter());
        }
    }

    /// Moves and returns the merge score; a spawn is then pending.
    ///
    /// # Panics
    /// Debug builds panic when a spawn is pending or the move is illegal.
    fn apply(&self, s: &mut G2048State, dir: Dir) -> f64 {
        debug_assert!(!s.spawn_pending, "move {dir} while a spawn is pending");
        let (after, score) = s.board.afterstate(dir);
        debug_assert!(after != s.board, "illegal move {dir} on {:?}", s.board);
        s.board = after;
        s.spawn_pending = true;
        f64::from(score)
    }

    /// Every empty cell with a 2 (probability `0.9 / n`) and a 4 (`0.1 / n`), `n` empty cells, in cell
    /// order; at most 30 outcomes.
    fn chance_outcomes(&self, s: &G2048State, out: &mut Vec<(Spawn, f64)>) {
        out.clear();
        if self.to_move(s) != Turn::Chance {
            return;
        }
        let empty = s.board.empty_mask();
        let n = f64::from(empty.count_ones());
        for cell in (0..16u8).filter(|&c| empty & (1 << c) != 0) {
            out.push((Spawn { cell, exponent: 1 }, (1.0 - P_FOUR) / n));
            out.push((Spawn { cell, exponent: 2 }, P_FOUR / n));
        }
    }

    /// # Panics
    /// When the board has no empty cell (not a chance state).
    fn sample_outcome(&self, s: &G2048State, rng: &mut Rng) -> Spawn {
        s.board.random_spawn(rng).expect("spawn on a full board")
    }

    /// # Panics
    /// Debug builds panic when the cell is not empty.
    fn apply_outcome(&self, s: &mut G2048State, spawn: Spawn) {
        s.board = s.board.with_spawn(spawn);
        s.spawn_pending = false;
    }

    /// `[0.0]`: the score is made of the move rewards.
    fn returns(&self, _s: &G2048State) -> [f64; 1] {
        [0.0]
    }

    fn zobrist(&self, s: &G2048State) -> Option<u64> {
        Some(s.zobrist_key())
    }

    fn action_name(&self, dir: &Dir) -> String {
        dir.name().to_string()
    }

    fn outcome_name(&self, spawn: &Spawn) -> String {
        spawn.to_string()
    }
}
