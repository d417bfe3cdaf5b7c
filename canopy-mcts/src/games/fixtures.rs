//! Fixed benchmark positions: the positions `canopy bench` searches and the criterion benches
//! (`canopy-mcts/benches/`) time, each with a short name and its text in the game's position format.
//!
//! With one thread and a fixed seed a search is reproducible, so the node count `canopy bench --threads 1`
//! prints is a checksum of the search on exactly these positions (docs/BENCHMARKS.md has the counts):
//! changing a position changes every count measured on it.
//!
//! ```
//! use canopy_mcts::games::fixtures;
//!
//! let names: Vec<&str> = fixtures::g2048().iter().map(|f| f.name).collect();
//! assert_eq!(names, ["start", "early", "middle"]);
//! assert_eq!(fixtures::tictactoe()[1].text, "x../.o./...");
//! ```

use crate::game::{Game, Turn};
use crate::games::g2048::{Board, G2048State, G2048};
use crate::games::gomoku::{Gomoku, GomokuState};
use crate::games::snake::{SnakeState, MAX_SIDE as SNAKE_MAX_SIDE};
use crate::games::synthetic::{Synthetic, SyntheticState};
use crate::games::tictactoe::TicTacToeState;
use crate::rng::{self, seeded};

/// The smallest board side [`snake`] builds its positions on (the eight-cell snake needs 6x6).
pub const SNAKE_MIN_SIDE: usize = 6;

/// The 20-stone 15x15 middle game of [`gomoku`] (Gomocup `x,y` moves, Black first).
pub const GOMOKU_MIDDLE: &str = "7,7 8,8 7,8 7,6 8,7 6,7 9,6 6,9 5,8 8,6 9,7 10,7 6,6 5,5 9,9 10,10 4,7 9,8 6,8 8,9";

/// One named position.
#[derive(Clone, Debug)]
pub struct Fixture<S> {
    /// A short name (`start`, `middle`, ...), unique within a game's list.
    pub name: &'static str,
    /// The position in the game's text format, which its parser reads back to `state` (2048: 16 tile
    /// values; tic-tac-toe: three rows; gomoku: the moves from the empty board, empty for the empty board;
    /// snake: the position text of `games::snake::parse`).
    pub text: String,
    /// The position.
    pub state: S,
}

/// Three 2048 boards (row-major, row 0 first), each with a legal move: `start` (a fresh game's two
/// tiles), `early` and `middle` (a 512 tile).
pub fn g2048() -> Vec<Fixture<G2048State>> {
    [
        ("start", "0,0,0,0,0,0,2,0,0,0,0,0,2,0,0,0"),
        ("early", "2,0,0,0,4,2,0,0,8,16,4,2,32,8,4,2"),
        ("middle", "0,0,2,0,4,2,8,2,16,64,32,4,256,512,128,8"),
    ]
    .into_iter()
    .map(|(name, text)| {
        let board: Board = text.parse().expect("fixture boards are valid");
        let state = G2048State::from_board(board);
        assert!(matches!(G2048.to_move(&state), Turn::Player(_)), "fixture board {name} has no legal move");
        Fixture { name, text: text.to_string(), state }
    })
    .collect()
}

/// Two tic-tac-toe positions: `empty` and `two` (a cross in a corner, a nought in the centre).
pub fn tictactoe() -> Vec<Fixture<TicTacToeState>> {
    [("empty", ".../.../..."), ("two", "x../.o./...")]
        .into_iter()
        .map(|(name, text)| Fixture {
            name,
            text: text.to_string(),
            state: TicTacToeState::parse(text).expect("fixture positions are valid"),
        })
        .collect()
}

/// Positions of `game`'s board: `empty`, `opening` (four stones around the centre) and, from 11x11 up,
/// `middle` ([`GOMOKU_MIDDLE`], 20 stones). None is over.
pub fn gomoku(game: &Gomoku) -> Vec<Fixture<GomokuState>> {
    let c = game.size() / 2;
    let opening = format!("{c},{c} {},{} {},{c} {c},{}", c + 1, c + 1, c - 1, c - 1);
    let mut list = vec![("empty", String::new()), ("opening", opening)];
    if game.size() >= 11 {
        list.push(("middle", GOMOKU_MIDDLE.to_string()));
    }
    list.into_iter()
        .map(|(name, text)| {
            let state = game.from_moves(&text).expect("fixture positions are valid");
            assert!(!state.is_terminal(), "fixture position {name} is over");
            Fixture { name, text, state }
        })
        .collect()
}

/// Two positions of a `side` x `side` snake board, each with food placed: `start` (a one-cell snake in
/// the middle) and `middle` (an eight-cell snake bent around the centre).
///
/// # Panics
/// When `side` is outside `SNAKE_MIN_SIDE..=32`.
pub fn snake(side: usize) -> Vec<Fixture<SnakeState>> {
    assert!(
        (SNAKE_MIN_SIDE..=SNAKE_MAX_SIDE).contains(&side),
        "snake fixtures need a side in {SNAKE_MIN_SIDE}..={SNAKE_MAX_SIDE}, got {side}"
    );
    let (n, c) = (side, side / 2);
    let start = format!("{n}x{n} body={c},{c} food=1,1");
    let body = [
        (c - 1, c - 1),
        (c - 1, c),
        (c - 1, c + 1),
        (c, c + 1),
        (c + 1, c + 1),
        (c + 1, c),
        (c + 1, c - 1),
        (c + 1, c - 2),
    ];
    let cells: Vec<String> = body.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let middle = format!("{n}x{n} body={} food=1,{}", cells.join(" "), n - 2);
    [("start", start), ("middle", middle)]
        .into_iter()
        .map(|(name, text)| {
            let state: SnakeState = text.parse().expect("fixture positions are valid");
            Fixture { name, text, state }
        })
        .collect()
}

/// The synthetic tree's one position, `root` (its text names the tree's shape): the hot-root case, where
/// every playout passes the same node and edges.
pub fn synthetic(game: &Synthetic) -> Vec<Fixture<SyntheticState>> {
    let text = format!("root of a tree of branching {} and depth {}", game.branching(), game.depth());
    vec![Fixture { name: "root", text, state: game.start() }]
}

/// `count` 2048 boards met in uniformly random games seeded with `seed`: every position with a legal
/// move of as many games as needed, in order (the move generation benches time moves over them).
pub fn g2048_played_boards(count: usize, seed: u64) -> Vec<Board> {
    let g = G2048;
    let mut rng = seeded(seed, 0);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut s = G2048State::new_game(&mut rng);
        let mut legal = Vec::new();
        while out.len() < count {
            g.legal_actions(&s, &mut legal);
            if legal.is_empty() {
                break;
            }
            out.push(s.board);
            let dir = legal[rng::below(&mut rng, legal.len())];
            g.apply(&mut s, dir);
            let spawn = g.sample_outcome(&s, &mut rng);
            g.apply_outcome(&mut s, spawn);
        }
    }
    out
}
