//! MCTS on Snake: the tail-safe move filter keeps its promise, the agent plays a sound game, and a game of
//! 40 000 moves with a search per move runs within the memory budget (and drops every tree it built).

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use std::collections::VecDeque;

use canopy_mcts::agent::Step;
use canopy_mcts::games::snake::{
    random_safe, safe_greedy, Cell, ClosingCycle, Dir, End, Hamilton, How, MctsAgent, RolloutPolicy, Snake,
    SnakePolicy, SnakeState, TailFilter, CYCLE,
};
use canopy_mcts::rng::seeded;
use canopy_mcts::search::SearchParams;
use canopy_mcts::{Coverage, Game, Policy, Rng, Turn};
use proptest::prelude::*;

mod common;
use common::{play_snake, play_snake_fn, step};

/// Whether the head of `s` can reach its tail: a path of free cells from the head to a cell next to the
/// tail, or the head next to the tail (a plain breadth-first search, independent of the library's).
fn tail_reachable(s: &SnakeState) -> bool {
    let (w, h) = (s.width() as i32, s.height() as i32);
    let tail = s.tail();
    let next_to_tail = |c: Cell| c.distance(tail) == 1;
    if next_to_tail(s.head()) {
        return true;
    }
    let mut seen = vec![false; (w * h) as usize];
    let mut queue = VecDeque::from([s.head()]);
    while let Some(c) = queue.pop_front() {
        for (dx, dy) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
            let (x, y) = (c.x as i32 + dx, c.y as i32 + dy);
            if x < 0 || y < 0 || x >= w || y >= h {
                continue;
            }
            let n = Cell::new(x as u8, y as u8);
            if s.is_body(n) || seen[(y * w + x) as usize] {
                continue;
            }
            if next_to_tail(n) {
                return true;
            }
            seen[(y * w + x) as usize] = true;
            queue.push_back(n);
        }
    }
    false
}

