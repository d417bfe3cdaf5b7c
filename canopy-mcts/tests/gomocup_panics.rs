//! A panic inside the Gomocup brain, with the brain process's quiet panic hook
//! (`protocol::quiet_panics`, which `run_stdio` installs): the brain answers `ERROR internal error: ...`,
//! goes on serving, and nothing reaches stderr. The test runs itself again as a child process (the hook
//! is process-wide) and checks the child's stderr.

use std::io::{self, Write};
use std::process::Command;
use std::sync::{Arc, Mutex};

use canopy_mcts::games::gomoku::protocol::{self, BrainConfig};
use canopy_mcts::search::SearchParams;

/// Set in the child's environment.
const CHILD: &str = "CANOPY_GOMOCUP_PANIC_CHILD";
const TEST: &str = "a_panic_inside_the_brain_prints_nothing_on_stderr";

/// An output that panics on the first write of an ABOUT answer, then works.
#[derive(Clone)]
struct FaultyOnce {
    written: Arc<Mutex<Vec<u8>>>,
    armed: Arc<Mutex<bool>>,
}

impl Write for FaultyOnce {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.starts_with(b"name=") && std::mem::take(&mut *self.armed.lock().unwrap()) {
            panic!("output fault");
        }
        self.written.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The child: a session whose first ABOUT answer panics.
fn child() {
    protocol::quiet_panics();
    let out = FaultyOnce { written: Arc::default(), armed: Arc::new(Mutex::new(true)) };
    let config = BrainConfig {
        params: SearchParams { threads: 1, pin_threads: false, playouts: Some(200), ..BrainConfig::default().params },
        ..BrainConfig::default()
    };
    let script = "START 15\nABOUT\nTURN 7,7\nABOUT\n";
    protocol::run(io::Cursor::new(script.as_bytes().to_vec()), out.clone(), &config).unwrap();
    // The default hook again, so that a failed assertion below says why.
    let _ = std::panic::take_hook();
    let text = String::from_utf8(out.written.lock().unwrap().clone()).unwrap();
    let answers: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers[0], "OK");
    assert_eq!(answers[1], "ERROR internal error: output fault", "{answers:?}");
    assert!(answers[2].contains(','), "a move: {answers:?}");
    assert!(answers[3].starts_with("name=\"canopy\""), "{answers:?}");
    assert_eq!(answers.len(), 4);
    println!("child session answered {answers:?}");
}

#[test]
fn a_panic_inside_the_brain_prints_nothing_on_stderr() {
    if std::env::var_os(CHILD).is_some() {
        child();
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(exe)
        .args(["--exact", TEST, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("run the child test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed: {stdout}\n{stderr}");
    assert!(stdout.contains("child session answered"), "the child ran the session: {stdout}");
    assert!(!stderr.contains("panicked") && stderr.trim().is_empty(), "stderr: {stderr:?}");
}
