//! Baselines: agents that choose a move for a position without search, to compare the engine with.
//!
//! Every agent is a function `(&SnakeState, &mut Rng) -> Dir` meant for a position where the snake is
//! to move (not over, food on the board); on other positions it still returns a move but the move means
//! nothing. None allocates: breadth-first searches use fixed scratch arrays (about 8 KiB of stack).
//!
//! - [`random_safe`]: uniform over the moves that do not die at once.
//! - [`greedy`]: the first move of a shortest path to the food, else a random safe move.
//! - [`tailfollow`]: goes for the food only when, after eating along the path, the head can still reach
//!   the tail; otherwise it follows the tail the long way round.
//! - [`hamilton`] (and [`Hamilton`]): follows a Hamiltonian cycle; fills every board.

use std::fmt;
use std::str::FromStr;

use crate::agent::{Agent, Context, Decision, How};
use crate::rng::{below, Rng};

use super::hamilton::Hamilton;
use super::paths::{flood, Paths};
use super::state::{Cell, Dir, End, SnakeState, NO_FOOD};
use super::Snake;

/// A move drawn uniformly from the safe moves (no reversal, no wall, no body; entering the cell the tail
/// leaves is safe), or from all non-reversing moves when none is safe.
pub fn random_safe(s: &SnakeState, rng: &mut Rng) -> Dir {
    let mut moves = [Dir::Up; 4];
    let mut n = 0;
    for d in Dir::ALL {
        if s.is_safe(d) {
            moves[n] = d;
            n += 1;
        }
    }
    if n == 0 {
        for d in Dir::ALL {
            if !s.is_reversal(d) {
                moves[n] = d;
                n += 1;
            }
        }
    }
    moves[below(rng, n)]
}

/// Greedy: the first move of a shortest path from the head to the food (breadth-first search in which a
/// body cell becomes passable once the tail has left it), or a [`random_safe`] move when no path exists.
pub fn greedy(s: &SnakeState, rng: &mut Rng) -> Dir {
    let mut paths = Paths::new();
    let food = s.food_index();
    if food != NO_FOOD && paths.search(s, food, true).dist.is_some() {
        return paths.first_move(s, food);
    }
    random_safe(s, rng)
}

/// Tail-following, in order of preference:
///
/// 1. the first move of a shortest path to the food (as [`greedy`]) when a virtual snake that follows
///    the whole path and eats can still reach its own tail afterwards (or has won);
/// 2. otherwise, among the safe moves after which the head can still reach the tail, the one whose head
///    is farthest from the tail (breadth-first distance): a stand-in for the longest path to the tail,
///    which stalls until the body uncovers a safe path to the food;
/// 3. otherwise the safe move that leaves the head the most reachable free cells;
/// 4. otherwise any non-reversing move (all of them die).
pub fn tailfollow(s: &SnakeState, rng: &mut Rng) -> Dir {
    let mut paths = Paths::new();
    let food = s.food_index();
    if food != NO_FOOD && paths.search(s, food, true).dist.is_some() {
        let first = paths.first_move(s, food);
        let mut v = s.clone();
        paths.replay(s, food, &mut v);
        match v.end() {
            Some(End::Won) => return first,
            None if paths.tail_distance(&v).dist.is_some() => return first,
            _ => {}
        }
    }
    let mut far: Option<(u16, Dir)> = None;
    let mut roomy: Option<(u16, Dir)> = None;
    for d in Dir::ALL {
        if !s.is_safe(d) {
            continue;
        }
        let mut v = s.clone();
        v.step(d, u32::MAX);
        if v.end() == Some(End::Won) {
            return d;
        }
        let reach = paths.tail_distance(&v);
        match reach.dist {
            Some(dist) if far.is_none_or(|(best, _)| dist > best) => far = Some((dist, d)),
            None if roomy.is_none_or(|(best, _)| reach.area > best) => roomy = Some((reach.area, d)),
            _ => {}
        }
    }
    match far.or(roomy) {
        Some((_, d)) => d,
        None => random_safe(s, rng),
    }
}

