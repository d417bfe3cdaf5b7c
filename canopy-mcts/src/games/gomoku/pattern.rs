//! A cheap pattern evaluation of candidate cells: what a stone on a cell makes on its four lines, for
//! the side to move (attack) and for the opponent (the shape the stone blocks). The search's PUCT priors
//! ([`super::GomokuPolicy`]'s `Policy::priors`) are computed from it.
//!
//! # Shapes
//!
//! On one line, a stone of a player on the empty cell makes the first of (see [`Shape`]):
//!
//! - a **five** (a win under the rule);
//! - a **straight four**: two cells of the line would then complete a five (`.XXXX.`, or `X.XXX.X`);
//! - a **four**: one cell would complete a five;
//! - an **open three**: one more stone can make a straight four on the line, at two cells (`..XXX..`)
//!   or at one (a broken or edge three, `.XX.X.`);
//! - a **three**: some window of five cells free of the opponent's stones holds three of the player's
//!   (one more stone makes a four);
//! - a **two**, a **one**: the best such window holds two, one; also counted is how many windows reach
//!   the best count (more windows: more room to grow).
//!
//! The line tests are the bit-mask tests of module `rules` ([`five_cells`], [`open_four_cells`]), the
//! same notions of five, four and straight four as threat pruning (module `tactics`).
//!
//! # Scores
//!
//! A player's score at a cell combines its four lines: a five scores [`S_FIVE`]; a straight four, two
//! fours (4-4) or a four and an open three (4-3) win by force unless the opponent has fours of its own,
//! [`S_WINNING`]; two open threes (3-3), [`S_DOUBLE_THREE`]; otherwise the sum over the lines of
//! [`S_FOUR`], [`S_OPEN_THREE`] (two straight-four cells) or [`S_BROKEN_THREE`] (one), [`S_THREE`],
//! [`S_TWO`] and [`S_ONE`] per window. A cell's value is the side to move's score plus
//! [`DEFENCE_WEIGHT`] times the opponent's (taking the cell blocks that shape). The numbers are
//! hand-set in the order of the usual Gomoku priorities (win, stop a five, make an unstoppable threat,
//! stop one, double threes, single threats, shape); the search only uses them as priors.

use super::board::{Cell, GomokuState};
use super::rules::{five_cells, line_of, open_four_cells, Lines, Rule};

/// A five (a win under the rule).
pub const S_FIVE: f32 = 1.0e7;
/// A straight four, a 4-4 or a 4-3: wins by force unless the opponent has a four to play first.
pub const S_WINNING: f32 = 1.0e5;
/// Two open threes at once (3-3).
pub const S_DOUBLE_THREE: f32 = 2.0e4;
/// A four on one line (a five threat the opponent must block).
pub const S_FOUR: f32 = 600.0;
/// An open three with two straight-four cells (`..XXX..`).
pub const S_OPEN_THREE: f32 = 800.0;
/// An open three with one straight-four cell (broken, `.XX.X.`, or against the edge).
pub const S_BROKEN_THREE: f32 = 600.0;
/// A three that can become a four but not a straight four.
pub const S_THREE: f32 = 60.0;
/// A two, per window of five cells free of the opponent that holds it.
pub const S_TWO: f32 = 8.0;
/// A lone stone, per window of five cells free of the opponent through the cell.
pub const S_ONE: f32 = 1.0;
/// The weight of the opponent's score at a cell (the shape a stone there blocks).
pub const DEFENCE_WEIGHT: f32 = 0.8;

/// The best shape a stone makes on one line (see the module documentation), with the number of
/// five-cell windows behind a two or a one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Shape {
    /// No window of five free of the opponent's stones passes through the cell.
    Dead,
    /// One stone (the new one) in the best window; the number of windows.
    One(u32),
    /// Two stones in the best window; the number of windows that hold two.
    Two(u32),
    /// Three stones in a window: one more makes a four.
    Three,
    /// One more stone makes a straight four at this many cells (1 or 2).
    OpenThree(u32),
    /// One cell completes a five.
    Four,
    /// Two cells complete a five.
    StraightFour,
    /// A five.
    Five,
}

