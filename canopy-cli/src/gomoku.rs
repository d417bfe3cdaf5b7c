//! `canopy analyze gomoku` and `canopy gomocup`.

use std::time::{Duration, Instant};

use serde_json::json;

use super::common::{self, SquareSide, Whole};
use super::params::SettingsFlags;
use super::search_args::{ForGomoku, SearchFlags};
use super::{args, input_error};
use canopy_mcts::games::gomoku::protocol::{self, BrainConfig};
use canopy_mcts::games::gomoku::{
    forced_move, Cell, Gomoku, GomokuState, How, Plan, PositionError, Rule, Tuning, BLACK, MAX_SIZE, MIN_SIZE,
    REFUTATION, WHITE,
};
use canopy_mcts::search::{ActionStats, Proof};

/// Gomoku's board sides (`--size`).
const BOARD_SIDE: Whole = Whole { min: MIN_SIZE as u64, max: MAX_SIZE as u64 };

/// Rows of the candidate table printed by `analyze`.
const TABLE_ROWS: usize = 12;
/// Moves of each candidate's principal variation printed in the table.
const TABLE_PV: usize = 10;

/// `--rule` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RuleArg {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five in a row wins (an overline does not).
    Standard,
    /// Renju: Black wins only with exactly five and loses by a forbidden move (an overline, a double
    /// four or a double three); White wins with five or more.
    Renju,
}

impl From<RuleArg> for Rule {
    fn from(r: RuleArg) -> Rule {
        match r {
            RuleArg::Freestyle => Rule::Freestyle,
            RuleArg::Standard => Rule::Standard,
            RuleArg::Renju => Rule::Renju,
        }
    }
}

/// `canopy analyze gomoku`.
pub type Analyze = args::AnalyzeArgs<Position, ForGomoku>;

/// A Gomoku position: a diagram or the moves that reach it.
#[derive(clap::Args, Debug)]
pub struct Position {
    /// The position as rows of x, o and . (or the diagram canopy prints; '/' separates rows); or use
    /// --moves.
    #[arg(long, allow_hyphen_values = true)]
    pub board: Option<String>,
    #[command(flatten)]
    pub rules: PositionArgs,
    #[command(flatten)]
    pub brain: SettingsFlags<Tuning>,
}

/// Gomoku's position options (`analyze`, `play` and the opening of `match`).
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Moves from the empty board, Black first, in Gomocup coordinates x,y (x = column, y = row,
    /// 0-based), separated by spaces or ';', e.g. "7,7 8,8 7,8".
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Board side, N or NxN (the board is square), 5..=20.
    #[arg(long, value_name = "N", default_value_t = 15, allow_negative_numbers = true, value_parser = |t: &str| SquareSide::parse(t, BOARD_SIDE, "gomoku boards").map(|s| s.side))]
    pub size: usize,
    /// The rule: which lines win and, under renju, which moves Black may not play.
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
}

impl PositionArgs {
    /// The game these options describe.
    ///
    /// # Errors
    /// An input error for a board size outside 5..=20.
    pub fn game(&self) -> anyhow::Result<Gomoku> {
        Gomoku::try_new(self.size, self.rule.into()).map_err(|e| input_error(e.to_string()))
    }

    /// The position from `--moves` or from a `--board` diagram (exactly one of them; neither: the empty
    /// board when `empty_ok`).
    ///
    /// # Errors
    /// An input error naming the bad move or diagram row, or for both or neither option.
    pub fn position(&self, game: &Gomoku, board: Option<&str>, empty_ok: bool) -> anyhow::Result<GomokuState> {
        match (&self.moves, board) {
            (Some(_), Some(_)) => Err(input_error("give either --moves or --board, not both")),
            (Some(moves), None) => game.from_moves(moves).map_err(|e| input_error(format!("--moves: {e}"))),
            (None, Some(board)) => {
                let text = board.replace('/', "\n");
                let shape =
                    |e: &PositionError| matches!(e, PositionError::Rows { .. } | PositionError::RowLength { .. });
                game.parse_board(&text).map_err(|e| {
                    // A diagram of another side: say which --size reads it, where one does (a square
                    // diagram of a side the game takes).
                    let hint = match e {
                        PositionError::Rows { rows: n, .. } | PositionError::RowLength { cells: n, .. }
                            if n != game.size()
                                && Gomoku::try_new(n, game.rule())
                                    .is_ok_and(|g| g.parse_board(&text).err().is_none_or(|e| !shape(&e))) =>
                        {
                            format!(" (for a {n}x{n} board give --size {n})")
                        }
                        _ => String::new(),
                    };
                    input_error(format!("--board: {e}{hint}"))
                })
            }
            (None, None) if empty_ok => Ok(game.new_game()),
            (None, None) => Err(input_error("gomoku needs a position: --moves \"7,7 8,8 ...\" or --board")),
        }
    }
}

/// "black" or "white".
pub fn colour(player: usize) -> &'static str {
    if player == BLACK {
        "black"
    } else {
        "white"
    }
}

