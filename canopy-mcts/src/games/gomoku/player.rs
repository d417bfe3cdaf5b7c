//! Players that choose a move for the side to move, behind one type, and whole games between two of them:
//! what `canopy match gomoku` and the Gomocup protocol use.
//!
//! [`Player::Mcts`] answers a forced move ([`forced_move`]: win now, or block a five) and its own
//! victory by continuous fours ([`super::vcf`]) without searching; otherwise it runs the tree search with
//! the [`GomokuPolicy`] of its [`Tuning`] (threat pruning, rollout policy, radii), over the moves that defuse
//! the opponent's sequence of fours when it has one. Whatever a player returns is checked: a cell that
//! is off the board or occupied is never played; the [`threat`] player's choice, then the first empty
//! cell, stand in for it. docs/gomoku.md measures each setting.
//!
//! In a game ([`crate::agent::play_game`]) a player is a [`PlayerAgent`]: its MCTS keeps the search tree
//! from move to move ([`Tuning::reuse`]), re-rooted on both sides' moves.

use std::time::{Duration, Instant};

use super::agents::{flat, forced_move, random, threat};
use super::board::{Cell, GomokuState};
use super::playout::RolloutPolicy;
use super::tactics::vcf_until;
use super::vct::vct_until;
use super::{
    Gomoku, GomokuPolicy, DEFAULT_PRIOR_TEMPERATURE, DEFAULT_RADIUS, DEFAULT_ROLLOUT_RADIUS, MAX_SIZE,
    PRIOR_TEMPERATURES,
};
use crate::agent::{Agent, Context, Decision, How};
use crate::game::Game;
use crate::param::{Kind, Param, Settings, Store, Value};
use crate::policy::{Coverage, Policy};
use crate::rng::Rng;
use crate::search::{
    Event, Follower, Limits, Proof, Search, SearchParams, SearchReport, Selection, Session, Statistics,
};
use crate::sync::AtomicBool;

/// The UCT exploration constant Gomoku's commands use with `--selection uct` unless told otherwise:
/// lower than the engine's default 1.0, because the win rates of Gomoku's many candidates differ by a
/// few hundredths and a wide exploration term spreads the playouts almost evenly over them (measured in
/// docs/gomoku.md).
pub const DEFAULT_EXPLORATION: f64 = 0.5;

/// The PUCT exploration constant Gomoku's commands use with [`Selection::Puct`] (their default
/// selection) unless told otherwise: the best of 1, 2 and 4 in self-play at fixed playouts
/// (docs/gomoku.md). PUCT's term `C·P·sqrt(N) / (1 + n)` is smaller than UCT's for the same `C` (the
/// priors `P` sum to 1), hence the larger constant.
pub const DEFAULT_PUCT_EXPLORATION: f64 = 2.0;

/// The selection formula Gomoku's commands and the Gomocup brain use unless told otherwise: PUCT with
/// the pattern priors of [`GomokuPolicy`], which beat UCT in self-play at the same playouts and at the
/// same time per move (docs/gomoku.md).
pub const DEFAULT_SELECTION: Selection = Selection::Puct;

/// Gomoku's default exploration constant for `selection`: [`DEFAULT_EXPLORATION`] for UCT,
/// [`DEFAULT_PUCT_EXPLORATION`] for PUCT.
pub fn default_exploration(selection: Selection) -> f64 {
    match selection {
        Selection::Uct => DEFAULT_EXPLORATION,
        Selection::Puct => DEFAULT_PUCT_EXPLORATION,
    }
}

/// The engine's default search parameters with Gomoku's selection ([`DEFAULT_SELECTION`]), its
/// exploration constant ([`default_exploration`]) and [`DEFAULT_STATISTICS`].
pub fn default_search_params() -> SearchParams {
    SearchParams {
        selection: DEFAULT_SELECTION,
        exploration: default_exploration(DEFAULT_SELECTION),
        statistics: DEFAULT_STATISTICS,
        ..SearchParams::default()
    }
}

/// Gomoku keeps UCT's means in the nodes ([`Statistics::Node`], UCT2: transposed positions pool their
/// playouts), not in the edges as the engine's default does: on two threads at equal playouts the edges'
/// means ran no faster on Gomoku and scored 0.483 against the nodes' over 90 games of 15x15 (20 000
/// playouts a move; docs/BENCHMARKS.md, "Throughput at hot roots", item 16).
pub const DEFAULT_STATISTICS: Statistics = Statistics::Node;

