//! `canopy`, the command-line tool: parses arguments, calls the `canopy_mcts` library, prints tables or
//! JSON. No search or game logic lives here.
//!
//! Exit status: 0 on success, 2 for bad input (arguments, positions, options), with one line on stderr.

mod args;
mod bench;
mod common;
mod compare;
mod duel_series;
mod g2048;
mod gomoku;
mod infinite;
mod matches;
mod params;
mod search_args;
mod snake;
mod snake_series;
mod svg;
mod tictactoe;
mod two_player;

use clap::{Parser, Subcommand, ValueEnum};

pub use args::agent_parser;

pub use search_args::SearchArgs;

/// A user-facing error: one line, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// Shorthand for a bad-input error.
pub fn input_error(msg: impl Into<String>) -> anyhow::Error {
    InputError(msg.into()).into()
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
                  canopy train 2048 --games 100000 --out 2048.ntuple\n  \
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
    #[command(
        subcommand_value_name = "GAME",
        subcommand_help_heading = "Games",
        subcommand_required = true,
        arg_required_else_help = false
    )]
    Analyze {
        #[command(subcommand)]
        game: AnalyzeGame,
    },
    /// Play whole games and report score statistics.
    #[command(
        subcommand_value_name = "GAME",
        subcommand_help_heading = "Games",
        subcommand_required = true,
        arg_required_else_help = false
    )]
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Measure search throughput at several thread counts on fixed positions with a fixed seed: playouts/s,
    /// speedup, parallel efficiency, nodes, and the bare rollout rate of the same policy.
    ///
    /// The column "vs rollouts" (JSON `vs_rollouts`) is the search's playouts/s over the bare rollouts/s
    /// of one thread from the same positions: at one thread, the share of the rollout rate the tree keeps
    /// (docs/BENCHMARKS.md, section What "vs rollouts" asks of the tree).
    ///
    /// `--playouts` is the playouts of each search (per position and thread count) and the bare rollouts
    /// per position; by default 2048 20000, tictactoe 50000, gomoku 9x9 (and smaller) 20000, larger gomoku
    /// 10000, snake 20000, synthetic 100000.
    ///
    /// With several threads on pinned workers the last lines give the time to hand a cache line between
    /// the cores of workers 0 and 1, measured before and after the searches (JSON `line_transfer_ns`): the
    /// price of every cache line the workers share, which a speedup depends on, and which a virtual
    /// machine's host or other programs can change during the run (a line then warns). On Linux a line
    /// gives the share of the cores' time that other programs used and that a virtual machine's host
    /// took during the run (JSON `cpu_during_run`), with a note from 5% (on stderr with --json).
    Bench(bench::BenchArgs),
    /// Play games between two agents (two-player games) and report wins, losses and draws per colour.
    #[command(
        subcommand_value_name = "GAME",
        subcommand_help_heading = "Games",
        subcommand_required = true,
        arg_required_else_help = false
    )]
    Match {
        #[command(subcommand)]
        game: MatchGame,
    },
    /// Speak the Gomocup (Piskvork pbrain) protocol on stdin/stdout, as the pbrain-canopy binary does.
    ///
    /// The rule comes from the manager's `INFO rule`: 1 exactly five, 4 renju (Black wins only with
    /// exactly five and loses by an overline, a double four or a double three; White wins with five or
    /// more), otherwise freestyle; caro (8) and continuous games (2) are not supported.
    ///
    /// A command that changes the game (START, RESTART, BEGIN, TURN, BOARD, TAKEBACK, END) stops the
    /// search of the command before it, whose move is then not printed, since the manager has moved on
    /// (as Piskvork's skeleton brain does). So a script that pipes several moves at once gets an answer
    /// to the last one only (moves that need no search, such as the centre of an empty board, are
    /// always answered); send each command after the answer to the one before it.
    Gomocup(gomoku::GomocupArgs),
    /// Play the same games with several agents and print a table per agent.
    #[command(
        subcommand_value_name = "GAME",
        subcommand_help_heading = "Games",
        subcommand_required = true,
        arg_required_else_help = false
    )]
    Compare {
        #[command(subcommand)]
        game: CompareGame,
    },
    /// Play games for each value of one parameter; print the table and optionally plot it (SVG).
    #[command(
        subcommand_value_name = "GAME",
        subcommand_help_heading = "Games",
        subcommand_required = true,
        arg_required_else_help = false
    )]
    Sweep {
        #[command(subcommand)]
        game: SweepGame,
    },
    /// Train a learned evaluation by self-play and write its weights file.
    #[command(
        subcommand_value_name = "GAME",
        subcommand_help_heading = "Games",
        subcommand_required = true,
        arg_required_else_help = false
    )]
    Train {
        #[command(subcommand)]
        game: TrainGame,
    },
}

