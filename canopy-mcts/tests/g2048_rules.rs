//! 2048 rules: every case of tests/data/2048-moves.tsv (copied from shared/cases), property tests
//! against an independent reference move, parsing, the game interface and random-play sanity.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::g2048::{zobrist, Board, BoardError, Dir, G2048Policy, G2048State, Spawn, G2048};
use canopy_mcts::rng::seeded;
use canopy_mcts::{Game, Policy, Turn, UniformPolicy};
use proptest::prelude::*;

const CASES: &str = include_str!("../../tests/data/2048-moves.tsv");

/// One row of the case file.
struct Case {
    id: String,
    board: Board,
    dir: Dir,
    /// `None` for ILLEGAL.
    expected: Option<Board>,
    score: u32,
}

fn cases() -> Vec<Case> {
    CASES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 6, "bad case line {line:?}");
            Case {
                id: f[0].to_string(),
                board: f[1].parse().unwrap_or_else(|e| panic!("{}: {e}", f[0])),
                dir: f[2].parse().unwrap_or_else(|e| panic!("{}: {e}", f[0])),
                expected: match f[3] {
                    "ILLEGAL" => None,
                    b => Some(b.parse().unwrap_or_else(|e| panic!("{}: {e}", f[0]))),
                },
                score: f[4].parse().unwrap(),
            }
        })
        .collect()
}

fn case(id: &str) -> Case {
    cases().into_iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no case {id}"))
}

#[test]
fn every_case_of_the_move_file() {
    let all = cases();
    assert_eq!(all.len(), 14, "the case file has 14 cases");
    for c in &all {
        let got = c.board.shift(c.dir);
        match c.expected {
            None => {
                assert_eq!(got, None, "{}: move {} should be illegal", c.id, c.dir);
                assert_eq!(c.score, 0, "{}", c.id);
                assert!(!c.board.legal_dirs().contains(c.dir), "{}", c.id);
            }
            Some(expected) => {
                let (after, score) = got.unwrap_or_else(|| panic!("{}: move {} is legal", c.id, c.dir));
                assert_eq!(after, expected, "{}: afterstate\n{after}\nexpected\n{expected}", c.id);
                assert_eq!(score, c.score, "{}: score", c.id);
                assert!(c.board.legal_dirs().contains(c.dir), "{}", c.id);
            }
        }
        // The game interface agrees with the board.
        let g = G2048;
        let mut s = G2048State::from_board(c.board);
        let mut legal = Vec::new();
        g.legal_actions(&s, &mut legal);
        assert_eq!(legal.contains(&c.dir), c.expected.is_some(), "{}", c.id);
        if let Some(expected) = c.expected {
            let reward = g.apply(&mut s, c.dir);
            assert_eq!(reward, f64::from(c.score), "{}", c.id);
            assert_eq!(s, G2048State { board: expected, spawn_pending: true }, "{}", c.id);
            assert_eq!(g.to_move(&s), Turn::Chance, "{}", c.id);
        }
    }
}

#[test]
fn c17_spawn_is_over_the_empty_cells_of_the_new_board() {
    let c = case("C17");
    let (after, _) = c.board.shift(c.dir).unwrap();
    assert_eq!(after.empty_mask(), (1 << 3) | (1 << 15));
    assert_eq!(after.empty_count(), 2);
    let g = G2048;
    let mut s = G2048State::from_board(c.board);
    g.apply(&mut s, c.dir);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s, &mut outcomes);
    let expected = vec![
        (Spawn { cell: 3, exponent: 1 }, 0.45),
        (Spawn { cell: 3, exponent: 2 }, 0.05),
        (Spawn { cell: 15, exponent: 1 }, 0.45),
        (Spawn { cell: 15, exponent: 2 }, 0.05),
    ];
    assert_eq!(outcomes.len(), expected.len());
    for ((o, p), (eo, ep)) in outcomes.iter().zip(&expected) {
        assert_eq!(o, eo);
        assert!((p - ep).abs() < 1e-12, "{o:?}: {p} != {ep}");
    }
    let mut rng = seeded(17, 0);
    for _ in 0..200 {
        let spawn = g.sample_outcome(&s, &mut rng);
        assert!(spawn.cell == 3 || spawn.cell == 15, "{spawn}");
    }
}

