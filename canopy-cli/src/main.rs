//! `canopy`, the command-line tool: parses arguments, calls the `canopy_mcts` library, prints tables or
//! JSON. No search or game logic lives here.
//!
//! Exit status: 0 on success, 2 for bad input (arguments, positions, options), with one line on stderr.

mod bench;
mod common;
mod compare;
mod g2048;
mod gomoku;
mod matches;
mod params;
mod search_args;
mod snake;
mod snake_series;
mod svg;
mod tictactoe;
mod two_player;

use clap::{Parser, Subcommand, ValueEnum};

pub use search_args::SearchArgs;

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
    /// Snake (single player, food spawns at random; see docs/snake.md).
    Snake,
    /// Gomoku (five in a row; 5x5 to 20x20, freestyle or standard rule).
    Gomoku,
}

#[derive(Parser, Debug)]
#[command(
    name = "canopy",
    version,
    about = "canopy: a lock-free, tree-parallel Monte Carlo Tree Search engine",
    long_about = "canopy searches game positions with many threads sharing one tree.\n\n\
                  Examples:\n  canopy play 2048\n  canopy analyze 2048 --board 2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0 --playouts 20000\n  \
                  canopy analyze tictactoe --board x.o/.o./..x --json\n  \
                  canopy analyze gomoku --moves \"7,7 8,8 7,8\" --playouts 20000\n  \
                  canopy match gomoku --black mcts --white threat --games 10 --swap\n  \
                  canopy gomocup   (the Gomocup pbrain protocol on stdin/stdout)"
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
    /// Measure search throughput at several thread counts on fixed positions with a fixed seed: playouts/s,
    /// speedup, parallel efficiency, nodes, and the bare rollout rate of the same policy.
    ///
    /// `--playouts` is the playouts of each search (per position and thread count) and the bare rollouts
    /// per position; by default 2048 20000, tictactoe 50000, gomoku 9x9 (and smaller) 20000, larger gomoku
    /// 10000, snake 20000.
    Bench(bench::BenchArgs),
    /// Play games between two agents (two-player games) and report wins, losses and draws per colour.
    Match(matches::MatchArgs),
    /// Speak the Gomocup (Piskvork pbrain) protocol on stdin/stdout, as the pbrain-canopy binary does.
    Gomocup(gomoku::GomocupArgs),
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
    /// Snake (also --state): "8x8 body=x,y x,y ... food=x,y [hunger=N] [steps=N]" (head first) or JSON.
    /// Gomoku: rows of x, o and . (or the diagram canopy prints); or use --moves.
    #[arg(long, visible_alias = "state", allow_hyphen_values = true)]
    pub board: Option<String>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub gomoku: gomoku::PositionArgs,
    /// Who chooses the move (2048: every agent; other games: mcts).
    #[arg(long, value_enum, default_value_t = AgentName::Mcts)]
    pub agent: AgentName,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub g2048: g2048::G2048Args,
    #[command(flatten)]
    pub snake: snake::SnakeSearchArgs,
}

impl AnalyzeArgs {
    /// The `--board` text, which every game but Gomoku (that also takes `--moves`) requires.
    ///
    /// # Errors
    /// An [`InputError`] when `--board` is missing.
    pub fn board(&self) -> anyhow::Result<&str> {
        let name = self.game.to_possible_value().map_or(String::new(), |v| v.get_name().to_string());
        let option = if self.game == GameName::Snake { "--state (or --board)" } else { "--board" };
        self.board.as_deref().ok_or_else(|| input_error(format!("{option} is required for {name}")))
    }
}

/// Arguments of `canopy play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game.
    pub game: GameName,
    /// Number of games, 1..=1000000.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = |t: &str| common::GAMES.parse(t))]
    pub games: u64,
    /// Who chooses the moves.
    #[arg(long, value_enum, default_value_t = AgentName::Mcts)]
    pub agent: AgentName,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Print CSV (one line per game) instead of tables.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub snake: snake::SnakePlayArgs,
    #[command(flatten)]
    pub g2048: g2048::G2048Args,
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
    /// 2048: best merge score plus evaluation of the afterstate. Snake: a shortest path to the food.
    Greedy,
    /// A uniformly random legal move.
    Random,
    /// Snake: greedy while the tail stays reachable after eating, else follow the tail.
    Tailfollow,
    /// Snake: walk a Hamiltonian cycle.
    Hamilton,
    /// Gomoku: the one-ply threat scorer.
    Threat,
}

/// Exit status when standard output is closed early (as when piped into `head`): 128 + SIGPIPE, what a
/// shell reports for a program that a broken pipe stops.
pub const BROKEN_PIPE_EXIT: i32 = 141;

