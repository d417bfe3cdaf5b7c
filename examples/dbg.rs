use canopy_mcts::games::gomoku::*;
use canopy_mcts::Game;
fn cells(t: &str) -> Vec<Cell> {
    t.split_whitespace().map(|x| Cell::parse(x).unwrap()).collect()
}
fn main() {
    for policy in [RolloutPolicy::Basic, RolloutPolicy::Threats] {
        let game = Gomoku::new(15, Rule::Freestyle).with_rollout_policy(policy);
        let mut s = game.from_stones(&cells("0,7 1,7 2,7 4,7 5,7"), &cells("9,9 10,9 11,9 9,12 13,0")).unwrap();
        game.apply(&mut s, Cell::new(14, 0));
        let mut rng = canopy_mcts::rng::seeded(1, 0);
        let mut sc = Vec::new();
        let mut b = 0.0;
        for _ in 0..1000 {
            b += game.rollout(&s, &mut rng, &mut sc)[0];
        }
        println!(
            "{policy:?} black {b} policy move {:?} winning {:?}",
            game.policy_move(&s, &mut rng),
            game.winning_moves(&s, 0)
        );
    }
}
