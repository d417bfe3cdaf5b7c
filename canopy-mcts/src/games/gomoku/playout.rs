//! The rollout policy: win if you can, else block the opponent's win, else (with the threat policy)
//! make a straight four, else stop the opponent's straight four, else (with the attack policy) make a
//! double threat or take the opponent's, else a random cell near the stones.
//!
//! A [`Playout`] is built once per rollout from a [`GomokuState`] and then updated stone by stone with no
//! allocation. It keeps:
//!
//! - the line masks of the position ([`Lines`]),
//! - for each player, direction and line, the cells where that player completes a win
//!   ([`Lines::five_cells`]); a player's winning cells depend only on that player's stones and on which cells
//!   are empty, so a stone changes its owner's winning cells only on the four lines through it, and the
//!   opponent's only by filling one of them,
//! - with [`RolloutPolicy::Threats`], the same per line for the cells where a player makes a straight
//!   four ([`Lines::open_four_cells`]), recomputed for both players on the four lines through each stone,
//! - with [`RolloutPolicy::Attacks`], per player, direction and line the cells where a stone makes a
//!   four or an open three ([`Lines::threat_cells`]), and the same cells as one row mask per player and
//!   direction, so that the cells on such lines in two directions at once (the double threats: 4-4,
//!   4-3, 3-3) are a few masks per row,
//! - the candidate cells (empty, within Chebyshev distance `rollout_radius` of a stone) as a dense array
//!   with a position index, so that a uniform draw, an insertion and a removal each take constant time.
//!
//! Under the renju rule Black never plays a forbidden cell (module `renju`): a block, a straight four or
//! a random cell that is forbidden for Black is passed over (a block that Black cannot make loses
//! anyway, one move later), and when every candidate is forbidden Black plays one and loses
//! ([`Choice::Foul`]).

use super::board::{Cell, GomokuState, BLACK, MAX_SIZE, WHITE};
use super::renju;
use super::rules::{cell_on_line, line_of, Lines, Rule, DIRECTIONS, LINES};
use crate::rng::{below, Rng};

/// Which rollout policy a [`super::Gomoku`] plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RolloutPolicy {
    /// Win if possible, else block the opponent's five, else a uniform random candidate.
    Basic,
    /// As `Basic`, and before the random move: make a straight four (`.XXXX.`) if possible, else take a
    /// cell where the opponent would make one (answering an open three).
    Threats,
    /// As `Threats`, and before the random move: make a double threat (a cell that makes a four or an
    /// open three on two lines at once: 4-4, 4-3, 3-3) if possible, else take a cell where the opponent
    /// would make one. Rollouts then play the slow attacks that `Threats` plays only by chance. The
    /// default: it beats `Threats` at equal time (docs/gomoku.md, "Attack rollouts").
    #[default]
    Attacks,
    /// A uniformly random empty cell anywhere on the board until a five or a full board: the classic
    /// plain-MCTS playout, with no tactics (see `uniform_run`). For throughput comparisons.
    Uniform,
}

// The per-direction line masks hold one bit per line.
const _: () = assert!(LINES <= 64);

/// Whether any line of a `[direction] -> line bits` mask is set.
#[inline]
fn any(mask: &[u64; 4]) -> bool {
    (mask[0] | mask[1] | mask[2] | mask[3]) != 0
}

/// Most straight-four (or double-threat) cells gathered for a uniform draw among them.
const MAX_FOUR_CELLS: usize = 16;

/// What the policy plays next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// A cell that wins at once for the player to move.
    Win(Cell),
    /// A cell where the opponent would win next move.
    Block(Cell),
    /// A cell where the player to move makes a straight four.
    OpenFour(Cell),
    /// A cell where the opponent would make a straight four.
    BlockFour(Cell),
    /// A cell where the player to move makes a four or an open three on two lines at once.
    DoubleThreat(Cell),
    /// A cell where the opponent would make a double threat.
    BlockDoubleThreat(Cell),
    /// A random candidate cell.
    Random(Cell),
    /// Under renju, a forbidden cell that Black must play because every candidate is forbidden: Black
    /// loses.
    Foul(Cell),
    /// No cell is left: the board is full.
    Full,
}