/// Makes a failed write to a closed standard output end the process with [`BROKEN_PIPE_EXIT`] and no
/// message, instead of the panic that `println!` raises (Rust ignores SIGPIPE, so the write fails with
/// `BrokenPipe`). Every other panic keeps the default report.
fn exit_quietly_on_broken_pipe() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text =
            payload.downcast_ref::<String>().map(String::as_str).or_else(|| payload.downcast_ref::<&str>().copied());
        if text.is_some_and(|t| t.starts_with("failed printing to stdout") && t.contains("Broken pipe")) {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        default_hook(info);
    }));
}

/// `error: --flag: why` for a value an option's parser refused (the parser's message names the value and
/// what the option accepts), in place of clap's longer `invalid value '...' for '--flag <FLAG>': why`.
/// `None` for every other error.
fn value_error_line(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let why = std::error::Error::source(e)?.to_string();
    let flag = match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(arg) => arg.split_whitespace().next()?.to_string(),
        _ => return None,
    };
    let why = why.lines().next()?.trim();
    Some(format!("error: {flag}: {why}"))
}

fn main() {
    std::process::exit(run());
}

/// Runs the tool with the process arguments; returns the exit status.
fn run() -> i32 {
    exit_quietly_on_broken_pipe();
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
            if let Some(line) = value_error_line(&e) {
                eprintln!("{line} (see canopy --help)");
                return 2;
            }
            let text = e.to_string();
            let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
            let mut line = lines.next().unwrap_or("error: bad arguments").trim_end().to_string();
            // Keep the error on one line: a list clap puts under it (the missing arguments) joins it, and so
            // do the accepted values when clap lists them.
            if line.ends_with(':') {
                let items: Vec<&str> =
                    lines.take_while(|l| l.starts_with(' ') && !l.trim().is_empty()).map(str::trim).collect();
                line = format!("{line} {}", items.join(", "));
            }
            let values = text.lines().map(str::trim).find(|l| l.starts_with("[possible values:"));
            match values {
                Some(v) => eprintln!("{line} {v} (see canopy --help)"),
                None => eprintln!("{line} (see canopy --help)"),
            }
            return 2;
        }
    };
    let result = match cli.command {
        Command::Analyze(args) => match args.game {
            GameName::G2048 => args
                .snake
                .refuse_for("2048")
                .and_then(|()| args.gomoku.refuse_for("2048"))
                .and_then(|()| g2048::analyze(&args)),
            GameName::Tictactoe => args
                .snake
                .refuse_for("tictactoe")
                .and_then(|()| args.gomoku.refuse_for("tictactoe"))
                .and_then(|()| args.g2048.refuse_for("tictactoe"))
                .and_then(|()| tictactoe::analyze(&args)),
            GameName::Snake => args
                .gomoku
                .refuse_for("snake")
                .and_then(|()| args.g2048.refuse_for("snake"))
                .and_then(|()| snake::analyze(&args)),
            GameName::Gomoku => args
                .snake
                .refuse_for("gomoku")
                .and_then(|()| args.g2048.refuse_for("gomoku"))
                .and_then(|()| gomoku::analyze(&args)),
        },
        Command::Play(args) => match args.game {
            GameName::G2048 => args.snake.refuse_for("2048").and_then(|()| g2048::play(&args)),
            GameName::Snake => args.g2048.refuse_for("snake").and_then(|()| snake::play(&args)),
            GameName::Tictactoe | GameName::Gomoku => two_player::play(&args),
        },
        Command::Bench(args) => bench::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Gomocup(args) => gomoku::gomocup(&args),
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

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap checks argument ids and flags for clashes only in debug builds; run the check explicitly so
    /// release-mode tests catch two flattened option groups claiming the same name.
    #[test]
    fn command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }

    /// Every command that takes a numeric search option states the range it checks in the option's help.
    #[test]
    fn numeric_search_options_state_their_ranges_in_their_help() {
        use canopy_mcts::param::Settings;
        // Each numeric search option states its declared range in every command's help.
        let ranges: Vec<(String, String)> =
            ["playouts", "time", "threads", "seed", "virtual_loss", "expand_threshold", "exploration"]
                .into_iter()
                .map(|name| {
                    let p = canopy_mcts::SearchParams::param(name).unwrap();
                    (name.replace('_', "-"), p.kind.to_string())
                })
                .collect();
        let mut commands = Vec::new();
        for cmd in super::Cli::command().get_subcommands() {
            for arg in cmd.get_arguments() {
                let Some((flag, range)) = ranges.iter().find(|(flag, _)| arg.get_long() == Some(flag.as_str())) else {
                    continue;
                };
                let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                assert!(help.contains(range.as_str()), "canopy {} --{flag}: {help}", cmd.get_name());
                commands.push(format!("{} --{flag}", cmd.get_name()));
            }
        }
        for cmd in ["analyze", "play", "compare", "sweep", "match", "gomocup", "bench"] {
            for (flag, _) in &ranges {
                if cmd == "bench" && flag == "time" {
                    continue;
                }
                assert!(commands.contains(&format!("{cmd} --{flag}")), "canopy {cmd} has no --{flag}");
            }
        }
    }
}
