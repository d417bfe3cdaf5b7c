//! [`GomokuPolicy`]: what the search knows about Gomoku beyond the rules — which cells the tree expands
//! (the candidates) and how rollouts play.

use super::board::{Cell, GomokuState, BLACK, MAX_SIZE};
use super::pattern;
use super::playout::{self, Choice, Playout, RolloutPolicy};
use super::renju;
use super::rules::{near_stones, Lines};
use super::tactics;
use super::{Gomoku, DEFAULT_RADIUS, DEFAULT_ROLLOUT_RADIUS};
use crate::game::{win_draw_loss_returns, Game};
use crate::policy::{Coverage, Policy};
use crate::rng::{below, Rng};

/// The search policy for [`Gomoku`]:
///
/// - **Candidates** ([`Policy::candidates`]): the empty cells within Chebyshev distance
///   [`GomokuPolicy::radius`] (default 2) of a stone in row-major order, or the centre on an empty
///   board. With [`GomokuPolicy::with_threat_pruning`] they narrow further to the answers to a threat
///   when there is one (module `tactics`), and in quiet positions to the cells within
///   [`GomokuPolicy::quiet_radius`] plus the threat cells. Every empty cell stays a legal move
///   ([`Game::legal_actions`]); the candidates only narrow the search.
/// - **Rollouts** ([`Policy::rollout`]): a winning cell when there is one, else a block of the
///   opponent's winning cell, else (with [`RolloutPolicy::Threats`] and [`RolloutPolicy::Attacks`]) a
///   straight four or the opponent's straight-four cell, else (with [`RolloutPolicy::Attacks`], the
///   default) a double threat (4-4, 4-3, 3-3) or the opponent's double-threat cell, else a uniform
///   random cell within [`GomokuPolicy::rollout_radius`] (default 1) of a stone (module `playout`).
///   [`RolloutPolicy::Uniform`] plays uniformly random empty cells instead (plain MCTS, for throughput
///   comparisons).
/// - **Renju** ([`super::Rule::Renju`]): Black's forbidden cells ([`Gomoku::foul`]) are neither candidates
///   nor rollout moves for Black while it has other cells; see module `renju` and docs/gomoku.md.
/// - **Priors** ([`Policy::priors`], used by PUCT selection only): each candidate's weight is
///   `(1 + v)^(1 / T)`, where `v` is the pattern value of the cell (module `pattern`: the fives, fours,
///   threes and twos a stone there makes for the side to move, plus 0.8 times the opponent's it blocks,
///   with 4-4, 4-3 and 3-3 combinations above single threats) and `T` is
///   [`GomokuPolicy::prior_temperature`] (default [`DEFAULT_PRIOR_TEMPERATURE`]; larger is flatter).
///
/// # Proofs
///
/// The candidates report their [`Coverage`] so that MCTS-Solver proves losses and draws only where the
/// left-out cells cannot matter: a neighbourhood that holds every empty cell is complete; under threat
/// pruning, the answers to a five (win at once, or block the opponent's five), the straight fours of the
/// side to move (each wins by force) and the answers to the opponent's open three (with a candidate
/// radius of at least 2) are safe for proofs, because no left-out cell is better than the best candidate
/// (docs/ARCHITECTURE.md gives the arguments); every other narrowing (the neighbourhood, the
/// double-threat rule, the quiet positions, the centre on an empty board) is [`Coverage::Pruned`]. Leaving
/// out Black's forbidden cells under renju keeps the coverage (they lose at once; a complete set becomes
/// [`Coverage::ProofSafe`]); answering Black's open three as White is [`Coverage::Pruned`] under renju.
///
/// ```
/// use canopy_mcts::games::gomoku::{Cell, Gomoku, GomokuPolicy, Rule};
/// use canopy_mcts::{Coverage, Game, Policy};
///
/// let game = Gomoku::new(15, Rule::Freestyle);
/// let state = game.from_moves("7,7").unwrap();
/// let mut legal = Vec::new();
/// game.legal_actions(&state, &mut legal);
/// let mut near = Vec::new();
/// let policy = GomokuPolicy::default();
/// assert_eq!(policy.candidates(&game, &state, &mut near), Coverage::Pruned);
/// assert_eq!((legal.len(), near.len()), (224, 24));
/// assert!(near.contains(&Cell::new(9, 9)) && !near.contains(&Cell::new(10, 7)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GomokuPolicy {
    radius: usize,
    rollout_radius: usize,
    rollout: RolloutPolicy,
    threat_pruning: bool,
    quiet_radius: usize,
    prior_temperature: f32,
}

