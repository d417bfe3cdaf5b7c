//! Snake positions: the packed body and the rules of one step. (The cells, moves and end causes they use
//! are in `cell.rs`, re-exported here.)
//!
//! # Layout
//!
//! Cells are numbered with a fixed row stride of 32, `index = y * 32 + x`, whatever the board size, so
//! every per-cell array below has 1024 entries and a board row is one machine word:
//!
//! ```text
//! occ:  [u32; 32]  bit x of occ[y]        = (x,y) holds a body cell            128 bytes
//! dirs: [u64; 32]  bits 2x..2x+2 of dirs[y] = direction from body cell (x,y)   256 bytes
//!                                             to the next cell toward the head
//! head, tail, len, food (u16), last move, width, height, hunger, steps, end,
//! body key (u64)                                                                ~30 bytes
//! ```
//!
//! A state is about 420 bytes for every board size up to 32x32 and clones with one `memcpy`. A step
//! touches O(1) words: the old head gets the direction of the move, the tail follows its own direction
//! and is cleared, the new head is set.

use crate::games::mix64;
use crate::rng::{below, Rng};

pub(crate) use super::cell::step_index;
pub use super::cell::{Cell, Dir, End};
use super::parse::ParseError;

/// Row stride of the cell numbering (the largest side).
pub(crate) const STRIDE: usize = 32;
/// Number of cell indices (`STRIDE * STRIDE`).
pub(crate) const CELLS: usize = STRIDE * STRIDE;
/// The smallest board side.
pub const MIN_SIDE: usize = 2;
/// The largest board side.
pub const MAX_SIDE: usize = 32;
/// Marks "no food on the board" (a chance turn, or a finished game).
pub(crate) const NO_FOOD: u16 = u16::MAX;

/// Zobrist code of the head cell (codes 0..4 are the directions of the other body cells).
const HEAD_CODE: u64 = 4;
const SALT_BODY: u64 = 0x5EED_0000_B0D1_0000;
const SALT_REST: u64 = 0x5EED_0000_F00D_0000;

/// What one step did (see [`SnakeState::step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The head moved onto a free cell (or the vacated tail cell).
    Moved,
    /// The head ate the food: the snake grew by one.
    Ate,
    /// The move killed the snake; the body is left as it was before the move.
    Died,
}

/// A snake position: the board size, the body, the food, the hunger counter and, once the game is over,
/// why it ended.
///
/// The state is at a chance turn (food spawn pending) when it is not over and holds no food: at the start
/// of a game from [`super::Snake::start`] and after every move that eats.
///
/// Equality compares positions: board, body (in order), food, counters and end cause.
#[derive(Clone)]
pub struct SnakeState {
    /// Body occupancy: bit `x` of `occ[y]`.
    occ: [u32; STRIDE],
    /// Per body cell, 2 bits: the [`Dir`] from that cell to the next cell toward the head. The head's
    /// entry and those of free cells are meaningless.
    dirs: [u64; STRIDE],
    /// XOR of the Zobrist keys of the body cells (cell, direction code); kept up to date by each step.
    body_key: u64,
    /// Moves survived since the start of the game.
    steps: u32,
    /// Moves since the last food (or since the start).
    hunger: u32,
    head: u16,
    tail: u16,
    len: u16,
    /// The food cell, or [`NO_FOOD`].
    food: u16,
    /// The last move (the direction from the neck to the head); meaningful when `len >= 2`.
    last: Dir,
    width: u8,
    height: u8,
    end: Option<End>,
}

// The layout above, asserted: a state stays one small memcpy on every board size.
const _: () = assert!(std::mem::size_of::<SnakeState>() <= 416);

/// Zobrist key of one body cell: `code` is a [`Dir`] (0..4) for the cells behind the head, or
/// [`HEAD_CODE`]. Keys come from splitmix64's finaliser, so no table is needed.
#[inline]
fn body_cell_key(cell: u16, code: u64) -> u64 {
    mix64(((cell as u64) << 3 | code) ^ SALT_BODY)
}

