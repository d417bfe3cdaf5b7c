//! The Gomocup protocol against the real `pbrain-canopy` binary over stdin/stdout: the sessions of
//! tests/data/gomocup-protocol.txt (sent with LF and with CR LF line ends), robustness (case, blank
//! lines, malformed numbers, BOARD errors, TAKEBACK, RESTART, RECTSTART, an over-long line), a whole game
//! in which no answer is ever an occupied or off-board cell, END (with or without text after it, queued
//! or not) and other game-changing commands stopping a long search, a closed stdout, and the time limits.
//!
//! Timings are asserted with generous bounds only (the machine is shared); the tests print what they
//! measured.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const SESSIONS: &str = include_str!("../../tests/data/gomocup-protocol.txt");

/// Longest wait for an answer that involves no long search.
const ANSWER: Duration = Duration::from_secs(10);

/// A running brain: its stdin, and its stdout lines through a reader thread.
struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    crlf: bool,
}

impl Brain {
    fn start(crlf: bool) -> Brain {
        Brain::start_binary(env!("CARGO_BIN_EXE_pbrain-canopy"), &[], crlf)
    }

    fn start_binary(path: &str, args: &[&str], crlf: bool) -> Brain {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start pbrain-canopy");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain { stdin: child.stdin.take(), child, lines, crlf }
    }

