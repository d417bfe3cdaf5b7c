//! The Gomocup protocol (Piskvork's "pbrain" protocol, <https://plastovicka.github.io/protocl2en.htm>):
//! a game manager sends one command per line on the brain's standard input, and the brain answers on its
//! standard output. [`run`] is the whole brain over any reader and writer, so tests can script it; the
//! `pbrain-canopy` binary and `canopy gomocup` hand it stdin and stdout.
//!
//! # Commands
//!
//! | manager sends                        | brain answers                                                  |
//! |--------------------------------------|----------------------------------------------------------------|
//! | `START size`                         | `OK`, or `ERROR ...` for a size outside 5..=20                  |
//! | `RECTSTART w,h`                      | `OK` when `w == h` is a supported size, else `ERROR ...`        |
//! | `RESTART`                            | `OK` (the board is cleared)                                     |
//! | `BEGIN`                              | its first move `x,y` (the centre of the empty board)            |
//! | `TURN x,y`                           | the opponent played `x,y`; its own move `x,y`                   |
//! | `BOARD`, lines `x,y,f`, `DONE`       | the whole position (`f`: 1 own stone, 2 opponent's); its move   |
//! | `TAKEBACK x,y`                       | `OK` (the stone on `x,y` is removed)                            |
//! | `INFO key value`                     | nothing (`ERROR ...` for a malformed number, `MESSAGE ...` for a `max_memory` too small) |
//! | `ABOUT`                              | `name="canopy", version="...", author="...", country="..."`    |
//! | `END`                                | nothing; the brain exits (a search in progress stops, unanswered) |
//! | anything else                        | `UNKNOWN ...`                                                   |
//!
//! Malformed arguments (a cell off the board or occupied, a bad number) are answered with one `ERROR ...`
//! line and change nothing. Commands are case-insensitive; blank lines are skipped; lines may end with
//! CR LF. Every answer is one line ending in `\n`, flushed at once. Before a move the brain may print one
//! `MESSAGE ...` line with its search figures (when [`BrainConfig::messages`] is on).
//!
//! # INFO keys
//!
//! `timeout_turn` (milliseconds per move, 0 = play fast), `timeout_match` (milliseconds per game,
//! 0 = no limit), `time_left` (milliseconds left in the game), `max_memory` (bytes, 0 = no limit), `rule`
//! (a bit mask: bit 0 = exactly five wins, i.e. [`Rule::Standard`]; renju and caro bits are not
//! supported and draw a `MESSAGE`), `game_type` (informational). Other keys are ignored.
//!
//! # Time and memory
//!
//! A move may take `min(timeout_turn, time_left / moves_left)` minus a safety margin (see
//! [`move_time_ms`]), counted from the moment the command was read. The search's memory budget is
//! three quarters of `max_memory` after a fixed reserve for the program itself ([`memory_budget`]). A
//! positive `max_memory` too small for the reserve and the smallest search ([`MIN_MAX_MEMORY_BYTES`])
//! is answered with a `MESSAGE max_memory ...` line naming that minimum; the brain then searches in the
//! smallest budget, [`MIN_MEMORY_BYTES`].

mod commands;

use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::time::Instant;

use super::board::{Cell, GomokuState, MAX_SIZE};
use super::player::{fallback_move, Player, Tuning, DEFAULT_EXPLORATION};
use super::rules::Rule;
use super::Gomoku;
use crate::rng::{seeded, Rng};
use crate::search::SearchParams;
use crate::sync::{AtomicBool, AtomicUsize, Ordering};

/// Time per move when the manager sends no `timeout_turn` (Piskvork's default is 30 s; tournaments set
/// their own).
pub const DEFAULT_TIMEOUT_TURN_MS: u64 = 5_000;
/// Time per move when `timeout_turn` is 0 ("play as fast as possible").
pub const FAST_MOVE_MS: u64 = 50;
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
    /// How the search shapes the game.
    pub tuning: Tuning,
}

impl Default for BrainConfig {
    fn default() -> Self {
        BrainConfig {
            params: SearchParams { playouts: None, exploration: DEFAULT_EXPLORATION, ..SearchParams::default() },
            messages: true,
            tuning: Tuning::default(),
        }
    }
}

