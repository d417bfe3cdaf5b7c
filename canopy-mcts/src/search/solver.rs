//! MCTS-Solver (Winands, Björnsson and Saito, "Monte-Carlo Tree Search Solver", CG 2008): proven results
//! read from the children and proved upward during backup.

use crate::game::Returns;
use crate::search::node::{Edge, Node, NodeKind, Proof};

/// The proven result of `e`'s child for `mover`, if it has one.
#[inline]
pub(crate) fn proof_for<M>(e: &Edge<M>, mover: usize) -> Option<Proof> {
    proof_of(e.child_acquire()?, mover)
}

/// The proven result of `child` (a node an edge leads to) for `mover`, if it has one.
#[inline]
pub(crate) fn proof_of<M>(child: &Node<M>, mover: usize) -> Option<Proof> {
    let p = child.proof_relaxed()?;
    Some(if child.player() == mover { p } else { p.flipped() })
}

/// Returns of a two-player game whose result for `player` is `proof`.
pub(crate) fn proof_returns<R: Returns>(player: usize, proof: Proof) -> R {
    let mut g = R::zero();
    g[player] = proof.value();
    g[1 - player] = 1.0 - proof.value();
    g
}

/// MCTS-Solver at a decision node where `mover` moves: the node is a win for the mover if one move is a
/// proven win, a loss if every move is a proven loss, a draw if every move is proven and the best is a
/// draw. A loss or a draw speaks for every legal move, so it is proven only when the children are not a
/// pruned candidate set ([`Node::pruned_relaxed`]; a win among the candidates is a win whatever was left
/// out). Records the result for the node's own player and returns whether it proved one ([I9]).
pub(crate) fn try_prove<M>(node: &Node<M>, mover: usize) -> bool {
    if node.kind() != NodeKind::Decision {
        return false;
    }
    let Some(children) = node.children_acquire() else { return false };
    let mut all_proven = true;
    let mut any_draw = false;
    let mut result = None;
    for e in children {
        match proof_for(e, mover) {
            Some(Proof::Win) => {
                result = Some(Proof::Win);
                break;
            }
            Some(Proof::Draw) => any_draw = true,
            Some(Proof::Loss) => {}
            None => all_proven = false,
        }
    }
    if result.is_none() && all_proven && !node.pruned_relaxed() {
        result = Some(if any_draw { Proof::Draw } else { Proof::Loss });
    }
    match result {
        Some(r) => {
            node.set_proof_relaxed(if node.player() == mover { r } else { r.flipped() });
            true
        }
        None => false,
    }
}
