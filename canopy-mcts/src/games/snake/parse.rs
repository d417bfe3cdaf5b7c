//! The position text format and its errors, and the board diagram (`Display`) and `Debug` form of a state.
//!
//! ```text
//! <W>x<H> body=<x,y> <x,y> ... [food=<x,y>|food=none] [hunger=<n>] [steps=<n>]
//! 10x10 body=1,1 1,2 2,2 food=7,7
//! ```
//!
//! Tokens are separated by whitespace. The first token is the board size (each side `2..=32`). `body=`
//! starts the list of body cells, head first and tail last; the list runs until the next `name=` token.
//! A cell is `x,y` (column, row, 0-based; row 0 is the top). Without `food=` (or with `food=none`) the food
//! is still to be spawned (a chance turn). `hunger=` is the number of moves since the last food (default
//! 0) and `steps=` the moves played so far (default 0). Fields may come in any order after the size; each
//! at most once. A body that fills the board is a finished game (won).

use std::fmt;
use std::str::FromStr;

use super::state::{Cell, SnakeState, MAX_SIDE, MIN_SIDE, NO_FOOD, STRIDE};

/// Why a position text (or a body handed to [`SnakeState::from_body`], or a position that
/// [`super::Snake::check_position`] finds its game cannot reach) was refused. Each message is one line and
/// quotes the offending input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text is empty.
    #[error("empty position: expected e.g. \"10x10 body=1,1 1,2 food=7,7\"")]
    Empty,
    /// The size token is not `WxH` with each side in `2..=32`.
    #[error("bad board size '{0}': expected WxH with each side in {MIN_SIDE}..={MAX_SIDE}")]
    BadSize(String),
    /// A token is not `name=value` where a field was expected.
    #[error("unexpected '{0}': expected a field such as body=, food=, hunger= or steps=")]
    Unexpected(String),
    /// A field name other than `body`, `food`, `hunger`, `steps`.
    #[error("unknown field '{0}=': expected body=, food=, hunger= or steps=")]
    UnknownField(String),
    /// A field given twice.
    #[error("field '{0}=' given twice")]
    DuplicateField(String),
    /// A cell that is not `x,y` with two non-negative integers.
    #[error("bad cell '{0}': expected x,y (column,row, 0-based)")]
    BadCell(String),
    /// A cell outside the board.
    #[error("cell {cell} is off the {width}x{height} board (x must be < {width}, y < {height})")]
    OffBoard {
        /// The cell as given.
        cell: Cell,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// No `body=` field.
    #[error("no body: add body=x,y ... (head first, tail last)")]
    MissingBody,
    /// `body=` with no cell.
    #[error("empty body: body= needs at least the head cell")]
    EmptyBody,
    /// Two consecutive body cells that are not side by side.
    #[error("body not contiguous: cell {index} ({from}) and cell {} ({to}) are not adjacent", index + 1)]
    NotContiguous {
        /// 0-based position in the body list of the first of the two cells (0 = head).
        index: usize,
        /// That cell.
        from: Cell,
        /// The next cell in the list.
        to: Cell,
    },
    /// A cell listed twice in the body.
    #[error("body cell {0} is listed twice")]
    RepeatedCell(Cell),
    /// Food on a body cell.
    #[error("food {0} is on the snake's body")]
    FoodOnBody(Cell),
    /// A counter that is not a non-negative integer.
    #[error("bad number '{value}' for {field}=")]
    BadNumber {
        /// The field name.
        field: &'static str,
        /// The text given.
        value: String,
    },
    /// A hunger counter at or past the game's starvation limit: the snake would have starved already.
    #[error("hunger={hunger} is not below the starvation limit of {limit} moves: the snake would have starved")]
    Starved {
        /// The hunger counter.
        hunger: u32,
        /// The game's starvation limit, in moves.
        limit: u32,
    },
    /// A step counter past [`super::MAX_STEPS`], too close to the counter's end for a game to go on.
    #[error("steps={steps} is past {max}, the most moves a position may have played")]
    TooManySteps {
        /// The step counter.
        steps: u32,
        /// [`super::MAX_STEPS`].
        max: u32,
    },
    /// A move name other than up, down, left, right.
    #[error("bad move '{0}': expected up, down, left or right")]
    BadDir(String),
}

/// Reads `x,y`.
fn parse_cell(token: &str) -> Result<Cell, ParseError> {
    let bad = || ParseError::BadCell(token.to_string());
    let (x, y) = token.split_once(',').ok_or_else(bad)?;
    let x: u8 = x.trim().parse().map_err(|_| bad())?;
    let y: u8 = y.trim().parse().map_err(|_| bad())?;
    Ok(Cell::new(x, y))
}

