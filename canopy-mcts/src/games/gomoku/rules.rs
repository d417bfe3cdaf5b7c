//! The rules: what counts as a win, the candidate moves, and the line masks used to find winning cells.
//!
//! # Lines
//!
//! Tactics (winning cells, threats) work on *lines*: for each of the four directions, every straight
//! line of the board is one `u32` mask with one bit per cell along the line. Direction 0 is horizontal
//! (line `y`, bit `x`), 1 vertical (line `x`, bit `y`), 2 the diagonal `(1, 1)` (line
//! `x - y + MAX_SIZE - 1`, bit `y`) and 3 the anti-diagonal `(1, -1)` (line `x + y`, bit `y`). Adjacent
//! bits are adjacent cells, so a run of stones is a run of set bits and a handful of shifts finds every
//! cell that completes a five ([`five_cells`]).

use super::board::{Cell, GomokuState, BLACK, MAX_SIZE, MIN_SIZE};

/// Which lines win, and which moves are forbidden.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more stones in a row win (an overline wins).
    #[default]
    Freestyle,
    /// Exactly five stones in a row win; six or more (an overline) do not, for either player.
    Standard,
    /// The renju rule (module `renju`): Black wins with exactly five and loses by playing a forbidden
    /// move (an overline, a double four or a double three); White wins with five or more and has no
    /// forbidden moves.
    Renju,
}

impl Rule {
    /// Whether a run of `length` stones in a row wins under this rule; under [`Rule::Renju`] this is
    /// Black's test (exactly five; see [`Rule::wins_for`]).
    #[inline]
    pub fn wins(self, length: usize) -> bool {
        match self {
            Rule::Freestyle => length >= 5,
            Rule::Standard | Rule::Renju => length == 5,
        }
    }

    /// Whether a run of `length` stones of `player` (0 = Black, 1 = White) wins under this rule: as
    /// [`Rule::wins`], except that under [`Rule::Renju`] White wins with five or more.
    #[inline]
    pub fn wins_for(self, player: usize, length: usize) -> bool {
        self.for_player(player).wins(length)
    }

    /// The rule that `player`'s lines follow: [`Rule::Renju`] is [`Rule::Standard`] (exactly five) for
    /// Black and [`Rule::Freestyle`] for White; the other rules are the same for both players. The line
    /// functions of module `rules` (`five_cells`, `open_four_cells`) take this per-player rule.
    #[inline]
    pub fn for_player(self, player: usize) -> Rule {
        match self {
            Rule::Renju if player == BLACK => Rule::Standard,
            Rule::Renju => Rule::Freestyle,
            other => other,
        }
    }

    /// Whether Black has forbidden moves (only under [`Rule::Renju`]).
    #[inline]
    pub fn has_fouls(self) -> bool {
        self == Rule::Renju
    }

    /// The rule's name as written in case files and on the command line (`freestyle`, `standard`,
    /// `renju`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }
}

impl std::str::FromStr for Rule {
    type Err = String;

    /// Parses `freestyle`, `standard` or `renju` (any case; `exact` is accepted for `standard`).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "free" => Ok(Rule::Freestyle),
            "standard" | "exact" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            other => Err(format!("unknown gomoku rule '{other}' (use freestyle, standard or renju)")),
        }
    }
}

/// The four line directions `(dx, dy)`: horizontal, vertical, diagonal, anti-diagonal.
pub(crate) const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Number of lines per direction in the line tables (the diagonals of the largest board).
pub(crate) const LINES: usize = 2 * MAX_SIZE - 1;

/// The line through `cell` in direction `d` (index into the line tables) and the cell's bit position on
/// it; see the module documentation.
#[inline]
pub(crate) fn line_of(cell: Cell, d: usize) -> (usize, u32) {
    line_of_xy(cell.x as usize, cell.y as usize, d)
}

/// [`line_of`] for the cell in column `x` and row `y`.
#[inline]
const fn line_of_xy(x: usize, y: usize, d: usize) -> (usize, u32) {
    match d {
        0 => (y, x as u32),
        1 => (x, y as u32),
        2 => (x + MAX_SIZE - 1 - y, y as u32),
        _ => (x + y, y as u32),
    }
}

