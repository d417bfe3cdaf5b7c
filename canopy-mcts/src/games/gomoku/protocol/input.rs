//! The brain's input side: a reader thread that reads the manager's lines (each at most
//! [`MAX_LINE_BYTES`], read in chunks), hands them to the brain in order, and cancels thinking that the
//! manager has moved past.
//!
//! Cancelling works through one [`Signal`] per line:
//!
//! - a line that changes the game or ends the session ([`stops_thinking`]: START, RECTSTART, RESTART,
//!   BEGIN, TURN, BOARD, SWAP2BOARD, TAKEBACK, END) cancels the line before it (INFO lines in between do not count):
//!   if that line asked for a move, its search stops (or never starts) and the move is not printed;
//! - END also marks the whole session as ending ([`Session::end`]): every search still to come or in
//!   progress stops, and no searched move is printed any more.
//!
//! The reader thread is not joined: it may be blocked on a read when the brain is done, and ends with the
//! input, after END, or at its first send once the brain has gone.

use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use crate::sync::{AtomicBool, Ordering};

/// The longest input line the brain accepts, in bytes (without the line end). The longest legal command
/// is far shorter (`RECTSTART 20,20`, `INFO max_memory` with 20 digits, `INFO folder` with a Windows path
/// of at most 260 characters; a BOARD block comes one stone a line); a longer line is answered with one
/// `ERROR` and the rest of it is read and dropped without being kept.
pub const MAX_LINE_BYTES: usize = 8 << 10;

/// Lines read ahead of the brain at most; the reader waits when the brain is this far behind (a manager
/// waits for each answer, so only a flood of input fills it).
const QUEUE_LINES: usize = 1024;

/// One line as read.
#[derive(Debug)]
pub(super) enum Text {
    /// A line (lossily decoded, without its line end; may still end in CR).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], dropped.
    TooLong,
}

/// A line, when it was read, and its cancel signal.
#[derive(Debug)]
pub(super) struct Input {
    pub text: Text,
    pub received: Instant,
    pub signal: Arc<Signal>,
}

/// A line's cancellation, set by the reader, and the stop flag of the search its command runs.
#[derive(Debug)]
pub(super) struct Signal {
    /// Set once, by the reader, when a later line makes this line's move unwanted.
    cancelled: AtomicBool,
    /// The stop flag of this line's search: set with `cancelled`, and by the brain's time manager.
    stop: AtomicBool,
}

impl Signal {
    pub fn new() -> Self {
        Signal { cancelled: AtomicBool::new(false), stop: AtomicBool::new(false) }
    }

    /// Cancels the line's move and stops its search.
    fn cancel_release(&self) {
        self.cancelled.store(true, Ordering::Release);
        self.stop.store(true, Ordering::Release);
    }