/// Default rollouts per candidate move of [`Player::Flat`].
pub const DEFAULT_FLAT_ROLLOUTS: u32 = 100;

/// How [`Player::Mcts`] searches: the settings of its [`GomokuPolicy`] and the checks it makes before a
/// search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Answer a forced move ([`forced_move`]: win now, block a five) or the only candidate without a
    /// search. Default true.
    pub forced_answer: bool,
    /// Threat pruning in the tree ([`GomokuPolicy::with_threat_pruning`]). Default true.
    pub threat_pruning: bool,
    /// The rollout policy. Default [`RolloutPolicy::Attacks`].
    pub policy: RolloutPolicy,
    /// Candidate radius ([`GomokuPolicy::with_radius`]). Default [`DEFAULT_RADIUS`].
    pub radius: usize,
    /// Quiet radius ([`GomokuPolicy::with_quiet_radius`]); `None`: the candidate radius (off). Default
    /// `Some(1)`: in quiet positions, cells two away from every stone are searched only when they make or
    /// stop a four or an open three.
    pub quiet_radius: Option<usize>,
    /// Rollout radius ([`GomokuPolicy::with_rollout_radius`]). Default [`DEFAULT_ROLLOUT_RADIUS`].
    pub rollout_radius: usize,
    /// Before searching, look for a victory by continuous fours ([`super::vcf`]) of the side to move,
    /// then by continuous threats (fours and open threes, module `vct`; not under renju), and play it;
    /// and for the opponent's victory by fours (and search only the moves that defuse it). Default true.
    pub threat_search: bool,
    /// In a game ([`PlayerAgent`]), keep the search tree from move to move: the player's move and the
    /// opponent's reply re-root it ([`Session::advance`]), so that a search starts from what the last
    /// ones learnt about the position. A root restricted to the defences against a sequence of fours is
    /// searched on the kept tree too ([`Session::restrict_root`]). The Gomocup brain keeps its tree between
    /// turns the same way. Default true.
    pub reuse: bool,
    /// Temperature of the pattern priors PUCT selection uses ([`GomokuPolicy::with_prior_temperature`];
    /// UCT ignores them). Default [`DEFAULT_PRIOR_TEMPERATURE`].
    pub prior_temperature: f64,
    /// The refutation check after a search ([`Tuning::refuted_best`]): the node budget of the search for
    /// the opponent's victory by threats after each of the search's best moves; 0 turns the check off.
    /// A time-limited move keeps [`REFUTE_SHARE`] of its time for the check; a move without a time limit
    /// gives it at most as many nodes per move checked as the search ran playouts. Default
    /// [`DEFAULT_REFUTE`].
    pub refute: u64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            forced_answer: true,
            threat_pruning: true,
            policy: RolloutPolicy::Attacks,
            radius: DEFAULT_RADIUS,
            quiet_radius: Some(1),
            rollout_radius: DEFAULT_ROLLOUT_RADIUS,
            threat_search: true,
            reuse: true,
            prior_temperature: DEFAULT_PRIOR_TEMPERATURE,
            refute: DEFAULT_REFUTE,
        }
    }
}

/// The rollout policies by the names [`Tuning`]'s `policy` parameter takes.
const ROLLOUT_POLICIES: [(&str, RolloutPolicy); 4] = [
    ("basic", RolloutPolicy::Basic),
    ("threats", RolloutPolicy::Threats),
    ("attacks", RolloutPolicy::Attacks),
    ("uniform", RolloutPolicy::Uniform),
];