/// Reads `WxH` with each side in `2..=32`.
fn parse_size(token: &str) -> Result<(usize, usize), ParseError> {
    let bad = || ParseError::BadSize(token.to_string());
    let (w, h) = token.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: usize = w.parse().map_err(|_| bad())?;
    let h: usize = h.parse().map_err(|_| bad())?;
    let ok = |s: usize| (MIN_SIDE..=MAX_SIDE).contains(&s);
    if ok(w) && ok(h) {
        Ok((w, h))
    } else {
        Err(bad())
    }
}

fn parse_counter(field: &'static str, value: &str) -> Result<u32, ParseError> {
    value.parse().map_err(|_| ParseError::BadNumber { field, value: value.to_string() })
}

/// Reads the position text format described in the [module docs](self).
impl FromStr for SnakeState {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<SnakeState, ParseError> {
        let mut tokens = text.split_whitespace().peekable();
        let (width, height) = parse_size(tokens.next().ok_or(ParseError::Empty)?)?;
        let mut body: Option<Vec<Cell>> = None;
        let mut food: Option<Option<Cell>> = None;
        let (mut hunger, mut steps) = (None, None);
        while let Some(token) = tokens.next() {
            let (name, value) = token.split_once('=').ok_or_else(|| ParseError::Unexpected(token.to_string()))?;
            let duplicate = || ParseError::DuplicateField(name.to_string());
            match name {
                "body" => {
                    if body.is_some() {
                        return Err(duplicate());
                    }
                    let mut cells = Vec::new();
                    if !value.is_empty() {
                        cells.push(parse_cell(value)?);
                    }
                    while let Some(t) = tokens.next_if(|t| !t.contains('=')) {
                        cells.push(parse_cell(t)?);
                    }
                    body = Some(cells);
                }
                "food" => {
                    if food.is_some() {
                        return Err(duplicate());
                    }
                    food = Some(if value == "none" { None } else { Some(parse_cell(value)?) });
                }
                "hunger" => {
                    if hunger.replace(parse_counter("hunger", value)?).is_some() {
                        return Err(duplicate());
                    }
                }
                "steps" => {
                    if steps.replace(parse_counter("steps", value)?).is_some() {
                        return Err(duplicate());
                    }
                }
                _ => return Err(ParseError::UnknownField(name.to_string())),
            }
        }
        let body = body.ok_or(ParseError::MissingBody)?;
        let mut s = SnakeState::from_body(width, height, &body, food.flatten())?;
        s.set_hunger(hunger.unwrap_or(0));
        s.set_steps(steps.unwrap_or(0));
        Ok(s)
    }
}

/// Writes a state in the text format; `SnakeState::from_str` reads it back to an equal state (for
/// positions not ended by a death, which the format cannot express).
pub struct Notation<'a>(pub(crate) &'a SnakeState);

impl fmt::Display for Notation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        write!(f, "{}x{} body=", s.width(), s.height())?;
        for (i, c) in s.body().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        if let Some(food) = s.food() {
            write!(f, " food={food}")?;
        }
        if s.hunger() > 0 {
            write!(f, " hunger={}", s.hunger())?;
        }
        if s.steps() > 0 {
            write!(f, " steps={}", s.steps())?;
        }
        Ok(())
    }
}

impl SnakeState {
    /// The state in the position text format (see [`crate::games::snake::parse`]), e.g.
    /// `10x10 body=1,1 1,2 food=7,7 hunger=3`. Counters at 0 and pending food are left out.
    pub fn notation(&self) -> Notation<'_> {
        Notation(self)
    }
}

impl fmt::Debug for SnakeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SnakeState({}", self.notation())?;
        if let Some(e) = self.end() {
            write!(f, " end={e}")?;
        }
        f.write_str(")")
    }
}

/// Draws the board: a summary line, then one line per row with `@` for the head, `o` for the rest of the
/// body, `*` for the food and `.` for a free cell.
///
/// ```text
/// 4x3 length 3 hunger 0 steps 0 playing
/// .@o.
/// ..o*
/// ....
/// ```
impl fmt::Display for SnakeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = match self.end() {
            Some(e) => format!("over: {e}"),
            None if self.food_index() == NO_FOOD => "food pending".to_string(),
            None => "playing".to_string(),
        };
        writeln!(
            f,
            "{}x{} length {} hunger {} steps {} {status}",
            self.width(),
            self.height(),
            self.len(),
            self.hunger(),
            self.steps()
        )?;
        for y in 0..self.height() {
            let line: String = (0..self.width())
                .map(|x| {
                    let c = (y * STRIDE + x) as u16;
                    if c == self.head_index() {
                        '@'
                    } else if self.occupied(c) {
                        'o'
                    } else if c == self.food_index() {
                        '*'
                    } else {
                        '.'
                    }
                })
                .collect();
            if y + 1 < self.height() {
                writeln!(f, "{line}")?;
            } else {
                write!(f, "{line}")?;
            }
        }
        Ok(())
    }
}
