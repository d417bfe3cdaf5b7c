//! The 2048 n-tuple network: index extraction by hand, the symmetry of its value, the weights file
//! (round trip, truncated and corrupt files), TD learning improving the greedy player, and the network
//! as the evaluation of the agents.

// Normal build only: under `--cfg canopy_loom` the atomics are loom's, usable in loom models only.
#![cfg(not(canopy_loom))]

use canopy_mcts::games::g2048::agents::{self, Agent, AgentConfig, AgentKind};
use canopy_mcts::games::g2048::eval::Evaluation;
use canopy_mcts::games::g2048::ntuple::{NTuple, NTupleError, DEFAULT_ALPHA, LARGE_TUPLES, STANDARD_TUPLES};
use canopy_mcts::games::g2048::{Board, G2048Policy, RolloutPolicy};
use canopy_mcts::rng::{self, Rng};

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

/// A network whose weights are all different (weight `i` = `i`), so that every lookup shows.
fn numbered(tuples: &[&[u8]]) -> NTuple {
    let net = NTuple::new(tuples).unwrap();
    let mut bytes = net.to_bytes();
    // Rewrite the weights in the file and its checksum: the only way in from outside.
    let n = net.weights().len();
    let start = bytes.len() - 8 - 4 * n;
    for i in 0..n {
        bytes[start + 4 * i..start + 4 * i + 4].copy_from_slice(&(i as f32).to_le_bytes());
    }
    let body = bytes.len() - 8;
    let sum = fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    NTuple::from_bytes(&bytes).unwrap()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The 8 symmetric images of `b`: the identity, mirror images and rotations.
fn symmetric_boards(b: &Board) -> Vec<Board> {
    let e = b.exponents();
    let at = |r: usize, c: usize| e[4 * r + c];
    (0..8)
        .map(|g| {
            Board::from_exponents(std::array::from_fn(|cell| {
                let (r, c) = (cell / 4, cell % 4);
                match g {
                    0 => at(r, c),
                    1 => at(r, 3 - c),
                    2 => at(3 - r, c),
                    3 => at(3 - r, 3 - c),
                    4 => at(c, r),
                    5 => at(c, 3 - r),
                    6 => at(3 - c, r),
                    _ => at(3 - c, 3 - r),
                }
            }))
        })
        .collect()
}

#[test]
fn a_one_cell_tuple_reads_each_corner() {
    // One tuple, the corner cell 0: its 8 images are the four corners, each twice; weight i = i, so the
    // value is twice the sum of the corner exponents.
    let net = numbered(&[&[0]]);
    assert_eq!(net.lookups(), 8);
    let b = board("2,0,0,8, 0,0,0,0, 0,0,0,0, 4,0,0,16");
    assert_eq!(net.evaluate(&b), 2.0 * (1.0 + 3.0 + 2.0 + 4.0));
    // The other cells do not count.
    let b = board("0,2,2,0, 2,2,2,2, 2,2,2,2, 0,2,2,0");
    assert_eq!(net.evaluate(&b), 0.0);
}

#[test]
fn a_two_cell_tuple_indexes_first_cell_lowest() {
    // Tuple (0, 1): index e0 + 16 e1. On a board with only cells 0 and 1 set, the identity reads
    // (e0, e1); the mirror 1 (c -> 3 - c) and the others read the empty cells elsewhere, except the
    // transpose 4 ((r, c) -> (c, r)), which reads cells 0 and 4: (e0, 0).
    let net = numbered(&[&[0, 1]]);
    let b = board("4,8,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0");
    // Identity: 2 + 16 * 3 = 50; transpose: 2; the six others: 0.
    assert_eq!(net.evaluate(&b), 50.0 + 2.0);
}

#[test]
fn tiles_above_32768_count_as_32768() {
    let net = numbered(&[&[0]]);
    let big = Board::from_exponents([17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16]);
    let clipped = Board::from_exponents([15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15]);
    assert_eq!(net.evaluate(&big), net.evaluate(&clipped));
    assert_eq!(net.evaluate(&big), 2.0 * 30.0);
}

#[test]
fn the_eight_symmetric_boards_have_one_value() {
    let mut net = NTuple::standard();
    // Train a little so that the weights differ from each other.
    let mut r = rng::seeded(11, 0);
    for _ in 0..20 {
        net.train_game(&mut r, DEFAULT_ALPHA);
    }
    let mut r: Rng = rng::seeded(5, 1);
    for _ in 0..200 {
        let e: [u8; 16] = std::array::from_fn(|_| rng::below(&mut r, 12) as u8);
        let b = Board::from_exponents(e);
        let images = symmetric_boards(&b);
        let v = net.evaluate(&b);
        for (g, s) in images.iter().enumerate() {
            let w = net.evaluate(s);
            assert!((v - w).abs() <= 1e-4 * v.abs().max(1.0), "{b:#} under symmetry {g}: {v} vs {w}");
        }
    }
    // An asymmetric network (one tuple not closed under symmetry) still agrees, by the sharing.
    let net = numbered(&[&[0, 1, 5]]);
    let b = board("2,4,8,16, 0,32,0,2, 4,0,0,0, 0,0,0,8");
    let v = net.evaluate(&b);
    assert!(v > 0.0);
    for s in symmetric_boards(&b) {
        assert_eq!(net.evaluate(&s), v);
    }
}

#[test]
fn the_standard_network_size_is_as_documented() {
    let net = NTuple::standard();
    assert_eq!(net.tuples().len(), STANDARD_TUPLES.len());
    assert_eq!(net.weights().len(), 5 * 65_536);
    assert_eq!(net.lookups(), 40);
    // Header 8 + 4 + 4, five tuples of 1 + 4 bytes, the weight count 8, the weights, the checksum 8.
    assert_eq!(net.to_bytes().len(), 8 + 4 + 4 + 5 * 5 + 8 + 4 * 5 * 65_536 + 8);
}

#[test]
fn the_large_network_size_is_as_documented() {
    let net = NTuple::large();
    assert_eq!(net.tuples().len(), LARGE_TUPLES.len());
    assert!(net.tuples().iter().all(|t| t.len() == 5));
    assert_eq!(net.weights().len(), 4 * (1 << 20));
    assert_eq!(net.lookups(), 32);
    // Header 8 + 4 + 4, four tuples of 1 + 5 bytes, the weight count 8, the weights, the checksum 8: the
    // file stays under the repository's 20 MB limit for weights.
    let bytes = net.to_bytes().len();
    assert_eq!(bytes, 8 + 4 + 4 + 4 * 6 + 8 + 4 * 4 * (1 << 20) + 8);
    assert!(bytes < 20_000_000);
}

#[test]
fn bad_layouts_are_refused() {
    for (tuples, what) in [
        (&[][..], "0 tuples"),
        (&[&[][..]][..], "0 cells"),
        (&[&[0, 1, 2, 3, 4, 5, 6][..]][..], "7 cells"),
        (&[&[0, 16][..]][..], "cell 16"),
        (&[&[3, 3][..]][..], "twice"),
    ] {
        match NTuple::new(tuples) {
            Err(NTupleError::Layout(msg)) => assert!(msg.contains(what), "{msg}"),
            other => panic!("{tuples:?}: {other:?}"),
        }
    }
}

#[test]
fn weights_round_trip_through_a_file() {
    let mut net = NTuple::standard();
    let mut r = rng::seeded(3, 0);
    for _ in 0..5 {
        net.train_game(&mut r, DEFAULT_ALPHA);
    }
    let dir = std::env::temp_dir().join(format!("canopy-ntuple-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.bin");
    net.save(&path).unwrap();
    let back = NTuple::load(&path).unwrap();
    assert_eq!(back.tuples(), net.tuples());
    assert_eq!(back.weights(), net.weights());
    assert!(net.weights().iter().any(|&w| w != 0.0));
    let b = board("2,4,8,16, 0,32,0,2, 4,0,0,0, 0,0,0,8");
    assert_eq!(back.evaluate(&b), net.evaluate(&b));
    // A missing file and an unwritable path are I/O errors naming the path.
    let missing = dir.join("missing.bin");
    let e = NTuple::load(&missing).unwrap_err();
    assert!(matches!(e, NTupleError::Io { .. }) && e.to_string().contains("missing.bin"), "{e}");
    let e = net.save(&dir.join("no-such-dir").join("x.bin")).unwrap_err();
    assert!(matches!(e, NTupleError::Io { .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn truncated_and_corrupt_files_are_refused() {
    let net = numbered(&[&[0, 1], &[5]]);
    let good = net.to_bytes();
    assert!(NTuple::from_bytes(&good).is_ok());
    // Every truncation, including the empty file, is refused without a panic.
    for len in 0..good.len() {
        let e = NTuple::from_bytes(&good[..len]).unwrap_err();
        assert!(matches!(e, NTupleError::BadMagic | NTupleError::Size { .. }), "{len} bytes: {e}");
    }
    // A byte too many.
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(NTuple::from_bytes(&long), Err(NTupleError::Size { .. })));
    // Each single flipped bit is caught: by the magic, the version, the layout, the size or the checksum.
    for i in 0..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x10;
        assert!(NTuple::from_bytes(&bad).is_err(), "bit flip at byte {i} accepted");
    }
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(matches!(NTuple::from_bytes(&bad), Err(NTupleError::BadMagic)));
    let mut bad = good.clone();
    bad[8] = 2;
    assert!(matches!(NTuple::from_bytes(&bad), Err(NTupleError::Version(2))));
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 1;
    assert!(matches!(NTuple::from_bytes(&bad), Err(NTupleError::Checksum)));
    // A NaN weight with a matching checksum.
    let mut bad = good.clone();
    let start = bad.len() - 8 - 4 * net.weights().len();
    bad[start..start + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let body = bad.len() - 8;
    let sum = fnv1a(&bad[..body]);
    bad[body..].copy_from_slice(&sum.to_le_bytes());
    assert!(matches!(NTuple::from_bytes(&bad), Err(NTupleError::NotFinite(0))));
}

/// A device that reports no length and never ends is refused from its first bytes, not read until
/// memory runs out.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_device_is_refused_by_its_magic_bytes() {
    let e = NTuple::load(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(matches!(e, NTupleError::BadMagic), "{e}");
}

/// A pipe whose bytes go on past a valid file is refused one byte past the size its header gives (not
/// read up to the 1 GiB limit), and a pipe that holds exactly a file loads as the file does.
#[cfg(target_os = "linux")]
#[test]
fn a_stream_is_read_no_further_than_its_header_says() {
    use std::io::Write as _;
    let net = NTuple::new(&[&[0, 1, 2]]).unwrap();
    let file = net.to_bytes();
    let dir = std::env::temp_dir().join(format!("canopy-ntuple-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("weights");
    for endless in [true, false] {
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let (path, bytes) = (fifo.clone(), file.clone());
        let writer = std::thread::spawn(move || {
            let mut w = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            // Once the reader has closed the pipe every write fails: the endless stream ends there.
            if w.write_all(&bytes).is_err() || !endless {
                return;
            }
            let zeros = vec![0u8; 1 << 16];
            while w.write_all(&zeros).is_ok() {}
        });
        let loaded = NTuple::load(&fifo);
        writer.join().unwrap();
        match (endless, loaded) {
            (true, Err(NTupleError::TooLong(n))) => assert_eq!(n, file.len() as u64),
            (false, Ok(read)) => assert_eq!(read.weights(), net.weights()),
            (_, other) => panic!("endless {endless}: {:?}", other.map(|_| "a network")),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Mean score of the greedy player with `net` over seeds `0..games` (spawn streams apart from training).
fn greedy_mean(net: &mut NTuple, games: u64) -> f64 {
    let total: u64 = (0..games).map(|g| net.play_greedy(&mut rng::seeded(1_000 + g, 7)).score).sum();
    total as f64 / games as f64
}

#[test]
fn training_is_reproducible_and_improves_the_greedy_player() {
    let mut untrained = NTuple::standard();
    let before = greedy_mean(&mut untrained, 50);
    let train = |games: u64| {
        let mut net = NTuple::standard();
        let mut r = rng::seeded(42, 0);
        let scores: Vec<u64> = (0..games).map(|_| net.train_game(&mut r, DEFAULT_ALPHA).score).collect();
        (net, scores)
    };
    let (mut net, scores) = train(300);
    let (again, scores_again) = train(300);
    assert_eq!(scores, scores_again);
    assert_eq!(net.weights(), again.weights());
    let after = greedy_mean(&mut net, 50);
    // An untrained network plays the first legal move in Dir::ALL order (all values 0), scoring about a
    // thousand; 300 games of TD learning reach several thousand.
    assert!(after > 2.0 * before, "greedy mean score {before} untrained, {after} after 300 games");
}

#[test]
fn the_agents_take_the_network_as_their_evaluation() {
    let mut net = NTuple::standard();
    let mut r = rng::seeded(9, 0);
    for _ in 0..100 {
        net.train_game(&mut r, DEFAULT_ALPHA);
    }
    let net: &'static NTuple = Box::leak(Box::new(net));
    let evaluation = Evaluation::NTuple(net);
    // The greedy agent with the network plays the game that the network's own greedy play does.
    let mut config = AgentConfig::new(AgentKind::Greedy);
    config.policy.evaluation = evaluation;
    let mut agent = Agent::new(config);
    let record = agents::play(&mut agent, 17, |_, _| {});
    let b = board("2,4,8,16, 0,32,0,2, 4,0,0,0, 0,0,0,8");
    let d = agent.decide(&b, 0);
    for m in &d.moves {
        let (after, gain) = b.afterstate(m.dir);
        assert_eq!(m.value, Some(f64::from(gain as f32 + net.evaluate(&after))));
    }
    assert!(record.returns[0] > 0.0);
    // MCTS and expectimax run with it and choose legal moves.
    for kind in [AgentKind::Mcts, AgentKind::Expectimax] {
        let mut config = AgentConfig::new(kind);
        config.policy = G2048Policy { rollout: RolloutPolicy::TUNED, evaluation, ..config.policy };
        config.search.playouts = Some(200);
        config.search.threads = 1;
        config.expectimax.depth = Some(2);
        let d = Agent::new(config).decide(&b, 1);
        let best = d.best.unwrap();
        assert!(b.legal_dirs().contains(best), "{kind}");
    }
}
