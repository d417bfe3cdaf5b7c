//! Victory by continuous threats (VCT): a sequence of fours and open threes by the attacker, each
//! answered by every defence the defender has, that ends in a five — the threat-space search of Allis,
//! van den Herik and Huntjens ("Go-Moku solved by new search techniques", Computational Intelligence
//! 1996), without their dependency-based pruning.
//!
//! An attacker node (attacker to move) is won when the attacker has a five to make, or when one of its
//! threat moves wins:
//!
//! - a move that leaves two fives to make (a straight four, a double four) wins: the defender has none
//!   of its own (checked first) and one stone blocks one;
//! - a four (one five to make): the defender must block there, and the attacker node after it must be
//!   won;
//! - an open three (no five to make, but a straight four next): the defender's answers are every cell
//!   after which the attacker has no straight four to make, and every cell where the defender makes a
//!   four of its own (which the attacker must then block); each must leave a won attacker node;
//! - when the defender has a five to make, the attacker's one move is to block it, and the block wins on
//!   when it leaves a threat of either kind: a four or straight four through the block, or a straight
//!   four to make from before (an open three the defender answered with that four rather than stop).
//!
//! The defences against an open three are complete by the argument of rule 4 in module `tactics`
//! (any other move lets the straight four in, and a defender without a four cannot answer it), so a VCT
//! found here is a forced win. The search deepens iteratively (1, 2, ... up to 12 attacker moves), so
//! that a short win is found before the budget goes into the long lines of the first threats tried,
//! and remembers the nodes found not won with the moves that were left there. Over the 1 781 positions
//! of 64 refereed games (`examples/gomoku_vct.rs`, docs/gomoku.md "Threat-space search") it finds a
//! victory in 255 positions within 500 nodes and 265 within 3 000, where a depth-first search to the
//! full depth found 202 and 206 (every one of which it finds too). The search gives up (`None`) past
//! its node budget, its depth or its deadline; it does not run under renju, where Black's forbidden
//! cells change both sides' threats.

use std::collections::HashMap;
use std::time::Instant;

use super::board::{Cell, GomokuState, MAX_SIZE};
use super::rules::{cell_on_line, five_cells, line_of, open_four_cells, Rule, LINES};
use super::tactics::{add_distinct, distinct_fives, KeyedLines};
use super::Gomoku;

/// Longest VCT searched, in attacker moves.
const VCT_DEPTH: usize = 12;
/// A failure entry for a node searched without any line stopped by the depth: not won at any depth.
const COMPLETE: usize = usize::MAX;

/// A victory by continuous threats (module docs) of `attacker` in `state` within `budget` nodes: the
/// attacker's first move, or `None` when none was found (or the rule is renju, or `state` is
/// terminal). The attacker moves first: when it is not the side to move, the answer is what it would
/// have if the side to move passed (a threat the side to move must defuse), as for [`super::vcf`].
pub fn vct(game: &Gomoku, state: &GomokuState, attacker: usize, budget: usize) -> Option<Cell> {
    vct_until(game, state, attacker, budget, None)
}

/// [`vct`] that also gives up (returns `None`) at `deadline`.
pub(crate) fn vct_until(
    game: &Gomoku,
    state: &GomokuState,
    attacker: usize,
    budget: usize,
    deadline: Option<Instant>,
) -> Option<Cell> {
    if state.is_terminal() || game.rule().has_fouls() {
        return None;
    }
    let mut search = Vct {
        pos: KeyedLines::new(state),
        rule: game.rule(),
        attacker,
        budget,
        deadline,
        failed: HashMap::new(),
        first: None,
        max_depth: 0,
        cut: false,
    };
    // Iterative deepening: a short win is found before the budget goes into long lines that fail (a
    // depth-first search to the full depth spends it on the first threats' deepest continuations).
    for max_depth in 1..=VCT_DEPTH {
        search.max_depth = max_depth;
        search.cut = false;
        if search.node(0) {
            return search.first;
        }
        if search.budget == 0 || !search.cut {
            // Out of nodes or time, or no line was stopped by the depth: a deeper search finds nothing new.
            return None;
        }
    }
    None
}

