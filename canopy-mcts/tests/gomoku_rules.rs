//! Gomoku rules, tactics and parsers: every row of tests/data/gomoku.tsv (copied from
//! shared/cases/gomoku.tsv), plus unit and property tests of the public API.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::gomoku::{
    parse_moves, random, threat, Cell, Gomoku, GomokuPolicy, GomokuState, PositionError, Rule, BLACK, WHITE,
};
use canopy_mcts::rng::seeded;
use canopy_mcts::{Coverage, Game, Policy, Turn};
use proptest::prelude::*;

const CASES: &str = include_str!("../../tests/data/gomoku.tsv");

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace().map(|t| Cell::parse(t).unwrap_or_else(|| panic!("bad cell {t}"))).collect()
}

fn sorted(mut v: Vec<Cell>) -> Vec<Cell> {
    v.sort_by_key(|c| (c.y, c.x));
    v
}

/// One case row: id, game, position, expected text.
struct Case {
    id: String,
    game: Gomoku,
    state: GomokuState,
    expected: String,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for line in CASES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 6, "row {line}");
        let game = Gomoku::new(15, f[1].parse().unwrap());
        let state = game.from_stones(&cells(f[2]), &cells(f[3])).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        out.push(Case { id: f[0].to_string(), game, state, expected: f[4].to_string() });
    }
    out
}

#[test]
fn every_case_row_is_read() {
    let ids: Vec<String> = cases().into_iter().map(|c| c.id).collect();
    assert_eq!(ids, ["T1", "T2", "T3", "T4", "R1", "R2"]);
}

/// T-rows: the side to move's winning cells (or, when it has none, the opponent's, which it must block)
/// are exactly the expected set, and the rollout policy and the threat agent choose from it.
#[test]
fn tactics_rows() {
    for case in cases().into_iter().filter(|c| c.id.starts_with('T')) {
        let (game, state) = (&case.game, &case.state);
        let expected = sorted(case.expected.split(" or ").flat_map(cells).collect());
        let me = state.mover();
        let mine = game.winning_moves(state, me);
        let threats = if mine.is_empty() { game.winning_moves(state, 1 - me) } else { mine.clone() };
        assert_eq!(threats, expected, "{}: winning/blocking cells", case.id);
        for seed in 0..20 {
            let mut rng = seeded(seed, 0);
            let policy = GomokuPolicy::default().rollout_move(game, state, &mut rng).unwrap();
            assert!(expected.contains(&policy), "{}: rollout policy chose {policy}", case.id);
            let agent = threat(game, state, &mut rng).unwrap();
            assert!(expected.contains(&agent), "{}: threat agent chose {agent}", case.id);
        }
        // Playing a winning cell ends the game; a block leaves it open.
        for &cell in &expected {
            let mut next = state.clone();
            game.try_apply(&mut next, cell).unwrap();
            let wins = !mine.is_empty();
            assert_eq!(next.winner(), wins.then_some(me), "{}: after {cell}", case.id);
        }
    }
}

/// R1: six in a row wins under freestyle.
#[test]
fn r1_overline_wins_under_freestyle() {
    let case = cases().into_iter().find(|c| c.id == "R1").unwrap();
    assert_eq!(case.game.rule(), Rule::Freestyle);
    let target = Cell::parse(&case.expected).unwrap();
    assert_eq!(case.state.mover(), BLACK);
    assert_eq!(case.game.winning_moves(&case.state, BLACK), vec![target]);
    let mut next = case.state.clone();
    case.game.apply(&mut next, target);
    assert_eq!(next.winner(), Some(BLACK));
    assert_eq!(case.game.to_move(&next), Turn::Terminal);
    assert_eq!(case.game.returns(&next), [1.0, 0.0]);
}

/// R2: six in a row is no win under standard rules.
#[test]
fn r2_overline_is_no_win_under_standard() {
    let case = cases().into_iter().find(|c| c.id == "R2").unwrap();
    assert_eq!(case.game.rule(), Rule::Standard);
    let target = Cell::parse(case.expected.strip_prefix("no win at ").unwrap()).unwrap();
    assert_eq!(case.state.mover(), BLACK);
    assert!(!case.game.winning_moves(&case.state, BLACK).contains(&target));
    let mut next = case.state.clone();
    case.game.apply(&mut next, target);
    assert_eq!(next.winner(), None);
    assert_eq!(case.game.to_move(&next), Turn::Player(WHITE));
}

