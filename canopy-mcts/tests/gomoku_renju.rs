//! The renju rule: every row of tests/data/renju.tsv as its own test (the forbidden-move test, the game's
//! result after the move, and the search's candidates and rollouts for Black leaving forbidden cells out),
//! then the search: Black never plays a forbidden cell, and White wins by forcing Black onto one.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::gomoku::{
    vcf, Cell, Foul, Gomoku, GomokuPolicy, GomokuState, How, Plan, PositionError, RolloutPolicy, Rule, Tuning, BLACK,
    WHITE,
};
use canopy_mcts::rng::seeded;
use canopy_mcts::search::{Proof, Search, SearchParams};
use canopy_mcts::{Coverage, Game, Policy};

const CASES: &str = include_str!("../../tests/data/renju.tsv");

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace().map(|t| Cell::parse(t).unwrap_or_else(|| panic!("bad cell {t}"))).collect()
}

/// One row: the position, the cell to play and the expected result.
struct Row {
    game: Gomoku,
    state: GomokuState,
    cell: Cell,
    expected: String,
}

fn rows() -> Vec<(String, Row)> {
    let mut out = Vec::new();
    for line in CASES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 6, "row {line}");
        let game = Gomoku::new(15, Rule::Renju);
        let state = game.from_stones(&cells(f[1]), &cells(f[2])).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        let cell = Cell::parse(f[3]).unwrap_or_else(|| panic!("{}: bad cell {}", f[0], f[3]));
        out.push((f[0].to_string(), Row { game, state, cell, expected: f[4].to_string() }));
    }
    out
}

fn row(id: &str) -> Row {
    rows().into_iter().find(|(i, _)| i == id).unwrap_or_else(|| panic!("no row {id} in renju.tsv")).1
}

/// Checks one row: the foul test, the result of playing the cell, and for a forbidden cell that neither
/// the candidates (with and without threat pruning) nor the rollout policies offer it.
fn check_row(id: &str) {
    let Row { game, state, cell, expected } = row(id);
    let me = state.mover();
    assert!(state.winner().is_none() && state.is_empty_cell(cell), "{id}: the position must be open");
    let foul = game.foul(&state, cell);
    let wins = game.winning_moves(&state, me).contains(&cell);
    let mut next = state.clone();
    game.try_apply(&mut next, cell).unwrap();
    match expected.as_str() {
        "five" => {
            assert!(wins, "{id}: {cell} should win at once");
            assert_eq!(foul, None, "{id}: a five is never forbidden");
            assert_eq!(next.winner(), Some(me), "{id}");
        }
        "not forbidden" => {
            assert!(!wins, "{id}: {cell} should not win");
            assert_eq!(foul, None, "{id}");
            assert_eq!(next.winner(), None, "{id}");
        }
        name => {
            assert_eq!(me, BLACK, "{id}: only Black has forbidden moves");
            assert_eq!(foul.map(Foul::name), Some(name), "{id}: foul at {cell}");
            assert_eq!(next.winner(), Some(WHITE), "{id}: the forbidden move loses");
            let mut candidates = Vec::new();
            for pruning in [false, true] {
                let policy = GomokuPolicy::default().with_threat_pruning(pruning);
                policy.candidates(&game, &state, &mut candidates);
                assert!(!candidates.is_empty(), "{id}: no candidates");
                assert!(!candidates.contains(&cell), "{id}: threat pruning {pruning} offers {cell}");
            }
            for rollout in
                [RolloutPolicy::Basic, RolloutPolicy::Threats, RolloutPolicy::Attacks, RolloutPolicy::Uniform]
            {
                let policy = GomokuPolicy::default().with_rollout_policy(rollout);
                for seed in 0..50 {
                    let c = policy.rollout_move(&game, &state, &mut seeded(seed, 0)).unwrap();
                    assert!(game.foul(&state, c).is_none(), "{id}: {rollout:?} rollout plays the forbidden {c}");
                }
            }
        }
    }
    // Under freestyle the same stones forbid nothing.
    let free = Gomoku::new(15, Rule::Freestyle);
    let stones = |p| state.stones(p).collect::<Vec<_>>();
    assert_eq!(free.foul(&free.from_stones(&stones(BLACK), &stones(WHITE)).unwrap(), cell), None, "{id}");
}

