//! The search options every searching command takes, made from the library's parameter declarations
//! (`SearchParams`'s table in `canopy_mcts::search`, through [`super::params`]): each flag's name, help,
//! range and default come from there, and a value is checked by the same declaration that `match`'s
//! per-side settings and `sweep`'s values use.
//!
//! Each game takes the parameters that apply to it, with its own defaults: [`SearchFlags`] is the flag
//! group of one game's [`Profile`], so that `canopy analyze gomoku --chance sample` is refused by the
//! parser (Gomoku has no chance events) and `canopy analyze 2048 --help` states 2048's exploration
//! constant.

use std::marker::PhantomData;
use std::ops::Deref;

use clap::{Arg, ArgAction, ArgMatches, Command};

use canopy_mcts::param::Settings;
use canopy_mcts::search::{Backup, ChanceSelection, SearchParams, Selection, Statistics};

use super::common::parse_memory;
use super::params;

/// The search options as given: each field is the declared parameter's value, and `None` (or the
/// default) where the user gave nothing, so that a game can put its own default in.
#[derive(Debug, Clone)]
pub struct SearchArgs {
    /// Playouts per search (`--playouts`).
    pub playouts: Option<u64>,
    /// Milliseconds per search (`--time`).
    pub time: Option<u64>,
    /// Worker threads (`--threads`; default: the logical cores).
    pub threads: Option<u64>,
    /// Random seed (`--seed`).
    pub seed: u64,
    /// Memory budget, bytes (`--memory`).
    pub memory: usize,
    /// `--no-pin`.
    pub no_pin: bool,
    /// `--no-tt`.
    pub no_tt: bool,
    /// `--exploration` (`None`: the game's default).
    pub exploration: Option<f64>,
    /// `--selection`.
    pub selection: Selection,
    /// `--min-span`.
    pub min_span: f64,
    /// `--virtual-loss`.
    pub virtual_loss: u32,
    /// `--batch-plies`.
    pub batch_plies: u32,
    /// `--expand-threshold`.
    pub expand_threshold: u32,
    /// `--no-solver`.
    pub no_solver: bool,
    /// `--chance`.
    pub chance: ChanceSelection,
    /// `--backup` (`None`: the game's default).
    pub backup: Option<Backup>,
    /// `--statistics`.
    pub statistics: Statistics,
    /// `--no-progress`: no progress lines on stderr.
    pub no_progress: bool,
    /// The game's defaults (its [`Profile::defaults`]): exploration and backup where not given.
    defaults: SearchParams,
    /// The game's exploration constant for a selection formula ([`Profile::exploration`]), where
    /// `--exploration` is not given.
    exploration_for: fn(Selection) -> f64,
    /// The declared parameters the game does not take (its [`Profile::SKIP`]).
    skipped: &'static [&'static str],
    /// The declared parameters given on the command line, in declaration order.
    given: Vec<&'static str>,
}

/// Which declared search parameters a game takes, and its defaults.
pub trait Profile {
    /// Declared parameters the game's commands do not offer as flags. Every game leaves out `audit` (for
    /// tests of the engine); single-player games leave out `solver`, two-player games without chance
    /// events `chance`, `backup` and `min_span`.
    const SKIP: &'static [&'static str];
    /// The game's defaults, shown in the help and used where an option is not given.
    fn defaults() -> SearchParams;
    /// The game's exploration constant for `selection` when `--exploration` is not given; by default
    /// the one of [`Profile::defaults`] whatever the selection.
    fn exploration(_selection: Selection) -> f64 {
        Self::defaults().exploration
    }
    /// The help of `--exploration` when [`Profile::exploration`] depends on the selection (`None`: the
    /// declaration's help with the default of [`Profile::defaults`]).
    fn exploration_help() -> Option<String> {
        None
    }
}

/// The search parameters of single-player games with chance events (the solver proves two-player
/// results only).
const SOLO: &[&str] = &["audit", "solver"];
/// The search parameters of two-player games without chance events (`backup max` is for single-player
/// games; their values are on fixed bounds, so `min_span` has nothing to widen).
const DUEL: &[&str] = &["audit", "chance", "backup", "min_span"];

/// 2048: the MCTS agent's defaults ([`canopy_mcts::games::g2048::agents::AgentConfig::new`]).
#[derive(Debug, Clone, Copy)]
pub struct For2048;
impl Profile for For2048 {
    const SKIP: &'static [&'static str] = SOLO;
    fn defaults() -> SearchParams {
        use canopy_mcts::games::g2048::agents::{AgentConfig, AgentKind};
        let search = AgentConfig::new(AgentKind::Mcts).search;
        SearchParams { playouts: None, time_ms: None, ..search }
    }
}

