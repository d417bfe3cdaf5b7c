#!/usr/bin/env python3
"""Plays two Gomocup (pbrain) brains against each other and reports the score.

Each opening (three random stones near the centre, from --seed) is played twice, colours swapped.
The referee checks every move and decides wins (five or more in a row, freestyle) and draws (full board).

    python3 scripts/brain_match.py --a "target/release/canopy gomocup" \
        --b "target/release/canopy gomocup --no-reuse" --games 20 --turn-ms 200
"""
import argparse, random, shlex, subprocess, sys

def five(stones, x, y):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while (cx, cy) in stones:
                n += 1; cx += s * dx; cy += s * dy
        if n >= 5:
            return True
    return False

class Brain:
    def __init__(self, cmd, size, turn_ms):
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(f"START {size}"); assert self.answer() == "OK"
        self.send(f"INFO timeout_turn {turn_ms}")
    def send(self, line):
        self.p.stdin.write(line + "\n"); self.p.stdin.flush()
    def answer(self):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("brain exited")
            line = line.strip()
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line
    def close(self):
        try:
            self.send("END"); self.p.wait(timeout=5)
        except Exception:
            self.p.kill()

def joined(cmd, size, turn_ms, stones, side):
    """A brain started on the position `stones` (cell -> side) by BOARD, to move as `side`."""
    brain = Brain(cmd, size, turn_ms)
    brain.send("BOARD")
    for (x, y), who in stones.items():
        brain.send(f"{x},{y},{1 if who == side else 2}")
    brain.send("DONE")
    return brain

def play(cmds, size, turn_ms, opening):
    """Plays one game with cmds[0] as black; returns the winner's index (0/1) or None."""
    stones = {}
    for i, cell in enumerate(opening):
        stones[cell] = i % 2
    mover = len(opening) % 2
    # The brain to move gets the position by BOARD; the other joins once it has a move to answer.
    brains = [None, None]
    brains[mover] = joined(cmds[mover], size, turn_ms, stones, mover)
    try:
        while True:
            x, y = map(int, brains[mover].answer().split(","))
            if (x, y) in stones or not (0 <= x < size and 0 <= y < size):
                return 1 - mover  # an illegal move loses
            stones[(x, y)] = mover
            if five(stones, x, y):
                return mover
            if len(stones) == size * size:
                return None
            other = 1 - mover
            if brains[other] is None:
                brains[other] = joined(cmds[other], size, turn_ms, stones, other)
            else:
                brains[other].send(f"TURN {x},{y}")
            mover = other
    finally:
        for b in brains:
            if b:
                b.close()

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True); ap.add_argument("--b", required=True)
    ap.add_argument("--games", type=int, default=20); ap.add_argument("--turn-ms", type=int, default=200)
    ap.add_argument("--size", type=int, default=15); ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    c = args.size // 2
    score = {"a": 0.0, "b": 0.0}; results = []
    for g in range(args.games):
        if g % 2 == 0:
            cells = set()
            while len(cells) < 3:
                cells.add((c + rng.randint(-2, 2), c + rng.randint(-2, 2)))
            opening = list(cells)
        a_black = g % 2 == 0
        cmds = [args.a, args.b] if a_black else [args.b, args.a]
        w = play(cmds, args.size, args.turn_ms, opening)
        if w is None:
            score["a"] += 0.5; score["b"] += 0.5; r = "draw"
        else:
            winner = "a" if (w == 0) == a_black else "b"
            score[winner] += 1; r = winner
        results.append(r)
        print(f"game {g + 1}: A {'black' if a_black else 'white'}, winner {r}", file=sys.stderr, flush=True)
    print(f"A {score['a']} - B {score['b']} in {args.games} games ({' '.join(results)})")

if __name__ == "__main__":
    main()
