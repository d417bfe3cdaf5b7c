//! The search agents keep their trees between the moves of a game: with reuse on, later searches start
//! from the playouts the earlier ones left under the position (root visits above the search's own
//! playouts); with reuse off, every search starts from a new tree (root visits equal to its playouts).
//! Tic-tac-toe's generic [`Mcts`], Snake's [`MctsAgent`] (forced and cycle moves included) and Gomoku's
//! [`PlayerAgent`] (a root restricted to the defences included).

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::agent::{play_game, Agent, Context, Decision, GameRecord, GameSeeds, How, Mcts, Step};
use canopy_mcts::games::gomoku::{vcf, Cell, Gomoku, Plan, Player, PlayerAgent, Rule, Tuning, BLACK};
use canopy_mcts::games::snake::{MctsAgent, Snake};
use canopy_mcts::games::tictactoe::{TicTacToe, TicTacToeState};
use canopy_mcts::rng::seeded;
use canopy_mcts::search::{Event, SearchParams};
use canopy_mcts::Game;

fn params(playouts: u64) -> SearchParams {
    SearchParams { playouts: Some(playouts), threads: 1, pin_threads: false, ..SearchParams::default() }
}

/// One search as the agent reported it: root visits and playouts, and the events the agent observed
/// since its previous decision (moves of either side, chance outcomes).
#[derive(Debug)]
struct Searched {
    root_visits: u64,
    playouts: u64,
    /// Whether a move without a search (forced, tactic) came between this search and the previous one.
    after_unsearched: bool,
    /// Whether a chance outcome came between this search and the previous one.
    after_chance: bool,
}

/// An agent that passes everything to `inner` and keeps the figures of its searches.
struct Recording<'a, G: Game> {
    inner: &'a mut dyn Agent<G>,
    searches: Vec<Searched>,
    unsearched: bool,
    chance: bool,
}

impl<'a, G: Game> Recording<'a, G> {
    fn new(inner: &'a mut dyn Agent<G>) -> Self {
        Recording { inner, searches: Vec::new(), unsearched: false, chance: false }
    }
}

impl<G: Game> Agent<G> for Recording<'_, G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, game: &G, state: &G::State, cx: &mut Context<'_>) -> Option<Decision<G::Action>> {
        let d = self.inner.choose(game, state, cx)?;
        match &d.report {
            Some(r) => {
                self.searches.push(Searched {
                    root_visits: r.root_visits,
                    playouts: r.playouts,
                    after_unsearched: self.unsearched,
                    after_chance: self.chance,
                });
                (self.unsearched, self.chance) = (false, false);
            }
            None => self.unsearched = true,
        }
        Some(d)
    }

    fn observe(&mut self, game: &G, event: Event<G::Action, G::Outcome>) {
        self.chance |= matches!(event, Event::Outcome(_));
        self.inner.observe(game, event);
    }
}

/// The game's steps agree with the searches: a move's `kept_playouts` is its search's root visits less
/// its playouts, and the record sums them per player.
fn check_record<G: Game>(record: &GameRecord<G>, searches: &[&[Searched]]) {
    for (p, searched) in searches.iter().enumerate() {
        let kept: Vec<u64> = record
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Move { player, how: How::Search, kept_playouts, .. } if *player == p => Some(*kept_playouts),
                _ => None,
            })
            .collect();
        let expected: Vec<u64> = searched.iter().map(|s| s.root_visits - s.playouts).collect();
        assert_eq!(kept, expected, "player {p}");
        assert_eq!(record.kept_playouts[p], expected.iter().sum::<u64>());
    }
}

/// With reuse some search starts from kept playouts, and none holds fewer visits than its playouts;
/// without, every search holds exactly its own playouts.
fn check_reuse(searches: &[Searched], reuse: bool, what: &str) {
    assert!(searches.len() >= 2, "{what}: {} searches", searches.len());
    // A kept root already proven is not searched again (0 playouts, the kept visits stand).
    assert!(searches.iter().all(|s| s.playouts > 0 || (reuse && s.root_visits > 0)), "{what}: {searches:?}");
    if reuse {
        assert!(searches.iter().all(|s| s.root_visits >= s.playouts), "{what}: {searches:?}");
        assert!(searches.iter().any(|s| s.root_visits > s.playouts), "{what}: nothing kept: {searches:?}");
    } else {
        assert!(searches.iter().all(|s| s.root_visits == s.playouts), "{what}: {searches:?}");
    }
}

#[test]
fn tictactoe_mcts_keeps_its_tree_between_moves() {
    for reuse in [true, false] {
        let mut a = Mcts::<TicTacToe>::new(params(300)).with_reuse(reuse);
        let mut b = Mcts::<TicTacToe>::new(params(300)).with_reuse(reuse);
        let (mut ra, mut rb) = (Recording::new(&mut a), Recording::new(&mut b));
        let mut agents: [&mut dyn Agent<TicTacToe>; 2] = [&mut ra, &mut rb];
        let record =
            play_game(&TicTacToe, |_| TicTacToeState::default(), &mut agents, GameSeeds::new(3), None, |_, _| {});
        assert!(record.finished);
        // Perfect play from both sides is a draw: a kept tree reads its proofs for the side to move.
        assert_eq!(record.winner(), None, "reuse {reuse}: {:?}", record.actions().collect::<Vec<_>>());
        check_reuse(&ra.searches, reuse, &format!("first player, reuse {reuse}"));
        check_reuse(&rb.searches, reuse, &format!("second player, reuse {reuse}"));
        check_record(&record, &[&ra.searches, &rb.searches]);
    }
}

