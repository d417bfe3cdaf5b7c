//! Baseline players that choose a move for the side to move: [`random`], the one-ply [`threat`]
//! scorer and [`flat`] Monte Carlo, and the [`forced_move`] check that every searching player makes
//! before it searches.
//!
//! # Threat scores
//!
//! [`threat_score`] rates a candidate cell by what a stone there makes on each of its four lines, for
//! the player to move ("own") and, as a block, for the opponent (what the opponent would make there):
//!
//! | pattern on one line (after the stone)                          | own            | opponent's (block)       |
//! |----------------------------------------------------------------|----------------|--------------------------|
//! | five (a win under the rule)                                    | [`FIVE`]       | [`BLOCK_FIVE`]           |
//! | open four: two cells of the line would then complete a five    | [`OPEN_FOUR`]  | [`BLOCK_OPEN_FOUR`]      |
//! | four: one cell would complete a five                           | [`FOUR`]       | [`BLOCK_FOUR`]           |
//! | open three: one more stone on the line can make an open four   | [`OPEN_THREE`] | [`BLOCK_OPEN_THREE`]     |
//!
//! plus [`ADJACENT_OWN`] per own stone and [`ADJACENT_OPPONENT`] per opposing stone among the eight
//! neighbours. Each line counts its best pattern once per side. The scores are powers of ten chosen so
//! that a cell's total keeps this order of priorities: win > block a five > make an open four > make a
//! four > block an open four > make an open three > block an open three > block a four > adjacency
//! (four lines can at most quadruple a tier, which stays below the next one). Ties are broken uniformly
//! at random.

use super::board::{Cell, GomokuState, BLACK};
use super::renju;
use super::rules::{five_cells, line_of, Lines, Rule};
use super::{Gomoku, GomokuPolicy};
use crate::game::Game;
use crate::policy::Policy;
use crate::rng::{below, Rng};

/// Own stone completes a win.
pub const FIVE: u64 = 1_000_000_000;
/// The opponent would complete a win on this cell.
pub const BLOCK_FIVE: u64 = 100_000_000;
/// Own stone makes an open four (two winning cells on the line).
pub const OPEN_FOUR: u64 = 10_000_000;
/// Own stone makes a four (one winning cell on the line).
pub const FOUR: u64 = 1_000_000;
/// The opponent would make an open four on this cell.
pub const BLOCK_OPEN_FOUR: u64 = 100_000;
/// Own stone makes an open three (one more stone can make an open four).
pub const OPEN_THREE: u64 = 10_000;
/// The opponent would make an open three on this cell.
pub const BLOCK_OPEN_THREE: u64 = 1_000;
/// The opponent would make a four on this cell.
pub const BLOCK_FOUR: u64 = 100;
/// Per own stone among the eight neighbours.
pub const ADJACENT_OWN: u64 = 2;
/// Per opposing stone among the eight neighbours.
pub const ADJACENT_OPPONENT: u64 = 1;

/// The best pattern a stone on bit `i` makes on a line with the player's stones `m` and empty cells `e`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pattern {
    None,
    OpenThree,
    Four,
    OpenFour,
    Five,
}

/// `rule` is the player's own ([`super::Rule::for_player`]).
fn pattern(m: u32, e: u32, i: u32, rule: Rule) -> Pattern {
    let bit = 1u32 << i;
    let before = five_cells(m, e, rule);
    if before & bit != 0 {
        return Pattern::Five;
    }
    let (m2, e2) = (m | bit, e & !bit);
    let fours = (five_cells(m2, e2, rule) & !before).count_ones();
    if fours >= 2 {
        return Pattern::OpenFour;
    }
    if fours == 1 {
        return Pattern::Four;
    }
    // An open three: some empty cell within four of `i` would then make an open four.
    let window = if i >= 4 { 0x1FF << (i - 4) } else { 0x1FF >> (4 - i) };
    let mut spots = e2 & window;
    while spots != 0 {
        let w = spots & spots.wrapping_neg();
        spots &= spots - 1;
        if (five_cells(m2 | w, e2 & !w, rule) & !before).count_ones() >= 2 {
            return Pattern::OpenThree;
        }
    }
    Pattern::None
}