/// Builds a position where Black has `line` minus its `gap`-th stone, with White stones far away, and
/// checks that the gap is Black's winning move and that playing it wins (Black to move).
fn check_black_completes(game: &Gomoku, line: &[Cell], gap: usize) {
    let black: Vec<Cell> = line.iter().enumerate().filter(|&(i, _)| i != gap).map(|(_, &c)| c).collect();
    let size = game.size();
    let mut white = Vec::new();
    let mut spare = (0..size * size).map(|i| Cell::from_index(i, size)).filter(|c| {
        // Far from the line (no neighbour of any of its cells), so White never touches it.
        line.iter().all(|l| (l.x as i32 - c.x as i32).abs() > 1 || (l.y as i32 - c.y as i32).abs() > 1)
    });
    // White's stones are scattered so they never make a line of their own.
    while white.len() < black.len() {
        let c = spare.next().expect("room for white stones");
        if white.iter().all(|w: &Cell| (w.x as i32 - c.x as i32).abs() > 1 || (w.y as i32 - c.y as i32).abs() > 1) {
            white.push(c);
        }
    }
    let state = game.from_stones(&black, &white).unwrap();
    assert_eq!(state.mover(), BLACK);
    let target = line[gap];
    assert!(game.winning_moves(&state, BLACK).contains(&target), "{line:?} gap {gap}\n{state}");
    let mut next = state.clone();
    game.apply(&mut next, target);
    assert_eq!(next.winner(), Some(BLACK), "{line:?} gap {gap}\n{next}");
}

fn line(start: (usize, usize), (dx, dy): (i32, i32), n: usize) -> Vec<Cell> {
    (0..n as i32).map(|k| Cell::new((start.0 as i32 + k * dx) as usize, (start.1 as i32 + k * dy) as usize)).collect()
}

#[test]
fn five_wins_in_every_direction_and_at_the_edges() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        for size in [7, 15, 20] {
            let game = Gomoku::new(size, rule);
            let m = size - 1;
            let lines = [
                line((0, 0), (1, 0), 5),         // top edge, from the left corner
                line((m - 4, m), (1, 0), 5),     // bottom edge, to the right corner
                line((0, 0), (0, 1), 5),         // left edge
                line((m, m - 4), (0, 1), 5),     // right edge, to the bottom corner
                line((0, 0), (1, 1), 5),         // main diagonal, top-left corner
                line((m - 4, m - 4), (1, 1), 5), // main diagonal, bottom-right corner
                line((m, 0), (-1, 1), 5),        // anti-diagonal from the top-right corner
                line((4, m - 4), (-1, 1), 5),    // anti-diagonal to the bottom-left corner
                line((1, 2), (1, 1), 5),         // a diagonal off the main one
                line((m - 1, 1), (-1, 1), 5),    // an anti-diagonal off the main one
            ];
            for l in &lines {
                for gap in 0..5 {
                    check_black_completes(&game, l, gap);
                }
            }
        }
    }
}