/// [`Tuning`]'s parameters, declared once (see [`crate::param`]): `match`'s per-side settings read them.
static TUNING_PARAMS: &[Param<Tuning>] = &[
    Param {
        name: "forced",
        help: "Answer a forced move (win now, block a five, the only candidate) without a search",
        kind: Kind::Flag,
        store: Store::Flag(|t, v| t.forced_answer = v),
        get: |t| Value::Flag(t.forced_answer),
    },
    Param {
        name: "vcf",
        help: "Look for victories by continuous fours of both sides before searching",
        kind: Kind::Flag,
        store: Store::Flag(|t, v| t.threat_search = v),
        get: |t| Value::Flag(t.threat_search),
    },
    Param {
        name: "pruning",
        help: "Threat pruning of the candidate moves in the tree",
        kind: Kind::Flag,
        store: Store::Flag(|t, v| t.threat_pruning = v),
        get: |t| Value::Flag(t.threat_pruning),
    },
    Param {
        name: "policy",
        help: "Rollout policy: basic, threats, attacks or uniform",
        kind: Kind::Choice(&["basic", "threats", "attacks", "uniform"]),
        store: Store::Choice(|t, i| t.policy = ROLLOUT_POLICIES[i].1),
        get: |t| Value::Choice(ROLLOUT_POLICIES.iter().find(|(_, p)| *p == t.policy).map_or("attacks", |(n, _)| n)),
    },
    Param {
        name: "radius",
        help: "Candidate radius: cells within this distance of a stone are searched",
        kind: Kind::Int { min: 1, max: MAX_SIZE as u64 },
        store: Store::Int(|t, v| t.radius = v as usize),
        get: |t| Value::Int(t.radius as u64),
    },
    Param {
        name: "quiet_radius",
        help: "Candidate radius in quiet positions (cells farther out only when they make or stop a threat)",
        kind: Kind::Int { min: 1, max: MAX_SIZE as u64 },
        store: Store::Int(|t, v| t.quiet_radius = Some(v as usize)),
        get: |t| t.quiet_radius.map_or(Value::Unset, |r| Value::Int(r as u64)),
    },
    Param {
        name: "rollout_radius",
        help: "Rollout radius: rollout moves within this distance of a stone",
        kind: Kind::Int { min: 1, max: MAX_SIZE as u64 },
        store: Store::Int(|t, v| t.rollout_radius = v as usize),
        get: |t| Value::Int(t.rollout_radius as u64),
    },
    Param {
        name: "reuse",
        help: "Keep the search tree from move to move (re-rooted on both sides' moves)",
        kind: Kind::Flag,
        store: Store::Flag(|t, v| t.reuse = v),
        get: |t| Value::Flag(t.reuse),
    },
    Param {
        name: "prior_temperature",
        help: "Temperature of the pattern priors of PUCT selection (larger: flatter; UCT ignores them)",
        kind: Kind::Real { min: *PRIOR_TEMPERATURES.start(), max: *PRIOR_TEMPERATURES.end() },
        store: Store::Real(|t, v| t.prior_temperature = v),
        get: |t| Value::Real(t.prior_temperature),
    },
    Param {
        name: "refute",
        help: "After the search, check its best moves for the opponent's victory by threats within N nodes each \
               and play the first without one (0: off; a timed move keeps a fifth of its time for it, an untimed \
               one at most the search's playouts in nodes)",
        kind: Kind::Int { min: 0, max: 100_000_000 },
        store: Store::Int(|t, v| t.refute = v),
        get: |t| Value::Int(t.refute),
    },
];

impl Settings for Tuning {
    fn params() -> &'static [Param<Tuning>] {
        TUNING_PARAMS
    }
}

impl Tuning {
    /// The search policy with these settings.
    ///
    /// # Panics
    /// Panics when a radius is 0 or above `MAX_SIZE`, or the prior temperature is outside
    /// [`PRIOR_TEMPERATURES`].
    pub fn policy(&self) -> GomokuPolicy {
        GomokuPolicy::default()
            .with_threat_pruning(self.threat_pruning)
            .with_rollout_policy(self.policy)
            .with_radius(self.radius)
            .with_quiet_radius(self.quiet_radius.unwrap_or(self.radius))
            .with_rollout_radius(self.rollout_radius)
            .with_prior_temperature(self.prior_temperature)
    }
}

/// A move chooser.
#[derive(Clone, Debug)]
pub enum Player {
    /// The tree search with these parameters and settings.
    Mcts {
        /// Search parameters of every move (the caller varies the seed per move).
        params: SearchParams,
        /// The search policy's settings and the checks before a search.
        tuning: Tuning,
    },
    /// Flat Monte Carlo with this many rollouts per candidate move ([`flat`]).
    Flat {
        /// Rollouts per candidate move, >= 1.
        rollouts: u32,
    },
    /// The one-ply threat scorer ([`threat`]).
    Threat,
    /// A uniform draw among the candidates ([`random`]).
    Random,
}

