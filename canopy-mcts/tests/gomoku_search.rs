//! The position rows of tests/data/gomoku.tsv as search tests: MCTS with at least 1000 playouts picks the
//! expected move for T1..T4 and R1's winning move under freestyle, both on the plain game (every
//! candidate searched, no forced-move shortcut) and as the tuned player; and whole games of the players.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::agent::{play_game, Agent, GameSeeds, Step};
use canopy_mcts::games::gomoku::{
    flat, vcf, Cell, Gomoku, GomokuPolicy, GomokuState, How, Player, PlayerAgent, RolloutPolicy, Rule, Tuning, BLACK,
};
use canopy_mcts::rng::seeded;
use canopy_mcts::search::{Search, SearchParams, Selection};
use canopy_mcts::{Coverage, Game, Policy};

const CASES: &str = include_str!("../../tests/data/gomoku.tsv");

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

/// The search (no forced-move shortcut) with the player's policy (threat pruning), with each of the
/// tactical rollout policies: the most visited move is an expected one, for several seeds, at 1000 and 3000
/// playouts, with one and two threads.
#[test]
fn search_picks_the_expected_moves() {
    for (id, game, state, expected) in position_rows() {
        for policy in [RolloutPolicy::Basic, RolloutPolicy::Threats, RolloutPolicy::Attacks] {
            let search = Tuning { policy, ..Tuning::default() }.policy();
            for seed in 0..4 {
                for playouts in [1_000, 3_000] {
                    let report = Search::with_policy(&game, &search, params(playouts, seed)).run(&state);
                    let best = report.best.unwrap();
                    assert!(expected.contains(&best), "{id} {policy:?} seed {seed} {playouts}: chose {best}");
                    // MCTS-Solver may prove the root and end the search early.
                    assert!(report.playouts == playouts || report.root_proof.is_some());
                    // A winning move is rated as one (T2's block only keeps the game going).
                    let stats = report.action(&best).unwrap();
                    assert!(id == "T2" || stats.mean.unwrap() > 0.9, "{id}: win rate {:?}", stats.mean);
                }
            }
            let two = SearchParams { threads: 2, ..params(2_000, 9) };
            let best = Search::with_policy(&game, &search, two).run(&state).best.unwrap();
            assert!(expected.contains(&best), "{id} {policy:?} two threads: chose {best}");
        }
    }
}

/// The tuned policy offers only the forced moves in these positions, and the player answers them without
/// a search; with the shortcut off it searches and still finds them.
#[test]
fn tuned_player_answers_the_rows() {
    for (id, game, state, expected) in position_rows() {
        let tuned = Tuning::default().policy();
        let mut out = Vec::new();
        tuned.candidates(&game, &state, &mut out);
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
        let report = mv.report.unwrap();
        assert!(report.playouts == 1_000 || report.root_proof.is_some());
        assert!(expected.contains(&flat(&game, &state, 20, &mut rng).unwrap()), "{id}: flat");
    }
}

/// R1: the overline is the winning move under freestyle; under standard rules the same cell is no win,
/// and the search does not rate it as one.
#[test]
fn r1_overline_search_under_both_rules() {
    let (_, game, state, expected) = position_rows().into_iter().find(|r| r.0 == "R1").unwrap();
    let tuned = Tuning::default().policy();
    let report = Search::with_policy(&game, &tuned, params(2_000, 3)).run(&state);
    assert_eq!(report.best, Some(expected[0]));
    let standard = Gomoku::new(15, Rule::Standard);
    let black: Vec<Cell> = state.stones(BLACK).collect();
    let white: Vec<Cell> = state.stones(1).collect();
    let s = standard.from_stones(&black, &white).unwrap();
    let report = Search::with_policy(&standard, &tuned, params(2_000, 3)).run(&s);
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
    for i in 0..players.len() {
        let (mut a, mut b) =
            (PlayerAgent::new(players[i].clone()), PlayerAgent::new(players[(i + 1) % players.len()].clone()));
        let mut agents: [&mut dyn Agent<Gomoku>; 2] = [&mut a, &mut b];
        let record = play_game(
            &game,
            |_| game.new_game(),
            &mut agents,
            GameSeeds::new(i as u64),
            None,
            |s, step| {
                if let Step::Move { action, how, .. } = step {
                    assert_eq!(s.stone(*action), Some(1 - s.mover()));
                    assert_ne!(*how, How::Fallback);
                }
            },
        );
        let mut s = game.new_game();
        for c in record.actions() {
            game.try_apply(&mut s, c).unwrap();
        }
        assert!(s.is_terminal());
        assert_eq!(s.winner(), record.winner());
    }
}