/// `canopy train`'s games.
#[derive(Subcommand, Debug)]
enum TrainGame {
    /// 2048: an n-tuple network by TD(0) on afterstates (docs/2048.md).
    #[command(name = "2048")]
    G2048(g2048::Train),
}

/// `canopy analyze`'s games.
#[derive(Subcommand, Debug)]
enum AnalyzeGame {
    /// 2048: a board searched by one of the 2048 agents.
    #[command(name = "2048")]
    G2048(g2048::Analyze),
    /// Tic-tac-toe: a board searched by MCTS (with MCTS-Solver proofs).
    Tictactoe(tictactoe::Analyze),
    /// Snake: a position searched by the MCTS agent's search policy.
    Snake(snake::Analyze),
    /// Gomoku: a position, the decision the brain would play (forced moves, VCF, search) and the search.
    Gomoku(gomoku::Analyze),
}

/// `canopy play`'s games.
#[derive(Subcommand, Debug)]
enum PlayGame {
    /// 2048 (single player, random tile spawns).
    #[command(name = "2048")]
    G2048(g2048::Play),
    /// Tic-tac-toe: the agent plays both sides.
    Tictactoe(two_player::PlayTicTacToe),
    /// Snake (single player, food spawns at random; see docs/snake.md).
    Snake(snake::Play),
    /// Gomoku: the agent plays both sides.
    Gomoku(two_player::PlayGomoku),
}

/// `canopy compare`'s games.
#[derive(Subcommand, Debug)]
enum CompareGame {
    /// 2048: mcts, expectimax, flat, greedy, random on the same starts.
    #[command(name = "2048")]
    G2048(g2048::Compare),
    /// Tic-tac-toe: mcts and random against one opponent, colours alternating.
    Tictactoe(duel_series::CompareTicTacToe),
    /// Snake: mcts, greedy, tailfollow, hamilton, random on the same starts.
    Snake(snake::Compare),
    /// Gomoku: mcts, flat, threat, random against one opponent, colours alternating.
    Gomoku(duel_series::CompareGomoku),
}

/// `canopy sweep`'s games.
#[derive(Subcommand, Debug)]
enum SweepGame {
    /// 2048: a search parameter or a 2048 agent option.
    #[command(name = "2048")]
    G2048(g2048::Sweep),
    /// Tic-tac-toe: a search parameter of mcts, against one opponent.
    Tictactoe(duel_series::SweepTicTacToe),
    /// Snake: a search parameter.
    Snake(snake::Sweep),
    /// Gomoku: a search parameter or a brain setting of mcts (radius, vcf, ...), against one opponent.
    Gomoku(duel_series::SweepGomoku),
}

/// `canopy match`'s games.
#[derive(Subcommand, Debug)]
enum MatchGame {
    /// Gomoku: agents mcts, flat, threat or random, with options after a colon, e.g.
    /// mcts:playouts=20000,threads=1 or flat:rollouts=50.
    ///
    /// mcts keys: playouts, time, threads, seed, exploration, selection=uct|puct, virtual_loss, batch_plies,
    /// expand_threshold, statistics=edge|node, memory, tt, solver, pin, forced, vcf, pruning,
    /// policy=basic|threats|attacks|uniform, radius, quiet_radius, rollout_radius, reuse, prior_temperature,
    /// refute (the ranges of the options of the same names, radii 1..=20; 0 lifts a playout or time limit,
    /// so that the other one ends the searches).
    Gomoku(matches::MatchGomoku),
    /// Tic-tac-toe: agents mcts[:key=value,...] (the search options' names and ranges, and reuse=true|false;
    /// 0 lifts a playout or time limit, so that the other one ends the searches) or random.
    Tictactoe(two_player::MatchTicTacToe),
}

/// Move choosers for `canopy play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AgentName {
    /// Monte Carlo Tree Search with the search options.
    Mcts,
    /// 2048: depth-limited expectimax with a probability cut-off and a cache.
    Expectimax,
    /// 2048 and Gomoku: flat Monte Carlo (rollouts from each move, best mean).
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

impl std::fmt::Display for AgentName {
    /// The name as the command line writes it (`mcts`, `tailfollow`, ...).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_possible_value() {
            Some(v) => f.write_str(v.get_name()),
            None => write!(f, "{self:?}"),
        }
    }
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

