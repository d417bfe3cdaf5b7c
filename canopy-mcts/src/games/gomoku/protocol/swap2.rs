//! The SWAP2 opening (Gomocup's `SWAP2BOARD` command, from its 2020 experimental tournament rules): the
//! first player places three stones (Black, White, Black); the second chooses Black (`SWAP`), White (it
//! plays the fourth stone), or places two more stones and lets the first player choose; after five
//! stones the first player chooses Black (`SWAP`) or White (it plays the sixth stone).
//!
//! | stones sent | the brain answers |
//! |---|---|
//! | none | three stones `x,y x,y x,y` near the centre: of a few standard shapes, the one whose searched value for White (to move) is nearest one half |
//! | 3 or 5 | its move for White (to move) when the search gives White at least one half, else `SWAP` (it takes Black) |
//!
//! The brain never takes the third option (placing the fourth and fifth stones). After the opening the
//! manager sends the position with `BOARD`, and the game goes on as usual.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

use super::input::Signal;
use super::{Brain, Flow};
use crate::games::gomoku::board::{Cell, GomokuState, MAX_SIZE};
use crate::games::gomoku::Gomoku;

/// The three-stone shapes the brain chooses among, as offsets from the centre (Black, White, Black):
/// compact openings of the kind human SWAP2 players place, differing in how far White's stone is from
/// Black's pair.
const OPENINGS: [[(i32, i32); 3]; 4] =
    [[(0, 0), (1, 0), (2, 2)], [(0, 0), (1, 1), (2, 0)], [(0, 0), (0, 1), (2, 1)], [(0, 0), (2, 0), (1, 2)]];

impl<W: Write> Brain<'_, W> {
    /// Answers a SWAP2BOARD block holding `stones` (see the module documentation).
    pub(super) fn swap2_answer(
        &mut self,
        stones: &[Cell],
        received: Instant,
        signal: &Arc<Signal>,
    ) -> io::Result<Flow> {
        let size = self.size.unwrap_or(MAX_SIZE);
        let game = Gomoku::new(size, self.rule);
        match stones.len() {
            0 => self.swap2_opening(&game, size, received, signal),
            3 | 5 => {
                let black: Vec<Cell> = stones.iter().step_by(2).copied().collect();
                let white: Vec<Cell> = stones.iter().skip(1).step_by(2).copied().collect();
                let state = match game.from_stones(&black, &white) {
                    Ok(s) if !s.is_terminal() => s,
                    Ok(_) => return self.error("SWAP2BOARD: the opening stones already hold a five"),
                    Err(e) => return self.error(&format!("SWAP2BOARD: {e}")),
                };
                let Some((cell, white_value)) = self.swap2_value(&game, &state, received, signal)? else {
                    return Ok(Flow::Continue);
                };
                if white_value >= 0.5 {
                    self.say(&cell.to_string())?;
                } else {
                    self.say("SWAP")?;
                }
                Ok(Flow::Continue)
            }
            n => self.error(&format!("SWAP2BOARD takes 0, 3 or 5 stones, got {n}")),
        }
    }

    /// The three opening stones: of [`OPENINGS`], the one whose value for White is nearest one half,
    /// each searched with a quarter of a move's time.
    fn swap2_opening(
        &mut self,
        game: &Gomoku,
        size: usize,
        received: Instant,
        signal: &Arc<Signal>,
    ) -> io::Result<Flow> {
        let centre = (size / 2) as i32;
        let mut best: Option<(f64, [Cell; 3])> = None;
        self.time_share = OPENINGS.len() as u64;
        for shape in OPENINGS {
            let cells = shape.map(|(dx, dy)| Cell::new((centre + dx) as usize, (centre + dy) as usize));
            let state = game.from_stones(&[cells[0], cells[2]], &[cells[1]]).expect("the openings fit a 5x5 board");
            let value = match self.swap2_value(game, &state, received, signal) {
                Ok(Some((_, v))) => v,
                Ok(None) => {
                    self.time_share = 1;
                    return Ok(Flow::Continue);
                }
                Err(e) => {
                    self.time_share = 1;
                    return Err(e);
                }
            };
            if best.is_none_or(|(b, _)| (value - 0.5).abs() < (b - 0.5).abs()) {
                best = Some((value, cells));
            }
        }
        self.time_share = 1;
        let (_, cells) = best.expect("at least one opening");
        self.say(&format!("{} {} {}", cells[0], cells[1], cells[2]))?;
        Ok(Flow::Continue)
    }

    /// White's best move in `state` (White to move) and its value for White: the searched root value, or
    /// 1 when the move needed no search (a win by fours). `None` when the search was cancelled.
    fn swap2_value(
        &mut self,
        game: &Gomoku,
        state: &GomokuState,
        received: Instant,
        signal: &Arc<Signal>,
    ) -> io::Result<Option<(Cell, f64)>> {
        self.last_value = None;
        let empty = game.size() * game.size() - state.stone_count();
        let Some(cell) = self.think(game, state, empty, received, signal)? else { return Ok(None) };
        Ok(Some((cell, self.last_value.unwrap_or(1.0))))
    }
}