    fn send(&mut self, line: &str) {
        let end = if self.crlf { "\r\n" } else { "\n" };
        let stdin = self.stdin.as_mut().expect("brain stdin open");
        stdin.write_all(format!("{line}{end}").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The next answer line, skipping MESSAGE and DEBUG lines; `None` after `wait`.
    fn answer(&mut self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with("MESSAGE") || line.starts_with("DEBUG") => continue,
                Ok(line) => {
                    assert!(!line.ends_with('\r'), "answer ends with CR: {line:?}");
                    return Some(line);
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn expect(&mut self, line: &str) -> String {
        self.send(line);
        self.answer(ANSWER).unwrap_or_else(|| panic!("no answer to {line:?}"))
    }

    /// Sends `line` and returns the next line the brain prints, MESSAGE lines included.
    fn expect_any(&mut self, line: &str) -> String {
        self.send(line);
        self.lines.recv_timeout(ANSWER).unwrap_or_else(|e| panic!("no line after {line:?}: {e}"))
    }

    /// Sends END and checks that the brain exits within 1 s without printing anything else.
    fn end(self) {
        self.end_with("END");
    }

    /// Sends `line` (END in some spelling) and checks that the brain exits within 1 s, with status 0,
    /// without printing anything but MESSAGE lines. Stdin stays open until then, as a manager keeps it.
    fn end_with(mut self, line: &str) {
        self.send(line);
        self.exits_within(Duration::from_secs(1));
        drop(self.stdin.take());
    }

    /// Waits for the brain to exit within `wait` with status 0, and checks that it printed nothing but
    /// MESSAGE lines since the last answer read.
    fn exits_within(&mut self, wait: Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "brain exit status {status}");
                break;
            }
            assert!(start.elapsed() < wait, "brain still running {wait:?} after END");
            std::thread::sleep(Duration::from_millis(5));
        }
        // Everything the brain printed, up to its stdout closing at exit.
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(2)) {
            rest.push(line);
        }
        rest.retain(|l| !l.starts_with("MESSAGE"));
        assert!(rest.is_empty(), "output after END: {rest:?}");
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A cell answer `x,y` on a `size` board.
fn parse_move(line: &str, size: usize) -> (usize, usize) {
    let (x, y) = line.split_once(',').unwrap_or_else(|| panic!("not a move: {line:?}"));
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < size && y < size, "move {line} off the {size}x{size} board");
    (x, y)
}

/// The board as the manager sees it, to check that answers are empty cells.
#[derive(Default)]
struct Board {
    size: usize,
    stones: HashSet<(usize, usize)>,
}

impl Board {
    fn play(&mut self, line: &str) {
        let cell = parse_move(line, self.size);
        assert!(self.stones.insert(cell), "answer {line} is an occupied cell");
    }
}

/// Runs the scripted sessions of the data file: `>` lines are sent, `<` lines name the expected answer.
/// Sessions share one process until END; the next `>` line starts a new one.
fn run_sessions(crlf: bool) {
    let mut brain: Option<Brain> = None;
    let mut board = Board::default();
    let mut in_board = false;
    let mut last_sent = String::new();
    let mut sent_at = Instant::now();
    let mut checked = 0;
    for raw in SESSIONS.lines() {
        let line = raw.trim_end();
        if let Some(cmd) = line.strip_prefix("> ") {
            let cmd = cmd.trim();
            let b = brain.get_or_insert_with(|| Brain::start(crlf));
            let word = cmd.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
            match word.as_str() {
                "START" => {
                    board = Board { size: cmd[6..].trim().parse().unwrap(), stones: HashSet::new() };
                }
                "BOARD" => {
                    in_board = true;
                    board.stones.clear();
                }
                "DONE" => in_board = false,
                "TURN" => {}
                _ if in_board => {
                    let f: Vec<usize> = cmd.split(',').map(|t| t.trim().parse().unwrap()).collect();
                    board.stones.insert((f[0], f[1]));
                }
                _ => {}
            }
            if word == "END" {
                brain.take().unwrap().end();
                checked += 1;
                continue;
            }
            b.send(cmd);
            last_sent = cmd.to_string();
            sent_at = Instant::now();
        } else if let Some(want) = line.strip_prefix("< ") {
            let pattern = want.split("   ").next().unwrap().trim();
            let b = brain.as_mut().expect("an answer expected before any command");
            let got = b.answer(ANSWER).unwrap_or_else(|| panic!("no answer to {last_sent:?} (want {pattern})"));
            match pattern {
                "OK" => assert_eq!(got, "OK", "after {last_sent}"),
                "<x>,<y>" => {
                    if let Some(turn) = last_sent.strip_prefix("TURN ") {
                        board.play(turn.trim());
                    }
                    board.play(&got);
                    if want.contains("2000 ms") {
                        assert!(sent_at.elapsed() < Duration::from_secs(5), "answer took {:?}", sent_at.elapsed());
                    }
                }
                p if p.starts_with("UNKNOWN") => assert!(got.starts_with("UNKNOWN"), "{got}"),
                p if p.starts_with("ERROR") => assert!(got.starts_with("ERROR "), "{got}"),
                p if p.starts_with("name=") => {
                    for key in ["name=\"", "version=\"", "author=\"", "country=\""] {
                        assert!(got.contains(key), "ABOUT answer {got} lacks {key}");
                    }
                }
                other => panic!("unknown pattern {other}"),
            }
            checked += 1;
        }
    }
    if let Some(b) = brain.take() {
        b.end();
    }
    assert_eq!(checked, 9, "answers checked (8 answers and one END)");
}

#[test]
fn data_file_sessions_with_lf() {
    run_sessions(false);
}

#[test]
fn data_file_sessions_with_crlf() {
    run_sessions(true);
}

#[test]
fn robust_to_case_blank_lines_and_malformed_input() {
    let mut b = Brain::start(true);
    b.send("");
    b.send("   ");
    assert_eq!(b.expect("start 15"), "OK");
    assert!(b.expect("START 4").starts_with("ERROR"));
    assert!(b.expect("START x").starts_with("ERROR"));
    assert!(b.expect("RECTSTART 15,20").starts_with("ERROR"));
    assert!(b.expect("RECTSTART 15").starts_with("ERROR"));
    assert_eq!(b.expect("rectstart 15,15"), "OK");
    // INFO has no answer, so its problems are MESSAGEs (an ERROR could pass for the next command's
    // answer), and the line changes nothing.
    assert!(b.expect_any("INFO timeout_turn 1e3").starts_with("MESSAGE INFO timeout_turn"));
    assert!(b.expect_any("INFO max_memory -5").starts_with("MESSAGE INFO max_memory"));
    assert!(b.expect_any("INFO time_left soon").starts_with("MESSAGE INFO time_left"));
    // A number past the range says what the range is.
    assert_eq!(
        b.expect_any("INFO timeout_turn 100000000000000000000"),
        "MESSAGE INFO timeout_turn needs a whole number from 0 to 2^64-1, got '100000000000000000000'; ignored"
    );
    b.send("INFO timeout_turn 300");
    b.send("INFO unknown_key 7");
    b.send("info rule 1");
    b.send("INFO game_type 1");
    b.send("INFO max_memory 83886080");
    b.send("INFO folder C:\\tmp");
    // Negative once the time is spent (no ERROR), 2147483647 for an unlimited match.
    b.send("INFO time_left -5");
    b.send("INFO time_left 2147483647");
    let centre = b.expect("begin");
    assert_eq!(centre, "7,7");
    for bad in ["TURN", "TURN 7", "TURN a,b", "TURN -1,3", "TURN 15,0", "TURN 7,7", "TURN 3,3,3"] {
        let got = b.expect(bad);
        assert!(got.starts_with("ERROR"), "{bad}: {got}");
    }
    assert!(b.expect("TAKEBACK 1,1").starts_with("ERROR"));
    assert_eq!(b.expect("TAKEBACK 7,7"), "OK");
    // The centre is free again.
    let mut board = Board { size: 15, stones: HashSet::new() };
    board.play("8,8");
    let reply = b.expect("turn 8,8");
    board.play(&reply);
    // BOARD with a malformed line: ERROR at DONE, the position is unchanged.
    b.send("BOARD");
    b.send("1,1,1");
    b.send("oops");
    assert!(b.expect("DONE").starts_with("ERROR"));
    b.send("BOARD");
    b.send("20,1,1");
    assert!(b.expect("DONE").starts_with("ERROR"));
    b.send("BOARD");
    b.send("1,1,1");
    b.send("1,1,2");
    assert!(b.expect("DONE").starts_with("ERROR"));
    assert!(b.expect("FOO").starts_with("UNKNOWN"));
    // SWAP2BOARD opens a block: a malformed one is one ERROR at DONE.
    b.send("SWAP2BOARD");
    b.send("7,7");
    assert!(b.expect("DONE").starts_with("ERROR"));
    assert!(b.expect("PLAY 1,1").starts_with("UNKNOWN"));
    assert_eq!(b.expect("RESTART"), "OK");
    assert_eq!(b.expect("BEGIN"), "7,7");
    b.end();

    // Commands before START are errors, not crashes.
    let mut b = Brain::start(false);
    assert!(b.expect("BEGIN").starts_with("ERROR"));
    assert!(b.expect("TURN 1,1").starts_with("ERROR"));
    assert!(b.expect("BOARD").starts_with("ERROR"));
    assert!(b.expect("RESTART").starts_with("ERROR"));
    assert!(b.expect("ABOUT").starts_with("name="));
    b.end();
}

/// Whole games on a small board against a fixed sequence of opponent moves: every answer is an empty
/// cell, within the turn time, and the manager keeps sending moves after a five and up to a full board
/// (the brain still answers empty cells).
#[test]
fn whole_games_never_answer_occupied_cells() {
    let size = 7;
    let mut b = Brain::start(false);
    for game in 0..2 {
        assert_eq!(b.expect(&format!("START {size}")), "OK");
        b.send("INFO timeout_turn 100");
        b.send("INFO timeout_match 100000");
        b.send("INFO time_left 100000");
        b.send(&format!("INFO rule {game}"));
        let mut board = Board { size, stones: HashSet::new() };
        if game == 1 {
            let reply = b.expect("BEGIN");
            board.play(&reply);
        }
        // The opponent plays the first empty cell in a scattered order; the brain answers every move.
        let order: Vec<(usize, usize)> =
            (0..size * size).map(|i| ((i * 3) % size, (i * 5 + i / size) % size)).collect();
        while board.stones.len() + 2 <= size * size {
            let Some(&(x, y)) = order.iter().find(|c| !board.stones.contains(c)) else { break };
            board.stones.insert((x, y));
            let start = Instant::now();
            let reply = b.expect(&format!("TURN {x},{y}"));
            assert!(start.elapsed() < Duration::from_secs(3), "answer took {:?}", start.elapsed());
            board.play(&reply);
        }
        assert!(board.stones.len() + 1 >= size * size);
    }
    b.end();
}

/// BOARD positions where the brain must win or block: it does, and it answers quickly.
#[test]
fn board_command_wins_and_blocks() {
    let mut b = Brain::start(true);
    assert_eq!(b.expect("START 15"), "OK");
    b.send("INFO timeout_turn 1000");
    // Own four on row 3 (open at 2,3 and 7,3): win there.
    b.send("BOARD");
    for line in ["3,3,1", "4,3,1", "5,3,1", "6,3,1", "9,9,2", "10,9,2", "11,9,2", "0,14,2"] {
        b.send(line);
    }
    let got = b.expect("DONE");
    assert!(got == "2,3" || got == "7,3", "{got}");
    // The opponent's four on column 9 (9,9..9,12, open at 9,8 only): block at 9,8 or 9,13.
    b.send("BOARD");
    for line in ["9,9,2", "9,10,2", "9,11,2", "9,12,2", "9,13,1", "0,0,1", "14,14,1"] {
        b.send(line);
    }
    assert_eq!(b.expect("DONE"), "9,8");
    b.end();
}

/// END during a long search stops it: the brain exits within 1 s.
#[test]
fn end_during_a_search_exits_at_once() {
    let mut b = Brain::start(false);
    assert_eq!(b.expect("START 15"), "OK");
    b.send("INFO timeout_turn 60000");
    b.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(300));
    b.end();
}

