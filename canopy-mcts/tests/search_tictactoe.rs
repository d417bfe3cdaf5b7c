//! Two-player search checks on tic-tac-toe, whose exact values are known.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::tictactoe::{minimax, TicTacToe, TicTacToeState};
use canopy_mcts::search::{Proof, Search, SearchParams, Selection, SolverStatus};
use canopy_mcts::{Coverage, Game, Policy, Turn};

/// Plain UCT (no solver), so the values are the Monte Carlo estimates.
fn params(playouts: u64, threads: usize) -> SearchParams {
    SearchParams { playouts: Some(playouts), threads, seed: 7, audit: true, solver: false, ..SearchParams::default() }
}

#[test]
fn empty_board_is_a_draw_after_200k_playouts() {
    let root = TicTacToeState::default();
    assert_eq!(minimax(&root), 0.5);
    for threads in [1, 2] {
        let report = Search::new(&TicTacToe, params(200_000, threads)).run(&root);
        let best = report.actions.iter().find(|a| Some(a.action) == report.best).unwrap();
        let value = best.mean.unwrap();
        println!("threads {threads}: best {} value {value:.4} root {:?}", best.name, report.root_value);
        assert!((value - 0.5).abs() < 0.05, "threads {threads}: value {value} is not a draw");
        assert_eq!(report.playouts, 200_000);
        let audit = report.audit.unwrap();
        assert_eq!(audit.root_visits, 200_000);
        assert_eq!(audit.in_flight, 0);
    }
}

#[test]
fn finds_the_forced_win() {
    // X: 0, 4; O: 1, 2. X to move wins at once with 8 (diagonal 0-4-8).
    let root = TicTacToeState::parse("xoo/.x./...").unwrap();
    let report = Search::new(&TicTacToe, params(20_000, 1)).run(&root);
    assert_eq!(report.best, Some(8), "{report:?}");
    // X: 0, 2; O: 4. X to move: 1 makes an immediate threat... a forced win needs a fork.
    // Position: X at 0 and 8, O at 4, X... use a known fork: X 0, X 8, O 4, O 2 → X must block 6 and
    // that block also makes a double threat (3 and 7): forced win.
    let fork = TicTacToeState::parse("x.o/.o./..x").unwrap();
    assert_eq!(minimax(&fork), 1.0);
    let report = Search::new(&TicTacToe, params(50_000, 2)).run(&fork);
    let best = report.best.unwrap();
    let mut after = fork;
    canopy_mcts::Game::apply(&TicTacToe, &mut after, best);
    assert_eq!(1.0 - minimax(&after), 1.0, "move {best} does not keep the forced win: {report:?}");
}

#[test]
fn solver_proves_the_game_values() {
    let solver = |threads| SearchParams { playouts: Some(400_000), threads, seed: 3, ..SearchParams::default() };
    for threads in [1, 2] {
        // The empty board is a draw; the search stops once the root is proven.
        let r = Search::new(&TicTacToe, solver(threads)).run(&TicTacToeState::default());
        assert_eq!(r.root_proof, Some(Proof::Draw), "threads {threads}");
        assert!(r.playouts < 400_000, "the search should stop once the root is proven");
        // X to move with a fork available: a proven win, and the chosen move keeps it.
        let fork = TicTacToeState::parse("x.o/.o./..x").unwrap();
        let r = Search::new(&TicTacToe, solver(threads)).run(&fork);
        assert_eq!(r.root_proof, Some(Proof::Win));
        let best = r.actions.iter().find(|a| Some(a.action) == r.best).unwrap();
        assert_eq!(best.proof, Some(Proof::Win));
        let mut after = fork;
        canopy_mcts::Game::apply(&TicTacToe, &mut after, best.action);
        assert_eq!(minimax(&after), 0.0, "the opponent must be lost after {}", best.name);
        // Every action's proof agrees with exact minimax.
        for a in r.actions.iter().filter(|a| a.proof.is_some()) {
            let mut t = fork;
            canopy_mcts::Game::apply(&TicTacToe, &mut t, a.action);
            let exact = 1.0 - minimax(&t);
            assert_eq!(a.proof.unwrap().value(), exact, "move {}", a.name);
        }
        // O to move facing X's double threat (X: 0, 1, 3 threatens 2 and 6; O: 5, 7 has no threat): lost.
        let lost = TicTacToeState::parse("xx./x.o/.o.").unwrap();
        assert_eq!(minimax(&lost), 0.0);
        let r = Search::new(&TicTacToe, solver(threads)).run(&lost);
        assert_eq!(r.root_proof, Some(Proof::Loss), "{:?}", r.actions);
    }
}

#[test]
fn puct_with_uniform_priors_keeps_the_forced_win() {
    let fork = TicTacToeState::parse("x.o/.o./..x").unwrap();
    let params = SearchParams { selection: Selection::Puct, exploration: 1.5, ..params(50_000, 2) };
    let r = Search::new(&TicTacToe, params).run(&fork);
    let mut after = fork;
    canopy_mcts::Game::apply(&TicTacToe, &mut after, r.best.unwrap());
    assert_eq!(minimax(&after), 0.0, "{r:?}");
    assert!(r.actions.iter().all(|a| (a.prior - 1.0 / r.actions.len() as f64).abs() < 1e-6));
}

/// Tic-tac-toe searched over every legal move, with the candidate set declared as `coverage`.
struct Declared(Coverage);