/// Follows a Hamiltonian cycle of the board (see [`Hamilton`]). Builds the cycle on every call (O(W*H));
/// hold a [`Hamilton`] to avoid that.
pub fn hamilton(s: &SnakeState, rng: &mut Rng) -> Dir {
    Hamilton::new(s.width(), s.height()).choose(s, rng)
}

/// The tail-following rollout policy: a cheaper cousin of [`tailfollow`] that looks one move ahead.
/// Among the safe moves, those after which the head can still reach the tail through free cells win, and
/// among them the one that ends nearest the food (Manhattan distance); when none keeps the tail in reach,
/// the move with the most reachable free cells. Ties are broken at random; with no safe move, any
/// non-reversing move.
///
/// One flood fill from the tail answers for every move: after a move into `n` the tail cell is free,
/// so the head can reach the tail exactly when a path of free cells joins `n` to the tail cell now
/// (a simple path from the tail to `n` avoids `n` on the way). The fill stops once it has met every
/// candidate cell, which is quick while the tail is near.
pub(crate) fn tailfollow_rollout_move(paths: &mut Paths, s: &SnakeState, rng: &mut Rng) -> Dir {
    let (mut cells, mut moves, mut k) = ([0u16; 4], [Dir::Up; 4], 0);
    for d in Dir::ALL {
        if let (false, Ok(n)) = (s.is_reversal(d), s.target(d)) {
            cells[k] = n;
            moves[k] = d;
            k += 1;
        }
    }
    if k == 0 {
        return random_safe(s, rng);
    }
    let reached = if s.len() < 2 { u8::MAX } else { paths.reach_from(s, s.tail_index(), &cells[..k]) };
    let food = s.food_index();
    let wins = s.len() + 1 == s.area();
    let (mut best, mut best_score, mut ties) = (moves[0], i64::MIN, 0);
    for i in 0..k {
        let n = cells[i];
        let score = if n == food && wins {
            i64::MAX
        } else if reached >> i & 1 != 0 {
            let to_food = if food == NO_FOOD { 0 } else { Cell::from_index(n).distance(Cell::from_index(food)) };
            (1 << 20) - to_food as i64
        } else {
            paths.area_from(s, n) as i64
        };
        if score > best_score {
            (best, best_score, ties) = (moves[i], score, 1);
        } else if score == best_score {
            ties += 1;
            if below(rng, ties) == 0 {
                best = moves[i];
            }
        }
    }
    best
}

/// The safe-greedy rollout policy ([`super::RolloutPolicy::SafeGreedy`]): among the tail-safe moves (see
/// [`Snake::tail_safe_moves`]), the one whose cell is nearest the food along free cells, ties broken at
/// random; a random tail-safe move when the food cannot be reached from any of them; with no tail-safe
/// move, the safe move that leaves the most reachable free cells (any non-reversing move when none is
/// safe). Two bit-parallel flood fills per move, no scratch memory.
pub fn safe_greedy(s: &SnakeState, rng: &mut Rng) -> Dir {
    let mut moves = [Dir::Up; 4];
    let k = Snake::tail_safe_moves(s, &mut moves);
    if k == 0 {
        return roomiest(s, rng);
    }
    if k == 1 {
        return moves[0];
    }
    let food = s.food_index();
    let mut cells = [0u16; 4];
    for i in 0..k {
        // Tail-safe moves are safe, so the target is on the board.
        cells[i] = s.target(moves[i]).unwrap_or(0);
        if cells[i] == food {
            return moves[i];
        }
    }
    let dist = if food == NO_FOOD { [u16::MAX; 4] } else { flood(s, &[food], &cells[..k]).dist };
    let (mut best, mut best_dist, mut ties) = (moves[0], u16::MAX, 0);
    for i in 0..k {
        if dist[i] < best_dist {
            (best, best_dist, ties) = (moves[i], dist[i], 1);
        } else if dist[i] == best_dist {
            ties += 1;
            if below(rng, ties) == 0 {
                best = moves[i];
            }
        }
    }
    best
}