/// The shape a stone of the player whose stones on the line are `m` makes at bit `i` (an empty cell),
/// with `e` the line's empty cells.
pub(crate) fn shape(m: u32, e: u32, i: u32, rule: Rule) -> Shape {
    let bit = 1u32 << i;
    let (m2, e2) = (m | bit, e & !bit);
    // A five, a four or a straight four lies in a window of five through `i`, and so needs three of the
    // player's stones within four cells of it; an open three needs two within three. (Bit tricks stand
    // in for popcounts, which the portable build does without the instruction.)
    let near = m & if i >= 4 { 0x1FF << (i - 4) } else { 0x1FF >> (4 - i) };
    let two_near = near & near.wrapping_sub(1) != 0;
    if two_near && at_least_two(near & near.wrapping_sub(1)) {
        let before = five_cells(m, e, rule);
        if before & bit != 0 {
            return Shape::Five;
        }
        let fives = five_cells(m2, e2, rule) & !before;
        if fives != 0 {
            return if at_least_two(fives) { Shape::StraightFour } else { Shape::Four };
        }
    }
    if two_near {
        let straight = open_four_cells(m2, e2, rule) & !open_four_cells(m, e, rule);
        if straight != 0 {
            return Shape::OpenThree(if at_least_two(straight) { 2 } else { 1 });
        }
    }
    // Windows of five cells through bit `i` that hold none of the opponent's stones, their stone counts
    // kept up to date as the window slides.
    let free = m2 | e2;
    let valid = free & free >> 1 & free >> 2 & free >> 3 & free >> 4;
    let (lo, hi) = (i.saturating_sub(4), i.min(27));
    if near == 0 {
        // Only the new stone: every window counts one.
        let windows = FIVE_BIT_COUNTS[((valid >> lo) & ((1 << (hi - lo + 1)) - 1)) as usize];
        return if windows == 0 { Shape::Dead } else { Shape::One(u32::from(windows)) };
    }
    let mut k = FIVE_BIT_COUNTS[(m2 >> lo & 0x1F) as usize];
    let (mut best, mut count) = (0, 0);
    for s in lo..=hi {
        if valid >> s & 1 != 0 {
            if k > best {
                (best, count) = (k, 1);
            } else if k == best {
                count += 1;
            }
        }
        k = k + (m2 >> (s + 5) & 1) as u8 - (m2 >> s & 1) as u8;
    }
    match best {
        0 => Shape::Dead,
        1 => Shape::One(count),
        2 => Shape::Two(count),
        _ => Shape::Three,
    }
}

/// Whether `x` has two set bits or more.
#[inline]
fn at_least_two(x: u32) -> bool {
    x & x.wrapping_sub(1) != 0
}

/// The number of set bits of each five-bit value.
const FIVE_BIT_COUNTS: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut v = 0;
    while v < 32 {
        t[v] = (v as u32).count_ones() as u8;
        v += 1;
    }
    t
};

/// The score of a stone of `player` on the empty `cell` (see the module documentation).
pub(crate) fn player_score(lines: &Lines, player: usize, cell: Cell, rule: Rule) -> f32 {
    let (mut fours, mut threes, mut sum) = (0, 0, 0.0);
    for d in 0..4 {
        let (l, i) = line_of(cell, d);
        match shape(lines.stones[player][d][l], lines.empty[d][l], i, rule.for_player(player)) {
            Shape::Five => return S_FIVE,
            Shape::StraightFour => return S_WINNING,
            Shape::Four => {
                fours += 1;
                sum += S_FOUR;
            }
            Shape::OpenThree(n) => {
                threes += 1;
                sum += if n >= 2 { S_OPEN_THREE } else { S_BROKEN_THREE };
            }
            Shape::Three => sum += S_THREE,
            Shape::Two(n) => sum += S_TWO * n as f32,
            Shape::One(n) => sum += S_ONE * n as f32,
            Shape::Dead => {}
        }
    }
    if fours >= 2 || (fours >= 1 && threes >= 1) {
        S_WINNING
    } else if threes >= 2 {
        S_DOUBLE_THREE
    } else {
        sum
    }
}

