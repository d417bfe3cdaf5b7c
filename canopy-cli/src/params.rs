//! Command-line flags made from the library's parameter declarations ([`canopy_mcts::param`]): one
//! flag per declared parameter, its help line, range and default taken from the declaration, so that no
//! option is declared twice.
//!
//! A flag parameter whose default is `true` becomes `--no-NAME`; one whose default is `false` becomes
//! `--NAME`. Every other parameter takes a value (`--NAME VALUE`), parsed and range-checked by the
//! declaration; negative numbers reach that check (and its message) instead of being taken for flags.

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};

use canopy_mcts::param::{byte_text, Kind, ParamError, Settings, Value};

/// The argument id of parameter `name` (kept apart from hand-written flags by its prefix).
pub fn id(name: &str) -> String {
    format!("param:{name}")
}

/// Adds one flag per declared parameter of `T` to `cmd`, under `heading` in the help, stating the
/// defaults of `defaults` when `state_defaults`. `skip` names parameters left out (a command that sets
/// them itself).
pub fn add_flags<T: Settings>(
    mut cmd: Command,
    defaults: &T,
    heading: &'static str,
    skip: &[&str],
    state_defaults: bool,
) -> Command {
    for p in T::params().iter().filter(|p| !skip.contains(&p.name)) {
        let default = (p.get)(defaults);
        let long = p.name.replace('_', "-");
        let arg = match (p.kind, default) {
            (Kind::Flag, Value::Flag(true)) => {
                Arg::new(id(p.name)).long(format!("no-{long}")).action(ArgAction::SetFalse).help(turn_off_help(p.help))
            }
            (Kind::Flag, _) => Arg::new(id(p.name)).long(long).action(ArgAction::SetTrue).help(p.help.to_string()),
            _ => {
                let default = match (p.kind, default) {
                    _ if !state_defaults => String::new(),
                    (_, Value::Unset) => String::new(),
                    (Kind::Bytes { .. }, Value::Int(n)) => format!(", default {}", byte_text(n)),
                    // The engine's default is the machine's logical cores: say so beside the number.
                    (_, v) if p.name == "threads" => format!(", default {v}: the logical cores"),
                    (_, v) => format!(", default {v}"),
                };
                let range = match p.kind {
                    Kind::Bytes { min, .. } => format!("at least {}", byte_text(min)),
                    kind => kind.to_string(),
                };
                Arg::new(id(p.name))
                    .long(long)
                    .value_name(value_name(p.kind))
                    .allow_negative_numbers(true)
                    .allow_hyphen_values(true)
                    .help(format!("{} [{range}{default}]", p.help))
            }
        };
        cmd = cmd.arg(arg.help_heading(heading));
    }
    cmd
}

/// A settings type of the library whose flags a command offers as one group ([`SettingsFlags`]).
pub trait Group: Settings {
    /// The heading under which `--help` lists the flags.
    const HEADING: &'static str;
    /// Whether the help states each flag's default (from [`Group::reference`]); settings whose defaults
    /// depend on the agent say them in their help lines instead.
    const STATE_DEFAULTS: bool;
    /// The settings the given flags apply to, and that check their values when the command line is read.
    fn reference() -> Self;
}

impl Group for canopy_mcts::games::gomoku::Tuning {
    const HEADING: &'static str = "Gomoku brain";
    const STATE_DEFAULTS: bool = true;
    fn reference() -> Self {
        Self::default()
    }
}

impl Group for canopy_mcts::games::g2048::agents::AgentConfig {
    const HEADING: &'static str = "2048 agent options";
    const STATE_DEFAULTS: bool = false;
    fn reference() -> Self {
        Self::new(canopy_mcts::games::g2048::agents::AgentKind::Mcts)
    }
}

impl Group for canopy_mcts::games::snake::SnakePolicy {
    const HEADING: &'static str = "Snake search policy";
    const STATE_DEFAULTS: bool = false;
    fn reference() -> Self {
        canopy_mcts::games::snake::MctsAgent::search_policy(10, 10)
    }
}

/// A group of settings declared in the library (Gomoku's [`canopy_mcts::games::gomoku::Tuning`], 2048's
/// [`canopy_mcts::games::g2048::agents::AgentConfig`]) whose flags come from their declarations.
#[derive(Debug, Clone)]
pub struct SettingsFlags<T> {
    /// [`Group::reference`] with the given flags applied.
    pub settings: T,
    /// The parameters given, as `(name, text)` in declaration order (checked: each applies).
    pub given: Vec<(&'static str, String)>,
}

impl<T: Settings> SettingsFlags<T> {
    /// Applies the given parameters to `target` (another agent's defaults, say), in declaration order.
    pub fn apply_to(&self, target: &mut T) {
        for p in T::params() {
            for (_, text) in self.given.iter().filter(|(name, _)| *name == p.name) {
                p.apply(target, text).expect("checked when the command line was read");
            }
        }
    }

    /// Whether parameter `name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.given.iter().any(|(n, _)| *n == name)
    }

    /// The flag that gave parameter `name` on the command line (`--no-reuse` for a setting on by
    /// default), if it was given.
    pub fn given_flag(&self, name: &str) -> Option<String>
    where
        T: Group,
    {
        self.has(name).then(|| flag_of(name, &T::reference()))
    }
}

