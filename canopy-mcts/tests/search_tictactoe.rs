//! Two-player search checks on tic-tac-toe, whose exact values are known.

use canopy_mcts::games::tictactoe::{minimax, TicTacToe, TicTacToeState};
use canopy_mcts::search::{Proof, Search, SearchParams, Selection};

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