/// A second search of the same position goes on in the kept tree.
#[test]
fn tictactoe_mcts_searches_a_position_twice_on_one_tree() {
    let mut agent = Mcts::<TicTacToe>::new(params(200));
    let state = TicTacToeState::default();
    let mut rng = seeded(1, 0);
    let mut cx = Context { seed: 1, rng: &mut rng, stop: None };
    let first = Agent::choose(&mut agent, &TicTacToe, &state, &mut cx).unwrap().report.unwrap();
    let second = Agent::choose(&mut agent, &TicTacToe, &state, &mut cx).unwrap().report.unwrap();
    assert_eq!((first.root_visits, second.playouts), (200, 200));
    assert_eq!(second.root_visits, 400);
    // A position the tree does not stand for starts afresh.
    let other = TicTacToeState::parse("x........").unwrap();
    let third = Agent::choose(&mut agent, &TicTacToe, &other, &mut cx).unwrap().report.unwrap();
    assert_eq!(third.root_visits, 200);
}

/// Snake with the endgame lock-in: the tree follows the game through food spawns, forced moves and cycle
/// moves, so that searches after them still start from kept playouts.
#[test]
fn snake_mcts_keeps_its_tree_through_spawns_and_unsearched_moves() {
    let game = Snake::new(6, 6);
    for reuse in [true, false] {
        let mut agent =
            MctsAgent::new(game, MctsAgent::search_policy(6, 6), params(200)).with_endgame(9).with_reuse(reuse);
        let mut recording = Recording::new(&mut agent);
        let mut agents: [&mut dyn Agent<Snake>; 1] = [&mut recording];
        let record = play_game(&game, |rng| game.new_game(rng), &mut agents, GameSeeds::new(5), None, |_, _| {});
        assert!(record.finished);
        let searches = &recording.searches;
        check_reuse(searches, reuse, &format!("snake, reuse {reuse}"));
        check_record(&record, &[searches]);
        if reuse {
            assert!(searches.iter().any(|s| s.after_chance && s.root_visits > s.playouts), "{searches:?}");
            assert!(searches.iter().any(|s| s.after_unsearched && s.root_visits > s.playouts), "{searches:?}");
        }
        let unsearched = record.steps.iter().filter(|s| matches!(s, Step::Move { how, .. } if *how != How::Search));
        assert!(unsearched.count() > 0, "the game has moves without a search");
    }
}

#[test]
fn gomoku_players_keep_their_trees_between_moves() {
    let game = Gomoku::new(9, Rule::Freestyle);
    for reuse in [true, false] {
        let player = Player::Mcts { params: params(300), tuning: Tuning { reuse, ..Tuning::default() } };
        let (mut a, mut b) = (PlayerAgent::new(player.clone()), PlayerAgent::new(player));
        let (mut ra, mut rb) = (Recording::new(&mut a), Recording::new(&mut b));
        let mut agents: [&mut dyn Agent<Gomoku>; 2] = [&mut ra, &mut rb];
        let record = play_game(&game, |_| game.new_game(), &mut agents, GameSeeds::new(2), None, |_, _| {});
        assert!(record.finished);
        check_reuse(&ra.searches, reuse, &format!("black, reuse {reuse}"));
        check_reuse(&rb.searches, reuse, &format!("white, reuse {reuse}"));
        check_record(&record, &[&ra.searches, &rb.searches]);
    }
}

/// Against a sequence of fours the root is restricted to the defences, on the kept tree too: a second
/// search of the position goes on in the same tree, over the same moves. (White's stones 5,9 and 7,6
/// take away Black's other threats, so that some defences are left: with White's stones in the corners
/// instead, the threat search finds a win for Black after every candidate, and the brain searches them
/// all.)
#[test]
fn gomoku_restricted_root_searches_go_on_in_the_kept_tree() {
    let game = Gomoku::new(15, Rule::Freestyle);
    let black = "3,10 4,10 5,10 6,7 6,8 14,7";
    let white = "2,10 5,9 14,0 0,14 7,6";
    let cells = |t: &str| t.split_whitespace().map(|c| Cell::parse(c).unwrap()).collect::<Vec<_>>();
    let s = game.from_stones(&cells(black), &cells(white)).unwrap();
    let tuning = Tuning { forced_answer: false, ..Tuning::default() };
    let Plan::Search(Some(defences)) = tuning.plan(&game, &s, None) else {
        panic!("expected a search over the defences: {:?}", tuning.plan(&game, &s, None));
    };
    let mut agent = PlayerAgent::new(Player::Mcts { params: params(400), tuning });
    let mut rng = seeded(1, 0);
    let mut cx = Context { seed: 1, rng: &mut rng, stop: None };
    let mut reports = Vec::new();
    for _ in 0..2 {
        let d = agent.choose(&game, &s, &mut cx).unwrap();
        assert_eq!(d.how, How::Search);
        reports.push(d.report.unwrap());
    }
    for r in &reports {
        assert!(r.actions.iter().all(|a| defences.contains(&a.action)), "{:?} outside {defences:?}", r.actions);
        let mut next = s.clone();
        game.apply(&mut next, r.best.unwrap());
        assert_eq!(vcf(&game, &next, BLACK, 10_000), None, "{} leaves Black a VCF", r.best.unwrap());
    }
    assert_eq!((reports[0].root_visits, reports[1].root_visits), (400, 800));
}
