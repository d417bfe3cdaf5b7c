//! Snake rules: the shared cases (tests/data/snake.tsv), invariants under random play (proptest), the
//! position format, food sampling, and long games.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use std::collections::HashSet;

use canopy_mcts::games::snake::{
    greedy, random_safe, Baseline, Cell, Dir, End, IllegalMove, ParseError, RolloutPolicy, Snake, SnakePolicy,
    SnakeState, MAX_STEPS,
};
use canopy_mcts::rng::{seeded, Rng};
use canopy_mcts::{Game, Policy, Turn};
use proptest::prelude::*;

mod common;
use common::{play_snake, play_snake_fn, step};

const CASES: &str = include_str!("../../tests/data/snake.tsv");

fn parse_cells(text: &str) -> Vec<Cell> {
    text.split_whitespace()
        .map(|t| {
            let (x, y) = t.split_once(',').unwrap();
            Cell::new(x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// Checks every claim of the `expected` column after `mv` was tried on `before`.
fn check_case(id: &str, before: &SnakeState, mv: Dir, expected: &str) {
    let game = Snake::for_state(before);
    let mut legal = Vec::new();
    game.legal_actions(before, &mut legal);
    let mut after = before.clone();
    let result = game.try_apply(&mut after, mv);
    for claim in expected.split(';').map(str::trim) {
        // "game over: won (board full), no hang" makes two claims.
        let (claim, no_hang) = match claim.strip_suffix(", no hang") {
            Some(c) => (c, true),
            None => (claim, false),
        };
        match claim {
            "alive" => {
                assert!(result.is_ok(), "{id}: move refused: {result:?}");
                assert_eq!(after.end(), None, "{id}: the snake should be alive\n{after}");
            }
            c if c.starts_with("body ") => {
                assert_eq!(after.body(), parse_cells(&c[5..]), "{id}: body after the move\n{after}");
            }
            c if c.starts_with("length ") => {
                assert_eq!(after.len(), c[7..].parse::<usize>().unwrap(), "{id}: length\n{after}");
            }
            "new food not on any body cell" => {
                assert_eq!(game.to_move(&after), Turn::Chance, "{id}: food spawn should be pending");
                let body: HashSet<Cell> = after.body().into_iter().collect();
                let mut outcomes = Vec::new();
                game.chance_outcomes(&after, &mut outcomes);
                assert_eq!(outcomes.len(), after.area() - after.len(), "{id}: one outcome per free cell");
                assert!(outcomes.iter().all(|(c, _)| !body.contains(c)), "{id}: listed food on the body");
                let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-12, "{id}: probabilities sum to {total}");
                let mut rng = seeded(7, 0);
                for _ in 0..5000 {
                    let food = game.sample_outcome(&after, &mut rng);
                    assert!(!body.contains(&food), "{id}: sampled food {food} on the body");
                    let mut s = after.clone();
                    game.apply_outcome(&mut s, food);
                    assert_eq!(s.food(), Some(food));
                }
            }
            "game over: won (board full)" => {
                assert!(result.is_ok(), "{id}: move refused: {result:?}");
                assert_eq!(after.end(), Some(End::Won), "{id}\n{after}");
                assert_eq!(after.len(), after.area(), "{id}: board full");
                assert_eq!(game.to_move(&after), Turn::Terminal);
            }
            "illegal (into the neck)" => {
                assert!(!legal.contains(&mv), "{id}: {mv} listed as legal: {legal:?}");
                assert_eq!(result, Err(IllegalMove::Reversal(mv)), "{id}");
                assert_eq!(after, *before, "{id}: a refused move changes nothing");
                let caught = std::panic::catch_unwind(|| game.apply(&mut before.clone(), mv));
                assert!(caught.is_err(), "{id}: apply should panic on a reversal");
            }
            other => panic!("{id}: unknown expectation '{other}': teach check_case about it"),
        }
        if no_hang {
            // Nothing is left to do: no moves, no spawn, rollouts and games return at once.
            let mut outcomes = Vec::new();
            game.chance_outcomes(&after, &mut outcomes);
            let mut moves = Vec::new();
            game.legal_actions(&after, &mut moves);
            assert!(outcomes.is_empty() && moves.is_empty(), "{id}: finished game still offers play");
            let mut rng = seeded(1, 0);
            assert_eq!(SnakePolicy::for_game(&game).rollout(&game, &after, &mut rng, &mut Vec::new())[0], 0.0);
            let record = play_snake_fn(&game, &after, 1, 10, random_safe);
            assert_eq!(record.total_moves(), 0, "{id}");
        }
    }
}

#[test]
fn shared_cases() {
    let mut ids = Vec::new();
    for line in CASES.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cols.len(), 7, "bad case line: {line}");
        let (id, grid, body, food, mv, expected) = (cols[0], cols[1], cols[2], cols[3], cols[4], cols[5]);
        let text = format!("{grid} body={body} food={food}");
        let before: SnakeState = text.parse().unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
        assert_eq!(before.notation().to_string(), text, "{id}: notation round trip");
        check_case(id, &before, mv.parse().unwrap(), expected);
        ids.push(id.to_string());
    }
    assert_eq!(ids, ["S1", "S3", "S5", "S6"], "every shared case ran");
}

#[test]
fn start_and_first_spawn() {
    let game = Snake::default();
    let s = game.start();
    assert_eq!((s.width(), s.height(), s.len()), (10, 10, 1));
    assert_eq!(s.head(), Cell::new(5, 5));
    assert_eq!(game.to_move(&s), Turn::Chance);
    let mut outcomes = Vec::new();
    game.chance_outcomes(&s, &mut outcomes);
    assert_eq!(outcomes.len(), 99);
    let limited = Snake { max_listed_outcomes: 50, ..game };
    limited.chance_outcomes(&s, &mut outcomes);
    assert!(outcomes.is_empty(), "above max_listed_outcomes the engine samples");
    let mut moves = Vec::new();
    let s = game.new_game(&mut seeded(3, 0));
    game.legal_actions(&s, &mut moves);
    assert_eq!(moves, Dir::ALL, "a snake of length 1 may go anywhere");
    assert_eq!(game.starvation_limit, 200);
}

/// Every move and food spawn is named by one token without spaces (a principal variation is joined by
/// spaces), and a spawn's cell reads back as the position format's `food=x,y`.
#[test]
fn move_and_spawn_names_are_single_tokens() {
    let game = Snake::new(6, 5);
    let s: SnakeState = "6x5 body=2,2 2,3".parse().unwrap();
    let mut outcomes = Vec::new();
    game.chance_outcomes(&s, &mut outcomes);
    assert_eq!(outcomes.len(), 28);
    for (cell, _) in &outcomes {
        let name = game.outcome_name(cell);
        assert!(!name.contains(char::is_whitespace), "{name:?}");
        let at = name.strip_prefix("food@").unwrap_or_else(|| panic!("{name:?} is not food@x,y"));
        let placed: SnakeState = format!("6x5 body=2,2 2,3 food={at}").parse().unwrap();
        assert_eq!(placed.food(), Some(*cell), "{name}");
    }
    assert_eq!(game.outcome_name(&Cell::new(4, 2)), "food@4,2");
    for d in Dir::ALL {
        let name = game.action_name(&d);
        assert!(!name.is_empty() && !name.contains(char::is_whitespace), "{name:?}");
        assert_eq!(name.parse::<Dir>().ok(), Some(d));
    }
}

#[test]
fn walls_body_and_starvation_end_the_game() {
    let game = Snake::new(4, 4);
    let mut s: SnakeState = "4x4 body=0,0 1,0 food=3,3".parse().unwrap();
    assert_eq!(game.apply(&mut s, Dir::Up), 0.0);
    assert_eq!(s.end(), Some(End::Wall));
    assert_eq!(s.body(), [Cell::new(0, 0), Cell::new(1, 0)], "a fatal move leaves the body as it was");
    assert_eq!(game.try_apply(&mut s, Dir::Down), Err(IllegalMove::GameOver(End::Wall)));

    // Head at 1,1 with the body curling round: moving up hits a body cell that is not the tail. Every
    // non-reversing move is legal; the safe moves leave the fatal one out.
    let mut s: SnakeState = "4x4 body=1,1 2,1 2,0 1,0 0,0 food=3,3".parse().unwrap();
    let mut moves = Vec::new();
    game.legal_actions(&s, &mut moves);
    assert_eq!(moves, [Dir::Up, Dir::Down, Dir::Left]);
    Snake::safe_moves(&s, &mut moves);
    assert_eq!(moves, [Dir::Down, Dir::Left], "safe moves only while one exists");
    game.apply(&mut s, Dir::Up);
    assert_eq!(s.end(), Some(End::Body));

    // Head 1,0, neck 1,1: up is the wall, left is the tail 0,0 (vacated this move: safe), right is free.
    let s: SnakeState = "3x3 body=1,0 1,1 0,1 0,0 food=2,2".parse().unwrap();
    let g33 = Snake::new(3, 3);
    g33.legal_actions(&s, &mut moves);
    assert_eq!(moves, [Dir::Up, Dir::Left, Dir::Right]);
    Snake::safe_moves(&s, &mut moves);
    assert_eq!(moves, [Dir::Left, Dir::Right]);
    // Head 0,0, neck 0,1: up and left are walls, right is 1,0 (mid-body): every non-reversing move dies,
    // and all of them are offered.
    let trapped: SnakeState = "3x3 body=0,0 0,1 1,1 1,0 2,0 2,1 food=2,2".parse().unwrap();
    Snake::safe_moves(&trapped, &mut moves);
    assert_eq!(moves, [Dir::Up, Dir::Left, Dir::Right], "no safe move: all non-reversing moves");
    let mut s = trapped.clone();
    g33.apply(&mut s, Dir::Right);
    assert_eq!(s.end(), Some(End::Body));

    let game = Snake { starvation_limit: 3, ..Snake::new(5, 5) };
    let mut s: SnakeState = "5x5 body=2,2 food=4,4 hunger=1".parse().unwrap();
    let bonus = game.survival_bonus();
    assert_eq!(game.apply(&mut s, Dir::Up), bonus);
    assert_eq!(s.end(), None);
    assert_eq!(game.apply(&mut s, Dir::Up), bonus, "the starving move is survived");
    assert_eq!(s.end(), Some(End::Starved));
    assert_eq!(s.hunger(), 3);
}

#[test]
fn eating_resets_hunger_and_pays_one() {
    let game = Snake::new(6, 6);
    let mut s: SnakeState = "6x6 body=2,2 2,3 food=3,2 hunger=9 steps=40".parse().unwrap();
    let r = game.apply(&mut s, Dir::Right);
    assert_eq!(r, 1.0 + game.survival_bonus());
    assert_eq!((s.len(), s.hunger(), s.steps(), s.food()), (3, 0, 41, None));
    assert_eq!(s.body(), [Cell::new(3, 2), Cell::new(2, 2), Cell::new(2, 3)]);
    assert_eq!(game.try_apply(&mut s, Dir::Up), Err(IllegalMove::ChanceTurn));
    assert!((game.survival_bonus() - 0.001).abs() < 1e-15);
    assert!((Snake::new(32, 32).survival_bonus() - 0.5 / 2048.0).abs() < 1e-15);
}

#[test]
fn position_errors_are_specific_one_line_messages() {
    let cases: &[(&str, ParseError)] = &[
        ("", ParseError::Empty),
        ("10 body=1,1", ParseError::BadSize("10".into())),
        ("1x10 body=0,0", ParseError::BadSize("1x10".into())),
        ("33x4 body=0,0", ParseError::BadSize("33x4".into())),
        ("5x5 1,1", ParseError::Unexpected("1,1".into())),
        ("5x5 body=1,1 head=2,2", ParseError::UnknownField("head".into())),
        ("5x5 body=1,1 body=2,2", ParseError::DuplicateField("body".into())),
        ("5x5 body=1,1 food=2,2 food=3,3", ParseError::DuplicateField("food".into())),
        ("5x5 body=1;1", ParseError::BadCell("1;1".into())),
        ("5x5 body=1,1 1,-2", ParseError::BadCell("1,-2".into())),
        ("5x5 body=5,1", ParseError::OffBoard { cell: Cell::new(5, 1), width: 5, height: 5 }),
        ("5x5 body=1,1 food=1,9", ParseError::OffBoard { cell: Cell::new(1, 9), width: 5, height: 5 }),
        ("5x5 food=1,1", ParseError::MissingBody),
        ("5x5 body= food=1,1", ParseError::EmptyBody),
        ("5x5 body=1,1 1,2 3,2", ParseError::NotContiguous { index: 1, from: Cell::new(1, 2), to: Cell::new(3, 2) }),
        ("5x5 body=1,1 1,2 1,1", ParseError::RepeatedCell(Cell::new(1, 1))),
        ("5x5 body=1,1 1,2 food=1,2", ParseError::FoodOnBody(Cell::new(1, 2))),
        ("5x5 body=1,1 hunger=-1", ParseError::BadNumber { field: "hunger", value: "-1".into() }),
        ("5x5 body=1,1 steps=x", ParseError::BadNumber { field: "steps", value: "x".into() }),
    ];
    for (text, want) in cases {
        let got = text.parse::<SnakeState>().unwrap_err();
        assert_eq!(&got, want, "parsing '{text}'");
        let msg = got.to_string();
        assert!(!msg.is_empty() && !msg.contains('\n'), "one line: {msg}");
        println!("{text:40} -> {msg}");
    }
    assert_eq!(
        "5x5 body=1,1 1,2 3,2".parse::<SnakeState>().unwrap_err().to_string(),
        "body not contiguous: cell 1 (1,2) and cell 2 (3,2) are not adjacent"
    );
    assert_eq!("sideways".parse::<Dir>().unwrap_err(), ParseError::BadDir("sideways".into()));
    assert_eq!("L".parse::<Dir>(), Ok(Dir::Left));
}

#[test]
fn a_position_hungrier_than_the_starvation_limit_is_refused() {
    // A 5x5 board starves the snake after 50 moves without food by default.
    let game = Snake::new(5, 5);
    assert_eq!(game.starvation_limit, 50);
    // One move short of starving: the position is one of the game's, and a move that does not eat starves.
    let s: SnakeState = "5x5 body=1,1 food=4,4 hunger=49".parse().unwrap();
    assert_eq!(game.check_position(&s), Ok(()));
    let mut after = s;
    game.apply(&mut after, Dir::Up);
    assert_eq!(after.end(), Some(End::Starved));
    for hunger in [50, u32::MAX] {
        let s: SnakeState = format!("5x5 body=1,1 food=4,4 hunger={hunger}").parse().unwrap();
        let e = game.check_position(&s).unwrap_err();
        assert_eq!(e, ParseError::Starved { hunger, limit: 50 });
        assert_eq!(
            e.to_string(),
            format!("hunger={hunger} is not below the starvation limit of 50 moves: the snake would have starved")
        );
        // A game with a longer limit reaches it.
        let patient = Snake { starvation_limit: u32::MAX, ..game };
        assert_eq!(patient.check_position(&s).is_ok(), hunger < u32::MAX);
    }
}

#[test]
fn a_position_near_the_end_of_the_step_counter_is_refused() {
    let game = Snake::new(5, 5);
    let at = |steps: u32| format!("5x5 body=1,1 food=4,4 steps={steps}").parse::<SnakeState>().unwrap();
    assert_eq!(game.check_position(&at(MAX_STEPS)), Ok(()));
    for steps in [MAX_STEPS + 1, u32::MAX] {
        let e = game.check_position(&at(steps)).unwrap_err();
        assert_eq!(e, ParseError::TooManySteps { steps, max: MAX_STEPS });
        assert_eq!(
            e.to_string(),
            format!("steps={steps} is past 1000000000, the most moves a position may have played")
        );
    }
}

#[test]
fn position_format_round_trips_and_draws() {
    let text = "4x3 body=1,0 2,0 2,1 food=3,1 hunger=2 steps=7";
    let s: SnakeState = text.parse().unwrap();
    assert_eq!(s.notation().to_string(), text);
    assert_eq!(s.notation().to_string().parse::<SnakeState>().unwrap(), s);
    assert_eq!(s.to_string(), "4x3 length 3 hunger 2 steps 7 playing\n.@o.\n..o*\n....");
    let pending: SnakeState = "4x3 body=0,0 food=none".parse().unwrap();
    assert_eq!(pending.food(), None);
    assert_eq!(pending.notation().to_string(), "4x3 body=0,0");
    assert!(pending.to_string().starts_with("4x3 length 1 hunger 0 steps 0 food pending"));
    let full: SnakeState = "2x2 body=0,0 1,0 1,1 0,1".parse().unwrap();
    assert_eq!(full.end(), Some(End::Won));
    assert_eq!(Snake::for_state(&full).to_move(&full), Turn::Terminal);
}

#[test]
fn zobrist_keys_hunger_and_food() {
    let game = Snake::new(6, 6);
    let a: SnakeState = "6x6 body=2,2 2,3 food=4,4".parse().unwrap();
    let b: SnakeState = "6x6 body=2,2 2,3 food=4,4 hunger=1".parse().unwrap();
    let c: SnakeState = "6x6 body=2,2 2,3 food=4,5".parse().unwrap();
    let d: SnakeState = "6x6 body=2,2 2,1 food=4,4".parse().unwrap();
    let e: SnakeState = "6x6 body=2,2 2,3 food=4,4 steps=12".parse().unwrap();
    let key = |s: &SnakeState| game.zobrist(s).unwrap();
    let keys: HashSet<u64> = [&a, &b, &c, &d].into_iter().map(key).collect();
    assert_eq!(keys.len(), 4, "{:x?}", [&a, &b, &c, &d].map(key));
    assert_eq!(key(&a), key(&e), "the step count changes no future");
    let mut s: SnakeState = "6x6 body=0,2 1,2 food=4,4".parse().unwrap();
    let alive = key(&s);
    game.apply(&mut s, Dir::Left);
    assert_eq!(s.end(), Some(End::Wall));
    assert_ne!(key(&s), alive, "a dead snake is not the living one");
}

/// Draws food many times: every free cell and no other comes up, each within 5 standard deviations of
/// the uniform mean.
fn assert_uniform(text: &str, draws: usize) {
    let s: SnakeState = text.parse().unwrap();
    let game = Snake::for_state(&s);
    let free = s.area() - s.len();
    let mut counts = std::collections::HashMap::new();
    let mut rng = seeded(11, 0);
    for _ in 0..draws {
        *counts.entry(game.sample_outcome(&s, &mut rng)).or_insert(0usize) += 1;
    }
    assert_eq!(counts.len(), free, "{text}: every free cell drawn, no other");
    let mean = draws as f64 / free as f64;
    for (cell, n) in counts {
        assert!(!s.is_body(cell));
        assert!((n as f64 - mean).abs() < 5.0 * mean.sqrt(), "{text}: {cell} drawn {n} times, mean {mean}");
    }
}

#[test]
fn food_spawns_uniformly_on_free_cells() {
    // Sparse board: rejection sampling answers.
    assert_uniform("3x3 body=0,0 1,0 2,0", 60_000);
    // Nearly full board: most draws fall through to counting free cells.
    assert_uniform("4x4 body=0,0 1,0 2,0 3,0 3,1 2,1 1,1 0,1 0,2 1,2 2,2 3,2 3,3 2,3", 40_000);
    // Wide rows (32 bits) and several free cells in one row.
    assert_uniform(
        "32x2 body=0,0 1,0 2,0 3,0 4,0 5,0 6,0 7,0 8,0 9,0 10,0 11,0 12,0 13,0 14,0 15,0 16,0 17,0 18,0 19,0 \
         20,0 21,0 22,0 23,0 24,0 25,0 26,0 27,0 28,0 29,0 30,0 31,0 31,1 30,1 29,1 28,1",
        56_000,
    );
}

/// Checks the invariants of a state reached in play.
fn check_invariants(game: &Snake, s: &SnakeState) -> Result<(), TestCaseError> {
    let body = s.body();
    prop_assert_eq!(body.len(), s.len());
    prop_assert_eq!(body[0], s.head());
    prop_assert_eq!(*body.last().unwrap(), s.tail());
    let distinct: HashSet<Cell> = body.iter().copied().collect();
    prop_assert_eq!(distinct.len(), body.len(), "body cells distinct: {:?}", body);
    for w in body.windows(2) {
        prop_assert!(w[0].distance(w[1]) == 1, "body contiguous: {:?}", body);
    }
    for c in &body {
        prop_assert!((c.x as usize) < s.width() && (c.y as usize) < s.height());
    }
    let occupied = (0..s.height() as u8)
        .flat_map(|y| (0..s.width() as u8).map(move |x| Cell::new(x, y)))
        .filter(|&c| s.is_body(c))
        .count();
    prop_assert_eq!(occupied, s.len(), "occupancy matches the body");
    if let Some(food) = s.food() {
        prop_assert!(!distinct.contains(&food), "food {} on the body", food);
    }
    prop_assert_eq!(s.body_key(), s.body_key_from_scratch(), "incremental Zobrist key");
    prop_assert!(s.hunger() < game.starvation_limit || s.end() == Some(End::Starved));
    if s.end().is_none() {
        let mut moves = Vec::new();
        game.legal_actions(s, &mut moves);
        prop_assert_eq!(moves.is_empty(), game.to_move(s) != Turn::Player(0));
        for d in moves {
            prop_assert!(!s.is_reversal(d));
        }
    }
    if !matches!(s.end(), Some(End::Wall | End::Body | End::Starved)) {
        let back: SnakeState = s.notation().to_string().parse().unwrap();
        prop_assert_eq!(&back, s, "notation round trip");
        prop_assert_eq!(game.zobrist(&back), game.zobrist(s));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random play, sometimes choosing fatal moves: length never shrinks (and grows by at most one per
    /// move), the body stays distinct and contiguous, food is never on the body, the incremental key
    /// matches the one from scratch.
    #[test]
    fn invariants_hold_in_random_play(
        width in 2usize..=12,
        height in 2usize..=12,
        seed in any::<u64>(),
        choices in proptest::collection::vec(0u8..16, 1..400),
        limit in 1u32..300,
    ) {
        let game = Snake { starvation_limit: limit, ..Snake::new(width, height) };
        let mut rng = seeded(seed, 0);
        let mut s = game.new_game(&mut rng);
        let mut moves = Vec::new();
        check_invariants(&game, &s)?;
        for &c in &choices {
            let len = s.len();
            let choose = |s: &SnakeState, _: &mut Rng| {
                Snake::safe_moves(s, &mut moves);
                assert!(!moves.is_empty(), "no move listed at a player turn: {s:?}");
                // Mostly safe moves; one in four is any non-reversing move, fatal or not.
                let raw = Dir::ALL[(c % 4) as usize];
                if c >= 12 && !s.is_reversal(raw) { raw } else { moves[c as usize % moves.len()] }
            };
            match step(&game, &mut s, &mut rng, choose) {
                None => break,
                Some((Turn::Player(_), r)) => {
                    prop_assert!(r >= 0.0);
                    prop_assert_eq!(r >= 1.0, s.len() == len + 1);
                }
                Some(_) => {}
            }
            prop_assert!(s.len() == len || s.len() == len + 1, "length {} -> {}", len, s.len());
            check_invariants(&game, &s)?;
        }
    }

    /// Big boards too: the 32-bit rows and 64-bit direction words.
    #[test]
    fn invariants_hold_on_big_boards(
        width in 20usize..=32,
        height in 20usize..=32,
        seed in any::<u64>(),
    ) {
        let game = Snake::new(width, height);
        let mut rng = seeded(seed, 1);
        let mut s = game.new_game(&mut rng);
        let mut longest = 1;
        for _ in 0..600 {
            if step(&game, &mut s, &mut rng, greedy).is_none() {
                break;
            }
            prop_assert!(s.len() >= longest);
            longest = s.len();
            check_invariants(&game, &s)?;
        }
    }
}

#[test]
fn rollouts_end_and_pay_food_and_survival() {
    for policy in [RolloutPolicy::RandomSafe, RolloutPolicy::TailFollow] {
        for (w, h) in [(2, 2), (3, 3), (8, 8), (10, 10), (32, 32)] {
            let game = Snake::new(w, h);
            let search = SnakePolicy { rollout: policy, ..SnakePolicy::new(w, h) };
            let mut rng = seeded(5, w as u64);
            for _ in 0..20 {
                let s = game.new_game(&mut rng);
                let r = search.rollout(&game, &s, &mut rng, &mut Vec::new());
                assert!(r[0].is_finite() && r[0] >= 0.0, "{policy:?} {w}x{h}: {r:?}");
                assert!(r[0] <= (w * h) as f64 * 1.5, "{policy:?} {w}x{h}: {r:?}");
            }
        }
    }
}

/// Plays `games` games of `agent` and returns (total moves, lengths).
fn run_games(game: &Snake, baseline: Baseline, games: usize, seed: u64) -> (u64, Vec<usize>) {
    let mut agent = baseline.agent(game.width, game.height);
    let mut total = 0;
    let mut lengths = Vec::new();
    for g in 0..games {
        let record = play_snake(game, &game.start(), seed.wrapping_add(g as u64), u64::MAX, &mut agent);
        assert!(record.last.end().is_some(), "the game ended");
        total += record.total_moves();
        lengths.push(record.last.len());
    }
    (total, lengths)
}

/// A long run: at least 40 000 moves in all, from the Hamiltonian agent on 10x10 (every game won) and
/// random-safe play, plus rollouts.
#[test]
fn long_games_run_without_panic() {
    let game = Snake::default();
    let mut moves = 0;
    let mut won = 0;
    let mut seed = 0;
    while moves < 30_000 {
        let (m, lengths) = run_games(&game, Baseline::Hamilton, 1, seed);
        assert_eq!(lengths, [100], "hamilton fills 10x10 (seed {seed})");
        moves += m;
        won += 1;
        seed += 1;
    }
    let mut random_moves = 0;
    while random_moves < 10_000 {
        let (m, _) = run_games(&game, Baseline::RandomSafe, 1, seed);
        random_moves += m;
        seed += 1;
    }
    println!("long run: {won} hamilton games won in {moves} moves; {random_moves} random-safe moves");
    assert!(moves + random_moves >= 40_000);
}

/// The return of a played game is the length it gained plus the survival bonus per move survived, as a
/// rollout's is; a rollout with no patience cap returns such a value too.
#[test]
fn a_game_returns_the_length_gained_and_the_survival_bonus() {
    let game = Snake::new(7, 6);
    let policy = SnakePolicy { rollout_patience: u32::MAX, ..SnakePolicy::new(7, 6) };
    for seed in 0..50 {
        let s = game.new_game(&mut seeded(seed, 9));
        let record = play_snake_fn(&game, &s, seed, u64::MAX, random_safe);
        let score = record.returns[0];
        let expected = (record.last.len() - 1) as f64 + game.survival_bonus() * record.last.steps() as f64;
        assert!((score - expected).abs() < 1e-9, "seed {seed}: return = length gained + bonus x moves survived");
        let rollout = policy.rollout(&game, &s, &mut seeded(seed, 0), &mut Vec::new())[0];
        let bonus = game.survival_bonus();
        let gained = (rollout / (1.0 + bonus)).floor();
        assert!(rollout >= 0.0 && gained <= (game.width * game.height) as f64, "seed {seed}: rollout {rollout}");
    }
}