/// `INFO max_memory`: 0 (no limit) and budgets the brain fits in get no answer; a positive budget below
/// the program's reserve plus the smallest search gets one `MESSAGE` naming that minimum, and the brain
/// then plays in the smallest search budget.
#[test]
fn a_max_memory_too_small_is_answered_with_the_minimum() {
    use canopy_mcts::games::gomoku::protocol::{MIN_MAX_MEMORY_BYTES, MIN_MEMORY_BYTES};
    let mut b = Brain::start(false);
    assert_eq!(b.expect("START 15"), "OK");
    for fits in [0, 350 << 20, MIN_MAX_MEMORY_BYTES] {
        b.send(&format!("INFO max_memory {fits}"));
    }
    // ABOUT's answer is the next line: nothing answered the budgets above.
    b.send("ABOUT");
    let next = b.lines.recv_timeout(ANSWER).expect("an answer to ABOUT");
    assert!(next.starts_with("name="), "{next}");
    for small in [1, 4096, MIN_MAX_MEMORY_BYTES - 1] {
        b.send(&format!("INFO max_memory {small}"));
        let line = b.lines.recv_timeout(ANSWER).unwrap_or_else(|_| panic!("no answer to max_memory {small}"));
        assert!(line.starts_with(&format!("MESSAGE max_memory {small} is too small")), "{line}");
        assert!(line.contains(&format!("at least {MIN_MAX_MEMORY_BYTES} bytes")), "{line}");
        assert!(line.ends_with(&format!("searching in the smallest budget, {} KiB", MIN_MEMORY_BYTES >> 10)), "{line}");
    }
    // The brain still plays, within the smallest budget.
    b.send("INFO timeout_turn 200");
    let mut board = Board { size: 15, stones: HashSet::new() };
    board.play(&b.expect("BEGIN"));
    for _ in 0..2 {
        // The opponent's move: the first of these cells the brain has not taken.
        let opponent = ["8,8", "6,6", "9,9", "5,5"]
            .into_iter()
            .find(|c| !board.stones.contains(&parse_move(c, 15)))
            .expect("a free cell");
        board.play(opponent);
        let reply = b.expect(&format!("TURN {opponent}"));
        board.play(&reply);
    }
    b.end();
}

