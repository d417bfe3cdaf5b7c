//! Building a 2048 agent's configuration from the options, and describing it.

use serde_json::{json, Value};

use super::G2048Args;
use crate::compare;
use crate::{input_error, AgentName, SearchArgs};
use canopy_mcts::games::g2048::agents::{AgentConfig, AgentKind};
use canopy_mcts::games::g2048::eval::Evaluation;
use canopy_mcts::games::g2048::RolloutPolicy;
use canopy_mcts::param::Settings;
use canopy_mcts::search::Selection;

/// The library's agent for a command-line agent name, or an input error for a Snake-only agent.
///
/// # Errors
/// [`crate::InputError`] for `tailfollow` and `hamilton`.
pub fn agent_kind(name: AgentName) -> anyhow::Result<AgentKind> {
    Ok(match name {
        AgentName::Mcts => AgentKind::Mcts,
        AgentName::Expectimax => AgentKind::Expectimax,
        AgentName::Flat => AgentKind::Flat,
        AgentName::Greedy => AgentKind::Greedy,
        AgentName::Random => AgentKind::Random,
        AgentName::Tailfollow | AgentName::Hamilton | AgentName::Threat => {
            return Err(input_error("2048 agents are mcts, expectimax, flat, greedy and random"))
        }
    })
}

/// The agent's name as tables print it.
pub fn agent_label(name: AgentName) -> String {
    agent_kind(name).map_or_else(|_| format!("{name:?}").to_lowercase(), |k| k.name().to_string())
}

/// The 2048 and search options given on the command line that none of `agents` uses, as their flags
/// (which agent reads which option is the library's [`AgentKind::uses`]; `--seed` counts as used by all:
/// it also seeds the tile spawns of `play`).
pub fn unused_options(agents: &[AgentKind], search: &SearchArgs, g: &G2048Args) -> Vec<String> {
    let reference = AgentConfig::new(AgentKind::Mcts);
    let own = g.given.iter().map(|(name, _)| (*name, crate::params::flag_of(name, &reference)));
    search
        .given_flags()
        .chain(own)
        .filter(|(name, _)| *name != "seed" && !agents.iter().any(|a| a.uses(name)))
        .map(|(_, flag)| flag)
        .collect()
}

/// Prints one warning line on stderr when options were given that none of `agents` uses (see
/// [`unused_options`]; `eval_given`: whether --eval was given), so that an ignored option is never
/// silent.
///
/// # Errors
/// An input error for a snake agent name.
pub fn warn_unused_options(
    agents: &[AgentName],
    search: &SearchArgs,
    g: &G2048Args,
    eval_given: bool,
) -> anyhow::Result<()> {
    let kinds = agents.iter().map(|&a| agent_kind(a)).collect::<anyhow::Result<Vec<_>>>()?;
    let mut unused = unused_options(&kinds, search, g);
    if eval_given && !kinds.iter().any(|k| k.uses("eval")) {
        unused.push("--eval".to_string());
    }
    if !unused.is_empty() {
        let names: Vec<String> = agents.iter().map(|&a| agent_label(a)).collect();
        match names.as_slice() {
            [one] => eprintln!("warning: {one} does not use {}; ignored", unused.join(", ")),
            many => eprintln!("warning: none of {} uses {}; ignored", many.join(", "), unused.join(", ")),
        }
    }
    Ok(())
}

/// The configuration of agent `name` from the options: the search options, the 2048 options on top
/// of the agent's defaults ([`AgentConfig::new`]) and the evaluation of `--eval` (`None`: the
/// hand-written heuristic).
///
/// # Errors
/// An [`crate::InputError`] when --epsilon is given with --rollout random, or a positive
/// --prior-temperature without --selection puct.
pub fn agent_config(
    name: AgentName,
    search: &SearchArgs,
    g: &G2048Args,
    eval: Option<Evaluation>,
    default_playouts: u64,
) -> anyhow::Result<AgentConfig> {
    let kind = agent_kind(name)?;
    let defaults = AgentConfig::new(kind);
    let mut params = search.params(default_playouts);
    if search.exploration.is_none() {
        params.exploration = defaults.search.exploration;
    }
    if search.backup.is_none() {
        params.backup = defaults.search.backup;
    }
    if g.has("epsilon") && g.given.iter().any(|(name, text)| *name == "rollout" && text.eq_ignore_ascii_case("random"))
    {
        return Err(input_error("--epsilon applies to --rollout egreedy, not --rollout random"));
    }
    let mut config = defaults.clone();
    g.apply_to(&mut config);
    if kind == AgentKind::Mcts && config.policy.prior_temperature > 0.0 && params.selection != Selection::Puct {
        return Err(input_error("--prior-temperature applies to --selection puct (UCT reads no priors)"));
    }
    if let Some(e) = eval {
        config.policy.evaluation = e;
    }
    let cache_slots = {
        let by_memory = (search.memory / 16).max(1);
        let by_memory = if by_memory.is_power_of_two() { by_memory } else { by_memory.next_power_of_two() / 2 };
        defaults.cache_slots.min(by_memory)
    };
    Ok(AgentConfig { kind, search: params, cache_slots, ..config })
}

