//! The rollout policy: win if you can, else block the opponent's win, else a random cell near the stones.
//!
//! A [`Playout`] is built once per rollout from a [`GomokuState`] and then updated stone by stone with no
//! allocation. It keeps:
//!
//! - the line masks of the position ([`Lines`]),
//! - for each player, direction and line, the cells where that player completes a win
//!   ([`Lines::five_cells`]); a player's winning cells depend only on that player's stones and on which cells
//!   are empty, so a stone changes its owner's winning cells only on the four lines through it, and the
//!   opponent's only by filling one of them,
//! - the candidate cells (empty, within Chebyshev distance `rollout_radius` of a stone) as a dense array
//!   with a position index, so that a uniform draw, an insertion and a removal each take constant time.

use super::board::{Cell, GomokuState, MAX_SIZE};
use super::rules::{cell_on_line, line_of, Lines, Rule, LINES};
use crate::rng::{below, Rng};

/// Marks a cell absent from the candidate array.
const ABSENT: u16 = u16::MAX;

/// Whether `m` has four or more set bits (clears the lowest set bit three times).
#[inline]
fn at_least_four(m: u32) -> bool {
    let a = m & m.wrapping_sub(1);
    let b = a & a.wrapping_sub(1);
    b & b.wrapping_sub(1) != 0
}

/// What the policy plays next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// A cell that wins at once for the player to move.
    Win(Cell),
    /// A cell where the opponent would win next move.
    Block(Cell),
    /// A random candidate cell.
    Random(Cell),
    /// No cell is left: the board is full.
    Full,
}

/// The working state of one rollout (about 4.7 KB, on the stack).
pub(crate) struct Playout {
    lines: Lines,
    /// `wins[p][d][line]`: cells where player `p` completes a win, per line.
    wins: [[[u32; LINES]; 4]; 2],
    /// Number of set bits in `wins[p]` (a cell winning in two directions counts twice); zero exactly when
    /// `p` has no winning cell.
    win_bits: [u32; 2],
    /// Candidate cells, `cand[..len]`.
    cand: [Cell; MAX_SIZE * MAX_SIZE],
    len: usize,
    /// `pos[y * MAX_SIZE + x]`: the cell's index in `cand`, or [`ABSENT`].
    pos: [u16; MAX_SIZE * MAX_SIZE],
    /// Stones on the board and the player to move.
    count: usize,
    mover: usize,
    size: usize,
    rule: Rule,
    radius: usize,
}

impl Playout {
    /// The working state for `state` with candidate cells within Chebyshev distance `radius` (>= 1) of a
    /// stone.
    pub fn new(state: &GomokuState, rule: Rule, radius: usize) -> Self {
        debug_assert!(radius >= 1);
        let size = state.size();
        let lines = Lines::new(state);
        let mut wins = [[[0; LINES]; 4]; 2];
        let mut win_bits = [0; 2];
        for p in 0..2 {
            for d in 0..4 {
                for l in 0..LINES {
                    let m = lines.stones[p][d][l];
                    // A winning cell needs four stones of the player on its line.
                    if !at_least_four(m) {
                        continue;
                    }
                    let w = lines.five_cells(p, d, l, rule);
                    wins[p][d][l] = w;
                    win_bits[p] += w.count_ones();
                }
            }
        }
        let mut playout = Playout {
            lines,
            wins,
            win_bits,
            cand: [Cell { x: 0, y: 0 }; MAX_SIZE * MAX_SIZE],
            len: 0,
            pos: [ABSENT; MAX_SIZE * MAX_SIZE],
            count: state.stone_count(),
            mover: state.mover(),
            size,
            rule,
            radius,
        };
        for p in 0..2 {
            for y in 0..size {
                let mut row = state.rows[p][y];
                while row != 0 {
                    let x = row.trailing_zeros() as usize;
                    row &= row - 1;
                    playout.add_neighbours(Cell::new(x, y));
                }
            }
        }
        playout
    }

    /// The policy's move for the player to move: a winning cell, else a cell blocking the opponent's
    /// win, else a uniform draw among the candidates (the centre on an empty board).
    #[inline]
    pub fn choose(&self, rng: &mut Rng) -> Choice {
        let p = self.mover;
        if self.win_bits[p] > 0 {
            return Choice::Win(self.first_win(p));
        }
        if self.win_bits[1 - p] > 0 {
            return Choice::Block(self.first_win(1 - p));
        }
        if self.len > 0 {
            return Choice::Random(self.cand[below(rng, self.len)]);
        }
        if self.count == 0 {
            return Choice::Random(Cell::new(self.size / 2, self.size / 2));
        }
        // With radius >= 1, some empty cell touches a stone unless the board is full.
        Choice::Full
    }

