//! The position rows of tests/data/gomoku.tsv as search tests: MCTS with at least 1000 playouts picks the
//! expected move for T1..T4 and R1's winning move under freestyle, both on the plain game (every
//! candidate searched, no forced-move shortcut) and as the tuned player; and whole games of the players.

use canopy_mcts::games::gomoku::{
    flat, play_game, vcf, Cell, Gomoku, GomokuState, How, Player, RolloutPolicy, Rule, Tuning, BLACK,
};
use canopy_mcts::rng::seeded;
use canopy_mcts::search::{Search, SearchParams};
use canopy_mcts::Game;

const CASES: &str = include_str!("data/gomoku.tsv");

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace().map(|t| Cell::parse(t).unwrap_or_else(|| panic!("bad cell {t}"))).collect()
}

/// The rows whose expected field is a set of moves: (id, game, position, expected moves).
fn position_rows() -> Vec<(String, Gomoku, GomokuState, Vec<Cell>)> {
    let mut rows = Vec::new();
    for line in CASES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if f[4].starts_with("no win") {
            continue;
        }
        let game = Gomoku::new(15, f[1].parse().unwrap());
        let state = game.from_stones(&cells(f[2]), &cells(f[3])).unwrap();
        rows.push((f[0].to_string(), game, state, f[4].split(" or ").flat_map(cells).collect()));
    }
    rows
}

fn params(playouts: u64, seed: u64) -> SearchParams {
    SearchParams { playouts: Some(playouts), threads: 1, seed, pin_threads: false, ..SearchParams::default() }
}

#[test]
fn rows_t1_to_t4_and_r1_are_read() {
    let ids: Vec<String> = position_rows().into_iter().map(|r| r.0).collect();
    assert_eq!(ids, ["T1", "T2", "T3", "T4", "R1"]);
    let r1 = position_rows().into_iter().find(|r| r.0 == "R1").unwrap();
    assert_eq!(r1.1.rule(), Rule::Freestyle);
}

/// The search (no forced-move shortcut) on the game as the player tunes it (threat pruning), with both
/// rollout policies: the most visited move is an expected one, for several seeds, at 1000 and 3000
/// playouts, with one and two threads.
#[test]
fn search_picks_the_expected_moves() {
    for (id, game, state, expected) in position_rows() {
        for policy in [RolloutPolicy::Basic, RolloutPolicy::Threats] {
            let game = Tuning { policy, ..Tuning::default() }.game(&game);
            for seed in 0..4 {
                for playouts in [1_000, 3_000] {
                    let report = Search::new(&game, params(playouts, seed)).run(&state);
                    let best = report.best.unwrap();
                    assert!(expected.contains(&best), "{id} {policy:?} seed {seed} {playouts}: chose {best}");
                    assert_eq!(report.playouts, playouts);
                    // A winning move is rated as one (T2's block only keeps the game going).
                    let stats = report.action(&best).unwrap();
                    assert!(id == "T2" || stats.mean.unwrap() > 0.9, "{id}: win rate {:?}", stats.mean);
                }
            }
            let two = SearchParams { threads: 2, ..params(2_000, 9) };
            let best = Search::new(&game, two).run(&state).best.unwrap();
            assert!(expected.contains(&best), "{id} {policy:?} two threads: chose {best}");
        }
    }
}

/// The tuned game offers only the forced moves in these positions, and the player answers them without a
/// search; with the shortcut off it searches and still finds them.
#[test]
fn tuned_player_answers_the_rows() {
    for (id, game, state, expected) in position_rows() {
        let tuned = Tuning::default().game(&game);
        let mut out = Vec::new();
        tuned.legal_actions(&state, &mut out);
        assert!(out.iter().all(|c| expected.contains(c)), "{id}: candidates {out:?}");
        let mut rng = seeded(1, 0);
        let player = Player::Mcts { params: params(1_000, 1), tuning: Tuning::default() };
        let mv = player.choose(&game, &state, &mut rng, None).unwrap();
        assert!(expected.contains(&mv.cell), "{id}: chose {}", mv.cell);
        assert_eq!(mv.how, How::Forced);
        let searching = Player::Mcts {
            params: params(1_000, 1),
            tuning: Tuning { forced_answer: false, threat_search: false, ..Tuning::default() },
        };
        let mv = searching.choose(&game, &state, &mut rng, None).unwrap();
        assert!(expected.contains(&mv.cell), "{id}: search chose {}", mv.cell);
        assert_eq!(mv.how, How::Search);
        assert_eq!(mv.report.unwrap().playouts, 1_000);
        assert!(expected.contains(&flat(&game, &state, 20, &mut rng).unwrap()), "{id}: flat");
    }
}

/// R1: the overline is the winning move under freestyle; under standard rules the same cell is no win,
/// and the search does not rate it as one.
#[test]
fn r1_overline_search_under_both_rules() {
    let (_, game, state, expected) = position_rows().into_iter().find(|r| r.0 == "R1").unwrap();
    let report = Search::new(&Tuning::default().game(&game), params(2_000, 3)).run(&state);
    assert_eq!(report.best, Some(expected[0]));
    let standard = Tuning::default().game(&Gomoku::new(15, Rule::Standard));
    let black: Vec<Cell> = state.stones(BLACK).collect();
    let white: Vec<Cell> = state.stones(1).collect();
    let s = standard.from_stones(&black, &white).unwrap();
    let report = Search::new(&standard, params(2_000, 3)).run(&s);
    // White's open three on row 9 must be answered, and 3,7 is no four under standard rules: it is
    // not offered at all, or not rated as a win.
    assert_ne!(report.best, Some(expected[0]));
    assert!(report.action(&expected[0]).is_none_or(|a| a.mean.unwrap_or(0.0) < 0.99));
}

/// Every player returns an empty cell in every position of a game, and a game ends with a winner or a
/// full board.
#[test]
fn players_only_play_empty_cells() {
    let game = Gomoku::new(9, Rule::Freestyle);
    let players = [
        Player::Mcts { params: params(300, 1), tuning: Tuning::default() },
        Player::Flat { rollouts: 4 },
        Player::Threat,
        Player::Random,
    ];
    for (i, a) in players.iter().enumerate() {
        let b = &players[(i + 1) % players.len()];
        let record = play_game(&game, &game.new_game(), [a, b], i as u64, |s, mv| {
            assert_eq!(s.stone(mv.cell), Some(1 - s.mover()));
        });
        let mut s = game.new_game();
        for &c in &record.moves {
            game.try_apply(&mut s, c).unwrap();
        }
        assert!(s.is_terminal());
        assert_eq!(s.winner(), record.winner);
    }
}

/// MCTS (3000 playouts, one thread) beats the threat player with both colours on 15x15 (one seeded game
/// each; the acceptance match is recorded in docs/gomoku.md).
#[test]
fn mcts_beats_threat_with_both_colours() {
    let game = Gomoku::new(15, Rule::Freestyle);
    let mcts = Player::Mcts { params: params(3_000, 1), tuning: Tuning::default() };
    for side in [0, 1] {
        let players = if side == 0 { [&mcts, &Player::Threat] } else { [&Player::Threat, &mcts] };
        let record = play_game(&game, &game.new_game(), players, side as u64, |_, _| {});
        assert_eq!(record.winner, Some(side), "mcts as {side}: {:?}", record.moves);
    }
}