/// MCTS (3000 playouts, one thread) beats the threat player with both colours on 15x15 (one seeded game
/// each; the acceptance match is recorded in docs/gomoku.md).
#[test]
fn mcts_beats_threat_with_both_colours() {
    let game = Gomoku::new(15, Rule::Freestyle);
    for side in [0, 1] {
        let (mut mcts, mut threat) = (
            PlayerAgent::new(Player::Mcts { params: params(3_000, 1), tuning: Tuning::default() }),
            PlayerAgent::new(Player::Threat),
        );
        let mut agents: [&mut dyn Agent<Gomoku>; 2] =
            if side == 0 { [&mut mcts, &mut threat] } else { [&mut threat, &mut mcts] };
        let record = play_game(&game, |_| game.new_game(), &mut agents, GameSeeds::new(side as u64), None, |_, _| {});
        assert_eq!(record.winner(), Some(side), "mcts as {side}: {:?}", record.actions().collect::<Vec<_>>());
    }
}

/// Threat pruning: against an open three only the two cells that stop it are offered (the side to move
/// has no four to make); with a four to make, its cells too; with a three of its own that can become a
/// straight four, only that.
#[test]
fn threat_pruning_answers_open_threes() {
    let game = Gomoku::new(15, Rule::Freestyle);
    let pruning = GomokuPolicy::default().with_threat_pruning(true);
    let s = game.from_stones(&cells("6,7 7,7 8,7"), &cells("0,0 14,14")).unwrap();
    let mut out = Vec::new();
    // Every other move lets Black make a straight four: safe for proofs, with the candidate radius 2.
    assert_eq!(pruning.candidates(&game, &s, &mut out), Coverage::ProofSafe);
    assert_eq!(out, cells("5,7 9,7"));
    assert_eq!(pruning.with_radius(1).candidates(&game, &s, &mut out), Coverage::Pruned);
    // White also has a closed three on column 0: its four-making cells are offered too.
    let s = game.from_stones(&cells("6,7 7,7 8,7 14,0 14,2"), &cells("0,0 0,1 0,2 13,13")).unwrap();
    pruning.candidates(&game, &s, &mut out);
    assert_eq!(out, cells("0,3 0,4 5,7 9,7"));
    // Black to move with the open three: the straight fours.
    let s = game.from_stones(&cells("6,7 7,7 8,7"), &cells("0,0 14,14 13,13")).unwrap();
    assert_eq!(pruning.candidates(&game, &s, &mut out), Coverage::ProofSafe, "a straight four wins by force");
    assert_eq!(out, cells("5,7 9,7"));
    // Two open threes of Black and no four for White: the blocks of either.
    let s =
        game.from_stones(&cells("6,7 7,7 8,7 3,3 3,4 3,5 12,12"), &cells("0,0 14,14 13,13 14,10 0,10 10,0")).unwrap();
    assert_eq!(s.mover(), 1);
    pruning.candidates(&game, &s, &mut out);
    assert_eq!(out, cells("3,2 3,6 5,7 9,7"));
    // A double threat of the side to move (two open twos crossing at 6,6 become two open threes).
    let s = game.from_stones(&cells("6,4 6,5 4,6 5,6"), &cells("0,0 14,14 0,14 14,0")).unwrap();
    assert_eq!(pruning.candidates(&game, &s, &mut out), Coverage::Pruned, "a double threat is a heuristic");
    assert!(out.contains(&Cell::new(6, 6)), "{out:?}");
    let mut s2 = s.clone();
    game.apply(&mut s2, Cell::new(6, 6));
    assert_eq!(game.winning_moves(&s2, BLACK), vec![]);
    // Without pruning every candidate within radius 2.
    assert_eq!(pruning.with_threat_pruning(false).candidates(&game, &s, &mut out), Coverage::Pruned);
    assert!(out.len() > 20);
    // Quiet radius 1: scattered stones offer only their neighbours; a cell two away stays when it makes
    // an open three (8,5 and 3,5 make the split threes X X . X and X . X X with the pair 5,5 6,5).
    let quiet = pruning.with_quiet_radius(1);
    let s = game.from_stones(&cells("7,7 3,3 11,11"), &cells("0,0 14,14")).unwrap();
    assert_eq!(quiet.candidates(&game, &s, &mut out), Coverage::Pruned);
    assert_eq!(out.len(), 8 + 8 + 8 + 3 + 3, "{out:?}");
    let s = game.from_stones(&cells("5,5 6,5 11,11"), &cells("0,0 14,14")).unwrap();
    quiet.candidates(&game, &s, &mut out);
    assert!(out.contains(&Cell::new(8, 5)) && out.contains(&Cell::new(3, 5)), "{out:?}");
    assert!(!out.contains(&Cell::new(5, 3)), "{out:?}");
    // Threats come first: the open-three cells of the two stones lead the list.
    assert!(out[..4].iter().all(|c| c.y == 5), "{out:?}");
    // A five to block, or to make: safe for proofs (every other move loses at once, or a win is there).
    let s = game.from_stones(&cells("6,7 7,7 8,7 9,7"), &cells("0,0 14,14 13,13")).unwrap();
    assert_eq!(pruning.candidates(&game, &s, &mut out), Coverage::ProofSafe);
    assert_eq!(out, cells("5,7 10,7"));
    let s = game.from_stones(&cells("6,7 7,7 8,7 9,7 0,14"), &cells("0,0 14,14 13,13 10,7")).unwrap();
    assert_eq!(pruning.candidates(&game, &s, &mut out), Coverage::ProofSafe);
    assert_eq!(out, cells("5,7"));
    // A neighbourhood that holds every empty cell is complete (5x5, radius 2 around the centre).
    let small = Gomoku::new(5, Rule::Freestyle);
    let s = small.from_moves("2,2").unwrap();
    assert_eq!(GomokuPolicy::default().candidates(&small, &s, &mut out), Coverage::Complete);
    assert_eq!(out.len(), 24);
}