/// The options after setting `param` to `value` (as its option would read it).
///
/// # Errors
/// A one-line message when the value does not parse or lies outside the option's range.
pub fn with_param(
    search: &SearchArgs,
    g: &G2048Args,
    param: compare::Swept,
    value: &str,
) -> Result<(SearchArgs, G2048Args), String> {
    let (s, mut g) = (search.clone(), g.clone());
    let v = value.trim();
    match param {
        compare::Swept::Search(name) => return Ok((s.with(name, v)?, g)),
        compare::Swept::Agent(name) => {
            let declared = AgentConfig::param(name).expect("a declared name");
            declared.apply(&mut g.settings, v).map_err(|e| e.to_string())?;
            g.given.retain(|(n, _)| *n != name);
            g.given.push((declared.name, v.to_string()));
        }
    }
    Ok((s, g))
}

/// The configuration as one line of text.
pub fn config_line(c: &AgentConfig) -> String {
    let p = &c.search;
    let playouts = |n: u64| format!("{n} playout{}", if n == 1 { "" } else { "s" });
    let limit = match (p.time_ms, p.playouts) {
        (Some(t), Some(n)) => format!("{t} ms or {} per move", playouts(n)),
        (Some(t), None) => format!("{t} ms per move"),
        (None, Some(n)) => format!("{} per move", playouts(n)),
        (None, None) => "no limit".to_string(),
    };
    let rollout = rollout_text(&c.policy.rollout);
    // PUCT's priors and the normalisation floor, named only when they are in use.
    let selection = match p.selection {
        Selection::Puct => format!("puct (prior temperature {}), ", c.policy.prior_temperature),
        Selection::Uct => String::new(),
    };
    let floor = if p.min_span > 0.0 { format!(", min span {}", p.min_span) } else { String::new() };
    // Root batching acts only with several threads, so it is named only then.
    let batching = if p.threads > 1 { format!(", batch plies {}", p.batch_plies) } else { String::new() };
    let line = match c.kind {
        AgentKind::Mcts => format!(
            "{limit}, {}, {selection}C {}{floor}, {:?} backup, virtual loss {}{batching}, expand threshold {}, \
             chance {:?}, {:?} statistics, rollout {rollout}, seed {}, tree {}",
            threads(p.threads),
            p.exploration,
            p.backup,
            p.virtual_loss,
            p.expand_threshold,
            p.chance,
            p.statistics,
            p.seed,
            if c.reuse { "kept between moves" } else { "new every move" }
        )
        .to_lowercase(),
        AgentKind::Expectimax => {
            let depth = match (c.expectimax.depth, p.time_ms) {
                (Some(d), Some(t)) => format!("iterative deepening to depth {d} within {t} ms"),
                (Some(d), None) => format!("depth {d}"),
                (None, Some(t)) => format!("iterative deepening within {t} ms"),
                (None, None) => "depth max(4, distinct tiles - 1)".to_string(),
            };
            format!(
                "{depth}, probability cut-off {}, cache {} entries, {}",
                c.expectimax.prob_cutoff,
                c.cache_slots,
                threads(p.threads)
            )
        }
        AgentKind::Flat => format!("{limit} (rollouts, all moves), {}, rollout {rollout}", threads(p.threads)),
        AgentKind::Greedy => "best merge score + evaluation of the afterstate".to_string(),
        AgentKind::Random => "uniformly random legal move".to_string(),
    };
    match c.policy.evaluation {
        Evaluation::NTuple(n) if c.kind != AgentKind::Random => match super::network_source(n) {
            Some(source) => format!("{line}; evaluation: n-tuple network {source}"),
            None => format!("{line}; evaluation: n-tuple network"),
        },
        _ => line,
    }
}

/// "1 thread", "2 threads".
fn threads(n: usize) -> String {
    plural(n as u64, "thread")
}

/// "1 move", "0 moves", "2 moves".
fn plural(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn rollout_text(r: &RolloutPolicy) -> String {
    let moves = if r.epsilon >= 1.0 { "random".to_string() } else { format!("egreedy epsilon {}", r.epsilon) };
    match r.depth {
        Some(d) if r.leaf_depth > 0 => {
            format!(
                "{moves}, truncated after {} + depth-{} expectimax of the evaluation",
                plural(d, "move"),
                r.leaf_depth
            )
        }
        Some(d) => format!("{moves}, truncated after {} + evaluation", plural(d, "move")),
        None => format!("{moves} to the end"),
    }
}

/// The search parameters of the MCTS agent's tree search as the `params` of a JSON report (those 2048
/// takes); null for the other agents, which run no tree search (their settings are in
/// [`config_json`]), as Snake's reports give them.
pub fn params_json(c: &AgentConfig) -> Value {
    if c.kind != AgentKind::Mcts {
        return Value::Null;
    }
    crate::params::to_json(&c.search, <crate::search_args::For2048 as crate::search_args::Profile>::SKIP)
}

/// The configuration as JSON.
pub fn config_json(c: &AgentConfig) -> Value {
    json!({
        "agent": c.kind,
        "search": crate::params::to_json(&c.search, <crate::search_args::For2048 as crate::search_args::Profile>::SKIP),
        "rollout": c.policy.rollout,
        "expectimax": c.expectimax,
        "cache_slots": c.cache_slots,
        "reuse": c.reuse,
        "prior_temperature": c.policy.prior_temperature,
        "evaluation": c.policy.evaluation.name(),
        "weights": c.policy.evaluation.heuristic().map(|h| h.weights()),
        "network": match c.policy.evaluation {
            Evaluation::NTuple(n) => super::network_source(n),
            Evaluation::Heuristic(_) => None,
        },
    })
}
