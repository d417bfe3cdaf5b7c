//! A search that lives on: [`Session`] keeps one tree across searches, re-roots it on the move played
//! ([`Session::advance`]) and searches in the background ([`Session::start`], [`SearchHandle`]).
//!
//! ```
//! use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
//! use canopy_mcts::search::{Event, Limits, SearchParams, Session};
//!
//! let params = SearchParams { threads: 1, ..SearchParams::default() };
//! let mut session = Session::new(TicTacToe, TicTacToeState::default(), params);
//! let report = session.search(Limits::playouts(2_000));
//! let best = report.best.unwrap();
//! // Play the move: the subtree under it, with its statistics, becomes the new tree.
//! let kept = session.advance(Event::Action(best)).unwrap();
//! assert!(kept.visits > 0);
//! let next = session.search(Limits::playouts(1_000));
//! assert_eq!(next.root_visits, kept.visits + 1_000);
//!
//! // In the background: read the statistics while it runs, then stop it and get the session back.
//! let handle = session.start(Limits::time_ms(50));
//! let live = handle.snapshot();
//! let (session, report) = handle.stop();
//! assert!(report.root_visits >= live.root_visits);
//! assert_eq!(session.root_visits(), report.root_visits);
//! ```

use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crate::game::{Game, Turn};
use crate::param::ParamError;
use crate::policy::{Coverage, Policy, UniformPolicy};
use crate::search::node::Step;
use crate::search::params::Statistics;
use crate::search::readout::{best_action, gauged_bytes, proven_nodes, root_actions, root_for_mover, RootCount};
use crate::search::report::{ActionStats, ProvenNode, SearchReport};
use crate::search::tree::Tree;
use crate::search::worker::{GameEdge, GameNode};
use crate::search::{
    memory_gauges, physical_memory_bytes, table_slots, Control, ProgressObserver, Search, SearchParams,
};
use crate::sync::{AtomicBool, AtomicUsize, Ordering};
use crossbeam_utils::CachePadded;

/// The limits of one search of a [`Session`]: whichever comes first. With neither, a blocking
/// [`Session::search`] runs [`crate::search::DEFAULT_PLAYOUTS`] playouts and a background
/// [`Session::start`] runs until stopped (or until MCTS-Solver proves the root).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Playouts of this search (all threads together); 0 ends the search at once.
    pub playouts: Option<u64>,
    /// Wall time of this search, milliseconds; 0 ends the search at once.
    pub time_ms: Option<u64>,
}

impl Limits {
    /// `n` playouts.
    pub fn playouts(n: u64) -> Limits {
        Limits { playouts: Some(n), time_ms: None }
    }

    /// `ms` milliseconds.
    pub fn time_ms(ms: u64) -> Limits {
        Limits { playouts: None, time_ms: Some(ms) }
    }

    /// No limit: a background search runs until stopped.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// These limits for a search that starts now, though the move it serves began at `began`: the
    /// time limit less the whole milliseconds since then, at least 1 ms; the playout limit unchanged.
    /// Work done for the move before its search (re-rooting the kept tree, threat searches) so counts
    /// against the move's time.
    pub fn since(self, began: Instant) -> Limits {
        let spent = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
        Limits { time_ms: self.time_ms.map(|t| t.saturating_sub(spent).max(1)), ..self }
    }
}

/// What happened in the game since the session's position: a player's action or a chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<A, O> {
    /// The player to move played this action.
    Action(A),
    /// Chance chose this outcome.
    Outcome(O),
}

/// What [`Session::advance`] kept of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The new root's visits (0 when the position was not in the tree and the session starts afresh).
    pub visits: u64,
    /// Nodes of the kept subtree, the new root included.
    pub nodes: u64,
    /// Bytes the tree holds after re-rooting (arenas and table).
    pub memory_bytes: usize,
}

