//! The 2048 evaluation function: a weighted sum of line features over the four rows and four columns,
//! looked up in a 65 536-entry table per row.
//!
//! Every line (a row read left to right, or a column read top to bottom; four exponents, 0 = empty) gets
//!
//! ```text
//! value(line) = lost_penalty
//!             + empty        · (empty cells of the line)
//!             + merges       · (tiles that could merge with an equal neighbour, gaps ignored)
//!             − monotonicity · min(Σ up-steps, Σ down-steps) of rank^monotonicity_power
//!             − sum          · Σ rank^sum_power
//!             − smoothness   · Σ |rank_i − rank_j| over neighbouring tiles (gaps ignored)
//!             + corner       · rank^monotonicity_power of the line's largest tile when it sits at an end
//! ```
//!
//! where `rank` is a tile's exponent (2 → 1, 2048 → 11), and the board's evaluation is the sum over its
//! eight lines. Each empty cell counts twice (its row and its column), and a large tile in a corner
//! collects the corner term twice (it ends its row and its column) where a tile on an edge collects it
//! once. The evaluation of any board is positive (the lost penalty, 8 × 200 000, outweighs the
//! penalties of every board a game reaches); a finished game is worth 0 to the search, so the penalty
//! is what losing costs.
//!
//! Source of the first five features and of their weights: nneonneo/2048-ai (`2048.cpp`,
//! `init_tables`, weights tuned by its authors with CMA-ES); the standard feature list (monotonicity,
//! smoothness, empty cells, corner) also in ovolve/2048-AI. The smoothness and corner weights are
//! canopy's (see [`STANDARD`] and docs/2048.md).
//!
//! ```
//! use canopy_mcts::games::g2048::{eval::Heuristic, Board};
//!
//! let h = Heuristic::standard();
//! let good: Board = "0,0,0,0, 0,0,0,0, 2,0,0,0, 16,8,4,2".parse().unwrap();
//! let bad: Board = "0,0,0,0, 0,16,0,0, 2,0,4,0, 0,8,0,2".parse().unwrap();
//! assert!(h.evaluate(&good) > h.evaluate(&bad));
//! ```

use std::fmt;
use std::sync::OnceLock;

use super::ntuple::NTuple;
use super::tables::{transpose, unpack_row};
use super::Board;

/// Weights of the evaluation (see the module documentation for the formula).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Weights {
    /// Added per line: the value of being alive (8 lines: 1.6 million points for the board).
    pub lost_penalty: f32,
    /// Per empty cell of a line.
    pub empty: f32,
    /// Per tile of a line that could merge with its equal neighbour (a run of `k` equal tiles counts
    /// `k`).
    pub merges: f32,
    /// Per unit of non-monotonicity.
    pub monotonicity: f32,
    /// Power of the ranks in the monotonicity and corner terms.
    pub monotonicity_power: f32,
    /// Per unit of `Σ rank^sum_power`: a penalty on holding many large tiles (rewards merging them).
    pub sum: f32,
    /// Power of the ranks in the sum term.
    pub sum_power: f32,
    /// Per unit of rank difference between neighbouring tiles.
    pub smoothness: f32,
    /// Per unit of `rank^monotonicity_power` of a line's largest tile sitting at an end of the line.
    pub corner: f32,
}

/// The weights canopy uses: nneonneo's five (lost penalty 200 000, empty 270, merges 700,
/// monotonicity 47 with power 4, sum 11 with power 3.5), smoothness 1000 and corner 0.
///
/// From the trials in docs/2048.md (`examples/g2048_weights.rs`): a smoothness weight of 1000 scored
/// better than 0 for greedy play (200 games), depth-2 and depth-3 expectimax (200 and 60 games) and the
/// same at depth 4 (30 games); every positive corner weight scored worse (the monotonicity term, with
/// power 4, already pushes the large tiles into a corner), so the corner term is computed and shown by
/// `canopy analyze` but weighs nothing.
pub const STANDARD: Weights = Weights {
    lost_penalty: 200_000.0,
    empty: 270.0,
    merges: 700.0,
    monotonicity: 47.0,
    monotonicity_power: 4.0,
    sum: 11.0,
    sum_power: 3.5,
    smoothness: 1000.0,
    corner: 0.0,
};

/// Raw feature values, of one line or summed over a board's eight lines (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Features {
    /// Empty cells (a board counts each twice: row and column).
    pub empty: f32,
    /// Tiles that could merge with an equal neighbour.
    pub merges: f32,
    /// Non-monotonicity, `min(Σ up-steps, Σ down-steps)` of `rank^p` (lower is better).
    pub monotonicity: f32,
    /// `Σ rank^sum_power` (lower is better).
    pub sum: f32,
    /// `Σ |rank_i − rank_j|` over neighbouring tiles (lower is better).
    pub smoothness: f32,
    /// `rank^p` of each line's largest tile that sits at an end of its line.
    pub corner: f32,
}