/// Runs `pbrain-canopy` with `args` and an END on stdin; returns the exit code, stdout and stderr.
fn brain_with_args(args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-canopy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-canopy");
    // A brain that exits before reading may close its stdin first; that is not an error here.
    let _ = child.stdin.take().unwrap().write_all(b"END\n");
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Managers start the brain without arguments; `--help`/`-h` and `--version`/`-V` print and exit 0, and any
/// other argument is refused with one line and exit status 2 before the protocol starts.
#[test]
fn arguments_help_version_and_refusals() {
    for help in ["--help", "-h"] {
        let (code, out, err) = brain_with_args(&[help]);
        assert_eq!(code, Some(0), "{help}: {err}");
        assert!(out.contains("Usage: pbrain-canopy") && out.contains("Gomocup"), "{help}: {out}");
        assert!(err.is_empty(), "{help}: {err}");
    }
    for version in ["--version", "-V"] {
        let (code, out, _) = brain_with_args(&[version]);
        assert_eq!(code, Some(0));
        assert_eq!(out.trim_end(), format!("pbrain-canopy {}", env!("CARGO_PKG_VERSION")));
    }
    for bad in [&["--threads", "4"][..], &["15"], &["--hepl"], &[""]] {
        let (code, out, err) = brain_with_args(bad);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
        assert!(out.is_empty(), "{bad:?}: the protocol must not start: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{bad:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains("takes no arguments"), "{bad:?}: {err}");
    }
    let (code, out, err) = brain_with_args(&[]);
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
}

/// END followed by any text is END, idle or during a search; so is END in lower case with a tab.
#[test]
fn end_with_trailing_text_exits_idle_and_searching() {
    for end in ["END now", "END\t", "end please stop"] {
        let mut b = Brain::start(false);
        assert_eq!(b.expect("START 15"), "OK");
        b.end_with(end);
        let mut b = Brain::start(true);
        assert_eq!(b.expect("START 15"), "OK");
        b.send("INFO timeout_turn 60000");
        b.send("TURN 7,7");
        std::thread::sleep(Duration::from_millis(200));
        b.end_with(end);
    }
}

/// END sent together with the TURN before it (the brain has not even started the search when END is
/// read): the search stops at once, the move is not printed.
#[test]
fn queued_end_stops_the_search_at_once() {
    let mut b = Brain::start(false);
    assert_eq!(b.expect("START 15"), "OK");
    b.send("INFO timeout_turn 60000\nTURN 7,7\nINFO time_left 100000\nEND");
    b.exits_within(Duration::from_secs(1));
}

/// A command that changes the game, read while the brain searches the move before it, stops that search:
/// the move is not printed and the new command is answered at once.
#[test]
fn game_changing_commands_cancel_a_search() {
    let mut b = Brain::start(false);
    assert_eq!(b.expect("START 15"), "OK");
    b.send("INFO timeout_turn 60000");
    let fast = Duration::from_secs(3);
    b.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(200));
    b.send("RESTART");
    assert_eq!(b.answer(fast).as_deref(), Some("OK"), "RESTART during a search");
    // The board is empty again: BEGIN plays the centre.
    b.send("BEGIN");
    assert_eq!(b.answer(fast).as_deref(), Some("7,7"));
    b.send("TURN 8,8");
    std::thread::sleep(Duration::from_millis(200));
    b.send("TAKEBACK 8,8");
    assert_eq!(b.answer(fast).as_deref(), Some("OK"), "TAKEBACK during a search");
    // 8,8 is free again, 7,7 still the brain's.
    b.send("TAKEBACK 8,8");
    assert!(b.answer(fast).unwrap().starts_with("ERROR"));
    b.send("TAKEBACK 7,7");
    assert_eq!(b.answer(fast).as_deref(), Some("OK"));
    // ABOUT and INFO do not stop a search: after a short one, the move comes first.
    b.send("INFO timeout_turn 300");
    b.send("TURN 7,7");
    b.send("ABOUT");
    let reply = b.answer(ANSWER).unwrap();
    parse_move(&reply, 15);
    assert!(b.answer(fast).unwrap().starts_with("name="));
    b.end();
}

/// A 64 MiB line gets one ERROR, and the brain does not keep it: its peak memory stays far below the
/// line's size (Linux: VmHWM from /proc; elsewhere only the answers are checked).
#[test]
fn an_over_long_line_is_one_error_without_buffering_it() {
    let mut b = Brain::start(false);
    assert_eq!(b.expect("START 15"), "OK");
    let stdin = b.stdin.as_mut().unwrap();
    let chunk = vec![b'7'; 1 << 20];
    stdin.write_all(b"TURN ").unwrap();
    for _ in 0..64 {
        stdin.write_all(&chunk).unwrap();
    }
    stdin.write_all(b"\n").unwrap();
    let got = b.expect("ABOUT");
    assert!(got.starts_with("ERROR line longer than"), "{got}");
    assert!(b.answer(ANSWER).unwrap().starts_with("name="));
    let status = std::fs::read_to_string(format!("/proc/{}/status", b.child.id()));
    if let Ok(status) = status {
        let peak_kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status");
        eprintln!("peak resident memory after a 64 MiB line: {peak_kib} KiB");
        assert!(peak_kib < 32 << 10, "peak resident memory {peak_kib} KiB");
    }
    assert_eq!(b.expect("BEGIN"), "7,7");
    b.end();
}

/// When the manager closes the brain's stdout, the brain's next write fails and it exits with status 0
/// and nothing on stderr, although its stdin is still open (the reader thread is blocked on it).
#[test]
fn a_closed_stdout_ends_the_brain_quietly() {
    for (path, args) in
        [(env!("CARGO_BIN_EXE_pbrain-canopy"), &[][..]), (env!("CARGO_BIN_EXE_canopy"), &["gomocup"][..])]
    {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the brain");
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"START 15\r\n").unwrap();
        stdin.flush().unwrap();
        let start = Instant::now();
        let mut polls = 0u32;
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "{path} still running with its stdout closed");
            std::thread::sleep(Duration::from_millis(5));
            polls += 1;
            if polls % 20 == 0 {
                // A child that another test spawned at the same moment may hold the pipe's read end
                // between its fork and its exec, so the brain's first write can succeed; the next one
                // fails. (A write error here means the brain has gone.)
                let _ = stdin.write_all(b"ABOUT\r\n").and_then(|()| stdin.flush());
            }
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(status.success(), "{path}: exit status {status}");
        assert!(stderr.is_empty(), "{path}: stderr {stderr:?}");
        drop(stdin);
    }
}