/// The cell at bit `pos` of line `line` in direction `d` (the inverse of [`line_of`]).
#[inline]
pub(crate) fn cell_on_line(d: usize, line: usize, pos: u32) -> Cell {
    let pos = pos as usize;
    match d {
        0 => Cell::new(pos, line),
        1 => Cell::new(line, pos),
        2 => Cell::new(line + pos + 1 - MAX_SIZE, pos),
        _ => Cell::new(line - pos, pos),
    }
}

/// `LINE_CELLS[size][d][line]`: the bits of line `line` in direction `d` that are cells of a `size` x
/// `size` board (0 for lines that miss the board), for every supported size.
static LINE_CELLS: [[[u32; LINES]; 4]; MAX_SIZE + 1] = {
    let mut table = [[[0u32; LINES]; 4]; MAX_SIZE + 1];
    let mut size = MIN_SIZE;
    while size <= MAX_SIZE {
        let mut y = 0;
        while y < size {
            let mut x = 0;
            while x < size {
                let mut d = 0;
                while d < 4 {
                    let (l, i) = line_of_xy(x, y, d);
                    table[size][d][l] |= 1 << i;
                    d += 1;
                }
                x += 1;
            }
            y += 1;
        }
        size += 1;
    }
    table
};

/// The cells of one line where placing a stone completes a winning five, given the line's stones `m` of
/// one player and its empty cells `e` (bit per cell, see the module documentation).
///
/// For each window of five cells `s..s+5` and each `k < 5`, the window is four stones and the empty cell
/// `s + k`; under [`Rule::Standard`] the cells `s - 1` and `s + 5` must also not be the player's (else
/// the five would be an overline). Cells off the line are never stones, so board edges need no care.
/// `rule` is the player's own ([`Rule::for_player`]); [`Rule::Renju`] is read as Black's (exactly five).
#[inline]
pub(crate) fn five_cells(m: u32, e: u32, rule: Rule) -> u32 {
    let (m1, m2, m3, m4) = (m >> 1, m >> 2, m >> 3, m >> 4);
    let m12 = m1 & m2;
    let m34 = m3 & m4;
    let guard = match rule {
        Rule::Freestyle => !0,
        Rule::Standard | Rule::Renju => !(m << 1) & !(m >> 5),
    };
    let a0 = m12 & m34;
    let a1 = m & m2 & m34;
    let a2 = m & m1 & m34;
    let a3 = m & m12 & m4;
    let a4 = m & m12 & m3;
    ((a0 & guard) | (a1 & guard) << 1 | (a2 & guard) << 2 | (a3 & guard) << 3 | (a4 & guard) << 4) & e
}

/// The cells of one line where a stone makes a *straight four* `.XXXX.`: four stones in a row with an
/// empty cell at each end, so that two cells would then complete a five (an open four, which the
/// opponent can no longer stop with one stone). `m` are one player's stones on the line and `e` its
/// empty cells. Under [`Rule::Standard`] the cells beyond both ends must also not be the player's (else
/// one of the two fives would be an overline). `rule` is the player's own, as for [`five_cells`].
///
/// For each left end `s` (empty), right end `s + 5` (empty) and each `k < 4`, the inner cells
/// `s + 1 ..= s + 4` hold three stones and the empty cell `s + 1 + k`, which is the answer.
#[inline]
pub(crate) fn open_four_cells(m: u32, e: u32, rule: Rule) -> u32 {
    let ends = match rule {
        Rule::Freestyle => e & (e >> 5),
        Rule::Standard | Rule::Renju => e & (e >> 5) & !(m << 1) & !(m >> 6),
    };
    let (m1, m2, m3, m4) = (m >> 1, m >> 2, m >> 3, m >> 4);
    let (e1, e2, e3, e4) = (e >> 1, e >> 2, e >> 3, e >> 4);
    let m23 = m2 & m3;
    let t0 = ends & e1 & m23 & m4;
    let t1 = ends & m1 & e2 & m3 & m4;
    let t2 = ends & m1 & m2 & e3 & m4;
    let t3 = ends & m1 & m23 & e4;
    (t0 << 1 | t1 << 2 | t2 << 3 | t3 << 4) & e
}

