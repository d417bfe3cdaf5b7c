//! Closing cycles: a path from the head through every free cell to a cell next to the tail. With the body
//! it makes a Hamiltonian cycle of the board, and a snake that walks that cycle has the free cells always
//! just ahead of its head: it never dies, eats every food within (free cells) moves, and fills the board.
//! The MCTS agent locks into such a cycle when it finds one late in a game (see
//! [`super::mcts::MctsAgent`]).
//!
//! Boards with an odd number of cells have no Hamiltonian cycle (a grid is bipartite), so no closing
//! cycle exists there.

use super::paths::direction;
use super::state::{step_index, Dir, SnakeState, CELLS, STRIDE};

/// A Hamiltonian cycle of the board that runs through the snake's body from tail to head.
#[derive(Clone)]
pub struct ClosingCycle {
    /// `next[c]`: the cell after `c` on the cycle.
    next: Box<[u16; CELLS]>,
}

impl ClosingCycle {
    /// Looks for a closing cycle of `s` (snake to move, at least 3 cells long) by a depth-first search of
    /// at most `budget` nodes over the free cells, with Warnsdorff's order (fewest onward moves first) and
    /// a degree test (every free cell left needs two neighbours on the rest of the path). `None` when
    /// none exists or the budget ran out.
    pub fn find(s: &SnakeState, budget: u32) -> Option<ClosingCycle> {
        let dfs = Dfs::run(s, budget)?;
        let mut next = Box::new([0u16; CELLS]);
        let mut c = s.tail_index();
        for _ in 1..s.len() {
            let n = step_index(c, s.dir_at(c));
            next[c as usize] = n;
            c = n;
        }
        let mut prev = s.head_index();
        for &p in &dfs.path[..dfs.steps] {
            next[prev as usize] = p;
            prev = p;
        }
        next[prev as usize] = s.tail_index();
        Some(ClosingCycle { next })
    }

    /// Whether [`ClosingCycle::find`] would find a closing cycle (the same search, without building the
    /// cycle; allocation-free, for rollouts).
    pub fn exists(s: &SnakeState, budget: u32) -> bool {
        Dfs::run(s, budget).is_some()
    }

    /// The move along the cycle from the head of `s`, when the body of `s` still lies on the cycle (tail to
    /// head) and that move is safe.
    pub fn next_move(&self, s: &SnakeState) -> Option<Dir> {
        if s.end().is_some() || s.food().is_none() {
            return None;
        }
        let mut c = s.tail_index();
        for _ in 1..s.len() {
            let n = step_index(c, s.dir_at(c));
            if self.next[c as usize] != n {
                return None;
            }
            c = n;
        }
        let d = direction(s.head_index(), self.next[s.head_index() as usize]);
        s.is_safe(d).then_some(d)
    }
}

/// The depth-first search of [`ClosingCycle::find`].
struct Dfs<'a> {
    s: &'a SnakeState,
    /// Free cells not on the path yet (bit `x` of row `y`).
    free: [u32; STRIDE],
    /// How many.
    left: usize,
    tail: u16,
    /// The path so far (after the head): `path[..steps]`.
    path: [u16; CELLS],
    steps: usize,
    nodes: u32,
    budget: u32,
}

impl<'a> Dfs<'a> {
    /// Runs the search; the finished search (holding the path) when it succeeds.
    fn run(s: &'a SnakeState, budget: u32) -> Option<Self> {
        if s.len() < 3 || s.end().is_some() || s.area() % 2 == 1 {
            return None;
        }
        let mut free = [0u32; STRIDE];
        let mut left = 0;
        for (y, row) in free.iter_mut().enumerate().take(s.height()) {
            *row = s.free_row(y);
            left += row.count_ones() as usize;
        }
        let mut dfs = Dfs { s, free, left, tail: s.tail_index(), path: [0; CELLS], steps: 0, nodes: 0, budget };
        dfs.extend(s.head_index()).then_some(dfs)
    }

    #[inline]
    fn is_free(&self, c: u16) -> bool {
        self.free[c as usize / STRIDE] >> (c as usize % STRIDE) & 1 != 0
    }

    #[inline]
    fn set_free(&mut self, c: u16, on: bool) {
        let (row, bit) = (c as usize / STRIDE, 1u32 << (c as usize % STRIDE));
        if on {
            self.free[row] |= bit;
        } else {
            self.free[row] &= !bit;
        }
    }

    /// Free neighbours of `c` not on the path.
    fn free_neighbours(&self, c: u16, out: &mut [u16; 4]) -> usize {
        let mut k = 0;
        for d in Dir::ALL {
            if let Some(n) = self.s.neighbor(c, d) {
                if self.is_free(n) {
                    out[k] = n;
                    k += 1;
                }
            }
        }
        k
    }

    fn adjacent(&self, a: u16, b: u16) -> bool {
        Dir::ALL.iter().any(|&d| self.s.neighbor(a, d) == Some(b))
    }

    /// Whether some free cell left has fewer than two possible neighbours on the rest of the path (the
    /// free cells left, the path's end `c`, and the tail for the last cell).
    fn hopeless(&self, c: u16) -> bool {
        let mut n = [0u16; 4];
        for y in 0..self.s.height() {
            let mut row = self.free[y];
            while row != 0 {
                let x = (y * STRIDE) as u16 + row.trailing_zeros() as u16;
                row &= row - 1;
                let deg = self.free_neighbours(x, &mut n)
                    + self.adjacent(x, c) as usize
                    + self.adjacent(x, self.tail) as usize;
                if deg < 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Extends the path from its end `c`; true when it covers every free cell and ends next to the tail.
    fn extend(&mut self, c: u16) -> bool {
        if self.left == 0 {
            return self.adjacent(c, self.tail);
        }
        self.nodes += 1;
        if self.nodes > self.budget || self.hopeless(c) {
            return false;
        }
        let mut moves = [0u16; 4];
        let k = self.free_neighbours(c, &mut moves);
        // Warnsdorff: fewest onward moves first.
        let mut order = [(0usize, 0u16); 4];
        let mut scratch = [0u16; 4];
        for i in 0..k {
            order[i] = (self.free_neighbours(moves[i], &mut scratch), moves[i]);
        }
        order[..k].sort_unstable();
        for &(_, n) in &order[..k] {
            self.set_free(n, false);
            self.left -= 1;
            self.path[self.steps] = n;
            self.steps += 1;
            if self.extend(n) {
                return true;
            }
            self.steps -= 1;
            self.left += 1;
            self.set_free(n, true);
            if self.nodes > self.budget {
                return false;
            }
        }
        false
    }
}