/// Moves under small limits, the test acting as the manager's clock: the turn limit alone (300 ms), then
/// a match limit (6 s) with `time_left` sent before every move. Every answer comes well within the limit
/// (asserted with a generous bound, measured times printed), and the match clock never runs out.
#[test]
fn answers_keep_the_time_limits() {
    let size = 15;
    let order: Vec<(usize, usize)> =
        (0..size * size).map(|i| ((i * 7 + 3) % size, (i * 11 + i / size) % size)).collect();
    for timeout_match in [0u64, 6_000] {
        let mut b = Brain::start(false);
        assert_eq!(b.expect(&format!("START {size}")), "OK");
        b.send("INFO timeout_turn 300");
        b.send(&format!("INFO timeout_match {timeout_match}"));
        let mut board = Board { size, stones: HashSet::new() };
        let (mut used, mut worst) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..12 {
            let Some(&(x, y)) = order.iter().find(|c| !board.stones.contains(c)) else { break };
            board.stones.insert((x, y));
            if timeout_match > 0 {
                let left = timeout_match as i64 - used.as_millis() as i64;
                b.send(&format!("INFO time_left {left}"));
            }
            let start = Instant::now();
            let reply = b.expect(&format!("TURN {x},{y}"));
            let took = start.elapsed();
            board.play(&reply);
            used += took;
            worst = worst.max(took);
            assert!(took < Duration::from_millis(1_000), "an answer took {took:?} (turn limit 300 ms)");
        }
        eprintln!("timeout_turn 300 ms, timeout_match {timeout_match} ms: slowest answer {worst:?}, all {used:?}");
        if timeout_match > 0 {
            assert!(used < Duration::from_millis(timeout_match), "{used:?} of a {timeout_match} ms match");
        }
        b.end();
    }
}