#[test]
fn exact_five_and_overline_under_both_rules() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        let game = Gomoku::new(15, rule);
        // Exactly five: X X X X _ . with the far end open, or closed by White: a win under both rules.
        let s = game.from_moves("3,3 0,0 4,3 0,2 5,3 0,4 6,3 8,3").unwrap();
        assert_eq!(game.winning_moves(&s, BLACK), vec![Cell::new(2, 3), Cell::new(7, 3)]);
        // Six: X X X _ X X, filling the gap makes six.
        let s = game.from_moves("3,5 0,0 4,5 0,2 5,5 0,4 7,5 0,6 8,5 0,8").unwrap();
        let six = Cell::new(6, 5);
        let mut next = s.clone();
        game.apply(&mut next, six);
        match rule {
            Rule::Freestyle => {
                assert!(game.winning_moves(&s, BLACK).contains(&six));
                assert_eq!(next.winner(), Some(BLACK));
            }
            Rule::Standard => {
                assert!(!game.winning_moves(&s, BLACK).contains(&six));
                assert_eq!(next.winner(), None);
            }
            Rule::Renju => unreachable!("renju has its own tests (gomoku_renju.rs)"),
        }
        // Seven: X X X _ X X X.
        let s = game.from_moves("3,7 0,0 4,7 0,2 5,7 0,4 7,7 0,6 8,7 0,8 9,7 0,10").unwrap();
        let mut next = s.clone();
        game.apply(&mut next, Cell::new(6, 7));
        assert_eq!(next.winner().is_some(), rule == Rule::Freestyle);
        // Standard: an overline on one line and exactly five on another, through the same stone, wins.
        let black = cells("0,7 1,7 2,7 4,7 5,7 3,3 3,4 3,5 3,6");
        let white = cells("10,0 12,0 14,0 10,2 12,2 14,2 10,4 12,4 14,4");
        let s = game.from_stones(&black, &white).unwrap();
        let mut next = s.clone();
        game.apply(&mut next, Cell::new(3, 7));
        assert_eq!(next.winner(), Some(BLACK));
        // A White overline is judged the same way.
        let s = game.from_moves("0,0 3,9 0,2 4,9 0,4 5,9 0,6 7,9 0,8 8,9 0,10").unwrap();
        assert_eq!(s.mover(), WHITE);
        assert_eq!(game.winning_moves(&s, WHITE).contains(&Cell::new(6, 9)), rule == Rule::Freestyle);
    }
}

/// A full 5x5 board without five in a row is a draw.
#[test]
fn full_small_board_is_a_draw() {
    let rows = ["xxoox", "ooxxo", "xxoox", "ooxxo", "xxoox"];
    for rule in [Rule::Freestyle, Rule::Standard] {
        let game = Gomoku::new(5, rule);
        let diagram = rows.join("\n");
        let full = game.parse_board(&diagram).unwrap();
        assert!(full.is_full());
        assert_eq!(game.to_move(&full), Turn::Terminal);
        assert_eq!(game.returns(&full), [0.5, 0.5]);
        let mut out = vec![Cell::new(0, 0)];
        game.legal_actions(&full, &mut out);
        assert!(out.is_empty());
        // The same board reached by play: alternate Black and White stones in row-major order.
        let black: Vec<Cell> = full.stones(BLACK).collect();
        let white: Vec<Cell> = full.stones(WHITE).collect();
        let mut s = game.new_game();
        for i in 0..25 {
            let c = if i % 2 == 0 { black[i / 2] } else { white[i / 2] };
            assert_eq!(game.to_move(&s), Turn::Player(i % 2));
            game.try_apply(&mut s, c).unwrap();
        }
        assert_eq!(s.winner(), None);
        assert_eq!(game.to_move(&s), Turn::Terminal);
        assert_eq!(s.key(), full.key());
        // Rollouts on the small board end and pay 1 in total; from one cell before the end it is a draw.
        let mut rng = seeded(7, 0);
        let mut scratch = Vec::new();
        let mut draws = 0;
        let policy = GomokuPolicy::default();
        for _ in 0..2000 {
            let r = policy.rollout(&game, &game.new_game(), &mut rng, &mut scratch);
            assert_eq!(r[0] + r[1], 1.0);
            draws += (r[0] == 0.5) as usize;
        }
        assert!(draws > 0, "no draw in 2000 rollouts on 5x5");
        let mut almost = game.new_game();
        for i in 0..24 {
            let c = if i % 2 == 0 { black[i / 2] } else { white[i / 2] };
            game.apply(&mut almost, c);
        }
        assert_eq!(policy.rollout(&game, &almost, &mut rng, &mut scratch), [0.5, 0.5]);
    }
}