macro_rules! row_tests {
    ($($name:ident => $id:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_row($id);
            }
        )*

        /// Every row of the file has its test above, in order.
        #[test]
        fn every_row_has_a_test() {
            let ids: Vec<String> = rows().into_iter().map(|(id, _)| id).collect();
            assert_eq!(ids, [$($id),*]);
        }
    };
}

row_tests! {
    f1_double_three => "F1",
    f2_double_three_with_a_split_three => "F2",
    f3_blocked_three => "F3",
    f4_four_three => "F4",
    f5_double_four_on_two_lines => "F5",
    f6_double_four_on_one_line => "F6",
    f7_double_four_on_one_line_split => "F7",
    f8_overline => "F8",
    f9_five_beats_a_double_three => "F9",
    f10_five_beats_an_overline => "F10",
    f11_false_double_three_overline_four_cell => "F11",
    f12_three_whose_straight_fours_are_overlines => "F12",
    f13_double_three_control_of_f12 => "F13",
    f14_one_forbidden_four_cell_of_two => "F14",
    f15_four_three_three => "F15",
    f16_false_double_three_double_four_cell => "F16",
    w1_white_overline_wins => "W1",
    w2_white_has_no_forbidden_moves => "W2",
}

fn params(playouts: u64, seed: u64) -> SearchParams {
    SearchParams { playouts: Some(playouts), threads: 1, seed, pin_threads: false, ..SearchParams::default() }
}

/// F1 with Black to move: the double three at 7,7 is the move a freestyle search plays (two open
/// threes win), and under renju the search, the player and every rollout policy play elsewhere.
#[test]
fn the_search_never_plays_the_natural_double_three() {
    let Row { game, state, cell, .. } = row("F1");
    let free = Gomoku::new(15, Rule::Freestyle);
    let free_state =
        free.from_stones(&state.stones(BLACK).collect::<Vec<_>>(), &state.stones(WHITE).collect::<Vec<_>>());
    let free_state = free_state.unwrap();
    let tuning = Tuning::default();
    let search = tuning.policy();
    let freestyle_best = Search::with_policy(&free, &search, params(2_000, 1)).run(&free_state).best;
    assert_eq!(freestyle_best, Some(cell), "freestyle plays the double three");
    for seed in 0..4 {
        for pruning in [false, true] {
            let policy = tuning.policy().with_threat_pruning(pruning);
            let report = Search::with_policy(&game, &policy, params(2_000, seed)).run(&state);
            let best = report.best.unwrap();
            assert!(game.foul(&state, best).is_none(), "seed {seed}, pruning {pruning}: plays the forbidden {best}");
            assert!(report.actions.iter().all(|a| a.action != cell), "seed {seed}: {cell} was searched");
        }
    }
    match tuning.plan(&game, &state, None) {
        Plan::Play(c, _) => assert!(game.foul(&state, c).is_none(), "the player plays the forbidden {c}"),
        Plan::Search(moves) => assert!(moves.is_none_or(|m| !m.contains(&cell))),
    }
}

/// Whole games of each rollout policy's moves under renju, from several openings and many seeds: no
/// Black move is forbidden unless every empty cell is (near the end of a full 9x9 board), and every game
/// ends by a five, a forbidden move or a full board.
#[test]
fn rollouts_never_play_a_forbidden_move() {
    let mut forced = 0;
    let openings = ["", "7,7 8,8 7,8", "7,7 7,8 6,6 8,8 6,8", "2,2 3,3 2,3 3,4"];
    for size in [9, 15] {
        let game = Gomoku::new(size, Rule::Renju);
        for rollout in [RolloutPolicy::Basic, RolloutPolicy::Threats, RolloutPolicy::Attacks, RolloutPolicy::Uniform] {
            let policy = GomokuPolicy::default().with_rollout_policy(rollout);
            for (k, opening) in openings.iter().enumerate() {
                for seed in 0..25 {
                    let mut rng = seeded(seed, k as u64);
                    let mut state = game.from_moves(opening).unwrap();
                    while let Some(c) = policy.rollout_move(&game, &state, &mut rng) {
                        if state.mover() == BLACK && game.foul(&state, c).is_some() {
                            // Only when Black has nothing else: every empty cell is forbidden.
                            let mut legal = Vec::new();
                            game.legal_actions(&state, &mut legal);
                            let other = legal.iter().find(|&&e| game.foul(&state, e).is_none());
                            assert!(
                                other.is_none(),
                                "{rollout:?} seed {seed}: {c} is forbidden, {other:?} is not\n{state}"
                            );
                            forced += 1;
                        }
                        game.apply(&mut state, c);
                    }
                    assert!(state.is_terminal(), "{rollout:?} seed {seed}: the game stopped early\n{state}");
                }
            }
        }
    }
    assert!(forced < 20, "{forced} games ended with Black forced onto a forbidden cell");
}