/// The pattern priors: one weight per candidate, the largest 1; the forcing and shape moves rated above
/// most others; a higher temperature flattens them.
#[test]
fn pattern_priors_rank_threats_and_flatten_with_temperature() {
    let game = Gomoku::new(15, Rule::Freestyle);
    let policy = GomokuPolicy::default().with_threat_pruning(true).with_quiet_radius(1);
    // Black to move with two crossing twos (6,4 6,5 and 4,6 5,6): 6,6 makes a 3-3; 6,3 and 3,6 an open
    // three; White's stones are far away.
    let s = game.from_stones(&cells("6,4 6,5 4,6 5,6"), &cells("0,0 14,14 0,14 14,0")).unwrap();
    let candidates: Vec<Cell> = {
        let mut out = Vec::new();
        policy.with_threat_pruning(false).candidates(&game, &s, &mut out);
        out
    };
    let weights = |t: f64| {
        let mut w = Vec::new();
        assert!(policy.with_prior_temperature(t).priors(&game, &s, &candidates, &mut w));
        assert_eq!(w.len(), candidates.len());
        assert!(w.iter().all(|&x| x.is_finite() && x >= 0.0), "{w:?}");
        w
    };
    let prior = |w: &[f32], c: &str| w[candidates.iter().position(|&x| x == Cell::parse(c).unwrap()).unwrap()];
    for t in [0.05, 0.5, 1.0, 2.0] {
        let w = weights(t);
        let top = w.iter().cloned().fold(0.0, f32::max);
        assert_eq!(prior(&w, "6,6"), top, "T {t}: the double three has the largest prior");
        let mut sorted = w.clone();
        sorted.sort_by(f32::total_cmp);
        let median = sorted[sorted.len() / 2];
        assert!(prior(&w, "6,3") > median && prior(&w, "3,6") > median, "T {t}: open threes above the median");
    }
    let spread = |w: &[f32]| w.iter().cloned().fold(0.0, f32::max) / w.iter().cloned().fold(f32::MAX, f32::min);
    let (sharp, flat, flatter) = (spread(&weights(1.0)), spread(&weights(4.0)), spread(&weights(100.0)));
    assert!(sharp > 100.0 && sharp > flat && flat > flatter && flatter < 1.2, "{sharp} {flat} {flatter}");
    // A tiny temperature neither overflows nor drops the best cell.
    let w = weights(0.05);
    assert_eq!(w.iter().filter(|&&x| x == 1.0).count(), 1, "{w:?}");
    // The opponent's shape counts as a block: White to move, Black's open-three cells rank high.
    let s = game.from_stones(&cells("6,7 7,7 0,0"), &cells("14,14 13,13")).unwrap();
    let mut near = Vec::new();
    policy.with_threat_pruning(false).candidates(&game, &s, &mut near);
    let mut w = Vec::new();
    policy.priors(&game, &s, &near, &mut w);
    let at = |c: &str| w[near.iter().position(|&x| x == Cell::parse(c).unwrap()).unwrap()];
    assert!(at("8,7") > at("7,9") && at("5,7") > at("6,9"), "{w:?}");
}