#[test]
fn parse_errors_name_the_move() {
    let msg = |r: Result<Vec<Cell>, PositionError>| r.unwrap_err().to_string();
    let off = |token: &str| format!("move 3 '{token}' is not a cell of the 15x15 board (x,y with 0 <= x,y < 15)");
    assert_eq!(msg(parse_moves("7,7 8,8 99,3", 15)), off("99,3"));
    assert_eq!(msg(parse_moves("7,7 8,8 15,3", 15)), off("15,3"));
    assert_eq!(msg(parse_moves("7,7 8,8 -1,3", 15)), off("-1,3"));
    assert_eq!(msg(parse_moves("7,7 8,8 3,-1", 15)), off("3,-1"));
    assert_eq!(msg(parse_moves("7,7 8,8 7,7", 15)), "move 3 '7,7' is on an occupied cell");
    assert_eq!(msg(parse_moves("7,7 x,8", 15)), "move 2 'x,8' is not of the form x,y (column,row, 0-based)");
    for bad in ["7", "7,", ",7", "7,7,7", "-x,3", "7.5,3", "7;7", "--json"] {
        assert!(
            matches!(parse_moves(bad, 15), Err(PositionError::Malformed { index: 1, .. })),
            "{bad}: {:?}",
            parse_moves(bad, 15)
        );
    }
    assert_eq!(msg(parse_moves("1,1", 21)), "board size 21 is outside 5..=20");
    assert_eq!(parse_moves(" 7,7\t8,8;9,9\n", 15).unwrap(), cells("7,7 8,8 9,9"));
    assert_eq!(parse_moves("", 15).unwrap(), vec![]);

    let game = Gomoku::new(15, Rule::Freestyle);
    let after = game.from_moves("0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0 4,1").unwrap_err();
    assert_eq!(after.to_string(), "move 10 '4,1' comes after the game ended");
    let counts = game.from_stones(&cells("1,1 2,2 3,3"), &cells("4,4")).unwrap_err();
    assert_eq!(counts.to_string(), "impossible stone counts: 3 black and 1 white (Black moves first)");
    let counts = game.from_stones(&cells("1,1"), &cells("4,4 5,5")).unwrap_err();
    assert!(matches!(counts, PositionError::Counts { black: 1, white: 2 }));
    let twice = game.from_stones(&cells("1,1"), &cells("1,1")).unwrap_err();
    assert_eq!(twice.to_string(), "cell 1,1 is occupied");
    let off = game.from_stones(&cells("15,1"), &[]).unwrap_err();
    assert_eq!(off.to_string(), "cell 15,1 is off the 15x15 board");
    let both = game.from_stones(&cells("0,0 1,0 2,0 3,0 4,0"), &cells("0,5 1,5 2,5 3,5 4,5"));
    assert_eq!(both.unwrap_err(), PositionError::BothWin);
    // The winner made the last move: Black's five with as many white stones, White's five with a black
    // stone more, came after the game ended.
    let late = game.from_stones(&cells("0,0 1,0 2,0 3,0 4,0"), &cells("0,5 1,5 2,5 3,5 9,9"));
    assert_eq!(late.unwrap_err(), PositionError::PlayedAfterWin { winner: BLACK });
    let late = game.from_stones(&cells("0,0 1,0 2,0 3,0 9,9 8,8"), &cells("0,5 1,5 2,5 3,5 4,5"));
    let late = late.unwrap_err();
    assert_eq!(late, PositionError::PlayedAfterWin { winner: WHITE });
    assert_eq!(
        late.to_string(),
        "white has a winning line but black has played since (the game ends at the first five)"
    );
    let white_won = game.from_stones(&cells("0,0 1,0 2,0 3,0 9,9"), &cells("0,5 1,5 2,5 3,5 4,5")).unwrap();
    assert_eq!(white_won.winner(), Some(WHITE));
    assert_eq!(Gomoku::try_new(4, Rule::Standard).unwrap_err(), PositionError::BadSize(4));

    let mut s = game.from_moves("7,7").unwrap();
    assert_eq!(game.try_apply(&mut s, Cell::new(7, 7)), Err(PositionError::CellOccupied(Cell::new(7, 7))));
    assert_eq!(game.try_apply(&mut s, Cell::new(15, 0)).unwrap_err().to_string(), "cell 15,0 is off the 15x15 board");
    let mut won = game.from_stones(&cells("0,0 1,0 2,0 3,0 4,0"), &cells("0,5 1,5 2,5 3,5")).unwrap();
    assert_eq!(won.winner(), Some(BLACK));
    assert_eq!(game.try_apply(&mut won, Cell::new(9, 9)), Err(PositionError::GameOver));

    let small = Gomoku::new(5, Rule::Freestyle);
    let e = small.parse_board("x....\n.....\n.....\n.....").unwrap_err();
    assert_eq!(e.to_string(), "the diagram has 4 rows, expected 5");
    let e = small.parse_board("x....\n.....\n..z..\n.....\n.....").unwrap_err();
    assert_eq!(e.to_string(), "diagram row 2: bad cell 'z' (use x, o or .)");
    let e = small.parse_board("x....\n......\n.....\n.....\n.....").unwrap_err();
    assert_eq!(e.to_string(), "diagram row 1 has 6 cells, expected 5");
}

