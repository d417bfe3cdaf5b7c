//! Threat pruning: the candidate moves the search keeps in positions where a threat must be answered.
//!
//! In order, the first that applies:
//!
//! 1. the side to move can win at once: its winning cells;
//! 2. the opponent threatens a five: the cells that block it (with two or more, the game is lost);
//! 3. the side to move can make a straight four `.XXXX.` (two winning cells, which one stone cannot
//!    block): those cells;
//! 4. the opponent can make a straight four (it has an *open three*): the cells that leave it no straight
//!    four anywhere, and the cells where the side to move makes a four of its own (a five threat, which
//!    the opponent must answer first);
//! 5. otherwise every candidate within the radius.
//!
//! Rules 1, 2 and 4 are the standard answers of Gomoku theory: any other move loses to the threat. Rule 3
//! gives up the rare positions where the opponent could meet an open four with a winning sequence of
//! fours of its own. The rules narrow the tree in exactly the positions where a uniform search wastes
//! most playouts, and make lines of forcing moves single-branch paths.

use super::board::{Cell, GomokuState};
use super::rules::{cell_on_line, five_cells, line_of, near_stones, open_four_cells, Lines, Rule, LINES};

/// Clears `out` and fills it with the search candidates of the non-terminal, non-empty `state` under
/// threat pruning (see the module documentation), in row-major order.
pub(crate) fn threat_candidates(state: &GomokuState, rule: Rule, radius: usize, out: &mut Vec<Cell>) {
    out.clear();
    let lines = Lines::new(state);
    let me = state.mover();
    let op = 1 - me;
    for player in [me, op] {
        lines.push_winning_cells(player, rule, out);
        if !out.is_empty() {
            return;
        }
    }
    // The straight-four cells of both players, per line.
    let mut fours = [[[0u32; LINES]; 4]; 2];
    let mut their_lines = 0;
    for d in 0..4 {
        for l in 0..LINES {
            fours[me][d][l] = lines.open_four_cells(me, d, l, rule);
            let f = lines.open_four_cells(op, d, l, rule);
            fours[op][d][l] = f;
            their_lines += (f != 0) as u32;
            let mut mine = fours[me][d][l];
            while mine != 0 {
                out.push(cell_on_line(d, l, mine.trailing_zeros()));
                mine &= mine - 1;
            }
        }
    }
    if !out.is_empty() {
        out.sort_unstable_by_key(|c| (c.y, c.x));
        out.dedup();
        return;
    }
    near_stones(state, radius, out);
    if their_lines == 0 {
        return;
    }
    let all = out.len();
    out.retain(|&cell| {
        let mut left = their_lines;
        let mut four = false;
        for d in 0..4 {
            let (l, i) = line_of(cell, d);
            let bit = 1u32 << i;
            let e = lines.empty[d][l] & !bit;
            if fours[op][d][l] != 0 && open_four_cells(lines.stones[op][d][l], e, rule) == 0 {
                left -= 1;
            }
            four |= five_cells(lines.stones[me][d][l] | bit, e, rule) != 0;
        }
        left == 0 || four
    });
    if out.is_empty() {
        // Cannot happen (the opponent's straight-four cells are candidates and each stops its line), but
        // never leave a non-terminal position without moves.
        near_stones(state, radius, out);
        debug_assert!(out.len() == all);
    }
}