/// Reads lines up to the next answer; returns the last MESSAGE line before it and the answer.
fn message_and_answer(b: &mut Brain) -> (String, String) {
    let mut message = String::new();
    loop {
        let line = b.lines.recv_timeout(ANSWER).expect("an answer");
        if line.starts_with("MESSAGE") {
            message = line;
        } else {
            return (message, line);
        }
    }
}

/// The number before "kept from the last turn" in a search's MESSAGE line.
fn kept(message: &str) -> u64 {
    let (head, _) = message.split_once(" kept from the last turn").unwrap_or_else(|| panic!("{message}"));
    head.rsplit(' ').next().unwrap().parse().unwrap()
}

/// The brain keeps its tree between turns: after the reply its principal variation expected, the next
/// search starts with playouts already in the root, and says how many.
#[test]
fn the_tree_is_kept_across_the_expected_reply() {
    let mut b = Brain::start(false);
    assert_eq!(b.expect("START 15"), "OK");
    b.send("INFO timeout_turn 400");
    b.send("BEGIN");
    let (_, first) = message_and_answer(&mut b);
    b.send("TURN 8,8");
    let (message, mine) = message_and_answer(&mut b);
    let pv: Vec<&str> = message.rsplit_once("pv ").unwrap().1.split(' ').collect();
    assert_eq!(pv[0], mine, "{message}");
    let expected = pv.get(1).copied().expect("a reply in the principal variation");
    assert!(![first.as_str(), "8,8", mine.as_str()].contains(&expected));
    b.send(&format!("TURN {expected}"));
    let (message, _) = message_and_answer(&mut b);
    assert!(kept(&message) > 0, "{message}");
    b.end();
    // Without reuse every turn starts from nothing.
    let mut b = Brain::start_binary(env!("CARGO_BIN_EXE_canopy"), &["gomocup", "--no-reuse"], false);
    assert_eq!(b.expect("START 15"), "OK");
    b.send("INFO timeout_turn 300");
    b.send("BEGIN");
    message_and_answer(&mut b);
    b.send("TURN 8,8");
    let (message, _) = message_and_answer(&mut b);
    assert_eq!(kept(&message), 0, "{message}");
    b.end();
}

