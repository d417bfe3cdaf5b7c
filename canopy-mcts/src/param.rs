//! Parameters declared once: a name, a range, a help line and how to read and write the value, for
//! every setting a user can give an agent. The command line's flags, the JSON `params` block, `match`'s
//! per-side `key=value` settings and `sweep`'s parameter names are all built from these declarations.
//!
//! A settings type (the engine's [`crate::SearchParams`], a game policy's knobs, a baseline's budget)
//! implements [`Settings`] by listing its [`Param`]s; [`Settings::set`] parses a value in the
//! declared form, checks its range and stores it; [`Settings::values`] reads them back.
//!
//! ```
//! use canopy_mcts::param::Settings;
//! use canopy_mcts::SearchParams;
//!
//! let mut p = SearchParams::default();
//! p.set("exploration", "0.7").unwrap();
//! p.set("tt", "false").unwrap();
//! assert_eq!(p.exploration, 0.7);
//! assert!(!p.transposition_table);
//! // Out of range, or not a value of the declared kind: one line naming the range.
//! assert!(p.set("threads", "0").unwrap_err().to_string().contains("a whole number from 1 to 1024"));
//! assert!(p.set("exploration", "nan").is_err());
//! assert!(p.set("no_such_thing", "1").is_err());
//! ```

use std::fmt;

/// The kind and range of a parameter's values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// A finite real number in `min..=max`.
    Real {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
    },
    /// `true` or `false` (also `on`/`off`, `yes`/`no`, `1`/`0`).
    Flag,
    /// One of the listed names (case-insensitive).
    Choice(&'static [&'static str]),
    /// A whole number in `min..=max`, or the word `none` for no limit (read back as [`Value::Unset`]).
    Limit {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
        /// The word that lifts the limit (`end`).
        none: &'static str,
    },
    /// A byte count with an optional binary suffix (`512MB`, `2GiB`; see
    /// [`crate::search::parse_bytes`]) in `min..=max` bytes.
    Bytes {
        /// Smallest value, bytes.
        min: u64,
        /// Largest value, bytes.
        max: u64,
    },
}

impl fmt::Display for Kind {
    /// The form of the values: `1..=1024`, `0..=100`, `true|false`, `uct|puct`, `64KiB..`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Int { min, max } => write!(f, "{}..={}", int_text(*min), int_text(*max)),
            Kind::Limit { min, max, none } => write!(f, "{}..={}|{none}", int_text(*min), int_text(*max)),
            Kind::Real { min, max } => write!(f, "{min}..={max}"),
            Kind::Flag => f.write_str("true|false"),
            Kind::Choice(names) => f.write_str(&names.join("|")),
            Kind::Bytes { min, max } if *max >= usize::MAX as u64 => write!(f, "{}..", byte_text(*min)),
            Kind::Bytes { min, max } => write!(f, "{}..={}", byte_text(*min), byte_text(*max)),
        }
    }
}

impl Kind {
    /// Whether `value`, as [`Param::get`] reads it back, is one this kind accepts: a whole number in
    /// range, a finite real number in range, any flag or listed choice, and `Unset` (a value
    /// not given, such as a search's playout limit left to its default).
    pub fn admits(&self, value: Value) -> bool {
        match (self, value) {
            (Kind::Int { min, max } | Kind::Bytes { min, max }, Value::Int(v)) => (*min..=*max).contains(&v),
            (Kind::Limit { min, max, .. }, Value::Int(v)) => (*min..=*max).contains(&v),
            // A value left unset (a limit that does not apply, an optional count not given).
            (_, Value::Unset) => true,
            (Kind::Real { min, max }, Value::Real(v)) => v.is_finite() && (*min..=*max).contains(&v),
            (Kind::Flag, Value::Flag(_)) => true,
            (Kind::Choice(names), Value::Choice(v)) => names.contains(&v),
            _ => false,
        }
    }

    /// The values in words, for error messages: `a whole number from 1 to 1024`, `a number from 0 to
    /// 100`, `true or false`, `one of uct, puct`, `a byte count of at least 64KiB`. A byte range without an
    /// upper bound (one up to the address space) is written with its lower bound alone.
    pub fn describe(&self) -> String {
        match self {
            Kind::Int { min, max } => format!("a whole number from {} to {}", int_text(*min), int_text(*max)),
            Kind::Limit { min, max, none } => {
                format!("a whole number from {} to {}, or {none}", int_text(*min), int_text(*max))
            }
            Kind::Real { min, max } => format!("a number from {min} to {max}"),
            Kind::Flag => "true or false".to_string(),
            Kind::Choice(names) => format!("one of {}", names.join(", ")),
            Kind::Bytes { min, max } if *max >= usize::MAX as u64 => {
                format!("a byte count of at least {} (e.g. 512MB, 2GiB)", byte_text(*min))
            }
            Kind::Bytes { min, max } => {
                format!("a byte count from {} to {} (e.g. 512MB, 2GiB)", byte_text(*min), byte_text(*max))
            }
        }
    }
}

