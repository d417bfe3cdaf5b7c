#!/usr/bin/env python3
"""Summarises the 2048 series that scripts/g2048_series.sh wrote: one row per setting (agent, time per
move, threads), over the starts it has played, and for every two settings the starts both have played,
compared start by start. The work per move (playouts for mcts) is the mean over the games whose files
report it, with their count in brackets ("-": none does). `--by-start` prints instead a markdown table of
every game's score and largest tile, one row per start, one column per setting.

    python3 scripts/g2048_series.py DIR [--json | --by-start]
"""
import argparse
import json
import math
import re
import sys
from pathlib import Path

NAME = re.compile(r"^(?P<agent>[a-z0-9_]+)-t(?P<time>\d+)-p(?P<threads>\d+)-s(?P<seed>\d+)\.json$")
TILES = (8192, 16384, 32768)


def load(directory):
    """{(agent, time_ms, threads): {seed: game}} from the series' files."""
    series = {}
    for path in sorted(Path(directory).glob("*.json")):
        m = NAME.match(path.name)
        if not m:
            continue
        report = json.loads(path.read_text())
        (game,) = report["games"]
        key = (m["agent"], int(m["time"]), int(m["threads"]))
        series.setdefault(key, {})[int(m["seed"])] = game
    return series


def summary(games):
    scores = [g["score"] for g in games]
    n = len(scores)
    mean = sum(scores) / n
    # The standard error needs two games: None (JSON null, "-" in the table) for one.
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1) / n) if n > 1 else None
    row = {"games": n, "mean": mean, "se": se, "median": sorted(scores)[n // 2]}
    for t in TILES:
        row[str(t)] = sum(g["max_tile"] >= t for g in games) / n
    moves = sum(g["moves"] for g in games)
    row["ms_per_move"] = sum(g["ms_per_move"] * g["moves"] for g in games) / moves
    row["moves_per_game"] = moves / n
    # Work per move (playouts for mcts): only in the files of builds that report it.
    known = [g for g in games if "work_per_move" in g]
    known_moves = sum(g["moves"] for g in known)
    row["work_per_move"] = (
        sum(g["work_per_move"] * g["moves"] for g in known) / known_moves if known_moves else None
    )
    row["games_with_work"] = len(known)
    return row


def label(key):
    """'mcts 100 ms, 2 threads' for the setting (agent, time_ms, threads)."""
    agent, time_ms, threads = key
    return f"{agent} {time_ms} ms, {threads} thread{'s' if threads != 1 else ''}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    out_format = ap.add_mutually_exclusive_group()
    out_format.add_argument("--json", action="store_true", help="print the summary as JSON")
    out_format.add_argument("--by-start", action="store_true", help="print every game's score, start by start (markdown)")
    args = ap.parse_args()
    if not Path(args.dir).is_dir():
        sys.exit(f"g2048_series.py: {args.dir} is not a directory")
    series = load(args.dir)
    if not series:
        sys.exit(f"g2048_series.py: no series files in {args.dir}")
    if args.by_start:
        print_by_start(series)
        return
    out = {"settings": [], "pairs": []}
    for key, games in sorted(series.items()):
        row = summary([games[s] for s in sorted(games)])
        row.update(agent=key[0], time_ms=key[1], threads=key[2], seeds=sorted(games))
        out["settings"].append(row)
    keys = sorted(series)
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            common = sorted(set(series[a]) & set(series[b]))
            if not common:
                continue
            wins = sum(series[a][s]["score"] > series[b][s]["score"] for s in common)
            pair = {"a": list(a), "b": list(b), "seeds": common, "a_higher": wins}
            for tag, k in (("a", a), ("b", b)):
                pair[tag + "_summary"] = summary([series[k][s] for s in common])
            out["pairs"].append(pair)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    head = f"{'agent':<11}{'ms':>5}{'thr':>4}{'games':>6}{'mean':>10}{'± s.e.':>9}{'median':>9}"
    head += "".join(f"{t:>7}" for t in TILES) + f"{'ms/move':>9}{'moves':>8}{'work/move':>15}"
    print(head)
    for r in out["settings"]:
        se = "-" if r["se"] is None else f"{r['se']:.0f}"
        line = f"{r['agent']:<11}{r['time_ms']:>5}{r['threads']:>4}{r['games']:>6}{r['mean']:>10.0f}{se:>9}"
        line += f"{r['median']:>9}" + "".join(f"{r[str(t)]:>7.0%}" for t in TILES)
        work = "-" if r["work_per_move"] is None else f"{r['work_per_move']:.0f} ({r['games_with_work']})"
        print(line + f"{r['ms_per_move']:>9.2f}{r['moves_per_game']:>8.0f}{work:>15}")
    for p in out["pairs"]:
        a, b = p["a_summary"], p["b_summary"]
        n = len(p["seeds"])
        starts = "start" if n == 1 else "starts"
        same = "the same start" if n == 1 else f"the same {n} starts"
        print(
            f"\n{label(p['a'])} vs {label(p['b'])} on {same}: "
            f"mean {a['mean']:.0f} vs {b['mean']:.0f}, 16384 {a['16384']:.0%} vs {b['16384']:.0%}, "
            f"higher score from {p['a_higher']} of {n} {starts}"
        )


def print_by_start(series):
    """A markdown table: one row per start, one column per setting, "score (largest tile)" in each cell."""
    keys = sorted(series)
    seeds = sorted(set().union(*(series[k] for k in keys)))
    print("| start | " + " | ".join(label(k) for k in keys) + " |")
    print("|---:|" + "---:|" * len(keys))
    for seed in seeds:
        cells = []
        for k in keys:
            g = series[k].get(seed)
            cells.append("" if g is None else f"{g['score']:,} ({g['max_tile']})".replace(",", " "))
        print(f"| {seed} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