/// The working state of one rollout (about 6.6 KB, on the stack).
pub(crate) struct Playout {
    lines: Lines,
    /// `wins[p][d][line]`: cells where player `p` completes a win, per line.
    wins: [[[u32; LINES]; 4]; 2],
    /// `win_mask[p][d]` has bit `line` set when `wins[p][d][line]` is non-zero: all zero exactly when `p`
    /// has no winning cell, and the lines holding one are found without scanning the table.
    win_mask: [[u64; 4]; 2],
    /// `fours[p][d][line]`: cells where player `p` makes a straight four, per line (kept only with
    /// [`RolloutPolicy::Threats`]).
    fours: [[[u32; LINES]; 4]; 2],
    /// `four_mask[p][d]` has bit `line` set when `fours[p][d][line]` is non-zero.
    four_mask: [[u64; 4]; 2],
    /// `threat_lines[p][d][line]`: cells where player `p` makes a four or an open three, per line (kept
    /// only with [`RolloutPolicy::Attacks`]).
    threat_lines: [[[u32; LINES]; 4]; 2],
    /// `threat_rows[p][d][y]` has bit `x` set when cell `(x, y)` is in `threat_lines[p][d]` (each cell
    /// lies on one line per direction).
    threat_rows: [[[u32; MAX_SIZE]; 4]; 2],
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
    threats: bool,
    /// Whether the threat tables are kept ([`RolloutPolicy::Attacks`]).
    attacks: bool,
    /// Whether Black has forbidden moves (renju).
    fouls: bool,
}

/// Random draws tried before the candidates are scanned in order for a cell that Black may play.
const FOUL_DRAWS: usize = 8;

