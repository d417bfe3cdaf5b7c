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
//!    the opponent must answer first); when no cell does either (two open threes), the cells that block
//!    one of them;
//! 5. the side to move can make a *double threat* (a four or an open three on two lines at once: 4-4,
//!    4-3, 3-3): those cells, where a 3-3 counts only when the opponent has no four to make (against a
//!    3-3 the opponent has a move, and its fours, each answered by a block, may end in a win of its
//!    own);
//! 6. otherwise every candidate within the radius, those that make a four or an open three first, then
//!    those that take the opponent's four or open-three cell, then the rest in row-major order (the
//!    search visits every child once, in this order, before UCT chooses). With a *quiet radius* smaller
//!    than the radius, the cells of the last group farther than it from every stone are left out.
//!
//! Rules 1, 2 and 4 are the standard answers of Gomoku theory: any other move loses to the threat. Rule 3
//! wins by force: the opponent has no five to make (rule 2 did not apply), and one stone cannot block
//! both ends of a straight four. Rule 5 gives up the rare positions where the opponent could meet a 4-4 or
//! 4-3 with a winning sequence of fours of its own started by its block; a 3-3 is kept only when the
//! opponent has no four at all, because otherwise its fours come first (a refereed game was lost to
//! exactly that: the tree saw only its 3-3 while the opponent's four-three and the side's own sequence
//! of fours were left out). The rules narrow the tree in exactly the positions where a uniform search wastes most
//! playouts: a move that allows a double threat is refuted by the first reply the search tries, and lines
//! of forcing moves are single-branch paths.
//!
//! For MCTS-Solver, rules 1 to 3, and rule 4 with a candidate radius of at least 2, are safe for proofs
//! ([`Coverage::ProofSafe`]: every left-out move is no better than the best candidate); rules 5 and 6 are
//! heuristics ([`Coverage::Pruned`]). docs/ARCHITECTURE.md gives the arguments.
//!
//! Under [`Rule::Renju`], rule 3 also gives White its fours that Black cannot stop: two winning cells at
//! once, or one that is forbidden for Black. Black's forbidden cells (module `renju`) are left out of Black's candidates
//! under every rule: they lose at once, so no proof changes (a set left without any, when every block of
//! a five is forbidden, becomes the nearby cells that lose one move later, or the forbidden cells when
//! every nearby cell is one). Black's straight-four cells that are forbidden are no threat: rule 3 does
//! not offer them to Black, and rule 4 does not answer them for White. Rule 4 with White to move is
//! [`Coverage::Pruned`] under renju: a White stone anywhere may change which of Black's cells are
//! forbidden (the recursion of the double-three test reaches beyond the stones), so a left-out White move
//! is not known to lose.

use std::collections::HashSet;
use std::time::Instant;

use super::board::{stone_key, Cell, GomokuState, BLACK, MAX_SIZE};
use super::renju;
use super::rules::{cell_on_line, five_cells, line_of, near_rows, near_stones, open_four_cells, Lines, Rule, LINES};
use super::Gomoku;
use crate::policy::Coverage;