    /// The first winning cell of `player` in line-table order.
    ///
    /// # Panics
    /// Panics (in debug builds) when `player` has none.
    fn first_win(&self, player: usize) -> Cell {
        for d in 0..4 {
            for l in 0..LINES {
                let w = self.wins[player][d][l];
                if w != 0 {
                    return cell_on_line(d, l, w.trailing_zeros());
                }
            }
        }
        unreachable!("win_bits says player {player} has a winning cell")
    }

    /// Places a stone of the player to move on the empty `cell` that does not win (the policy returns
    /// winning cells as [`Choice::Win`] and the rollout stops there), and passes the move.
    #[inline]
    pub fn play(&mut self, cell: Cell) {
        let p = self.mover;
        let q = 1 - p;
        self.remove_candidate(cell);
        self.lines.put(p, cell);
        for d in 0..4 {
            let (l, i) = line_of(cell, d);
            let bit = 1u32 << i;
            if self.wins[q][d][l] & bit != 0 {
                self.wins[q][d][l] &= !bit;
                self.win_bits[q] -= 1;
            }
            let new = self.lines.five_cells(p, d, l, self.rule);
            let old = self.wins[p][d][l];
            if new != old {
                self.wins[p][d][l] = new;
                self.win_bits[p] = self.win_bits[p] + new.count_ones() - old.count_ones();
            }
        }
        self.add_neighbours(cell);
        self.count += 1;
        self.mover = q;
    }

    /// Adds the empty cells within `radius` of `cell` that are not candidates yet.
    #[inline]
    fn add_neighbours(&mut self, cell: Cell) {
        let (cx, cy) = (cell.x as usize, cell.y as usize);
        let r = self.radius;
        let (x0, x1) = (cx.saturating_sub(r), (cx + r).min(self.size - 1));
        let (y0, y1) = (cy.saturating_sub(r), (cy + r).min(self.size - 1));
        for y in y0..=y1 {
            // Row y's empty cells are line y of direction 0.
            let empty = self.lines.empty[0][y];
            for x in x0..=x1 {
                let k = y * MAX_SIZE + x;
                if empty >> x & 1 != 0 && self.pos[k] == ABSENT {
                    self.pos[k] = self.len as u16;
                    self.cand[self.len] = Cell::new(x, y);
                    self.len += 1;
                }
            }
        }
    }

    /// Removes `cell` from the candidates if it is one (swap with the last).
    #[inline]
    fn remove_candidate(&mut self, cell: Cell) {
        let k = cell.y as usize * MAX_SIZE + cell.x as usize;
        let at = self.pos[k];
        if at == ABSENT {
            return;
        }
        self.len -= 1;
        let last = self.cand[self.len];
        self.cand[at as usize] = last;
        self.pos[last.y as usize * MAX_SIZE + last.x as usize] = at;
        self.pos[k] = ABSENT;
    }

    /// Plays to the end with the policy; returns the winner, or `None` for a draw (full board).
    pub fn run(&mut self, rng: &mut Rng) -> Option<usize> {
        loop {
            match self.choose(rng) {
                Choice::Win(_) => return Some(self.mover),
                Choice::Block(c) | Choice::Random(c) => self.play(c),
                Choice::Full => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::{Gomoku, Rule};
    use crate::rng::seeded;

    /// The incrementally kept winning cells equal those computed from scratch after every move.
    #[test]
    fn incremental_wins_match_scratch() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let game = Gomoku::new(9, rule);
            for seed in 0..200 {
                let mut rng = seeded(seed, 0);
                let mut state = game.new_game();
                let mut playout = Playout::new(&state, rule, 1);
                loop {
                    let scratch = Playout::new(&state, rule, 1);
                    assert_eq!(playout.wins, scratch.wins, "seed {seed}\n{state}");
                    assert_eq!(playout.win_bits, scratch.win_bits);
                    let mut a: Vec<Cell> = playout.cand[..playout.len].to_vec();
                    let mut b: Vec<Cell> = scratch.cand[..scratch.len].to_vec();
                    a.sort();
                    b.sort();
                    assert_eq!(a, b);
                    match playout.choose(&mut rng) {
                        Choice::Win(c) => {
                            assert!(game.winning_moves(&state, state.mover()).contains(&c));
                            break;
                        }
                        Choice::Block(c) | Choice::Random(c) => {
                            playout.play(c);
                            crate::Game::apply(&game, &mut state, c);
                            assert!(state.winner().is_none());
                        }
                        Choice::Full => {
                            assert!(state.is_full());
                            break;
                        }
                    }
                }
            }
        }
    }
}
