//! The Gomocup protocol (Piskvork's "pbrain" protocol, <https://plastovicka.github.io/protocl2en.htm>):
//! a game manager sends one command per line on the brain's standard input, and the brain answers on its
//! standard output. [`run`] is the whole brain over any reader and writer, so tests can script it;
//! [`run_stdio`] is the brain process that the `pbrain-canopy` binary and `canopy gomocup` run.
//!
//! # Commands
//!
//! | manager sends                        | brain answers                                                  |
//! |--------------------------------------|----------------------------------------------------------------|
//! | `START size`                         | `OK`, or `ERROR ...` for a size outside 5..=20                  |
//! | `RECTSTART w,h`                      | `OK` when `w == h` is a supported size, else `ERROR ...`        |
//! | `RESTART`                            | `OK` (the board is cleared)                                     |
//! | `BEGIN`                              | its first move `x,y` (the centre of the empty board); `ERROR ...` on a board with stones |
//! | `TURN x,y`                           | the opponent played `x,y`; its own move `x,y`                   |
//! | `BOARD`, lines `x,y,f`, `DONE`       | the whole position (`f`: 1 own stone, 2 opponent's; 3, a continuous game's completed line, is refused); its move |
//! | `SWAP2BOARD`, lines `x,y`, `DONE`    | the SWAP2 opening (module `swap2`): three stones, `SWAP`, or a move |
//! | `TAKEBACK x,y`                       | `OK` (the stone on `x,y` is removed)                            |
//! | `INFO key value`                     | nothing (`MESSAGE ...` for a malformed number, which is ignored, for a `max_memory` too small, and for rules not supported) |
//! | `ABOUT`                              | `name="canopy", version="...", author="...", country="..."`    |
//! | `END`                                | nothing; the brain exits                                        |
//! | anything else                        | `UNKNOWN ...`                                                   |
//!
//! Malformed arguments (a cell off the board or occupied, a bad number) are answered with one `ERROR ...`
//! line and change nothing. Commands are case-insensitive; text after a command that takes no arguments
//! is ignored (`END now` is `END`); blank lines are skipped; lines may end with CR LF; a line longer than
//! [`MAX_LINE_BYTES`] is answered with one `ERROR` (inside a BOARD block: at DONE) without being kept.
//! A bad line inside a BOARD or SWAP2BOARD block fails the block with one `ERROR` at DONE; a command
//! that changes the game inside one (the manager moved on without DONE) fails it with one `ERROR` at
//! once, and is then handled; INFO and ABOUT are handled and the block goes on.
//! Every answer is one line ending in `\n`, flushed at once. Before a searched move the brain may print one
//! `MESSAGE ...` line with its search figures (when [`BrainConfig::messages`] is on).
//!
//! # Thinking, stopping, ending
//!
//! A reader thread reads the lines while the brain thinks. A command that changes the game or ends the
//! session (START, RECTSTART, RESTART, BEGIN, TURN, BOARD, SWAP2BOARD, TAKEBACK, END) cancels the command just before
//! it (INFO lines in between do not count): when that one asked for a move, its search stops at once (or
//! never starts) and the move is not printed, since the manager has moved on (as in Piskvork's skeleton
//! brain). END also stops every search still to come; the commands before it are still handled in order
//! (searched moves unanswered), then the brain exits. A move that needs no search (the centre of the
//! empty board, a win in one, the block of a five) is always answered. The end of input ends the session
//! once every command read has been handled.
//!
//! A panic inside the brain (in the search, the game, or a command) is caught: a failed search plays a
//! fallback move (the threat agent's, else the first empty cell) after a `MESSAGE`; any other failure
//! answers `ERROR internal error: ...` (for INFO, a `MESSAGE`; inside a BOARD block, an `ERROR` at DONE),
//! and the brain goes on. [`run_stdio`] also silences the panic messages Rust would print on stderr.
//!
//! # INFO keys
//!
//! `timeout_turn` (milliseconds per move, 0 = play fast), `timeout_match` (milliseconds per game,
//! 0 = no limit), `time_left` (milliseconds left in the game; negative counts as 0, 2147483647 as no
//! limit), `max_memory` (bytes, 0 = no limit), `rule` (a bit mask: 1 = exactly five wins, i.e.
//! [`Rule::Standard`]; 2 = continuous game, not supported: it draws a `MESSAGE`, and BOARD's field 3,
//! a completed line's stone, is refused; 4 = renju, [`Rule::Renju`], whatever bit 1 says; 8 = caro, not
//! supported: it draws a `MESSAGE`, as do higher bits, and the other bits still apply), `game_type`
//! (informational). Other keys are ignored. A value that is not a number draws a `MESSAGE` (INFO has
//! no answer, so an `ERROR` could pass for the next command's) and is ignored.
//!
//! # Time and memory
//!
//! Each move gets a [`MoveBudget`] from [`move_budget`], counted from the moment the move's command (TURN,
//! BEGIN, or the BOARD line of a BOARD block) was read: without a match limit, the turn limit less a
//! latency margin ([`latency_margin`]); with one, a share of the time left over the expected remaining
//! moves ([`moves_left`]), twice as large for a critical move (the opponent threatens a victory by
//! continuous fours), and at most three shares or the turn limit. Under a match clock the search stops at
//! the soft time once [`Settle`] finds it settled (earlier when one move dominates); without one it uses
//! the whole turn (time saved has no later use). It never runs after the hard time; forced
//! moves and victories by fours need no search. `canopy gomocup --time` and `--playouts` cap it further.
//! The search's memory budget is three quarters of `max_memory` after a fixed reserve for the program
//! itself ([`memory_budget`]). A positive `max_memory` too small for the reserve and the smallest search
//! ([`MIN_MAX_MEMORY_BYTES`]) is answered with a `MESSAGE max_memory ...` line naming that minimum; the
//! brain then searches in the smallest budget, [`MIN_MEMORY_BYTES`].
//!
//! # Pondering
//!
//! The brain never thinks during the opponent's turn: between its answer and the next command nothing
//! runs but the reader thread waiting for input. Gomocup's tournament rules forbid pondering (the manager
//! suspends a brain while the other one thinks; <https://gomocup.org/detail-information/>); only the
//! experimental tournaments played on the participants' own machines (2020, 2021) allowed it. Each move
//! is searched in one place (`Brain::think`), on the tree kept from the brain's last searched turn and
//! re-rooted on its move and the reply ([`Tuning::reuse`]; `canopy gomocup --no-reuse` searches every
//! turn from a new tree).

