//! Helpers shared by the command-line tests: run the `canopy` binary and read what it printed.

// Each test file is its own crate and uses only some of these helpers.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs `canopy` with `args` and waits for it.
pub fn canopy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_canopy")).args(args).output().expect("run canopy")
}

/// Runs `canopy` with `args`, which must succeed, and reads its standard output as one JSON value.
pub fn json(args: &[&str]) -> Value {
    let out = canopy(args);
    assert!(out.status.success(), "canopy {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Runs `canopy` with `args`, which must succeed, and returns its standard output.
pub fn text(args: &[&str]) -> String {
    let out = canopy(args);
    assert!(out.status.success(), "canopy {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs `canopy` with `args`, which must be refused as bad input: exit status 2, nothing on standard
/// output, one line on standard error. Returns that line.
pub fn refused(args: &[&str]) -> String {
    let out = canopy(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: stderr should be one line: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout, got {}", String::from_utf8_lossy(&out.stdout));
    err.trim_end().to_string()
}

/// A new directory `canopy-TAG-PID` in the system's temporary directory, for the files a test writes;
/// the test removes it.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("canopy-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}