fn proof_name(p: Option<Proof>) -> &'static str {
    match p {
        Some(Proof::Win) => "win",
        Some(Proof::Loss) => "loss",
        Some(Proof::Draw) => "draw",
        None => "-",
    }
}

/// Root actions: the search's best first, then most visited first (ties: higher win rate, then
/// row-major).
fn ranked(actions: &[ActionStats<Cell>], best: Option<Cell>) -> Vec<&ActionStats<Cell>> {
    let mut v: Vec<&ActionStats<Cell>> = actions.iter().collect();
    v.sort_by(|a, b| {
        (Some(b.action) == best)
            .cmp(&(Some(a.action) == best))
            .then(b.visits.cmp(&a.visits))
            .then(b.mean.unwrap_or(-1.0).partial_cmp(&a.mean.unwrap_or(-1.0)).unwrap_or(std::cmp::Ordering::Equal))
            .then((a.action.y, a.action.x).cmp(&(b.action.y, b.action.x)))
    });
    v
}

/// Analyses a Gomoku position.
pub fn analyze(args: &Analyze) -> anyhow::Result<()> {
    let game = args.game.rules.game()?;
    let state = args.game.rules.position(&game, args.game.board.as_deref(), false)?;
    let tuning = args.game.brain.settings;
    if args.game.brain.has("reuse") {
        eprintln!("warning: analyze runs one search, with no tree to keep; --no-reuse ignored");
    }
    let policy = tuning.policy();
    let params = args.search.params(canopy_mcts::search::DEFAULT_PLAYOUTS);
    // The brain's own decision: a forced move or its victory by fours without a search, else the search
    // it runs (over the defences when the opponent has a sequence of fours). A move played without a
    // search still gets the full search below, for the table.
    // With --time T the search runs T (the brain's search runs what the check leaves it), and the
    // threat searches around it get the brain's shares of T: at most a third before the search and the
    // refutation check's share after it, so the whole analysis takes at most about 1.5 T.
    let start = Instant::now();
    let time_ms = params.time_ms;
    let plan_deadline = time_ms.map(|t| start + Duration::from_millis(Tuning::plan_ms(t)));
    let plan = if state.is_terminal() { Plan::Search(None) } else { tuning.plan(&game, &state, plan_deadline) };
    let root_moves = match &plan {
        Plan::Search(moves) => moves.clone(),
        Plan::Play(..) => None,
    };
    let searched = root_moves.clone();
    let report = args.run(&tuning.search(&game, &policy, params.clone(), root_moves), &state);
    let decision = match &plan {
        Plan::Play(cell, how) => Some((*cell, *how)),
        Plan::Search(_) => match tuning.refuted_best(
            &game,
            &state,
            &report,
            time_ms.map(|t| Instant::now() + Duration::from_millis(tuning.refute_ms(t))),
        ) {
            Some(c) if Some(c) != report.best => Some((c, How::Tactic(REFUTATION))),
            _ => report.best.map(|c| (c, How::Search)),
        },
    };
    let forced = forced_move(&game, &state);
    let me = state.mover();
    let ranked = ranked(&report.actions, report.best);
    // The move the brain plays: the search's best unless it played without a search or the refutation
    // check replaced it. Its statistics are the ones reported as the best's.
    let played = decision.map(|(c, _)| c).or(report.best);
    let played_stats = played.and_then(|c| report.action(&c));
    if args.json {
        let mut v = json!({
            "game": "gomoku",
            "size": game.size(),
            "rule": game.rule().name(),
            "to_move": colour(me),
            "black": state.stones(BLACK).map(|c| c.to_string()).collect::<Vec<_>>(),
            "white": state.stones(WHITE).map(|c| c.to_string()).collect::<Vec<_>>(),
            "board": state.rows(),
            "game_over": state.is_terminal(),
            "winner": state.winner().map(colour),
            "result": state.is_terminal().then(|| state.winner().map_or("draw".to_string(), |w| format!("{} wins", colour(w)))),
            "forced_move": forced.map(|c| c.to_string()),
            "decision": decision.map(|(c, how)| json!({ "move": c.to_string(), "how": how.name() })),
            "searched_moves": searched.as_ref().map(|m| m.iter().map(|c| c.to_string()).collect::<Vec<_>>()),
        });
        // The moves ranked as the table ranks them; win_rate is the mean (the mover's share of won
        // playouts, draws one half).
        let actions = ranked
            .iter()
            .map(|a| {
                let mut m = common::action_json(a);
                m.insert("win_rate".into(), json!(a.mean));
                m.insert("proof".into(), json!(a.proof));
                m
            })
            .collect();
        if let Some(obj) = v.as_object_mut() {
            if let Some((c, foul)) = game.lost_by_foul(&state) {
                // Renju only: the forbidden move that lost the game for Black.
                obj.insert("forbidden_move".into(), json!({ "cell": c.to_string(), "foul": foul.name() }));
            } else if state.winner() == Some(WHITE) && game.black_overline_lost(&state) {
                // A board given as stones: Black's overline lost, by a move the board does not tell.
                obj.insert(
                    "forbidden_move".into(),
                    json!({ "cell": null, "foul": canopy_mcts::games::gomoku::Foul::Overline.name() }),
                );
            }
            obj.extend(common::analysis_json(&report, actions));
            // The move the brain plays and its statistics, and the search's own best (they differ when the
            // brain played without a search or the refutation check replaced the search's choice; `pv` is
            // the search's).
            obj.insert("best_action".into(), json!(decision.map(|(c, _)| c.to_string())));
            obj.insert("best_win_rate".into(), json!(played_stats.and_then(|a| a.mean)));
            obj.insert("best_proof".into(), json!(played_stats.and_then(|a| a.proof)));
            obj.insert("search_best".into(), json!(report.best.map(|c| c.to_string())));
            obj.insert("root_proof".into(), json!(report.root_proof));
        }
        args.print_json(v, Some(&params))?;
        return Ok(());
    }
    print!("{}", state.diagram(played));
    let stones = state.stone_count();
    println!(
        "{}x{} {}, {stones} stone{}",
        game.size(),
        game.size(),
        game.rule().name(),
        if stones == 1 { "" } else { "s" }
    );
    if state.is_terminal() {
        match (state.winner(), game.lost_by_foul(&state)) {
            (Some(w), Some((c, foul))) => {
                println!("game over: {} has won (black's {c} is a forbidden {foul})", colour(w))
            }
            (Some(w), None) if w == WHITE && game.black_overline_lost(&state) => {
                println!("game over: {} has won (black's overline is forbidden under renju)", colour(w))
            }
            (Some(w), None) => println!("game over: {} has won", colour(w)),
            (None, _) => println!("game over: the board is full (draw)"),
        }
        return Ok(());
    }
    println!("{} to move", colour(me));
    if let Some(c) = forced {
        let why = if game.winning_moves(&state, me).contains(&c) { "wins at once" } else { "must block a five" };
        println!("forced: {c} ({why})");
    }
    if let Some((c, how)) = decision {
        let why = match how {
            How::Search if searched.is_some() => "search over the defences against the opponent's fours",
            How::Search => "search",
            How::Forced => "forced, no search",
            How::Tactic("vct") => "victory by continuous threats (fours and open threes), no search",
            How::Tactic(REFUTATION) => {
                "search; its best move lost to the opponent's victory by threats (--refute), so the next that did not"
            }
            _ => "victory by continuous fours, no search",
        };
        println!("the brain plays {c} ({why})");
    }
    println!("{:>4} {:>6} {:>9} {:>7} {:>9} {:>6}  pv", "rank", "move", "visits", "share", "win rate", "proof");
    for (i, a) in ranked.iter().take(TABLE_ROWS).enumerate() {
        let pv: Vec<&str> = a.pv.iter().take(TABLE_PV).map(String::as_str).collect();
        println!(
            "{:>4} {:>6} {:>9} {:>6.1}% {:>9} {:>6}  {}",
            i + 1,
            a.name,
            a.visits,
            a.share * 100.0,
            a.mean.map_or("-".into(), |m| format!("{m:.3}")),
            proof_name(a.proof),
            pv.join(" ")
        );
    }
    if ranked.len() > TABLE_ROWS {
        println!("     ... {} more candidates (all in --json)", ranked.len() - TABLE_ROWS);
    }
    println!("win rate = {}'s share of won playouts after the move (draws count one half)", colour(me));
    let proof = match report.root_proof {
        Some(p) => format!("   proven: {} for {}", proof_name(Some(p)), colour(me)),
        None => String::new(),
    };
    let search_best = report.best_name.as_deref().unwrap_or("-");
    match played {
        Some(c) if played != report.best => {
            println!(
                "the search's best: {search_best}   pv: {}{}   (the brain plays {c}, marked *)",
                report.pv.join(" "),
                proof
            )
        }
        _ => println!("best: {search_best} (marked *)   pv: {}{}", report.pv.join(" "), proof),
    }
    common::print_totals(&report);
    Ok(())
}

/// Arguments of `canopy gomocup`.
#[derive(clap::Args, Debug)]
pub struct GomocupArgs {
    #[command(flatten)]
    pub search: SearchFlags<ForGomoku>,
    #[command(flatten)]
    pub brain: SettingsFlags<Tuning>,
    /// Do not print a MESSAGE line with the search figures before each move.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the Gomocup protocol on stdin and stdout ([`protocol::run_stdio`]): exits with status 0 after
/// END, at the end of input, and when stdout is closed, printing nothing on stderr.
pub fn gomocup(args: &GomocupArgs) -> anyhow::Result<()> {
    let mut params = args.search.params(1);
    params.playouts = args.search.playouts;
    params.time_ms = args.search.time;
    // The brain's `reuse` setting (`--no-reuse`) keeps or drops the tree between turns.
    let config = BrainConfig { params, messages: !args.quiet, tuning: args.brain.settings };
    // The only error is a failed write on stdout: the manager is gone, and nobody is left to tell.
    let _ = protocol::run_stdio(&config);
    Ok(())
}
