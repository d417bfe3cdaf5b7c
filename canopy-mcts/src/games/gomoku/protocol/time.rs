//! The brain's time manager: how long a move may take under the manager's limits (`INFO timeout_turn`,
//! `timeout_match`, `time_left`), and when a search that has had its normal share may stop.
//!
//! Everything here is a pure function of its arguments (no clock is read), so it is tested without
//! timing. The protocol's rules (<https://plastovicka.github.io/protocl2en.htm>, INFO): the turn limit
//! covers every command of the turn; the match clock runs from the process's start to the end of the game
//! except during the opponent's turns; `time_left` comes before every move, may be negative once the time
//! is spent, and is 2147483647 for an unlimited match; a brain may rely on `time_left` alone.
//!
//! A move gets a [`MoveBudget`] ([`move_budget`]): a *soft* time, after which the search stops as soon
//! as it looks settled, and a *hard* time it never passes. Both are net of a latency margin
//! ([`latency_margin`]) for the process, the pipes and the end of the search.
//!
//! - No match limit: soft = hard = the turn limit, net, and the search uses all of it: time saved on
//!   one move has no later use (a brain does not think on the opponent's time), so [`Settle`] never
//!   stops early.
//! - A match limit: the time left is shared over the brain's expected remaining moves ([`moves_left`]):
//!   soft = that share (twice it for a [`Urgency::Critical`] move), hard = three shares; neither more
//!   than the turn limit. One move never takes more than 3/8 of what is left, so the match clock cannot
//!   run out through the searches.
//!
//! During the search, [`Settle`] decides at each look at the root when to stop before the hard time: at
//! half the soft time when one move dominates, at the soft time when the best move has held for a while
//! and leads the runner-up clearly, else (an unsettled search: the best move changed recently, or the top
//! two are close) it goes on towards the hard time. Forced moves and victories by fours are played
//! without a search and take almost nothing.

/// Time per move when the manager sends no `timeout_turn`, in milliseconds (Piskvork's default is 30 s;
/// tournaments set their own).
pub const DEFAULT_TIMEOUT_TURN_MS: u64 = 5_000;
/// Time per move when `timeout_turn` is 0 ("play as fast as possible"), in milliseconds.
pub const FAST_MOVE_MS: u64 = 50;
/// The `time_left` a manager sends for an unlimited match (`i32::MAX` milliseconds, protocol's INFO).
pub const UNLIMITED_TIME_LEFT: u64 = 2_147_483_647;
/// Fewest and most moves the brain expects to have left in a game ([`moves_left`]).
pub const MOVES_LEFT_RANGE: (u64, u64) = (8, 40);

/// The manager's time limits as INFO set them, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// `timeout_turn`: the limit for one move; 0 = play as fast as possible ([`FAST_MOVE_MS`]).
    pub timeout_turn: u64,
    /// `timeout_match`: the limit for the whole game; 0 = none.
    pub timeout_match: u64,
    /// `time_left`: what is left of the game's time (negative values stored as 0); `None` until sent.
    pub time_left: Option<u64>,
}

impl Default for TimeLimits {
    /// [`DEFAULT_TIMEOUT_TURN_MS`] per move, no match limit.
    fn default() -> Self {
        TimeLimits { timeout_turn: DEFAULT_TIMEOUT_TURN_MS, timeout_match: 0, time_left: None }
    }
}

impl TimeLimits {
    /// Milliseconds left for the game when it is limited: `time_left` when sent (unless it is
    /// [`UNLIMITED_TIME_LEFT`] or more), else `timeout_match` when it is not 0, else `None`.
    pub fn match_left(&self) -> Option<u64> {
        match self.time_left {
            Some(t) if t >= UNLIMITED_TIME_LEFT => None,
            Some(t) => Some(t),
            None => (self.timeout_match > 0).then_some(self.timeout_match),
        }
    }
}

/// How much a move deserves before any search, from what the brain knows of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// A quiet move: the normal share of the time.
    Normal,
    /// The opponent threatens a victory by continuous fours (the search runs over the defences only):
    /// twice the normal share.
    Critical,
}