impl SnakeState {
    /// A state with the given body (head first, tail last) and food, hunger and step counters at 0.
    ///
    /// `food: None` leaves the food to be spawned (a chance turn). A body that fills the board makes a
    /// finished game ([`End::Won`]).
    ///
    /// # Errors
    /// [`ParseError::BadSize`] for a side outside `2..=32`, [`ParseError::EmptyBody`],
    /// [`ParseError::OffBoard`], [`ParseError::RepeatedCell`], [`ParseError::NotContiguous`] (consecutive
    /// body cells must be adjacent) and [`ParseError::FoodOnBody`] / [`ParseError::OffBoard`] for the food.
    pub fn from_body(width: usize, height: usize, body: &[Cell], food: Option<Cell>) -> Result<Self, ParseError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(ParseError::BadSize(format!("{width}x{height}")));
        }
        let off_board = |c: Cell| ParseError::OffBoard { cell: c, width, height };
        let (&head, _) = body.split_first().ok_or(ParseError::EmptyBody)?;
        let mut s = SnakeState {
            occ: [0; STRIDE],
            dirs: [0; STRIDE],
            body_key: 0,
            steps: 0,
            hunger: 0,
            head: head.index(),
            tail: head.index(),
            len: 0,
            food: NO_FOOD,
            last: Dir::Up,
            width: width as u8,
            height: height as u8,
            end: None,
        };
        for (i, &c) in body.iter().enumerate() {
            if c.x as usize >= width || c.y as usize >= height {
                return Err(off_board(c));
            }
            if s.occupied(c.index()) {
                return Err(ParseError::RepeatedCell(c));
            }
            if i > 0 {
                // Body cell i points toward cell i-1 (one step closer to the head).
                let toward_head = Dir::between(c, body[i - 1]).ok_or(ParseError::NotContiguous {
                    index: i - 1,
                    from: body[i - 1],
                    to: c,
                })?;
                s.set_dir(c.index(), toward_head);
                s.body_key ^= body_cell_key(c.index(), toward_head as u64);
                if i == 1 {
                    s.last = toward_head;
                }
            } else {
                s.body_key ^= body_cell_key(c.index(), HEAD_CODE);
            }
            s.set_occ(c.index());
            s.tail = c.index();
            s.len += 1;
        }
        if let Some(f) = food {
            if f.x as usize >= width || f.y as usize >= height {
                return Err(off_board(f));
            }
            if s.occupied(f.index()) {
                return Err(ParseError::FoodOnBody(f));
            }
            s.food = f.index();
        }
        if s.len() == s.area() {
            s.end = Some(End::Won);
        }
        Ok(s)
    }

    /// Sets the hunger counter (moves since the last food), e.g. for a position read from text.
    pub fn set_hunger(&mut self, hunger: u32) {
        self.hunger = hunger;
    }

    /// Sets the count of moves survived since the start (it changes no rule; reports show it).
    pub fn set_steps(&mut self, steps: u32) {
        self.steps = steps;
    }

    /// Board width (columns), `2..=32`.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Board height (rows), `2..=32`.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Number of board cells, `width * height`.
    pub fn area(&self) -> usize {
        self.width() * self.height()
    }

    /// Length of the snake in cells (at least 1; it never shrinks).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// The head cell.
    pub fn head(&self) -> Cell {
        Cell::from_index(self.head)
    }

    /// The tail cell (the head itself for a snake of length 1).
    pub fn tail(&self) -> Cell {
        Cell::from_index(self.tail)
    }

    /// The food cell; `None` at a chance turn (spawn pending) and when the game is over by a win.
    pub fn food(&self) -> Option<Cell> {
        (self.food != NO_FOOD).then(|| Cell::from_index(self.food))
    }

    /// Moves since the last food (or since the start); the game ends at the starvation limit.
    pub fn hunger(&self) -> u32 {
        self.hunger
    }

    /// Moves survived since the start of the game (a fatal move is not counted).
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// Why the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The last move (from the neck to the head), or `None` for a snake of length 1.
    pub fn last_move(&self) -> Option<Dir> {
        (self.len >= 2).then_some(self.last)
    }

    /// Whether `cell` holds a body cell (head included). Cells off the board are not occupied.
    pub fn is_body(&self, cell: Cell) -> bool {
        (cell.x as usize) < self.width() && (cell.y as usize) < self.height() && self.occupied(cell.index())
    }

    /// The body from tail to head, in `len()` cells. Allocation-free.
    pub fn body_tail_first(&self) -> impl Iterator<Item = Cell> + '_ {
        let mut c = self.tail;
        (0..self.len).map(move |i| {
            let here = c;
            if i + 1 < self.len {
                c = step_index(c, self.dir_at(c));
            }
            Cell::from_index(here)
        })
    }

    /// The body from head to tail (the order the position text uses).
    pub fn body(&self) -> Vec<Cell> {
        let mut v: Vec<Cell> = self.body_tail_first().collect();
        v.reverse();
        v
    }

    /// Whether `d` reverses into the neck (never legal).
    #[inline]
    pub fn is_reversal(&self, d: Dir) -> bool {
        self.len >= 2 && d == self.last.opposite()
    }

    /// Whether moving `d` neither reverses into the neck nor dies at once (wall or body). Moving into the
    /// cell the tail leaves in the same step is safe.
    #[inline]
    pub fn is_safe(&self, d: Dir) -> bool {
        !self.is_reversal(d) && self.target(d).is_ok()
    }

    // ----- crate-internal access for the rules, the agents and the rollout policies -----

    /// The free cells of row `y` as a bitmask (bit `x` set when `(x, y)` is on the board and not body).
    #[inline]
    pub(crate) fn free_row(&self, y: usize) -> u32 {
        !self.occ[y] & row_mask(self.width())
    }

    #[inline]
    pub(crate) fn head_index(&self) -> u16 {
        self.head
    }

    #[inline]
    pub(crate) fn tail_index(&self) -> u16 {
        self.tail
    }

    #[inline]
    pub(crate) fn food_index(&self) -> u16 {
        self.food
    }

    #[inline]
    pub(crate) fn occupied(&self, c: u16) -> bool {
        self.occ[c as usize / STRIDE] >> (c as usize % STRIDE) & 1 != 0
    }

    #[inline]
    fn set_occ(&mut self, c: u16) {
        self.occ[c as usize / STRIDE] |= 1 << (c as usize % STRIDE);
    }

    #[inline]
    fn clear_occ(&mut self, c: u16) {
        self.occ[c as usize / STRIDE] &= !(1 << (c as usize % STRIDE));
    }

    /// The stored direction of body cell `c` (toward the head).
    #[inline]
    pub(crate) fn dir_at(&self, c: u16) -> Dir {
        Dir::from_bits((self.dirs[c as usize / STRIDE] >> (2 * (c as usize % STRIDE))) as u8)
    }

    #[inline]
    fn set_dir(&mut self, c: u16, d: Dir) {
        let (row, shift) = (c as usize / STRIDE, 2 * (c as usize % STRIDE));
        self.dirs[row] = self.dirs[row] & !(3 << shift) | (d as u64) << shift;
    }

    /// The cell one step from `c` in direction `d`, or `None` off the board.
    #[inline]
    pub(crate) fn neighbor(&self, c: u16, d: Dir) -> Option<u16> {
        let (x, y) = (c as usize % STRIDE, c as usize / STRIDE);
        let inside = match d {
            Dir::Up => y > 0,
            Dir::Down => y + 1 < self.height(),
            Dir::Left => x > 0,
            Dir::Right => x + 1 < self.width(),
        };
        inside.then(|| step_index(c, d))
    }

    /// The cell the head enters when moving `d`, or how that move ends the game. Does not check reversal.
    #[inline]
    pub(crate) fn target(&self, d: Dir) -> Result<u16, End> {
        let n = self.neighbor(self.head, d).ok_or(End::Wall)?;
        // The tail cell is vacated in the same step unless the snake eats, and the food is never on the
        // body, so entering the tail is safe; at length 2 the tail is the neck (a reversal, excluded
        // elsewhere), hence `len > 2`.
        if self.occupied(n) && !(n == self.tail && self.len > 2) {
            return Err(End::Body);
        }
        Ok(n)
    }

    /// Plays `d` by the rules (the caller has excluded reversals and non-player turns). A fatal move sets
    /// [`End::Wall`] or [`End::Body`] and leaves the body as it was; eating grows the snake, clears the
    /// food (a chance turn follows) or wins when the board is full; otherwise the hunger counter grows
    /// and reaching `starvation_limit` ends the game ([`End::Starved`]).
    pub(crate) fn step(&mut self, d: Dir, starvation_limit: u32) -> Step {
        debug_assert!(self.end.is_none() && !self.is_reversal(d));
        let n = match self.target(d) {
            Ok(n) => n,
            Err(end) => {
                self.end = Some(end);
                return Step::Died;
            }
        };
        let h = self.head;
        let ate = n == self.food;
        // The old head becomes a body cell pointing at the new head.
        self.set_dir(h, d);
        self.body_key ^= body_cell_key(h, HEAD_CODE) ^ body_cell_key(h, d as u64);
        if !ate {
            // The tail follows its own direction; at length 1 that is the direction just set.
            let t = self.tail;
            let td = self.dir_at(t);
            self.tail = step_index(t, td);
            self.clear_occ(t);
            self.body_key ^= body_cell_key(t, td as u64);
        }
        self.set_occ(n);
        self.body_key ^= body_cell_key(n, HEAD_CODE);
        self.head = n;
        self.last = d;
        self.steps += 1;
        if ate {
            self.len += 1;
            self.hunger = 0;
            self.food = NO_FOOD;
            if self.len() == self.area() {
                self.end = Some(End::Won);
            }
            Step::Ate
        } else {
            self.hunger += 1;
            if self.hunger >= starvation_limit {
                self.end = Some(End::Starved);
            }
            Step::Moved
        }
    }

    /// Puts the food on the free cell `c` (a chance outcome).
    #[inline]
    pub(crate) fn place_food(&mut self, c: u16) {
        debug_assert!(self.food == NO_FOOD && !self.occupied(c));
        self.food = c;
    }

    /// Number of free cells (not body; the food cell counts as free).
    pub fn free_cells(&self) -> usize {
        self.area() - self.len()
    }

    /// Calls `f` for every free cell, row by row.
    pub(crate) fn for_each_free(&self, mut f: impl FnMut(u16)) {
        let mask = row_mask(self.width());
        for y in 0..self.height() {
            let mut free = !self.occ[y] & mask;
            while free != 0 {
                f((y * STRIDE) as u16 + free.trailing_zeros() as u16);
                free &= free - 1;
            }
        }
    }

    /// A free cell drawn uniformly: up to four rejection draws over the whole board (enough on a sparse
    /// board), then the k-th free cell found by counting free bits row by row (O(height)). Both stages are
    /// uniform over the free cells, so their mix is too.
    ///
    /// # Panics
    /// When no cell is free.
    pub(crate) fn sample_free(&self, rng: &mut Rng) -> u16 {
        let (w, area) = (self.width(), self.area());
        for _ in 0..4 {
            let r = below(rng, area);
            let c = ((r / w) * STRIDE + r % w) as u16;
            if !self.occupied(c) {
                return c;
            }
        }
        let mut k = below(rng, self.free_cells()) as u32;
        let mask = row_mask(w);
        for y in 0..self.height() {
            let mut free = !self.occ[y] & mask;
            let n = free.count_ones();
            if k < n {
                for _ in 0..k {
                    free &= free - 1;
                }
                return (y * STRIDE) as u16 + free.trailing_zeros() as u16;
            }
            k -= n;
        }
        unreachable!("sample_free called on a full board")
    }

    /// The Zobrist key: the body (each cell with its direction code, kept incrementally), the food, the
    /// hunger counter and the end cause. The hunger counter grows by one every move without food and the
    /// length grows with every food, so no key repeats within a game and the search graph has no cycles.
    /// The step count is left out: it changes no future.
    pub fn zobrist(&self) -> u64 {
        let end = self.end.map_or(0, |e| e as u64 + 1);
        self.body_key ^ mix64(((self.food as u64) | (self.hunger as u64) << 16 | end << 48) ^ SALT_REST)
    }

    /// The body part of the key recomputed from scratch (tests compare it with the incremental one).
    pub fn body_key_from_scratch(&self) -> u64 {
        let mut key = 0;
        let mut c = self.tail;
        for _ in 1..self.len {
            let d = self.dir_at(c);
            key ^= body_cell_key(c, d as u64);
            c = step_index(c, d);
        }
        key ^ body_cell_key(self.head, HEAD_CODE)
    }

    /// The incrementally kept body part of the key.
    pub fn body_key(&self) -> u64 {
        self.body_key
    }
}

/// The low `width` bits set.
#[inline]
fn row_mask(width: usize) -> u32 {
    ((1u64 << width) - 1) as u32
}

/// Direction bits of free cells are stale leftovers, so equality walks the body instead of comparing the
/// arrays.
impl PartialEq for SnakeState {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height, self.len, self.head, self.tail, self.food)
            == (other.width, other.height, other.len, other.head, other.tail, other.food)
            && (self.hunger, self.steps, self.end) == (other.hunger, other.steps, other.end)
            && self.occ == other.occ
            && self.body_tail_first().eq(other.body_tail_first())
    }
}

impl Eq for SnakeState {}
