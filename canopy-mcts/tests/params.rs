//! The declared search parameters: unique names, every default inside its declared range, values read
//! back as written, and out-of-range or malformed values refused with the range.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::param::{Kind, ParamError, Settings, Value};
use canopy_mcts::SearchParams;

#[test]
fn names_are_unique_and_lowercase() {
    let names: Vec<&str> = SearchParams::params().iter().map(|p| p.name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "{names:?}");
    assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')), "{names:?}");
}

#[test]
fn defaults_round_trip_through_their_text() {
    let defaults = SearchParams::default();
    for p in SearchParams::params() {
        let v = (p.get)(&defaults);
        if v == Value::Unset {
            continue;
        }
        let mut q = SearchParams::default();
        q.set(p.name, &v.to_string()).unwrap_or_else(|e| panic!("{}: default {v} refused: {e}", p.name));
        assert_eq!((p.get)(&q), v, "{}", p.name);
    }
}

#[test]
fn every_kind_refuses_what_is_outside_it() {
    for p in SearchParams::params() {
        let mut q = SearchParams::default();
        let bad: Vec<String> = match p.kind {
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
            Kind::Bytes { min, .. } => vec![(min - 1).to_string(), "12Q".into(), "-5".into()],
        };
        for b in bad {
            match q.set(p.name, &b) {
                Err(ParamError::Invalid { name, range, .. }) => {
                    assert_eq!(name, p.name);
                    assert_eq!(range, p.kind.describe());
                }
                other => panic!("{} accepted '{b}': {other:?}", p.name),
            }
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
