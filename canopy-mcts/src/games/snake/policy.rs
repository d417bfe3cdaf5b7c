//! The search policy for Snake ([`SnakePolicy`]): which safe moves the tree expands and how rollouts
//! play and when they stop.

use crate::game::{Game, Turn};
use crate::param::{Kind, Param, Settings, Store, Value};
use crate::policy::{Coverage, Policy};
use crate::rng::Rng;

use super::agents;
use super::cycle;
use super::paths::Paths;
use super::state::{Step, NO_FOOD};
use super::{Dir, Snake, SnakeState};

/// Node budget of one closing-cycle search in a rollout (see [`SnakePolicy::rollout_cycle_free`]).
pub const CYCLE_BUDGET: u32 = 2_000;

/// How [`Snake`]'s rollouts choose moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RolloutPolicy {
    /// Uniform over the safe moves (any non-reversing move when none is safe); the legal actions, drawn
    /// without building the list.
    #[default]
    RandomSafe,
    /// Tail-following, one move ahead: prefer moves that keep the tail reachable, nearest the food first;
    /// else the move with the most room. A few flood fills per move: several times slower than
    /// [`RolloutPolicy::RandomSafe`], and far longer games.
    TailFollow,
    /// Safe greedy: among the moves after which the head can still reach the tail through free cells
    /// (the test of [`TailFilter::Now`]), the one with the shortest path to the food through
    /// free cells, ties broken at random; with no such move, the move with the most reachable free cells.
    /// Two bit-parallel flood fills per move (see `paths::flood`). The policy the MCTS agent uses by
    /// default.
    SafeGreedy,
}

/// Which safe moves a search considers ([`SnakePolicy::tail_filter`]): a search setting, not a rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TailFilter {
    /// Every safe move.
    #[default]
    Off,
    /// The tail-safe moves ([`Snake::tail_safe_moves`]): after the move a path of free cells leads from
    /// the head to the tail. A snake that plays only such moves never runs into itself, but the test is
    /// strict: it also refuses moves that lose the tail for a few moves and find it again.
    Now,
    /// The moves after which the head can reach the tail along a timed path, through body cells that will
    /// have moved away by the time the head gets there ([`Snake::timed_tail_moves`]). Looser than
    /// [`TailFilter::Now`], and no longer a guarantee (food eaten on the way delays the tail).
    Timed,
}

/// The rollout policies by name, in the order [`SnakePolicy`]'s `rollout` parameter lists them.
const ROLLOUTS: [(&str, RolloutPolicy); 3] = [
    ("safegreedy", RolloutPolicy::SafeGreedy),
    ("tailfollow", RolloutPolicy::TailFollow),
    ("random", RolloutPolicy::RandomSafe),
];
/// The tail filters by name, in the order of the `tail_filter` parameter.
const TAIL_FILTERS: [(&str, TailFilter); 3] =
    [("off", TailFilter::Off), ("now", TailFilter::Now), ("timed", TailFilter::Timed)];

/// The policy's settings a user can give (`rollout_cycle_free` is set with the MCTS agent's endgame,
/// see [`super::MctsAgent::with_endgame`]).
const POLICY_PARAMS: &[Param<SnakePolicy>] = &[
    Param {
        name: "rollout",
        help: "Rollout policy: safegreedy (greedy by path distance to the food, keeping the tail reachable), \
               tailfollow (one move ahead, nearest the food) or random (uniform over the safe moves); the MCTS \
               agent's default safegreedy",
        kind: Kind::Choice(&["safegreedy", "tailfollow", "random"]),
        store: Store::Choice(|p, i| p.rollout = ROLLOUTS[i].1),
        get: |p| Value::Choice(ROLLOUTS.iter().find(|(_, r)| *r == p.rollout).map_or("random", |(n, _)| n)),
    },
    Param {
        name: "rollout_moves",
        help: "Rollout cap in moves (the MCTS agent's default 2 x the board's cells)",
        kind: Kind::Int { min: 1, max: u32::MAX as u64 },
        store: Store::Int(|p, v| p.rollout_max_moves = v as u32),
        get: |p| Value::Int(u64::from(p.rollout_max_moves)),
    },
    Param {
        name: "rollout_patience",
        help: "A rollout stops after this many moves in a row without food (default the board's cells)",
        kind: Kind::Int { min: 1, max: u32::MAX as u64 },
        store: Store::Int(|p, v| p.rollout_patience = v as u32),
        get: |p| Value::Int(u64::from(p.rollout_patience)),
    },
    Param {
        name: "tail_filter",
        help: "Which safe moves the search considers: off (all), now (after which a path of free cells leads to \
               the tail) or timed (through cells the body will have left); the MCTS agent's default now",
        kind: Kind::Choice(&["off", "now", "timed"]),
        store: Store::Choice(|p, i| p.tail_filter = TAIL_FILTERS[i].1),
        get: |p| Value::Choice(TAIL_FILTERS.iter().find(|(_, f)| *f == p.tail_filter).map_or("off", |(n, _)| n)),
    },
];

impl Settings for SnakePolicy {
    fn params() -> &'static [Param<SnakePolicy>] {
        POLICY_PARAMS
    }
}

