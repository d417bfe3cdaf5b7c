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
//! [`foul`] first looks at the four lines through the cell: a foul needs two lines with two Black stones
//! or more within four cells of it, or one line with four within five. Most cells fail that at once; the
//! rest copy the line masks once and run the full test, recursion included.

use super::board::{Cell, GomokuState, BLACK};
use super::rules::{cell_on_line, line_of, Lines, DIRECTIONS};

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
    if !may_foul(lines, cell) {
        return None;
    }
    let mut work = lines.clone();
    match verdict(&mut work, cell) {
        Verdict::Foul(f) => Some(f),
        Verdict::Allowed | Verdict::Five => None,
    }
}

/// Whether a Black stone on the empty `cell` of `state` is forbidden under the renju rule (see [`foul`]);
/// builds the line masks only when a quick look at the four lines through `cell` allows a foul.
pub(crate) fn foul_in(state: &GomokuState, cell: Cell) -> Option<Foul> {
    if !may_foul_rows(state, cell) {
        return None;
    }
    foul(&Lines::new(state), cell)
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

/// A necessary condition for a foul (or, inside the recursion, a five) at `cell`: two lines through it
/// with at least two Black stones within four cells, or one line with at least four within five. A
/// three needs two more stones within three cells, a four three more within four, a double four on one
/// line four more within three, a five four more within four, an overline five more within five.
#[inline]
fn may_foul(lines: &Lines, cell: Cell) -> bool {
    let mut busy = 0;
    for d in 0..4 {
        let (l, i) = line_of(cell, d);
        let m = lines.stones[BLACK][d][l];
        if (m & around(i, 5)).count_ones() >= 4 {
            return true;
        }
        if (m & around(i, 4)).count_ones() >= 2 {
            busy += 1;
        }
    }
    busy >= 2
}

/// [`may_foul`] read from `state`'s rows, without building the line masks.
fn may_foul_rows(state: &GomokuState, cell: Cell) -> bool {
    let size = state.size() as i32;
    let rows = &state.rows[BLACK];
    let mut busy = 0;
    for (dx, dy) in DIRECTIONS {
        let (mut near4, mut near5) = (0, 0);
        for k in (-5..=5).filter(|&k| k != 0) {
            let (x, y) = (cell.x as i32 + k * dx, cell.y as i32 + k * dy);
            if x >= 0 && y >= 0 && x < size && y < size && rows[y as usize] >> x & 1 != 0 {
                near5 += 1;
                near4 += (k.abs() <= 4) as u32;
            }
        }
        if near5 >= 4 {
            return true;
        }
        busy += (near4 >= 2) as u32;
    }
    busy >= 2
}

/// Length of the run of set bits of `m` through bit `i` (which is set).
#[inline]
fn run_through(m: u32, i: u32) -> u32 {
    let up = (!(m >> i)).trailing_zeros();
    let down = (!(m << (31 - i))).leading_zeros();
    up + down - 1
}

/// Whether bit `k` of `m` is set (`false` for negative `k`: off the line).
#[inline]
fn bit(m: u32, k: i32) -> bool {
    (0..32).contains(&k) && m >> k & 1 != 0
}

/// The number of fours through bit `i` on a line with Black stones `m` (bit `i` set) and empty cells
/// `e`: the empty cells that complete an exact five in a window of five holding `i`, a straight four's
/// two counting once.
#[inline]
fn fours_through(m: u32, e: u32, i: u32) -> u32 {
    let mut cells = 0u32;
    for s in i.saturating_sub(4)..=i {
        let w = 0x1F << s;
        if (m & w).count_ones() == 4 && (e & w).count_ones() == 1 && !bit(m, s as i32 - 1) && !bit(m, s as i32 + 5) {
            cells |= e & w;
        }
    }
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
#[inline]
fn four_cells_through(m: u32, e: u32, i: u32) -> u32 {
    let mut cells = 0u32;
    for s in i.saturating_sub(4)..i {
        let (s, inner) = (s as i32, 0xFu32 << (s + 1));
        if bit(e, s)
            && bit(e, s + 5)
            && !bit(m, s - 1)
            && !bit(m, s + 6)
            && (m & inner).count_ones() == 3
            && (e & inner).count_ones() == 1
        {
            cells |= e & inner;
        }
    }
    cells
}

/// The full test of a Black stone on the empty `cell` (see the module documentation); `lines` are left
/// as they were.
fn verdict(lines: &mut Lines, cell: Cell) -> Verdict {
    lines.put(BLACK, cell);
    let result = verdict_placed(lines, cell);
    lines.remove(BLACK, cell);
    result
}

/// [`verdict`] with the stone already on `cell`.
fn verdict_placed(lines: &mut Lines, cell: Cell) -> Verdict {
    let mut at = [(0usize, 0u32); 4];
    let (mut five, mut over) = (false, false);
    for (d, slot) in at.iter_mut().enumerate() {
        let (l, i) = line_of(cell, d);
        *slot = (l, i);
        let run = run_through(lines.stones[BLACK][d][l], i);
        five |= run == 5;
        over |= run >= 6;
    }
    if five {
        return Verdict::Five;
    }
    if over {
        return Verdict::Foul(Foul::Overline);
    }
    let fours: u32 = (0..4)
        .map(|d| {
            let (l, i) = at[d];
            fours_through(lines.stones[BLACK][d][l], lines.empty[d][l], i)
        })
        .sum();
    if fours >= 2 {
        return Verdict::Foul(Foul::DoubleFour);
    }
    let fills: [u32; 4] = std::array::from_fn(|d| {
        let (l, i) = at[d];
        four_cells_through(lines.stones[BLACK][d][l], lines.empty[d][l], i)
    });
    if fills.iter().filter(|&&f| f != 0).count() < 2 {
        return Verdict::Allowed;
    }
    let mut threes = 0;
    for (d, &f) in fills.iter().enumerate() {
        let mut rest = f;
        while rest != 0 {
            let four_cell = cell_on_line(d, at[d].0, rest.trailing_zeros());
            rest &= rest - 1;
            // A four cell counts when Black may play it and makes no five there.
            if !may_foul(lines, four_cell) || verdict(lines, four_cell) == Verdict::Allowed {
                threes += 1;
                break;
            }
        }
        if threes >= 2 {
            return Verdict::Foul(Foul::DoubleThree);
        }
    }
    Verdict::Allowed
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
