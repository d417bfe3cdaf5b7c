//! Proofs must be true: every position MCTS-Solver proves in the tactical cases of
//! tests/data/gomoku-proofs.tsv (searched with the brain's threat pruning) is re-checked by an
//! independent solver that prunes nothing where it matters: at the loser's nodes it tries every empty
//! cell of the board, so a proof that rests on a left-out defence fails here.
#![cfg(not(canopy_loom))]

use std::collections::HashMap;

use canopy_mcts::games::gomoku::{
    default_search_params, Cell, Gomoku, GomokuPolicy, GomokuState, How, Plan, Player, Rule, Tuning,
    DEFAULT_EXPLORATION, DEFAULT_PUCT_EXPLORATION, DEFAULT_SELECTION, REFUTATION,
};
use canopy_mcts::search::{Event, Limits, ProvenNode};
use canopy_mcts::{Coverage, Game, Policy, Proof, Rng, SearchParams, Session};

const CASES: &str = include_str!("../../tests/data/gomoku-proofs.tsv");

/// One row of the case file.
struct Case {
    id: String,
    game: Gomoku,
    state: GomokuState,
    /// The stones, for messages.
    moves: String,
}

fn cases() -> Vec<Case> {
    CASES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('|').map(str::trim).collect();
            assert!(f.len() >= 5, "malformed row: {line}");
            let rule: Rule = f[1].parse().unwrap();
            let game = Gomoku::new(15, rule);
            let cells = |text: &str| text.split_whitespace().map(|c| Cell::parse(c).unwrap()).collect::<Vec<_>>();
            let state = game.from_stones(&cells(f[2]), &cells(f[3])).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
            Case { id: f[0].to_string(), game, state, moves: format!("black {} / white {}", f[2], f[3]) }
        })
        .collect()
}

/// The independent checker's board: its own cells, five test and Zobrist keys, so that it shares no
/// code with the library's rules or tactics.
struct Board {
    size: i32,
    /// 0 empty, 1 Black, 2 White, row-major.
    cells: Vec<u8>,
    /// Exactly five wins (standard) rather than five or more (freestyle).
    exact: bool,
    mover: usize,
    key: u64,
    zobrist: Vec<[u64; 2]>,
}

impl Board {
    fn new(game: &Gomoku, s: &GomokuState) -> Board {
        let size = game.size();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            // splitmix64
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let zobrist = (0..size * size).map(|_| [next(), next()]).collect();
        let mut b = Board {
            size: size as i32,
            cells: vec![0; size * size],
            exact: game.rule() == Rule::Standard,
            mover: 0,
            key: 0,
            zobrist,
        };
        for i in 0..size * size {
            if let Some(p) = s.stone(Cell::from_index(i, size)) {
                b.cells[i] = p as u8 + 1;
                b.key ^= b.zobrist[i][p];
            }
        }
        b.mover = s.mover();
        b
    }

    fn put(&mut self, i: usize) {
        self.cells[i] = self.mover as u8 + 1;
        self.key ^= self.zobrist[i][self.mover];
        self.mover = 1 - self.mover;
    }

    fn take(&mut self, i: usize) {
        self.mover = 1 - self.mover;
        self.cells[i] = 0;
        self.key ^= self.zobrist[i][self.mover];
    }

    fn at(&self, x: i32, y: i32) -> Option<u8> {
        ((0..self.size).contains(&x) && (0..self.size).contains(&y)).then(|| self.cells[(y * self.size + x) as usize])
    }