impl Features {
    /// The features of one line of four exponents.
    pub fn of_line(line: [u8; 4], w: &Weights) -> Features {
        let rank = |e: u8| f32::from(e);
        let mut f = Features::default();
        // Empty cells, merges (nneonneo's count: a run of k equal tiles, gaps skipped, counts k) and
        // the sum term.
        let mut prev = 0u8;
        let mut counter = 0u32;
        let mut merges = 0u32;
        for &e in &line {
            f.sum += rank(e).powf(w.sum_power);
            if e == 0 {
                f.empty += 1.0;
                continue;
            }
            if prev == e {
                counter += 1;
            } else if counter > 0 {
                merges += 1 + counter;
                counter = 0;
            }
            prev = e;
        }
        if counter > 0 {
            merges += 1 + counter;
        }
        f.merges = merges as f32;
        // Monotonicity: the smaller of the two directions' total steps against it.
        let (mut left, mut right) = (0.0f32, 0.0f32);
        for i in 1..4 {
            let a = rank(line[i - 1]).powf(w.monotonicity_power);
            let b = rank(line[i]).powf(w.monotonicity_power);
            if line[i - 1] > line[i] {
                left += a - b;
            } else {
                right += b - a;
            }
        }
        f.monotonicity = left.min(right);
        // Smoothness over neighbouring tiles, gaps skipped.
        let mut last: Option<u8> = None;
        for &e in line.iter().filter(|&&e| e != 0) {
            if let Some(l) = last {
                f.smoothness += (rank(l) - rank(e)).abs();
            }
            last = Some(e);
        }
        // Corner: the line's largest tile at an end.
        let max = line.iter().copied().max().unwrap_or(0);
        if max > 0 && (line[0] == max || line[3] == max) {
            f.corner = rank(max).powf(w.monotonicity_power);
        }
        f
    }

    /// The weighted value `value(line)` of these features (with `lines` lost penalties).
    pub fn value(&self, w: &Weights, lines: u32) -> f32 {
        let c = self.contributions(w);
        w.lost_penalty * lines as f32 + c.empty + c.merges + c.monotonicity + c.sum + c.smoothness + c.corner
    }

    /// Each feature times its signed weight: its share of the evaluation, in points.
    pub fn contributions(&self, w: &Weights) -> Features {
        Features {
            empty: w.empty * self.empty,
            merges: w.merges * self.merges,
            monotonicity: -w.monotonicity * self.monotonicity,
            sum: -w.sum * self.sum,
            smoothness: -w.smoothness * self.smoothness,
            corner: w.corner * self.corner,
        }
    }

    /// Adds `other` field by field.
    fn add(&mut self, other: &Features) {
        self.empty += other.empty;
        self.merges += other.merges;
        self.monotonicity += other.monotonicity;
        self.sum += other.sum;
        self.smoothness += other.smoothness;
        self.corner += other.corner;
    }

    /// `self − other`, field by field.
    pub fn minus(&self, other: &Features) -> Features {
        Features {
            empty: self.empty - other.empty,
            merges: self.merges - other.merges,
            monotonicity: self.monotonicity - other.monotonicity,
            sum: self.sum - other.sum,
            smoothness: self.smoothness - other.smoothness,
            corner: self.corner - other.corner,
        }
    }

    /// The feature names and values, in a fixed order (for tables).
    pub fn named(&self) -> [(&'static str, f32); 6] {
        [
            ("empty", self.empty),
            ("merges", self.merges),
            ("monotonicity", self.monotonicity),
            ("sum", self.sum),
            ("smoothness", self.smoothness),
            ("corner", self.corner),
        ]
    }
}

/// The evaluation function: its weights and the per-row table built from them.
pub struct Heuristic {
    weights: Weights,
    /// `table[row]`: `value(line)` of the row packed as four nibbles (nibble 0 first).
    table: Box<[f32]>,
}

impl fmt::Debug for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Heuristic").field("weights", &self.weights).finish_non_exhaustive()
    }
}

impl Heuristic {
    /// The evaluation with `weights` (builds a 256 KiB table, a few milliseconds).
    pub fn new(weights: Weights) -> Heuristic {
        let table = (0..=u16::MAX).map(|row| Self::line_value(&weights, unpack_row(row))).collect();
        Heuristic { weights, table }
    }

    /// The evaluation with the [`STANDARD`] weights, built on first use.
    pub fn standard() -> &'static Heuristic {
        static H: OnceLock<Heuristic> = OnceLock::new();
        H.get_or_init(|| Heuristic::new(STANDARD))
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    fn line_value(w: &Weights, line: [u8; 4]) -> f32 {
        Features::of_line(line, w).value(w, 1)
    }