/// A move's time in milliseconds, counted from the moment its command was read: the search may stop
/// after `soft_ms` once it looks settled ([`Settle`], only when `early_stop`) and never runs past
/// `hard_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// When a settled search stops; `1 <= soft_ms <= hard_ms`.
    pub soft_ms: u64,
    /// When any search stops.
    pub hard_ms: u64,
    /// Whether a settled search may stop before `hard_ms`: only under a match clock, where the time saved
    /// goes to later moves.
    pub early_stop: bool,
}

/// The milliseconds kept back from a time `t` for process and pipe latency and the end of the search:
/// `min(t / 5, 30 + t / 20)` (5 s: 280 ms; 300 ms: 45 ms; 50 ms: 10 ms).
pub fn latency_margin(t: u64) -> u64 {
    (t / 5).min(30 + t / 20)
}

/// `t` less its [`latency_margin`], at least 1.
fn net(t: u64) -> u64 {
    t.saturating_sub(latency_margin(t)).max(1)
}

/// The brain's expected remaining moves with `empty_cells` empty cells: a fifth of them, within
/// [`MOVES_LEFT_RANGE`] (a 15x15 game starts at 40).
pub fn moves_left(empty_cells: usize) -> u64 {
    (empty_cells as u64 / 5).clamp(MOVES_LEFT_RANGE.0, MOVES_LEFT_RANGE.1)
}

/// The budget of a move with `empty_cells` empty cells under `limits` (see the module documentation):
///
/// - `turn` = `timeout_turn`, or [`FAST_MOVE_MS`] when it is 0;
/// - no match limit ([`TimeLimits::match_left`] is `None`): soft = hard = `net(turn)`, no early stop;
/// - else with `share = left / moves_left(empty_cells)`: hard = `net(min(turn, 3 share))`, soft =
///   `min(hard, net(share))`, or `net(2 share)` for a critical move, and a settled search may stop early;
///
/// where `net(t) = max(1, t - latency_margin(t))`.
pub fn move_budget(limits: TimeLimits, empty_cells: usize, urgency: Urgency) -> MoveBudget {
    let turn = if limits.timeout_turn == 0 { FAST_MOVE_MS } else { limits.timeout_turn };
    let Some(left) = limits.match_left() else {
        let t = net(turn);
        return MoveBudget { soft_ms: t, hard_ms: t, early_stop: false };
    };
    let share = left / moves_left(empty_cells);
    let hard = net(turn.min(share.saturating_mul(3)));
    let shares = match urgency {
        Urgency::Normal => 1,
        Urgency::Critical => 2,
    };
    MoveBudget { soft_ms: net(share.saturating_mul(shares)).min(hard), hard_ms: hard, early_stop: true }
}

/// A settled search's best move leads the runner-up by at least this factor (visits): `3 / 2`.
pub const CLEAR_LEAD: (u64, u64) = (3, 2);
/// A dominant best move has at least this many times the runner-up's visits...
pub const DOMINANT_LEAD: u64 = 8;
/// ... and at least this many visits.
pub const DOMINANT_VISITS: u64 = 100;

/// The stop rule of a move's search, fed one look at the root at a time ([`Settle::look`]).
///
/// Stops (returns `true`) at the first look where either
///
/// - elapsed >= soft / 2 and the best move *dominates*: at least [`DOMINANT_VISITS`] visits and
///   [`DOMINANT_LEAD`] times the runner-up's; or
/// - elapsed >= soft and the search is *settled*: the best move is the same as for the last soft / 4
///   milliseconds and leads the runner-up by [`CLEAR_LEAD`] (3 visits to 2) or more.
///
/// Otherwise, and always when the budget has no [`MoveBudget::early_stop`], the search goes on, up to its
/// hard time (which the search enforces itself).
#[derive(Clone, Debug)]
pub struct Settle {
    budget: MoveBudget,
    best: Option<String>,
    best_since_ms: u64,
}

impl Settle {
    /// A rule for a move with this budget, before any look.
    pub fn new(budget: MoveBudget) -> Self {
        Settle { budget, best: None, best_since_ms: 0 }
    }