/// The command and game words of the command line as given (`canopy analyze snake`), for the help
/// an error points to: the program name and the words before the first option, at most a command and
/// a game, and only words that name them.
fn command_words() -> String {
    let mut words = vec!["canopy".to_string()];
    let mut cmd = cli_command();
    for word in std::env::args().skip(1).take(2) {
        match cmd.find_subcommand(&word) {
            Some(sub) => {
                words.push(word);
                cmd = sub.clone();
            }
            None => break,
        }
    }
    words.join(" ")
}

/// `error: canopy analyze snake does not take --vcf` for an option the (sub)command does not have, in
/// place of clap's `unexpected argument '--vcf' found`. `None` for every other error.
fn unknown_argument_line(e: &clap::Error, command: &str) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let ContextValue::String(arg) = e.get(ContextKind::InvalidArg)? else { return None };
    if !arg.starts_with("--") {
        return None;
    }
    let flag = arg.split('=').next().unwrap_or(arg);
    Some(format!("error: {command} does not take {flag}"))
}

/// `error: canopy match needs a game: gomoku, tictactoe` for a command given without its game, and
/// `error: canopy match has no game 'snake' (its games: gomoku, tictactoe)` for a game it does not
/// have. `None` for every other error (and for commands without games).
fn game_error_line(e: &clap::Error, command: &str) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let name = command.split(' ').nth(1)?;
    let cli = cli_command();
    let games: Vec<String> = cli
        .find_subcommand(name)?
        .get_subcommands()
        .map(|g| g.get_name().to_string())
        .filter(|g| g != "help")
        .collect();
    if games.is_empty() {
        return None;
    }
    let games = games.join(", ");
    match e.kind() {
        ErrorKind::MissingSubcommand => Some(format!("error: {command} needs a game: {games}")),
        ErrorKind::InvalidSubcommand => {
            let given = match e.get(ContextKind::InvalidSubcommand) {
                Some(ContextValue::String(s)) => s.clone(),
                _ => String::new(),
            };
            Some(format!("error: {command} has no game '{given}' (its games: {games})"))
        }
        _ => None,
    }
}

fn main() {
    // SAFETY: [I15] the first statement of `main`: no other thread has been started yet.
    unsafe { canopy_mcts::keep_freed_memory() };
    std::process::exit(run());
}

/// What a search command searches when given neither `--playouts` nor `--time`, by command and game
/// (`None`: the command says it in its own help, as `bench` does, or runs no search).
fn default_budget(command: &str, game: Option<&str>) -> Option<String> {
    let playouts = |n: u64| format!("{n} playouts a search");
    Some(match (command, game) {
        ("analyze", Some(_)) => {
            format!("{}, or with --infinite until stopped", playouts(canopy_mcts::search::DEFAULT_PLAYOUTS))
        }
        ("play" | "compare" | "sweep", Some("2048")) => playouts(g2048::PLAY_DEFAULT_PLAYOUTS),
        ("play" | "compare" | "sweep", Some("snake")) => format!("{} ms a move", snake::PLAY_DEFAULT_MS),
        ("play" | "match" | "compare" | "sweep", Some("gomoku" | "tictactoe")) => {
            playouts(matches::MATCH_DEFAULT_PLAYOUTS)
        }
        ("gomocup", None) => format!(
            "the manager's time for the move: INFO timeout_turn and the match clock, {} ms a move when it \
             sends none",
            canopy_mcts::games::gomoku::protocol::DEFAULT_TIMEOUT_TURN_MS
        ),
        _ => return None,
    })
}

