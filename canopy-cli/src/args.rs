//! The arguments of the commands that take a game (`canopy analyze GAME`, `play`, `compare`, `sweep`,
//! `match`): one subcommand per game, each made of the command's own options, the game's options `G`
//! and the search flags of the game's [`Profile`]. An option a game does not take is not a flag of its
//! subcommand, so the parser refuses it (`canopy analyze snake --vcf` says "unexpected argument").

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;

use super::common::GAMES;
use super::search_args::{Profile, SearchFlags};
use super::AgentName;

/// `--agent`'s parser for a game: the names of `agents` only, each with its help line.
pub fn agent_parser(agents: &'static [AgentName]) -> impl TypedValueParser<Value = AgentName> {
    PossibleValuesParser::new(agents.iter().filter_map(ValueEnum::to_possible_value))
        .map(|name| AgentName::from_str(&name, true).expect("the parser accepts agent names only"))
}

/// `canopy analyze GAME`: one position, searched once.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs<G: clap::Args, P: Profile> {
    #[command(flatten)]
    pub game: G,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub infinite: super::infinite::InfiniteArgs,
    #[command(flatten)]
    pub search: SearchFlags<P>,
}

impl<G: clap::Args, P: Profile> AnalyzeArgs<G, P> {
    /// Runs `search` on `state` as these options ask: once (with progress lines on stderr unless
    /// `--no-progress`), or as an open-ended analysis with `--infinite`.
    pub fn run<Game, Pol>(
        &self,
        search: &canopy_mcts::Search<'_, Game, Pol>,
        state: &Game::State,
    ) -> canopy_mcts::SearchReport<Game::Action>
    where
        Game: canopy_mcts::Game + Clone + Send + 'static,
        Pol: canopy_mcts::Policy<Game> + Clone + Send + 'static,
    {
        if self.infinite.infinite {
            let limits = canopy_mcts::search::Limits { playouts: self.search.playouts, time_ms: self.search.time };
            super::infinite::analyse(search, state, limits, self.infinite, self.json)
        } else {
            super::common::search_with_progress(search, state, self.search.no_progress)
        }
    }

    /// Prints the analysis's JSON object (one line after the lines of `--infinite`), with the search
    /// parameters the search ran with as its `params` (those the game takes, [`Profile::SKIP`]) where
    /// `params` is given (2048's analysis sets its own beforehand: the MCTS agent's search parameters,
    /// null for the agents without a tree search, beside the whole configuration under `config`).
    ///
    /// # Errors
    /// A failed serialisation.
    pub fn print_json(
        &self,
        mut v: serde_json::Value,
        params: Option<&canopy_mcts::SearchParams>,
    ) -> anyhow::Result<()> {
        if let (Some(obj), Some(params)) = (v.as_object_mut(), params) {
            obj.insert("params".into(), super::params::to_json(params, P::SKIP));
        }
        super::infinite::print_report_json(v, self.infinite.infinite)
    }
}

/// `canopy play GAME`: whole games, one after another.
#[derive(clap::Args, Debug)]
pub struct PlayArgs<G: clap::Args, P: Profile> {
    /// Number of games, 1..=1000000.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = |t: &str| GAMES.parse(t))]
    pub games: u64,
    #[command(flatten)]
    pub game: G,
    #[command(flatten)]
    pub out: Forms,
    #[command(flatten)]
    pub search: SearchFlags<P>,
}

/// The output forms of the commands that play series of games.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Forms {
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Print CSV (one line per game, agent or value) instead of tables.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
}

/// The options `compare` and `sweep` share: output forms, the game's settings and the search flags of
/// every agent.
#[derive(clap::Args, Debug)]
pub struct SeriesOptions<G: clap::Args, P: Profile> {
    #[command(flatten)]
    pub out: Forms,
    /// Do not print a line per finished game on stderr (nor, where stderr is not a terminal, one every
    /// 10 s within a game).
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub game: G,
    #[command(flatten)]
    pub search: SearchFlags<P>,
}

/// `canopy compare GAME`: several agents on the same games.
#[derive(clap::Args, Debug)]
pub struct CompareArgs<G: clap::Args, P: Profile> {
    /// Games per agent, 1..=1000000 (game i of every agent starts from the same board).
    #[arg(long, default_value_t = 20, allow_negative_numbers = true, value_parser = |t: &str| GAMES.parse(t))]
    pub games: u64,
    #[command(flatten)]
    pub run: SeriesOptions<G, P>,
}

/// `canopy sweep GAME`: one agent, one parameter over several values.
#[derive(clap::Args, Debug)]
pub struct SweepArgs<G: clap::Args, P: Profile> {
    /// The parameter to vary (the other options hold for every value, and its own option is not given
    /// beside it): a search parameter of the game (playouts, time, threads, exploration, virtual-loss,
    /// expand-threshold, selection, ...) or one of the game's settings (2048: epsilon, rollout-depth,
    /// rollout, leaf-depth, depth, prob-cutoff, prior-temperature, reuse; snake: rollout, rollout-moves,
    /// rollout-patience, tail-filter, endgame, reuse; gomoku: the brain settings, radius, vcf, refute, ...).
    #[arg(long)]
    pub param: String,
    /// The values to try, comma-separated in one argument (0.1,0.3,1), as the parameter's own option would
    /// take them.
    #[arg(long, value_delimiter = ',', required = true, num_args = 1, allow_hyphen_values = true)]
    pub values: Vec<String>,
    /// Games per value, 1..=1000000 (game i of every value starts from the same board).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = |t: &str| GAMES.parse(t))]
    pub games: u64,
    /// Write a plot of the mean score (with its standard error) against the values to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub run: SeriesOptions<G, P>,
}

impl<G: clap::Args, P: Profile> SweepArgs<G, P> {
    /// The values to try: refused when one is empty (`1,,2`; clap split the list at its commas) or given
    /// twice.
    ///
    /// # Errors
    /// An input error naming the element.
    pub fn values(&self) -> anyhow::Result<Vec<String>> {
        super::common::comma_list(&self.values.join(","))
            .map_err(|e| super::input_error(format!("--values: {e} (example: --values 0.1,0.3,1)")))?;
        super::common::distinct("--values", &self.values)
    }
}

/// `canopy match GAME`: two agents, game after game.
#[derive(clap::Args, Debug)]
pub struct MatchArgs<G: clap::Args, P: Profile> {
    /// Agent A, first to move in the first game, with options after a colon (see the game's help for
    /// the agents and their keys).
    #[arg(long, value_name = "AGENT", default_value = "mcts")]
    pub black: String,
    /// Agent B, second to move in the first game (same forms as --black). Default: threat (gomoku),
    /// random (tic-tac-toe).
    #[arg(long, value_name = "AGENT")]
    pub white: Option<String>,
    /// Number of games, 1..=1000000.
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = |t: &str| GAMES.parse(t))]
    pub games: u64,
    /// Alternate colours: agent A moves first in odd games and second in even games.
    #[arg(long)]
    pub swap: bool,
    #[command(flatten)]
    pub game: G,
    /// Search options of the mcts agents (per-agent options after the colon override them).
    #[command(flatten)]
    pub search: SearchFlags<P>,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// A game with no options of its own for a command.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct NoOptions {}