/// Clears `out` and fills it with the search candidates of the non-terminal, non-empty `state` under
/// threat pruning (see the module documentation): row-major, except rule 6's order by threat. From the
/// first stone on: in the opening only rule 6 applies, and its quiet radius keeps the first moves close.
///
/// Returns whether proofs over the candidates hold for the position: [`Coverage::ProofSafe`] for rules
/// 1 to 3, and for rule 4 when `radius >= 2` (every cell that stops the opponent's straight fours or
/// makes a four lies within two of a stone); [`Coverage::Pruned`] otherwise (the caller upgrades a set
/// that holds every empty cell to complete).
pub(crate) fn threat_candidates(
    state: &GomokuState,
    rule: Rule,
    radius: usize,
    quiet_radius: usize,
    out: &mut Vec<Cell>,
) -> Coverage {
    out.clear();
    let lines = Lines::new(state);
    let me = state.mover();
    let op = 1 - me;
    // Under renju, Black's forbidden cells are never candidates for Black (they lose at once).
    let fouls = rule.has_fouls() && me == BLACK;
    lines.push_winning_cells(me, rule, out);
    if !out.is_empty() {
        // Rule 1: a win is among them (a five is never forbidden).
        return Coverage::ProofSafe;
    }
    lines.push_winning_cells(op, rule, out);
    if !out.is_empty() {
        // Rule 2: any other move lets the opponent's five in.
        if fouls && renju::retain_allowed(&lines, out) > 0 && out.is_empty() {
            // Every block is forbidden: Black loses whatever it plays. Offer the moves that lose one
            // move later rather than at once, or the forbidden blocks when there are none.
            near_stones(state, radius, out);
            renju::retain_allowed(&lines, out);
            if out.is_empty() {
                lines.push_winning_cells(op, rule, out);
            }
        }
        return Coverage::ProofSafe;
    }
    // The straight-four cells of both players, per line.
    let mut mine = straight_fours(&lines, me, rule);
    let mut theirs = straight_fours(&lines, op, rule);
    if rule.has_fouls() {
        // Black's straight fours on forbidden cells are no threat: Black cannot make them.
        drop_fouls(&lines, if me == BLACK { &mut mine } else { &mut theirs });
    }
    push_cells(&mine, out);
    if !out.is_empty() {
        out.sort_unstable_by_key(|c| (c.y, c.x));
        out.dedup();
        // Rule 3: each of them wins by force.
        return Coverage::ProofSafe;
    }
    if rule.has_fouls() && me != BLACK {
        // Rule 3 under renju, for White: a four that Black cannot stop, because its only block is
        // forbidden for Black, or two fives to block at once.
        unstoppable_fours(state, &lines, radius, out);
        if !out.is_empty() {
            return Coverage::ProofSafe;
        }
    }
    let their_lines = theirs.iter().flatten().filter(|&&f| f != 0).count();
    near_stones(state, radius, out);
    let all_near = out.len();
    if fouls {
        renju::retain_allowed(&lines, out);
    }
    if their_lines > 0 {
        let my_rule = rule.for_player(me);
        let their_rule = rule.for_player(op);
        out.retain(|&cell| {
            let mut left = their_lines;
            let mut four = false;
            for (d, their_line) in theirs.iter().enumerate() {
                let (l, i) = line_of(cell, d);
                let bit = 1u32 << i;
                let e = lines.empty[d][l] & !bit;
                if their_line[l] != 0 && open_four_cells(lines.stones[op][d][l], e, their_rule) == 0 {
                    left -= 1;
                }
                four |= five_cells(lines.stones[me][d][l] | bit, e, my_rule) != 0;
            }
            left == 0 || four
        });
        if out.is_empty() {
            // Two open threes or more and no four to make: the game is lost against best play. Offer
            // the cells that block one of them, so that the search sees the loss quickly.
            push_cells(&theirs, out);
            out.sort_unstable_by_key(|c| (c.y, c.x));
            out.dedup();
            if fouls && renju::retain_allowed(&lines, out) > 0 && out.is_empty() {
                push_cells(&theirs, out);
                out.sort_unstable_by_key(|c| (c.y, c.x));
                out.dedup();
            }
        }
        // Under renju with White to move, a White stone anywhere may change which of Black's cells are
        // forbidden (the recursion of module `renju` reaches beyond the stones), so the answers to
        // Black's three are a heuristic there.
        let safe = radius >= 2 && !(rule.has_fouls() && me != BLACK);
        return if safe { Coverage::ProofSafe } else { Coverage::Pruned };
    }
    if out.is_empty() && all_near > 0 {
        // Every nearby cell is forbidden for Black: offer them all the same (each loses at once).
        near_stones(state, radius, out);
    }
    // Rate each candidate: double threats of the side to move (a four or an open three on two lines),
    // then its fours and open threes, then the cells where the opponent would make them.
    let mut scores = [0u8; MAX_SIZE * MAX_SIZE];
    // Per candidate: 2 for a double threat with a four in it (4-4, 4-3), 1 for a double three.
    let mut doubles = [0u8; MAX_SIZE * MAX_SIZE];
    let mut their_four = false;
    let (my_rule, their_rule) = (rule.for_player(me), rule.for_player(op));
    for (k, &cell) in out.iter().enumerate() {
        let mut threats = 0;
        let mut four = false;
        let mut score = 0;
        for d in 0..4 {
            let (l, i) = line_of(cell, d);
            let bit = 1u32 << i;
            let e = lines.empty[d][l] & !bit;
            let m = lines.stones[me][d][l] | bit;
            let t = lines.stones[op][d][l] | bit;
            if five_cells(m, e, my_rule) != 0 {
                threats += 1;
                four = true;
                score = score.max(8);
            } else if open_four_cells(m, e, my_rule) != 0 {
                threats += 1;
                score = score.max(4);
            }
            if five_cells(t, e, their_rule) != 0 {
                their_four = true;
                score = score.max(2);
            } else if open_four_cells(t, e, their_rule) != 0 {
                score = score.max(1);
            }
        }
        if threats >= 2 {
            score = 16;
            doubles[k] = if four { 2 } else { 1 };
        }
        scores[k] = score;
    }
    // Rule 5: a double three gives the opponent a move, so it wins only when the opponent has no four
    // to gain a tempo with (a four answered by a block, and a sequence of them may end in a win).
    let keep = |kind: u8| kind == 2 || (kind == 1 && !their_four);
    if doubles[..out.len()].iter().any(|&kind| keep(kind)) {
        let mut k = 0;
        out.retain(|_| {
            k += 1;
            keep(doubles[k - 1])
        });
        return Coverage::Pruned;
    }
    let mut by_cell = [0u8; MAX_SIZE * MAX_SIZE];
    for (&c, &score) in out.iter().zip(scores.iter()) {
        by_cell[c.y as usize * MAX_SIZE + c.x as usize] = score;
    }
    let score_of = |c: &Cell| by_cell[c.y as usize * MAX_SIZE + c.x as usize];
    // Quiet cells far from the stones go when a smaller quiet radius is asked for.
    if quiet_radius < radius {
        let near = near_rows(state, quiet_radius);
        out.retain(|c| score_of(c) > 0 || near[c.y as usize] >> c.x & 1 != 0);
        if out.is_empty() {
            // Cannot happen (a candidate two away from a stone has an empty or stone neighbour one away
            // from it), but never leave a non-terminal position without moves.
            near_stones(state, radius, out);
        }
    }
    // Threats first: the search visits every child once in this order before UCT takes over, so the
    // forcing moves are tried first.
    out.sort_unstable_by_key(|c| (std::cmp::Reverse(score_of(c)), c.y, c.x));
    Coverage::Pruned
}

