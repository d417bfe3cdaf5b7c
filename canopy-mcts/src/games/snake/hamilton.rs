//! The Hamiltonian-cycle baseline: the snake walks a fixed closed tour of the board, so it never runs
//! into itself and fills the board in O((W*H)^2) moves.
//!
//! # The cycle
//!
//! With an even number of rows `H`: row 0 from left to right, then rows 1..H zig-zag over columns
//! `1..W` (odd rows right to left, even rows left to right), then column 0 from the bottom back up.
//! With `H` odd and `W` even, the same on the transposed board.
//!
//! ```text
//! 4x4:  0→ 1→ 2→ 3
//!       ↑        ↓
//!      15  6← 5← 4
//!       ↑  ↓
//!      14  7→ 8→ 9
//!       ↑        ↓
//!      13←12←11←10
//! ```
//!
//! # Odd by odd boards
//!
//! A grid with an odd number of cells has no Hamiltonian cycle (it is bipartite with unequal sides). The
//! tour then covers every cell but the bottom-right corner `K = (W-1, H-1)`: the first `H-1` rows as
//! above, and the last row woven in pairs below row `H-2`. The tour passes `B = (W-1, H-2)`, then
//! `M = (W-2, H-2)`, then `A = (W-2, H-1)`; `K` is also adjacent to both `B` and `A`. At `B` the snake
//! goes through `K` instead of `M` exactly when the food is on `K`. Either way the body stays the last
//! `len` cells of the tour (with `K` standing in for `M` on that lap), so the argument of the even case
//! still holds and the snake fills odd boards too.

use crate::rng::Rng;

use super::agents::random_safe;
use super::paths::direction;
use super::state::{Cell, Dir, SnakeState, CELLS};

/// A Hamiltonian cycle of a `width` x `height` board (or, on odd by odd boards, a cycle through all
/// cells but one with a detour through the last; see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Hamilton {
    /// The tour in order, as cells.
    tour: Vec<Cell>,
    /// `next[i]`: the index of the cell after cell index `i` on the tour (0 off the tour).
    next: Vec<u16>,
    /// Odd by odd boards: `(B, K)`, go from `B` to `K` when the food is on `K`.
    detour: Option<(u16, u16)>,
}

impl Hamilton {
    /// Builds the cycle for a `width` x `height` board.
    ///
    /// # Panics
    /// When a side is outside `2..=32`.
    pub fn new(width: usize, height: usize) -> Self {
        assert!((2..=32).contains(&width) && (2..=32).contains(&height), "board {width}x{height} out of range");
        let (tour, detour) = if height % 2 == 0 {
            (even_rows(width, height, false), None)
        } else if width % 2 == 0 {
            (even_rows(height, width, true), None)
        } else {
            odd_by_odd(width, height)
        };
        let mut next = vec![0u16; CELLS];
        for (i, c) in tour.iter().enumerate() {
            next[c.index() as usize] = tour[(i + 1) % tour.len()].index();
        }
        let detour = detour.map(|(b, k, a): (Cell, Cell, Cell)| {
            // From K the tour goes on to A, as it would from M.
            next[k.index() as usize] = a.index();
            (b.index(), k.index())
        });
        Hamilton { tour, next, detour }
    }

    /// The tour in order (W*H cells, or W*H-1 on odd by odd boards, which leave out the corner `K`).
    pub fn tour(&self) -> &[Cell] {
        &self.tour
    }

    /// The next move on the cycle from the head of `s`, taking the detour through `K` on odd boards when
    /// the food is there. Falls back to [`random_safe`] when that move is not safe, which happens only
    /// when the body does not lie along the tour (a position not reached by this agent from length 1).
    pub fn choose(&self, s: &SnakeState, rng: &mut Rng) -> Dir {
        let head = s.head_index();
        let mut to = self.next[head as usize];
        if let Some((b, k)) = self.detour {
            if head == b && s.food_index() == k {
                to = k;
            }
        }
        let d = direction(head, to);
        if s.is_safe(d) {
            d
        } else {
            random_safe(s, rng)
        }
    }
}

/// The cycle for an even `rows`; `transpose` swaps x and y (so `cols` then counts rows of the board).
fn even_rows(cols: usize, rows: usize, transpose: bool) -> Vec<Cell> {
    debug_assert!(rows % 2 == 0);
    let cell = |x: usize, y: usize| {
        if transpose {
            Cell::new(y as u8, x as u8)
        } else {
            Cell::new(x as u8, y as u8)
        }
    };
    let mut tour = Vec::with_capacity(cols * rows);
    tour.extend((0..cols).map(|x| cell(x, 0)));
    for y in 1..rows {
        if y % 2 == 1 {
            tour.extend((1..cols).rev().map(|x| cell(x, y)));
        } else {
            tour.extend((1..cols).map(|x| cell(x, y)));
        }
    }
    tour.extend((1..rows).rev().map(|y| cell(0, y)));
    tour
}

/// The tour of an odd by odd board without the corner `K`, and the detour `(B, K, A)`.
fn odd_by_odd(width: usize, height: usize) -> (Vec<Cell>, Option<(Cell, Cell, Cell)>) {
    let top = even_rows(width, height - 1, false);
    let (last, row) = (height as u8 - 1, height as u8 - 2);
    let mut tour = Vec::with_capacity(width * height - 1);
    for (i, &c) in top.iter().enumerate() {
        tour.push(c);
        let n = top[(i + 1) % top.len()];
        // Row H-2 runs right to left; weave the pair (x, x-1) of the last row under the edge x -> x-1.
        if c.y == row && n.y == row && n.x + 1 == c.x && c.x % 2 == 1 {
            tour.push(Cell::new(c.x, last));
            tour.push(Cell::new(n.x, last));
        }
    }
    let (w1, w2) = (width as u8 - 1, width as u8 - 2);
    (tour, Some((Cell::new(w1, row), Cell::new(w1, last), Cell::new(w2, last))))
}