/// What [`Session::recycle`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recycled {
    /// Nodes below this many visits became leaves.
    pub min_visits: u64,
    /// Nodes before and after.
    pub nodes_before: u64,
    /// Nodes after.
    pub nodes_after: u64,
    /// Bytes held before.
    pub bytes_before: usize,
    /// Bytes held after.
    pub bytes_after: usize,
}

/// Why [`Session::advance`] refused an event (the session is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdvanceError {
    /// The game is over at the session's position.
    GameOver,
    /// The action is not legal for the player to move (or chance is to move).
    IllegalAction(String),
    /// The outcome is not one chance can choose here (or a player is to move).
    ImpossibleOutcome(String),
}

impl fmt::Display for AdvanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdvanceError::GameOver => f.write_str("the game is over"),
            AdvanceError::IllegalAction(a) => write!(f, "{a} is not a legal move here"),
            AdvanceError::ImpossibleOutcome(o) => write!(f, "{o} is not a chance outcome here"),
        }
    }
}

impl std::error::Error for AdvanceError {}

/// One search tree kept across searches of a game: search, play a move, search again from what the
/// tree already knows about the new position.
///
/// The tree never holds more than the parameters' memory budget: a search stops growing it at the
/// budget (the report says `memory_limited`) and [`Session::advance`] copies the kept subtree into
/// fresh memory, freeing the rest at once. With the transposition table on, the table holds only nodes
/// of the kept tree after re-rooting.
pub struct Session<G: Game, P: Policy<G> = UniformPolicy> {
    game: G,
    policy: P,
    params: SearchParams,
    state: G::State,
    tree: Tree<G>,
    /// The root restriction of the searches until the next [`Session::advance`].
    root_moves: Option<(Vec<G::Action>, Coverage)>,
}

/// The tree's step for an event of game `G`.
type GameStep<G> = Step<<G as Game>::Action, <G as Game>::Outcome>;

/// A kept [`Session`] that follows a game event by event and re-roots once per use: the events
/// observed since the last use queue up ([`Follower::observe`]) and re-root the tree together, with
/// one copy of the kept subtree ([`Session::advance_all`]), when the session is next asked for
/// ([`Follower::slot`]). A move and its chance outcome (or its reply) so cost one copy, not two, and
/// the copy comes just before the next search instead of right after each event.
pub struct Follower<G: Game, P: Policy<G> = UniformPolicy> {
    session: Option<Session<G, P>>,
    pending: Vec<Event<G::Action, G::Outcome>>,
}

impl<G: Game, P: Policy<G>> Default for Follower<G, P> {
    /// No session yet.
    fn default() -> Self {
        Follower { session: None, pending: Vec::new() }
    }
}

impl<G: Game, P: Policy<G>> Follower<G, P> {
    /// Queues `event` for the kept session (nothing to do without one).
    pub fn observe(&mut self, event: Event<G::Action, G::Outcome>) {
        if self.session.is_some() {
            self.pending.push(event);
        }
    }

    /// The kept session, at the position after every event observed (or `None`: none kept, or one the
    /// events could not follow, which is dropped). The caller may replace it, e.g. with a fresh
    /// session for another position.
    pub fn slot(&mut self) -> &mut Option<Session<G, P>> {
        if !self.pending.is_empty() {
            let events = std::mem::take(&mut self.pending);
            if let Some(s) = &mut self.session {
                if s.advance_all(events).is_err() {
                    self.session = None;
                }
            }
        }
        &mut self.session
    }

    /// The kept session as it was before the queued events, if any (for statistics that need no
    /// re-rooting).
    pub fn peek(&self) -> Option<&Session<G, P>> {
        self.session.as_ref()
    }

    /// Drops the kept session and the queued events.
    pub fn clear(&mut self) {
        self.session = None;
        self.pending.clear();
    }
}

/// [`SearchParams::check`] of a session's parameters, whose playout and time limits are not used (each
/// search takes its own [`Limits`]) and so not checked.
fn check_unlimited(params: &SearchParams) -> Result<(), ParamError> {
    SearchParams { playouts: None, time_ms: None, ..params.clone() }.check()
}