impl Playout {
    /// The working state for `state` with candidate cells within Chebyshev distance `radius` (>= 1) of a
    /// stone.
    pub fn new(state: &GomokuState, rule: Rule, radius: usize, policy: RolloutPolicy) -> Self {
        debug_assert!(radius >= 1);
        let size = state.size();
        // Built in place and filled stone by stone: the structure is too big to copy around cheaply.
        let mut playout = Playout {
            lines: Lines::new(state),
            wins: [[[0; LINES]; 4]; 2],
            win_mask: [[0; 4]; 2],
            fours: [[[0; LINES]; 4]; 2],
            four_mask: [[0; 4]; 2],
            threat_lines: [[[0; LINES]; 4]; 2],
            threat_rows: [[[0; MAX_SIZE]; 4]; 2],
            cand: [Cell { x: 0, y: 0 }; MAX_SIZE * MAX_SIZE],
            len: 0,
            in_cand: [0; MAX_SIZE],
            pos: [0; MAX_SIZE * MAX_SIZE],
            count: state.stone_count(),
            mover: state.mover(),
            size,
            rule,
            radius,
            threats: matches!(policy, RolloutPolicy::Threats | RolloutPolicy::Attacks),
            attacks: policy == RolloutPolicy::Attacks,
            fouls: rule.has_fouls(),
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
                        playout.win_mask[p][d] |= ((w != 0) as u64) << l;
                        if playout.threats {
                            let f = playout.lines.open_four_cells(p, d, l, rule);
                            playout.fours[p][d][l] = f;
                            playout.four_mask[p][d] |= ((f != 0) as u64) << l;
                        }
                        if playout.attacks {
                            playout.set_threats(p, d, l);
                        }
                    }
                }
            }
        }
        playout
    }

    /// The policy's move for the player to move: a winning cell, else a cell blocking the opponent's
    /// win, else (threat policy) a straight four, else a cell taking the opponent's straight four, else
    /// (attack policy) a double threat, else a cell taking the opponent's double threat, else a uniform
    /// draw among the candidates (the centre on an empty board).
    #[inline]
    pub fn choose(&self, rng: &mut Rng) -> Choice {
        if self.fouls && self.mover == BLACK {
            return self.choose_black_renju(rng);
        }
        let p = self.mover;
        if any(&self.win_mask[p]) {
            return Choice::Win(self.first_win(p));
        }
        if any(&self.win_mask[1 - p]) {
            return Choice::Block(self.first_win(1 - p));
        }
        if any(&self.four_mask[p]) {
            return Choice::OpenFour(self.random_four(p, rng));
        }
        if any(&self.four_mask[1 - p]) {
            return Choice::BlockFour(self.random_four(1 - p, rng));
        }
        if self.attacks {
            if let Some(c) = self.random_double_threat(p, rng, |_| true) {
                return Choice::DoubleThreat(c);
            }
            // Under renju (White to move here) Black's double threats that are forbidden for Black are
            // no threat.
            if let Some(c) = self.random_double_threat(1 - p, rng, |c| !self.fouls || !self.forbidden(c)) {
                return Choice::BlockDoubleThreat(c);
            }
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

    /// [`Playout::choose`] for Black under renju: the same order, each answer passed over when it is
    /// forbidden for Black.
    fn choose_black_renju(&self, rng: &mut Rng) -> Choice {
        let (p, q) = (BLACK, WHITE);
        if any(&self.win_mask[p]) {
            // A five is never forbidden.
            return Choice::Win(self.first_win(p));
        }
        if any(&self.win_mask[q]) {
            let c = self.first_win(q);
            if !self.forbidden(c) {
                return Choice::Block(c);
            }
        }
        if any(&self.four_mask[p]) {
            if let Some(c) = self.random_four_allowed(p, rng) {
                return Choice::OpenFour(c);
            }
        }
        if any(&self.four_mask[q]) {
            if let Some(c) = self.random_four_allowed(q, rng) {
                return Choice::BlockFour(c);
            }
        }
        if self.attacks {
            // Black's own 4-4 and 3-3 are forbidden: what is left is its 4-3.
            if let Some(c) = self.random_double_threat(p, rng, |c| !self.forbidden(c)) {
                return Choice::DoubleThreat(c);
            }
            if let Some(c) = self.random_double_threat(q, rng, |c| !self.forbidden(c)) {
                return Choice::BlockDoubleThreat(c);
            }
        }
        if self.len > 0 {
            for _ in 0..FOUL_DRAWS {
                let c = self.cand[below(rng, self.len)];
                if !self.forbidden(c) {
                    return Choice::Random(c);
                }
            }
            return match self.cand[..self.len].iter().find(|&&c| !self.forbidden(c)) {
                Some(&c) => Choice::Random(c),
                None => Choice::Foul(self.cand[0]),
            };
        }
        if self.count == 0 {
            return Choice::Random(Cell::new(self.size / 2, self.size / 2));
        }
        Choice::Full
    }

    /// Whether a Black stone on the empty `cell` is forbidden.
    #[inline]
    fn forbidden(&self, cell: Cell) -> bool {
        renju::foul(&self.lines, cell).is_some()
    }

    /// A uniform draw among (up to [`MAX_FOUR_CELLS`] of) the cells where `player` makes a straight four
    /// that are not forbidden for Black, or `None` when there is none.
    fn random_four_allowed(&self, player: usize, rng: &mut Rng) -> Option<Cell> {
        self.random_four_where(player, rng, |c| !self.forbidden(c))
    }

    /// A uniform draw among (up to [`MAX_FOUR_CELLS`] of) the cells where `player` makes a straight four
    /// and `keep` holds, in line-table order; `None` when there is none.
    #[inline(always)]
    fn random_four_where(&self, player: usize, rng: &mut Rng, keep: impl Fn(Cell) -> bool) -> Option<Cell> {
        let mut cells = [Cell { x: 0, y: 0 }; MAX_FOUR_CELLS];
        let mut n = 0;
        'scan: for d in 0..4 {
            let mut lines = self.four_mask[player][d];
            while lines != 0 {
                let l = lines.trailing_zeros() as usize;
                lines &= lines - 1;
                let mut f = self.fours[player][d][l];
                while f != 0 {
                    let c = cell_on_line(d, l, f.trailing_zeros());
                    f &= f - 1;
                    if keep(c) {
                        cells[n] = c;
                        n += 1;
                        if n == MAX_FOUR_CELLS {
                            break 'scan;
                        }
                    }
                }
            }
        }
        (n > 0).then(|| cells[below(rng, n)])
    }

    /// A uniform draw among (up to [`MAX_FOUR_CELLS`] of) the cells where `player` makes a four or an
    /// open three on two lines of different directions at once and `keep` holds, in row-major order;
    /// `None` when there is none.
    #[inline]
    fn random_double_threat(&self, player: usize, rng: &mut Rng, keep: impl Fn(Cell) -> bool) -> Option<Cell> {
        let [r0, r1, r2, r3] = &self.threat_rows[player];
        let mut cells = [Cell { x: 0, y: 0 }; MAX_FOUR_CELLS];
        let mut n = 0;
        let rows = r0.iter().zip(r1).zip(r2).zip(r3).take(self.size);
        'scan: for (y, (((&a, &b), &c), &d)) in rows.enumerate() {
            // The bits set in at least two of the four masks.
            let mut two = (a & b) | (c & d) | ((a | b) & (c | d));
            while two != 0 {
                let cell = Cell { x: two.trailing_zeros() as u8, y: y as u8 };
                two &= two - 1;
                if keep(cell) {
                    cells[n] = cell;
                    n += 1;
                    if n == MAX_FOUR_CELLS {
                        break 'scan;
                    }
                }
            }
        }
        (n > 0).then(|| cells[below(rng, n)])
    }

    /// Recomputes `player`'s four and open-three cells on line `line` of direction `d`, and their row
    /// masks.
    #[inline]
    fn set_threats(&mut self, player: usize, d: usize, line: usize) {
        let new = self.lines.threat_cells(player, d, line, self.rule);
        let mut changed = self.threat_lines[player][d][line] ^ new;
        self.threat_lines[player][d][line] = new;
        while changed != 0 {
            let c = cell_on_line(d, line, changed.trailing_zeros());
            changed &= changed - 1;
            self.threat_rows[player][d][c.y as usize] ^= 1 << c.x;
        }
    }

    /// The first winning cell of `player` in line-table order.
    ///
    /// # Panics
    /// Panics when `player` has none.
    fn first_win(&self, player: usize) -> Cell {
        for d in 0..4 {
            let lines = self.win_mask[player][d];
            if lines != 0 {
                let l = lines.trailing_zeros() as usize;
                return cell_on_line(d, l, self.wins[player][d][l].trailing_zeros());
            }
        }
        unreachable!("win_mask says player {player} has a winning cell")
    }

    /// A uniform draw among (up to [`MAX_FOUR_CELLS`] of) the cells where `player` makes a straight four.
    ///
    /// # Panics
    /// Panics when `player` has none.
    fn random_four(&self, player: usize, rng: &mut Rng) -> Cell {
        self.random_four_where(player, rng, |_| true)
            .unwrap_or_else(|| panic!("four_mask says player {player} has a straight-four cell"))
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
            let line_bit = 1u64 << l;
            let theirs = self.wins[q][d][l];
            if theirs & bit != 0 {
                self.wins[q][d][l] = theirs & !bit;
                if theirs == bit {
                    self.win_mask[q][d] &= !line_bit;
                }
            }
            let new = self.lines.five_cells(p, d, l, self.rule);
            self.wins[p][d][l] = new;
            self.win_mask[p][d] = (self.win_mask[p][d] & !line_bit) | ((new != 0) as u64) << l;
            if self.threats {
                for who in [p, q] {
                    let new = self.lines.open_four_cells(who, d, l, self.rule);
                    self.fours[who][d][l] = new;
                    self.four_mask[who][d] = (self.four_mask[who][d] & !line_bit) | ((new != 0) as u64) << l;
                }
            }
            if self.attacks {
                self.set_threats(p, d, l);
                self.set_threats(q, d, l);
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
                Choice::Foul(_) => return Some(WHITE),
                Choice::Block(c)
                | Choice::OpenFour(c)
                | Choice::BlockFour(c)
                | Choice::DoubleThreat(c)
                | Choice::BlockDoubleThreat(c)
                | Choice::Random(c) => self.play(c),
                Choice::Full => return None,
            }
        }
    }
}