/// PUCT with the pattern priors finds the rows' expected moves too (search only, no shortcut).
#[test]
fn puct_with_priors_picks_the_expected_moves() {
    for (id, game, state, expected) in position_rows() {
        let search = Tuning::default().policy();
        for seed in 0..3 {
            for exploration in [1.0, 2.0] {
                let p = SearchParams { selection: Selection::Puct, exploration, ..params(1_000, seed) };
                let best = Search::with_policy(&game, &search, p).run(&state).best.unwrap();
                assert!(expected.contains(&best), "{id} seed {seed} C {exploration}: chose {best}");
            }
        }
    }
}

/// Plays a VCF line and checks it: every attacker move but the last makes a four, every defender move
/// blocks it, and the last attacker move wins.
fn check_vcf(game: &Gomoku, state: &GomokuState, attacker: usize, line: &[Cell]) {
    let mut s = state.clone();
    if s.mover() != attacker {
        // A threat the side to move ignores: let it pass with a far stone.
        let far = (0..225).map(|i| Cell::from_index(i, 15)).rev().find(|&c| s.is_empty_cell(c)).unwrap();
        game.apply(&mut s, far);
    }
    assert!(line.len() % 2 == 0 || line.len() == 1, "{line:?}");
    let mut i = 0;
    while i + 1 < line.len() {
        game.try_apply(&mut s, line[i]).unwrap();
        let wins = game.winning_moves(&s, attacker);
        assert!(!wins.is_empty(), "{line:?}: move {} makes no four\n{s}", line[i]);
        if i + 2 == line.len() {
            // The last four: it cannot be stopped, and its winning cell is the last move.
            assert!(wins.contains(&line[i + 1]), "{line:?}");
            assert!(wins.len() >= 2, "{line:?}: the last four can be blocked");
            return;
        }
        assert_eq!(wins, vec![line[i + 1]], "{line:?}: block");
        game.try_apply(&mut s, line[i + 1]).unwrap();
        i += 2;
    }
    game.try_apply(&mut s, line[i]).unwrap();
    assert_eq!(s.winner(), Some(attacker));
}