impl Player {
    /// Short name: `mcts`, `flat`, `threat` or `random`.
    pub fn name(&self) -> &'static str {
        match self {
            Player::Mcts { .. } => "mcts",
            Player::Flat { .. } => "flat",
            Player::Threat => "threat",
            Player::Random => "random",
        }
    }

    /// The player's move for the side to move of the non-terminal `state`, or `None` when the position is
    /// terminal. The move is always an empty cell of the board. `stop` ends a search early (the
    /// protocol's END); `rng` drives the baselines and the fallbacks. A search starts from a new tree
    /// ([`PlayerAgent`] keeps one between the moves of a game).
    pub fn choose(&self, game: &Gomoku, state: &GomokuState, rng: &mut Rng, stop: Option<&AtomicBool>) -> Option<Move> {
        self.choose_on(game, state, rng, stop, None)
    }

    /// [`Player::choose`], searching on the kept tree in `tree` when given and [`Tuning::reuse`] is on (a
    /// new one when it does not stand for `state`).
    fn choose_on(
        &self,
        game: &Gomoku,
        state: &GomokuState,
        rng: &mut Rng,
        stop: Option<&AtomicBool>,
        tree: Option<&mut Follower<Gomoku, GomokuPolicy>>,
    ) -> Option<Move> {
        if state.is_terminal() {
            return None;
        }
        let start = Instant::now();
        let (cell, how, report) = match self {
            Player::Mcts { params, tuning } => mcts_move(game, state, params, tuning, (stop, tree), start),
            Player::Flat { rollouts } => (flat(game, state, *rollouts, rng), How::Baseline, None),
            Player::Threat => (threat(game, state, rng), How::Baseline, None),
            Player::Random => (random(game, state, rng), How::Baseline, None),
        };
        let (cell, how) = match cell.filter(|&c| state.is_empty_cell(c)) {
            Some(c) => (c, how),
            None => (fallback_move(game, state, rng)?, How::Fallback),
        };
        Some(Move { cell, how, report, elapsed_ms: start.elapsed().as_secs_f64() * 1e3 })
    }
}

/// Nodes of the threat-space searches for a win of the side to move and for the opponent's threat.
pub const VCF_BUDGET: usize = 20_000;
/// Nodes of the search for a victory by continuous threats (fours and open threes) of the side to move.
pub const VCT_BUDGET: usize = 3_000;
/// Nodes of the threat-space search after each candidate that may defuse the opponent's threat.
pub const VCF_DEFENCE_BUDGET: usize = 3_000;
/// Nodes of the search for the opponent's victory by continuous threats after each such candidate.
pub const VCT_DEFENCE_BUDGET: usize = 500;
/// The default node budget of the refutation check ([`Tuning::refute`]). Chosen on the refereed games of
/// docs/gomoku.md ("Against the local bots at 1 s per move"): at 1 s a move the brain lost 2 of 16
/// games to bench-hard without the check, 2 with it at 20 000 nodes, and none of 64 against the four
/// local bots with it at 50 000 (one run each). In one loss with 20 000 the move played lost to a
/// victory by threats found within 50 000 nodes and not 20 000, and in one without the check to one
/// found within 50 000 and not 3 000.
pub const DEFAULT_REFUTE: u64 = 50_000;
/// The share of a time-limited move kept for the refutation check ([`Tuning::refute`]): one fifth.
pub const REFUTE_SHARE: (u64, u64) = (1, 5);
/// The most of the search's moves (by visits) the refutation check tries ([`Tuning::refuted_best`]).
pub const REFUTE_MOVES: usize = 4;

/// What [`Player::Mcts`] does in a position before any tree search ([`Tuning::plan`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Play this move without a search: [`How::Forced`] (win now, block a five, the only candidate or
    /// the only defence against the opponent's sequence of fours), `How::Tactic("vcf")` (the first move
    /// of the player's own victory by continuous fours) or `How::Tactic("vct")` (by continuous threats).
    Play(Cell, How),
    /// Search; with `Some(moves)`, over those root moves only (the ones after which the opponent has no
    /// victory by continuous fours or threats).
    Search(Option<Vec<Cell>>),
}

