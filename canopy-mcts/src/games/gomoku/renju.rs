//! The renju rule: Black's forbidden moves (*fouls*), found on the line masks of module `rules`.
//!
//! # The rule
//!
//! Under [`Rule::Renju`](super::Rule::Renju) (the international rules of the Renju International
//! Federation, RIF, <https://www.renju.net/rifrules/>, as Gomocup's renju tournaments play them):
//!
//! - Black, who moves first, wins only with exactly five in a row; White wins with five or more.
//! - Black may not play an *overline* (six or more in a row), a *double four* (one stone that makes two
//!   fours or more, also two fours on one line: `X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`) or a *double three*
//!   (one stone that makes two real threes or more). Such a move loses: White wins.
//! - A stone that makes an exact five is never forbidden, whatever else it makes (the five comes first).
//!   An overline is not a five.
//! - White has no forbidden moves.
//!
//! The definitions, for a Black stone on one line through the cell `c` just played:
//!
//! - a **five** is a run of exactly five Black stones through `c`; an **overline** a run of six or more;
//! - a **four** is a window of five cells holding `c`, four Black stones and one empty cell, whose
//!   filling makes an exact five (the cells just outside the window are not Black). A *straight four*
//!   `.XXXX.` has two such windows and counts as one four; two windows on one line with different empty
//!   cells that are not a straight four are two fours (the double four on one line);
//! - a **three** is a line where one more Black stone makes a straight four that holds `c`: a window of
//!   six cells, empty at both ends, with `c`, two more Black stones and one empty cell inside (the *four
//!   cell*), whose two fives would be exact (the cells just outside the window are not Black);
//! - a three is **real** when at least one of its four cells is not itself forbidden for Black *with `c`
//!   on the board* — checked recursively: the four cell is tried as a Black stone, and its own threes are
//!   real only if one of *their* four cells passes the same test, and so on (each level adds a stone, so
//!   the recursion ends). A four cell where Black would make a five does not make the three real either
//!   (Black then has a four, not a three, there). Only real threes count for the double three; a move
//!   making one four and one real three (a *four-three*) is allowed, a four and two real threes is a
//!   double three.
//!
//! # Source
//!
//! The order of the tests (five, then overline, then double four, then double three with the recursion
//! above, a five at a four cell counting as forbidden inside the recursion) is that of the judge of
//! Piskvork, the Gomocup manager (its `foul` routine, also published on PyPI as the `renju` package's
//! `check_forbid.py`): the forbidden-move tests of canopy are cross-checked against that package on the
//! positions of tests/data/renju.tsv and on random games. The RIF rules (articles on fouls) define the
//! same patterns.
//!
//! # Cost
//!
//! [`foul`] first looks at the four lines through the cell: a foul needs two lines with a three or a four
//! in reach (enough Black stones near the cell on a stretch free of White stones), or one line with four
//! Black stones within five cells. Most cells fail that at once. The rest run the tests on the four lines
//! (five, overline, double four, the four cells of the threes); only a possible double three copies the
//! line masks, to try the four cells recursively.

use super::board::{Cell, GomokuState, BLACK};
use super::rules::{cell_on_line, five_cells, line_of, open_four_cells, Lines, Rule, DIRECTIONS};

/// Why a Black move is forbidden under the renju rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    /// Six or more Black stones in a row (and no exact five).
    Overline,
    /// Two fours or more at once (and no five or overline).
    DoubleFour,
    /// Two real threes or more at once (and no five, overline or double four).
    DoubleThree,
}

impl Foul {
    /// The foul's name: `overline`, `double-four` or `double-three`.
    pub fn name(self) -> &'static str {
        match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double-four",
            Foul::DoubleThree => "double-three",
        }
    }
}

impl std::fmt::Display for Foul {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a Black stone on a cell makes, in the order of the tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Nothing forbidden and no five.
    Allowed,
    /// An exact five (never forbidden; inside the recursion, a four cell that does not count).
    Five,
    /// A forbidden move.
    Foul(Foul),
}

/// Whether a Black stone on the empty `cell` is forbidden under the renju rule, and why; `None` when it
/// is allowed (a five is always allowed). `lines` are the position's line masks without the stone.
#[inline]
pub(crate) fn foul(lines: &Lines, cell: Cell) -> Option<Foul> {
    let through = lines_through(lines, cell);
    if !may_foul(&through) {
        return None;
    }
    match first_tests(&through) {
        Ok(verdict) => as_foul(verdict),
        // Only a possible double three is left: it needs the recursion, on a copy of the lines.
        Err(fills) => as_foul(count_threes(&mut lines.clone(), cell, &fills)),
    }
}