    /// Whether a stone of `p` on the empty cell `i` makes a winning line.
    fn makes_five(&self, i: usize, p: usize) -> bool {
        let (x, y) = ((i as i32) % self.size, (i as i32) / self.size);
        let stone = p as u8 + 1;
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
                while self.at(cx, cy) == Some(stone) {
                    run += 1;
                    cx += sign * dx;
                    cy += sign * dy;
                }
            }
            if self.exact {
                run == 5
            } else {
                run >= 5
            }
        })
    }

    /// The empty cells where `p` makes a winning line.
    fn fives(&self, p: usize) -> Vec<usize> {
        (0..self.cells.len()).filter(|&i| self.cells[i] == 0 && self.makes_five(i, p)).collect()
    }

    /// How many empty cells on the four lines through `i` (within four of it) make a winning line for `p`.
    fn fives_around(&self, i: usize, p: usize) -> usize {
        let (x, y) = ((i as i32) % self.size, (i as i32) / self.size);
        let mut found: Vec<usize> = Vec::new();
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for k in -4..=4 {
                let (cx, cy) = (x + k * dx, y + k * dy);
                if self.at(cx, cy) == Some(0) {
                    let j = (cy * self.size + cx) as usize;
                    if !found.contains(&j) && self.makes_five(j, p) {
                        found.push(j);
                    }
                }
            }
        }
        found.len()
    }

    /// The empty cells within two of a stone: where a threat move can be (a four or an open three needs
    /// stones of its own within two of the cell).
    fn near(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| {
                let (x, y) = ((i as i32) % self.size, (i as i32) / self.size);
                self.cells[i] == 0
                    && (-2..=2).any(|dy| (-2..=2).any(|dx| self.at(x + dx, y + dy).is_some_and(|c| c != 0)))
            })
            .collect()
    }
}

/// The independent checker: a depth-first proof search with complete defences.
///
/// `wins` holds when the player to move wins by force: it has a five to make; or it must block the
/// opponent's only five and then the opponent loses; or one of its threat moves (a move the search
/// under test proved winning, a straight four, a four, then an open three) leaves the opponent lost.
/// `loses` holds when every empty cell of the board leaves the opponent winning. Depth is bounded in
/// moves of the attacker and work by a node budget; a position not settled within them counts as not
/// confirmed.
struct Checker {
    board: Board,
    /// Positions the search under test proved, by the checker's key: the result for the player to move.
    proven: HashMap<u64, Proof>,
    /// Results settled so far, by (key, asked for a win): the smallest depth at which the result was
    /// confirmed (it holds at every greater depth) and the greatest at which it was not (nor at any
    /// smaller one).
    memo: HashMap<(u64, bool), (u32, u32)>,
    nodes: u64,
    budget: u64,
}

impl Checker {
    /// A checker of `state` with the search's proven positions `proven` and a node budget.
    fn new(game: &Gomoku, state: &GomokuState, proven: HashMap<u64, Proof>, budget: u64) -> Checker {
        Checker { board: Board::new(game, state), proven, memo: HashMap::new(), nodes: 0, budget }
    }

    /// Whether the player to move is proven to have `result` (a win or a loss), by iterative deepening:
    /// the short lines first, so that one long refutation does not use up the budget.
    fn confirm(&mut self, result: Proof) -> bool {
        (1..=DEPTH).any(|d| if result == Proof::Win { self.wins(d) } else { self.loses(d) })
    }

    fn recall(&self, win: bool, depth: u32) -> Option<bool> {
        let &(confirmed, failed) = self.memo.get(&(self.board.key, win))?;
        if confirmed <= depth {
            Some(true)
        } else if failed >= depth {
            Some(false)
        } else {
            None
        }
    }

    fn remember(&mut self, win: bool, depth: u32, confirmed: bool) {
        let entry = self.memo.entry((self.board.key, win)).or_insert((u32::MAX, 0));
        if confirmed {
            entry.0 = entry.0.min(depth);
        } else {
            entry.1 = entry.1.max(depth);
        }
    }

    fn wins(&mut self, depth: u32) -> bool {
        let (me, op) = (self.board.mover, 1 - self.board.mover);
        if !self.board.fives(me).is_empty() {
            return true;
        }
        match self.board.fives(op)[..] {
            [] => {}
            [only] => {
                self.board.put(only);
                let lost = self.loses(depth);
                self.board.take(only);
                return lost;
            }
            _ => return false,
        }
        if depth == 0 || self.nodes >= self.budget {
            return false;
        }
        if let Some(known) = self.recall(true, depth) {
            return known;
        }
        self.nodes += 1;
        let near = self.board.near();
        let mut moves: Vec<(u8, usize)> = Vec::new();
        for &i in &near {
            self.board.put(i);
            let rank = if self.proven.get(&self.board.key) == Some(&Proof::Loss) {
                Some(0)
            } else {
                match self.board.fives_around(i, me) {
                    0 => None,
                    1 => Some(2),
                    _ => Some(1),
                }
            };
            self.board.take(i);
            if let Some(r) = rank {
                moves.push((r, i));
            }
        }
        moves.sort_unstable();
        let mut found = false;
        for &(_, i) in &moves {
            self.board.put(i);
            found = self.loses(depth - 1);
            self.board.take(i);
            if found {
                break;
            }
        }
        if !found {
            // Open threes: moves after which the attacker has a straight four to make next to them.
            for &i in &near {
                if moves.iter().any(|m| m.1 == i) {
                    continue;
                }
                self.board.put(i);
                let three = self.straight_four_next_to(i, me);
                if three && self.loses(depth - 1) {
                    found = true;
                }
                self.board.take(i);
                if found {
                    break;
                }
            }
        }
        self.remember(true, depth, found);
        found
    }