/// The cells of one line where a stone makes a *four*: a window of five cells free of the opponent's
/// stones that then holds four of the player's and one empty cell, which completes a five (under
/// [`Rule::Standard`] the cells just outside the window must not be the player's, as for
/// [`five_cells`]). `m` are one player's stones on the line, `e` its empty cells, `rule` the player's
/// own. A straight-four cell ([`open_four_cells`]) is a four cell too. When the player already has a
/// winning cell on the line, a four cell need not add another one.
///
/// For each window `s..s+5` free of the opponent that holds exactly three stones (a bit-sliced count of
/// the five shifted masks), both of its empty cells are four cells.
#[inline]
pub(crate) fn four_cells(m: u32, e: u32, rule: Rule) -> u32 {
    let f = m | e;
    let free = f & f >> 1 & f >> 2 & f >> 3 & f >> 4;
    let (a, b, c, d, g) = (m, m >> 1, m >> 2, m >> 3, m >> 4);
    // Two full adders: a + b + c = s1 + 2 c1, s1 + d + g = s2 + 2 c2, so the window holds
    // s2 + 2 (c1 + c2) stones; exactly three when s2 = 1 and c1 + c2 = 1.
    let s1 = a ^ b ^ c;
    let c1 = (a & b) | (c & (a ^ b));
    let s2 = s1 ^ d ^ g;
    let c2 = (s1 & d) | (g & (s1 ^ d));
    let guard = match rule {
        Rule::Freestyle => !0,
        Rule::Standard | Rule::Renju => !(m << 1) & !(m >> 5),
    };
    let w = free & s2 & (c1 ^ c2) & guard;
    (w | w << 1 | w << 2 | w << 3 | w << 4) & e
}

/// The cells of one line where a stone makes an *open three*: afterwards some cell of the line makes a
/// straight four ([`open_four_cells`]), so that the opponent must answer. `m`, `e` and `rule` as for
/// [`four_cells`]. When the player already has a straight-four cell on the line, a three cell need not
/// add another one.
///
/// For each window of six cells `s..s+6` whose ends are empty (under [`Rule::Standard`] with the cells
/// beyond them not the player's) and whose four inner cells hold exactly two stones and two empty
/// cells, both inner empty cells are three cells: a stone on one leaves three stones and one empty cell
/// between two empty ends.
#[inline]
pub(crate) fn three_cells(m: u32, e: u32, rule: Rule) -> u32 {
    let ends = match rule {
        Rule::Freestyle => e & (e >> 5),
        Rule::Standard | Rule::Renju => e & (e >> 5) & !(m << 1) & !(m >> 6),
    };
    let f = m | e;
    let inner = f >> 1 & f >> 2 & f >> 3 & f >> 4;
    let (a, b, c, d) = (m >> 1, m >> 2, m >> 3, m >> 4);
    // Exactly two of a, b, c, d: one in each pair, or both of one pair and none of the other.
    let (x1, y1, x2, y2) = (a ^ b, a & b, c ^ d, c & d);
    let two = (x1 & x2) | (!(x1 | x2) & (y1 ^ y2));
    let w = ends & inner & two;
    (w << 1 | w << 2 | w << 3 | w << 4) & e
}

/// Every line of a position as bit masks: `stones[p][d][line]` and `empty[d][line]` (see the module
/// documentation). About 1.9 KB; built once per rollout or per agent decision, then kept up to date with
/// [`Lines::put`].
#[derive(Clone)]
pub(crate) struct Lines {
    /// `stones[p][d][line]`: player `p`'s stones on the line.
    pub stones: [[[u32; LINES]; 4]; 2],
    /// `empty[d][line]`: the empty board cells of the line.
    pub empty: [[u32; LINES]; 4],
}

impl Lines {
    /// The lines of `state`.
    #[inline]
    pub fn new(state: &GomokuState) -> Self {
        let size = state.size();
        let mut lines = Lines { stones: [[[0; LINES]; 4]; 2], empty: LINE_CELLS[size] };
        for p in 0..2 {
            for cell in state.stones(p) {
                lines.put(p, cell);
            }
        }
        lines
    }