/// Snake: the engine's defaults.
#[derive(Debug, Clone, Copy)]
pub struct ForSnake;
impl Profile for ForSnake {
    const SKIP: &'static [&'static str] = SOLO;
    fn defaults() -> SearchParams {
        SearchParams::default()
    }
}

/// Tic-tac-toe: the engine's defaults.
#[derive(Debug, Clone, Copy)]
pub struct ForTicTacToe;
impl Profile for ForTicTacToe {
    const SKIP: &'static [&'static str] = DUEL;
    fn defaults() -> SearchParams {
        SearchParams::default()
    }
}

/// Gomoku: the engine's defaults with Gomoku's selection (PUCT with the pattern priors) and an
/// exploration constant that follows the selection (2 for PUCT, 0.5 for UCT:
/// [`canopy_mcts::games::gomoku::default_exploration`]).
#[derive(Debug, Clone, Copy)]
pub struct ForGomoku;
impl Profile for ForGomoku {
    const SKIP: &'static [&'static str] = DUEL;
    fn defaults() -> SearchParams {
        canopy_mcts::games::gomoku::default_search_params()
    }
    fn exploration(selection: Selection) -> f64 {
        canopy_mcts::games::gomoku::default_exploration(selection)
    }
    fn exploration_help() -> Option<String> {
        use canopy_mcts::games::gomoku::default_exploration;
        let p = SearchParams::param("exploration")?;
        Some(format!(
            "{} [{}, default {} with --selection puct, {} with --selection uct]",
            p.help,
            p.kind,
            default_exploration(Selection::Puct),
            default_exploration(Selection::Uct)
        ))
    }
}

/// The search flags of one game (see [`Profile`]); reads as the [`SearchArgs`] they hold.
#[derive(Debug, Clone)]
pub struct SearchFlags<P> {
    args: SearchArgs,
    profile: PhantomData<P>,
}

impl<P> Deref for SearchFlags<P> {
    type Target = SearchArgs;
    fn deref(&self) -> &SearchArgs {
        &self.args
    }
}

