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
    /// Number of lines with a non-zero `wins[p][d][line]`; zero exactly when `p` has no winning cell.
    /// (A count of lines rather than of cells needs no population count, which is slow on targets
    /// without the POPCNT instruction.)
    win_lines: [u32; 2],
    /// Candidate cells, `cand[..len]`.
    cand: [Cell; MAX_SIZE * MAX_SIZE],
    len: usize,
    /// `in_cand[y]` has bit `x` set when cell `(x, y)` is in `cand`.
    in_cand: [u32; MAX_SIZE],
    /// `pos[y * MAX_SIZE + x]`: the cell's index in `cand` (meaningful only for cells in `in_cand`).
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
        // Built in place and filled stone by stone: the structure is too big to copy around cheaply.
        let mut playout = Playout {
            lines: Lines::new(state),
            wins: [[[0; LINES]; 4]; 2],
            win_lines: [0; 2],
            cand: [Cell { x: 0, y: 0 }; MAX_SIZE * MAX_SIZE],
            len: 0,
            in_cand: [0; MAX_SIZE],
            pos: [0; MAX_SIZE * MAX_SIZE],
            count: state.stone_count(),
            mover: state.mover(),
            size,
            rule,
            radius,
        };
        for p in 0..2 {
            // Winning cells lie on lines holding the player's stones: visit each such line once.
            let mut visited = [0u64; 4];
            for cell in state.stones(p) {
                playout.add_neighbours(cell);
                for (d, seen) in visited.iter_mut().enumerate() {
                    let (l, _) = line_of(cell, d);
                    if *seen >> l & 1 == 0 {
                        *seen |= 1 << l;
                        let w = playout.lines.five_cells(p, d, l, rule);
                        playout.wins[p][d][l] = w;
                        playout.win_lines[p] += (w != 0) as u32;
                    }
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
        if self.win_lines[p] > 0 {
            return Choice::Win(self.first_win(p));
        }
        if self.win_lines[1 - p] > 0 {
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
    /// Panics when `player` has none.
    fn first_win(&self, player: usize) -> Cell {
        for d in 0..4 {
            for l in 0..LINES {
                let w = self.wins[player][d][l];
                if w != 0 {
                    return cell_on_line(d, l, w.trailing_zeros());
                }
            }
        }
        unreachable!("win_lines says player {player} has a winning cell")
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
            let theirs = self.wins[q][d][l];
            if theirs & bit != 0 {
                self.wins[q][d][l] = theirs & !bit;
                self.win_lines[q] -= (theirs == bit) as u32;
            }
            let new = self.lines.five_cells(p, d, l, self.rule);
            let old = self.wins[p][d][l];
            self.wins[p][d][l] = new;
            self.win_lines[p] = self.win_lines[p] + (new != 0) as u32 - (old != 0) as u32;
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
        // Columns cx - r ..= cx + r (in 64 bits: 2r + 1 + cx < 64 for r <= MAX_SIZE); columns beyond the
        // board vanish against the row's empty mask.
        let window = (((2u64 << (2 * r)) - 1) << cx >> r) as u32;
        for y in cy.saturating_sub(r)..=(cy + r).min(self.size - 1) {
            // Row y's empty cells are line y of direction 0.
            let mut fresh = window & self.lines.empty[0][y] & !self.in_cand[y];
            self.in_cand[y] |= fresh;
            while fresh != 0 {
                let x = fresh.trailing_zeros() as u8;
                fresh &= fresh - 1;
                self.pos[y * MAX_SIZE + x as usize] = self.len as u16;
                self.cand[self.len] = Cell { x, y: y as u8 };
                self.len += 1;
            }
        }
    }

    /// Removes `cell` from the candidates if it is one (swap with the last).
    #[inline]
    fn remove_candidate(&mut self, cell: Cell) {
        let bit = 1u32 << cell.x;
        if self.in_cand[cell.y as usize] & bit == 0 {
            return;
        }
        self.in_cand[cell.y as usize] &= !bit;
        let at = self.pos[cell.y as usize * MAX_SIZE + cell.x as usize];
        self.len -= 1;
        let last = self.cand[self.len];
        self.cand[at as usize] = last;
        self.pos[last.y as usize * MAX_SIZE + last.x as usize] = at;
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
        for (rule, radius) in [(Rule::Freestyle, 1), (Rule::Standard, 1), (Rule::Freestyle, 3), (Rule::Standard, 20)] {
            let game = Gomoku::new(9, rule);
            for seed in 0..100 {
                let mut rng = seeded(seed, 0);
                let mut state = game.new_game();
                let mut playout = Playout::new(&state, rule, radius);
                loop {
                    let scratch = Playout::new(&state, rule, radius);
                    assert_eq!(playout.wins, scratch.wins, "seed {seed}\n{state}");
                    assert_eq!(playout.win_lines, scratch.win_lines);
                    let mut a: Vec<Cell> = playout.cand[..playout.len].to_vec();
                    let mut b: Vec<Cell> = scratch.cand[..scratch.len].to_vec();
                    a.sort();
                    b.sort();
                    assert_eq!(a, b);
                    let mut rows = [0u32; MAX_SIZE];
                    for c in &a {
                        rows[c.y as usize] |= 1 << c.x;
                        assert!(state.is_empty_cell(*c));
                        assert_eq!(playout.cand[playout.pos[c.y as usize * MAX_SIZE + c.x as usize] as usize], *c);
                    }
                    assert_eq!(playout.in_cand, rows);
                    assert_eq!(playout.in_cand, scratch.in_cand);
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