    /// Puts a stone of `player` on the empty `cell`.
    #[inline]
    pub fn put(&mut self, player: usize, cell: Cell) {
        for d in 0..4 {
            let (l, i) = line_of(cell, d);
            self.stones[player][d][l] |= 1 << i;
            self.empty[d][l] &= !(1 << i);
        }
    }

    /// Takes the stone of `player` off `cell` (the inverse of [`Lines::put`]).
    #[inline]
    pub fn remove(&mut self, player: usize, cell: Cell) {
        for d in 0..4 {
            let (l, i) = line_of(cell, d);
            self.stones[player][d][l] &= !(1 << i);
            self.empty[d][l] |= 1 << i;
        }
    }

    /// The winning cells of `player` on line `line` of direction `d` under the game's `rule` (read for
    /// `player`, [`Rule::for_player`]).
    #[inline]
    pub fn five_cells(&self, player: usize, d: usize, line: usize, rule: Rule) -> u32 {
        five_cells(self.stones[player][d][line], self.empty[d][line], rule.for_player(player))
    }

    /// The cells where a stone of `player` makes a straight four on line `line` of direction `d`
    /// ([`open_four_cells`]; `rule` is the game's, read for `player`).
    #[inline]
    pub fn open_four_cells(&self, player: usize, d: usize, line: usize, rule: Rule) -> u32 {
        open_four_cells(self.stones[player][d][line], self.empty[d][line], rule.for_player(player))
    }

    /// The cells where a stone of `player` makes a four or an open three on line `line` of direction
    /// `d` ([`four_cells`] | [`three_cells`]; `rule` is the game's, read for `player`).
    #[inline]
    pub fn threat_cells(&self, player: usize, d: usize, line: usize, rule: Rule) -> u32 {
        let (m, e, rule) = (self.stones[player][d][line], self.empty[d][line], rule.for_player(player));
        four_cells(m, e, rule) | three_cells(m, e, rule)
    }

    /// Every cell where a stone of `player` completes a win now, in row-major order, without repeats.
    pub fn winning_cells(&self, player: usize, rule: Rule) -> Vec<Cell> {
        let mut cells = Vec::new();
        self.push_winning_cells(player, rule, &mut cells);
        cells
    }

    /// Appends to `cells` every cell where a stone of `player` completes a win now, then sorts `cells`
    /// row-major and removes repeats.
    pub fn push_winning_cells(&self, player: usize, rule: Rule, cells: &mut Vec<Cell>) {
        for d in 0..4 {
            for l in 0..LINES {
                let mut w = self.five_cells(player, d, l, rule);
                while w != 0 {
                    let i = w.trailing_zeros();
                    w &= w - 1;
                    cells.push(cell_on_line(d, l, i));
                }
            }
        }
        cells.sort_unstable_by_key(|c| (c.y, c.x));
        cells.dedup();
    }
}

/// Length of the run of `player`'s stones through `cell` in direction `(dx, dy)`, counting `cell` itself
/// as a stone of `player`.
pub(crate) fn run_through(state: &GomokuState, player: usize, cell: Cell, (dx, dy): (i32, i32)) -> usize {
    let size = state.size() as i32;
    let rows = &state.rows[player];
    let mut n = 1;
    for sign in [1, -1] {
        let (mut x, mut y) = (cell.x as i32, cell.y as i32);
        loop {
            x += sign * dx;
            y += sign * dy;
            if x < 0 || y < 0 || x >= size || y >= size || rows[y as usize] >> x & 1 == 0 {
                break;
            }
            n += 1;
        }
    }
    n
}

/// Whether a stone of `player` on `cell` makes a winning line under `rule` (looks only at the four
/// lines through `cell`). Under [`Rule::Renju`], Black's exact five wins even when the stone also makes
/// an overline on another line or a forbidden pattern (a five comes first).
pub(crate) fn wins_at(state: &GomokuState, player: usize, cell: Cell, rule: Rule) -> bool {
    DIRECTIONS.iter().any(|&dir| rule.wins_for(player, run_through(state, player, cell, dir)))
}

