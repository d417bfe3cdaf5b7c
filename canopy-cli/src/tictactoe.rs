//! `canopy analyze tictactoe`.

use serde_json::json;

use super::{common, input_error, AgentName, AnalyzeArgs};
use canopy_mcts::game::{Game, Turn};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::search::Search;

/// The players' marks: X (player 0, first to move) and O.
const MARKS: [&str; 2] = ["x", "o"];

/// Analyses a tic-tac-toe position.
pub fn analyze(args: &AnalyzeArgs) -> anyhow::Result<()> {
    if args.agent != AgentName::Mcts {
        return Err(input_error("tic-tac-toe is analysed with --agent mcts only"));
    }
    args.search.two_player("tic-tac-toe")?;
    let state = TicTacToeState::parse(args.board()?).map_err(|e| input_error(format!("bad board: {e}")))?;
    let search = Search::new(&TicTacToe, args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS));
    let report = common::search_with_progress(&search, &state, args.search.no_progress);
    let over = TicTacToe.to_move(&state) == Turn::Terminal;
    let winner = state.winner().map(|p| MARKS[p]);
    let result = over.then(|| winner.map_or("draw".to_string(), |w| format!("{w} wins")));
    if args.json {
        let mut v = json!({
            "game": "tictactoe",
            "to_move": (!over).then(|| MARKS[state.mover()]),
            "winner": winner,
            "result": result,
            "best_action": report.best,
            "game_over": over,
            "actions": report.actions.iter().map(|a| json!({
                "action": a.action, "visits": a.visits, "share": a.share, "mean": a.mean, "proof": a.proof,
                "pv": a.pv,
            })).collect::<Vec<_>>(),
            "pv": report.pv,
            "root_value": report.root_value,
            "root_proof": report.root_proof,
        });
        if let Some(obj) = v.as_object_mut() {
            obj.extend(common::search_stats_json(&report));
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
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