impl Tuning {
    /// The player's decision before searching: a forced move, its own victory by continuous fours or
    /// threats, or a search (restricted to the defences when the opponent has a victory by fours or
    /// threats and only some moves defuse it). `deadline` bounds the threat searches.
    pub fn plan(&self, game: &Gomoku, state: &GomokuState, deadline: Option<Instant>) -> Plan {
        let policy = self.policy();
        if self.forced_answer {
            if let Some(cell) = forced_move(game, state).or_else(|| only_candidate(game, &policy, state)) {
                return Plan::Play(cell, How::Forced);
            }
        }
        if !self.threat_search {
            return Plan::Search(None);
        }
        let me = state.mover();
        if let Some(line) = vcf_until(game, state, me, VCF_BUDGET, deadline) {
            return Plan::Play(line[0], How::Tactic("vcf"));
        }
        if let Some(cell) = vct_until(game, state, me, VCT_BUDGET, deadline) {
            return Plan::Play(cell, How::Tactic("vct"));
        }
        // The opponent's threat, as if the side to move passed: a victory by fours, else by threats.
        if vcf_until(game, state, 1 - me, VCF_BUDGET, deadline).is_none()
            && vct_until(game, state, 1 - me, VCT_BUDGET, deadline).is_none()
        {
            return Plan::Search(None);
        }
        let mut candidates = Vec::new();
        policy.candidates(game, state, &mut candidates);
        let mut safe = Vec::new();
        for &c in &candidates {
            if deadline.is_some_and(|t| Instant::now() >= t) {
                return Plan::Search(None);
            }
            let mut next = state.clone();
            game.apply(&mut next, c);
            // A move that ends the game is safe unless it lost it (a forbidden move under renju).
            let ended = next.is_terminal() && next.winner() != Some(1 - me);
            let defused = || {
                vcf_until(game, &next, 1 - me, VCF_DEFENCE_BUDGET, deadline).is_none()
                    && vct_until(game, &next, 1 - me, VCT_DEFENCE_BUDGET, deadline).is_none()
            };
            if ended || (!next.is_terminal() && defused()) {
                safe.push(c);
            }
        }
        match safe.as_slice() {
            [only] => Plan::Play(*only, How::Forced),
            [] => Plan::Search(None),
            _ if safe.len() == candidates.len() => Plan::Search(None),
            _ => Plan::Search(Some(safe)),
        }
    }

    /// The part of a move's `ms` milliseconds the threat searches before the search may use (a third),
    /// counted from the move's start ([`Tuning::plan`]'s deadline).
    pub fn plan_ms(ms: u64) -> u64 {
        ms / 3
    }

    /// The part of a move's `ms` milliseconds kept for the refutation check after its search: what
    /// [`Tuning::search_ms`] leaves (0 with the check off).
    pub fn refute_ms(&self, ms: u64) -> u64 {
        ms.saturating_sub(self.search_ms(ms))
    }

    /// The part of a move's `ms` milliseconds its search may use: all of them, or with the refutation
    /// check on ([`Tuning::refute`]) what is left after the check's [`REFUTE_SHARE`] (at least 1).
    pub fn search_ms(&self, ms: u64) -> u64 {
        match self.refute {
            0 => ms,
            _ => (ms - ms * REFUTE_SHARE.0 / REFUTE_SHARE.1).max(1),
        }
    }

