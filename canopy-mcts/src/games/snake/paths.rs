//! Breadth-first search over the board, shared by the baselines and the tail-following rollout policy.
//! All buffers are fixed arrays sized for the largest board, so a search never allocates.

use super::state::{step_index, Dir, SnakeState, CELLS, STRIDE};

/// What a search from the head found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reach {
    /// Moves to the target, when it was reached.
    pub dist: Option<u16>,
    /// Cells reached before the search stopped (all reachable cells when the target was not found).
    pub area: u16,
}

/// Scratch space for [`Paths::search`]: about 8 KiB, reusable across searches and positions.
pub(crate) struct Paths {
    queue: [u16; CELLS],
    parent: [u16; CELLS],
    dist: [u16; CELLS],
    /// For body cells: the first move number at which the head may enter the cell (its position counted
    /// from the tail, plus one). Read only for occupied cells.
    free_at: [u16; CELLS],
    seen: [u32; STRIDE],
}

impl Paths {
    pub fn new() -> Self {
        Paths { queue: [0; CELLS], parent: [0; CELLS], dist: [0; CELLS], free_at: [0; CELLS], seen: [0; STRIDE] }
    }

    #[inline]
    fn mark(&mut self, c: u16) -> bool {
        let (row, bit) = (c as usize / STRIDE, 1u32 << (c as usize % STRIDE));
        let fresh = self.seen[row] & bit == 0;
        self.seen[row] |= bit;
        fresh
    }

    /// Breadth-first search from the head of `s` toward `target` (any index; one that is never reached,
    /// such as the no-food marker, makes a plain flood fill). The first move never reverses into the neck.
    ///
    /// With `timed`, a body cell may be entered at move `t` once the tail has left it (its position
    /// counted from the tail is below `t`), assuming no food is eaten on the way: this finds paths through
    /// cells that free up while the snake moves, and never a path the snake could not follow. Without
    /// `timed`, only free cells are passable. The target is accepted whether or not it is passable.
    pub fn search(&mut self, s: &SnakeState, target: u16, timed: bool) -> Reach {
        self.seen = [0; STRIDE];
        if timed {
            let mut c = s.tail_index();
            for i in 0..s.len() {
                self.free_at[c as usize] = i as u16 + 1;
                if i + 1 < s.len() {
                    c = step_index(c, s.dir_at(c));
                }
            }
        }
        let head = s.head_index();
        let back = s.last_move().map(Dir::opposite);
        self.mark(head);
        self.queue[0] = head;
        self.dist[head as usize] = 0;
        let (mut qh, mut qt) = (0, 1);
        while qh < qt {
            let c = self.queue[qh];
            qh += 1;
            let t = self.dist[c as usize] + 1;
            for d in Dir::ALL {
                if c == head && Some(d) == back {
                    continue;
                }
                let Some(n) = s.neighbor(c, d) else { continue };
                if n == target {
                    self.parent[n as usize] = c;
                    self.dist[n as usize] = t;
                    return Reach { dist: Some(t), area: qt as u16 };
                }
                let passable = !s.occupied(n) || (timed && self.free_at[n as usize] <= t);
                if passable && self.mark(n) {
                    self.parent[n as usize] = c;
                    self.dist[n as usize] = t;
                    self.queue[qt] = n;
                    qt += 1;
                }
            }
        }
        Reach { dist: None, area: qt as u16 - 1 }
    }

    /// The first move of the path to `target` found by the last [`Paths::search`] on `s`.
    pub fn first_move(&self, s: &SnakeState, target: u16) -> Dir {
        let head = s.head_index();
        let mut c = target;
        while self.parent[c as usize] != head {
            c = self.parent[c as usize];
        }
        direction(head, c)
    }

    /// Plays the path to `target` found by the last [`Paths::search`] on `s` on `v` (a copy of `s`),
    /// with no starvation and no food spawn.
    pub fn replay(&mut self, s: &SnakeState, target: u16, v: &mut SnakeState) {
        let head = s.head_index();
        let (mut n, mut c) = (0, target);
        while c != head {
            self.queue[n] = c;
            n += 1;
            c = self.parent[c as usize];
        }
        let mut prev = head;
        for i in (0..n).rev() {
            if v.end().is_some() {
                return;
            }
            v.step(direction(prev, self.queue[i]), u32::MAX);
            prev = self.queue[i];
        }
    }