/// Default temperature of [`GomokuPolicy`]'s priors (see [`GomokuPolicy::with_prior_temperature`]).
pub const DEFAULT_PRIOR_TEMPERATURE: f64 = 1.0;

/// Range of [`GomokuPolicy::with_prior_temperature`].
pub const PRIOR_TEMPERATURES: std::ops::RangeInclusive<f64> = 0.05..=100.0;

impl Default for GomokuPolicy {
    /// Candidate radius [`DEFAULT_RADIUS`], no threat pruning, [`RolloutPolicy::Attacks`] rollouts with
    /// rollout radius [`DEFAULT_ROLLOUT_RADIUS`], prior temperature [`DEFAULT_PRIOR_TEMPERATURE`].
    fn default() -> Self {
        GomokuPolicy {
            radius: DEFAULT_RADIUS,
            rollout_radius: DEFAULT_ROLLOUT_RADIUS,
            rollout: RolloutPolicy::default(),
            threat_pruning: false,
            quiet_radius: DEFAULT_RADIUS,
            prior_temperature: DEFAULT_PRIOR_TEMPERATURE as f32,
        }
    }
}

impl GomokuPolicy {
    /// The same policy with candidate moves within Chebyshev distance `radius` of a stone.
    ///
    /// # Panics
    /// Panics when `radius` is 0 (no move would be offered) or above `MAX_SIZE`.
    pub fn with_radius(self, radius: usize) -> Self {
        assert!((1..=MAX_SIZE).contains(&radius), "candidate radius {radius} outside 1..={MAX_SIZE}");
        GomokuPolicy { radius, ..self }
    }

    /// The same policy with rollout moves drawn within Chebyshev distance `radius` of a stone.
    ///
    /// # Panics
    /// Panics when `radius` is 0 or above `MAX_SIZE`.
    pub fn with_rollout_radius(self, radius: usize) -> Self {
        assert!((1..=MAX_SIZE).contains(&radius), "rollout radius {radius} outside 1..={MAX_SIZE}");
        GomokuPolicy { rollout_radius: radius, ..self }
    }

    /// The same policy with another rollout policy.
    pub fn with_rollout_policy(self, rollout: RolloutPolicy) -> Self {
        GomokuPolicy { rollout, ..self }
    }

    /// The same policy with threat pruning on or off: the candidates are then only the moves that answer
    /// a threat when there is one (win now, block a five, make a straight four, answer an open three;
    /// module `tactics`). Off by default.
    pub fn with_threat_pruning(self, on: bool) -> Self {
        GomokuPolicy { threat_pruning: on, ..self }
    }

    /// The same policy where, under threat pruning, a quiet position (no threat to answer) offers only
    /// the candidates within `radius` of a stone plus those farther out that make or stop a four or an
    /// open three. A `radius` at or above [`GomokuPolicy::radius`] changes nothing (the default).
    ///
    /// # Panics
    /// Panics when `radius` is 0 or above `MAX_SIZE`.
    pub fn with_quiet_radius(self, radius: usize) -> Self {
        assert!((1..=MAX_SIZE).contains(&radius), "quiet radius {radius} outside 1..={MAX_SIZE}");
        GomokuPolicy { quiet_radius: radius, ..self }
    }

    /// The same policy with prior temperature `t`: a candidate's prior weight is `(1 + v)^(1 / t)` for
    /// its pattern value `v` (see [`GomokuPolicy`]). Small values concentrate PUCT's playouts on the
    /// best-rated cells; large values approach uniform priors.
    ///
    /// # Panics
    /// Panics when `t` is outside [`PRIOR_TEMPERATURES`].
    pub fn with_prior_temperature(self, t: f64) -> Self {
        assert!(PRIOR_TEMPERATURES.contains(&t), "prior temperature {t} outside {PRIOR_TEMPERATURES:?}");
        GomokuPolicy { prior_temperature: t as f32, ..self }
    }

    /// The prior temperature (see [`GomokuPolicy::with_prior_temperature`]).
    pub fn prior_temperature(&self) -> f64 {
        f64::from(self.prior_temperature)
    }

    /// Chebyshev radius of the candidate moves around the stones.
    pub fn radius(&self) -> usize {
        self.radius
    }

    /// Chebyshev radius of the rollout's random moves around the stones.
    pub fn rollout_radius(&self) -> usize {
        self.rollout_radius
    }

    /// The rollout policy.
    pub fn rollout_policy(&self) -> RolloutPolicy {
        self.rollout
    }

    /// Whether threat pruning is on.
    pub fn threat_pruning(&self) -> bool {
        self.threat_pruning
    }

    /// The quiet radius (see [`GomokuPolicy::with_quiet_radius`]).
    pub fn quiet_radius(&self) -> usize {
        self.quiet_radius
    }