/// The milliseconds a move may take: `min(timeout_turn, time_left / moves_left)` minus a safety margin of
/// `min(budget / 5, 30 + budget / 20)`, and at least 1. `timeout_turn == 0` means [`FAST_MOVE_MS`];
/// `timeout_match == 0` means no game limit (then `time_left` is ignored). `moves_left` is an estimate of
/// the brain's remaining moves: a fifth of the empty cells, between 8 and 40.
pub fn move_time_ms(timeout_turn: u64, timeout_match: u64, time_left: Option<u64>, empty_cells: usize) -> u64 {
    let mut budget = if timeout_turn == 0 { FAST_MOVE_MS } else { timeout_turn };
    if timeout_match > 0 {
        let left = time_left.unwrap_or(timeout_match);
        let moves_left = (empty_cells as u64 / 5).clamp(8, 40);
        budget = budget.min(left / moves_left);
    }
    let margin = (budget / 5).min(30 + budget / 20);
    budget.saturating_sub(margin).max(1)
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

/// Runs the brain: reads commands from `input` until `END` or the end of input, answering on `output`.
///
/// A reader thread feeds the commands in order. When `END` arrives while the brain is busy with the last
/// command before it (a search: the manager gave up waiting), the search stops at once; an `END` queued
/// behind other commands (a script piped in at once) waits its turn.
///
/// # Errors
/// Returns the first error writing to `output` (reading errors end the session like the end of input).
pub fn run<R: BufRead + Send, W: Write>(input: R, output: W, config: &BrainConfig) -> io::Result<()> {
    let abort = AtomicBool::new(false);
    let pending = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(String, Instant)>();
    std::thread::scope(|scope| {
        let (abort, pending) = (&abort, &pending);
        scope.spawn(move || read_lines(input, tx, abort, pending));
        let mut brain = Brain::new(config, output, abort);
        // The reader stops by itself at END or at the end of input.
        brain.serve(&rx, pending)
    })
}

/// Sends each input line (lossily decoded, with the time it was read) until `END` or the end of input.
/// `pending` counts lines sent but not yet taken; an `END` read when none is pending sets `abort`.
fn read_lines<R: BufRead>(
    mut input: R,
    tx: mpsc::Sender<(String, Instant)>,
    abort: &AtomicBool,
    pending: &AtomicUsize,
) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf).into_owned();
        let is_end = line.trim().eq_ignore_ascii_case("END");
        if is_end && pending.load(Ordering::Acquire) == 0 {
            abort.store(true, Ordering::Relaxed);
        }
        pending.fetch_add(1, Ordering::AcqRel);
        if tx.send((line, Instant::now())).is_err() || is_end {
            return;
        }
    }
}

/// One session's state.
struct Brain<'a, W: Write> {
    config: &'a BrainConfig,
    out: W,
    abort: &'a AtomicBool,
    /// Board side; `None` before START.
    size: Option<usize>,
    rule: Rule,
    /// The brain's stones and the opponent's, in the order they were placed.
    mine: Vec<Cell>,
    theirs: Vec<Cell>,
    /// Stones read so far by an open BOARD command, and the first error among its lines.
    board: Option<(Vec<Cell>, Vec<Cell>, Option<String>)>,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    max_memory: u64,
    moves: u64,
    rng: Rng,
}

/// What the session does after a command.
enum Flow {
    Continue,
    End,
}

impl<'a, W: Write> Brain<'a, W> {
    fn new(config: &'a BrainConfig, out: W, abort: &'a AtomicBool) -> Self {
        Brain {
            config,
            out,
            abort,
            size: None,
            rule: Rule::Freestyle,
            mine: Vec::new(),
            theirs: Vec::new(),
            board: None,
            timeout_turn: DEFAULT_TIMEOUT_TURN_MS,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            moves: 0,
            rng: seeded(config.params.seed, 0x676f_6d6f),
        }
    }