#[test]
fn c18_every_spawn_ends_the_game() {
    let c = case("C18");
    let g = G2048;
    let mut s = G2048State::from_board(c.board);
    assert_eq!(g.apply(&mut s, c.dir), 2048.0);
    assert_eq!(s.board.max_tile(), 2048);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s, &mut outcomes);
    assert_eq!(outcomes.len(), 2, "one empty cell, a 2 or a 4");
    for (spawn, _) in outcomes {
        let mut t = s;
        g.apply_outcome(&mut t, spawn);
        assert_eq!(g.to_move(&t), Turn::Terminal, "after {spawn}");
        assert!(t.board.legal_dirs().is_empty());
        assert_eq!(G2048Policy::default().rollout(&g, &t, &mut seeded(1, 0), &mut Vec::new()), [0.0]);
    }
}

#[test]
fn c20_full_board_without_moves_is_terminal() {
    let c = case("C20");
    let g = G2048;
    let s = G2048State::from_board(c.board);
    assert_eq!(g.to_move(&s), Turn::Terminal);
    assert!(c.board.legal_dirs().is_empty());
    for d in Dir::ALL {
        assert_eq!(c.board.shift(d), None, "{d}");
    }
    let mut legal = vec![Dir::Up];
    g.legal_actions(&s, &mut legal);
    assert!(legal.is_empty());
    assert_eq!(g.returns(&s), [0.0]);
}

#[test]
fn c14_tiles_beyond_four_bits() {
    let c = case("C14");
    let (after, score) = c.board.shift(Dir::Left).unwrap();
    assert_eq!(after.tile(0), 65536);
    assert_eq!(score, 65536);
    let b: Board = "65536,65536,4,4, 0,0,0,0, 0,0,0,0, 0,0,0,0".parse().unwrap();
    let (after, score) = b.shift(Dir::Right).unwrap();
    assert_eq!(after.tiles()[..4], [0, 0, 131072, 8]);
    assert_eq!(score, 131072 + 8);
    assert_eq!(after.max_tile(), 131072);
}

// ---------------------------------------------------------------------------------------------------
// Reference move: the original game's algorithm (GameManager.prototype.move in gabrielecirulli/2048),
// on plain tile values, written independently of the library's line code and tables.

fn reference_shift(tiles: [u32; 16], dir: Dir) -> Option<([u32; 16], u32)> {
    let (dr, dc): (i32, i32) = match dir {
        Dir::Up => (-1, 0),
        Dir::Down => (1, 0),
        Dir::Left => (0, -1),
        Dir::Right => (0, 1),
    };
    // Traverse from the wall the tiles move toward.
    let order: Vec<i32> = if dr == 1 || dc == 1 { vec![3, 2, 1, 0] } else { vec![0, 1, 2, 3] };
    let mut t = tiles;
    let mut merged = [false; 16];
    let mut score = 0;
    let idx = |r: i32, c: i32| (4 * r + c) as usize;
    for &a in &order {
        for b in 0..4 {
            let (r, c) = if dr != 0 { (a, b) } else { (b, a) };
            let v = t[idx(r, c)];
            if v == 0 {
                continue;
            }
            // Farthest empty cell in the direction, and the cell beyond it.
            let (mut fr, mut fc) = (r, c);
            while (0..4).contains(&(fr + dr)) && (0..4).contains(&(fc + dc)) && t[idx(fr + dr, fc + dc)] == 0 {
                fr += dr;
                fc += dc;
            }
            let (nr, nc) = (fr + dr, fc + dc);
            t[idx(r, c)] = 0;
            if (0..4).contains(&nr) && (0..4).contains(&nc) && t[idx(nr, nc)] == v && !merged[idx(nr, nc)] {
                t[idx(nr, nc)] = 2 * v;
                merged[idx(nr, nc)] = true;
                score += 2 * v;
            } else {
                t[idx(fr, fc)] = v;
            }
        }
    }
    (t != tiles).then_some((t, score))
}

