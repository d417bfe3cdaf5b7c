//! The command line: parses arguments, calls the library, prints tables or JSON. No search or game logic
//! lives here.
//!
//! Exit status: 0 on success, 2 for bad input (arguments, positions, options), with one line on stderr.

mod common;
mod compare;
mod g2048;
mod tictactoe;

use clap::{Parser, Subcommand, ValueEnum};

pub use common::SearchArgs;

/// A user-facing error: one line, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// Shorthand for a bad-input error.
pub fn input_error(msg: impl Into<String>) -> anyhow::Error {
    InputError(msg.into()).into()
}

/// The games the tool knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// 2048 (single player, random tile spawns).
    #[value(name = "2048")]
    G2048,
    /// Tic-tac-toe (two players; a small test game with known values).
    Tictactoe,
}

#[derive(Parser, Debug)]
#[command(
    name = "canopy",
    version,
    about = "canopy: a lock-free, tree-parallel Monte Carlo Tree Search engine",
    long_about = "canopy searches game positions with many threads sharing one tree.\n\n\
                  Examples:\n  canopy play 2048\n  canopy analyze 2048 --board 2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0 --playouts 20000\n  \
                  canopy analyze tictactoe --board x.o/.o./..x --json"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search one position and show every legal move's statistics, the best move and the principal
    /// variation.
    Analyze(AnalyzeArgs),
    /// Play whole games and report score statistics.
    Play(PlayArgs),
    /// Play the same games with several agents and print a table per agent.
    Compare(compare::CompareArgs),
    /// Play games for each value of one parameter; print the table and optionally plot it (SVG).
    Sweep(compare::SweepArgs),
}

/// Arguments of `canopy analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The game.
    pub game: GameName,
    /// The position. 2048: 16 comma-separated tile values, row-major, row 0 first, 0 = empty.
    /// Tic-tac-toe: nine cells of x, o or . row-major ('/' and spaces ignored).
    #[arg(long)]
    pub board: String,
    /// Who chooses the move (2048: every agent; other games: mcts).
    #[arg(long, value_enum, default_value_t = AgentName::Mcts)]
    pub agent: AgentName,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub g2048: g2048::G2048Args,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `canopy play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game.
    pub game: GameName,
    /// Number of games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Who chooses the moves.
    #[arg(long, value_enum, default_value_t = AgentName::Mcts)]
    pub agent: AgentName,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub g2048: g2048::G2048Args,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Print CSV (one line per game) instead of tables.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
}

/// Move choosers for `canopy play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AgentName {
    /// Monte Carlo Tree Search with the search options.
    Mcts,
    /// 2048: depth-limited expectimax with a probability cut-off and a cache.
    Expectimax,
    /// 2048: flat Monte Carlo (rollouts from each move, best mean).
    Flat,
    /// 2048: best merge score plus evaluation of the afterstate.
    Greedy,
    /// A uniformly random legal move.
    Random,
}

/// Runs the tool with the process arguments; returns the exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand { 2 } else { 0 };
            }
            let text = e.to_string();
            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("error: bad arguments");
            eprintln!("{} (see canopy --help)", line.trim_end());
            return 2;
        }
    };
    let result = match cli.command {
        Command::Analyze(args) => match args.game {
            GameName::G2048 => g2048::analyze(&args),
            GameName::Tictactoe => tictactoe::analyze(&args),
        },
        Command::Play(args) => match args.game {
            GameName::G2048 => g2048::play(&args),
            GameName::Tictactoe => Err(input_error("play supports 2048 (tic-tac-toe is for analysis)")),
        },
        Command::Compare(args) => compare::compare(&args),
        Command::Sweep(args) => compare::sweep(&args),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            if e.downcast_ref::<InputError>().is_some() {
                eprintln!("error: {e}");
                2
            } else {
                eprintln!("error: {e:#}");
                1
            }
        }
    }
}