impl<P: Profile> clap::Args for SearchFlags<P> {
    fn augment_args(cmd: Command) -> Command {
        let mut cmd = params::add_flags(cmd, &P::defaults(), "Search options", P::SKIP, true);
        if let Some(help) = P::exploration_help() {
            cmd = cmd.mut_arg(params::id("exploration"), |a| a.help(help));
        }
        cmd.arg(
            Arg::new("no_progress").long("no-progress").action(ArgAction::SetTrue).help_heading("Search options").help(
                "No progress lines on stderr: none every second of a search longer than a second, and where \
                     whole games are played (play, compare, sweep) no line per finished game and none every 10 s \
                     within a game where stderr is not a terminal",
            ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<P: Profile> clap::FromArgMatches for SearchFlags<P> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let invalid = |msg: String| clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{msg}\n"));
        let defaults = P::defaults();
        let mut p = defaults.clone();
        params::apply(m, &mut p).map_err(invalid)?;
        let given = params::given::<SearchParams>(m);
        if let Some((_, text)) = given.iter().find(|(n, _)| *n == "memory") {
            parse_memory(text).map_err(|e| invalid(format!("--memory: {e}")))?;
        }
        let names: Vec<&'static str> = given.iter().map(|(name, _)| *name).collect();
        let args = SearchArgs::from_params(&p, &names, m.get_flag("no_progress"), (defaults, P::exploration), P::SKIP);
        Ok(SearchFlags { args, profile: PhantomData })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl SearchArgs {
    /// The options that `p` holds, `given` naming those the user set (the others keep the game's
    /// defaults: threads, exploration, backup).
    fn from_params(
        p: &SearchParams,
        given: &[&'static str],
        no_progress: bool,
        (defaults, exploration_for): (SearchParams, fn(Selection) -> f64),
        skipped: &'static [&'static str],
    ) -> SearchArgs {
        let was = |name: &str| given.contains(&name);
        SearchArgs {
            playouts: p.playouts,
            time: p.time_ms,
            threads: was("threads").then_some(p.threads as u64),
            seed: p.seed,
            memory: p.memory_bytes,
            no_pin: !p.pin_threads,
            no_tt: !p.transposition_table,
            exploration: was("exploration").then_some(p.exploration),
            selection: p.selection,
            min_span: p.min_span,
            virtual_loss: p.virtual_loss,
            batch_plies: p.batch_plies,
            expand_threshold: p.expand_threshold,
            no_solver: !p.solver,
            chance: p.chance,
            backup: was("backup").then_some(p.backup),
            statistics: p.statistics,
            no_progress,
            defaults,
            exploration_for,
            skipped,
            given: given.to_vec(),
        }
    }

    /// These options with the declared search parameter `name` set to `text` (what `sweep` varies).
    ///
    /// # Errors
    /// The declaration's message for an unknown name or a value out of range.
    pub fn with(&self, name: &str, text: &str) -> Result<SearchArgs, String> {
        let param = SearchParams::param(name)
            .filter(|p| !self.skipped.contains(&p.name))
            .ok_or_else(|| format!("'{name}' is not a search parameter of this game"))?;
        let mut p = self.params(0);
        (p.playouts, p.time_ms) = (self.playouts, self.time);
        param.apply(&mut p, text).map_err(|e| e.to_string())?;
        let mut given = self.given.clone();
        if !given.contains(&param.name) {
            given.push(param.name);
        }
        let defaults = (self.defaults.clone(), self.exploration_for);
        Ok(SearchArgs::from_params(&p, &given, self.no_progress, defaults, self.skipped))
    }

    /// The declared parameters the game does not take (its [`Profile::SKIP`]).
    pub fn skipped(&self) -> &'static [&'static str] {
        self.skipped
    }

    /// The flags of the declared parameters given on the command line (`--no-tt` for `tt`), in
    /// declaration order.
    pub fn given_flags(&self) -> impl Iterator<Item = (&'static str, String)> + '_ {
        self.given.iter().map(|&name| (name, params::flag_of(name, &self.defaults)))
    }

    /// The flag that gave declared parameter `name` on the command line (`--no-tt` for `tt`), if it was
    /// given.
    pub fn given_flag(&self, name: &str) -> Option<String> {
        self.given_flags().find(|(n, _)| *n == name).map(|(_, flag)| flag)
    }

    /// The search parameters these options ask for, the game's defaults where not given;
    /// `default_playouts` applies when neither --playouts nor --time is given.
    pub fn params(&self, default_playouts: u64) -> SearchParams {
        let mut p = SearchParams {
            playouts: self.playouts,
            time_ms: self.time,
            memory_bytes: self.memory,
            seed: self.seed,
            pin_threads: !self.no_pin,
            transposition_table: !self.no_tt,
            exploration: self.exploration.unwrap_or_else(|| (self.exploration_for)(self.selection)),
            virtual_loss: self.virtual_loss,
            batch_plies: self.batch_plies,
            selection: self.selection,
            min_span: self.min_span,
            expand_threshold: self.expand_threshold,
            solver: !self.no_solver,
            chance: self.chance,
            backup: self.backup.unwrap_or(self.defaults.backup),
            statistics: self.statistics,
            ..self.defaults.clone()
        };
        if let Some(t) = self.threads {
            p.threads = t as usize;
        }
        if p.playouts.is_none() && p.time_ms.is_none() {
            p.playouts = Some(default_playouts);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use canopy_mcts::games::gomoku::{DEFAULT_EXPLORATION, DEFAULT_PUCT_EXPLORATION};
    use clap::{FromArgMatches, Parser};

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        search: SearchFlags<ForGomoku>,
    }

    fn params(args: &[&str]) -> SearchParams {
        let m = <Cli as clap::CommandFactory>::command().try_get_matches_from(args).unwrap();
        Cli::from_arg_matches(&m).unwrap().search.params(1000)
    }

    /// Gomoku searches with PUCT by default; the exploration constant follows the selection unless
    /// given.
    #[test]
    fn gomoku_exploration_follows_the_selection() {
        let p = params(&["t"]);
        assert_eq!((p.selection, p.exploration), (Selection::Puct, DEFAULT_PUCT_EXPLORATION));
        let p = params(&["t", "--selection", "uct"]);
        assert_eq!((p.selection, p.exploration), (Selection::Uct, DEFAULT_EXPLORATION));
        let p = params(&["t", "--selection", "uct", "--exploration", "0.7"]);
        assert_eq!(p.exploration, 0.7);
        let args = Cli::from_arg_matches(
            &<Cli as clap::CommandFactory>::command().try_get_matches_from(["t", "--selection", "uct"]).unwrap(),
        )
        .unwrap()
        .search;
        let swept = args.with("selection", "puct").unwrap();
        assert_eq!(swept.params(1).exploration, DEFAULT_PUCT_EXPLORATION);
    }
}