/// The position where White wins by a four whose only block, 7,7, is a double three for Black (F1's
/// crossing threes): White's four 3,3 4,4 5,5 6,6 is closed at 2,2 by Black.
fn forced_foul() -> (Gomoku, GomokuState) {
    let game = Gomoku::new(15, Rule::Renju);
    let state = game.from_stones(&cells("7,5 7,6 5,7 6,7 2,2"), &cells("3,3 4,4 5,5 14,14")).unwrap();
    (game, state)
}

/// White finds the win that Black's forbidden cell gives it: by the victory-by-fours search, by the
/// player, and by MCTS-Solver, which proves it through the proven loss of Black's replies. Under
/// freestyle the same four is no win (Black blocks it).
#[test]
fn white_wins_by_forcing_black_onto_a_forbidden_cell() {
    let (game, state) = forced_foul();
    assert_eq!(state.mover(), WHITE);
    let four = Cell::new(6, 6);
    let line = vcf(&game, &state, WHITE, 1_000).expect("a VCF through the forbidden block");
    assert_eq!(line, [four]);
    let mut after = state.clone();
    game.apply(&mut after, four);
    assert_eq!(game.winning_moves(&after, WHITE), [Cell::new(7, 7)]);
    assert_eq!(game.foul(&after, Cell::new(7, 7)), Some(Foul::DoubleThree));
    match Tuning::default().plan(&game, &state, None) {
        // The only candidate of threat pruning, so played without a search.
        Plan::Play(c, how) => assert_eq!((c, how), (four, How::Forced)),
        other => panic!("expected the VCF, got {other:?}"),
    }
    let policy = Tuning::default().policy();
    // Threat pruning offers White the four alone, and the set is safe for proofs.
    let mut candidates = Vec::new();
    assert!(policy.threat_pruning());
    assert_eq!(policy.candidates(&game, &state, &mut candidates), Coverage::ProofSafe);
    assert_eq!(candidates, [four]);
    for seed in 0..3 {
        let report = Search::with_policy(&game, &policy, params(5_000, seed)).run(&state);
        assert_eq!(report.best, Some(four), "seed {seed}");
        assert_eq!(report.root_proof, Some(Proof::Win), "seed {seed}: the win is proven");
    }
    let free = Gomoku::new(15, Rule::Freestyle);
    let free_state = free.from_stones(&cells("7,5 7,6 5,7 6,7 2,2"), &cells("3,3 4,4 5,5 14,14")).unwrap();
    assert_ne!(vcf(&free, &free_state, WHITE, 1_000).map(|l| l[0]), Some(four));
}