/// The state of one VCT search.
struct Vct {
    /// The stones, with their Zobrist key.
    pos: KeyedLines,
    rule: Rule,
    attacker: usize,
    /// Nodes left.
    budget: usize,
    deadline: Option<Instant>,
    /// Attacker nodes found not won, by key: the most attacker moves that were left to the search
    /// there (a node is not searched again with as many moves left or fewer).
    failed: HashMap<u64, usize>,
    /// The attacker's winning first move (set at depth 0).
    first: Option<Cell>,
    /// The current iteration's depth, in attacker moves (at most [`VCT_DEPTH`]).
    max_depth: usize,
    /// Whether the current iteration stopped a line at `max_depth`.
    cut: bool,
}

impl Vct {
    /// The distinct cells where `player` completes a five (at most `limit`).
    fn fives(&self, player: usize, limit: usize) -> Vec<Cell> {
        let mut out = Vec::new();
        distinct_fives(&self.pos.lines, player, self.rule, limit, &mut out);
        out
    }

    /// [`Vct::fives`] on the four lines through `cell` only: all of them when `player` had no five to
    /// make before its stone on `cell` (a stone changes only the lines through it).
    fn fives_through(&self, player: usize, cell: Cell, limit: usize) -> Vec<Cell> {
        let mut out = Vec::new();
        for d in 0..4 {
            let (l, _) = line_of(cell, d);
            if add_distinct(&mut out, d, l, self.pos.lines.five_cells(player, d, l, self.rule), limit) {
                break;
            }
        }
        out
    }

    /// The attacker's threat moves: the cells where it makes a four (first) or an open three, without
    /// repeats; found on the lines holding at least two of its stones, within three cells of them.
    fn threats(&self, player: usize) -> Vec<Cell> {
        let rule = self.rule.for_player(player);
        let mut fours = Vec::new();
        let mut threes = Vec::new();
        let mut seen = [0u32; MAX_SIZE];
        for d in 0..4 {
            for l in 0..LINES {
                let m = self.pos.lines.stones[player][d][l];
                if m.count_ones() < 2 {
                    continue;
                }
                let e = self.pos.lines.empty[d][l];
                let mut spots = (m << 3 | m << 2 | m << 1 | m >> 1 | m >> 2 | m >> 3) & e;
                while spots != 0 {
                    let i = spots.trailing_zeros();
                    spots &= spots - 1;
                    let bit = 1u32 << i;
                    let (m2, e2) = (m | bit, e & !bit);
                    let kind = if five_cells(m2, e2, rule) != 0 {
                        Some(true)
                    } else if open_four_cells(m2, e2, rule) != 0 {
                        Some(false)
                    } else {
                        None
                    };
                    let Some(four) = kind else { continue };
                    let c = cell_on_line(d, l, i);
                    if seen[c.y as usize] >> c.x & 1 != 0 {
                        // Already listed from another line; a four on this one promotes it.
                        if four && !fours.contains(&c) {
                            threes.retain(|&t| t != c);
                            fours.push(c);
                        }
                        continue;
                    }
                    seen[c.y as usize] |= 1 << c.x;
                    if four {
                        fours.push(c);
                    } else {
                        threes.push(c);
                    }
                }
            }
        }
        fours.extend(threes);
        fours
    }