impl<G: Game> Session<G> {
    /// A session on `state` of `game`, with `params` for every search (their playout and time limits
    /// are not used: each search takes its own [`Limits`]) and the plain-MCTS [`UniformPolicy`].
    ///
    /// # Panics
    /// When `params` is outside its documented ranges ([`SearchParams::check`], the limits aside);
    /// [`Session::try_new`] returns the error instead.
    pub fn new(game: G, state: G::State, params: SearchParams) -> Self {
        Session::with_policy(game, UniformPolicy, state, params)
    }

    /// [`Session::new`] that returns the parameters' error instead of panicking.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] when `params` is outside its documented ranges ([`SearchParams::check`],
    /// the playout and time limits aside: they are not used).
    pub fn try_new(game: G, state: G::State, params: SearchParams) -> Result<Self, ParamError> {
        Session::try_with_policy(game, UniformPolicy, state, params)
    }
}

impl<G: Game, P: Policy<G>> Session<G, P> {
    /// A session on `state` of `game` searched with `policy`'s candidates, priors and rollouts.
    ///
    /// # Panics
    /// When `params` is outside its documented ranges, its playout and time limits aside (they are not
    /// used): the message is [`SearchParams::check`]'s error, which [`Session::try_with_policy`] returns
    /// instead.
    pub fn with_policy(game: G, policy: P, state: G::State, params: SearchParams) -> Self {
        Self::try_with_policy(game, policy, state, params).unwrap_or_else(|e| panic!("invalid search parameters: {e}"))
    }

    /// [`Session::with_policy`] that returns the parameters' error instead of panicking: for a caller
    /// that takes parameters from its users.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] naming the first parameter outside the range its field documents
    /// ([`SearchParams::check`]), the playout and time limits aside: they are not used.
    pub fn try_with_policy(game: G, policy: P, state: G::State, params: SearchParams) -> Result<Self, ParamError> {
        check_unlimited(&params)?;
        let tree = Tree::new(&game, &state, &table_params(&params, Limits::playouts(0)));
        Ok(Session { game, policy, params, state, tree, root_moves: None })
    }

    /// The position the tree's root stands for.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The parameters of every search (limits aside).
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Sets the parameters of the next searches (a new seed per move, say). The transposition table
    /// keeps the size it was given when the tree was started. A change of [`SearchParams::statistics`]
    /// starts a fresh tree: the kept one holds its means where the old setting put them.
    ///
    /// # Panics
    /// When `params` is outside its documented ranges, the limits aside: the message is
    /// [`SearchParams::check`]'s error (the session is unchanged), which [`Session::try_set_params`]
    /// returns instead.
    pub fn set_params(&mut self, params: SearchParams) {
        self.try_set_params(params).unwrap_or_else(|e| panic!("invalid search parameters: {e}"));
    }

    /// [`Session::set_params`] that returns the parameters' error instead of panicking.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] when `params` is outside its documented ranges ([`SearchParams::check`],
    /// the limits aside); the session is then unchanged.
    pub fn try_set_params(&mut self, params: SearchParams) -> Result<(), ParamError> {
        check_unlimited(&params)?;
        let fresh = params.statistics != self.params.statistics;
        self.params = params;
        if fresh {
            self.discard_tree();
        }
        Ok(())
    }

    /// Restricts the root of the searches to `moves` until the next [`Session::advance`], as
    /// [`Search::with_root_moves`] does (`left_out` says what the restriction leaves out, for the
    /// solver). A root already expanded with other children is searched afresh (its statistics are
    /// dropped); `None` lifts the restriction (from the next fresh root on).
    pub fn restrict_root(&mut self, moves: Option<(Vec<G::Action>, Coverage)>) {
        let same = match (&moves, &self.root_moves) {
            (None, _) => true,
            (Some((m, c)), Some((n, d))) => m == n && c == d,
            (Some(_), None) => false,
        };
        if !same && self.tree.root().children_acquire().is_some() {
            self.discard_tree();
        }
        self.root_moves = moves;
    }