mod commands;
mod input;
mod swap2;
mod time;

use std::any::Any;
use std::io::{self, BufRead, BufReader, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::agents::forced_move;
use super::board::{Cell, GomokuState, MAX_SIZE};
use super::player::{default_search_params, fallback_move, Plan, Tuning};
use super::policy::GomokuPolicy;
use super::rules::Rule;
use super::Gomoku;
use crate::policy::Coverage;
use crate::rng::{seeded, Rng};
use crate::search::{Event, Limits, Progress, SearchParams, SearchReport};
use input::{command_word, Input, Session, Signal, Text};

pub use input::MAX_LINE_BYTES;
pub use time::{
    latency_margin, move_budget, moves_left, MoveBudget, Settle, TimeLimits, Urgency, CLEAR_LEAD,
    DEFAULT_TIMEOUT_TURN_MS, DOMINANT_LEAD, DOMINANT_VISITS, FAST_MOVE_MS, MOVES_LEFT_RANGE, UNLIMITED_TIME_LEFT,
};

/// Memory kept back from `max_memory` for the program itself (code, stacks, buffers), in bytes.
pub const MEMORY_RESERVE_BYTES: usize = 8 << 20;
/// The smallest search memory budget the brain uses, in bytes.
pub const MIN_MEMORY_BYTES: usize = 256 << 10;
/// The smallest `max_memory` (bytes) the brain fits in: [`MEMORY_RESERVE_BYTES`] for the program, then
/// three quarters of the rest for a search of at least [`MIN_MEMORY_BYTES`] (8 738 136 bytes). A positive
/// `max_memory` below it is answered with a `MESSAGE` saying so, and the search uses [`MIN_MEMORY_BYTES`].
pub const MIN_MAX_MEMORY_BYTES: u64 = (MEMORY_RESERVE_BYTES + MIN_MEMORY_BYTES.div_ceil(3) * 4) as u64;

/// How the brain searches: everything but the per-move time and memory, which the manager sets.
#[derive(Clone, Debug)]
pub struct BrainConfig {
    /// Base search parameters (threads, seed, exploration, ...). `playouts` and `time_ms`, when set, cap
    /// each move below the manager's time limit; `memory_bytes` applies when the manager sets no
    /// `max_memory` (and caps it otherwise).
    pub params: SearchParams,
    /// Print a `MESSAGE` line with the search figures before each searched move.
    pub messages: bool,
    /// How the search shapes the game; with [`Tuning::reuse`] the brain keeps its search tree between
    /// turns: its move and the opponent's reply re-root it ([`crate::search::Session::advance`]), so that
    /// a turn starts from what the last one learnt.
    pub tuning: Tuning,
}

impl Default for BrainConfig {
    fn default() -> Self {
        BrainConfig {
            params: SearchParams { playouts: None, ..default_search_params() },
            messages: true,
            tuning: Tuning::default(),
        }
    }
}

/// The search memory budget for the manager's `max_memory` (bytes, 0 = no limit: `default`): three
/// quarters of what is left after [`MEMORY_RESERVE_BYTES`], at most `default` and at least
/// [`MIN_MEMORY_BYTES`] (the budget of every `max_memory` below [`MIN_MAX_MEMORY_BYTES`]).
pub fn memory_budget(max_memory: u64, default: usize) -> usize {
    if max_memory == 0 {
        return default;
    }
    let max = usize::try_from(max_memory).unwrap_or(usize::MAX);
    (max.saturating_sub(MEMORY_RESERVE_BYTES) / 4 * 3).max(MIN_MEMORY_BYTES).min(default.max(MIN_MEMORY_BYTES))
}

/// Runs the brain: reads commands from `input` until `END` or the end of input, answering on `output`
/// (see the module documentation for what is answered when).
///
/// A reader thread reads `input`; it is not joined, so that the brain can return while the thread is
/// still blocked on a read (it ends by itself at the end of input, after END, or on its next line).
///
/// # Errors
/// Returns the first error writing to `output` (reading errors end the session like the end of input).
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W, config: &BrainConfig) -> io::Result<()> {
    let session = Arc::new(Session::new());
    let rx = input::spawn_reader(input, Arc::clone(&session));
    Brain::new(config, output, &session).serve(&rx)
}

/// The brain process: [`quiet_panics`], then [`run`] on stdin and stdout.
///
/// # Errors
/// The first error writing to stdout (the manager closed the pipe); a brain binary exits quietly with
/// status 0 on it, since nobody is left to read anything.
pub fn run_stdio(config: &BrainConfig) -> io::Result<()> {
    quiet_panics();
    run(BufReader::new(io::stdin()), io::stdout(), config)
}