    /// One look at the root `elapsed_ms` milliseconds into the move: the most visited move's name and
    /// visits, and the runner-up's visits (0 when there is none). Returns whether to stop now.
    pub fn look(&mut self, elapsed_ms: u64, best: Option<&str>, best_visits: u64, second_visits: u64) -> bool {
        if self.best.as_deref() != best {
            self.best = best.map(str::to_owned);
            self.best_since_ms = elapsed_ms;
        }
        let soft = self.budget.soft_ms;
        if best.is_none() || !self.budget.early_stop {
            return false;
        }
        let dominant = best_visits >= DOMINANT_VISITS && best_visits >= DOMINANT_LEAD.saturating_mul(second_visits);
        if elapsed_ms >= soft / 2 && dominant {
            return true;
        }
        let held = elapsed_ms - self.best_since_ms.min(elapsed_ms) >= soft / 4;
        let clear = best_visits.saturating_mul(CLEAR_LEAD.1) >= second_visits.saturating_mul(CLEAR_LEAD.0);
        elapsed_ms >= soft && held && clear
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(timeout_turn: u64, timeout_match: u64, time_left: Option<u64>) -> TimeLimits {
        TimeLimits { timeout_turn, timeout_match, time_left }
    }

    /// A budget under a match clock (a settled search may stop early).
    fn budget(soft_ms: u64, hard_ms: u64) -> MoveBudget {
        MoveBudget { soft_ms, hard_ms, early_stop: true }
    }

    /// A budget without a match clock (the search uses all of it).
    fn whole(ms: u64) -> MoveBudget {
        MoveBudget { soft_ms: ms, hard_ms: ms, early_stop: false }
    }

    #[test]
    fn turn_limit_only() {
        // 5 s: margin min(1000, 280).
        assert_eq!(move_budget(TimeLimits::default(), 200, Urgency::Normal), whole(4_720));
        assert_eq!(move_budget(limits(300, 0, None), 200, Urgency::Critical), whole(255));
        assert_eq!(move_budget(limits(100, 0, None), 10, Urgency::Normal), whole(80));
        // 0 = play fast.
        assert_eq!(move_budget(limits(0, 0, None), 200, Urgency::Normal), whole(40));
        // time_left of an unlimited match is no limit, whatever timeout_match says.
        assert_eq!(move_budget(limits(2_000, 0, Some(UNLIMITED_TIME_LEFT)), 50, Urgency::Normal), whole(1_870));
    }

    #[test]
    fn match_limit_shares_the_time_left() {
        // Gomocup's 30 s / 180 s on an empty 15x15 board: 40 moves left, a share of 4.5 s.
        let b = move_budget(limits(30_000, 180_000, Some(180_000)), 225, Urgency::Normal);
        assert_eq!(b, budget(4_500 - 255, 13_500 - 705));
        let c = move_budget(limits(30_000, 180_000, Some(180_000)), 225, Urgency::Critical);
        assert_eq!(c, budget(9_000 - 480, 13_500 - 705));
        // Before time_left arrives, timeout_match is the time left.
        assert_eq!(move_budget(limits(30_000, 180_000, None), 225, Urgency::Normal), b);
        // A manager that sends time_left without timeout_match is still obeyed.
        assert_eq!(move_budget(limits(30_000, 0, Some(180_000)), 225, Urgency::Normal), b);
        // Late in the game: 20 empty cells -> 8 moves left; 8 s left -> share 1 s.
        assert_eq!(move_budget(limits(30_000, 180_000, Some(8_000)), 20, Urgency::Normal), budget(920, 2_820));
        // The turn limit caps both.
        assert_eq!(move_budget(limits(300, 1_000_000, Some(1_000_000)), 225, Urgency::Critical), budget(255, 255));
        // No time left (or less than nothing, stored as 0): 1 ms.
        assert_eq!(move_budget(limits(30_000, 180_000, Some(0)), 100, Urgency::Critical), budget(1, 1));
    }

    #[test]
    fn budgets_never_exceed_the_limits() {
        for turn in [0, 1, 7, 50, 100, 300, 1_000, 5_000, 30_000, 300_000] {
            for left in [None, Some(0), Some(1), Some(40), Some(999), Some(20_000), Some(180_000), Some(1 << 40)] {
                for empty in [0, 1, 39, 40, 100, 225, 400] {
                    for urgency in [Urgency::Normal, Urgency::Critical] {
                        let l = limits(turn, 180_000, left);
                        let b = move_budget(l, empty, urgency);
                        let t = if turn == 0 { FAST_MOVE_MS } else { turn };
                        assert!(1 <= b.soft_ms && b.soft_ms <= b.hard_ms, "{l:?} {empty} {b:?}");
                        assert!(b.hard_ms <= t.max(1), "{l:?} {b:?}");
                        assert!(b.hard_ms == 1 || b.hard_ms < t, "a margin is kept: {l:?} {b:?}");
                        if let Some(left) = l.match_left() {
                            assert!(b.hard_ms <= (left * 3 / 8).max(1), "{l:?} {empty} {b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_long_game_at_the_hard_budget_keeps_match_time() {
        // 30 moves (60 stones on 15x15), each spending its whole hard budget as a critical move plus 10 ms
        // of overhead: the 180 s match clock is not used up.
        let mut left = 180_000u64;
        for empty in (166..=225).rev().step_by(2) {
            let b = move_budget(limits(30_000, 180_000, Some(left)), empty, Urgency::Critical);
            assert!(b.hard_ms + 10 < left, "{empty} empty: {b:?} of {left} ms");
            left -= b.hard_ms + 10;
        }
        assert!(left > 10_000, "{left} ms left");
    }

    #[test]
    fn settle_stops_at_the_soft_time_when_settled() {
        let mut s = Settle::new(budget(1_000, 3_000));
        assert!(!s.look(100, Some("7,7"), 500, 100), "before the soft time");
        assert!(!s.look(900, Some("7,7"), 5_000, 1_000));
        assert!(s.look(1_000, Some("7,7"), 6_000, 1_000), "settled at the soft time");
    }

    #[test]
    fn settle_goes_on_while_unsettled() {
        // The top two are close: on past the soft time.
        let mut s = Settle::new(budget(1_000, 3_000));
        assert!(!s.look(1_000, Some("7,7"), 1_000, 900));
        assert!(!s.look(1_500, Some("7,7"), 1_400, 1_000));
        assert!(s.look(1_600, Some("7,7"), 1_600, 1_000), "a clear lead now");
        // The best move changed recently: on until it has held for a quarter of the soft time.
        let mut s = Settle::new(budget(1_000, 3_000));
        assert!(!s.look(500, Some("7,7"), 3_000, 1_000));
        assert!(!s.look(950, Some("8,8"), 3_100, 3_000));
        assert!(!s.look(1_100, Some("8,8"), 5_000, 3_000), "changed 150 ms ago");
        assert!(s.look(1_200, Some("8,8"), 6_000, 3_000), "held for 250 ms");
        // No move at all yet: never stops early.
        let mut s = Settle::new(budget(10, 30));
        assert!(!s.look(20, None, 0, 0));
    }

    #[test]
    fn settle_stops_early_when_one_move_dominates() {
        let mut s = Settle::new(budget(1_000, 3_000));
        assert!(!s.look(400, Some("7,7"), 900, 100), "before half the soft time");
        assert!(s.look(500, Some("7,7"), 1_000, 100));
        // Too few visits to call it.
        let mut s = Settle::new(budget(1_000, 3_000));
        assert!(!s.look(500, Some("7,7"), 99, 0));
        // A single candidate dominates.
        assert!(s.look(600, Some("7,7"), 200, 0));
    }

    #[test]
    fn without_a_match_clock_the_search_uses_the_whole_turn() {
        let b = move_budget(limits(1_000, 0, Some(UNLIMITED_TIME_LEFT)), 200, Urgency::Normal);
        assert_eq!(b, whole(920));
        let mut s = Settle::new(b);
        assert!(!s.look(500, Some("7,7"), 100_000, 10), "dominant, but no clock to save time for");
        assert!(!s.look(919, Some("7,7"), 200_000, 10), "settled, but no clock to save time for");
    }
}
