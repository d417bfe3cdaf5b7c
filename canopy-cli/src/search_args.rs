//! The search options every searching command takes, made from the library's parameter declarations
//! (`SearchParams`'s table in `canopy_mcts::search`, through [`super::params`]): each flag's name, help,
//! range and default come from there, and a value is checked by the same declaration that `match`'s
//! per-side settings and `sweep`'s values use.

use clap::{Arg, ArgAction, ArgMatches, Command};

use canopy_mcts::param::Settings;
use canopy_mcts::search::{Backup, ChanceSelection, SearchParams, Selection};

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
    /// `--virtual-loss`.
    pub virtual_loss: u32,
    /// `--expand-threshold`.
    pub expand_threshold: u32,
    /// `--no-solver`.
    pub no_solver: bool,
    /// `--chance`.
    pub chance: ChanceSelection,
    /// `--backup` (`None`: the game's default).
    pub backup: Option<Backup>,
    /// `--no-progress`: no progress lines on stderr.
    pub no_progress: bool,
}

/// Declared parameters the command line does not offer as flags (`audit` is for tests of the engine).
const SKIPPED: [&str; 1] = ["audit"];

impl clap::Args for SearchArgs {
    fn augment_args(cmd: Command) -> Command {
        let cmd = params::add_flags(cmd, &SearchParams::default(), "Search options", &SKIPPED);
        cmd.arg(
            Arg::new("no_progress").long("no-progress").action(ArgAction::SetTrue).help_heading("Search options").help(
                "No progress lines on stderr: none every second of a search longer than a second, and (play) \
                     no line per finished game where stderr is not a terminal",
            ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for SearchArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let invalid = |msg: String| clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{msg}\n"));
        let mut p = SearchParams::default();
        params::apply(m, &mut p).map_err(invalid)?;
        let given = params::given::<SearchParams>(m);
        if let Some((_, text)) = given.iter().find(|(n, _)| *n == "memory") {
            parse_memory(text).map_err(|e| invalid(format!("--memory: {e}")))?;
        }
        let names: Vec<&str> = given.iter().map(|(name, _)| *name).collect();
        Ok(SearchArgs::from_params(&p, &names, m.get_flag("no_progress")))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl SearchArgs {
    /// The options that `p` holds, `given` naming those the user set (the others keep the game's
    /// defaults: threads, exploration, backup).
    fn from_params(p: &SearchParams, given: &[&str], no_progress: bool) -> SearchArgs {
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
            virtual_loss: p.virtual_loss,
            expand_threshold: p.expand_threshold,
            no_solver: !p.solver,
            chance: p.chance,
            backup: was("backup").then_some(p.backup),
            no_progress,
        }
    }

    /// These options with the declared search parameter `name` set to `text` (what `sweep` varies).
    ///
    /// # Errors
    /// The declaration's message for an unknown name or a value out of range.
    pub fn with(&self, name: &str, text: &str) -> Result<SearchArgs, String> {
        let param = SearchParams::param(name).ok_or_else(|| format!("'{name}' is not a search parameter"))?;
        let defaults = SearchParams::default();
        let mut p = SearchParams {
            threads: self.threads.map_or(defaults.threads, |t| t as usize),
            exploration: self.exploration.unwrap_or(defaults.exploration),
            ..self.params_with(0, defaults.exploration)
        };
        (p.playouts, p.time_ms) = (self.playouts, self.time);
        param.apply(&mut p, text).map_err(|e| e.to_string())?;
        let mut given: Vec<&str> = Vec::new();
        for (name, set) in [
            ("threads", self.threads.is_some()),
            ("exploration", self.exploration.is_some()),
            ("backup", self.backup.is_some()),
        ] {
            if set {
                given.push(name);
            }
        }
        given.push(param.name);
        Ok(SearchArgs::from_params(&p, &given, self.no_progress))
    }

    /// Refuses the options that only single-player games take (`--backup max`) for two-player `game`.
    ///
    /// # Errors
    /// An input error naming the option.
    pub fn two_player(&self, game: &str) -> anyhow::Result<()> {
        if self.backup == Some(Backup::Max) {
            return Err(super::input_error(format!(
                "--backup max is for single-player games; {game} is a two-player game"
            )));
        }
        Ok(())
    }

    /// The search parameters these options ask for; `default_playouts` applies when neither --playouts
    /// nor --time is given.
    pub fn params(&self, default_playouts: u64) -> SearchParams {
        self.params_with(default_playouts, SearchParams::default().exploration)
    }

    /// [`SearchArgs::params`] with the game's own default exploration constant.
    pub fn params_with(&self, default_playouts: u64, default_exploration: f64) -> SearchParams {
        let mut p = SearchParams {
            playouts: self.playouts,
            time_ms: self.time,
            memory_bytes: self.memory,
            seed: self.seed,
            pin_threads: !self.no_pin,
            transposition_table: !self.no_tt,
            exploration: self.exploration.unwrap_or(default_exploration),
            virtual_loss: self.virtual_loss,
            selection: self.selection,
            expand_threshold: self.expand_threshold,
            solver: !self.no_solver,
            chance: self.chance,
            backup: self.backup.unwrap_or(Backup::Mean),
            ..SearchParams::default()
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