/// The straight-four cells of `player` on every line ([`open_four_cells`]), by direction and line.
fn straight_fours(lines: &Lines, player: usize, rule: Rule) -> [[u32; LINES]; 4] {
    std::array::from_fn(|d| std::array::from_fn(|l| lines.open_four_cells(player, d, l, rule)))
}

/// Under renju, with White to move and no five for either side: fills `out` with the cells within
/// `radius` of a stone where White makes a five threat that Black cannot stop, either two winning cells
/// at once or one that is forbidden for Black (Black has no five to make instead: White's stone makes
/// none). Each wins by force.
fn unstoppable_fours(state: &GomokuState, lines: &Lines, radius: usize, out: &mut Vec<Cell>) {
    near_stones(state, radius, out);
    let white = state.mover();
    let rule = Rule::Renju.for_player(white);
    let mut work = lines.clone();
    out.retain(|&cell| {
        let mut fives = [Cell { x: 0, y: 0 }; 2];
        let mut n = 0;
        for d in 0..4 {
            let (l, i) = line_of(cell, d);
            let bit = 1u32 << i;
            let mut w = five_cells(lines.stones[white][d][l] | bit, lines.empty[d][l] & !bit, rule);
            while w != 0 && n < 2 {
                let c = cell_on_line(d, l, w.trailing_zeros());
                w &= w - 1;
                if n == 0 || fives[0] != c {
                    fives[n] = c;
                    n += 1;
                }
            }
        }
        match n {
            0 => false,
            1 => {
                work.put(white, cell);
                let forbidden = renju::foul(&work, fives[0]).is_some();
                work.remove(white, cell);
                forbidden
            }
            _ => true,
        }
    });
}

/// Clears, in a per-line table of Black's straight-four cells, the cells where a Black stone is forbidden.
fn drop_fouls(lines: &Lines, table: &mut [[u32; LINES]; 4]) {
    for (d, row) in table.iter_mut().enumerate() {
        for (l, bits) in row.iter_mut().enumerate() {
            let mut f = *bits;
            while f != 0 {
                let i = f.trailing_zeros();
                f &= f - 1;
                if renju::foul(lines, cell_on_line(d, l, i)).is_some() {
                    *bits &= !(1 << i);
                }
            }
        }
    }
}