    /// Stops this line's search without cancelling its move (the time manager's stop).
    pub fn stop_release(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether a later line cancelled this one.
    pub fn cancelled_acquire(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// The flag that stops this line's search (for [`crate::search::Search::run_with_stop`]).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }
}

/// What the reader and the brain share about the whole session.
#[derive(Debug)]
pub(super) struct Session {
    /// Set once, by the reader, when it reads END.
    ending: AtomicBool,
    /// The signal of the line whose move the brain is thinking about, if any (set and cleared by the
    /// brain around each search, read by the reader at END).
    thinking: Mutex<Option<Arc<Signal>>>,
}

impl Session {
    pub fn new() -> Self {
        Session { ending: AtomicBool::new(false), thinking: Mutex::new(None) }
    }

    /// END was read: the session is ending, and the search in progress stops.
    ///
    /// With [`Session::think`] this never misses a search: either the brain registered it before the
    /// reader locks `thinking` (and it is cancelled here), or the brain's `ending_acquire` after
    /// registering sees the flag stored before that lock.
    fn end(&self) {
        self.ending.store(true, Ordering::Release);
        if let Some(signal) = self.thinking.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
            signal.cancel_release();
        }
    }

    /// Whether END has been read.
    pub fn ending_acquire(&self) -> bool {
        self.ending.load(Ordering::Acquire)
    }

    /// Registers `signal` as the search in progress (`None`: no search), so that END can stop it.
    pub fn think(&self, signal: Option<&Arc<Signal>>) {
        *self.thinking.lock().unwrap_or_else(PoisonError::into_inner) = signal.cloned();
    }
}

/// The first word of a trimmed line in upper case, and the rest trimmed.
pub(super) fn command_word(line: &str) -> (String, &str) {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    (word.to_ascii_uppercase(), rest)
}

/// Whether a command (its upper-case word) changes the game or ends the session, so that a search for
/// the move before it is no longer wanted.
pub(super) fn stops_thinking(word: &str) -> bool {
    matches!(word, "END" | "START" | "RECTSTART" | "RESTART" | "BEGIN" | "TURN" | "BOARD" | "SWAP2BOARD" | "TAKEBACK")
}

/// Starts the reader thread over `input`; the brain receives the lines from the returned channel, which
/// closes at the end of input, after END or on a read error.
pub(super) fn spawn_reader<R: BufRead + Send + 'static>(input: R, session: Arc<Session>) -> Receiver<Input> {
    let (tx, rx) = mpsc::sync_channel(QUEUE_LINES);
    // Detached. A thread that cannot start drops `tx`: the brain sees no input and ends at once.
    let _ = std::thread::Builder::new().name("pbrain-input".into()).spawn(move || read_lines(input, &tx, &session));
    rx
}

/// The reader's loop (see the module documentation).
fn read_lines<R: BufRead>(mut input: R, tx: &SyncSender<Input>, session: &Session) {
    let mut buf = Vec::new();
    // The signal of the last line that was not INFO: the one a stopping command cancels.
    let mut last: Option<Arc<Signal>> = None;
    loop {
        let text = match read_bounded_line(&mut input, &mut buf, MAX_LINE_BYTES) {
            Ok(Some(true)) => Text::Line(String::from_utf8_lossy(&buf).into_owned()),
            Ok(Some(false)) => Text::TooLong,
            Ok(None) | Err(_) => return,
        };
        let received = Instant::now();
        let word = match &text {
            Text::Line(line) if line.trim().is_empty() => continue,
            Text::Line(line) => command_word(line.trim()).0,
            Text::TooLong => String::new(),
        };
        if stops_thinking(&word) {
            if let Some(signal) = &last {
                signal.cancel_release();
            }
        }
        let end = word == "END";
        if end {
            session.end();
        }
        let signal = Arc::new(Signal::new());
        if word != "INFO" {
            last = Some(Arc::clone(&signal));
        }
        if tx.send(Input { text, received, signal }).is_err() || end {
            return;
        }
    }
}