/// The command line's definition: the derived commands, with the help of each search command's
/// `--playouts` naming what that command searches when neither `--playouts` nor `--time` is given.
fn cli_command() -> clap::Command {
    use canopy_mcts::param::Settings;
    use clap::CommandFactory;
    let Some(declared) = canopy_mcts::SearchParams::param("playouts") else { return Cli::command() };
    let help = |budget: String| {
        format!(
            "Playouts per search, all threads together (whichever of playouts and time comes first; with neither, \
             {budget}) [{}]",
            declared.kind
        )
    };
    let id = params::id("playouts");
    let mut cli = Cli::command();
    let commands: Vec<String> = cli.get_subcommands().map(|c| c.get_name().to_string()).collect();
    for command in commands {
        cli = cli.mut_subcommand(&command, |mut cmd| {
            if cmd.get_arguments().any(|a| a.get_id() == id.as_str()) {
                if let Some(budget) = default_budget(&command, None) {
                    cmd = cmd.mut_arg(&id, |a| a.help(help(budget)));
                }
            }
            if command == "gomocup" {
                // The brain's limits cap the manager's, which it keeps to.
                let time = params::id("time");
                if let Some(declared) = canopy_mcts::SearchParams::param("time") {
                    cmd = cmd.mut_arg(&time, |a| {
                        a.help(format!(
                            "Most wall time per move, milliseconds: the brain searches for the manager's time or \
                             this, whichever is shorter (--playouts caps each search the same way) [{}]",
                            declared.kind
                        ))
                    });
                }
            }
            let games: Vec<String> = cmd.get_subcommands().map(|g| g.get_name().to_string()).collect();
            for game in games {
                cmd = cmd.mut_subcommand(&game, |g| match default_budget(&command, Some(&game)) {
                    Some(budget) if g.get_arguments().any(|a| a.get_id() == id.as_str()) => {
                        g.mut_arg(&id, |a| a.help(help(budget)))
                    }
                    _ => g,
                });
            }
            cmd
        });
    }
    cli
}

/// Parses the process arguments with [`cli_command`]'s definition (as `Cli::try_parse` does with the
/// derived one).
fn parse_cli() -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let mut matches = cli_command().try_get_matches()?;
    Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut cli_command()))
}