/// Appends the cells of a per-line table of cell masks.
fn push_cells(table: &[[u32; LINES]; 4], out: &mut Vec<Cell>) {
    for (d, row) in table.iter().enumerate() {
        for (l, &bits) in row.iter().enumerate() {
            let mut f = bits;
            while f != 0 {
                out.push(cell_on_line(d, l, f.trailing_zeros()));
                f &= f - 1;
            }
        }
    }
}

/// Clears `out` and fills it with the distinct cells where `player` completes a five under `rule`, at
/// most `limit` of them (the threat searches need only know whether there are none, one or two).
pub(crate) fn distinct_fives(lines: &Lines, player: usize, rule: Rule, limit: usize, out: &mut Vec<Cell>) {
    out.clear();
    for d in 0..4 {
        for l in 0..LINES {
            if add_distinct(out, d, l, lines.five_cells(player, d, l, rule), limit) {
                return;
            }
        }
    }
}

/// Adds to `out` the cells of line `l` in direction `d` whose bits are set in `cells`, skipping cells
/// already there, until `out` holds `limit` cells; returns whether it does.
pub(crate) fn add_distinct(out: &mut Vec<Cell>, d: usize, l: usize, mut cells: u32, limit: usize) -> bool {
    while cells != 0 {
        let c = cell_on_line(d, l, cells.trailing_zeros());
        cells &= cells - 1;
        if !out.contains(&c) {
            out.push(c);
            if out.len() >= limit {
                return true;
            }
        }
    }
    false
}

/// Victory by continuous fours (VCF): a sequence of fours by `attacker`, each answered by the only
/// block, that ends in a five the defender cannot stop (an open four, two fours at once, or a four the
/// block of which is impossible). Searched depth-first on line masks with a transposition set of failed
/// positions, within `budget` nodes; the defender's only freedom is to make a five itself, which is
/// taken into account (its blocks may make fours that the attacker must answer with a four that blocks).
///
/// Returns the moves from the current position, attacker first, alternating with the forced blocks and
/// ending with the attacker's winning move; `None` when no VCF was found within the budget. Works
/// whoever is to move: when `attacker` is not the side to move, the answer is what the attacker would
/// have if the side to move passed (a threat the side to move must defuse).
///
/// Under [`Rule::Renju`], Black never plays a forbidden cell: as attacker, its fours on forbidden cells
/// are not tried; as defender, a block on a forbidden cell is no block, and White's line then ends with
/// the four that Black cannot stop (any Black reply loses).
pub fn vcf(game: &Gomoku, state: &GomokuState, attacker: usize, budget: usize) -> Option<Vec<Cell>> {
    vcf_until(game, state, attacker, budget, None)
}

/// [`vcf`] that also gives up (returns `None`) at `deadline`.
pub(crate) fn vcf_until(
    game: &Gomoku,
    state: &GomokuState,
    attacker: usize,
    budget: usize,
    deadline: Option<Instant>,
) -> Option<Vec<Cell>> {
    if state.is_terminal() {
        return None;
    }
    let mut search = Vcf {
        pos: KeyedLines::new(state),
        rule: game.rule(),
        fouls: game.rule().has_fouls(),
        attacker,
        budget,
        deadline,
        failed: HashSet::new(),
        line: Vec::new(),
    };
    search.node(0).then(|| {
        let mut moves = search.line;
        moves.reverse();
        moves
    })
}

/// The stones of a threat-space search, kept as lines, with their Zobrist key kept up to date as
/// stones are put and taken back (VCF here, VCT in `vct.rs`).
pub(super) struct KeyedLines {
    pub lines: Lines,
    pub key: u64,
}

impl KeyedLines {
    /// The stones of `state`.
    pub fn new(state: &GomokuState) -> Self {
        Self { lines: Lines::new(state), key: state.key() }
    }

    /// Puts a stone of `player` on `cell`.
    pub fn put(&mut self, player: usize, cell: Cell) {
        self.lines.put(player, cell);
        self.key ^= stone_key(player, cell);
    }

    /// Takes the stone of `player` on `cell` back.
    pub fn remove(&mut self, player: usize, cell: Cell) {
        self.lines.remove(player, cell);
        self.key ^= stone_key(player, cell);
    }
}

/// The state of one VCF search.
struct Vcf {
    /// The stones, with their Zobrist key (the side to move is always the attacker inside the search).
    pos: KeyedLines,
    rule: Rule,
    /// Whether Black has forbidden moves (renju).
    fouls: bool,
    attacker: usize,
    /// Nodes left.
    budget: usize,
    /// When to give up (checked every 256 nodes).
    deadline: Option<Instant>,
    /// Keys of positions (attacker to move) where no VCF was found.
    failed: HashSet<u64>,
    /// The winning line, last move first (filled on the way back up).
    line: Vec<Cell>,
}