/// A timed move's MESSAGE gives the search's budget and, when the refutation check keeps a share of the
/// move for itself, the move's whole budget beside it; with the check off the two are one.
#[test]
fn the_message_names_the_share_the_refutation_check_keeps() {
    for (args, shared) in [(&["gomocup"][..], true), (&["gomocup", "--refute", "0"], false)] {
        let mut b = Brain::start_binary(env!("CARGO_BIN_EXE_canopy"), args, false);
        assert_eq!(b.expect("START 15"), "OK");
        b.send("INFO timeout_turn 500");
        b.send("BEGIN");
        message_and_answer(&mut b);
        b.send("TURN 8,8");
        let (message, _) = message_and_answer(&mut b);
        let budget = message.split_once("(budget ").unwrap_or_else(|| panic!("{message}")).1;
        let budget = budget.split_once(';').unwrap().0;
        assert_eq!(budget.contains("of the move's"), shared, "{args:?}: {message}");
        if shared {
            // The search's share is the smaller: the numbers before and after "of the move's".
            let ms = |text: &str| -> u64 {
                text.trim().split(' ').next().unwrap().rsplit('-').next().unwrap().parse().unwrap()
            };
            let (search, whole) = budget.split_once(" of the move's ").unwrap();
            assert!(ms(search) < ms(whole), "{message}");
            assert!(budget.ends_with("the rest kept for the refutation check"), "{message}");
        }
        b.end();
    }
}