/// Replaces the process's panic hook with one that prints nothing. A manager reads the brain's stdout
/// (and may log its stderr); the brain reports caught panics in its own `ERROR` or `MESSAGE` lines.
pub fn quiet_panics() {
    panic::set_hook(Box::new(|_| {}));
}

/// A panic payload's message, cut for an answer line.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string());
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).take(200).collect()
}

/// A fault a unit test injects into the brain.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// Every search panics.
    Search,
    /// Every search and every fallback move panic.
    SearchAndFallback,
    /// Handling an `ABOUT` command panics.
    About,
}

/// An open BOARD block: the stones read so far, the first error among its lines, and when BOARD was read
/// (the move's clock starts there).
struct BoardBlock {
    mine: Vec<Cell>,
    theirs: Vec<Cell>,
    bad: Option<String>,
    received: Instant,
}

/// An open SWAP2BOARD block: the opening's stones read so far in order, the first error among its
/// lines, and when SWAP2BOARD was read (the answer's clock starts there).
struct Swap2Block {
    stones: Vec<Cell>,
    bad: Option<String>,
    received: Instant,
}

/// One session's state.
struct Brain<'a, W: Write> {
    config: &'a BrainConfig,
    out: W,
    session: &'a Session,
    /// Board side; `None` before START.
    size: Option<usize>,
    rule: Rule,
    /// The brain's stones and the opponent's, in the order they were placed.
    mine: Vec<Cell>,
    theirs: Vec<Cell>,
    /// An open BOARD block.
    board: Option<BoardBlock>,
    /// An open SWAP2BOARD block.
    swap2: Option<Swap2Block>,
    /// The share of a normal move's time the next search gets (1: all of it; SWAP2's first answer
    /// searches several openings).
    time_share: u64,
    /// The root value of the last searched move for the side to move (SWAP2's colour choice).
    last_value: Option<f64>,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    max_memory: u64,
    moves: u64,
    rng: Rng,
    /// The search tree kept from the last searched turn ([`Tuning::reuse`]).
    tree: Option<crate::search::Session<Gomoku, GomokuPolicy>>,
    #[cfg(test)]
    fault: Option<Fault>,
}

/// What the session does after a command.
enum Flow {
    Continue,
    End,
}

impl<'a, W: Write> Brain<'a, W> {
    fn new(config: &'a BrainConfig, out: W, session: &'a Session) -> Self {
        Brain {
            config,
            out,
            session,
            size: None,
            rule: Rule::Freestyle,
            mine: Vec::new(),
            theirs: Vec::new(),
            board: None,
            swap2: None,
            time_share: 1,
            last_value: None,
            timeout_turn: DEFAULT_TIMEOUT_TURN_MS,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            moves: 0,
            rng: seeded(config.params.seed, 0x676f_6d6f),
            tree: None,
            #[cfg(test)]
            fault: None,
        }
    }

    fn serve(&mut self, rx: &Receiver<Input>) -> io::Result<()> {
        while let Ok(input) = rx.recv() {
            if let Flow::End = self.guarded(&input)? {
                break;
            }
        }
        Ok(())
    }

    /// Handles one input line, turning a panic into an answer (see the module documentation).
    fn guarded(&mut self, input: &Input) -> io::Result<Flow> {
        match panic::catch_unwind(AssertUnwindSafe(|| self.input(input))) {
            Ok(flow) => flow,
            Err(payload) => {
                let what = format!("internal error: {}", panic_text(&*payload));
                if let Some(block) = &mut self.board {
                    block.bad.get_or_insert(what);
                    return Ok(Flow::Continue);
                }
                let info = matches!(&input.text, Text::Line(l) if command_word(l.trim()).0 == "INFO");
                if !info {
                    return self.error(&what);
                }
                if self.config.messages {
                    self.say(&format!("MESSAGE {what}"))?;
                }
                Ok(Flow::Continue)
            }
        }
    }

