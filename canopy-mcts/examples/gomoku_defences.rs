//! Which moves of the side to move leave the opponent without a victory by continuous fours (VCF,
//! within 3 000 nodes) or threats (VCT, within BUDGET nodes) — the moves the threat searches call safe
//! (docs/gomoku.md, "Threat-space search: iterative deepening"). A move that makes five is listed
//! as `(wins)`.
//!
//! Run: `cargo run --release -p canopy-mcts --example gomoku_defences -- MOVES [BUDGET]`, for example
//! `-- "7,7 8,8 6,7 8,7 9,8 8,9 8,6 6,8" 200000`. MOVES are `x,y` from the empty 15x15 freestyle board,
//! Black first; BUDGET defaults to 20 000.

use canopy_mcts::game::Game;
use canopy_mcts::games::gomoku::{vcf, vct, Gomoku, Rule};

/// The VCF budget, as the brain's own checks use.
const VCF_BUDGET: usize = 3_000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = args.get(1).expect("usage: gomoku_defences MOVES [BUDGET]");
    let budget: usize = args.get(2).map_or(20_000, |b| b.parse().expect("a node budget"));
    let game = Gomoku::new(15, Rule::Freestyle);
    let state = game.from_moves(moves).expect("moves of a 15x15 freestyle game");
    let opponent = 1 - state.mover();
    let mut legal = Vec::new();
    game.legal_actions(&state, &mut legal);
    let mut safe = Vec::new();
    for m in legal {
        let mut next = state.clone();
        game.apply(&mut next, m);
        if next.is_terminal() {
            safe.push(format!("{m}(wins)"));
        } else if vcf(&game, &next, opponent, VCF_BUDGET).is_none() && vct(&game, &next, opponent, budget).is_none() {
            safe.push(m.to_string());
        }
    }
    println!("{} safe: {}", safe.len(), safe.join(" "));
}