#[test]
fn reference_move_passes_the_case_file() {
    for c in cases() {
        let got = reference_shift(c.board.tiles(), c.dir);
        assert_eq!(got, c.expected.map(|b| (b.tiles(), c.score)), "{}", c.id);
    }
}

/// Exponents: uniform over 0..=17, or tiles from a narrow window (many merges, often of big tiles).
fn exponents() -> impl Strategy<Value = [u8; 16]> {
    prop_oneof![
        prop::array::uniform16(0u8..=17),
        (1u8..=15, prop::array::uniform16(0u8..4))
            .prop_map(|(base, picks)| { picks.map(|p| if p == 0 { 0 } else { base + p - 1 }) }),
        prop::array::uniform16(prop_oneof![Just(0u8), 1u8..=3]),
    ]
}

fn board() -> impl Strategy<Value = Board> {
    exponents().prop_map(Board::from_exponents)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn table_move_equals_reference_move(b in board()) {
        for d in Dir::ALL {
            let got = b.shift(d).map(|(a, s)| (a.tiles(), s));
            prop_assert_eq!(got, reference_shift(b.tiles(), d), "{:?} {}", b, d);
        }
    }

    #[test]
    fn a_legal_move_changes_the_board_and_keeps_the_sum(b in board()) {
        let legal = b.legal_dirs();
        for d in Dir::ALL {
            match b.shift(d) {
                Some((after, score)) => {
                    prop_assert!(legal.contains(d));
                    prop_assert_ne!(after, b);
                    prop_assert_eq!(after.sum(), b.sum());
                    prop_assert!(after.empty_count() >= 1);
                    prop_assert_eq!(score % 4, 0);
                }
                None => {
                    prop_assert!(!legal.contains(d));
                    prop_assert_eq!(b.afterstate(d), (b, 0));
                }
            }
        }
    }

    #[test]
    fn the_sum_grows_only_by_the_spawn(b in board(), seed in any::<u64>()) {
        let g = G2048;
        let mut rng = seeded(seed, 0);
        let mut s = G2048State::from_board(b);
        for _ in 0..20 {
            match g.to_move(&s) {
                Turn::Player(_) => {
                    let mut legal = Vec::new();
                    g.legal_actions(&s, &mut legal);
                    let before = s.board.sum();
                    g.apply(&mut s, legal[canopy_mcts::rng::below(&mut rng, legal.len())]);
                    prop_assert_eq!(s.board.sum(), before);
                }
                Turn::Chance => {
                    let before = s.board.sum();
                    let spawn = g.sample_outcome(&s, &mut rng);
                    g.apply_outcome(&mut s, spawn);
                    prop_assert_eq!(s.board.sum(), before + spawn.tile());
                }
                Turn::Terminal => break,
            }
        }
    }

    #[test]
    fn zobrist_incremental_equals_scratch(b in board(), seed in any::<u64>()) {
        let g = G2048;
        let mut rng = seeded(seed, 1);
        let mut s = G2048State::from_board(b);
        let mut key = s.zobrist_key();
        prop_assert_eq!(Some(key), g.zobrist(&s));
        prop_assert_eq!(key, zobrist::board_key(&b));
        for _ in 0..30 {
            match g.to_move(&s) {
                Turn::Player(_) => {
                    let mut legal = Vec::new();
                    g.legal_actions(&s, &mut legal);
                    let before = s.board;
                    g.apply(&mut s, legal[canopy_mcts::rng::below(&mut rng, legal.len())]);
                    key = zobrist::after_move(key, &before, &s.board);
                }
                Turn::Chance => {
                    let spawn = g.sample_outcome(&s, &mut rng);
                    g.apply_outcome(&mut s, spawn);
                    key = zobrist::after_spawn(key, spawn);
                }
                Turn::Terminal => break,
            }
            prop_assert_eq!(key, s.zobrist_key());
        }
    }

    #[test]
    fn text_round_trips(b in board()) {
        // The empty board is no position, so text does not read it (parse_errors_are_specific).
        let read = if b == Board::EMPTY { Err(BoardError::Empty) } else { Ok(b) };
        prop_assert_eq!(format!("{b:#}").parse::<Board>(), read.clone());
        prop_assert_eq!(format!("{b}").parse::<Board>(), read);
        prop_assert_eq!(Board::from_tiles(&b.tiles()), Ok(b));
        prop_assert_eq!(Board::from_exponents(b.exponents()), b);
        prop_assert_eq!(format!("{b}").lines().count(), 4);
    }

    #[test]
    fn empty_cells_agree(b in board()) {
        let tiles = b.tiles();
        let mask = (0..16).filter(|&c| tiles[c] == 0).fold(0u16, |m, c| m | 1 << c);
        prop_assert_eq!(b.empty_mask(), mask);
        prop_assert_eq!(b.empty_count(), mask.count_ones());
        prop_assert_eq!(b.max_tile(), tiles.iter().copied().max().unwrap());
    }

    #[test]
    fn rollout_equals_the_default_playout(b in board(), pending in any::<bool>(), seed in any::<u64>()) {
        let s = G2048State { board: b, spawn_pending: pending && b.empty_count() > 0 };
        let fast = G2048Policy::default().rollout(&G2048, &s, &mut seeded(seed, 2), &mut Vec::new());
        let slow = UniformPolicy.rollout(&G2048, &s, &mut seeded(seed, 2), &mut Vec::new());
        prop_assert_eq!(fast, slow);
    }
}