/// A whole number as the help and errors write it: the largest 64- and 32-bit values (a seed's whole
/// range, a 32-bit count's) as `2^64-1` and `2^32-1`, which a reader checks at a glance, every other
/// number in digits.
pub fn int_text(n: u64) -> String {
    match n {
        u64::MAX => "2^64-1".to_string(),
        n if n == u64::from(u32::MAX) => "2^32-1".to_string(),
        n => n.to_string(),
    }
}

/// A byte count in the largest binary unit that divides it (`65536` → `64KiB`), or bare bytes
/// (`1000` → `1000 bytes`): how parameter ranges and their errors write byte counts.
pub fn byte_text(n: u64) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        if n >= 1 << shift && n % (1 << shift) == 0 {
            return format!("{}{unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

/// A parameter's value, as read back by [`Param::get`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A whole number (also a byte count).
    Int(u64),
    /// A real number.
    Real(f64),
    /// A flag.
    Flag(bool),
    /// A choice's name.
    Choice(&'static str),
    /// No value: the parameter is unset (a limit that does not apply).
    Unset,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Real(v) => write!(f, "{v}"),
            Value::Flag(v) => write!(f, "{v}"),
            Value::Choice(v) => f.write_str(v),
            Value::Unset => f.write_str("none"),
        }
    }
}

/// How a parameter stores a parsed, range-checked value into its settings type `T`.
pub enum Store<T> {
    /// For [`Kind::Int`] and [`Kind::Bytes`].
    Int(fn(&mut T, u64)),
    /// For [`Kind::Limit`]: `None` for the word that lifts the limit.
    Limit(fn(&mut T, Option<u64>)),
    /// For [`Kind::Real`].
    Real(fn(&mut T, f64)),
    /// For [`Kind::Flag`].
    Flag(fn(&mut T, bool)),
    /// For [`Kind::Choice`]: the index of the chosen name.
    Choice(fn(&mut T, usize)),
}

/// One declared parameter of settings type `T`.
pub struct Param<T> {
    /// The name: lowercase with underscores (`virtual_loss`). The command line writes it with hyphens
    /// (`--virtual-loss`); `match` and `sweep` take it as written here.
    pub name: &'static str,
    /// One line of help: what the value means and its unit.
    pub help: &'static str,
    /// The kind and range of the values.
    pub kind: Kind,
    /// Stores a checked value.
    pub store: Store<T>,
    /// Reads the current value.
    pub get: fn(&T) -> Value,
}

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has this name; the known names follow.
    #[error("unknown parameter '{name}' (known: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// The declared names, comma-separated.
        known: String,
    },
    /// The text is not a value of the parameter's kind, or is out of its range.
    #[error("{name}: {} is not {range}", shown(.value))]
    Invalid {
        /// The parameter.
        name: &'static str,
        /// The text given.
        value: String,
        /// The accepted values in words ([`Kind::describe`]).
        range: String,
    },
}

/// A refused value as an error message names it: the text given, or "an empty value" for an empty or
/// blank one.
pub fn shown(value: &str) -> &str {
    if value.trim().is_empty() {
        "an empty value"
    } else {
        value
    }
}