#[test]
fn diagrams_round_trip() {
    let game = Gomoku::new(15, Rule::Standard);
    let s = game.from_moves("7,7 8,8 7,8 0,14 14,0 14,14 3,9").unwrap();
    let text = s.to_string();
    assert!(text.lines().nth(1).unwrap().starts_with(" 0  ."), "{text}");
    assert_eq!(text.lines().count(), 16);
    let back = game.parse_board(&text).unwrap();
    assert_eq!(back.key(), s.key());
    assert_eq!(back.to_string(), text);
    assert_eq!(sorted(back.stones(BLACK).collect()), sorted(s.stones(BLACK).collect()));
    assert_eq!(back.mover(), WHITE);

    let plain = "x o . . .\n. x . . .\n. . . . .\n. . . . .\n. . . . o";
    let small = Gomoku::new(5, Rule::Freestyle);
    let p = small.parse_board(plain).unwrap();
    assert_eq!(p.stone(Cell::new(0, 0)), Some(BLACK));
    assert_eq!(p.stone(Cell::new(1, 0)), Some(WHITE));
    assert_eq!(p.stone(Cell::new(1, 1)), Some(BLACK));
    assert_eq!(p.stone(Cell::new(4, 4)), Some(WHITE));
    assert_eq!(p.mover(), BLACK);
    assert_eq!(small.parse_board(&p.to_string()).unwrap(), p);
    // Compact rows and upper case read the same.
    assert_eq!(small.parse_board("XO...\n.X...\n.....\n.....\n....O").unwrap(), p);
}

#[test]
fn candidates_and_game_trait_basics() {
    let game = Gomoku::default();
    let policy = GomokuPolicy::default();
    assert_eq!((game.size(), game.rule(), policy.radius()), (15, Rule::Freestyle, 2));
    assert_eq!(game.players(), 2);
    assert_eq!(game.value_bounds(), Some((0.0, 1.0)));
    assert!(!game.has_rewards());
    // The rules: every empty cell, row-major.
    let mut out = Vec::new();
    let s = game.new_game();
    game.legal_actions(&s, &mut out);
    assert_eq!(out.len(), 225);
    assert_eq!((out[0], out[16]), (Cell::new(0, 0), Cell::new(1, 1)));
    let s = game.from_moves("7,7 0,0").unwrap();
    game.legal_actions(&s, &mut out);
    assert_eq!(out.len(), 223);
    assert!(!out.contains(&Cell::new(7, 7)) && !out.contains(&Cell::new(0, 0)));
    assert!(
        game.is_legal(&s, Cell::new(14, 14), &mut Vec::new()) && !game.is_legal(&s, Cell::new(0, 0), &mut Vec::new())
    );
    // The policy's candidates: the centre on the empty board, then the cells near the stones.
    assert_eq!(policy.candidates(&game, &game.new_game(), &mut out), Coverage::Pruned);
    assert_eq!(out, vec![Cell::new(7, 7)]);
    let s = game.from_moves("7,7").unwrap();
    policy.candidates(&game, &s, &mut out);
    assert_eq!(out.len(), 24);
    assert!(out.iter().all(|c| (c.x as i32 - 7).abs() <= 2 && (c.y as i32 - 7).abs() <= 2));
    // A corner stone has 8 candidates within radius 2; radius 1 gives 3.
    let s = game.from_moves("0,0").unwrap();
    policy.candidates(&game, &s, &mut out);
    assert_eq!(out.len(), 8);
    policy.with_radius(1).candidates(&game, &s, &mut out);
    assert_eq!(out, cells("1,0 0,1 1,1"));
    assert_eq!(game.action_name(&Cell::new(3, 11)), "3,11");
    assert_eq!(Cell::new(3, 11).index(15), 168);
    assert_eq!(Cell::from_index(168, 15), Cell::new(3, 11));
}