/// The threat score of a stone of the side to move on the empty `cell` (see the module documentation).
fn score_with(game: &Gomoku, state: &GomokuState, lines: &Lines, cell: Cell) -> u64 {
    let me = state.mover();
    let mut score = 0;
    for d in 0..4 {
        let (l, i) = line_of(cell, d);
        let e = lines.empty[d][l];
        score += match pattern(lines.stones[me][d][l], e, i, game.rule().for_player(me)) {
            Pattern::Five => FIVE,
            Pattern::OpenFour => OPEN_FOUR,
            Pattern::Four => FOUR,
            Pattern::OpenThree => OPEN_THREE,
            Pattern::None => 0,
        };
        score += match pattern(lines.stones[1 - me][d][l], e, i, game.rule().for_player(1 - me)) {
            Pattern::Five => BLOCK_FIVE,
            Pattern::OpenFour => BLOCK_OPEN_FOUR,
            Pattern::Four => BLOCK_FOUR,
            Pattern::OpenThree => BLOCK_OPEN_THREE,
            Pattern::None => 0,
        };
    }
    let size = state.size() as i32;
    for dy in -1..=1 {
        for dx in -1..=1 {
            let (x, y) = (cell.x as i32 + dx, cell.y as i32 + dy);
            if (dx, dy) == (0, 0) || x < 0 || y < 0 || x >= size || y >= size {
                continue;
            }
            score += match state.stone(Cell::new(x as usize, y as usize)) {
                Some(p) if p == me => ADJACENT_OWN,
                Some(_) => ADJACENT_OPPONENT,
                None => 0,
            };
        }
    }
    score
}

/// The threat score of a stone of the side to move on `cell` (see the module documentation), or `None`
/// when `cell` is off the board or occupied.
pub fn threat_score(game: &Gomoku, state: &GomokuState, cell: Cell) -> Option<u64> {
    state.is_empty_cell(cell).then(|| score_with(game, state, &Lines::new(state), cell))
}

/// The one-ply threat player: the candidate cell (of the default [`GomokuPolicy`]: empty cells within
/// distance 2 of a stone, the centre on an empty board) with the highest [`threat_score`], ties broken
/// uniformly with `rng`. `None` in a terminal position.
pub fn threat(game: &Gomoku, state: &GomokuState, rng: &mut Rng) -> Option<Cell> {
    let mut candidates = Vec::new();
    GomokuPolicy::default().candidates(game, state, &mut candidates);
    let lines = Lines::new(state);
    let mut best = Vec::new();
    let mut best_score = 0;
    for &cell in &candidates {
        let score = score_with(game, state, &lines, cell);
        if best.is_empty() || score > best_score {
            best.clear();
            best_score = score;
        }
        if score == best_score {
            best.push(cell);
        }
    }
    (!best.is_empty()).then(|| best[below(rng, best.len())])
}

/// The uniform random player: a uniform draw among the candidate cells of the default
/// [`GomokuPolicy`]. `None` in a terminal position.
pub fn random(game: &Gomoku, state: &GomokuState, rng: &mut Rng) -> Option<Cell> {
    let mut candidates = Vec::new();
    GomokuPolicy::default().candidates(game, state, &mut candidates);
    (!candidates.is_empty()).then(|| candidates[below(rng, candidates.len())])
}

/// The move the side to move must play, when one is forced by a five: a cell that wins at once, else a
/// cell that blocks the opponent's winning cell (when the opponent has several, the first in row-major
/// order: the game is lost anyway). `None` when nothing is forced or the position is terminal.
///
/// Both answers are right against every defence: a win ends the game, and any other move than the
/// block lets the opponent win next move. Searching players answer these positions without a search.
/// Under renju, a block on a cell forbidden for Black is not forced (`None`: Black has lost, and the
/// search chooses a move that does not lose at once).
pub fn forced_move(game: &Gomoku, state: &GomokuState) -> Option<Cell> {
    if state.is_terminal() {
        return None;
    }
    let lines = Lines::new(state);
    let me = state.mover();
    let rule = game.rule();
    if let Some(&win) = lines.winning_cells(me, rule).first() {
        return Some(win);
    }
    let block = lines.winning_cells(1 - me, rule).first().copied()?;
    let fouls = rule.has_fouls() && me == BLACK;
    (!fouls || renju::foul(&lines, block).is_none()).then_some(block)
}

/// Flat Monte Carlo: `rollouts` playouts with the default [`GomokuPolicy`]'s rollouts after each of its
/// candidate cells, and the cell with the best mean result for the side to move (ties: the
/// first in row-major order). A cell that wins at once is played without rollouts (its result is
/// certain, where a rollout mean of 1 may only be likely). `None` in a terminal position.
///
/// # Panics
/// Panics when `rollouts` is 0.
pub fn flat(game: &Gomoku, state: &GomokuState, rollouts: u32, rng: &mut Rng) -> Option<Cell> {
    assert!(rollouts > 0, "flat Monte Carlo needs at least one rollout per move");
    let policy = GomokuPolicy::default();
    let mut candidates = Vec::new();
    policy.candidates(game, state, &mut candidates);
    let me = state.mover();
    let mut scratch = Vec::new();
    let mut best = None;
    let mut best_total = f64::NEG_INFINITY;
    for &cell in &candidates {
        let mut next = state.clone();
        game.apply(&mut next, cell);
        if next.winner() == Some(me) {
            return Some(cell);
        }
        let total: f64 = if next.is_terminal() {
            game.returns(&next)[me] * rollouts as f64
        } else {
            (0..rollouts).map(|_| policy.rollout(game, &next, rng, &mut scratch)[me]).sum()
        };
        if total > best_total {
            best_total = total;
            best = Some(cell);
        }
    }
    best
}
