//! The declared parameters (the engine's search parameters, Gomoku's brain settings, the 2048 agents'
//! own): unique names, every default inside its declared range, values read back as written, and
//! out-of-range or malformed values refused with the range.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::g2048::agents::{AgentConfig, AgentKind};
use canopy_mcts::games::gomoku::Tuning;
use canopy_mcts::param::{Kind, ParamError, Settings, Value};
use canopy_mcts::SearchParams;

/// Runs `check` on every declared table, each with a fresh value of its type.
fn every_table(check: fn(&dyn Fn() -> Box<dyn Table>)) {
    check(&|| Box::new(SearchParams::default()));
    check(&|| Box::new(Tuning::default()));
    for kind in AgentKind::ALL {
        check(&move || Box::new(AgentConfig::new(kind)));
    }
}

/// A settings type seen through its declarations, so that one test covers every table.
trait Table {
    fn names(&self) -> Vec<&'static str>;
    fn kind(&self, name: &str) -> Kind;
    fn get(&self, name: &str) -> Value;
    fn put(&mut self, name: &str, text: &str) -> Result<(), ParamError>;
    fn check_all(&self) -> Result<(), ParamError>;
}

impl<T: Settings> Table for T {
    fn names(&self) -> Vec<&'static str> {
        T::params().iter().map(|p| p.name).collect()
    }
    fn kind(&self, name: &str) -> Kind {
        T::param(name).unwrap().kind
    }
    fn get(&self, name: &str) -> Value {
        (T::param(name).unwrap().get)(self)
    }
    fn put(&mut self, name: &str, text: &str) -> Result<(), ParamError> {
        self.set(name, text)
    }
    fn check_all(&self) -> Result<(), ParamError> {
        Settings::check(self)
    }
}

#[test]
fn names_are_unique_and_lowercase() {
    every_table(|fresh| {
        let names = fresh().names();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')), "{names:?}");
    });
}

#[test]
fn every_default_round_trips_through_its_text() {
    every_table(|fresh| {
        let defaults = fresh();
        for name in defaults.names() {
            let v = defaults.get(name);
            if v == Value::Unset {
                continue;
            }
            let mut q = fresh();
            q.put(name, &v.to_string()).unwrap_or_else(|e| panic!("{name}: default {v} refused: {e}"));
            assert_eq!(q.get(name), v, "{name}");
        }
    });
}

#[test]
fn defaults_and_every_value_set_from_text_pass_the_check_of_values_built_in_code() {
    every_table(|fresh| {
        assert_eq!(fresh().check_all(), Ok(()), "defaults");
        for name in fresh().names() {
            let kind = fresh().kind(name);
            let ends: Vec<String> = match kind {
                Kind::Int { min, max } | Kind::Limit { min, max, .. } | Kind::Bytes { min, max } => {
                    vec![min.to_string(), max.min(usize::MAX as u64).to_string()]
                }
                Kind::Real { min, max } => vec![min.to_string(), max.to_string()],
                Kind::Flag => vec!["true".into(), "false".into()],
                Kind::Choice(names) => names.iter().map(|n| n.to_string()).collect(),
            };
            for text in ends {
                let mut q = fresh();
                q.put(name, &text).unwrap_or_else(|e| panic!("{name} = {text}: {e}"));
                assert_eq!(q.check_all(), Ok(()), "{name} = {text}");
                assert!(kind.admits(q.get(name)), "{name} = {text}");
            }
        }
    });
}