    fn input(&mut self, input: &Input) -> io::Result<Flow> {
        match &input.text {
            Text::Line(line) => {
                #[cfg(test)]
                if self.fault == Some(Fault::About) && line.trim().eq_ignore_ascii_case("ABOUT") {
                    panic!("injected fault in ABOUT");
                }
                self.command(line.trim(), input)
            }
            Text::TooLong => {
                let what = format!("line longer than {MAX_LINE_BYTES} bytes ignored");
                match &mut self.board {
                    Some(block) => {
                        block.bad.get_or_insert(format!("BOARD {what}"));
                        Ok(Flow::Continue)
                    }
                    None => self.error(&what),
                }
            }
        }
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        self.out.write_all(line.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn error(&mut self, msg: &str) -> io::Result<Flow> {
        self.say(&format!("ERROR {msg}"))?;
        Ok(Flow::Continue)
    }

    /// The time limits INFO has set so far.
    fn limits(&self) -> TimeLimits {
        TimeLimits { timeout_turn: self.timeout_turn, timeout_match: self.timeout_match, time_left: self.time_left }
    }

    /// Chooses and prints the brain's move in the current position, and records it; a move whose search
    /// was cancelled is neither printed nor recorded. `received`: when the move's command was read;
    /// `signal`: its cancellation.
    fn answer(&mut self, received: Instant, signal: &Arc<Signal>) -> io::Result<Flow> {
        let size = self.size.unwrap_or(MAX_SIZE);
        let game = Gomoku::new(size, self.rule);
        let state = match game.from_sides(&self.mine, &self.theirs) {
            Ok(s) => s,
            // Both sides hold a five (the manager played on after a win): any empty cell will do.
            Err(_) => {
                let taken = |c: &Cell| self.mine.contains(c) || self.theirs.contains(c);
                let Some(cell) = (0..size * size).map(|i| Cell::from_index(i, size)).find(|c| !taken(c)) else {
                    return self.error("the board is full");
                };
                self.mine.push(cell);
                self.say(&cell.to_string())?;
                return Ok(Flow::Continue);
            }
        };
        let empty = size * size - state.stone_count();
        if empty == 0 {
            return self.error("the board is full");
        }
        let forced = if self.config.tuning.forced_answer { forced_move(&game, &state) } else { None };
        let cell = if state.stone_count() == 0 {
            Cell::new(size / 2, size / 2)
        } else if state.is_terminal() {
            // A five is on the board and the manager plays on: nothing to search.
            self.fallback(&game, &state)
        } else if let Some(cell) = forced.filter(|&c| state.is_empty_cell(c)) {
            cell
        } else {
            match self.think(&game, &state, empty, received, signal)? {
                Some(c) => c,
                None => return Ok(Flow::Continue),
            }
        };
        // Never answer an occupied or off-board cell.
        let cell = if state.is_empty_cell(cell) { cell } else { first_empty(&state) };
        self.mine.push(cell);
        self.moves += 1;
        self.say(&cell.to_string())?;
        Ok(Flow::Continue)
    }

    /// Thinks about the move in the non-terminal, non-empty `state`: the threat-space plan, then the tree
    /// search, within the move's budget; returns an empty cell, or `None` when the move was cancelled.
    ///
    /// The one place where the brain starts a search (on the tree kept across turns, with
    /// [`Tuning::reuse`]). A panic in the search plays [`fallback_move`] instead (the first empty cell when that
    /// panics too), after a `MESSAGE`.
    fn think(
        &mut self,
        game: &Gomoku,
        state: &GomokuState,
        empty: usize,
        received: Instant,
        signal: &Arc<Signal>,
    ) -> io::Result<Option<Cell>> {
        let cancelled = |session: &Session| signal.cancelled_acquire() || session.ending_acquire();
        self.session.think(Some(signal));
        if cancelled(self.session) {
            self.session.think(None);
            return Ok(None);
        }
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| self.search(game, state, empty, received, signal)));
        self.session.think(None);
        if cancelled(self.session) {
            return Ok(None);
        }
        match outcome {
            Ok((cell, report)) => {
                self.last_value = report.as_ref().and_then(|(r, _)| r.root_value);
                if let (true, Some((report, budgets))) = (self.config.messages, report) {
                    self.say(&search_message(&report, budgets, cell))?;
                }
                Ok(Some(match cell {
                    Some(c) => c,
                    None => self.fallback(game, state),
                }))
            }
            Err(payload) => {
                if self.config.messages {
                    let what = panic_text(&*payload);
                    self.say(&format!("MESSAGE canopy: the search failed ({what}); playing a fallback move"))?;
                }
                Ok(Some(self.fallback(game, state)))
            }
        }
    }

    /// The move's plan and search: the cell (`None` when the search found none) and, after a tree search,
    /// its report, its budget and the move's (larger when the refutation check keeps a share).
    fn search(
        &mut self,
        game: &Gomoku,
        state: &GomokuState,
        empty: usize,
        received: Instant,
        signal: &Signal,
    ) -> (Option<Cell>, Option<Searched>) {
        #[cfg(test)]
        if matches!(self.fault, Some(Fault::Search | Fault::SearchAndFallback)) {
            panic!("injected fault in the search");
        }
        let tuning = self.config.tuning;
        let cap = |b: MoveBudget| match self.config.params.time_ms {
            Some(t) => MoveBudget { soft_ms: b.soft_ms.min(t).max(1), hard_ms: b.hard_ms.min(t).max(1), ..b },
            None => b,
        };
        let share = |b: MoveBudget| MoveBudget {
            soft_ms: (b.soft_ms / self.time_share).max(1),
            hard_ms: (b.hard_ms / self.time_share).max(1),
            ..b
        };
        let normal = share(cap(move_budget(self.limits(), empty, Urgency::Normal)));
        // The threat-space searches get at most a third of a normal move.
        let plan = tuning.plan(game, state, Some(received + Duration::from_millis(normal.soft_ms / 3)));
        let root_moves = match plan {
            Plan::Play(cell, _) => return (Some(cell), None),
            Plan::Search(root_moves) => root_moves,
        };
        // Only some moves stop the opponent's victory by fours: a critical move.
        let urgency = if root_moves.is_some() { Urgency::Critical } else { Urgency::Normal };
        let budget = share(cap(move_budget(self.limits(), empty, urgency)));
        // With the refutation check on, the search leaves it its share of the move.
        let check_deadline = received + Duration::from_millis(budget.hard_ms);
        let whole = budget;
        let budget = MoveBudget {
            soft_ms: tuning.search_ms(budget.soft_ms),
            hard_ms: tuning.search_ms(budget.hard_ms),
            ..budget
        };
        let mut params = self.config.params.clone();
        let spent = received.elapsed().as_millis() as u64;
        // A manager's time may pass what a search takes (`MAX_TIME_MS`, eleven days): the search then
        // runs that long, unless stopped.
        params.time_ms = Some(budget.hard_ms.saturating_sub(spent).clamp(1, crate::search::MAX_TIME_MS));
        params.memory_bytes = memory_budget(self.max_memory, params.memory_bytes);
        params.seed = params.seed.wrapping_add(self.moves);
        let policy = tuning.policy();
        let mut settle = Settle::new(budget);
        let mut observe = |p: &Progress| {
            let elapsed = received.elapsed().as_millis() as u64;
            if settle.look(elapsed, p.best.as_deref(), p.best_visits, p.second_visits) {
                signal.stop_release();
            }
        };
        let interval = (budget.soft_ms / 10).clamp(5, 50);
        let progress = Some((interval, &mut observe as &mut dyn FnMut(&Progress)));
        let report = if tuning.reuse {
            let playouts = params.playouts;
            let tree = self.kept_tree(game, state, policy, params);
            // Re-rooting the kept tree takes time of its own (it copies the kept part): the search gets
            // what is left of the hard time after it.
            let spent = received.elapsed().as_millis() as u64;
            let limits = Limits { playouts, time_ms: Some(budget.hard_ms.saturating_sub(spent).max(1)) };
            tree.restrict_root(root_moves.map(|m| (m, Coverage::ProofSafe)));
            tree.search_observed(limits, Some(signal.stop_flag()), progress)
        } else {
            tuning.search(game, &policy, params, root_moves).run_observed(state, Some(signal.stop_flag()), progress)
        };
        let cell = tuning.refuted_best(game, state, &report, Some(check_deadline)).or(report.best);
        (cell, Some((report, (budget, whole))))
    }