/// Plays `moves` random safe moves from the start of a `w` x `h` game; returns the position reached (or
/// the last one before the game ended), with food on the board.
fn random_position(w: usize, h: usize, seed: u64, moves: u64) -> SnakeState {
    let game = Snake::new(w, h);
    let mut rng = seeded(seed, 0);
    let mut s = game.new_game(&mut rng);
    let mut last = s.clone();
    for i in 0..moves {
        let choose = |s: &SnakeState, rng: &mut Rng| {
            last = s.clone();
            // Greedy toward the food most of the time, so that snakes grow long.
            if i % 4 == 0 {
                random_safe(s, rng)
            } else {
                safe_greedy(s, rng)
            }
        };
        if step(&game, &mut s, &mut rng, choose).is_none() {
            break;
        }
    }
    if game.to_move(&s) == Turn::Player(0) {
        s
    } else {
        last
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A move is tail-safe exactly when, after it, the head can reach the tail (an independent search),
    /// or it eats the last free cell.
    #[test]
    fn tail_safe_moves_match_an_independent_search(w in 3usize..12, h in 3usize..12, seed in 0u64..1_000_000, moves in 0u64..400) {
        let s = random_position(w, h, seed, moves);
        prop_assume!(s.end().is_none() && s.food().is_some() && s.len() >= 3);
        let mut out = [Dir::Up; 4];
        let n = Snake::tail_safe_moves(&s, &mut out);
        let game = Snake::new(w, h);
        for d in Dir::ALL {
            if !s.is_safe(d) {
                prop_assert!(!out[..n].contains(&d), "{d} is not safe in {s:?}");
                continue;
            }
            let mut t = s.clone();
            game.apply(&mut t, d);
            let expected = t.end() == Some(End::Won) || tail_reachable(&t);
            prop_assert_eq!(out[..n].contains(&d), expected, "{} in {:?}", d, s);
        }
    }
}

#[test]
fn a_snake_playing_tail_safe_moves_never_runs_into_itself() {
    for (w, h) in [(4, 4), (5, 5), (6, 6), (8, 8), (7, 10)] {
        let game = Snake::new(w, h);
        for seed in 0..20 {
            let start = game.new_game(&mut seeded(seed, 5));
            let record = play_snake_fn(&game, &start, seed, 100_000, safe_greedy);
            let end = record.last.end();
            assert!(matches!(end, Some(End::Won | End::Starved)), "{w}x{h} seed {seed}: {end:?}\n{}", record.last);
        }
    }
}

#[test]
fn the_filter_only_narrows_the_legal_moves() {
    let rules = Snake::new(4, 4);
    let filter = SnakePolicy { tail_filter: TailFilter::Now, ..SnakePolicy::new(4, 4) };
    // Up eats the food in the corner and walls the head in; down keeps the tail in reach; left runs into
    // the wall (legal, and fatal).
    let s: SnakeState = "4x4 body=0,1 1,1 1,0 2,0 3,0 3,1 3,2 3,3 food=0,0".parse().unwrap();
    let (mut legal, mut safe, mut filtered) = (Vec::new(), Vec::new(), Vec::new());
    rules.legal_actions(&s, &mut legal);
    assert_eq!(SnakePolicy::new(4, 4).candidates(&rules, &s, &mut safe), Coverage::Pruned);
    assert_eq!(filter.candidates(&rules, &s, &mut filtered), Coverage::Pruned);
    assert_eq!(legal, vec![Dir::Up, Dir::Down, Dir::Left]);
    assert_eq!(safe, vec![Dir::Up, Dir::Down]);
    assert_eq!(filtered, vec![Dir::Down]);
    // Entering the cell the tail leaves keeps the tail in reach, and so does a free path back to it.
    let s: SnakeState = "3x3 body=1,1 0,1 0,0 1,0 2,0 2,1 food=2,2".parse().unwrap();
    let mut out = [Dir::Up; 4];
    let n = Snake::tail_safe_moves(&s, &mut out);
    assert_eq!(out[..n], [Dir::Down, Dir::Right], "{s}");
}

/// Walks `cycle` from `s` to the end of the game, checking that every food is eaten within as many moves as
/// there were free cells when it spawned; returns the last position.
fn walk_cycle(game: &Snake, cycle: &ClosingCycle, mut s: SnakeState, seed: u64) -> SnakeState {
    let mut rng = seeded(seed, 9);
    let mut since_food = 0;
    let mut allowed = s.free_cells();
    let along = |s: &SnakeState, _: &mut Rng| cycle.next_move(s).unwrap_or_else(|| panic!("off the cycle: {s:?}"));
    loop {
        match step(game, &mut s, &mut rng, along) {
            None => return s,
            Some((Turn::Chance, _)) => (since_food, allowed) = (0, s.free_cells()),
            Some(_) => {
                since_food += 1;
                assert!(since_food <= allowed, "food more than {allowed} moves away along the cycle: {s:?}");
            }
        }
    }
}

#[test]
fn a_closing_cycle_fills_the_board() {
    // A snake laid along the Hamiltonian tour of the baseline closes a cycle at once.
    for (w, h) in [(4, 4), (6, 6), (8, 8), (6, 9)] {
        let tour = Hamilton::new(w, h);
        let body: Vec<Cell> = tour.tour()[..w * h / 2].iter().rev().copied().collect();
        let food = tour.tour()[w * h - 1];
        let s = SnakeState::from_body(w, h, &body, Some(food)).unwrap();
        let cycle = ClosingCycle::find(&s, 10_000).unwrap_or_else(|| panic!("{w}x{h}: no cycle\n{s}"));
        let last = walk_cycle(&Snake::new(w, h), &cycle, s, w as u64);
        assert_eq!(last.end(), Some(End::Won), "{w}x{h}\n{last}");
    }
    // Odd boards have no Hamiltonian cycle.
    let s: SnakeState = "5x5 body=2,2 2,3 2,4 food=0,0".parse().unwrap();
    assert!(ClosingCycle::find(&s, 10_000).is_none());
    assert!(!ClosingCycle::exists(&s, 10_000));
}

#[test]
fn every_closing_cycle_found_in_play_wins() {
    let game = Snake::new(6, 6);
    let (mut found, mut tried) = (0, 0);
    for seed in 0..40 {
        let start = game.new_game(&mut seeded(seed, 6));
        let mut states = Vec::new();
        let agent = |s: &SnakeState, r: &mut _| {
            states.push(s.clone());
            safe_greedy(s, r)
        };
        play_snake_fn(&game, &start, seed, 100_000, agent);
        for s in states.into_iter().filter(|s| s.free_cells() <= 12) {
            tried += 1;
            assert_eq!(ClosingCycle::exists(&s, 10_000), ClosingCycle::find(&s, 10_000).is_some());
            if let Some(cycle) = ClosingCycle::find(&s, 10_000) {
                found += 1;
                let last = walk_cycle(&game, &cycle, s.clone(), seed);
                assert_eq!(last.end(), Some(End::Won), "from {s:?}\n{last}");
            }
        }
    }
    println!("closing cycles: {found} of {tried} positions");
    assert!(found > 0);
}

fn params_plain() -> SearchParams {
    SearchParams { playouts: Some(200), threads: 2, seed: 4, ..SearchParams::default() }
}

#[test]
fn mcts_plays_a_sound_game_on_6x6() {
    let game = Snake::new(6, 6);
    let params = SearchParams { playouts: Some(200), threads: 2, seed: 3, ..SearchParams::default() };
    let mut agent = MctsAgent::new(game, MctsAgent::search_policy(6, 6), params).with_endgame(9);
    let start = game.new_game(&mut seeded(3, 0));
    let record = play_snake(&game, &start, 3, u64::MAX, &mut agent);
    let hows: Vec<How> = record
        .steps
        .iter()
        .filter_map(|step| match step {
            Step::Move { how, .. } => Some(*how),
            Step::Chance(_) => None,
        })
        .collect();
    let count = |h: How| hows.iter().filter(|&&x| x == h).count();
    let s = &record.last;
    println!(
        "mcts 6x6: length {} in {} moves ({} searched, {} forced, {} along a closing cycle), {:?}",
        s.len(),
        hows.len(),
        count(How::Search),
        count(How::Forced),
        count(CYCLE),
        s.end()
    );
    assert!(matches!(s.end(), Some(End::Won | End::Starved)), "{s:?}");
    assert!(s.len() >= 24, "{s:?}");
    // Without the lock-in.
    let mut agent = MctsAgent::new(game, MctsAgent::search_policy(6, 6), params_plain());
    let record = play_snake(&game, &start, 3, 20_000, &mut agent);
    let (last, end) = (&record.last, record.last.end());
    println!("mcts 6x6: length {} in {} moves, {end:?}", last.len(), record.total_moves());
    assert!(matches!(end, Some(End::Won | End::Starved)), "{end:?}\n{last}");
    assert!(last.len() >= 24, "length {}\n{last}", last.len());
}

#[test]
fn the_search_never_returns_an_illegal_move() {
    let (game, policy) = (Snake::new(8, 8), MctsAgent::search_policy(8, 8));
    for seed in 0..30 {
        let s = random_position(8, 8, seed, 50 + seed * 7);
        if game.to_move(&s) != Turn::Player(0) {
            continue;
        }
        let params = SearchParams { playouts: Some(300), threads: 1, seed, ..SearchParams::default() };
        let mut agent = MctsAgent::new(game, policy, params);
        let d = agent.choose(&s, seed).dir;
        let (mut legal, mut candidates) = (Vec::new(), Vec::new());
        game.legal_actions(&s, &mut legal);
        policy.candidates(&game, &s, &mut candidates);
        assert!(legal.contains(&d), "{d} not legal in {s:?}");
        assert!(candidates.contains(&d), "{d} not a candidate in {s:?}");
    }
}

/// A game of 40 000 moves on a 24x24 board from a snake of length 3, each move chosen by a search (16
/// playouts, tail-safe moves, random-safe rollouts of at most 60 moves), with starvation off so that the
/// game cannot end early. Every 2000th move searches with `expand_threshold` 0, so that each playout grows
/// the tree until the memory budget stops it: those trees are thousands of nodes deep. Every search stays
/// within its 256 KiB budget, and every tree is dropped at the end of its search (arenas: no recursion,
/// whatever the depth).
#[test]
fn a_game_of_40000_moves_stays_within_the_memory_budget() {
    const MOVES: u64 = 40_000;
    const BUDGET: usize = 256 << 10;
    let rules = Snake { starvation_limit: u32::MAX, ..Snake::new(24, 24) };
    let search = SnakePolicy {
        rollout: RolloutPolicy::RandomSafe,
        rollout_max_moves: 60,
        tail_filter: TailFilter::Now,
        ..SnakePolicy::for_game(&rules)
    };
    let small = SearchParams {
        playouts: Some(16),
        threads: 1,
        memory_bytes: BUDGET,
        pin_threads: false,
        ..SearchParams::default()
    };
    let deep = SearchParams { playouts: Some(64), expand_threshold: 0, ..small.clone() };
    let mut rng = seeded(11, 0);
    // A snake of length 3 cannot turn back, so it wanders even when no rollout finds food.
    let mut s: SnakeState = "24x24 body=12,12 12,13 12,14".parse().unwrap();
    let (mut moves, mut searches, mut limited, mut deepest) = (0u64, 0u64, 0u64, 0u64);
    while moves < MOVES {
        match rules.to_move(&s) {
            Turn::Terminal => break,
            Turn::Chance => {
                let food = rules.sample_outcome(&s, &mut rng);
                rules.apply_outcome(&mut s, food);
                continue;
            }
            Turn::Player(_) => {}
        }
        let params = SearchParams { seed: moves, ..if moves % 2000 == 1999 { deep.clone() } else { small.clone() } };
        let mut agent = MctsAgent::new(rules, search, params);
        let choice = agent.choose(&s, moves);
        if let Some(r) = &choice.report {
            searches += 1;
            assert!(r.memory_bytes <= BUDGET, "move {moves}: {} bytes over the {BUDGET} budget", r.memory_bytes);
            limited += r.memory_limited as u64;
            deepest = deepest.max(r.max_depth);
        }
        rules.apply(&mut s, choice.dir);
        moves += 1;
    }
    println!("{moves} moves, {searches} searches ({limited} reached the budget, deepest path {deepest}), final {s}");
    assert_eq!(moves, MOVES, "the game ended early: {s:?}");
    assert_eq!(s.steps() as u64, MOVES);
    assert!(s.len() > 10, "the snake should eat on the way: {s}");
    assert!(limited > 0, "the deep searches should reach the budget");
    assert!(deepest > 1000, "deepest path {deepest}");
}