#[test]
fn search_params_built_in_code_out_of_range_fail_the_check_with_the_flags_wording() {
    let ok = SearchParams::default();
    let refused = |p: SearchParams| p.check().unwrap_err().to_string();
    assert_eq!(refused(SearchParams { threads: 0, ..ok.clone() }), "threads: 0 is not a whole number from 1 to 1024");
    assert_eq!(
        refused(SearchParams { exploration: f64::NAN, ..ok.clone() }),
        "exploration: NaN is not a number from 0 to 100"
    );
    assert_eq!(
        refused(SearchParams { exploration: f64::INFINITY, ..ok.clone() }),
        "exploration: inf is not a number from 0 to 100"
    );
    assert_eq!(refused(SearchParams { min_span: -0.5, ..ok.clone() }), "min_span: -0.5 is not a number from 0 to 1");
    assert_eq!(
        refused(SearchParams { playouts: Some(0), ..ok.clone() }),
        "playouts: 0 is not a whole number from 1 to 1000000000000"
    );
    assert_eq!(
        refused(SearchParams { time_ms: Some(0), ..ok.clone() }),
        "time: 0 is not a whole number from 1 to 1000000000"
    );
    assert_eq!(
        refused(SearchParams { memory_bytes: 1000, ..ok.clone() }),
        "memory: 1000 is not a byte count of at least 64KiB (e.g. 512MB, 2GiB)"
    );
    assert_eq!(
        refused(SearchParams { batch_plies: 3, ..ok.clone() }),
        "batch_plies: 3 is not a whole number from 0 to 2"
    );
    // The first parameter out of range, in declaration order.
    assert!(refused(SearchParams { threads: 0, exploration: f64::NAN, ..ok.clone() }).starts_with("threads:"));
    // Limits left unset are no limits.
    assert_eq!(SearchParams { playouts: None, time_ms: None, ..ok }.check(), Ok(()));
}

#[test]
fn a_limit_takes_its_word_for_no_limit() {
    let mut c = AgentConfig::new(AgentKind::Mcts);
    assert_eq!(c.policy.rollout.depth, Some(1));
    c.set("rollout_depth", "END").unwrap();
    assert_eq!(c.policy.rollout.depth, None);
    assert_eq!(Table::get(&c, "rollout_depth"), Value::Unset);
    c.set("rollout_depth", "7").unwrap();
    assert_eq!(c.policy.rollout.depth, Some(7));
    // egreedy on an agent with random rollouts takes the default epsilon; random sets epsilon 1.
    let mut flat = AgentConfig::new(AgentKind::Flat);
    flat.set("rollout", "egreedy").unwrap();
    assert_eq!(flat.policy.rollout.epsilon, canopy_mcts::games::g2048::agents::DEFAULT_EPSILON);
    flat.set("rollout", "random").unwrap();
    assert_eq!(flat.policy.rollout.epsilon, 1.0);
}

#[test]
fn every_kind_refuses_what_is_outside_it() {
    every_table(|fresh| {
        for name in fresh().names() {
            refuses_what_is_outside(fresh().kind(name), name, fresh);
        }
    });
}

/// Values outside `kind` for parameter `name` are refused with the declared range, leaving it as it was.
fn refuses_what_is_outside(kind: Kind, name: &str, fresh: &dyn Fn() -> Box<dyn Table>) {
    {
        let mut q = fresh();
        let bad: Vec<String> = match kind {
            Kind::Int { min, max } => {
                let mut b = vec!["-1".to_string(), "x".to_string(), "1.5".to_string()];
                if min > 0 {
                    b.push((min - 1).to_string());
                }
                if max < u64::MAX {
                    b.push((max + 1).to_string());
                }
                b
            }
            Kind::Real { max, .. } => {
                vec!["nan".into(), "inf".into(), "-1".into(), (max * 2.0).to_string()]
            }
            Kind::Flag => vec!["maybe".into(), "2".into()],
            Kind::Choice(_) => vec!["none-of-them".into()],
            Kind::Limit { max, .. } => vec!["-1".into(), "x".into(), "none-of-them".into(), (max + 1).to_string()],
            Kind::Bytes { min, .. } => vec![(min - 1).to_string(), "12Q".into(), "-5".into()],
        };
        for b in bad {
            let before = q.get(name);
            match q.put(name, &b) {
                Err(ParamError::Invalid { name: refused, range, .. }) => {
                    assert_eq!(refused, name);
                    assert_eq!(range, kind.describe());
                }
                other => panic!("{name} accepted '{b}': {other:?}"),
            }
            assert_eq!(q.get(name), before, "{name}: a refused value leaves the setting as it was");
        }
    }
}

#[test]
fn names_with_hyphens_and_unknown_names() {
    let mut p = SearchParams::default();
    p.set("virtual-loss", "3").unwrap();
    assert_eq!(p.virtual_loss, 3);
    p.set("memory", "64MiB").unwrap();
    assert_eq!(p.memory_bytes, 64 << 20);
    p.set("backup", "MAX").unwrap();
    assert_eq!(p.backup, canopy_mcts::search::Backup::Max);
    match p.set("explore", "1") {
        Err(ParamError::Unknown { known, .. }) => assert!(known.contains("exploration")),
        other => panic!("{other:?}"),
    }
}