    /// The kept search tree, following the game to `state`: re-rooted on the brain's last move and the
    /// opponent's reply when the tree stands for the position before them, else a fresh tree (a new game,
    /// BOARD, TAKEBACK, or turns played without a search).
    fn kept_tree(
        &mut self,
        game: &Gomoku,
        state: &GomokuState,
        policy: GomokuPolicy,
        params: SearchParams,
    ) -> &mut crate::search::Session<Gomoku, GomokuPolicy> {
        let same = |t: &crate::search::Session<Gomoku, GomokuPolicy>| {
            t.game() == game && t.state().key() == state.key() && t.state().stone_count() == state.stone_count()
        };
        let follows = self.tree.take().filter(|t| *t.game() == *game).and_then(|mut t| {
            if same(&t) {
                return Some(t);
            }
            let (&mine, &theirs) = (self.mine.last()?, self.theirs.last()?);
            let advanced = t.advance_all([Event::Action(mine), Event::Action(theirs)]).is_ok();
            (advanced && same(&t)).then_some(t)
        });
        let mut tree = follows
            .unwrap_or_else(|| crate::search::Session::with_policy(*game, policy, state.clone(), params.clone()));
        tree.set_params(params);
        self.tree.insert(tree)
    }

    /// A move without a search: [`fallback_move`], or the first empty cell when that panics.
    fn fallback(&mut self, game: &Gomoku, state: &GomokuState) -> Cell {
        #[cfg(test)]
        let fails = self.fault == Some(Fault::SearchAndFallback);
        let rng = &mut self.rng;
        let chosen = panic::catch_unwind(AssertUnwindSafe(|| {
            #[cfg(test)]
            if fails {
                panic!("injected fault in the fallback");
            }
            fallback_move(game, state, rng)
        }));
        chosen.ok().flatten().filter(|&c| state.is_empty_cell(c)).unwrap_or_else(|| first_empty(state))
    }
}

/// A move's tree search: its report, its budget and the move's (larger when the refutation check keeps
/// a share of the move).
type Searched = (SearchReport<Cell>, (MoveBudget, MoveBudget));

/// The `MESSAGE` line of a searched move: playouts, time against the search's budget (and the move's,
/// when the refutation check keeps a share of it: `budgets` is the search's and the move's), win rate,
/// proof, pv, and the move played when the refutation check replaced the search's best with `played`.
fn search_message(report: &SearchReport<Cell>, budgets: (MoveBudget, MoveBudget), played: Option<Cell>) -> String {
    let proof = match report.root_proof {
        Some(p) => format!(", proven {p:?}").to_lowercase(),
        None => String::new(),
    };
    let win_rate = report.best.and_then(|b| report.action(&b)).and_then(|a| a.mean);
    let replaced = match played {
        Some(c) if played != report.best => {
            format!("; the refutation check found the opponent's victory by threats after it, so {c} is played")
        }
        _ => String::new(),
    };
    let span = |b: MoveBudget| {
        if b.soft_ms == b.hard_ms {
            format!("{} ms", b.hard_ms)
        } else {
            format!("{}-{} ms", b.soft_ms, b.hard_ms)
        }
    };
    let (budget, whole) = budgets;
    let budget_text = if (budget.soft_ms, budget.hard_ms) == (whole.soft_ms, whole.hard_ms) {
        span(budget)
    } else {
        format!("{} of the move's {}, the rest kept for the refutation check", span(budget), span(whole))
    };
    format!(
        "MESSAGE canopy: {} playouts in {:.0} ms (budget {budget_text}; {} kept from the last turn), win rate \
         {}{proof}, pv {}{replaced}",
        report.playouts,
        report.elapsed_ms,
        report.root_visits.saturating_sub(report.playouts),
        win_rate.map_or("-".into(), |v| format!("{v:.3}")),
        report.pv.join(" ")
    )
}

