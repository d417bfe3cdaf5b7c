//! `pbrain-canopy`: canopy as a Gomocup brain (the Piskvork "pbrain" protocol over stdin and stdout).
//! Game managers start brains without arguments; the protocol itself is in
//! [`canopy_mcts::games::gomoku::protocol`]. `canopy gomocup` runs the same loop with search options.
//!
//! Exit status 0 after END, at the end of input, and when stdout is closed (a write fails: the manager
//! is gone); nothing is printed on stderr, panics included.

use canopy_mcts::games::gomoku::protocol::{run_stdio, BrainConfig};

fn main() {
    // The only error is a failed write on stdout: nobody is left to tell.
    let _ = run_stdio(&BrainConfig::default());
}
