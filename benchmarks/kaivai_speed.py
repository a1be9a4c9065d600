"""Kaivai's compiled machine against its reference engine on the same games (issue 61's
targets: at least 100x, and at least 1 000 `greedy` games/s/core at 4 players), CPU seconds
of one process, after a warm-up that compiles (or loads) the kernels.

    .venv/bin/python benchmarks/kaivai_speed.py
    .venv/bin/python benchmarks/kaivai_speed.py --players 3 --games 20000 --reference 200
    .venv/bin/python benchmarks/kaivai_speed.py --strategy random
    .venv/bin/python benchmarks/kaivai_speed.py --cold

`--cold` measures the first run of a new version instead: a child process with an empty numba
cache folder of its own (NUMBA_CACHE_DIR) plays one 10-game batch, then a second child the
same batch from that cache; it prints each one's CPU seconds (import included) and the cache
folders the first made (Kaivai's kernels and the shared random streams only: no other game's
kernels compile for a Kaivai run).

Both engines play games 0..n-1 of one seed with `--strategy` at every seat (`greedy`, the
default, or `random`); the reference engine plays the first `--reference` of them, and every
seat's final glory is checked equal to the machine's before the rates are printed (a ratio of
engines that play different games is refused). Each engine is timed `--repeat` times in
turn and its best time kept: a shared machine only ever slows a run down.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.engine.reference import Game, RandomStrategy
from moaisim.games.kaivai.rules.model import Rules
from moaisim.strategies.kaivai.plain import PlainGreedy

#: The cold run's child: one 10-game batch, its CPU seconds (import included).
CHILD = """
import time
t0 = time.process_time()
from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.rules.model import Rules
Batch.new(Rules.make(4), 1, range(10)).play(["greedy"] * 4)
print(time.process_time() - t0)
"""


def cold() -> None:
    """The first run's compile, and a warm run after it (the module's docstring)."""
    with tempfile.TemporaryDirectory(prefix="kaivai-cold-") as folder:
        env = {**os.environ, "NUMBA_CACHE_DIR": folder}
        took = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", CHILD], env=env, check=True,
                                 capture_output=True, text=True)  # fmt: skip
            took.append(float(out.stdout.strip().splitlines()[-1]))
        made = sorted(p.name.rsplit("-", 1)[0] for p in Path(folder).iterdir())
    print(
        f"cold first run {took[0]:.1f} s of CPU, warm {took[1]:.1f} s: "
        f"{took[0] - took[1]:.1f} s compiling; cache folders made: {', '.join(made)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4, choices=(3, 4))
    ap.add_argument("--games", type=int, default=10_000, help="games the machine plays")
    ap.add_argument("--reference", type=int, default=100, help="games the reference plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="greedy", choices=("greedy", "random"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cold", action="store_true", help="time the first run's compile instead")
    args = ap.parse_args()
    if args.cold:
        cold()
        return
    rules = Rules.make(args.players)
    names = [args.strategy] * args.players
    Batch.new(rules, args.seed, range(8)).play(names)  # compile (or load) the kernels
    machine = reference = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        batch = Batch.new(rules, args.seed, range(args.games))
        batch.play(names)
        machine = min(machine, time.process_time() - start)
        start = time.process_time()
        glory = []
        for i in range(args.reference):
            seats = [PlainGreedy() if args.strategy == "greedy" else RandomStrategy(s)
                     for s in range(args.players)]  # fmt: skip
            game = Game(rules, seats, args.seed, i)
            game.play()
            glory.append([seat.glory for seat in game.seats])
        reference = min(reference, time.process_time() - start)
    mine = batch.finals()[: args.reference, :, 0]
    if not np.array_equal(mine, np.array(glory)):
        raise SystemExit("the engines played different games: no ratio")
    fast, slow = args.games / machine, args.reference / reference
    print(
        f"{args.players}-player {args.strategy} play, seed {args.seed}: machine "
        f"{fast:,.0f} games/s/core ({args.games:,} games), reference {slow:,.1f} "
        f"games/s/core ({args.reference} games, the same glory): {fast / slow:,.0f}x "
        f"(best of {args.repeat})"
    )


if __name__ == "__main__":
    main()