impl<T> Param<T> {
    /// The command-line flag: `--` and the name with hyphens.
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }

    /// Parses `text` in this parameter's form, checks the range, and stores it into `target`.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] with the declared range; `target` is unchanged then.
    pub fn apply(&self, target: &mut T, text: &str) -> Result<(), ParamError> {
        let t = text.trim();
        let invalid = || ParamError::Invalid { name: self.name, value: t.to_string(), range: self.kind.describe() };
        match (&self.kind, &self.store) {
            (Kind::Int { min, max }, Store::Int(store)) => {
                let v: u64 = t.parse().map_err(|_| invalid())?;
                if v < *min || v > *max {
                    return Err(invalid());
                }
                store(target, v);
            }
            (Kind::Limit { min, max, none }, Store::Limit(store)) => {
                if t.eq_ignore_ascii_case(none) {
                    store(target, None);
                } else {
                    let v: u64 = t.parse().map_err(|_| invalid())?;
                    if v < *min || v > *max {
                        return Err(invalid());
                    }
                    store(target, Some(v));
                }
            }
            (Kind::Bytes { min, max }, Store::Int(store)) => {
                let v = crate::search::parse_bytes(t).map_err(|_| invalid())? as u64;
                if v < *min || v > *max {
                    return Err(invalid());
                }
                store(target, v);
            }
            (Kind::Real { min, max }, Store::Real(store)) => {
                let v: f64 = t.parse().map_err(|_| invalid())?;
                if !v.is_finite() || v < *min || v > *max {
                    return Err(invalid());
                }
                // `-0` is the number 0: stored as `+0`.
                store(target, v + 0.0);
            }
            (Kind::Flag, Store::Flag(store)) => {
                let v = match t.to_ascii_lowercase().as_str() {
                    "true" | "on" | "yes" | "1" => true,
                    "false" | "off" | "no" | "0" => false,
                    _ => return Err(invalid()),
                };
                store(target, v);
            }
            (Kind::Choice(names), Store::Choice(store)) => {
                let i = names.iter().position(|n| n.eq_ignore_ascii_case(t)).ok_or_else(invalid)?;
                store(target, i);
            }
            _ => unreachable!("parameter {} declares a kind its store cannot take", self.name),
        }
        Ok(())
    }
}

/// A settings type whose parameters are declared once.
pub trait Settings: Sized + 'static {
    /// Every parameter, in the order help texts list them.
    fn params() -> &'static [Param<Self>];

    /// The parameter named `name` (underscores or hyphens).
    fn param(name: &str) -> Option<&'static Param<Self>> {
        let name = name.replace('-', "_");
        Self::params().iter().find(|p| p.name == name)
    }

    /// Sets parameter `name` from `text`.
    ///
    /// # Errors
    /// [`ParamError::Unknown`] for a name no parameter has; [`ParamError::Invalid`] for a value out of
    /// range or of the wrong kind.
    fn set(&mut self, name: &str, text: &str) -> Result<(), ParamError> {
        let p = Self::param(name).ok_or_else(|| ParamError::Unknown {
            name: name.to_string(),
            known: Self::params().iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
        })?;
        p.apply(self, text)
    }

    /// The current value of every parameter, in declaration order.
    fn values(&self) -> Vec<(&'static str, Value)> {
        Self::params().iter().map(|p| (p.name, (p.get)(self))).collect()
    }

    /// Checks every parameter's current value against its declared range, as [`Settings::set`] checks
    /// a value given as text: for settings built in code (struct literals, fields written directly),
    /// which `set` never sees.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] for the first parameter, in declaration order, whose value is out of its
    /// range or not finite, with the value as [`Value`] writes it and the range in words.
    fn check(&self) -> Result<(), ParamError> {
        for p in Self::params() {
            let value = (p.get)(self);
            if !p.kind.admits(value) {
                return Err(ParamError::Invalid { name: p.name, value: value.to_string(), range: p.kind.describe() });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_ranges_read_in_binary_units_and_an_open_range_names_its_lower_bound_alone() {
        let open = Kind::Bytes { min: 64 << 10, max: usize::MAX as u64 };
        assert_eq!(open.describe(), "a byte count of at least 64KiB (e.g. 512MB, 2GiB)");
        assert_eq!(open.to_string(), "64KiB..");
        let closed = Kind::Bytes { min: 1000, max: 3 << 30 };
        assert_eq!(closed.describe(), "a byte count from 1000 bytes to 3GiB (e.g. 512MB, 2GiB)");
        assert_eq!(closed.to_string(), "1000 bytes..=3GiB");
        assert_eq!(byte_text(1536 << 20), "1536MiB");
        assert_eq!(byte_text(1 << 40), "1TiB");
    }

    #[test]
    fn the_whole_u64_range_reads_as_a_power_of_two() {
        let seed = Kind::Int { min: 0, max: u64::MAX };
        assert_eq!(seed.to_string(), "0..=2^64-1");
        assert_eq!(seed.describe(), "a whole number from 0 to 2^64-1");
        let count = Kind::Int { min: 1, max: u64::from(u32::MAX) };
        assert_eq!(count.to_string(), "1..=2^32-1");
        let threads = Kind::Int { min: 1, max: 1024 };
        assert_eq!(threads.to_string(), "1..=1024");
        assert_eq!(threads.describe(), "a whole number from 1 to 1024");
    }
}