    fn serve(&mut self, rx: &mpsc::Receiver<(String, Instant)>, pending: &AtomicUsize) -> io::Result<()> {
        while let Ok((line, received)) = rx.recv() {
            pending.fetch_sub(1, Ordering::AcqRel);
            if let Flow::End = self.command(line.trim(), received)? {
                break;
            }
        }
        Ok(())
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

    /// Chooses and prints the brain's move in the current position, and records it.
    fn answer(&mut self, received: Instant) -> io::Result<Flow> {
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
        let cell = if state.stone_count() == 0 {
            Cell::new(size / 2, size / 2)
        } else {
            match self.think(&game, &state, empty, received)? {
                Some(c) => c,
                // END arrived during the search: the manager no longer wants the move.
                None => return Ok(Flow::End),
            }
        };
        // Never answer an occupied or off-board cell.
        let cell = if state.is_empty_cell(cell) { cell } else { first_empty(&state) };
        self.mine.push(cell);
        self.moves += 1;
        self.say(&cell.to_string())?;
        Ok(Flow::Continue)
    }

    /// Searches the non-empty position within the move's time; returns an empty cell, or `None` when END
    /// stopped the search.
    fn think(
        &mut self,
        game: &Gomoku,
        state: &GomokuState,
        empty: usize,
        received: Instant,
    ) -> io::Result<Option<Cell>> {
        let budget = move_time_ms(self.timeout_turn, self.timeout_match, self.time_left, empty);
        let spent = received.elapsed().as_millis() as u64;
        let mut params = self.config.params.clone();
        let mut time = budget.saturating_sub(spent).max(1);
        if let Some(cap) = self.config.params.time_ms {
            time = time.min(cap);
        }
        params.time_ms = Some(time);
        params.memory_bytes = memory_budget(self.max_memory, params.memory_bytes);
        params.seed = params.seed.wrapping_add(self.moves);
        let player = Player::Mcts { params, tuning: self.config.tuning };
        let chosen = player.choose(game, state, &mut self.rng, Some(self.abort));
        if self.abort.load(Ordering::Relaxed) && chosen.as_ref().is_none_or(|m| m.report.is_some()) {
            return Ok(None);
        }
        if let (true, Some(report)) = (self.config.messages, chosen.as_ref().and_then(|m| m.report.as_ref())) {
            let proof = match report.root_proof {
                Some(p) => format!(", proven {p:?}").to_lowercase(),
                None => String::new(),
            };
            let line = format!(
                "MESSAGE canopy: {} playouts in {:.0} ms, win rate {}{proof}, pv {}",
                report.playouts,
                report.elapsed_ms,
                report
                    .best
                    .and_then(|b| report.action(&b))
                    .and_then(|a| a.mean)
                    .map_or("-".into(), |v| format!("{v:.3}")),
                report.pv.join(" ")
            );
            self.say(&line)?;
        }
        Ok(Some(match chosen {
            Some(m) => m.cell,
            None => fallback_move(game, state, &mut self.rng).unwrap_or_else(|| first_empty(state)),
        }))
    }
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

    /// Runs a whole script through [`run`] and returns the answer lines (MESSAGE lines dropped). Not
    /// under `--cfg canopy_loom`: the brain's threads and atomics then work only inside a loom model.
    #[cfg(not(canopy_loom))]
    fn session(script: &str) -> Vec<String> {
        let mut out = Vec::new();
        let config = BrainConfig {
            params: SearchParams {
                threads: 1,
                pin_threads: false,
                playouts: Some(500),
                ..BrainConfig::default().params
            },
            messages: true,
            tuning: Tuning::default(),
        };
        run(io::Cursor::new(script.as_bytes().to_vec()), &mut out, &config).unwrap();
        String::from_utf8(out).unwrap().lines().filter(|l| !l.starts_with("MESSAGE")).map(String::from).collect()
    }

    #[test]
    #[cfg(not(canopy_loom))]
    fn scripted_session_over_a_reader_and_a_writer() {
        let answers = session("START 15\r\nbegin\r\n\r\nTURN 8,8\r\nABOUT\r\nXYZZY\r\nTURN 7,7\r\nEND\r\nTURN 1,1\r\n");
        assert_eq!(answers.len(), 6, "{answers:?}");
        assert_eq!(answers[0], "OK");
        assert_eq!(answers[1], "7,7");
        let reply = Cell::parse(&answers[2]).unwrap();
        assert!(reply != Cell::new(7, 7) && reply != Cell::new(8, 8));
        assert!(answers[3].starts_with("name=\"canopy\""));
        assert!(answers[4].starts_with("UNKNOWN"));
        assert!(answers[5].starts_with("ERROR"), "{answers:?}");
        // The end of input ends the session like END.
        assert_eq!(session("START 20\n"), ["OK"]);
        assert_eq!(session(""), Vec::<String>::new());
    }

    #[test]
    #[cfg(not(canopy_loom))]
    fn board_takeback_and_restart() {
        let answers = session("START 10\nBOARD\n1,1,1\n2,2,2\nDONE\nTAKEBACK 1,1\nTAKEBACK 1,1\nRESTART\nBEGIN\nEND\n");
        assert_eq!(answers[0], "OK");
        let reply = Cell::parse(&answers[1]).unwrap();
        assert!(reply.on_board(10) && reply != Cell::new(1, 1) && reply != Cell::new(2, 2));
        assert_eq!(answers[2], "OK");
        assert!(answers[3].starts_with("ERROR"));
        assert_eq!(answers[4..], ["OK", "5,5"]);
    }

    #[test]
    fn time_per_move() {
        // The turn limit minus the margin.
        assert_eq!(move_time_ms(2_000, 0, None, 200), 2_000 - 130);
        assert_eq!(move_time_ms(100, 0, Some(5), 200), 80);
        // 0 = play fast.
        assert_eq!(move_time_ms(0, 0, None, 200), FAST_MOVE_MS - 10);
        // The game limit: time left spread over the remaining moves (at most 40, at least 8).
        assert_eq!(move_time_ms(30_000, 180_000, Some(40_000), 225), 1_000 - 80);
        assert_eq!(move_time_ms(30_000, 180_000, Some(8_000), 10), 1_000 - 80);
        assert_eq!(move_time_ms(30_000, 180_000, None, 225), 4_500 - 255);
        assert_eq!(move_time_ms(30_000, 180_000, Some(0), 225), 1);
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