    /// Visits of the root: the playouts the tree holds for the current position.
    pub fn root_visits(&self) -> u64 {
        self.tree.root().visits_relaxed()
    }

    /// Nodes of the tree.
    pub fn nodes(&self) -> u64 {
        self.tree.nodes
    }

    /// Bytes the tree holds (its arenas' chunks and the transposition table).
    pub fn memory_bytes(&self) -> usize {
        self.tree.memory_bytes()
    }

    /// The proven nodes of the tree (MCTS-Solver's wins, losses and draws), each once, depth-first from
    /// the root, at most `limit` of them: the path from the session's position to each and its result
    /// for the player to move there. For checking proofs with another solver, or listing the lines an
    /// analysis has settled. Open-loop subtrees (chance nodes whose outcomes are sampled, not listed) stand
    /// for many positions and are not walked.
    pub fn proven_nodes(&self, limit: usize) -> Vec<ProvenNode<G::Action, G::Outcome>> {
        proven_nodes(&self.game, self.tree.root(), &self.state, limit)
    }

    /// Searches the current position within `limits`, adding to what the tree holds, and reports on the
    /// whole tree (`root_visits` counts earlier searches too; `playouts` only this one's).
    ///
    /// # Panics
    /// As [`Search::run`] when the game panics; the session's tree is then dropped and the session starts
    /// afresh from its position.
    pub fn search(&mut self, limits: Limits) -> SearchReport<G::Action> {
        self.search_observed(limits, None, None)
    }