/// Whether a Black stone on the empty `cell` of `state` is forbidden under the renju rule (see [`foul`]),
/// read from the rows; the line masks of the whole board are built only when a double three is to be
/// checked.
pub(crate) fn foul_in(state: &GomokuState, cell: Cell) -> Option<Foul> {
    let through = std::array::from_fn(|d| line_through(state, cell, d));
    if !may_foul(&through) {
        return None;
    }
    match first_tests(&through) {
        Ok(verdict) => as_foul(verdict),
        Err(fills) => as_foul(count_threes(&mut Lines::new(state), cell, &fills)),
    }
}

/// The foul of a verdict, if it is one.
fn as_foul(verdict: Verdict) -> Option<Foul> {
    match verdict {
        Verdict::Foul(f) => Some(f),
        Verdict::Allowed | Verdict::Five => None,
    }
}

/// The line of direction `d` through `cell` read from `state`'s rows, as in [`Lines`] with a Black stone
/// on `cell`: Black's stones, the empty cells, and `cell`'s bit.
fn line_through(state: &GomokuState, cell: Cell, d: usize) -> (u32, u32, u32) {
    let (dx, dy) = DIRECTIONS[d];
    let (_, i) = line_of(cell, d);
    let size = state.size() as i32;
    let (mut m, mut e) = (1u32 << i, 0u32);
    for sign in [1, -1] {
        let (mut x, mut y) = (cell.x as i32 + sign * dx, cell.y as i32 + sign * dy);
        while x >= 0 && y >= 0 && x < size && y < size {
            let (_, k) = line_of(Cell { x: x as u8, y: y as u8 }, d);
            let (bx, bw) = (state.rows[BLACK][y as usize] >> x & 1, state.rows[1 - BLACK][y as usize] >> x & 1);
            m |= bx << k;
            e |= (1 - (bx | bw)) << k;
            x += sign * dx;
            y += sign * dy;
        }
    }
    (m, e, i)
}

/// Removes from `cells` the cells where a Black stone is forbidden; returns how many were removed.
pub(crate) fn retain_allowed(lines: &Lines, cells: &mut Vec<Cell>) -> usize {
    let before = cells.len();
    cells.retain(|&c| foul(lines, c).is_none());
    before - cells.len()
}

/// The bits within `r` cells of bit `i` on a line, `i` itself left out.
#[inline]
fn around(i: u32, r: u32) -> u32 {
    let lo = i.saturating_sub(r);
    let hi = (i + r).min(31);
    let span = ((1u64 << (hi + 1)) - (1u64 << lo)) as u32;
    span & !(1 << i)
}

/// The four lines through `cell` as `(stones, empty, bit)` with a Black stone on `cell`: Black's stones
/// (`cell` included), the empty cells (`cell` left out) and `cell`'s bit on the line.
#[inline]
fn lines_through(lines: &Lines, cell: Cell) -> [(u32, u32, u32); 4] {
    std::array::from_fn(|d| {
        let (l, i) = line_of(cell, d);
        (lines.stones[BLACK][d][l] | 1 << i, lines.empty[d][l] & !(1 << i), i)
    })
}

/// A necessary condition for a foul (or, inside the recursion, a five) of a Black stone on the lines
/// `through` it ([`lines_through`]). Only the stretch of the line free of White stones around the cell
/// matters; on it, a three needs two more Black stones within three cells and a stretch of six, a four
/// three more within four and a stretch of five, and a five, an overline or a double four on one line
/// four more within five. A foul needs two lines with a three or a four, or one of the latter.
#[inline]
fn may_foul(through: &[(u32, u32, u32); 4]) -> bool {
    let mut busy = 0;
    for &(m, e, i) in through {
        let free = run_bits(m | e, i);
        let len = free.count_ones();
        let others = m & free & !(1 << i);
        if len >= 5 && (others & around(i, 5)).count_ones() >= 4 {
            return true;
        }
        let three = len >= 6 && (others & around(i, 3)).count_ones() >= 2;
        let four = len >= 5 && (others & around(i, 4)).count_ones() >= 3;
        busy += (three || four) as u32;
    }
    busy >= 2
}

/// The run of set bits of `m` through bit `i` (which is set), as a mask.
#[inline]
fn run_bits(m: u32, i: u32) -> u32 {
    let up = (!(m >> i)).trailing_zeros();
    let down = (!(m << (31 - i))).leading_zeros();
    let lo = i + 1 - down;
    (((1u64 << (up + down - 1)) - 1) << lo) as u32
}

/// Length of the run of set bits of `m` through bit `i` (which is set).
#[inline]
fn run_through(m: u32, i: u32) -> u32 {
    let up = (!(m >> i)).trailing_zeros();
    let down = (!(m << (31 - i))).leading_zeros();
    up + down - 1
}

