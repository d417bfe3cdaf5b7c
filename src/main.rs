//! The `canopy` command-line tool. All the work is in [`canopy_mcts::cli`].

fn main() {
    std::process::exit(canopy_mcts::cli::main());
}