    /// [`Session::search`], stopping soon after `stop` becomes true and calling `progress` from the
    /// calling thread at its interval (as [`Search::run_observed`]).
    pub fn search_observed(
        &mut self,
        limits: Limits,
        stop: Option<&AtomicBool>,
        progress: Option<ProgressObserver<'_>>,
    ) -> SearchReport<G::Action> {
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.recycling_search(limits, stop, progress)));
        match outcome {
            Ok(report) => report,
            Err(payload) => {
                self.discard_tree();
                std::panic::resume_unwind(payload)
            }
        }
    }

    /// A search within `limits` that, each time the tree fills the budget, recycles memory
    /// ([`Session::recycle`]) and searches on for what is left of the limits; with no limit (a stop flag
    /// ends it) it goes on until stopped. The report covers all of it (`recycled_nodes` says how many
    /// nodes the recycling let go).
    fn recycling_search(
        &mut self,
        limits: Limits,
        stop: Option<&AtomicBool>,
        mut progress: Option<ProgressObserver<'_>>,
    ) -> SearchReport<G::Action> {
        let start = Instant::now();
        let limits = match (limits, stop) {
            (Limits { playouts: None, time_ms: None }, None) => Limits::playouts(crate::search::DEFAULT_PLAYOUTS),
            _ => limits,
        };
        let mut done = 0u64;
        let mut recycled = 0u64;
        loop {
            let left = Limits {
                playouts: limits.playouts.map(|p| p.saturating_sub(done)),
                time_ms: limits.time_ms.map(|t| t.saturating_sub(start.elapsed().as_millis() as u64)),
            };
            let progress = progress
                .as_mut()
                .map(|(interval, observer)| (*interval, &mut **observer as &mut dyn FnMut(&crate::search::Progress)));
            let mut report = self.run_search(left, stop, progress, None, true);
            done += report.playouts;
            let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
            let limit_reached = left.playouts == Some(report.playouts)
                || limits.time_ms.is_some_and(|t| start.elapsed().as_millis() as u64 >= t);
            let finished = !report.memory_limited || stopped || limit_reached || report.root_proof.is_some();
            if !finished {
                let r = self.recycle();
                recycled += r.nodes_before.saturating_sub(r.nodes_after);
                if r.nodes_after >= r.nodes_before {
                    // Nothing could be let go: search on in the full tree until the limits.
                    let rest = Limits {
                        playouts: limits.playouts.map(|p| p.saturating_sub(done)),
                        time_ms: limits.time_ms.map(|t| t.saturating_sub(start.elapsed().as_millis() as u64)),
                    };
                    report = self.run_search(rest, stop, None, None, false);
                    done += report.playouts;
                } else {
                    continue;
                }
            }
            report.playouts = done;
            report.recycled_nodes = recycled;
            report.memory_limited |= recycled > 0;
            report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
            report.playouts_per_sec =
                if report.elapsed_ms > 0.0 { done as f64 / (report.elapsed_ms / 1e3) } else { 0.0 };
            return report;
        }
    }

    /// Lets go of the least visited subtrees so that the tree holds at most half of the memory budget:
    /// every node (but the root) with fewer visits than a threshold becomes a leaf that keeps its
    /// statistics, the threshold doubling from 2 until the copy fits. Between searches only; the copy
    /// stands beside the old tree for a moment (as in [`Session::advance`]).
    pub fn recycle(&mut self) -> Recycled {
        let (nodes_before, bytes_before) = (self.tree.nodes, self.memory_bytes());
        let target = self.params.memory_bytes / 2;
        let mut min_visits = 2u64;
        let most = self.root_visits().max(2);
        loop {
            let copy = self.tree.collapsed(min_visits, self.params.memory_bytes);
            match copy {
                Some(tree) if tree.memory_bytes() <= target || min_visits >= most => {
                    self.tree = tree;
                    break;
                }
                _ if min_visits >= most => break,
                _ => min_visits = min_visits.saturating_mul(2),
            }
        }
        Recycled {
            min_visits,
            nodes_before,
            nodes_after: self.tree.nodes,
            bytes_before,
            bytes_after: self.memory_bytes(),
        }
    }

    /// One search of the tree, publishing its memory to `gauges` when they are given (one more than the
    /// threads) and ending when the tree fills the budget when `stop_when_full`; a panic leaves the tree
    /// as the workers left it.
    fn run_search(
        &mut self,
        limits: Limits,
        stop: Option<&AtomicBool>,
        progress: Option<ProgressObserver<'_>>,
        gauges: Option<&[CachePadded<AtomicUsize>]>,
        stop_when_full: bool,
    ) -> SearchReport<G::Action> {
        let start = Instant::now();
        let params = SearchParams { playouts: limits.playouts, time_ms: limits.time_ms, ..self.params.clone() };
        let mut search = Search::with_checked_params(&self.game, &self.policy, params);
        if let Some((moves, left_out)) = &self.root_moves {
            search = search.with_root_moves(moves.clone(), *left_out);
        }
        let params = search.effective_params(stop.is_some());
        // The table holds the tree so far and what this search may add (at most the budget's share).
        let wanted = table_slots(&params, physical_memory_bytes()).saturating_add(2 * self.tree.nodes as usize);
        let most = table_slots(&table_params(&self.params, Limits::none()), physical_memory_bytes());
        self.tree.ensure_table(wanted.min(most));
        let local;
        let gauges = match gauges {
            Some(g) if g.len() > params.threads => g,
            _ => {
                local = memory_gauges(params.threads);
                &local
            }
        };
        let control = Control { stop, gauges, stop_when_full };
        search.run_on(&mut self.tree, &self.state, &params, start, control, progress, |_| {})
    }

    /// Replaces the tree by a fresh one (after a worker panicked: its virtual loss stays in the tree,
    /// so the tree is not reused).
    fn discard_tree(&mut self) {
        self.tree = Tree::new(&self.game, &self.state, &table_params(&self.params, Limits::playouts(0)));
    }

    /// Moves the session on by `event` (the move played, or the chance outcome that happened): the new
    /// root is the node the event leads to, with its subtree and statistics; when the tree has no such
    /// node (never searched; reached by no more playouts than the expansion threshold, as with
    /// [`crate::Statistics::Edge`] a leaf's node is created when it is expanded; or below a sampled
    /// chance outcome), the
    /// session starts a fresh tree there.
    ///
    /// # Errors
    /// [`AdvanceError`] when the event cannot happen in the current position; the session is unchanged.
    pub fn advance(&mut self, event: Event<G::Action, G::Outcome>) -> Result<Kept, AdvanceError> {
        self.advance_all([event]).map_err(|(_, e)| e)
    }

    /// The position after `event` from `state` and the tree's step for it.
    ///
    /// # Errors
    /// [`AdvanceError`] when the event cannot happen in `state`.
    fn step(
        &self,
        state: &G::State,
        event: Event<G::Action, G::Outcome>,
    ) -> Result<(G::State, GameStep<G>), AdvanceError> {
        let game = &self.game;
        let mut next = state.clone();
        let step = match (game.to_move(state), event) {
            (Turn::Terminal, _) => return Err(AdvanceError::GameOver),
            (Turn::Player(_), Event::Action(a)) if game.is_legal(state, a, &mut Vec::new()) => {
                game.apply(&mut next, a);
                Step::Action(a)
            }
            (_, Event::Action(a)) => return Err(AdvanceError::IllegalAction(game.action_name(&a))),
            (Turn::Chance, Event::Outcome(o)) => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(state, &mut outcomes);
                if !outcomes.is_empty() && !outcomes.iter().any(|(x, p)| *x == o && *p > 0.0) {
                    return Err(AdvanceError::ImpossibleOutcome(game.outcome_name(&o)));
                }
                game.apply_outcome(&mut next, o);
                Step::Outcome(o)
            }
            (Turn::Player(_), Event::Outcome(o)) => return Err(AdvanceError::ImpossibleOutcome(game.outcome_name(&o))),
        };
        Ok((next, step))
    }

    /// [`Session::advance`] through several events in order; stops at the first refused one (the
    /// events before it stay applied) and says which. The kept subtree is copied once, at the end (a
    /// move and its reply cost one copy, not two).
    ///
    /// # Errors
    /// The index of the refused event and why.
    pub fn advance_all(
        &mut self,
        events: impl IntoIterator<Item = Event<G::Action, G::Outcome>>,
    ) -> Result<Kept, (usize, AdvanceError)> {
        let mut state = self.state.clone();
        // The node the events so far lead to, and the edge the last one took; `None` once they leave the
        // tree.
        let mut node = Some(self.tree.root());
        let mut via: Option<&GameEdge<G>> = None;
        let mut moved = false;
        let mut refused = None;
        for (i, event) in events.into_iter().enumerate() {
            match self.step(&state, event) {
                Ok((next, step)) => {
                    via =
                        node.and_then(|n| n.children_acquire()).and_then(|edges| edges.iter().find(|e| e.step == step));
                    node = via.and_then(|e| e.child_acquire());
                    state = next;
                    moved = true;
                }
                Err(e) => {
                    refused = Some((i, e));
                    break;
                }
            }
        }
        if moved {
            // With edge statistics the nodes below the root hold no values (and, after a search with
            // several workers, a stale count): the new root takes the statistics of the edge that led
            // to it ([`edge_root_stats`]).
            let root_stats = match (self.params.statistics, via, node) {
                (Statistics::Edge, Some(e), Some(c)) => Some(edge_root_stats::<G>(e, c)),
                _ => None,
            };
            let kept = node.and_then(|c| self.tree.rerooted(c, self.params.memory_bytes, root_stats));
            self.tree =
                kept.unwrap_or_else(|| Tree::new(&self.game, &state, &table_params(&self.params, Limits::playouts(0))));
            self.state = state;
            self.root_moves = None;
        }
        match refused {
            Some(r) => Err(r),
            None => Ok(Kept { visits: self.root_visits(), nodes: self.tree.nodes, memory_bytes: self.memory_bytes() }),
        }
    }

    /// Starts a search of the current position within `limits` on a background thread and returns its
    /// handle: [`SearchHandle::snapshot`] reads the statistics while it runs, [`SearchHandle::stop`] (or
    /// [`SearchHandle::wait`]) ends it and gives the session back with the report; dropping the handle
    /// stops the search and drops the session.
    pub fn start(self, limits: Limits) -> SearchHandle<G, P>
    where
        G: Clone + Send + 'static,
        P: Send + 'static,
    {
        self.start_with(limits, false)
    }

    /// [`Session::start`], ending the search as soon as the tree fills the memory budget: the caller
    /// can then [`Session::recycle`] and start again (an open-ended analysis that keeps improving within
    /// its budget).
    pub fn start_until_full(self, limits: Limits) -> SearchHandle<G, P>
    where
        G: Clone + Send + 'static,
        P: Send + 'static,
    {
        self.start_with(limits, true)
    }

    fn start_with(self, limits: Limits, until_full: bool) -> SearchHandle<G, P>
    where
        G: Clone + Send + 'static,
        P: Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let root = NonNull::from(self.tree.root());
        let game = self.game.clone();
        let before = RootCount::of(self.tree.root());
        let flag = Arc::clone(&stop);
        let gauges: Arc<[CachePadded<AtomicUsize>]> = memory_gauges(self.params.threads.max(1)).into();
        let readings = Arc::clone(&gauges);
        let statistics = self.params.statistics;
        let to_move = self.game.to_move(&self.state);
        let mut session = self;
        let thread = std::thread::spawn(move || {
            // The session (and the tree the handle reads) lives until the handle joins this thread, even
            // when the search panics ([I11]).
            let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                session.run_search(limits, Some(&flag), None, Some(&readings), until_full)
            }));
            (session, report)
        });
        SearchHandle {
            thread: Some(thread),
            stop,
            root,
            game,
            start: Instant::now(),
            before,
            gauges,
            statistics,
            to_move,
        }
    }
}