/// Length of the run of `player`'s stones through `(x, y)` along `(dx, dy)`, the cell itself included.
#[inline]
fn run_length(rows: &[u32; MAX_SIZE], size: i32, x: i32, y: i32, (dx, dy): (i32, i32)) -> usize {
    let mut n = 1;
    for sign in [1, -1] {
        let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
        while cx >= 0 && cx < size && cy >= 0 && cy < size && (rows[cy as usize] >> cx) & 1 == 1 {
            n += 1;
            cx += sign * dx;
            cy += sign * dy;
        }
    }
    n
}

/// Plays uniformly random empty cells from `state` (not terminal) until a stone makes a winning line
/// under `rule` or the board is full; returns the winner (`None`: a draw). `played` sees each stone's
/// cell in order (the tests replay them through the full rules).
///
/// The empty cells are drawn without replacement from a shuffled-on-the-fly array (a partial
/// Fisher-Yates shuffle), and only the four lines through each new stone are checked: about 40 bit tests
/// per move, no allocation. Under renju, Black's draw passes over forbidden cells (a few more draws,
/// then the first allowed cell in the array); when every empty cell is forbidden, Black plays one and
/// loses.
pub(crate) fn uniform_run(
    state: &GomokuState,
    rule: Rule,
    rng: &mut Rng,
    mut played: impl FnMut(Cell),
) -> Option<usize> {
    let size = state.size();
    let mut rows = state.rows;
    let mut cells = [0u16; MAX_SIZE * MAX_SIZE];
    let mut n = 0;
    for (y, (black, white)) in rows[0].iter().zip(&rows[1]).take(size).enumerate() {
        let occupied = black | white;
        for x in 0..size {
            if (occupied >> x) & 1 == 0 {
                cells[n] = (y * MAX_SIZE + x) as u16;
                n += 1;
            }
        }
    }
    let mut mover = state.mover();
    let mut lines = rule.has_fouls().then(|| Lines::new(state));
    while n > 0 {
        let mut i = below(rng, n);
        if let (Some(lines), BLACK) = (&lines, mover) {
            let allowed = |k: usize| {
                let c = cells[k] as usize;
                renju::foul(lines, Cell::new(c % MAX_SIZE, c / MAX_SIZE)).is_none()
            };
            if !allowed(i) {
                let again = (0..FOUL_DRAWS).map(|_| below(rng, n)).find(|&k| allowed(k));
                match again.or_else(|| (0..n).find(|&k| allowed(k))) {
                    Some(k) => i = k,
                    None => {
                        let c = cells[i] as usize;
                        played(Cell::new(c % MAX_SIZE, c / MAX_SIZE));
                        return Some(WHITE);
                    }
                }
            }
        }
        let c = cells[i] as usize;
        cells[i] = cells[n - 1];
        n -= 1;
        let (x, y) = (c % MAX_SIZE, c / MAX_SIZE);
        rows[mover][y] |= 1 << x;
        played(Cell::new(x, y));
        if let Some(lines) = &mut lines {
            lines.put(mover, Cell::new(x, y));
        }
        let wins = DIRECTIONS
            .iter()
            .any(|&d| rule.wins_for(mover, run_length(&rows[mover], size as i32, x as i32, y as i32, d)));
        if wins {
            return Some(mover);
        }
        mover ^= 1;
    }
    None
}