    /// The evaluation of `board` in points: the sum of the eight line values. Eight table lookups on
    /// boards whose tiles are at most 32768; boards with larger tiles are computed line by line.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> f32 {
        match board.nibbles() {
            Some(lo) => {
                let t = &self.table;
                let tr = transpose(lo);
                let mut v = 0.0;
                for r in 0..4 {
                    v += t[((lo >> (16 * r)) & 0xFFFF) as usize];
                    v += t[((tr >> (16 * r)) & 0xFFFF) as usize];
                }
                v
            }
            None => self.evaluate_by_lines(board),
        }
    }

    #[cold]
    fn evaluate_by_lines(&self, board: &Board) -> f32 {
        let mut v = 0.0;
        for line in lines(board) {
            v += Self::line_value(&self.weights, line);
        }
        v
    }

    /// The raw features of `board`, summed over its eight lines (slow: for explanations and tests).
    pub fn features(&self, board: &Board) -> Features {
        let mut f = Features::default();
        for line in lines(board) {
            f.add(&Features::of_line(line, &self.weights));
        }
        f
    }
}

/// A board evaluation the search and the agents can use: `evaluate` scores an afterstate (the board
/// after a move, before the spawn); larger is better, and a finished game counts 0.
pub trait Evaluate {
    /// The value of the afterstate `board`.
    fn evaluate(&self, board: &Board) -> f32;
}

impl Evaluate for Heuristic {
    #[inline(always)]
    fn evaluate(&self, board: &Board) -> f32 {
        Heuristic::evaluate(self, board)
    }
}

impl Evaluate for NTuple {
    #[inline(always)]
    fn evaluate(&self, board: &Board) -> f32 {
        NTuple::evaluate(self, board)
    }
}

/// Which evaluation the agents use: the hand-written [`Heuristic`] (the default, in heuristic points)
/// or a trained [`NTuple`] network (in score units: the merge score expected from the afterstate).
///
/// Both live for the whole program (`&'static`), so that a search policy holding one stays `Copy`; a
/// network read from a file is leaked once with `Box::leak` by whoever loads it.
#[derive(Clone, Copy, Debug)]
pub enum Evaluation {
    /// The hand-written evaluation of this module.
    Heuristic(&'static Heuristic),
    /// A trained n-tuple network ([`super::ntuple`]).
    NTuple(&'static NTuple),
}

impl Evaluation {
    /// The standard hand-written evaluation ([`Heuristic::standard`]).
    pub fn standard() -> Evaluation {
        Evaluation::Heuristic(Heuristic::standard())
    }

    /// The value of the afterstate `board` in this evaluation's units.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> f32 {
        match self {
            Evaluation::Heuristic(h) => h.evaluate(board),
            Evaluation::NTuple(n) => n.evaluate(board),
        }
    }

    /// The hand-written evaluation, when this is one (its features explain decisions).
    pub fn heuristic(&self) -> Option<&'static Heuristic> {
        match self {
            Evaluation::Heuristic(h) => Some(h),
            Evaluation::NTuple(_) => None,
        }
    }

    /// `heuristic` or `ntuple`.
    pub fn name(&self) -> &'static str {
        match self {
            Evaluation::Heuristic(_) => "heuristic",
            Evaluation::NTuple(_) => "ntuple",
        }
    }
}

impl Default for Evaluation {
    /// [`Evaluation::standard`].
    fn default() -> Self {
        Evaluation::standard()
    }
}

impl From<&'static Heuristic> for Evaluation {
    fn from(h: &'static Heuristic) -> Self {
        Evaluation::Heuristic(h)
    }
}

impl From<&'static NTuple> for Evaluation {
    fn from(n: &'static NTuple) -> Self {
        Evaluation::NTuple(n)
    }
}

impl Evaluate for Evaluation {
    #[inline(always)]
    fn evaluate(&self, board: &Board) -> f32 {
        Evaluation::evaluate(self, board)
    }
}

/// The four rows (left to right) then the four columns (top to bottom) of `board`.
fn lines(board: &Board) -> [[u8; 4]; 8] {
    let e = board.exponents();
    std::array::from_fn(|i| {
        if i < 4 {
            [e[4 * i], e[4 * i + 1], e[4 * i + 2], e[4 * i + 3]]
        } else {
            let c = i - 4;
            [e[c], e[c + 4], e[c + 8], e[c + 12]]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_line_by_line_agree() {
        let h = Heuristic::standard();
        // The empty board is no position, so it is not read from text.
        let boards =
            ["2,4,8,16, 32,64,128,256, 512,1024,2048,4096, 8192,16384,32768,2", "2,2,2,2, 4,0,4,0, 0,0,0,8, 16,0,0,0"]
                .map(|text| text.parse::<Board>().unwrap());
        for b in [Board::EMPTY].iter().chain(&boards) {
            let fast = h.evaluate(b);
            let slow = h.evaluate_by_lines(b);
            assert!((fast - slow).abs() <= 1e-3 * slow.abs().max(1.0), "{b:#}: {fast} vs {slow}");
        }
    }
}