#[test]
fn vcf_finds_fours_and_double_fours() {
    let game = Gomoku::new(15, Rule::Freestyle);
    // Two closed threes crossing at 6,3: a double four.
    let black = cells("3,3 4,3 5,3 6,4 6,5 6,6");
    let white = cells("2,3 6,7 0,14 14,14 13,0 10,13");
    let s = game.from_stones(&black, &white).unwrap();
    assert_eq!(s.mover(), BLACK);
    let line = vcf(&game, &s, BLACK, 10_000).expect("a VCF");
    assert_eq!(line[0], Cell::new(6, 3));
    check_vcf(&game, &s, BLACK, &line);
    assert_eq!(vcf(&game, &s, 1, 10_000), None);
    // An open three: the straight four is a VCF of one move.
    let s = game.from_stones(&cells("6,7 7,7 8,7"), &cells("0,0 14,14 13,13")).unwrap();
    let line = vcf(&game, &s, BLACK, 10_000).unwrap();
    assert!(line[0] == Cell::new(5, 7) || line[0] == Cell::new(9, 7), "{line:?}");
    check_vcf(&game, &s, BLACK, &line);
    // A chain: the four 6,10 on row 10 forces 7,10, then 6,9 makes a straight four on column 6.
    let black = cells("3,10 4,10 5,10 6,7 6,8");
    let white = cells("2,10 0,0 14,0 0,14 14,14");
    let s = game.from_stones(&black, &white).unwrap();
    let line = vcf(&game, &s, BLACK, 10_000).unwrap();
    assert_eq!(line[..3], cells("6,10 7,10 6,9")[..], "{line:?}");
    assert_eq!(line.len(), 4);
    check_vcf(&game, &s, BLACK, &line);
    // The same with White to move: a threat White must defuse.
    let black = cells("3,10 4,10 5,10 6,7 6,8 14,7");
    let s = game.from_stones(&black, &white).unwrap();
    assert_eq!(s.mover(), 1);
    check_vcf(&game, &s, BLACK, &vcf(&game, &s, BLACK, 10_000).unwrap());
    // A budget of one node finds only a win at once.
    assert_eq!(vcf(&game, &s, BLACK, 1), None);
    // Nothing for two lone stones.
    let s = game.from_moves("7,7 8,8").unwrap();
    assert_eq!(vcf(&game, &s, BLACK, 10_000), None);
    assert_eq!(vcf(&game, &s, 1, 10_000), None);
}

/// The player plays a VCF when it has one, and when the opponent has one it plays a move after which the
/// opponent has none.
#[test]
fn player_uses_and_defuses_vcf() {
    let game = Gomoku::new(15, Rule::Freestyle);
    let black = cells("3,3 4,3 5,3 6,4 6,5 6,6");
    let white = cells("2,3 6,7 0,14 14,14 13,0 10,13");
    let s = game.from_stones(&black, &white).unwrap();
    let player = Player::Mcts { params: params(2_000, 1), tuning: Tuning::default() };
    let mv = player.choose(&game, &s, &mut seeded(1, 0), None).unwrap();
    // The double four is also the only candidate threat pruning leaves, so it is played either way
    // without a search.
    assert_eq!(mv.cell, Cell::new(6, 3));
    assert!(matches!(mv.how, How::Tactic("vcf") | How::Forced), "{:?}", mv.how);
    let no_pruning =
        Player::Mcts { params: params(2_000, 1), tuning: Tuning { threat_pruning: false, ..Tuning::default() } };
    let mv = no_pruning.choose(&game, &s, &mut seeded(1, 0), None).unwrap();
    assert_eq!((mv.cell, mv.how), (Cell::new(6, 3), How::Tactic("vcf")));
    // The chain of fours with White to move: White plays a move after which Black has none.
    let black = cells("3,10 4,10 5,10 6,7 6,8 14,7");
    let white = cells("2,10 0,0 14,0 0,14 14,14");
    let s = game.from_stones(&black, &white).unwrap();
    assert_eq!(s.mover(), 1);
    assert!(vcf(&game, &s, BLACK, 10_000).is_some());
    let mv = player.choose(&game, &s, &mut seeded(1, 0), None).unwrap();
    let mut next = s.clone();
    game.apply(&mut next, mv.cell);
    assert_eq!(vcf(&game, &next, BLACK, 10_000), None, "{} leaves Black a VCF", mv.cell);
}
