//! The command parser: one manager line at a time, answered on the brain's output (the commands are
//! listed in the `protocol` module's documentation). The brain loop (`Brain::answer`) chooses the moves.

use std::io::{self, Write};

use super::input::{command_word, Input};
use super::{BoardBlock, Brain, Flow, Swap2Block, MEMORY_RESERVE_BYTES, MIN_MAX_MEMORY_BYTES, MIN_MEMORY_BYTES};
use crate::games::gomoku::board::{Cell, MAX_SIZE, MIN_SIZE};
use crate::games::gomoku::rules::Rule;

impl<W: Write> Brain<'_, W> {
    /// Handles one trimmed input line (`input` is the line as read): a command, or a line inside an open
    /// `BOARD` block.
    pub(super) fn command(&mut self, line: &str, input: &Input) -> io::Result<Flow> {
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        let (word, rest) = command_word(line);
        if self.board.is_some() || self.swap2.is_some() {
            if word == "INFO" || word == "ABOUT" {
                // Commands that leave the game as it is: handled, and the block goes on.
                let (board, swap2) = (self.board.take(), self.swap2.take());
                let flow = self.command(line, input);
                (self.board, self.swap2) = (board, swap2);
                return flow;
            }
            if COMMANDS.contains(&word.as_str()) && word != "END" {
                // A command that changes the game inside a block: the manager has moved on without DONE.
                // The block fails now, not at a DONE that may never come, and the command is handled.
                let (block, bad) = match (self.board.take(), self.swap2.take()) {
                    (Some(b), _) => ("BOARD", b.bad),
                    (None, Some(b)) => ("SWAP2BOARD", b.bad),
                    (None, None) => unreachable!("one block is open"),
                };
                let also = bad.map_or(String::new(), |msg| format!(" (and {msg})"));
                self.error(&format!("{block} block not closed by DONE before {word}; the block is dropped{also}"))?;
                return self.command(line, input);
            }
            if self.board.is_some() {
                return self.board_line(&word, line, input);
            }
            return self.swap2_line(&word, line, input);
        }
        match word.as_str() {
            "START" => match rest.parse::<usize>() {
                Ok(size) if (MIN_SIZE..=MAX_SIZE).contains(&size) => self.start(size),
                Ok(size) => self.error(&format!("unsupported size {size} (supported: {MIN_SIZE}..={MAX_SIZE})")),
                Err(_) => self.error(&format!("START needs a board size, got '{rest}'")),
            },
            "RECTSTART" => match parse_pair(rest) {
                Some((w, h)) if w == h && (MIN_SIZE..=MAX_SIZE).contains(&w) => self.start(w),
                Some((w, h)) => {
                    self.error(&format!("unsupported board {w}x{h} (square boards {MIN_SIZE}..={MAX_SIZE})"))
                }
                None => self.error(&format!("RECTSTART needs width,height, got '{rest}'")),
            },
            "RESTART" => match self.size {
                Some(size) => self.start(size),
                None => self.error("no board yet: send START first"),
            },
            "BEGIN" => {
                if self.size.is_none() {
                    return self.error("no board yet: send START first");
                }
                let stones = self.mine.len() + self.theirs.len();
                if stones > 0 {
                    return self.error(&format!(
                        "BEGIN opens an empty board, and this one has {stones} stone{}: send TURN, or RESTART first",
                        if stones == 1 { "" } else { "s" }
                    ));
                }
                self.answer(input.received, &input.signal)
            }
            "TURN" => {
                let cell = match self.cell_arg(rest) {
                    Ok(c) => c,
                    Err(msg) => return self.error(&msg),
                };
                self.theirs.push(cell);
                self.answer(input.received, &input.signal)
            }
            "BOARD" => {
                if self.size.is_none() {
                    return self.error("no board yet: send START first");
                }
                self.board =
                    Some(BoardBlock { mine: Vec::new(), theirs: Vec::new(), bad: None, received: input.received });
                Ok(Flow::Continue)
            }
            "SWAP2BOARD" => {
                if self.size.is_none() {
                    return self.error("no board yet: send START first");
                }
                self.swap2 = Some(Swap2Block { stones: Vec::new(), bad: None, received: input.received });
                Ok(Flow::Continue)
            }
            "TAKEBACK" => {
                let Some(size) = self.size else { return self.error("no board yet: send START first") };
                let cell = match parse_cell(rest, size) {
                    Ok(c) => c,
                    Err(msg) => return self.error(&msg),
                };
                if let Some(i) = self.mine.iter().position(|&c| c == cell) {
                    self.mine.remove(i);
                } else if let Some(i) = self.theirs.iter().position(|&c| c == cell) {
                    self.theirs.remove(i);
                } else {
                    return self.error(&format!("TAKEBACK {cell}: no stone there"));
                }
                self.say("OK")?;
                Ok(Flow::Continue)
            }
            "INFO" => self.info(rest),
            "ABOUT" => {
                let about = format!(
                    "name=\"canopy\", version=\"{}\", author=\"the canopy authors\", country=\"-\"",
                    env!("CARGO_PKG_VERSION")
                );
                self.say(&about)?;
                Ok(Flow::Continue)
            }
            "END" => Ok(Flow::End),
            _ => {
                self.say(&format!("UNKNOWN command '{}'", printable(line)))?;
                Ok(Flow::Continue)
            }
        }
    }

    fn start(&mut self, size: usize) -> io::Result<Flow> {
        self.size = Some(size);
        self.mine.clear();
        self.theirs.clear();
        self.board = None;
        self.swap2 = None;
        self.moves = 0;
        self.say("OK")?;
        Ok(Flow::Continue)
    }

    /// A TURN argument: an empty cell of the board.
    fn cell_arg(&self, text: &str) -> Result<Cell, String> {
        let size = self.size.ok_or_else(|| "no board yet: send START first".to_string())?;
        let cell = parse_cell(text, size)?;
        if self.mine.contains(&cell) || self.theirs.contains(&cell) {
            return Err(format!("cell {cell} is occupied"));
        }
        Ok(cell)
    }

    /// One line inside BOARD ... DONE.
    fn board_line(&mut self, word: &str, line: &str, input: &Input) -> io::Result<Flow> {
        if word == "DONE" {
            let Some(BoardBlock { mine, theirs, bad, received }) = self.board.take() else { return Ok(Flow::Continue) };
            if let Some(msg) = bad {
                return self.error(&msg);
            }
            self.mine = mine;
            self.theirs = theirs;
            // The move's clock started at BOARD.
            return self.answer(received, &input.signal);
        }
        if word == "END" {
            return Ok(Flow::End);
        }
        let size = self.size.unwrap_or(MAX_SIZE);
        let Some(BoardBlock { mine, theirs, bad, .. }) = self.board.as_mut() else { return Ok(Flow::Continue) };
        if bad.is_some() {
            return Ok(Flow::Continue);
        }
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match parts.as_slice() {
            [x, y, f] => match (x.parse::<usize>(), y.parse::<usize>(), f.parse::<u8>()) {
                (Ok(x), Ok(y), Ok(f)) => Ok((x, y, f)),
                _ => Err(format!("BOARD line '{}' is not x,y,field", printable(line))),
            },
            _ => Err(format!("BOARD line '{}' is not x,y,field", printable(line))),
        };
        let result = parsed.and_then(|(x, y, f)| {
            if x >= size || y >= size {
                return Err(format!("BOARD cell {x},{y} is off the {size}x{size} board"));
            }
            let cell = Cell::new(x, y);
            if mine.contains(&cell) || theirs.contains(&cell) {
                return Err(format!("BOARD cell {cell} is listed twice"));
            }
            match f {
                1 => mine.push(cell),
                2 => theirs.push(cell),
                // 3: a stone of a continuous game's completed line, which stays on the board but
                // belongs to no line; the brain plays single games, whose stones are 1 or 2.
                3 => {
                    return Err(format!(
                        "BOARD field 3 on {cell} (a completed line of a continuous game) is not supported: \
                         the brain plays single games"
                    ))
                }
                _ => return Err(format!("BOARD field {f} on {cell} is not 1 (own stone) or 2 (opponent's)")),
            }
            Ok(())
        });
        if let Err(msg) = result {
            *bad = Some(msg);
        }
        Ok(Flow::Continue)
    }

    /// One line inside SWAP2BOARD ... DONE: a stone `x,y` (the opening's stones in the order they were
    /// placed: Black, White, Black, ...), or DONE.
    fn swap2_line(&mut self, word: &str, line: &str, input: &Input) -> io::Result<Flow> {
        if word == "DONE" {
            let Some(Swap2Block { stones, bad, received }) = self.swap2.take() else { return Ok(Flow::Continue) };
            if let Some(msg) = bad {
                return self.error(&msg);
            }
            return self.swap2_answer(&stones, received, &input.signal);
        }
        if word == "END" {
            return Ok(Flow::End);
        }
        let size = self.size.unwrap_or(MAX_SIZE);
        let Some(Swap2Block { stones, bad, .. }) = self.swap2.as_mut() else { return Ok(Flow::Continue) };
        if bad.is_some() {
            return Ok(Flow::Continue);
        }
        match parse_cell(line, size) {
            Ok(cell) if stones.contains(&cell) => *bad = Some(format!("SWAP2BOARD cell {cell} is listed twice")),
            Ok(cell) => stones.push(cell),
            Err(msg) => *bad = Some(format!("SWAP2BOARD line: {msg}")),
        }
        Ok(Flow::Continue)
    }

    fn info(&mut self, rest: &str) -> io::Result<Flow> {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((k, v)) => (k.to_ascii_lowercase(), v.trim()),
            None => (rest.to_ascii_lowercase(), ""),
        };
        let number = || value.parse::<u64>();
        match key.as_str() {
            // Negative once the brain has run out of time (the protocol's INFO): no time left.
            "time_left" => match value.parse::<i64>() {
                Ok(n) => {
                    self.time_left = Some(n.max(0) as u64);
                    Ok(Flow::Continue)
                }
                Err(_) => self.info_message(&format!(
                    "INFO time_left needs a whole number from -2^63 to 2^63-1, got '{}'; ignored",
                    printable(value)
                )),
            },
            "timeout_turn" | "timeout_match" | "max_memory" | "game_type" | "rule" => {
                let Ok(n) = number() else {
                    return self.info_message(&format!(
                        "INFO {key} needs a whole number from 0 to 2^64-1, got '{}'; ignored",
                        printable(value)
                    ));
                };
                match key.as_str() {
                    "timeout_turn" => self.timeout_turn = n,
                    "timeout_match" => self.timeout_match = n,
                    "max_memory" => {
                        self.max_memory = n;
                        if n > 0 && n < MIN_MAX_MEMORY_BYTES {
                            let msg = format!(
                                "MESSAGE max_memory {n} is too small: the brain needs at least \
                                 {MIN_MAX_MEMORY_BYTES} bytes ({} MiB for the program, {} KiB for the search); \
                                 searching in the smallest budget, {} KiB",
                                MEMORY_RESERVE_BYTES >> 20,
                                MIN_MEMORY_BYTES >> 10,
                                MIN_MEMORY_BYTES >> 10,
                            );
                            self.say(&msg)?;
                        }
                    }
                    "rule" => {
                        // Bits: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
                        self.rule = if n & 4 != 0 {
                            Rule::Renju
                        } else if n & 1 != 0 {
                            Rule::Standard
                        } else {
                            Rule::Freestyle
                        };
                        let mut unsupported = Vec::new();
                        if n & 2 != 0 {
                            unsupported.push("continuous games (2)");
                        }
                        if n & !7 != 0 {
                            unsupported.push("caro (8) and bits above it");
                        }
                        if !unsupported.is_empty() {
                            let msg = format!(
                                "MESSAGE rule {n}: {} are not supported; playing single games of {}",
                                unsupported.join(" and "),
                                self.rule.name()
                            );
                            self.say(&msg)?;
                        }
                    }
                    _ => {}
                }
                Ok(Flow::Continue)
            }
            _ => Ok(Flow::Continue),
        }
    }
}

impl<W: Write> Brain<'_, W> {
    /// Reports a problem with an INFO line as a `MESSAGE`: the manager waits for no answer to INFO, so
    /// an `ERROR` there could be read as the answer to the command after it.
    fn info_message(&mut self, msg: &str) -> io::Result<Flow> {
        self.say(&format!("MESSAGE {msg}"))?;
        Ok(Flow::Continue)
    }
}

/// The commands the brain knows (their upper-case words).
const COMMANDS: [&str; 11] =
    ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "SWAP2BOARD", "TAKEBACK", "INFO", "ABOUT", "END"];

/// `x,y` as two whole numbers (spaces allowed).
fn parse_pair(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// A cell `x,y` of a `size` x `size` board, or the `ERROR` text.
fn parse_cell(text: &str, size: usize) -> Result<Cell, String> {
    let (x, y) = parse_pair(text).ok_or_else(|| format!("'{}' is not x,y", printable(text)))?;
    if x >= size || y >= size {
        return Err(format!("cell {x},{y} is off the {size}x{size} board"));
    }
    Ok(Cell::new(x, y))
}

/// `text` cut to 60 characters with control characters dropped, for echoing input in an answer.
fn printable(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(60).collect()
}