/// The safe move that leaves the head the most reachable free cells (ties at random), or any
/// non-reversing move when none is safe.
fn roomiest(s: &SnakeState, rng: &mut Rng) -> Dir {
    let (mut best, mut best_area, mut ties) = (None, 0u16, 0);
    for d in Dir::ALL {
        if !s.is_safe(d) {
            continue;
        }
        let Ok(n) = s.target(d) else { continue };
        let area = flood(s, &[n], &[]).area;
        if best.is_none() || area > best_area {
            (best, best_area, ties) = (Some(d), area, 1);
        } else if area == best_area {
            ties += 1;
            if below(rng, ties) == 0 {
                best = Some(d);
            }
        }
    }
    best.unwrap_or_else(|| random_safe(s, rng))
}

/// The built-in baselines, by name (`random`, `greedy`, `tailfollow`, `hamilton`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// [`random_safe`].
    RandomSafe,
    /// [`greedy`].
    Greedy,
    /// [`tailfollow`].
    TailFollow,
    /// [`hamilton`].
    Hamilton,
}

impl Baseline {
    /// Every baseline, weakest first.
    pub const ALL: [Baseline; 4] = [Baseline::RandomSafe, Baseline::Greedy, Baseline::TailFollow, Baseline::Hamilton];

    /// The name the parser reads.
    pub fn name(self) -> &'static str {
        match self {
            Baseline::RandomSafe => "random",
            Baseline::Greedy => "greedy",
            Baseline::TailFollow => "tailfollow",
            Baseline::Hamilton => "hamilton",
        }
    }

    /// The agent for a `width` x `height` board (the Hamiltonian cycle is built once here).
    pub fn agent(self, width: usize, height: usize) -> BaselineAgent {
        let cycle = (self == Baseline::Hamilton).then(|| Hamilton::new(width, height));
        BaselineAgent { baseline: self, cycle }
    }
}

impl fmt::Display for Baseline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name of a baseline that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown snake baseline '{0}': expected random, greedy, tailfollow or hamilton")]
pub struct UnknownBaseline(pub String);

impl FromStr for Baseline {
    type Err = UnknownBaseline;

    fn from_str(s: &str) -> Result<Baseline, UnknownBaseline> {
        Baseline::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownBaseline(s.to_string()))
    }
}

/// A baseline as an [`Agent`]: it draws its randomness from the agent's stream of the game.
pub struct BaselineAgent {
    baseline: Baseline,
    /// The Hamiltonian cycle of [`Baseline::Hamilton`], built for the board once.
    cycle: Option<Hamilton>,
}

impl BaselineAgent {
    /// The baseline's move for `s` (see [`Baseline`]).
    pub fn choose(&self, s: &SnakeState, rng: &mut Rng) -> Dir {
        match (self.baseline, &self.cycle) {
            (Baseline::RandomSafe, _) => random_safe(s, rng),
            (Baseline::Greedy, _) => greedy(s, rng),
            (Baseline::TailFollow, _) => tailfollow(s, rng),
            (Baseline::Hamilton, Some(cycle)) => cycle.choose(s, rng),
            (Baseline::Hamilton, None) => hamilton(s, rng),
        }
    }
}

impl Agent<Snake> for BaselineAgent {
    fn name(&self) -> String {
        self.baseline.name().to_string()
    }

    fn choose(&mut self, _game: &Snake, s: &SnakeState, cx: &mut Context<'_>) -> Option<Decision<Dir>> {
        Some(Decision::by(BaselineAgent::choose(self, s, cx.rng), How::Baseline))
    }
}