    /// Whether `p` has a cell on the lines through `i` (within four) after which it has two fives to make.
    fn straight_four_next_to(&mut self, i: usize, p: usize) -> bool {
        let size = self.board.size;
        let (x, y) = ((i as i32) % size, (i as i32) / size);
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for k in -4..=4 {
                let (cx, cy) = (x + k * dx, y + k * dy);
                if self.board.at(cx, cy) != Some(0) {
                    continue;
                }
                let j = (cy * size + cx) as usize;
                self.board.cells[j] = p as u8 + 1;
                let two = self.board.fives_around(j, p) >= 2;
                self.board.cells[j] = 0;
                if two {
                    return true;
                }
            }
        }
        false
    }

    fn loses(&mut self, depth: u32) -> bool {
        let me = self.board.mover;
        if !self.board.fives(me).is_empty() {
            return false;
        }
        if let Some(known) = self.recall(false, depth) {
            return known;
        }
        // Against a five to make, any other move loses at once (the defender has none of its own): only
        // the block is worth trying, and two fives cannot both be blocked. Otherwise every empty cell of
        // the board: this is where a pruned defence would show.
        let empty: Vec<usize> = match self.board.fives(1 - me)[..] {
            [] => (0..self.board.cells.len()).filter(|&i| self.board.cells[i] == 0).collect(),
            [only] => vec![only],
            _ => return true,
        };
        let mut lost = !empty.is_empty();
        for i in empty {
            self.board.put(i);
            let refuted = self.wins(depth);
            self.board.take(i);
            if !refuted {
                lost = false;
                break;
            }
        }
        self.remember(false, depth, lost);
        lost
    }
}

/// Replays `path` from `state`.
fn position(game: &Gomoku, state: &GomokuState, path: &[Event<Cell, canopy_mcts::NoOutcome>]) -> GomokuState {
    let mut s = state.clone();
    for e in path {
        match e {
            Event::Action(c) => {
                game.apply(&mut s, *c);
            }
            Event::Outcome(_) => unreachable!("Gomoku has no chance"),
        }
    }
    s
}