/// Whether `player` already holds a winning line anywhere on the board (used for positions built from a
/// stone list, which were not reached move by move).
pub(crate) fn holds_win(state: &GomokuState, player: usize, rule: Rule) -> bool {
    state.stones(player).any(|c| wins_at(state, player, c, rule))
}

/// Whether `player` holds a line of six or more anywhere on the board (under [`Rule::Renju`], Black's
/// overline: a forbidden move, which Black can only have made as the game's last).
pub(crate) fn holds_overline(state: &GomokuState, player: usize) -> bool {
    state.stones(player).any(|c| DIRECTIONS.iter().any(|&dir| run_through(state, player, c, dir) >= 6))
}

/// Fills `out` with the empty cells within Chebyshev distance `radius` of a stone, in row-major order
/// (nothing on an empty board).
pub(crate) fn near_stones(state: &GomokuState, radius: usize, out: &mut Vec<Cell>) {
    out.clear();
    let near = near_rows(state, radius);
    for (y, &row) in near.iter().enumerate().take(state.size()) {
        let mut free = row;
        while free != 0 {
            let x = free.trailing_zeros() as usize;
            free &= free - 1;
            out.push(Cell::new(x, y));
        }
    }
}

/// The empty cells within Chebyshev distance `radius` of a stone, as one bit mask per row (bit `x` of
/// row `y`).
pub(crate) fn near_rows(state: &GomokuState, radius: usize) -> [u32; MAX_SIZE] {
    let size = state.size();
    let full = (1u32 << size) - 1;
    // Dilate each row horizontally, then OR the dilated rows within `radius` vertically.
    let mut wide = [0u32; MAX_SIZE];
    for (y, w) in wide.iter_mut().enumerate().take(size) {
        let occ = state.occupied_row(y);
        let mut m = occ;
        for k in 1..=radius {
            m |= occ << k | occ >> k;
        }
        *w = m & full;
    }
    let mut rows = [0u32; MAX_SIZE];
    for (y, row) in rows.iter_mut().enumerate().take(size) {
        let lo = y.saturating_sub(radius);
        let hi = (y + radius).min(size - 1);
        let near = wide[lo..=hi].iter().fold(0, |a, &w| a | w);
        *row = near & !state.occupied_row(y);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `len` cells with each cell Black, White (the opponent: neither bit) or empty, as
    /// `(m, e)` masks.
    fn all_lines(len: u32) -> impl Iterator<Item = (u32, u32)> {
        (0..3u32.pow(len)).map(move |mut code| {
            let (mut m, mut e) = (0, 0);
            for i in 0..len {
                match code % 3 {
                    0 => e |= 1 << i,
                    1 => m |= 1 << i,
                    _ => {}
                }
                code /= 3;
            }
            (m, e)
        })
    }

    /// On every line of nine cells, the four cells are exactly the empty cells where a stone adds a
    /// winning cell, and the three cells those where it adds a straight-four cell (on lines without
    /// such cells before, where "adds" is "makes").
    #[test]
    fn four_and_three_cells_agree_with_the_definitions() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            for (m, e) in all_lines(9) {
                let (fives, straight) = (five_cells(m, e, rule), open_four_cells(m, e, rule));
                let (fours, threes) = (four_cells(m, e, rule), three_cells(m, e, rule));
                assert_eq!(fours & !e, 0);
                assert_eq!(threes & !e, 0);
                for i in 0..9 {
                    let bit = 1 << i;
                    if e & bit == 0 {
                        continue;
                    }
                    let (m2, e2) = (m | bit, e & !bit);
                    if fives == 0 {
                        let makes_four = five_cells(m2, e2, rule) != 0;
                        assert_eq!(fours & bit != 0, makes_four, "{rule:?} m {m:09b} e {e:09b} cell {i}");
                    }
                    if straight == 0 {
                        let makes_three = open_four_cells(m2, e2, rule) != 0;
                        assert_eq!(threes & bit != 0, makes_three, "{rule:?} m {m:09b} e {e:09b} cell {i}");
                    }
                }
            }
        }
    }
}
