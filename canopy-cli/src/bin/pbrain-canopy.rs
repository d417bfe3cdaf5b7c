//! `pbrain-canopy`: canopy as a Gomocup brain (the Piskvork "pbrain" protocol over stdin and stdout).
//! Game managers start brains without arguments; the protocol itself is in
//! [`canopy_mcts::games::gomoku::protocol`]. `canopy gomocup` runs the same loop with search options.

use std::io::{self, BufReader};

use canopy_mcts::games::gomoku::protocol::{run, BrainConfig};

fn main() {
    let config = BrainConfig::default();
    if let Err(e) = run(BufReader::new(io::stdin()), io::stdout(), &config) {
        eprintln!("pbrain-canopy: {e}");
        std::process::exit(1);
    }
}
