#!/usr/bin/env python3
"""Plays two Gomocup (pbrain) engines against each other, both colours per opening, and prints one JSON
line per game and A's total. Openings: three random stones within two cells of the centre, White to move
(scripts/gomoku_ab.py's for the same seed). Freestyle: five or more in a row wins; a full board is a draw;
an occupied or off-board move loses. Each engine gets the position with BOARD on its first move and the
opponent's moves with TURN after that.

    python3 pbrain_duel.py "CMD_A" "CMD_B" --openings 20 --seed 1 [--first K] [--size 15]

The protocol flow is scripts/brain_match.py's; this copy exists to reproduce the series recorded in
docs/data/strength/gomoku15-p20000-t1-uct1-vs-uct2.jsonl, whose openings are scripts/gomoku_ab.py's (its
stones in the order drawn, which sets their colours; brain_match.py draws them into a set) and which
sends no time limit. New series should use scripts/brain_match.py.
"""
import argparse, random, shlex, subprocess, sys, json

def five(board, size, x, y, c):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            i, j = x + s * dx, y + s * dy
            while 0 <= i < size and 0 <= j < size and board.get((i, j)) == c:
                n += 1
                i += s * dx
                j += s * dy
        if n >= 5:
            return True
    return False

class Engine:
    def __init__(self, cmd, size):
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(f"START {size}")
        self.expect_ok()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed")
            line = line.strip()
            if line.startswith(("MESSAGE", "DEBUG", "UNKNOWN", "ERROR")) or not line:
                continue
            return line

    def expect_ok(self):
        r = self.read()
        if r != "OK":
            raise RuntimeError(f"expected OK, got {r}")

    def move(self):
        r = self.read()
        x, y = r.split(",")
        return int(x), int(y)

    def close(self):
        try:
            self.send("END")
        except Exception:
            pass
        self.p.kill()

def play(cmd_black, cmd_white, opening, size):
    """Returns 'black', 'white' or 'draw'. Opening stones alternate from Black."""
    board = {}
    for k, (x, y) in enumerate(opening):
        board[(x, y)] = 1 + (k % 2)
    engines = {1: Engine(cmd_black, size), 2: Engine(cmd_white, size)}
    try:
        to_move = 1 + (len(opening) % 2)
        # Each engine gets the position with BOARD (field 1 = own stone, 2 = opponent's).
        e = engines[to_move]
        e.send("BOARD")
        for (x, y), c in board.items():
            e.send(f"{x},{y},{1 if c == to_move else 2}")
        e.send("DONE")
        first_of_other = True
        while True:
            x, y = e.move()
            if (x, y) in board or not (0 <= x < size and 0 <= y < size):
                return "white" if to_move == 1 else "black"  # illegal move loses
            board[(x, y)] = to_move
            if five(board, size, x, y, to_move):
                return "black" if to_move == 1 else "white"
            if len(board) == size * size:
                return "draw"
            other = 3 - to_move
            o = engines[other]
            if first_of_other:
                o.send("BOARD")
                for (i, j), c in board.items():
                    o.send(f"{i},{j},{1 if c == other else 2}")
                o.send("DONE")
                first_of_other = False
            else:
                o.send(f"TURN {x},{y}")
            to_move, e = other, o
    finally:
        for en in engines.values():
            en.close()

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--openings", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--first", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    results = []
    score_a = 0.0
    for n in range(args.openings):
        # Three random stones within two cells of the centre, White to move (scripts/gomoku_ab.py's
        # openings for the same seed).
        c = args.size // 2
        opening = []
        while len(opening) < 3:
            cell = (c + rng.randint(-2, 2), c + rng.randint(-2, 2))
            if cell not in opening:
                opening.append(cell)
        if n < args.first:
            continue
        for a_black in (True, False):
            black, white = (args.a, args.b) if a_black else (args.b, args.a)
            r = play(black, white, opening, args.size)
            a_score = {"draw": 0.5, "black": 1.0 if a_black else 0.0, "white": 0.0 if a_black else 1.0}[r]
            score_a += a_score
            results.append({"opening": n, "a_black": a_black, "result": r, "a_score": a_score})
            print(json.dumps(results[-1]), flush=True)
    print(json.dumps({"games": len(results), "a_score": score_a}), flush=True)

if __name__ == "__main__":
    main()