/// Runs the tool with the process arguments; returns the exit status.
fn run() -> i32 {
    exit_quietly_on_broken_pipe();
    let cli = match parse_cli() {
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
            let command = command_words();
            if let Some(line) = value_error_line(&e) {
                eprintln!("{line} (see {command} --help)");
                return 2;
            }
            if let Some(line) = game_error_line(&e, &command) {
                eprintln!("{line} (see {command} --help)");
                return 2;
            }
            if let Some(line) = unknown_argument_line(&e, &command) {
                eprintln!("{line} (see {command} --help)");
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
                Some(v) => eprintln!("{line} {v} (see {command} --help)"),
                None => eprintln!("{line} (see {command} --help)"),
            }
            return 2;
        }
    };
    let result = match cli.command {
        Command::Analyze { game } => match game {
            AnalyzeGame::G2048(args) => g2048::analyze(&args),
            AnalyzeGame::Tictactoe(args) => tictactoe::analyze(&args),
            AnalyzeGame::Snake(args) => snake::analyze(&args),
            AnalyzeGame::Gomoku(args) => gomoku::analyze(&args),
        },
        Command::Play { game } => match game {
            PlayGame::G2048(args) => g2048::play(&args),
            PlayGame::Snake(args) => snake::play(&args),
            PlayGame::Tictactoe(args) => two_player::play_tictactoe(&args),
            PlayGame::Gomoku(args) => two_player::play_gomoku(&args),
        },
        Command::Bench(args) => bench::run(&args),
        Command::Match { game } => match game {
            MatchGame::Gomoku(args) => matches::run(&args),
            MatchGame::Tictactoe(args) => two_player::matched(&args),
        },
        Command::Gomocup(args) => gomoku::gomocup(&args),
        Command::Compare { game } => match game {
            CompareGame::G2048(args) => compare::compare(&args),
            CompareGame::Snake(args) => snake_series::compare(&args),
            CompareGame::Tictactoe(args) => duel_series::compare_tictactoe(&args),
            CompareGame::Gomoku(args) => duel_series::compare_gomoku(&args),
        },
        Command::Sweep { game } => match game {
            SweepGame::G2048(args) => compare::sweep(&args),
            SweepGame::Snake(args) => snake_series::sweep(&args),
            SweepGame::Tictactoe(args) => duel_series::sweep_tictactoe(&args),
            SweepGame::Gomoku(args) => duel_series::sweep_gomoku(&args),
        },
        Command::Train { game } => match game {
            TrainGame::G2048(args) => g2048::train(&args),
        },
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            if e.downcast_ref::<InputError>().is_some() {
                // As the errors found while parsing: the help of the command that refused the input.
                eprintln!("error: {e} (see {} --help)", command_words());
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
    /// clap checks argument ids and flags for clashes only in debug builds; run the check explicitly so
    /// release-mode tests catch two flattened option groups claiming the same name.
    #[test]
    fn command_line_definition_is_consistent() {
        super::cli_command().debug_assert();
    }

    /// Every search command's `--playouts` says what the command searches when given neither
    /// `--playouts` nor `--time`: each command's own default, not one figure for all.
    #[test]
    fn every_playouts_help_names_its_commands_default_budget() {
        let cli = super::cli_command();
        let help = |words: &[&str]| -> String {
            let mut cmd = &cli;
            for w in words {
                cmd = cmd.find_subcommand(w).unwrap_or_else(|| panic!("no {words:?}"));
            }
            let arg = cmd.get_arguments().find(|a| a.get_long() == Some("playouts"));
            arg.and_then(|a| a.get_help()).map(|h| h.to_string()).unwrap_or_default()
        };
        assert!(
            help(&["play", "2048"]).contains("with neither, 1000 playouts a search)"),
            "{}",
            help(&["play", "2048"])
        );
        assert!(help(&["compare", "2048"]).contains("with neither, 1000 playouts a search)"));
        assert!(help(&["play", "snake"]).contains("with neither, 50 ms a move)"));
        assert!(help(&["sweep", "snake"]).contains("with neither, 50 ms a move)"));
        assert!(help(&["match", "gomoku"]).contains("with neither, 10000 playouts a search)"));
        assert!(help(&["analyze", "snake"]).contains("10000 playouts a search, or with --infinite until stopped)"));
        assert!(help(&["gomocup"]).contains("5000 ms a move when it sends none"));
        let time =
            cli.find_subcommand("gomocup").and_then(|g| g.get_arguments().find(|a| a.get_long() == Some("time")));
        let time = time.and_then(|a| a.get_help()).map(|h| h.to_string()).unwrap_or_default();
        assert!(time.contains("the manager's time or this, whichever is shorter"), "{time}");
        assert!(help(&["bench"]).contains("the default depends on the game"));
        // No command is left with the engine's generic figure.
        for cmd in cli.get_subcommands() {
            let games: Vec<&clap::Command> = cmd.get_subcommands().filter(|g| g.get_name() != "help").collect();
            let leaves: Vec<Vec<&str>> = if games.is_empty() {
                vec![vec![cmd.get_name()]]
            } else {
                games.iter().map(|g| vec![cmd.get_name(), g.get_name()]).collect()
            };
            for words in leaves {
                let h = help(&words);
                if !h.is_empty() && words[0] != "bench" {
                    assert!(super::default_budget(words[0], words.get(1).copied()).is_some(), "{words:?}: {h}");
                    assert!(!h.contains("with neither, 10000)"), "{words:?}: {h}");
                }
            }
        }
    }

    /// Every command that takes a numeric search option states the range it checks in the option's help.
    #[test]
    fn numeric_search_options_state_their_ranges_in_their_help() {
        use canopy_mcts::param::Settings;
        // Each numeric search option states its declared range in every command's help.
        let ranges: Vec<(String, String)> =
            ["playouts", "time", "threads", "seed", "virtual_loss", "batch_plies", "expand_threshold", "exploration"]
                .into_iter()
                .map(|name| {
                    let p = canopy_mcts::SearchParams::param(name).unwrap();
                    (name.replace('_', "-"), p.kind.to_string())
                })
                .collect();
        // Every command, and every game of a command that takes one: `analyze 2048`, `bench`, ...
        let cli = super::cli_command();
        let mut leaves: Vec<(String, clap::Command)> = Vec::new();
        // `train` runs no search: it takes none of the search options.
        for cmd in cli.get_subcommands().filter(|c| c.get_name() != "train") {
            let games: Vec<&clap::Command> = cmd.get_subcommands().filter(|g| g.get_name() != "help").collect();
            if games.is_empty() {
                leaves.push((cmd.get_name().to_string(), cmd.clone()));
            }
            for game in games {
                leaves.push((format!("{} {}", cmd.get_name(), game.get_name()), game.clone()));
            }
        }
        let mut commands = Vec::new();
        for (name, cmd) in &leaves {
            for arg in cmd.get_arguments() {
                let Some((flag, range)) = ranges.iter().find(|(flag, _)| arg.get_long() == Some(flag.as_str())) else {
                    continue;
                };
                let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                assert!(help.contains(range.as_str()), "canopy {name} --{flag}: {help}");
                commands.push(format!("{name} --{flag}"));
            }
        }
        assert!(leaves.len() >= 14, "{} commands", leaves.len());
        for (name, _) in &leaves {
            for (flag, _) in &ranges {
                if name == "bench" && flag == "time" {
                    continue;
                }
                assert!(commands.contains(&format!("{name} --{flag}")), "canopy {name} has no --{flag}");
            }
        }
    }
}