    /// The refutation check ([`Tuning::refute`]): after a search of `state` whose `report` chose a move,
    /// looks for the opponent's victory by fours (3 000 nodes) and by threats (`refute` nodes; without
    /// a deadline at most the search's playouts) after the search's moves in order of visits, at most
    /// [`REFUTE_MOVES`] of them, before `deadline`.
    /// Returns `None` when the check is off, the search proved a win, or its best move has no such
    /// refutation (or time ran out before one was found); else `Some(cell)`: the first move after which
    /// none was found, or the search's best again when each move tried was refuted. A refutation found
    /// is a forced win of the opponent (module `vct`'s argument), so the move played instead is never
    /// known to be worse.
    pub fn refuted_best(
        &self,
        game: &Gomoku,
        state: &GomokuState,
        report: &SearchReport<Cell>,
        deadline: Option<Instant>,
    ) -> Option<Cell> {
        let best = report.best?;
        if self.refute == 0 || !self.threat_search || report.root_proof == Some(Proof::Win) {
            return None;
        }
        let opponent = 1 - state.mover();
        // Without a deadline, no more threat-search nodes per move checked than the search ran playouts:
        // a small search gets a small check. With one, the deadline bounds the check.
        let refute = if deadline.is_some() { self.refute } else { self.refute.min(report.playouts.max(1)) };
        let budget = usize::try_from(refute).unwrap_or(usize::MAX);
        let mut moves: Vec<(u64, Cell)> = report.actions.iter().map(|a| (a.visits, a.action)).collect();
        moves.sort_by_key(|&(visits, _)| std::cmp::Reverse(visits));
        if moves.first().map(|&(_, c)| c) != Some(best) {
            moves.retain(|&(_, c)| c != best);
            moves.insert(0, (0, best));
        }
        for (k, &(_, cell)) in moves.iter().take(REFUTE_MOVES).enumerate() {
            if deadline.is_some_and(|t| Instant::now() >= t) {
                // No time to check this one: better than a move known to lose.
                return (k > 0).then_some(cell);
            }
            let mut next = state.clone();
            game.apply(&mut next, cell);
            let refuted = !next.is_terminal()
                && (vcf_until(game, &next, opponent, VCF_DEFENCE_BUDGET, deadline).is_some()
                    || vct_until(game, &next, opponent, budget, deadline).is_some());
            if !refuted {
                return (k > 0).then_some(cell);
            }
        }
        Some(best)
    }

    /// The search of [`Plan::Search`] with `params` over `root_moves` (all candidates when `None`).
    pub fn search<'g>(
        &self,
        game: &'g Gomoku,
        policy: &'g GomokuPolicy,
        params: SearchParams,
        root_moves: Option<Vec<Cell>>,
    ) -> Search<'g, Gomoku, GomokuPolicy> {
        let search = Search::with_policy(game, policy, params);
        // Every candidate left out lets the opponent's sequence of fours through: no better than a listed
        // move, so proofs over the list hold for the position.
        match root_moves {
            Some(moves) => search.with_root_moves(moves, Coverage::ProofSafe),
            None => search,
        }
    }
}

/// The MCTS player's choice: [`Tuning::plan`], then the search it asks for (on the kept tree in `tree`
/// when given and [`Tuning::reuse`] is on).
fn mcts_move(
    game: &Gomoku,
    state: &GomokuState,
    params: &SearchParams,
    tuning: &Tuning,
    (stop, tree): (Option<&AtomicBool>, Option<&mut Follower<Gomoku, GomokuPolicy>>),
    start: Instant,
) -> (Option<Cell>, How, Option<SearchReport<Cell>>) {
    // A time-limited move gives the threat searches at most a third of its time.
    let deadline = params.time_ms.map(|t| start + Duration::from_millis(Tuning::plan_ms(t)));
    let root_moves = match tuning.plan(game, state, deadline) {
        Plan::Play(cell, how) => return (Some(cell), how, None),
        Plan::Search(root_moves) => root_moves,
    };
    // The move's limits: the threat searches' time (and the re-rooting's) counts against them; with the
    // refutation check on, a timed search leaves the check its share of the move.
    let check_deadline = params.time_ms.map(|t| start + Duration::from_millis(t));
    let limits = Limits { playouts: params.playouts, time_ms: params.time_ms.map(|t| tuning.search_ms(t)) };
    let mut params = params.clone();
    params.time_ms = limits.since(start).time_ms;
    let policy = tuning.policy();
    let report = match tree {
        Some(follower) if tuning.reuse => {
            // Re-rooted only now that a search needs it; the re-rooting is part of the move's time.
            let kept = match follower.slot() {
                Some(kept) if kept.game() == game && kept.state() == state => {
                    kept.set_params(params);
                    kept
                }
                slot => slot.insert(Session::with_policy(*game, policy, state.clone(), params)),
            };
            // As in `Tuning::search`: the moves left out let the opponent's sequence of fours through.
            kept.restrict_root(root_moves.map(|m| (m, Coverage::ProofSafe)));
            kept.search_observed(limits.since(start), stop, None)
        }
        _ => tuning.search(game, &policy, params, root_moves).run_with_stop(state, stop),
    };
    match tuning.refuted_best(game, state, &report, check_deadline) {
        Some(cell) if Some(cell) != report.best => (Some(cell), How::Tactic(REFUTATION), Some(report)),
        _ => (report.best, How::Search, Some(report)),
    }
}