/// The parameters that size a table with `limits` (no limit: the budget's share). A session's tree
/// starts with the smallest table and each search grows it to what it needs.
fn table_params(params: &SearchParams, limits: Limits) -> SearchParams {
    SearchParams { playouts: limits.playouts, time_ms: limits.time_ms, ..params.clone() }
}

/// What the search thread of a [`SearchHandle`] gives back: the session and the report, or the panic
/// that ended the search.
type Finished<G, P> = (Session<G, P>, std::thread::Result<SearchReport<<G as Game>::Action>>);

/// A search running in the background ([`Session::start`]).
pub struct SearchHandle<G: Game, P: Policy<G>> {
    thread: Option<JoinHandle<Finished<G, P>>>,
    stop: Arc<AtomicBool>,
    /// The searched tree's root, which the search thread's session holds until the thread is joined
    /// ([I11]).
    root: NonNull<GameNode<G>>,
    game: G,
    start: Instant,
    /// The root's counts when the search started.
    before: RootCount,
    /// The search's memory gauges.
    gauges: Arc<[CachePadded<AtomicUsize>]>,
    /// Where the search keeps its means.
    statistics: Statistics,
    /// The root position's turn (whose view the root value is given in).
    to_move: Turn,
}

// SAFETY: [I11] the handle reads the tree only through `root`, whose node lives in the session the
// search thread holds until the handle joins it; the node's statistics are atomics.
unsafe impl<G: Game + Send, P: Policy<G>> Send for SearchHandle<G, P> {}