    /// The rollout policy's move for the side to move (see [`GomokuPolicy`]), or `None` in a terminal
    /// position.
    pub fn rollout_move(&self, game: &Gomoku, state: &GomokuState, rng: &mut Rng) -> Option<Cell> {
        if state.is_terminal() {
            return None;
        }
        if self.rollout == RolloutPolicy::Uniform {
            let cell = playout::uniform_cell(state, rng);
            if game.rule().has_fouls() && state.mover() == BLACK && cell.is_some_and(|c| game.foul(state, c).is_some())
            {
                // As the uniform rollout: Black passes over forbidden cells while it has others.
                let mut legal = Vec::new();
                game.legal_actions(state, &mut legal);
                let lines = Lines::new(state);
                let allowed: Vec<Cell> = legal.into_iter().filter(|&c| renju::foul(&lines, c).is_none()).collect();
                return if allowed.is_empty() { cell } else { Some(allowed[below(rng, allowed.len())]) };
            }
            return cell;
        }
        match Playout::new(state, game.rule(), self.rollout_radius, self.rollout).choose(rng) {
            Choice::Win(c)
            | Choice::Block(c)
            | Choice::OpenFour(c)
            | Choice::BlockFour(c)
            | Choice::DoubleThreat(c)
            | Choice::BlockDoubleThreat(c)
            | Choice::Random(c)
            | Choice::Foul(c) => Some(c),
            Choice::Full => None,
        }
    }
}

impl Policy<Gomoku> for GomokuPolicy {
    /// The candidates and their coverage (see [`GomokuPolicy`]): the neighbourhood within
    /// [`GomokuPolicy::radius`] in row-major order, or the centre on an empty board; with threat pruning,
    /// the answers of module `tactics` in its order.
    fn candidates(&self, game: &Gomoku, state: &GomokuState, out: &mut Vec<Cell>) -> Coverage {
        out.clear();
        if state.is_terminal() {
            return Coverage::Complete;
        }
        let size = game.size();
        if state.stone_count() == 0 {
            // Opening knowledge, not a forced answer.
            out.push(Cell::new(size / 2, size / 2));
            return Coverage::Pruned;
        }
        if self.threat_pruning {
            // Under renju, the threat rules leave Black's forbidden cells out themselves.
            let coverage = tactics::threat_candidates(state, game.rule(), self.radius, self.quiet_radius, out);
            return if out.len() == size * size - state.stone_count() { Coverage::Complete } else { coverage };
        }
        near_stones(state, self.radius, out);
        let coverage =
            if out.len() == size * size - state.stone_count() { Coverage::Complete } else { Coverage::Pruned };
        if game.rule().has_fouls() && state.mover() == BLACK {
            let all = out.len();
            renju::retain_allowed(&Lines::new(state), out);
            if out.is_empty() {
                // Every nearby cell is forbidden: offer them all the same (each loses at once).
                near_stones(state, self.radius, out);
            } else if out.len() < all && coverage == Coverage::Complete {
                // The cells left out lose at once: no candidate is worse.
                return Coverage::ProofSafe;
            }
        }
        coverage
    }

    /// The pattern priors of [`GomokuPolicy`]: `(1 + v)^(1 / T)` per candidate, `v` its pattern value
    /// and `T` the prior temperature. Always `true` (uniform weights in a terminal position).
    fn priors(&self, game: &Gomoku, state: &GomokuState, actions: &[Cell], out: &mut Vec<f32>) -> bool {
        if state.is_terminal() {
            out.clear();
            out.resize(actions.len(), 1.0);
            return true;
        }
        pattern::cell_values(state, game.rule(), actions, out);
        // (1 + v)^(1 / T), scaled by the largest so that no weight overflows at a small temperature.
        let top = out.iter().fold(0.0f32, |a, &v| a.max(v)).ln_1p();
        let inverse = 1.0 / self.prior_temperature;
        out.iter_mut().for_each(|v| *v = ((v.ln_1p() - top) * inverse).exp());
        true
    }

    /// The rollout policy of [`GomokuPolicy`], with no allocation (the working state lives on the stack;
    /// `scratch` is unused).
    fn rollout(&self, game: &Gomoku, state: &GomokuState, rng: &mut Rng, _scratch: &mut Vec<Cell>) -> [f64; 2] {
        if state.is_terminal() {
            return game.returns(state);
        }
        let winner = match self.rollout {
            RolloutPolicy::Uniform => playout::uniform_run(state, game.rule(), rng, |_| ()),
            _ => Playout::new(state, game.rule(), self.rollout_radius, self.rollout).run(rng),
        };
        win_draw_loss_returns(winner)
    }
}
