#!/usr/bin/env bash
# Plays a 2048 series one game per start, resumably: game k is `canopy play 2048 --seed k --games 1`,
# the same start as game k of `canopy compare 2048 --seed 1` (compare gives game i the seed i). Each
# game's JSON report goes to OUT/AGENT-tTIME-pTHREADS-sSEED.json; starts already there are skipped, so
# a series can be continued after an interruption.
#
#   scripts/g2048_series.sh BIN OUT AGENT TIME_MS THREADS FIRST_SEED LAST_SEED [extra canopy args...]
#
# Summarise with: python3 scripts/g2048_series.py OUT
set -euo pipefail
if [ $# -lt 7 ]; then
    sed -n 2,9p "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
bin=$1 out=$2 agent=$3 time_ms=$4 threads=$5 first=$6 last=$7
shift 7
mkdir -p "$out"
for seed in $(seq "$first" "$last"); do
    file="$out/$agent-t$time_ms-p$threads-s$seed.json"
    [ -s "$file" ] && continue
    "$bin" play 2048 --agent "$agent" --time "$time_ms" --threads "$threads" --seed "$seed" --games 1 --json "$@" \
        >"$file.part"
    mv "$file.part" "$file"
    echo "$(date -u +%H:%M:%S) $file"
done