#[test]
fn agents_choose_candidates_and_rollouts_are_reproducible() {
    let game = Gomoku::new(9, Rule::Freestyle);
    let mut rng = seeded(1, 0);
    let mut s = game.new_game();
    let mut out = Vec::new();
    // Threat against random: every move is a candidate, and the game ends.
    let mut turn = 0;
    while !s.is_terminal() {
        GomokuPolicy::default().candidates(&game, &s, &mut out);
        let c = if turn % 2 == 0 { threat(&game, &s, &mut rng) } else { random(&game, &s, &mut rng) };
        let c = c.unwrap();
        assert!(out.contains(&c));
        game.apply(&mut s, c);
        turn += 1;
    }
    assert!(threat(&game, &s, &mut rng).is_none());
    assert!(random(&game, &s, &mut rng).is_none());
    let start = game.from_moves("4,4 4,5").unwrap();
    let mut scratch = Vec::new();
    let policy = GomokuPolicy::default();
    let a: Vec<_> = (0..50).map(|i| policy.rollout(&game, &start, &mut seeded(i, 3), &mut scratch)).collect();
    let b: Vec<_> = (0..50).map(|i| policy.rollout(&game, &start, &mut seeded(i, 3), &mut scratch)).collect();
    assert_eq!(a, b);
}

/// The threat agent beats the random one on 9x9 in most games.
#[test]
fn threat_agent_beats_random() {
    let game = Gomoku::new(9, Rule::Freestyle);
    let mut wins = 0;
    for g in 0..40u64 {
        let mut rng = seeded(g, 11);
        let mut s = game.new_game();
        let threat_side = (g % 2) as usize;
        while !s.is_terminal() {
            let c = if s.mover() == threat_side { threat(&game, &s, &mut rng) } else { random(&game, &s, &mut rng) };
            game.apply(&mut s, c.unwrap());
        }
        wins += (s.winner() == Some(threat_side)) as usize;
    }
    assert!(wins >= 36, "threat agent won {wins} of 40");
}

/// The threat agent's scores follow the documented order of priorities.
#[test]
fn threat_scores_follow_the_tiers() {
    use canopy_mcts::games::gomoku::{threat_score, BLOCK_OPEN_FOUR, FOUR, OPEN_THREE};
    let game = Gomoku::new(15, Rule::Freestyle);
    let score = |s: &GomokuState, c: &str| threat_score(&game, s, Cell::parse(c).unwrap()).unwrap();
    // Black (to move) has two in a row: the open-three cells score as such, the best are next to them.
    let s = game.from_stones(&cells("7,7 8,7"), &cells("0,0 14,14")).unwrap();
    for c in ["5,7", "6,7", "9,7", "10,7"] {
        assert!((OPEN_THREE..FOUR).contains(&score(&s, c)), "{c}: {}", score(&s, c));
    }
    assert!(score(&s, "11,7") < OPEN_THREE);
    for seed in 0..10 {
        let c = threat(&game, &s, &mut seeded(seed, 0)).unwrap();
        assert!(c == Cell::new(6, 7) || c == Cell::new(9, 7), "{c}");
    }
    // White to move against Black's open three: block at one of its ends.
    let s = game.from_stones(&cells("6,7 7,7 8,7"), &cells("0,0 14,14")).unwrap();
    for c in ["5,7", "9,7"] {
        assert!((BLOCK_OPEN_FOUR..FOUR).contains(&score(&s, c)), "{c}: {}", score(&s, c));
    }
    for seed in 0..10 {
        let c = threat(&game, &s, &mut seeded(seed, 0)).unwrap();
        assert!(c == Cell::new(5, 7) || c == Cell::new(9, 7), "{c}");
    }
    // Black to move with a closed three and facing White's open three: making a four comes first.
    let s = game.from_stones(&cells("1,1 2,1 3,1 9,9"), &cells("0,1 6,7 7,7 8,7")).unwrap();
    let c = threat(&game, &s, &mut seeded(0, 0)).unwrap();
    assert!(score(&s, &c.to_string()) >= FOUR, "{c}");
    assert!(c.y == 1, "{c}");
    assert_eq!(threat_score(&game, &s, Cell::new(1, 1)), None);
}