/// The number of fours through bit `i` on a line with Black stones `m` (bit `i` set) and empty cells
/// `e`: the empty cells that complete an exact five holding `i`, a straight four's two counting once.
///
/// The cells that complete an exact five ([`five_cells`]) with `i` a stone, less those that do so with
/// `i` neither stone nor empty: a five holding `i` is gone then, one apart from `i` is the same (it does
/// not touch `i`: a Black `i` next to it would make it an overline), so only the fives holding `i` are
/// left.
#[inline]
fn fours_through(m: u32, e: u32, i: u32) -> u32 {
    let cells = five_cells(m, e, Rule::Standard) & !five_cells(m & !(1 << i), e, Rule::Standard);
    let n = cells.count_ones();
    if n == 2 && cells >> cells.trailing_zeros() == 0x21 {
        1
    } else {
        n
    }
}

/// The four cells of the threes through bit `i` on a line with Black stones `m` (bit `i` set) and empty
/// cells `e`: the empty cells where one more stone makes a straight four `.XXXX.` holding `i` whose two
/// fives would be exact.
///
/// As in [`fours_through`]: the straight-four cells ([`open_four_cells`]) with `i` a stone, less those
/// with `i` neither stone nor empty (a straight four apart from `i` is the same either way, or is one
/// only without the stone, when `i` is just beyond one of its ends).
#[inline]
fn four_cells_through(m: u32, e: u32, i: u32) -> u32 {
    open_four_cells(m, e, Rule::Standard) & !open_four_cells(m & !(1 << i), e, Rule::Standard)
}

/// The tests that need no recursion, on the four lines through the cell (`(stones, empty, bit)` with
/// the Black stone on it): a five, an overline or a double four decide; otherwise, when two lines or more
/// have four cells of threes, `Err` with those cells per direction (the double three is then decided by
/// [`count_threes`]).
#[inline]
fn first_tests(through: &[(u32, u32, u32); 4]) -> Result<Verdict, [u32; 4]> {
    let (mut five, mut over) = (false, false);
    for &(m, _, i) in through {
        let run = run_through(m, i);
        five |= run == 5;
        over |= run >= 6;
    }
    if five {
        return Ok(Verdict::Five);
    }
    if over {
        return Ok(Verdict::Foul(Foul::Overline));
    }
    if through.iter().map(|&(m, e, i)| fours_through(m, e, i)).sum::<u32>() >= 2 {
        return Ok(Verdict::Foul(Foul::DoubleFour));
    }
    let fills = through.map(|(m, e, i)| four_cells_through(m, e, i));
    if fills.iter().filter(|&&f| f != 0).count() < 2 {
        return Ok(Verdict::Allowed);
    }
    Err(fills)
}

/// The double-three test of a Black stone on the empty `cell` whose threes have the four cells `fills`
/// (per direction): the threes with a four cell that Black may play, with the stone on `cell`, and that
/// makes no five there. `lines` are left as they were.
fn count_threes(lines: &mut Lines, cell: Cell, fills: &[u32; 4]) -> Verdict {
    lines.put(BLACK, cell);
    let mut threes = 0;
    for (d, &f) in fills.iter().enumerate() {
        let (l, _) = line_of(cell, d);
        let mut rest = f;
        while rest != 0 {
            let four_cell = cell_on_line(d, l, rest.trailing_zeros());
            rest &= rest - 1;
            if verdict(lines, four_cell) == Verdict::Allowed {
                threes += 1;
                break;
            }
        }
        if threes >= 2 {
            break;
        }
    }
    lines.remove(BLACK, cell);
    if threes >= 2 {
        Verdict::Foul(Foul::DoubleThree)
    } else {
        Verdict::Allowed
    }
}

/// The full test of a Black stone on the empty `cell` (see the module documentation), with a five
/// reported as such; `lines` are left as they were.
fn verdict(lines: &mut Lines, cell: Cell) -> Verdict {
    let through = lines_through(lines, cell);
    if !may_foul(&through) {
        return Verdict::Allowed;
    }
    match first_tests(&through) {
        Ok(verdict) => verdict,
        Err(fills) => count_threes(lines, cell, &fills),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_windows() {
        assert_eq!(run_through(0b0111_1100, 4), 5);
        assert_eq!(run_through(0b1, 0), 1);
        assert_eq!(run_through(1 << 19 | 1 << 18, 19), 2);
        assert_eq!(around(0, 2), 0b110);
        assert_eq!(run_bits(0b0111_1100, 4), 0b0111_1100);
        assert_eq!(run_bits(0b1011, 0), 0b11);
        assert_eq!(around(10, 1), 0b101 << 9);
        // .XXXX. : one four; X.XXX.X : two.
        let e = 0xFFFF;
        assert_eq!(fours_through(0b01_1110, e & !0b01_1110, 2), 1);
        let m = 0b101_1101;
        assert_eq!(fours_through(m, e & !m, 3), 2);
        // ..XXX.. : both ends are four cells.
        let m = 0b001_1100;
        assert_eq!(four_cells_through(m, e & !m, 3), 0b010_0010);
    }
}