// ---------------------------------------------------------------------------------------------------
// Parsing.

#[test]
fn parse_errors_are_specific() {
    assert_eq!("2,2,4".parse::<Board>(), Err(BoardError::WrongCount { count: 3 }));
    assert_eq!(Board::from_tiles(&[0; 17]), Err(BoardError::WrongCount { count: 17 }));
    let bad = "0,0,3,0, 0,0,0,0, 0,0,0,0, 0,0,0,0".parse::<Board>();
    assert_eq!(bad, Err(BoardError::BadValue { cell: 2, value: 3 }));
    let one = "0,0,0,0, 0,1,0,0, 0,0,0,0, 0,0,0,0".parse::<Board>();
    assert_eq!(one, Err(BoardError::BadValue { cell: 5, value: 1 }));
    let huge = "0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,262144".parse::<Board>();
    assert_eq!(huge, Err(BoardError::BadValue { cell: 15, value: 262144 }));
    let word = "0,0,0,0, 0,0,0,0, 0,x2,0,0, 0,0,0,0".parse::<Board>();
    assert_eq!(word, Err(BoardError::NotANumber { cell: 9, text: "x2".into() }));
    let blank = "0,0,0,0, 0,0,0,0, 0,0,,0, 0,0,0,0".parse::<Board>();
    assert_eq!(blank, Err(BoardError::NotANumber { cell: 10, text: String::new() }));
    let neg = "-2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0".parse::<Board>();
    assert_eq!(neg, Err(BoardError::NotANumber { cell: 0, text: "-2".into() }));
    assert_eq!(
        Board::from_tiles(&[0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]),
        Err(BoardError::BadValue { cell: 7, value: 6 })
    );
    assert_eq!("0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0".parse::<Board>(), Err(BoardError::Empty));
    assert_eq!(". . . .\n. . . .\n. . . .\n. . . .".parse::<Board>(), Err(BoardError::Empty));
    assert_eq!(format!("{:#}", Board::EMPTY).parse::<Board>(), Err(BoardError::Empty));

    let msg = BoardError::BadValue { cell: 6, value: 3 }.to_string();
    assert!(msg.contains("bad tile 3 at cell 6 (row 1, column 2)"), "{msg}");
    for e in [
        BoardError::WrongCount { count: 3 },
        BoardError::BadValue { cell: 6, value: 3 },
        BoardError::NotANumber { cell: 0, text: "x".into() },
        BoardError::Empty,
    ] {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
}

#[test]
fn parse_accepts_spaces_dots_and_the_grid() {
    let a: Board = " 2, 0 ,4,0,0,0,0,0,0,0,0,0,0,0,0,131072 ".parse().unwrap();
    let b: Board = "2 . 4 .\n. . . .\n. . . .\n. . . 131072".parse().unwrap();
    assert_eq!(a, b);
    assert_eq!(a.tiles()[15], 131072);
    assert_eq!(format!("{a:#}"), "2,0,4,0,0,0,0,0,0,0,0,0,0,0,0,131072");
    assert_eq!(
        format!("{a}"),
        "     2      .      4      .\n     .      .      .      .\n     .      .      .      .\n     .      .      . 131072"
    );
    assert_eq!(format!("{a:?}"), "Board(2,0,4,0,0,0,0,0,0,0,0,0,0,0,0,131072)");
}

#[test]
fn dir_names_and_parsing() {
    for d in Dir::ALL {
        assert_eq!(d.name().parse::<Dir>(), Ok(d));
        assert_eq!(d.name().to_uppercase().parse::<Dir>(), Ok(d));
        assert_eq!(d.to_string(), d.name());
        assert_eq!(G2048.action_name(&d), d.name());
    }
    assert_eq!(Dir::ALL.map(Dir::name), ["up", "down", "left", "right"]);
    for (s, d) in [("U", Dir::Up), ("d", Dir::Down), ("L", Dir::Left), ("r", Dir::Right), (" Left ", Dir::Left)] {
        assert_eq!(s.parse::<Dir>(), Ok(d), "{s:?}");
    }
    for s in ["", "x", "upp", "north"] {
        let e = s.parse::<Dir>().unwrap_err();
        assert!(e.to_string().contains("unknown direction"), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------------
// The game interface.

#[test]
fn new_game_has_two_small_tiles() {
    let g = G2048;
    let mut rng = seeded(2048, 0);
    let mut fours = 0;
    for _ in 0..1000 {
        let s = G2048State::new_game(&mut rng);
        assert!(!s.spawn_pending);
        assert_eq!(s.board.empty_count(), 14);
        assert!(s.board.tiles().iter().all(|&t| matches!(t, 0 | 2 | 4)));
        fours += s.board.tiles().iter().filter(|&&t| t == 4).count();
        assert_eq!(g.to_move(&s), Turn::Player(0));
    }
    // 2000 spawns, 10% fours: 200 +- 4 sigma (sigma ~ 13).
    assert!((150..=250).contains(&fours), "{fours} fours in 2000 spawns");
}

#[test]
fn chance_outcomes_sum_to_one_and_sampling_follows_them() {
    let g = G2048;
    let s =
        G2048State { board: "2,4,8,16, 32,0,64,128, 256,512,0,1024, 2,4,8,0".parse().unwrap(), spawn_pending: true };
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s, &mut outcomes);
    assert_eq!(outcomes.len(), 6);
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let mut rng = seeded(5, 0);
    let n = 60_000;
    let mut counts = std::collections::HashMap::new();
    for _ in 0..n {
        *counts.entry(g.sample_outcome(&s, &mut rng)).or_insert(0usize) += 1;
    }
    for (o, p) in &outcomes {
        let f = counts.get(o).copied().unwrap_or(0) as f64 / n as f64;
        assert!((f - p).abs() < 0.01, "{o}: frequency {f}, probability {p}");
    }
    assert_eq!(g.outcome_name(&Spawn { cell: 5, exponent: 1 }), "2@c5");
    assert_eq!(g.outcome_name(&Spawn { cell: 10, exponent: 2 }), "4@c10");
    // No outcomes and no moves outside their turn.
    let mut legal = vec![Dir::Up];
    g.legal_actions(&s, &mut legal);
    assert!(legal.is_empty());
    g.chance_outcomes(&G2048State { spawn_pending: false, ..s }, &mut outcomes);
    assert!(outcomes.is_empty());
}

#[test]
fn random_play_scores_like_the_original() {
    let g = G2048;
    let mut rng = seeded(42, 0);
    let games = 2000;
    let total: f64 = (0..games)
        .map(|_| {
            let s = G2048State::new_game(&mut rng);
            G2048Policy::default().rollout(&g, &s, &mut rng, &mut Vec::new())[0]
        })
        .sum();
    let mean = total / f64::from(games);
    println!("mean score of {games} uniform-random games: {mean:.1}");
    assert!((700.0..1800.0).contains(&mean), "mean score {mean}");
}