/// The moves of a 9x9 game from the empty board, each the empty cell that the next of `picks` chooses
/// (modulo the empty cells), as (position before, cell, position after), up to the first move that
/// would end the game.
fn moves_going_on(game: &Gomoku, picks: &[u16]) -> Vec<(GomokuState, Cell, GomokuState)> {
    let mut s = game.new_game();
    let mut moves = Vec::new();
    for &p in picks {
        let empty: Vec<Cell> = (0..81).map(|i| Cell::from_index(i, 9)).filter(|&c| s.stone(c).is_none()).collect();
        let c = empty[p as usize % empty.len()];
        let mut next = s.clone();
        game.apply(&mut next, c);
        if next.is_terminal() {
            break;
        }
        moves.push((s, c, next.clone()));
        s = next;
    }
    moves
}

proptest! {
    /// Zobrist keys: the incrementally kept key equals the key from scratch after every move, and the
    /// same stones reached in another order (or built from a stone list) have the same key.
    #[test]
    fn zobrist_incremental_equals_scratch(
        size in 5usize..=20,
        picks in prop::collection::vec(any::<u16>(), 0..60),
        standard in any::<bool>(),
    ) {
        let rule = if standard { Rule::Standard } else { Rule::Freestyle };
        let game = Gomoku::new(size, rule);
        let mut s = game.new_game();
        prop_assert_eq!(s.key(), s.key_from_scratch());
        for p in picks {
            if s.is_terminal() {
                break;
            }
            let empty: Vec<Cell> = (0..size * size)
                .map(|i| Cell::from_index(i, size))
                .filter(|&c| s.stone(c).is_none())
                .collect();
            let c = empty[p as usize % empty.len()];
            let before = s.key();
            game.try_apply(&mut s, c).unwrap();
            prop_assert_ne!(s.key(), before);
            prop_assert_eq!(s.key(), s.key_from_scratch());
            prop_assert_eq!(game.zobrist(&s), Some(s.key()));
        }
        let black: Vec<Cell> = s.stones(BLACK).collect();
        let white: Vec<Cell> = s.stones(WHITE).collect();
        let rebuilt = game.from_stones(&black, &white).unwrap();
        prop_assert_eq!(rebuilt.key(), s.key());
        prop_assert_eq!(rebuilt.winner(), s.winner());
        // Replaying Black's and White's stones in reverse order reaches the same key (when no five
        // appears earlier on the way, which reversal cannot guarantee, only the final key is compared).
        let mut r = game.new_game();
        for i in 0..black.len() + white.len() {
            let c = if i % 2 == 0 { black[black.len() - 1 - i / 2] } else { white[white.len() - 1 - i / 2] };
            game.apply(&mut r, c);
        }
        prop_assert_eq!(r.key(), s.key());
    }

    /// Where `apply` leaves the game going, `apply_to_non_terminal` (the search's move down a path
    /// whose node says the game goes on) leaves the same state, under all three rules (renju's fouls
    /// end the game too).
    #[test]
    fn apply_to_non_terminal_matches_apply_where_the_game_goes_on(
        picks in prop::collection::vec(any::<u16>(), 0..80),
        rule in 0u8..3,
    ) {
        let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][rule as usize];
        let game = Gomoku::new(9, rule);
        for (before, c, after) in moves_going_on(&game, &picks) {
            let mut skipped = before;
            game.apply_to_non_terminal(&mut skipped, c);
            prop_assert_eq!(&skipped, &after);
        }
    }

    /// `winning_moves` agrees with playing each empty cell and asking whether it won.
    #[test]
    fn winning_moves_agree_with_apply(
        picks in prop::collection::vec(any::<u16>(), 0..80),
        standard in any::<bool>(),
    ) {
        let rule = if standard { Rule::Standard } else { Rule::Freestyle };
        let game = Gomoku::new(9, rule);
        let s = moves_going_on(&game, &picks).pop().map_or_else(|| game.new_game(), |(_, _, after)| after);
        let me = s.mover();
        let expected: Vec<Cell> = (0..81)
            .map(|i| Cell::from_index(i, 9))
            .filter(|&c| s.stone(c).is_none())
            .filter(|&c| {
                let mut t = s.clone();
                game.apply(&mut t, c);
                t.winner() == Some(me)
            })
            .collect();
        prop_assert_eq!(game.winning_moves(&s, me), expected);
    }
}