/// The value of each of `cells` (empty cells of the non-terminal `state`) for the side to move: its
/// score plus [`DEFENCE_WEIGHT`] times the opponent's (see the module documentation). Clears `out` and
/// pushes one value (>= 0) per cell, in order.
pub(crate) fn cell_values(state: &GomokuState, rule: Rule, cells: &[Cell], out: &mut Vec<f32>) {
    out.clear();
    let lines = Lines::new(state);
    let me = state.mover();
    out.extend(
        cells
            .iter()
            .map(|&c| player_score(&lines, me, c, rule) + DEFENCE_WEIGHT * player_score(&lines, 1 - me, c, rule)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line from text: `x` the player's stone, `o` the opponent's, `.` empty, `|` off the board;
    /// returns (stones, empty).
    fn line(text: &str) -> (u32, u32) {
        let (mut m, mut e) = (0, 0);
        for (i, ch) in text.chars().enumerate() {
            match ch {
                'x' => m |= 1 << i,
                '.' => e |= 1 << i,
                _ => {}
            }
        }
        (m, e)
    }

    fn shape_at(text: &str, i: u32) -> Shape {
        let (m, e) = line(text);
        assert_eq!(e >> i & 1, 1, "bit {i} of {text} is not empty");
        shape(m, e, i, Rule::Freestyle)
    }

    #[test]
    fn shapes_on_one_line() {
        assert_eq!(shape_at("..xxxx...", 6), Shape::Five);
        assert_eq!(shape_at("..xxx....", 5), Shape::StraightFour);
        assert_eq!(shape_at("..xx.x...", 4), Shape::StraightFour);
        assert_eq!(shape_at("x.xx..x..", 4), Shape::StraightFour, "x.xxx.x: fives at 1 and 5");
        assert_eq!(shape_at("x.xx.x...", 1), Shape::Four, "xxxx.x: one five, at 4");
        assert_eq!(shape_at("oxxx.....", 4), Shape::Four);
        assert_eq!(shape_at("..xx.....", 4), Shape::OpenThree(2));
        assert_eq!(shape_at("..xx.....", 5), Shape::OpenThree(1), "broken three .xx.x.");
        assert_eq!(shape_at("oxx......", 3), Shape::Three);
        assert_eq!(shape_at("...x.....", 4), Shape::Two(4));
        assert_eq!(shape_at("o...o....", 2), Shape::Dead);
        assert_eq!(shape_at(".........", 4), Shape::One(5));
        assert_eq!(shape_at("...x.....", 0), Shape::Two(1));
    }

    #[test]
    fn the_overline_is_no_five_under_the_standard_rule() {
        let (m, e) = line(".xxxx.x..");
        assert_eq!(shape(m, e, 5, Rule::Freestyle), Shape::Five);
        assert_ne!(shape(m, e, 5, Rule::Standard), Shape::Five);
    }

    #[test]
    fn combinations_rank_above_single_threats() {
        use super::super::Gomoku;
        let game = Gomoku::new(15, Rule::Freestyle);
        // Black (to move) has 5,7 6,7 (a two on row 7) and 7,5 7,6 (a two on column 7): 7,7 makes a
        // 3-3; White's stones are far away.
        let state = game.from_moves("5,7 0,0 6,7 0,14 7,5 14,0 7,6 14,14").unwrap();
        let lines = Lines::new(&state);
        let double = player_score(&lines, 0, Cell::new(7, 7), Rule::Freestyle);
        let single = player_score(&lines, 0, Cell::new(4, 7), Rule::Freestyle);
        assert_eq!(double, S_DOUBLE_THREE);
        assert!((S_OPEN_THREE..S_DOUBLE_THREE).contains(&single), "{single}");
        let mut values = Vec::new();
        cell_values(&state, Rule::Freestyle, &[Cell::new(7, 7), Cell::new(4, 7), Cell::new(10, 10)], &mut values);
        assert!(values[0] > values[1] && values[1] > values[2], "{values:?}");
    }
}