/// The search policy for Snake: which safe moves the tree expands ([`TailFilter`]) and how rollouts play
/// and when they stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SnakePolicy {
    /// The rollout policy.
    pub rollout: RolloutPolicy,
    /// A rollout stops (keeping the rewards collected so far) after this many moves in a row without
    /// food, counted from the rollout's start or its last food (default `width * height`). Bounds the
    /// time spent circling in rollouts; set it to the game's `starvation_limit` or more to play rollouts
    /// to the end.
    pub rollout_patience: u32,
    /// A rollout stops (keeping the rewards collected so far) after this many moves in all. Default
    /// `u32::MAX` (no cap): random-safe rollouts die or starve within a few hundred moves, but
    /// tail-following ones often fill most of the board (thousands of moves), so cap them (e.g. at
    /// `4 * width * height`) when rollouts per second matter more than their horizon.
    pub rollout_max_moves: u32,
    /// Which of the legal moves [`Policy::candidates`] keeps (when at least one passes the test;
    /// otherwise all of them). Default [`TailFilter::Off`].
    pub tail_filter: TailFilter,
    /// A rollout that reaches a position with at most this many free cells from which a closing cycle
    /// exists ([`ClosingCycle`](super::ClosingCycle)) stops there and counts every free cell as eaten
    /// (walking the cycle fills the board), plus the survival bonus for about `k (k + 3) / 4` moves with
    /// `k` free cells. Default 0 (off).
    pub rollout_cycle_free: usize,
}

impl SnakePolicy {
    /// The default policy for a `width` x `height` board: random-safe rollouts that stop after
    /// `width * height` moves without food, no move cap, no tail filter, no closing-cycle scoring.
    pub fn new(width: usize, height: usize) -> Self {
        SnakePolicy {
            rollout: RolloutPolicy::RandomSafe,
            rollout_patience: (width * height) as u32,
            rollout_max_moves: u32::MAX,
            tail_filter: TailFilter::Off,
            rollout_cycle_free: 0,
        }
    }

    /// The default policy for `game`'s board ([`SnakePolicy::new`]).
    pub fn for_game(game: &Snake) -> Self {
        SnakePolicy::new(game.width, game.height)
    }

    /// Plays a rollout from `state` choosing moves with `choose`; returns the rewards collected.
    #[inline]
    fn run_rollout(
        &self,
        game: &Snake,
        state: &SnakeState,
        rng: &mut Rng,
        mut choose: impl FnMut(&SnakeState, &mut Rng) -> Dir,
    ) -> f64 {
        let mut s = state.clone();
        let (mut total, mut patience, mut moves) = (0.0, 0, 0);
        let bonus = game.survival_bonus();
        loop {
            if s.end().is_some() {
                return total;
            }
            if s.food_index() == NO_FOOD {
                let food = s.sample_free(rng);
                s.place_food(food);
                continue;
            }
            if patience >= self.rollout_patience || moves >= self.rollout_max_moves {
                return total;
            }
            if s.free_cells() <= self.rollout_cycle_free && cycle::ClosingCycle::exists(&s, CYCLE_BUDGET) {
                // Walking the closing cycle fills the board; each food is on average half the free cells
                // away along it.
                let k = s.free_cells() as f64;
                return total + k + bonus * k * (k + 3.0) / 4.0;
            }
            moves += 1;
            let d = choose(&s, rng);
            match s.step(d, game.starvation_limit) {
                Step::Died => {}
                Step::Moved => {
                    total += bonus;
                    patience += 1;
                }
                Step::Ate => {
                    total += 1.0 + bonus;
                    patience = 0;
                }
            }
        }
    }
}

impl Policy<Snake> for SnakePolicy {
    /// The safe moves ([`Snake::safe_moves`]), narrowed by [`SnakePolicy::tail_filter`] to those that
    /// pass its test when at least one does. [`Coverage::Complete`] when no legal move was left out.
    fn candidates(&self, game: &Snake, s: &SnakeState, out: &mut Vec<Dir>) -> Coverage {
        let mut moves = [Dir::Up; 4];
        let n = match (self.tail_filter, game.to_move(s)) {
            (_, Turn::Chance | Turn::Terminal) | (TailFilter::Off, _) => 0,
            (TailFilter::Now, _) => Snake::tail_safe_moves(s, &mut moves),
            (TailFilter::Timed, _) => Snake::timed_tail_moves(s, &mut moves),
        };
        if n > 0 {
            out.clear();
            out.extend_from_slice(&moves[..n]);
        } else {
            Snake::safe_moves(s, out);
        }
        let legal = Dir::ALL.into_iter().filter(|&d| !s.is_reversal(d)).count();
        if out.is_empty() || out.len() == legal {
            Coverage::Complete
        } else {
            Coverage::Pruned
        }
    }

    /// Plays to the end with [`SnakePolicy::rollout`]'s policy, allocation-free, stopping early after
    /// `rollout_patience` moves in a row without food or `rollout_max_moves` moves in all; returns the
    /// rewards collected (food units). `scratch` is unused.
    fn rollout(&self, game: &Snake, state: &SnakeState, rng: &mut Rng, _scratch: &mut Vec<Dir>) -> [f64; 1] {
        let total = match self.rollout {
            RolloutPolicy::RandomSafe => self.run_rollout(game, state, rng, agents::random_safe),
            RolloutPolicy::TailFollow => {
                let mut paths = Paths::new();
                self.run_rollout(game, state, rng, |s, rng| agents::tailfollow_rollout_move(&mut paths, s, rng))
            }
            RolloutPolicy::SafeGreedy => self.run_rollout(game, state, rng, agents::safe_greedy),
        };
        [total]
    }
}