fn names(path: &[Event<Cell, canopy_mcts::NoOutcome>]) -> String {
    path.iter()
        .map(|e| match e {
            Event::Action(c) => format!("{},{}", c.x, c.y),
            Event::Outcome(_) => unreachable!(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Attacker moves the checker may look ahead (each followed by a defence).
const DEPTH: u32 = 12;
/// Checker nodes per proven position.
const BUDGET: u64 = 200_000;
/// Proven positions checked per search (the deepest are the cheapest; all are checked in practice).
const LIMIT: usize = 400;

/// The brain's policy cut to its first two candidates and claiming that they are safe for proofs: the
/// kind of bug the checker is there to catch.
struct OverclaimingPolicy(GomokuPolicy);

impl Policy<Gomoku> for OverclaimingPolicy {
    fn candidates(&self, game: &Gomoku, state: &GomokuState, out: &mut Vec<Cell>) -> Coverage {
        self.0.candidates(game, state, out);
        out.truncate(2);
        Coverage::ProofSafe
    }

    fn rollout(&self, game: &Gomoku, state: &GomokuState, rng: &mut Rng, scratch: &mut Vec<Cell>) -> [f64; 2] {
        self.0.rollout(game, state, rng, scratch)
    }
}

/// Searches `case` with the brain's pruning and checks every proven node; returns the messages of the
/// ones the checker could not confirm.
fn unconfirmed_proofs(case: &Case, playouts: u64, seed: u64) -> (usize, Vec<String>) {
    unconfirmed_proofs_with(Tuning::default().policy(), case, playouts, seed, usize::MAX)
}

/// [`unconfirmed_proofs`] with another policy, stopping after `max_bad` unconfirmed proofs.
fn unconfirmed_proofs_with<P: Policy<Gomoku>>(
    policy: P,
    case: &Case,
    playouts: u64,
    seed: u64,
    max_bad: usize,
) -> (usize, Vec<String>) {
    // Seed 3 searches as the brain does by default (PUCT with the pattern priors), the others with UCT:
    // the two grow different trees over the same candidates.
    let (selection, exploration) = if seed == 3 {
        (DEFAULT_SELECTION, DEFAULT_PUCT_EXPLORATION)
    } else {
        (canopy_mcts::search::Selection::Uct, DEFAULT_EXPLORATION)
    };
    let params = SearchParams { seed, threads: 1, exploration, selection, ..SearchParams::default() };
    let mut session = Session::with_policy(case.game, policy, case.state.clone(), params);
    session.search(Limits::playouts(playouts));
    let proven: Vec<ProvenNode<Cell, canopy_mcts::NoOutcome>> = session.proven_nodes(LIMIT);
    let key_of = |path: &[Event<Cell, canopy_mcts::NoOutcome>]| {
        Board::new(&case.game, &position(&case.game, &case.state, path)).key
    };
    let by_key: HashMap<u64, Proof> = proven.iter().map(|p| (key_of(&p.path), p.proof)).collect();
    let mut bad = Vec::new();
    for p in &proven {
        let s = position(&case.game, &case.state, &p.path);
        if bad.len() >= max_bad {
            break;
        }
        if s.is_terminal() {
            continue;
        }
        let mut checker = Checker::new(&case.game, &s, by_key.clone(), BUDGET);
        let confirmed = match p.proof {
            Proof::Win => checker.confirm(Proof::Win),
            Proof::Loss => checker.confirm(Proof::Loss),
            Proof::Draw => s.is_full(),
        };
        if !confirmed {
            bad.push(format!(
                "case {} ({}), seed {seed}: {:?} for the side to move after [{}] not confirmed",
                case.id,
                case.moves,
                p.proof,
                names(&p.path)
            ));
        }
    }
    (proven.len(), bad)
}

#[test]
fn every_proof_in_the_tactical_cases_is_confirmed_without_pruning() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for case in cases() {
        for seed in [1, 2, 3] {
            let (n, b) = unconfirmed_proofs(&case, 20_000, seed);
            checked += n;
            bad.extend(b);
        }
    }
    assert!(checked > 50, "only {checked} proven nodes: the cases should exercise the solver");
    assert!(bad.is_empty(), "{} proofs not confirmed:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_checker_refutes_a_proof_that_leaves_out_a_defence() {
    // The checker itself: Black to move after the refereed game's 11,6 11,7 10,3 wins by force (a
    // sequence of fours); a "White wins" claim for that position, as the pruned tree once made, is
    // refuted because the checker tries all of Black's moves.
    let case = cases().into_iter().find(|c| c.id == "P4").unwrap();
    let s = case.state.clone();
    let checker = || Checker::new(&case.game, &s, HashMap::new(), BUDGET);
    assert!(checker().confirm(Proof::Win), "Black wins there");
    assert!(!checker().confirm(Proof::Loss), "so Black is not lost there");
}

#[test]
fn the_check_catches_proofs_over_pruned_candidates() {
    // A policy that calls a narrowing safe proves positions it has not searched: in the refereed game's
    // last position some of those proofs are false, and the check says so.
    let mut bad = Vec::new();
    for case in cases().iter().filter(|c| c.id == "P4") {
        let policy = OverclaimingPolicy(Tuning::default().policy());
        bad.extend(unconfirmed_proofs_with(policy, case, 20_000, 1, 1).1);
    }
    assert!(!bad.is_empty(), "the overclaiming policy's proofs all held: the check proves nothing");
}

#[test]
fn every_victory_by_threats_the_brain_plays_is_confirmed() {
    // The brain plays a victory by continuous fours or threats without a search: its first move must
    // leave the opponent lost, with every defence on the board tried.
    let mut tactics = 0;
    for case in cases() {
        if case.state.is_terminal() {
            continue;
        }
        let Plan::Play(cell, How::Tactic(name)) = Tuning::default().plan(&case.game, &case.state, None) else {
            continue;
        };
        tactics += 1;
        let mut next = case.state.clone();
        case.game.apply(&mut next, cell);
        let mut checker = Checker::new(&case.game, &next, HashMap::new(), BUDGET);
        let lost = next.winner().is_some() || checker.confirm(Proof::Loss);
        assert!(lost, "case {}: the {name} move {},{} is not confirmed", case.id, cell.x, cell.y);
    }
    assert!(tactics >= 3, "only {tactics} cases have a tactic to check");
}

#[test]
fn a_double_three_is_a_victory_by_threats_not_by_fours() {
    let case = cases().into_iter().find(|c| c.id == "V6").unwrap();
    let plan = Tuning::default().plan(&case.game, &case.state, None);
    assert_eq!(plan, Plan::Play(Cell::new(6, 6), How::Tactic("vct")));
    assert_eq!(canopy_mcts::games::gomoku::vcf(&case.game, &case.state, case.state.mover(), 20_000), None);
}

#[test]
fn the_brain_defuses_a_victory_by_threats() {
    // A refereed game against bench-hard (docs/gomoku-games/bots-1s-9fe1fc1.tsv, game 3), Black to move
    // after ten plies: White threatens a victory by threats (not by fours). The brain searches only the
    // moves after which White has none, and declares the rest lost (safe for proofs): each move it
    // leaves out is checked to lose, every Black defence after it tried.
    let game = Gomoku::new(15, Rule::Freestyle);
    let s = from_moves(&game, "7,7 8,8 6,7 8,7 8,10 7,8 9,8 9,6 10,5 10,6");
    assert_eq!(canopy_mcts::games::gomoku::vcf(&game, &s, 1 - s.mover(), 20_000), None);
    let plan = Tuning::default().plan(&game, &s, None);
    let Plan::Search(Some(moves)) = plan else { panic!("no restriction to the defences: {plan:?}") };
    let mut candidates = Vec::new();
    Tuning::default().policy().candidates(&game, &s, &mut candidates);
    let left_out: Vec<Cell> = candidates.iter().copied().filter(|c| !moves.contains(c)).collect();
    assert!(!left_out.is_empty() && !moves.is_empty(), "{moves:?}");
    for m in left_out {
        let mut next = s.clone();
        game.apply(&mut next, m);
        let mut checker = Checker::new(&game, &next, HashMap::new(), BUDGET);
        assert!(checker.confirm(Proof::Win), "after {},{} White's win is not confirmed", m.x, m.y);
    }
}

#[test]
fn a_position_no_move_defuses_is_searched_whole() {
    // V6 with a Black stone more far away, White to move: Black threatens the double three 6,6, and
    // every White move leaves Black a victory by threats (6,6 too: Black's 5,5 wins; the checker
    // confirms each), so the brain has no defence to restrict the search to and searches every move.
    let case = cases().into_iter().find(|c| c.id == "V6").unwrap();
    let black: Vec<Cell> = case.state.stones(0).chain([Cell::new(14, 7)]).collect();
    let white: Vec<Cell> = case.state.stones(1).collect();
    let s = case.game.from_stones(&black, &white).unwrap();
    assert_eq!(Tuning::default().plan(&case.game, &s, None), Plan::Search(None));
    let mut candidates = Vec::new();
    Tuning::default().policy().candidates(&case.game, &s, &mut candidates);
    for m in candidates {
        let mut next = s.clone();
        case.game.apply(&mut next, m);
        let mut checker = Checker::new(&case.game, &next, HashMap::new(), BUDGET);
        assert!(checker.confirm(Proof::Win), "after {},{} Black's win is not confirmed", m.x, m.y);
    }
}

#[test]
fn a_deep_victory_by_threats_is_found_within_the_budget_and_confirmed() {
    // A refereed game against bench-hard (docs/gomoku.md, "Against the local bots at 1 s per move",
    // game 16): after White's 7,4 Black wins by continuous threats. The threat-space search deepens
    // iteratively and finds it within 20 000 nodes (the depth-first search it replaced needed about 3
    // million); the independent checker confirms White lost after Black's first move.
    let game = Gomoku::new(15, Rule::Freestyle);
    let state = from_moves(&game, "6,8 5,7 6,6 6,5 7,7 7,8 8,6 9,5 5,5 8,8 6,4 7,4");
    let black = state.mover();
    let first = canopy_mcts::games::gomoku::vct(&game, &state, black, 20_000).expect("Black's victory by threats");
    let mut next = state.clone();
    game.apply(&mut next, first);
    let mut checker = Checker::new(&game, &next, HashMap::new(), BUDGET);
    assert!(checker.confirm(Proof::Loss), "Black's {},{} is not confirmed to win", first.x, first.y);
}

/// The position after `moves` (x,y from the empty board, Black first).
fn from_moves(game: &Gomoku, moves: &str) -> GomokuState {
    let mut state = game.new_game();
    for c in canopy_mcts::games::gomoku::parse_moves(moves, 15).unwrap() {
        game.apply(&mut state, c);
    }
    state
}

#[test]
fn the_refutation_check_replaces_a_best_move_that_loses_to_threats() {
    // Before White's 7,4 of the bench-hard game above: the search (seed 2) prefers 7,4, after which Black
    // wins by continuous threats; 7,4 and 7,5 are close (seed 1 picks 7,5). With the check on, the brain
    // plays a move after which the check finds no such win, and says why; with it off, the search's own
    // choice stands.
    let game = Gomoku::new(15, Rule::Freestyle);
    let state = from_moves(&game, "6,8 5,7 6,6 6,5 7,7 7,8 8,6 9,5 5,5 8,8 6,4");
    let params = SearchParams { playouts: Some(100_000), threads: 1, seed: 2, ..default_search_params() };
    let choose = |refute: u64| {
        let player = Player::Mcts { params: params.clone(), tuning: Tuning { refute, ..Tuning::default() } };
        player.choose(&game, &state, &mut canopy_mcts::rng::seeded(2, 0), None).unwrap()
    };
    let plain = choose(0);
    assert_eq!(plain.how, How::Search);
    let best = plain.report.as_ref().and_then(|r| r.best).unwrap();
    let black = 1 - state.mover();
    let mut after = state.clone();
    game.apply(&mut after, best);
    let best_refuted = canopy_mcts::games::gomoku::vct(&game, &after, black, 20_000).is_some();
    let checked = choose(20_000);
    if best_refuted {
        assert_eq!(checked.how, How::Tactic(REFUTATION));
        assert_ne!(checked.cell, best);
        let mut next = state.clone();
        game.apply(&mut next, checked.cell);
        assert_eq!(canopy_mcts::games::gomoku::vct(&game, &next, black, 20_000), None);
    } else {
        assert_eq!((checked.cell, checked.how), (best, How::Search));
    }
    // The search's choice here is 7,4 (100 000 playouts, seed 2), the refuted move of the game.
    assert!(
        best_refuted,
        "the search chose {},{}, not refuted: the test no longer exercises the check",
        best.x, best.y
    );
}

#[test]
fn a_forced_block_that_leaves_a_standing_three_wins_on() {
    // A refereed game against bench-hard (docs/gomoku-games/bots-1s-6bee718-refute.tsv, game 4), Black to
    // move after 28 plies: White's last move made a four, so Black must block at 2,12; the block is no
    // threat itself, but Black's open three 2,8 3,8 4,8 still stands, so White must answer it and
    // cannot. The threat-space search finds the win through the block, and the checker confirms it.
    let game = Gomoku::new(15, Rule::Freestyle);
    let state = from_moves(
        &game,
        "7,7 6,8 5,7 4,7 6,6 7,6 5,5 4,4 4,8 7,5 3,7 4,6 4,3 5,6 3,9 2,10 2,6 5,9 1,5 0,4 3,8 3,6 2,5 3,11 8,8 \
         9,9 2,8 4,10",
    );
    let black = state.mover();
    let first = canopy_mcts::games::gomoku::vct(&game, &state, black, 3_000).expect("Black's victory by threats");
    assert_eq!(first, Cell::new(2, 12));
    let mut next = state.clone();
    game.apply(&mut next, first);
    let mut checker = Checker::new(&game, &next, HashMap::new(), BUDGET);
    assert!(checker.confirm(Proof::Loss), "Black's block 2,12 is not confirmed to win");
}