    /// Flood fill from `source` (which may be occupied) through free cells, stopping as soon as every
    /// cell of `wanted` (at most 8) has been reached. Returns a bitmask: bit `i` set when `wanted[i]` was
    /// reached (the source itself counts as reached).
    pub fn reach_from(&mut self, s: &SnakeState, source: u16, wanted: &[u16]) -> u8 {
        debug_assert!(wanted.len() <= 8);
        let hit = |c: u16| wanted.iter().enumerate().fold(0u8, |m, (i, &w)| m | ((w == c) as u8) << i);
        let all = ((1u16 << wanted.len()) - 1) as u8;
        self.seen = [0; STRIDE];
        self.mark(source);
        self.queue[0] = source;
        let mut found = hit(source);
        let (mut qh, mut qt) = (0, 1);
        while qh < qt && found != all {
            let c = self.queue[qh];
            qh += 1;
            for d in Dir::ALL {
                let Some(n) = s.neighbor(c, d) else { continue };
                if !s.occupied(n) && self.mark(n) {
                    self.queue[qt] = n;
                    qt += 1;
                    found |= hit(n);
                }
            }
        }
        found
    }

    /// Number of free cells reachable from the free cell `from` through free cells, `from` excluded.
    pub fn area_from(&mut self, s: &SnakeState, from: u16) -> u16 {
        self.reach_from(s, from, &[]);
        self.seen.iter().map(|r| r.count_ones() as u16).sum::<u16>() - 1
    }

    /// Moves for the head of `v` to reach its tail cell (`Some(0)` for a snake of length 1), by a timed
    /// [`Paths::search`].
    pub fn tail_distance(&mut self, v: &SnakeState) -> Reach {
        if v.len() < 2 {
            return Reach { dist: Some(0), area: v.free_cells() as u16 };
        }
        self.search(v, v.tail_index(), true)
    }
}

/// The move between two adjacent cell indices.
#[inline]
pub(crate) fn direction(from: u16, to: u16) -> Dir {
    match to.wrapping_sub(from) {
        d if d == STRIDE as u16 => Dir::Down,
        d if d == (STRIDE as u16).wrapping_neg() => Dir::Up,
        1 => Dir::Right,
        _ => Dir::Left,
    }
}

/// What [`flood`] found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flood {
    /// Steps from the source to each wanted cell (`u16::MAX`: not reached).
    pub dist: [u16; 4],
    /// Free cells reached before the fill stopped (all of them when it ran to the end), the source
    /// excluded.
    pub area: u16,
}

/// Bit-parallel breadth-first layers from `sources` (cells that may be body cells; at least one) through
/// the free cells of `s`: layer `k` holds the free cells `k` steps from the nearest source. A wanted cell
/// counts as reached one step after a neighbour is reached, whether or not it is free (so the tail cell,
/// vacated by the move that enters it, can be a target); a source is at distance 0. The fill stops once
/// every wanted cell (at most 4) is reached, or when no new cell is found.
///
/// Each layer costs a few word operations per row, so on boards up to about 16x16 this beats a queue
/// breadth-first search, and it needs no scratch memory.
pub(crate) fn flood(s: &SnakeState, sources: &[u16], wanted: &[u16]) -> Flood {
    debug_assert!(wanted.len() <= 4 && !sources.is_empty());
    let h = s.height();
    let mut free = [0u32; STRIDE];
    for (y, f) in free.iter_mut().enumerate().take(h) {
        *f = s.free_row(y);
    }
    let mut seen = [0u32; STRIDE];
    let (mut lo, mut hi) = (usize::MAX, 0);
    for &c in sources {
        let (x, y) = (c as usize % STRIDE, c as usize / STRIDE);
        seen[y] |= 1 << x;
        (lo, hi) = (lo.min(y), hi.max(y));
    }
    let mut frontier = seen;
    let mut dist = [u16::MAX; 4];
    let mut missing = 0usize;
    for (i, &w) in wanted.iter().enumerate() {
        if sources.contains(&w) {
            dist[i] = 0;
        } else {
            missing += 1;
        }
    }
    let (mut area, mut k) = (0u16, 0u16);
    loop {
        k += 1;
        let mut next = [0u32; STRIDE];
        let (mut new_lo, mut new_hi, mut any) = (usize::MAX, 0, false);
        // Rows that can hold a neighbour of the frontier.
        let (from, to) = (lo.saturating_sub(1), (hi + 1).min(h - 1));
        for y in from..=to {
            let mut n = frontier[y] << 1 | frontier[y] >> 1;
            if y > 0 {
                n |= frontier[y - 1];
            }
            if y + 1 < h {
                n |= frontier[y + 1];
            }
            if missing > 0 {
                for (i, &w) in wanted.iter().enumerate() {
                    if dist[i] == u16::MAX && w as usize / STRIDE == y && n >> (w as usize % STRIDE) & 1 != 0 {
                        dist[i] = k;
                        missing -= 1;
                    }
                }
            }
            let fresh = n & free[y] & !seen[y];
            if fresh != 0 {
                next[y] = fresh;
                seen[y] |= fresh;
                area += fresh.count_ones() as u16;
                new_lo = new_lo.min(y);
                new_hi = y;
                any = true;
            }
        }
        if !any || (missing == 0 && !wanted.is_empty()) {
            return Flood { dist, area };
        }
        frontier = next;
        (lo, hi) = (new_lo, new_hi);
    }
}