impl<T: Group + Clone + std::fmt::Debug> clap::Args for SettingsFlags<T> {
    fn augment_args(cmd: Command) -> Command {
        add_flags(cmd, &T::reference(), T::HEADING, &[], T::STATE_DEFAULTS)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<T: Group> clap::FromArgMatches for SettingsFlags<T> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut settings = T::reference();
        apply(m, &mut settings)
            .map_err(|msg| clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{msg}\n")))?;
        Ok(SettingsFlags { settings, given: given::<T>(m) })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The flag of declared parameter `name` of `T` as [`add_flags`] makes it with `defaults`: `--no-NAME`
/// for a flag that is on by default, `--NAME` otherwise (underscores become hyphens).
pub fn flag_of<T: Settings>(name: &str, defaults: &T) -> String {
    let long = name.replace('_', "-");
    match T::param(name).map(|p| (p.kind, (p.get)(defaults))) {
        Some((Kind::Flag, Value::Flag(true))) => format!("--no-{long}"),
        _ => format!("--{long}"),
    }
}

fn value_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Int { .. } | Kind::Limit { .. } => "N",
        Kind::Real { .. } => "X",
        Kind::Bytes { .. } => "BYTES",
        Kind::Choice(_) | Kind::Flag => "NAME",
    }
}

/// The parameters of `T` given on the command line, as `(name, text)` pairs in declaration order (a
/// `--no-NAME` flag gives `false`, a `--NAME` flag `true`).
pub fn given<T: Settings>(m: &ArgMatches) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for p in T::params() {
        let key = id(p.name);
        // Parameters a command skipped have no argument: `try_contains_id` keeps that from panicking.
        if !m.try_contains_id(&key).unwrap_or(false) || m.value_source(&key) != Some(ValueSource::CommandLine) {
            continue;
        }
        let text = match p.kind {
            Kind::Flag => m.get_one::<bool>(&key).copied().unwrap_or_default().to_string(),
            _ => m.get_one::<String>(&key).cloned().unwrap_or_default(),
        };
        out.push((p.name, text));
    }
    out
}

/// Applies the parameters of `T` given on the command line to `target` (which holds the command's
/// defaults); parameters not given keep their values.
///
/// # Errors
/// The declaration's one-line message, naming the flag, for a value out of range or malformed.
pub fn apply<T: Settings>(m: &ArgMatches, target: &mut T) -> Result<(), String> {
    for (name, text) in given::<T>(m) {
        let p = T::param(name).expect("given names are declared");
        p.apply(target, &text).map_err(|e| match e {
            ParamError::Invalid { value, range, .. } => {
                format!("{}: {} is not {range}", p.flag(), canopy_mcts::param::shown(&value))
            }
            other => other.to_string(),
        })?;
    }
    Ok(())
}

/// The `params` block of `--json` output: every declared parameter of `settings` that the game takes
/// (all but `skipped`, its [`crate::search_args::Profile::SKIP`]) under its declared name (`null` for an
/// unset limit).
pub fn to_json<T: Settings>(settings: &T, skipped: &[&str]) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (name, value) in settings.values().into_iter().filter(|(name, _)| !skipped.contains(name)) {
        let v = match value {
            Value::Int(n) => serde_json::json!(n),
            Value::Real(x) => serde_json::json!(x),
            Value::Flag(b) => serde_json::json!(b),
            Value::Choice(c) => serde_json::json!(c),
            Value::Unset => serde_json::Value::Null,
        };
        m.insert(name.to_string(), v);
    }
    serde_json::Value::Object(m)
}

/// The help of `--no-X` for a parameter on by default: the parameter's help says what it does when on,
/// so the flag names that as what it turns off ("Turn off (on by default): pin worker threads to
/// cores"). A help that opens with an acronym ("MCTS-Solver in ...") keeps its capitals.
fn turn_off_help(help: &str) -> String {
    let mut chars = help.chars();
    let phrase = match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_lowercase() => {
            first.to_lowercase().chain(std::iter::once(second)).chain(chars).collect()
        }
        _ => help.to_string(),
    };
    format!("Turn off (on by default): {phrase}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use canopy_mcts::SearchParams;

    fn command() -> Command {
        add_flags(Command::new("t").no_binary_name(true), &SearchParams::default(), "Search", &["audit"], true)
    }

    fn parse(args: &[&str]) -> Result<SearchParams, String> {
        let m = command().try_get_matches_from(args).map_err(|e| e.to_string())?;
        let mut p = SearchParams::default();
        apply(&m, &mut p)?;
        Ok(p)
    }

    #[test]
    fn flags_come_from_the_declarations() {
        let p = parse(&["--threads", "3", "--no-tt", "--exploration", "0.25", "--backup", "max", "--memory", "64MiB"])
            .unwrap();
        assert_eq!(p.threads, 3);
        assert!(!p.transposition_table);
        assert!(p.pin_threads, "not given: default kept");
        assert_eq!(p.exploration, 0.25);
        assert_eq!(p.backup, canopy_mcts::search::Backup::Max);
        assert_eq!(p.memory_bytes, 64 << 20);
        let d = SearchParams::default();
        let untouched = parse(&[]).unwrap();
        assert_eq!((untouched.threads, untouched.exploration), (d.threads, d.exploration));
    }

    #[test]
    fn bad_values_name_the_flag_and_the_range() {
        assert_eq!(parse(&["--threads", "-1"]).unwrap_err(), "--threads: -1 is not a whole number from 1 to 1024");
        assert!(parse(&["--exploration", "1e308"]).unwrap_err().starts_with("--exploration: 1e308 is not a number"));
        assert!(parse(&["--expand-threshold", "4294967295"]).is_err());
        // Skipped parameters are not flags of the command.
        assert!(parse(&["--audit"]).is_err());
    }

    #[test]
    fn a_no_flag_says_what_it_turns_off() {
        assert_eq!(
            turn_off_help("Pin worker threads to cores"),
            "Turn off (on by default): pin worker threads to cores"
        );
        assert_eq!(turn_off_help("MCTS-Solver in games"), "Turn off (on by default): MCTS-Solver in games");
        assert_eq!(turn_off_help(""), "Turn off (on by default): ");
    }
}