/// [`How::Tactic`] name of a move played because the refutation check ([`Tuning::refuted_best`]) found
/// the search's best move lost to the opponent's victory by threats.
pub const REFUTATION: &str = "refutation";

/// A chosen move, how it was chosen, and the search report when there was a search.
#[derive(Clone, Debug)]
pub struct Move {
    /// An empty cell of the board.
    pub cell: Cell,
    /// How it was chosen.
    pub how: How,
    /// The search behind it, for [`How::Search`].
    pub report: Option<SearchReport<Cell>>,
    /// Wall time of the choice, milliseconds.
    pub elapsed_ms: f64,
}

/// The candidate move when the search would have exactly one and no other move can be better: a
/// candidate set safe for proofs (the only defence against an open three, say), or the centre of the
/// empty board. A lone candidate of a heuristic narrowing (a double three, say) is searched and
/// checked for the opponent's fours like any other position.
fn only_candidate(game: &Gomoku, policy: &GomokuPolicy, state: &GomokuState) -> Option<Cell> {
    let mut candidates = Vec::new();
    let coverage = policy.candidates(game, state, &mut candidates);
    match candidates.as_slice() {
        [only] if coverage.allows_proofs() || state.stone_count() == 0 => Some(*only),
        _ => None,
    }
}

/// A move for the side to move when a player had none: the threat player's choice, else the first empty
/// cell in row-major order (always an empty cell). `None` only when the board is full.
pub fn fallback_move(game: &Gomoku, state: &GomokuState, rng: &mut Rng) -> Option<Cell> {
    if !state.is_terminal() {
        if let Some(c) = threat(game, state, rng).filter(|&c| state.is_empty_cell(c)) {
            return Some(c);
        }
    }
    let size = state.size();
    (0..size * size).map(|i| Cell::from_index(i, size)).find(|&c| state.is_empty_cell(c))
}

/// A [`Player`] playing a game ([`crate::agent::play_game`]): its choices, and the search tree its MCTS
/// keeps from move to move when [`Tuning::reuse`] is on (every move of the game, both sides', re-roots
/// it; a position the tree does not stand for starts a fresh one).
pub struct PlayerAgent {
    player: Player,
    tree: Follower<Gomoku, GomokuPolicy>,
}

impl PlayerAgent {
    /// `player` at the start of a game, with no tree yet.
    pub fn new(player: Player) -> Self {
        PlayerAgent { player, tree: Follower::default() }
    }

    /// The player.
    pub fn player(&self) -> &Player {
        &self.player
    }
}

impl From<Player> for PlayerAgent {
    fn from(player: Player) -> Self {
        PlayerAgent::new(player)
    }
}

impl std::fmt::Debug for PlayerAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayerAgent")
            .field("player", &self.player)
            .field("kept_nodes", &self.tree.peek().map(Session::nodes))
            .finish()
    }
}

/// The search's seed is the decision's, the baselines draw from the agent's stream, and a protocol's stop
/// reaches the search.
impl Agent<Gomoku> for PlayerAgent {
    fn name(&self) -> String {
        self.player.name().to_string()
    }

    fn choose(&mut self, game: &Gomoku, state: &GomokuState, cx: &mut Context<'_>) -> Option<Decision<Cell>> {
        let player = match &self.player {
            Player::Mcts { params, tuning } => {
                Player::Mcts { params: SearchParams { seed: cx.seed, ..params.clone() }, tuning: *tuning }
            }
            other => other.clone(),
        };
        let mv = player.choose_on(game, state, cx.rng, cx.stop, Some(&mut self.tree))?;
        let work = mv.report.as_ref().map_or(0, |r| r.playouts);
        Some(Decision { action: mv.cell, how: mv.how, work, report: mv.report })
    }

    /// Queues the move for the kept tree: the player's move and the reply re-root it together before
    /// the next search ([`Follower`]); a tree that cannot follow is dropped.
    fn observe(&mut self, _game: &Gomoku, event: Event<Cell, crate::game::NoOutcome>) {
        self.tree.observe(event);
    }
}