/// A uniformly random empty cell of `state`, or `None` when the board is full.
pub(crate) fn uniform_cell(state: &GomokuState, rng: &mut Rng) -> Option<Cell> {
    let size = state.size();
    let empty = size * size - state.stone_count();
    if empty == 0 {
        return None;
    }
    let mut k = below(rng, empty);
    for (y, (black, white)) in state.rows[0].iter().zip(&state.rows[1]).take(size).enumerate() {
        let occupied = black | white;
        for x in 0..size {
            if (occupied >> x) & 1 == 0 {
                if k == 0 {
                    return Some(Cell::new(x, y));
                }
                k -= 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::{Gomoku, Rule};
    use crate::rng::seeded;

    /// A uniform playout ends exactly where the full rules say the game ends, with the same winner.
    #[test]
    fn uniform_run_agrees_with_the_rules() {
        use crate::game::Game;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for size in [5, 9, 15] {
                let game = Gomoku::new(size, rule);
                for seed in 0..200 {
                    let mut rng = seeded(seed, 1);
                    let start = if seed % 2 == 0 { game.new_game() } else { game.from_moves("2,2 3,3 2,3").unwrap() };
                    let mut moves = Vec::new();
                    let winner = uniform_run(&start, rule, &mut rng, |c| moves.push(c));
                    let mut state = start.clone();
                    for (i, &c) in moves.iter().enumerate() {
                        assert!(!state.is_terminal(), "{rule:?} {size} seed {seed}: moves after the end");
                        assert!(state.is_empty_cell(c), "{rule:?} {size} seed {seed}: {c} is occupied");
                        if state.mover() == crate::games::gomoku::BLACK && game.foul(&state, c).is_some() {
                            // Black plays a forbidden cell only when every empty cell is one.
                            let mut legal = Vec::new();
                            game.legal_actions(&state, &mut legal);
                            assert!(legal.iter().all(|&e| game.foul(&state, e).is_some()), "seed {seed}: {c}\n{state}");
                        }
                        game.apply(&mut state, c);
                        if i + 1 < moves.len() {
                            assert_eq!(state.winner(), None, "{rule:?} {size} seed {seed}: the run missed a win");
                        }
                    }
                    assert!(state.is_terminal(), "{rule:?} {size} seed {seed}: the run stopped early");
                    assert_eq!(state.winner(), winner, "{rule:?} {size} seed {seed}");
                }
            }
        }
    }

    /// In how many directions a stone of `player` on the empty `cell` makes a four (adds a winning
    /// cell) or an open three (adds a straight-four cell), from the line functions' definitions.
    fn threat_directions(lines: &Lines, rule: Rule, player: usize, cell: Cell) -> usize {
        use crate::games::gomoku::rules::{five_cells, open_four_cells};
        let rule = rule.for_player(player);
        (0..4)
            .filter(|&d| {
                let (l, i) = line_of(cell, d);
                let (m, e) = (lines.stones[player][d][l], lines.empty[d][l]);
                let (m2, e2) = (m | 1 << i, e & !(1 << i));
                five_cells(m2, e2, rule) & !five_cells(m, e, rule) != 0
                    || open_four_cells(m2, e2, rule) & !open_four_cells(m, e, rule) != 0
            })
            .count()
    }

    /// The incrementally kept winning cells equal those computed from scratch after every move.
    #[test]
    fn incremental_wins_match_scratch() {
        let runs = [
            (Rule::Freestyle, 1, RolloutPolicy::Basic),
            (Rule::Standard, 1, RolloutPolicy::Threats),
            (Rule::Freestyle, 1, RolloutPolicy::Threats),
            (Rule::Freestyle, 3, RolloutPolicy::Threats),
            (Rule::Standard, 20, RolloutPolicy::Basic),
            (Rule::Renju, 1, RolloutPolicy::Threats),
            (Rule::Renju, 2, RolloutPolicy::Basic),
            (Rule::Freestyle, 1, RolloutPolicy::Attacks),
            (Rule::Standard, 2, RolloutPolicy::Attacks),
            (Rule::Renju, 1, RolloutPolicy::Attacks),
        ];
        for (rule, radius, policy) in runs {
            let game = Gomoku::new(9, rule);
            let mut doubles = 0;
            for seed in 0..100 {
                let mut rng = seeded(seed, 0);
                let mut state = game.new_game();
                let mut playout = Playout::new(&state, rule, radius, policy);
                loop {
                    let scratch = Playout::new(&state, rule, radius, policy);
                    assert_eq!(playout.wins, scratch.wins, "seed {seed}\n{state}");
                    assert_eq!(playout.win_mask, scratch.win_mask);
                    assert_eq!(playout.fours, scratch.fours, "seed {seed}\n{state}");
                    assert_eq!(playout.four_mask, scratch.four_mask);
                    assert_eq!(playout.threat_lines, scratch.threat_lines, "seed {seed}\n{state}");
                    assert_eq!(playout.threat_rows, scratch.threat_rows, "seed {seed}\n{state}");
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
                        Choice::OpenFour(c) => {
                            let mut next = state.clone();
                            crate::Game::apply(&game, &mut next, c);
                            assert!(game.winning_moves(&next, state.mover()).len() >= 2, "{c}\n{next}");
                            playout.play(c);
                            state = next;
                        }
                        choice @ (Choice::DoubleThreat(c) | Choice::BlockDoubleThreat(c)) => {
                            assert_eq!(policy, RolloutPolicy::Attacks);
                            let mine = matches!(choice, Choice::DoubleThreat(_));
                            let who = if mine { state.mover() } else { 1 - state.mover() };
                            if who == crate::games::gomoku::BLACK {
                                assert!(game.foul(&state, c).is_none(), "{c}\n{state}");
                            }
                            let lines = Lines::new(&state);
                            assert!(threat_directions(&lines, rule, who, c) >= 2, "{c} for {who}\n{state}");
                            doubles += 1;
                            playout.play(c);
                            crate::Game::apply(&game, &mut state, c);
                            assert!(state.winner().is_none());
                        }
                        Choice::Random(c) => {
                            if policy == RolloutPolicy::Attacks {
                                // No double threat of either side was passed over, but for the cells
                                // forbidden for Black under renju: Black cannot take them, and Black's
                                // own there are no threat.
                                let lines = Lines::new(&state);
                                let mut empty = Vec::new();
                                crate::Game::legal_actions(&game, &state, &mut empty);
                                for e in empty {
                                    for who in [BLACK, WHITE] {
                                        let black = who == BLACK || state.mover() == BLACK;
                                        let allowed = !black || game.foul(&state, e).is_none();
                                        if allowed {
                                            assert!(
                                                threat_directions(&lines, rule, who, e) < 2,
                                                "{e} for {who}\n{state}"
                                            );
                                        }
                                    }
                                }
                            }
                            playout.play(c);
                            crate::Game::apply(&game, &mut state, c);
                            assert!(state.winner().is_none());
                        }
                        Choice::Block(c) | Choice::BlockFour(c) => {
                            playout.play(c);
                            crate::Game::apply(&game, &mut state, c);
                            assert!(state.winner().is_none());
                        }
                        Choice::Full => {
                            assert!(state.is_full());
                            break;
                        }
                        Choice::Foul(c) => {
                            assert_eq!(rule, Rule::Renju);
                            crate::Game::apply(&game, &mut state, c);
                            assert_eq!(state.winner(), Some(crate::games::gomoku::WHITE));
                            break;
                        }
                    }
                }
            }
            if policy == RolloutPolicy::Attacks {
                assert!(doubles > 0, "{rule:?}: no double threat played in 100 rollouts");
            }
        }
    }
}