impl Policy<TicTacToe> for Declared {
    fn candidates(&self, game: &TicTacToe, s: &TicTacToeState, out: &mut Vec<u8>) -> Coverage {
        game.legal_actions(s, out);
        self.0
    }
}

/// The report says why the solver is off; a game that does not declare itself win/draw/loss gets no
/// proofs even when the parameters ask for them.
#[test]
fn the_report_says_whether_the_solver_ran() {
    let fork = TicTacToeState::parse("x.o/.o./..x").unwrap();
    let on = SearchParams { playouts: Some(20_000), threads: 1, ..SearchParams::default() };
    let r = Search::new(&TicTacToe, on.clone()).run(&fork);
    assert_eq!((r.solver, r.root_proof), (SolverStatus::On, Some(Proof::Win)));
    assert_eq!(r.solver.describe(), "on");
    let r = Search::new(&TicTacToe, SearchParams { solver: false, ..on.clone() }).run(&fork);
    assert_eq!((r.solver, r.root_proof), (SolverStatus::DisabledByParams, None));
    assert_eq!(r.solver.to_string(), "off: disabled by params");
    let r = Search::new(&NotDeclared, on).run(&fork);
    assert_eq!((r.solver, r.root_proof), (SolverStatus::NotWinDrawLoss, None));
    assert_eq!(r.solver.describe(), "off: game is not two-player win/draw/loss");
    assert!(r.actions.iter().all(|a| a.proof.is_none()));
    assert_eq!(r.playouts, 20_000);
}

/// Tic-tac-toe's rules without the win/draw/loss declaration (values on [0, 1] as before).
struct NotDeclared;

impl Game for NotDeclared {
    type State = TicTacToeState;
    type Action = u8;
    type Outcome = canopy_mcts::NoOutcome;
    type Returns = [f64; 2];
    fn to_move(&self, s: &TicTacToeState) -> Turn {
        TicTacToe.to_move(s)
    }
    fn legal_actions(&self, s: &TicTacToeState, out: &mut Vec<u8>) {
        TicTacToe.legal_actions(s, out)
    }
    fn apply(&self, s: &mut TicTacToeState, a: u8) -> f64 {
        TicTacToe.apply(s, a)
    }
    fn returns(&self, s: &TicTacToeState) -> [f64; 2] {
        TicTacToe.returns(s)
    }
    fn value_bounds(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }
}

/// A loss (and a draw) is proven only over candidate sets that are complete or safe for proofs; a win
/// found among the candidates is proven whatever the coverage.
#[test]
fn pruned_candidates_prove_wins_but_no_losses() {
    let solver = SearchParams { playouts: Some(100_000), threads: 1, seed: 3, ..SearchParams::default() };
    // O to move against X's double threat: lost.
    let lost = TicTacToeState::parse("xx./x.o/.o.").unwrap();
    for (coverage, proof) in
        [(Coverage::Complete, Some(Proof::Loss)), (Coverage::ProofSafe, Some(Proof::Loss)), (Coverage::Pruned, None)]
    {
        let r = Search::with_policy(&TicTacToe, &Declared(coverage), solver.clone()).run(&lost);
        assert_eq!(r.root_proof, proof, "{coverage:?}");
        // Every O move is a proven loss (X then wins at once: a win among X's candidates).
        assert!(r.actions.iter().all(|a| a.proof == Some(Proof::Loss)), "{coverage:?}: {:?}", r.actions);
        if proof.is_none() {
            // The root is not proven over pruned candidates, so nothing stops the search early.
            assert_eq!(r.playouts, 100_000);
        }
    }
    // X to move wins at once with 8: a win, even over pruned candidates.
    let win = TicTacToeState::parse("xoo/.x./...").unwrap();
    let r = Search::with_policy(&TicTacToe, &Declared(Coverage::Pruned), solver.clone()).run(&win);
    assert_eq!((r.root_proof, r.best), (Some(Proof::Win), Some(8)));
    // The empty board is a draw: proven over complete candidates, not over pruned ones.
    let empty = TicTacToeState::default();
    let r = Search::with_policy(&TicTacToe, &Declared(Coverage::Pruned), solver.clone()).run(&empty);
    assert_eq!(r.root_proof, None);
    // A root restricted to every legal move: proofs hold only when the restriction says so.
    let all = vec![2, 4, 6, 8];
    let r = Search::new(&TicTacToe, solver.clone()).with_root_moves(all.clone(), Coverage::ProofSafe).run(&lost);
    assert_eq!(r.root_proof, Some(Proof::Loss));
    let r = Search::new(&TicTacToe, solver).with_root_moves(all, Coverage::Pruned).run(&lost);
    assert_eq!(r.root_proof, None);
}

#[test]
fn timed_rollouts_leave_the_search_as_it_was_and_count_every_rollout() {
    use canopy_mcts::policy::{TimedRollouts, UniformPolicy};
    let root = TicTacToeState::default();
    let plain = Search::with_policy(&TicTacToe, &UniformPolicy, params(3_000, 1)).run(&root);
    let timed = TimedRollouts::new(&UniformPolicy);
    let report = Search::with_policy(&TicTacToe, &timed, params(3_000, 1)).run(&root);
    // One thread and the same seed: the same search.
    assert_eq!(report.nodes, plain.nodes);
    assert_eq!(report.mean_depth, plain.mean_depth);
    // A playout that ends at a terminal node in the tree runs no rollout; the others run one each.
    assert!(timed.rollouts() > 0 && timed.rollouts() <= report.playouts, "{} rollouts", timed.rollouts());
    assert!(timed.rollout_nanos() > 0);
}