/// The statistics of a running search ([`SearchHandle::snapshot`]).
#[derive(Clone, Debug)]
pub struct Snapshot<A> {
    /// Milliseconds since the search started.
    pub elapsed_ms: f64,
    /// Playouts of this search so far.
    pub playouts: u64,
    /// The root's visits (this search's playouts and those a kept subtree brought).
    pub root_visits: u64,
    /// The root's actions with their statistics so far.
    pub actions: Vec<ActionStats<A>>,
    /// The action the search would play now (as [`SearchReport::best`]).
    pub best: Option<A>,
    /// The principal variation so far: the best action, then the most visited moves below it.
    pub pv: Vec<String>,
    /// Mean return of the root for the player to move so far.
    pub root_value: Option<f64>,
    /// Bytes the tree holds so far (arenas and table), as the workers last published them.
    pub memory_bytes: usize,
}

impl<G: Game, P: Policy<G>> SearchHandle<G, P> {
    /// The statistics now. Reads the shared counters while the workers write them (Relaxed): a snapshot
    /// is a consistent-enough view for display, not an exact cut.
    pub fn snapshot(&self) -> Snapshot<G::Action> {
        // SAFETY: [I11] the root lives in the session the search thread holds until `stop`/`wait`/drop
        // joins it, and each of those takes the handle by value or mutably, so no snapshot is in progress.
        let root: &GameNode<G> = unsafe { self.root.as_ref() };
        let root_visits = self.before.live(root);
        let actions = root_actions(&self.game, root, root_visits, self.statistics);
        let best = best_action(&actions);
        let mut pv = Vec::new();
        if let Some(b) = best {
            pv.push(b.name.clone());
            pv.extend(b.pv.iter().cloned());
        }
        Snapshot {
            elapsed_ms: self.start.elapsed().as_secs_f64() * 1e3,
            playouts: root_visits.saturating_sub(self.before.before()),
            root_visits,
            best: best.map(|b| b.action),
            pv,
            root_value: root_for_mover(&self.game, root, self.to_move).0,
            memory_bytes: gauged_bytes(&self.gauges),
            actions,
        }
    }

