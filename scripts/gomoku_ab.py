#!/usr/bin/env python3
"""Plays two canopy Gomoku agents against each other over random openings at fixed budgets.

Each opening (three random stones within two of the centre, from --seed, as scripts/brain_match.py
draws them) is played twice with colours swapped, by `canopy match gomoku --moves OPENING --games 2
--swap --json --seed S`, S being --seed plus the opening's number, so every comparison run with the
same --seed and --openings plays the same openings with the same search seeds. Prints each pair's
result and A's score with a 95% interval (normal approximation over the games' scores 1, 1/2, 0).

    python3 scripts/gomoku_ab.py --a "mcts:playouts=4000" --b "mcts:playouts=1000" --openings 20 \
        --seed 1 -- --threads 1 --no-pin
"""
import argparse, json, math, random, subprocess, sys


def openings(n, size, seed):
    rng = random.Random(seed)
    c = size // 2
    out = []
    for _ in range(n):
        cells = []
        while len(cells) < 3:
            cell = (c + rng.randint(-2, 2), c + rng.randint(-2, 2))
            if cell not in cells:
                cells.append(cell)
        out.append(" ".join(f"{x},{y}" for x, y in cells))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="agent A (as canopy match --black takes it)")
    ap.add_argument("--b", required=True, help="agent B")
    ap.add_argument("--openings", type=int, default=20, help="openings, each played twice")
    ap.add_argument("--first", type=int, default=0, help="skip this many openings of the seed's list")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--canopy", default="target/release/canopy")
    ap.add_argument("--out", help="append every game as a JSON line to this file")
    ap.add_argument("extra", nargs="*", help="options passed to canopy match (after --)")
    args = ap.parse_args()
    scores = []
    wins = draws = losses = 0
    lengths = []
    # Thinking time and searched moves per agent (for the time a budget costs).
    think = {"a": [0.0, 0], "b": [0.0, 0]}
    log = open(args.out, "a") if args.out else None
    for k, opening in enumerate(openings(args.first + args.openings, args.size, args.seed)[args.first:]):
        k += args.first
        cmd = [args.canopy, "match", "gomoku", "--black", args.a, "--white", args.b, "--games", "2", "--swap",
               "--moves", opening, "--size", str(args.size), "--seed", str(args.seed + k), "--json",
               "--no-progress"] + args.extra
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"canopy match failed: {run.stderr.strip()}")
        report = json.loads(run.stdout)
        pair = []
        for g in report["games"]:
            lengths.append(len(g["moves"]))
            for side, agent in enumerate([g["black"], "b" if g["black"] == "a" else "a"]):
                think[agent][0] += g["think_ms"][side]
                think[agent][1] += g["searched_moves"][side]
            if g["winner_agent"] == "a":
                scores.append(1.0); wins += 1; pair.append("a")
            elif g["winner_agent"] == "b":
                scores.append(0.0); losses += 1; pair.append("b")
            else:
                scores.append(0.5); draws += 1; pair.append("=")
            if log:
                log.write(json.dumps({"opening": opening, "seed": args.seed + k, "a": args.a, "b": args.b,
                                      "black": g["black"], "result": g["result"], "moves": g["moves"]}) + "\n")
        print(f"opening {k + 1} ({opening}): {' '.join(pair)}", file=sys.stderr, flush=True)
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    print(f"A {args.a} vs B {args.b}: {n} games, A won {wins}, drew {draws}, lost {losses}; "
          f"A's score {mean:.3f} +- {half:.3f} (95%), mean length {sum(lengths) / n:.1f} moves; "
          f"ms per searched move A {think['a'][0] / max(think['a'][1], 1):.0f}, "
          f"B {think['b'][0] / max(think['b'][1], 1):.0f}")


if __name__ == "__main__":
    main()