/// A Black move that loses by a foul ends the game, and its key differs from the same stones reached
/// with a legal last move.
#[test]
fn a_forbidden_move_ends_the_game_with_its_own_key() {
    let game = Gomoku::new(15, Rule::Renju);
    let lost = game.from_moves("7,5 0,14 7,6 4,14 5,7 8,14 6,7 12,14 7,7").unwrap();
    assert_eq!(lost.winner(), Some(WHITE));
    assert_eq!(game.to_move(&lost), canopy_mcts::Turn::Terminal);
    assert_eq!(game.returns(&lost), [0.0, 1.0]);
    assert_eq!(game.lost_by_foul(&lost), Some((Cell::new(7, 7), Foul::DoubleThree)));
    let open = game.from_moves("7,7 0,14 7,6 4,14 5,7 8,14 6,7 12,14 7,5").unwrap();
    assert_eq!(open.winner(), None);
    assert_eq!(game.lost_by_foul(&open), None);
    assert_eq!(open.key(), lost.key());
    assert_ne!(game.zobrist(&open), game.zobrist(&lost));
    // Legal: every empty cell, the forbidden ones included.
    let before = game.from_moves("7,5 0,14 7,6 4,14 5,7 8,14 6,7 12,14").unwrap();
    let mut legal = Vec::new();
    game.legal_actions(&before, &mut legal);
    assert!(legal.contains(&Cell::new(7, 7)) && game.is_legal(&before, Cell::new(7, 7), &mut Vec::new()));
}

/// A Black overline given as stones (a board, not moves) is the forbidden move that ended the game, as
/// the same stones reached by play are: White has won, whichever stone of the six came last, and a White
/// stone after it cannot be. Under standard the overline is no five and the game goes on; under
/// freestyle it is Black's win.
#[test]
fn a_black_overline_on_a_given_board_is_whites_win_under_renju() {
    let moves = "0,7 9,9 1,7 10,9 2,7 11,9 4,7 9,12 5,7 13,13 9,2 0,0 3,7";
    let renju = Gomoku::new(15, Rule::Renju);
    let played = renju.from_moves(moves).unwrap();
    assert_eq!((played.winner(), renju.lost_by_foul(&played)), (Some(WHITE), Some((Cell::new(3, 7), Foul::Overline))));
    let tokens = cells(moves);
    let black: Vec<Cell> = tokens.iter().step_by(2).copied().collect();
    let white: Vec<Cell> = tokens.iter().skip(1).step_by(2).copied().collect();
    let given = renju.from_stones(&black, &white).unwrap();
    assert_eq!(given.winner(), Some(WHITE));
    assert!(renju.black_overline_lost(&given) && renju.lost_by_foul(&given).is_none());
    assert_eq!(renju.returns(&given), [0.0, 1.0]);
    // Colour-blind (the Gomocup BOARD): the same verdict from the side to move's stones.
    assert_eq!(renju.from_sides(&white, &black).unwrap().winner(), Some(WHITE));
    // A White stone after the forbidden move.
    let after = [white.clone(), vec![Cell::new(14, 14)]].concat();
    assert_eq!(renju.from_stones(&black, &after).unwrap_err(), PositionError::PlayedAfterFoul);
    // A White five beside the overline: whichever came first ended the game, so the other came after.
    let five: Vec<Cell> = (0..5).map(|x| Cell::new(x, 14)).collect();
    let white_last = [five.clone(), vec![Cell::new(14, 14), Cell::new(14, 12)]].concat();
    assert_eq!(renju.from_stones(&black, &white_last).unwrap_err(), PositionError::PlayedAfterFoul);
    let black_last = [five, vec![Cell::new(14, 14)]].concat();
    assert_eq!(renju.from_stones(&black, &black_last).unwrap_err(), PositionError::PlayedAfterWin { winner: WHITE });
    let standard = Gomoku::new(15, Rule::Standard).from_stones(&black, &white).unwrap();
    assert_eq!(standard.winner(), None);
    assert!(!Gomoku::new(15, Rule::Standard).black_overline_lost(&standard));
    assert_eq!(Gomoku::new(15, Rule::Freestyle).from_stones(&black, &white).unwrap().winner(), Some(BLACK));
}

/// The rule's name and parser.
#[test]
fn the_rule_parses_and_names_itself() {
    assert_eq!("renju".parse::<Rule>(), Ok(Rule::Renju));
    assert_eq!(" RENJU ".parse::<Rule>(), Ok(Rule::Renju));
    assert_eq!(Rule::Renju.name(), "renju");
    assert!("caro".parse::<Rule>().unwrap_err().contains("renju"));
    assert!(Rule::Renju.wins_for(WHITE, 6) && !Rule::Renju.wins_for(BLACK, 6) && Rule::Renju.wins_for(BLACK, 5));
    assert_eq!(Foul::DoubleThree.to_string(), "double-three");
}
