//! `pbrain-canopy`: canopy as a Gomocup brain (the Piskvork "pbrain" protocol over stdin and stdout).
//! Game managers start brains without arguments; the protocol itself is in
//! [`canopy_mcts::games::gomoku::protocol`]. `canopy gomocup` runs the same loop with search options.
//!
//! The only arguments are `--help` (`-h`) and `--version` (`-V`), which print and exit 0; any other is
//! refused with one line on stderr and exit status 2.
//!
//! Exit status 0 after END, at the end of input, and when stdout is closed (a write fails: the manager
//! is gone); nothing is printed on stderr, panics included.

use clap::Parser;

use canopy_mcts::games::gomoku::protocol::{run_stdio, BrainConfig};

/// The command line: no options besides help and version.
#[derive(Parser, Debug)]
#[command(
    name = "pbrain-canopy",
    version,
    about = "canopy as a Gomocup brain: reads the Piskvork pbrain protocol (START, BEGIN, TURN, BOARD, INFO, \
             END, ...) on stdin and answers on stdout. Game managers start it without arguments; \
             `canopy gomocup` runs the same brain with search options. The rule comes from `INFO rule`: \
             1 exactly five, 4 renju (Black wins only with exactly five and loses by an overline, a double \
             four or a double three), otherwise freestyle."
)]
struct Cli {}

fn main() {
    // SAFETY: [I15] the first statement of `main`: no other thread has been started yet.
    unsafe { canopy_mcts::keep_freed_memory() };
    if let Err(e) = Cli::try_parse() {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            let _ = e.print();
            std::process::exit(0);
        }
        let text = e.to_string();
        let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("error: bad arguments").trim_end();
        eprintln!("{line} (pbrain-canopy takes no arguments; see pbrain-canopy --help)");
        std::process::exit(2);
    }
    // The only error is a failed write on stdout: nobody is left to tell.
    let _ = run_stdio(&BrainConfig::default());
}
