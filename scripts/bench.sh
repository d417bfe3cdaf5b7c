#!/usr/bin/env bash
# Runs every canopy benchmark and prints the results as markdown, ready to paste into docs/BENCHMARKS.md.
#
#   scripts/bench.sh > /tmp/bench.md            # everything (about 10 minutes on 2 cores)
#   QUICK=1 scripts/bench.sh > /tmp/bench.md    # shorter criterion runs, one repeat of canopy bench
#   THREADS=1,2,4,8 scripts/bench.sh            # thread counts of `canopy bench` (default: 1,2)
#
# Close other programs first: every figure is a best-of or a criterion estimate, but a busy machine still
# lowers them, and the multi-thread figures most.
set -euo pipefail
cd "$(dirname "$0")/.."

THREADS=${THREADS:-1,2}
if [[ -n ${QUICK:-} ]]; then
  REPEAT=1
  CRITERION=(--warm-up-time 1 --measurement-time 2)
else
  REPEAT=3
  CRITERION=(--warm-up-time 2 --measurement-time 5)
fi

cargo build --release --quiet
CANOPY=target/release/canopy

section() { # title, command...
  local title=$1
  shift
  echo "### $title"
  echo
  echo '```'
  echo "\$ $*"
  "$@"
  echo '```'
  echo
}

criterion() { # bench name: keep the names, the time and throughput estimates, and the printed counts
  echo "\$ cargo bench -p canopy-mcts --features internals --bench $1 -- ${CRITERION[*]}"
  # Lines with a % are outliers or the change against the previous run on this machine: left out.
  cargo bench --quiet -p canopy-mcts --features internals --bench "$1" -- "${CRITERION[@]}" 2>/dev/null |
    awk '/^(Benchmarking|Warning|Found|Gnuplot|Running|Finished)/ || /%/ { next }
         /time:|thrpt:|^[A-Za-z0-9_\/]+ *$|nodes|keys stored|legal moves/ { sub(/ +$/, ""); print }'
}

echo "## Run of $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD)"
echo
echo '```'
echo "\$ nproc"
nproc
echo "\$ lscpu | head -n 15"
lscpu | head -n 15
echo "\$ rustc --version"
rustc --version
echo '```'
echo
section "canopy bench, 2048" "$CANOPY" bench --game 2048 --threads "$THREADS" --repeat "$REPEAT"
section "canopy bench, tic-tac-toe" "$CANOPY" bench --game tictactoe --threads "$THREADS" --repeat "$REPEAT"
section "canopy bench, gomoku 9x9" "$CANOPY" bench --game gomoku --size 9 --threads "$THREADS" --repeat "$REPEAT"
section "canopy bench, gomoku 15x15" "$CANOPY" bench --game gomoku --size 15 --threads "$THREADS" --repeat "$REPEAT"
section "canopy bench, gomoku 9x9, tactical playout" \
  "$CANOPY" bench --game gomoku --size 9 --rollout game --threads "$THREADS" --repeat "$REPEAT"
section "canopy bench, snake 10x10" "$CANOPY" bench --game snake --threads "$THREADS" --repeat "$REPEAT"
echo "### criterion: 2048 move generation and rollout"
echo
echo '```'
criterion movegen
echo '```'
echo
echo "### criterion: search playouts/s and transposition table"
echo
echo '```'
criterion search
echo '```'