    /// Whether the search has ended by itself (a limit, or a proven root).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Stops the search and returns the session and the search's report.
    ///
    /// # Panics
    /// Raises a worker's panic again (as [`Search::run`]).
    pub fn stop(mut self) -> (Session<G, P>, SearchReport<G::Action>) {
        self.stop.store(true, Ordering::Relaxed);
        self.join()
    }

    /// Waits for the search to reach its limits and returns the session and the report.
    ///
    /// # Panics
    /// Raises a worker's panic again (as [`Search::run`]).
    pub fn wait(mut self) -> (Session<G, P>, SearchReport<G::Action>) {
        self.join()
    }

    fn join(&mut self) -> (Session<G, P>, SearchReport<G::Action>) {
        let thread = self.thread.take().expect("joined once");
        match thread.join() {
            Ok((session, Ok(report))) => (session, report),
            Ok((mut session, Err(payload))) => {
                session.discard_tree();
                std::panic::resume_unwind(payload)
            }
            Err(payload) => std::panic::resume_unwind(payload),
        }
    }
}

impl<G: Game, P: Policy<G>> Drop for SearchHandle<G, P> {
    /// Stops the search and waits for it (the session is dropped with it).
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.stop.store(true, Ordering::Relaxed);
            let _ = thread.join();
        }
    }
}

/// The statistics a kept tree's new root takes with [`Statistics::Edge`], whose nodes below the root
/// hold no values: those of `via`, the edge that led to it, which are for the same player (the one who
/// moved into it) and hold the playouts that took that move. Where `node`'s own edges hold more visits
/// (passes that reached it by other paths, through transpositions: each left it by one of its edges),
/// the count is raised to theirs and the value sum with it at `via`'s mean, so that the root's count
/// is never below its edges' sum (the invariant [`crate::search::TreeAudit::overcounted_nodes`]
/// checks) and its mean is `via`'s.
fn edge_root_stats<G: Game>(via: &GameEdge<G>, node: &GameNode<G>) -> (u64, f64) {
    let (visits, value_sum) = (via.visits_relaxed(), via.value_sum_relaxed());
    let out: u64 = node.children_acquire().map_or(0, |edges| edges.iter().map(|e| e.visits_relaxed()).sum());
    if visits == 0 || out <= visits {
        return (visits, value_sum);
    }
    (out, value_sum / visits as f64 * out as f64)
}
