//! How many victories by continuous threats (`games::gomoku::vct`) the threat-space search finds within
//! a node budget, over every position of a file of Gomoku games (docs/gomoku.md, "Threat-space search
//! budgets"): for each position, the side to move as attacker, at each budget.
//!
//! Run: `cargo run --release -p canopy-mcts --example gomoku_vct -- GAMES.tsv BUDGETS`, for example
//! `-- docs/gomoku-games/bots-1s-9fe1fc1.tsv 500,3000`. GAMES.tsv is a table whose last column holds a
//! game's moves (`x,y` from the empty 15x15 board, Black first, separated by spaces); the first line is
//! a header.

use std::time::Instant;

use canopy_mcts::game::Game;
use canopy_mcts::games::gomoku::{parse_moves, vct, Gomoku, Rule};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: gomoku_vct GAMES.tsv BUDGETS");
    let budgets: Vec<usize> =
        args.get(2).map_or("500,3000", String::as_str).split(',').map(|b| b.parse().expect("a budget")).collect();
    let text = std::fs::read_to_string(path).expect("a readable file of games");
    let game = Gomoku::new(15, Rule::Freestyle);
    let mut positions = Vec::new();
    for line in text.lines().skip(1) {
        let moves = line.rsplit('\t').next().unwrap_or("");
        let cells = parse_moves(moves, 15).expect("moves of a 15x15 game");
        let mut state = game.new_game();
        for c in cells {
            if state.is_terminal() {
                break;
            }
            positions.push(state.clone());
            game.apply(&mut state, c);
        }
    }
    println!("{} positions from {path}", positions.len());
    println!("{:>8} {:>6} {:>10}", "budget", "found", "seconds");
    for &budget in &budgets {
        let began = Instant::now();
        let found: Vec<usize> = (0..positions.len())
            .filter(|&i| vct(&game, &positions[i], positions[i].mover(), budget).is_some())
            .collect();
        if std::env::var_os("LIST").is_some() {
            eprintln!("{budget}: {found:?}");
        }
        let found = found.len();
        println!("{budget:>8} {found:>6} {:>10.2}", began.elapsed().as_secs_f64());
    }
}