/// Reads one line of `input` into `buf` (cleared first, without the `\n`), keeping at most `max` bytes:
/// `Some(true)` for a line, `Some(false)` for a longer one (whose bytes are read in the reader's chunks
/// and dropped, `buf` left empty), `None` at the end of input. A last line without a line end counts.
///
/// # Errors
/// The input's read errors (other than `Interrupted`, which is retried).
pub(super) fn read_bounded_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    buf.clear();
    let mut read_any = false;
    let mut fits = true;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(read_any.then_some(fits));
        }
        read_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        if fits {
            if buf.len() + part.len() > max {
                fits = false;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let used = newline.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(fits));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its data `chunk` bytes at a time, as a pipe does.
    struct Chunked<'a> {
        data: &'a [u8],
        chunk: usize,
        handed: usize,
    }

    impl io::Read for Chunked<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.data.len().min(self.chunk).min(out.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            self.handed += n;
            Ok(n)
        }
    }

    fn lines(data: &[u8], max: usize, chunk: usize) -> Vec<Option<String>> {
        let mut input = io::BufReader::with_capacity(64, Chunked { data, chunk, handed: 0 });
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(fits) = read_bounded_line(&mut input, &mut buf, max).unwrap() {
            assert!(buf.len() <= max);
            out.push(fits.then(|| String::from_utf8(buf.clone()).unwrap()));
        }
        out
    }

    #[test]
    fn lines_are_bounded_and_the_rest_dropped() {
        let long = "x".repeat(1000);
        let data = format!("START 15\r\n{long}\nABOUT\n\nEND");
        for chunk in [1, 7, 64, 4096] {
            let got = lines(data.as_bytes(), 100, chunk);
            let want =
                [Some("START 15\r".to_string()), None, Some("ABOUT".into()), Some(String::new()), Some("END".into())];
            assert_eq!(got, want, "chunks of {chunk}");
        }
        // Exactly the limit fits; one more does not.
        assert_eq!(lines(b"abcd\nabcde\n", 4, 3), [Some("abcd".to_string()), None]);
        assert_eq!(lines(b"", 4, 3), Vec::<Option<String>>::new());
    }

    #[test]
    fn a_huge_line_is_read_in_chunks_and_not_kept() {
        // 64 MiB without a line end, then a command: the line buffer never grows past the limit.
        let mut data = vec![b'A'; 64 << 20];
        data.extend_from_slice(b"\nABOUT\n");
        let mut input = io::BufReader::with_capacity(8 << 10, Chunked { data: &data, chunk: 1 << 16, handed: 0 });
        let mut buf = Vec::new();
        assert_eq!(read_bounded_line(&mut input, &mut buf, MAX_LINE_BYTES).unwrap(), Some(false));
        assert!(buf.capacity() <= 2 * MAX_LINE_BYTES, "kept {} bytes", buf.capacity());
        assert_eq!(read_bounded_line(&mut input, &mut buf, MAX_LINE_BYTES).unwrap(), Some(true));
        assert_eq!(buf, b"ABOUT");
        assert_eq!(input.get_ref().handed, data.len());
    }

    #[test]
    fn command_words() {
        assert_eq!(command_word("end"), ("END".to_string(), ""));
        assert_eq!(command_word("END now"), ("END".to_string(), "now"));
        assert_eq!(command_word("END\t"), ("END".to_string(), ""));
        assert_eq!(command_word("TURN  7,7 "), ("TURN".to_string(), "7,7"));
        assert!(stops_thinking("END") && stops_thinking("TAKEBACK") && stops_thinking("BOARD"));
        assert!(
            !stops_thinking("INFO") && !stops_thinking("ABOUT") && !stops_thinking("DONE") && !stops_thinking("ENDX")
        );
    }

    /// The reader's signals for a whole script: which lines were cancelled, and whether the session ends.
    fn cancelled(script: &str) -> (Vec<(String, bool)>, bool) {
        let session = Arc::new(Session::new());
        let rx = spawn_reader(io::Cursor::new(script.as_bytes().to_vec()), Arc::clone(&session));
        let inputs: Vec<Input> = rx.iter().collect();
        let got = inputs
            .iter()
            .map(|i| match &i.text {
                Text::Line(l) => (l.trim().to_string(), i.signal.cancelled_acquire()),
                Text::TooLong => ("<too long>".to_string(), i.signal.cancelled_acquire()),
            })
            .collect();
        (got, session.ending_acquire())
    }

    #[test]
    fn stopping_commands_cancel_the_line_before_them() {
        let (got, ending) = cancelled("START 15\nBEGIN\nTURN 8,8\nINFO time_left 5\n\nTAKEBACK 8,8\nABOUT\nTURN 9,9\n");
        let want = [
            ("START 15", true),
            ("BEGIN", true),
            ("TURN 8,8", true),
            ("INFO time_left 5", false),
            ("TAKEBACK 8,8", false),
            ("ABOUT", true),
            ("TURN 9,9", false),
        ];
        let want: Vec<(String, bool)> = want.iter().map(|&(l, c)| (l.to_string(), c)).collect();
        assert_eq!(got, want);
        assert!(!ending, "the end of input is not END");
        // END with any text after it is END; the reader stops there.
        let (got, ending) = cancelled("TURN 7,7\nEND now\nTURN 8,8\n");
        assert_eq!(got, [("TURN 7,7".to_string(), true), ("END now".to_string(), false)]);
        assert!(ending);
        let (got, ending) = cancelled("end\t\r\nABOUT\n");
        assert_eq!(got, [("end".to_string(), false)]);
        assert!(ending);
    }
}
