//! `canopy analyze tictactoe`.

use serde_json::json;

use super::search_args::ForTicTacToe;
use super::{args, common, input_error};
use canopy_mcts::game::{Game, Turn};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::search::Search;

/// The players' marks: X (player 0, first to move) and O.
const MARKS: [&str; 2] = ["x", "o"];

/// The board as three rows of `x`, `o` and `.` (the form `--board` reads).
fn state_rows(state: &TicTacToeState) -> Vec<String> {
    (0..3)
        .map(|row| {
            (0..3)
                .map(|col| {
                    let bit = 1u16 << (3 * row + col);
                    match (state.stones[0] & bit != 0, state.stones[1] & bit != 0) {
                        (true, _) => 'x',
                        (_, true) => 'o',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect()
}

/// `canopy analyze tictactoe`.
pub type Analyze = args::AnalyzeArgs<Position, ForTicTacToe>;

/// A tic-tac-toe position.
#[derive(clap::Args, Debug)]
pub struct Position {
    /// The board: nine cells of x, o or . row-major ('/' and spaces ignored), e.g. x.o/.o./..x.
    #[arg(long, required = true, allow_hyphen_values = true)]
    pub board: String,
}

/// Analyses a tic-tac-toe position.
pub fn analyze(args: &Analyze) -> anyhow::Result<()> {
    let state = TicTacToeState::parse(&args.game.board).map_err(|e| input_error(format!("bad board: {e}")))?;
    let params = args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
    let search = Search::new(&TicTacToe, params.clone());
    let report = args.run(&search, &state);
    let over = TicTacToe.to_move(&state) == Turn::Terminal;
    let winner = state.winner().map(|p| MARKS[p]);
    let result = over.then(|| winner.map_or("draw".to_string(), |w| format!("{w} wins")));
    if args.json {
        // Moves are cells 0..9, row-major, as strings like every game's moves.
        let mut v = json!({
            "game": "tictactoe",
            "board": state_rows(&state),
            "to_move": (!over).then(|| MARKS[state.mover()]),
            "game_over": over,
            "winner": winner,
            "result": result,
        });
        let actions = report
            .actions
            .iter()
            .map(|a| {
                let mut m = common::action_json(a);
                m.insert("proof".into(), json!(a.proof));
                m
            })
            .collect();
        if let Some(obj) = v.as_object_mut() {
            obj.extend(common::analysis_json(&report, actions));
            obj.insert("root_proof".into(), json!(report.root_proof));
        }
        args.print_json(v, Some(&params))?;
        return Ok(());
    }
    if let Some(result) = result {
        println!("game over: {result}");
        return Ok(());
    }
    println!("{:>5} {:>9} {:>7} {:>9} {:>7}  pv", "cell", "visits", "share", "win rate", "proven");
    for a in &report.actions {
        println!(
            "{:>5} {:>9} {:>6.1}% {:>9} {:>7}  {}",
            a.name,
            a.visits,
            a.share * 100.0,
            a.mean.map_or("-".into(), |m| format!("{m:.3}")),
            a.proof.map_or("-".into(), |p| format!("{p:?}").to_lowercase()),
            a.pv.join(" ")
        );
    }
    if let Some(p) = report.root_proof {
        println!("proven: {} for the side to move", format!("{p:?}").to_lowercase());
    }
    println!("best: {}   pv: {}", report.best_name.as_deref().unwrap_or("-"), report.pv.join(" "));
    common::print_totals(&report);
    Ok(())
}