/// The first empty cell in row-major order.
///
/// # Panics
/// Panics on a full board (callers check).
fn first_empty(state: &GomokuState) -> Cell {
    let size = state.size();
    (0..size * size).map(|i| Cell::from_index(i, size)).find(|&c| state.is_empty_cell(c)).expect("an empty cell")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(playouts: Option<u64>) -> BrainConfig {
        BrainConfig {
            params: SearchParams { threads: 1, pin_threads: false, playouts, ..BrainConfig::default().params },
            messages: true,
            tuning: Tuning::default(),
        }
    }

    /// Runs a whole script through the brain (with an injected fault) and returns every output line.
    fn run_all(script: &str, config: &BrainConfig, fault: Option<Fault>) -> Vec<String> {
        let mut out = Vec::new();
        let session = Arc::new(Session::new());
        let rx = input::spawn_reader(io::Cursor::new(script.as_bytes().to_vec()), Arc::clone(&session));
        let mut brain = Brain::new(config, &mut out, &session);
        brain.fault = fault;
        brain.serve(&rx).unwrap();
        String::from_utf8(out).unwrap().lines().map(String::from).collect()
    }

    /// The answer lines of a script (MESSAGE lines dropped), 500 playouts a move.
    fn session(script: &str) -> Vec<String> {
        answer_lines(run_all(script, &config(Some(500)), None))
    }

    fn answer_lines(lines: Vec<String>) -> Vec<String> {
        lines.into_iter().filter(|l| !l.starts_with("MESSAGE")).collect()
    }

    #[test]
    #[cfg(not(canopy_loom))]
    fn scripted_session_over_a_reader_and_a_writer() {
        // The end of input ends the session once everything read is answered.
        let answers = session("START 15\r\nbegin\r\n\r\nTURN 8,8\r\nABOUT\r\nXYZZY\r\nTURN 7,7\r\nTURN 1,1\r\n");
        assert_eq!(answers.len(), 7, "{answers:?}");
        assert_eq!(answers[0], "OK");
        assert_eq!(answers[1], "7,7");
        let reply = Cell::parse(&answers[2]).unwrap();
        assert!(reply != Cell::new(7, 7) && reply != Cell::new(8, 8));
        assert!(answers[3].starts_with("name=\"canopy\""));
        assert!(answers[4].starts_with("UNKNOWN"));
        assert!(answers[5].starts_with("ERROR"), "{answers:?}");
        let last = Cell::parse(&answers[6]).unwrap();
        assert!(![Cell::new(7, 7), Cell::new(8, 8), Cell::new(1, 1), reply].contains(&last));
        assert_eq!(session("START 20\n"), ["OK"]);
        assert_eq!(session(""), Vec::<String>::new());
    }

    /// SWAP2BOARD: three opening stones near the centre; with three or five stones, `SWAP` when Black
    /// stands better and White's move when White does; malformed blocks are one `ERROR`.
    #[test]
    #[cfg(not(canopy_loom))]
    fn swap2_openings_and_colour_choices() {
        let answers = session("START 15\nSWAP2BOARD\nDONE\n");
        assert_eq!(answers.len(), 2, "{answers:?}");
        let cells: Vec<Cell> = answers[1].split(' ').map(|c| Cell::parse(c).unwrap()).collect();
        assert_eq!(cells.len(), 3, "{answers:?}");
        assert!(cells.iter().all(|c| (5..=9).contains(&c.x) && (5..=9).contains(&c.y)), "{answers:?}");
        assert!(cells[0] != cells[1] && cells[1] != cells[2] && cells[0] != cells[2]);
        // Black's pair in the centre against White's corner stone: the brain takes Black.
        assert_eq!(session("START 15\nSWAP2BOARD\n7,7\n0,0\n8,7\nDONE\n"), ["OK", "SWAP"]);
        // White in the centre against Black's corners: the brain stays White and plays the fourth stone.
        let answers = session("START 15\nSWAP2BOARD\n0,0\n7,7\n14,14\nDONE\n");
        let fourth = Cell::parse(&answers[1]).unwrap_or_else(|| panic!("{answers:?}"));
        assert!(![Cell::new(0, 0), Cell::new(7, 7), Cell::new(14, 14)].contains(&fourth));
        // Five stones, Black's three in a bent line in the centre: the brain takes Black.
        assert_eq!(session("START 15\nSWAP2BOARD\n7,7\n0,0\n8,7\n14,14\n7,8\nDONE\n"), ["OK", "SWAP"]);
        for bad in ["7,7\n8,7\n", "7,7\n7,7\n8,8\n", "7,7\n8,x\n9,9\n", "7,7\n8,8\n99,9\n"] {
            let answers = session(&format!("START 15\nSWAP2BOARD\n{bad}DONE\n"));
            assert_eq!(answers.len(), 2, "{bad:?}: {answers:?}");
            assert!(answers[1].starts_with("ERROR"), "{bad:?}: {answers:?}");
        }
        assert!(session("SWAP2BOARD\nDONE\n")[0].starts_with("ERROR"));
    }

    /// A command inside a BOARD or SWAP2BOARD block (the manager moved on without DONE) ends the block
    /// with an `ERROR` and is then handled; BOARD's field 3 (a continuous game's completed line), BEGIN on
    /// a board with stones and a continuous game's INFO rule are refused.
    #[test]
    #[cfg(not(canopy_loom))]
    fn blocks_without_done_field_3_and_begin_on_stones_are_refused() {
        // INFO and ABOUT leave the game as it is: handled inside the block, which goes on.
        let lines =
            run_all("START 15\nBOARD\n7,7,1\nINFO timeout_turn x\nABOUT\n8,8,2\nDONE\n", &config(Some(500)), None);
        // (The search's own MESSAGE line comes before its move.)
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert!(lines[1].starts_with("MESSAGE INFO timeout_turn") && lines[2].starts_with("name="), "{lines:?}");
        assert!(Cell::parse(&lines[4]).is_some_and(|c| ![Cell::new(7, 7), Cell::new(8, 8)].contains(&c)));
        let answers = session("START 15\nSWAP2BOARD\n7,7\nINFO rule 0\n8,8\n9,9\nDONE\n");
        assert_eq!(answers.len(), 2, "{answers:?}");
        // A bad line before the interrupting command is named too.
        let answers = session("START 15\nBOARD\n7,7,1\n7,7,2\nRESTART\n");
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(answers[1].starts_with("ERROR BOARD block not closed by DONE before RESTART"), "{answers:?}");
        assert!(answers[1].contains("7,7 is listed twice"), "{answers:?}");
        assert_eq!(answers[2], "OK");
        // The dropped block leaves the board as it was (empty): TURN's stone is the only one.
        let answers = session("START 15\nBOARD\n7,7,1\nTURN 3,3\n");
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(answers[1].starts_with("ERROR BOARD block"), "{answers:?}");
        assert!(Cell::parse(&answers[2]).is_some_and(|c| c != Cell::new(3, 3)), "{answers:?}");
        let answers = session("START 15\nSWAP2BOARD\n7,7\nBEGIN\n");
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(answers[1].starts_with("ERROR SWAP2BOARD block"), "{answers:?}");
        assert_eq!(answers[2], "7,7", "{answers:?}");
        // Lines that are not commands still fail the block at DONE, as one ERROR.
        let answers = session("START 15\nBOARD\n7,7,1\nXYZZY\nDONE\n");
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert!(answers[1].starts_with("ERROR BOARD line 'XYZZY'"), "{answers:?}");
        let answers = session("START 15\nBOARD\n7,7,3\nDONE\n");
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert!(answers[1].starts_with("ERROR BOARD field 3 on 7,7"), "{answers:?}");
        // The second BEGIN changes nothing: TURN then answers the position of the brain's centre stone.
        let answers = session("START 15\nBEGIN\nBEGIN\nTURN 3,3\n");
        assert_eq!(answers.len(), 4, "{answers:?}");
        assert_eq!(answers[1], "7,7");
        assert!(answers[2].starts_with("ERROR BEGIN opens an empty board, and this one has 1 stone:"), "{answers:?}");
        assert!(Cell::parse(&answers[3]).is_some_and(|c| ![Cell::new(7, 7), Cell::new(3, 3)].contains(&c)));
        let lines = run_all("START 15\nINFO rule 3\nEND\n", &config(Some(500)), None);
        assert_eq!(
            lines,
            ["OK", "MESSAGE rule 3: continuous games (2) are not supported; playing single games of standard"]
        );
    }

    /// `INFO rule 4` (and 5, renju with the exact-five bit) plays renju: as Black the brain does not play
    /// the double three that wins under freestyle, and as White it plays the four whose only block is
    /// Black's forbidden cell. `INFO rule 8` (caro) is answered with a `MESSAGE`.
    #[test]
    #[cfg(not(canopy_loom))]
    fn info_rule_4_plays_renju() {
        let black = "BOARD\n7,5,1\n0,14,2\n7,6,1\n4,14,2\n5,7,1\n8,14,2\n6,7,1\n12,14,2\nDONE\n";
        let free = session(&format!("START 15\nINFO rule 0\n{black}"));
        assert_eq!(free, ["OK", "7,7"], "freestyle: the double three wins");
        let game = Gomoku::new(15, Rule::Renju);
        let state = game.from_moves("7,5 0,14 7,6 4,14 5,7 8,14 6,7 12,14").unwrap();
        for rule in [4, 5] {
            let answers = session(&format!("START 15\nINFO rule {rule}\n{black}"));
            let reply = Cell::parse(&answers[1]).unwrap();
            assert!(state.is_empty_cell(reply) && game.foul(&state, reply).is_none(), "rule {rule}: {reply}");
        }
        let white = "BOARD\n7,5,2\n3,3,1\n7,6,2\n4,4,1\n5,7,2\n5,5,1\n6,7,2\n14,14,1\n2,2,2\nDONE\n";
        for rule in [4, 5] {
            let lines = run_all(&format!("START 15\nINFO rule {rule}\n{white}"), &config(Some(500)), None);
            assert!(lines.iter().all(|l| !l.contains("not supported")), "{lines:?}");
            assert_eq!(answer_lines(lines), ["OK", "6,6"], "rule {rule}: the four Black cannot block");
        }
        let lines = run_all("START 15\nINFO rule 8\nEND\n", &config(Some(500)), None);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].starts_with("MESSAGE rule 8: caro"), "{lines:?}");
    }

    #[test]
    #[cfg(not(canopy_loom))]
    fn board_takeback_and_restart() {
        let answers = session("START 10\nBOARD\n1,1,1\n2,2,2\nDONE\nINFO rule 0\n");
        assert_eq!(answers[0], "OK");
        let reply = Cell::parse(&answers[1]).unwrap();
        assert!(reply.on_board(10) && reply != Cell::new(1, 1) && reply != Cell::new(2, 2));
        let answers = session("START 10\nBOARD\n1,1,1\n2,2,2\nDONE\nTAKEBACK 1,1\nTAKEBACK 1,1\nRESTART\nBEGIN\nEND\n");
        // DONE's move is cancelled by the TAKEBACK right after it (the manager has moved on).
        assert_eq!(answers, ["OK", "OK", answers[2].as_str(), "OK", "5,5"]);
        assert!(answers[2].starts_with("ERROR"));
    }

    #[test]
    fn end_and_stopping_commands_cancel_the_move_before_them() {
        // Moves of 30 s each: a cancelled search that did not stop would hold the test for minutes.
        let slow =
            BrainConfig { params: SearchParams { time_ms: Some(30_000), ..config(None).params }, ..config(None) };
        let started = Instant::now();
        let lines =
            run_all("START 15\nINFO timeout_turn 30000\nTURN 7,7\nRESTART\nTURN 7,7\nABOUT\nEND now\n", &slow, None);
        assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
        // START; TURN cancelled by RESTART; RESTART; TURN cancelled by END (queued behind ABOUT); ABOUT.
        let answers = answer_lines(lines);
        assert_eq!(answers[..2], ["OK", "OK"], "{answers:?}");
        assert!(answers[2].starts_with("name="));
        assert_eq!(answers.len(), 3);
    }

    #[test]
    fn a_move_time_past_what_a_search_takes_is_searched_not_refused() {
        // 2^64-1 ms a move: the search's time limit is capped at MAX_TIME_MS, which its parameters take;
        // the playout limit ends it. With and without the kept tree (which passes the time as a limit).
        for reuse in [false, true] {
            let brain = BrainConfig { tuning: Tuning { reuse, ..Tuning::default() }, ..config(Some(300)) };
            let lines = run_all("START 15\nINFO timeout_turn 18446744073709551615\nTURN 7,7\n", &brain, None);
            assert!(!lines.iter().any(|l| l.contains("failed")), "reuse {reuse}: {lines:?}");
            let answers = answer_lines(lines);
            assert_eq!(answers.len(), 2, "{answers:?}");
            assert!(Cell::parse(&answers[1]).is_some(), "{answers:?}");
        }
    }

    #[test]
    fn a_panicking_search_plays_a_fallback_move_and_the_brain_goes_on() {
        let lines = run_all("START 15\nTURN 7,7\nABOUT\nTURN 0,14\n", &config(Some(200)), Some(Fault::Search));
        let answers = answer_lines(lines.clone());
        assert_eq!(answers.len(), 4, "{lines:?}");
        let first = Cell::parse(&answers[1]).unwrap();
        assert_ne!(first, Cell::new(7, 7));
        assert!(answers[2].starts_with("name="));
        let second = Cell::parse(&answers[3]).unwrap();
        assert!(![Cell::new(7, 7), Cell::new(0, 14), first].contains(&second));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("MESSAGE canopy: the search failed (injected fault in the search)")));
        // The fallback fails too: the first empty cell.
        let lines = run_all("START 15\nTURN 0,0\n", &config(Some(200)), Some(Fault::SearchAndFallback));
        assert_eq!(answer_lines(lines), ["OK", "1,0"]);
    }

    #[test]
    fn a_panicking_command_answers_error_and_the_brain_goes_on() {
        let lines = run_all("START 15\nABOUT\nBEGIN\nABOUT\n", &config(Some(200)), Some(Fault::About));
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("ERROR internal error: injected fault in ABOUT"), "{lines:?}");
        assert_eq!(lines[2], "7,7");
        assert!(lines[3].starts_with("ERROR internal error"));
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn an_over_long_line_is_one_error() {
        let long = "9".repeat(MAX_LINE_BYTES + 1);
        let answers = session(&format!("START 15\nTURN {long}\nABOUT\nBOARD\n1,1,1\n{long}\n2,2,2\nDONE\nBEGIN\n"));
        assert_eq!(answers[0], "OK");
        assert!(answers[1].starts_with("ERROR line longer than"), "{answers:?}");
        assert!(answers[2].starts_with("name="));
        assert!(answers[3].starts_with("ERROR BOARD line longer than"), "{answers:?}");
        // The BOARD block changed nothing: the board is still empty.
        assert_eq!(answers[4], "7,7");
        assert_eq!(answers.len(), 5);
    }

    #[test]
    fn negative_time_left_is_no_time() {
        let answers = session("START 15\nINFO timeout_match 1000\nINFO time_left -200\nBEGIN\nTURN 7,8\n");
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert_eq!(answers[1], "7,7");
        assert!(Cell::parse(&answers[2]).is_some());
    }

    #[test]
    fn memory_from_max_memory() {
        let default = 1 << 30;
        assert_eq!(memory_budget(0, default), default);
        assert_eq!(memory_budget(350 << 20, default), ((350 << 20) - MEMORY_RESERVE_BYTES) / 4 * 3);
        assert_eq!(memory_budget(1 << 20, default), MIN_MEMORY_BYTES);
        assert_eq!(memory_budget(u64::MAX, default), default);
        // The smallest max_memory that needs no raising, and one byte less.
        let raw = |m: u64| (m as usize - MEMORY_RESERVE_BYTES) / 4 * 3;
        assert!(raw(MIN_MAX_MEMORY_BYTES) >= MIN_MEMORY_BYTES);
        assert!(raw(MIN_MAX_MEMORY_BYTES - 1) < MIN_MEMORY_BYTES);
        assert_eq!(memory_budget(MIN_MAX_MEMORY_BYTES, default), raw(MIN_MAX_MEMORY_BYTES));
        assert_eq!(memory_budget(1, default), MIN_MEMORY_BYTES);
        assert_eq!(MIN_MAX_MEMORY_BYTES, 8_738_136);
    }
}