/// Longest VCF searched, in attacker moves.
const VCF_DEPTH: usize = 40;

impl Vcf {
    /// Whether a stone of `player` on the empty `cell` is a forbidden move (Black under renju).
    fn forbidden(&self, player: usize, cell: Cell) -> bool {
        self.fouls && player == BLACK && renju::foul(&self.pos.lines, cell).is_some()
    }

    /// Winning cells of `player` (at most `limit`, no repeats).
    fn wins(&self, player: usize, limit: usize, out: &mut Vec<Cell>) {
        distinct_fives(&self.pos.lines, player, self.rule, limit, out);
    }

    /// Whether a stone of `player` on the empty `cell` makes a five threat (a four).
    fn makes_four(&self, player: usize, cell: Cell) -> bool {
        (0..4).any(|d| {
            let (l, i) = line_of(cell, d);
            let bit = 1u32 << i;
            let rule = self.rule.for_player(player);
            five_cells(self.pos.lines.stones[player][d][l] | bit, self.pos.lines.empty[d][l] & !bit, rule) != 0
        })
    }

    /// The cells where `player` makes a four, without repeats: on each line holding at least three of
    /// its stones, the empty cells within four of them that complete a four-in-five window.
    fn four_cells(&self, player: usize, out: &mut Vec<Cell>) {
        out.clear();
        let mut seen = [0u32; MAX_SIZE];
        let rule = self.rule.for_player(player);
        for d in 0..4 {
            for l in 0..LINES {
                let m = self.pos.lines.stones[player][d][l];
                if m.count_ones() < 3 {
                    continue;
                }
                let e = self.pos.lines.empty[d][l];
                let span = (m << 4 | m << 3 | m << 2 | m << 1 | m >> 1 | m >> 2 | m >> 3 | m >> 4) & e;
                let mut spots = span;
                while spots != 0 {
                    let i = spots.trailing_zeros();
                    spots &= spots - 1;
                    let bit = 1u32 << i;
                    if five_cells(m | bit, e & !bit, rule) != 0 {
                        let c = cell_on_line(d, l, i);
                        if seen[c.y as usize] >> c.x & 1 == 0 && !self.forbidden(player, c) {
                            seen[c.y as usize] |= 1 << c.x;
                            out.push(c);
                        }
                    }
                }
            }
        }
    }

    /// Whether the attacker, to move, has a VCF; on success `line` holds it (last move first).
    fn node(&mut self, depth: usize) -> bool {
        let (a, d) = (self.attacker, 1 - self.attacker);
        let mut cells = Vec::new();
        self.wins(a, 1, &mut cells);
        if let Some(&c) = cells.first() {
            self.line.push(c);
            return true;
        }
        if depth >= VCF_DEPTH || self.budget == 0 || self.failed.contains(&self.pos.key) {
            return false;
        }
        self.budget -= 1;
        if self.budget % 256 == 0 && self.deadline.is_some_and(|t| Instant::now() >= t) {
            self.budget = 0;
            return false;
        }
        self.wins(d, 2, &mut cells);
        match cells.len() {
            0 => self.four_cells(a, &mut cells),
            // The defender threatens a five: the only move is to block it, and it must be a four.
            1 if self.makes_four(a, cells[0]) && !self.forbidden(a, cells[0]) => {}
            _ => {
                self.failed.insert(self.pos.key);
                return false;
            }
        }
        let mut replies = Vec::new();
        for &c in &cells {
            self.pos.put(a, c);
            self.wins(a, 2, &mut replies);
            let found = match replies.len() {
                0 => false,
                // Two winning cells: one block cannot stop both (the defender has no five to make:
                // it had none, or `c` blocked its only one).
                2.. => {
                    self.line.push(replies[0]);
                    true
                }
                // Black's only block is forbidden: any Black reply loses.
                1 if self.forbidden(d, replies[0]) => true,
                1 => {
                    let block = replies[0];
                    self.pos.put(d, block);
                    let found = self.node(depth + 1);
                    self.pos.remove(d, block);
                    if found {
                        self.line.push(block);
                    }
                    found
                }
            };
            self.pos.remove(a, c);
            if found {
                self.line.push(c);
                return true;
            }
        }
        self.failed.insert(self.pos.key);
        false
    }
}