    /// The defender's answers to the attacker's straight-four threats: the empty cells after which the
    /// attacker has no straight four to make, and the cells where the defender makes a four; `None`
    /// when the attacker has no straight four to make (no threat to answer).
    fn defences(&mut self, attacker: usize) -> Option<Vec<Cell>> {
        let defender = 1 - attacker;
        // Every stopping cell lies on each line with a straight four to make, within five of it.
        let mut lines_with = Vec::new();
        for d in 0..4 {
            for l in 0..LINES {
                let f = self.pos.lines.open_four_cells(attacker, d, l, self.rule);
                if f != 0 {
                    lines_with.push((d, l, f));
                }
            }
        }
        let mut out = Vec::new();
        let &(d0, l0, f0) = lines_with.first()?;
        let near =
            (f0 << 5 | f0 << 4 | f0 << 3 | f0 << 2 | f0 << 1 | f0 | f0 >> 1 | f0 >> 2 | f0 >> 3 | f0 >> 4 | f0 >> 5)
                & self.pos.lines.empty[d0][l0];
        let mut spots = near;
        while spots != 0 {
            let i = spots.trailing_zeros();
            spots &= spots - 1;
            let c = cell_on_line(d0, l0, i);
            // A stone changes only the lines through it, so only the lines that had a straight four
            // to make can still have one.
            self.pos.lines.put(defender, c);
            let stops =
                lines_with.iter().all(|&(d, l, _)| self.pos.lines.open_four_cells(attacker, d, l, self.rule) == 0);
            self.pos.lines.remove(defender, c);
            if stops {
                out.push(c);
            }
        }
        let rule = self.rule.for_player(defender);
        for c in self.threats(defender) {
            if out.contains(&c) {
                continue;
            }
            let makes_four = (0..4).any(|d| {
                let (l, i) = line_of(c, d);
                let bit = 1u32 << i;
                five_cells(self.pos.lines.stones[defender][d][l] | bit, self.pos.lines.empty[d][l] & !bit, rule) != 0
            });
            if makes_four {
                out.push(c);
            }
        }
        Some(out)
    }

    /// Whether the attacker, to move, wins by continuous threats.
    fn node(&mut self, depth: usize) -> bool {
        let (a, d) = (self.attacker, 1 - self.attacker);
        // Below the root the attacker has no five to make: its move before had at most one, which the
        // defender blocked (a defender's stone makes none for the attacker). So its fives after a move
        // lie on the lines through that move ([`Vct::fives_through`]).
        if depth == 0 {
            if let Some(&c) = self.fives(a, 1).first() {
                self.first = Some(c);
                return true;
            }
        }
        debug_assert!(self.fives(a, 1).is_empty());
        let left = self.max_depth - depth;
        if left == 0 {
            self.cut = true;
            return false;
        }
        if self.budget == 0 {
            return false;
        }
        if let Some(&l) = self.failed.get(&self.pos.key) {
            if l >= left {
                // Not won with as many moves left; unless that search was complete, a deeper one might be.
                self.cut |= l != COMPLETE;
                return false;
            }
        }
        self.budget -= 1;
        if self.budget % 64 == 0 && self.deadline.is_some_and(|t| Instant::now() >= t) {
            self.budget = 0;
            return false;
        }
        let theirs = self.fives(d, 2);
        let moves = match theirs.len() {
            0 => self.threats(a),
            // The defender threatens a five: block it. The block wins on only when it leaves a threat: a
            // four or a straight four to make, of its own or standing from before (an open three the
            // defender answered with that four).
            1 => vec![theirs[0]],
            _ => Vec::new(),
        };
        // Whether a line below this node is stopped by the depth (then its failure holds for `left` moves).
        let cut_above = std::mem::replace(&mut self.cut, false);
        for m in moves {
            self.pos.put(a, m);
            let fives = self.fives_through(a, m, 2);
            let won = match fives.len() {
                2.. => true,
                1 => {
                    let block = fives[0];
                    self.pos.put(d, block);
                    let won = self.node(depth + 1);
                    self.pos.remove(d, block);
                    won
                }
                _ => {
                    // No five to make: an open three (a threat move) or a forced block that leaves one.
                    let Some(answers) = self.defences(a) else {
                        self.pos.remove(a, m);
                        continue;
                    };
                    let mut all = true;
                    for r in answers {
                        self.pos.put(d, r);
                        let won = self.node(depth + 1);
                        self.pos.remove(d, r);
                        if !won {
                            all = false;
                            break;
                        }
                    }
                    all
                }
            };
            self.pos.remove(a, m);
            if won {
                if depth == 0 {
                    self.first = Some(m);
                }
                self.cut |= cut_above;
                return true;
            }
        }
        let cut_below = std::mem::replace(&mut self.cut, cut_above);
        self.cut |= cut_below;
        if self.budget > 0 {
            // Not won with `left` moves to go, or at all when no line below was stopped by the depth (a
            // node given up for the budget or the deadline proves nothing).
            let l = self.failed.entry(self.pos.key).or_insert(0);
            *l = (*l).max(if cut_below { left } else { COMPLETE });
        }
        false
    }
}
