"""Whether the engine itself scales to both cores: the same games timed in one process alone
and in two processes at once.

Each child process loads the kernels (a warm-up), then plays games 0..N-1 of seed 0 in
batches of 10 000 and prints the wall seconds of that play. One child alone, then two
children started together, `--repeat` times in turn; the best of each is kept. Two
processes at once taking as long as one alone is a speed-up of 2.0x for the engine: what
`moaisim simulate --jobs 2` loses beyond that is the runner's own.

    .venv/bin/python benchmarks/engine_scaling.py --games 60000
"""

from __future__ import annotations

import argparse
import subprocess
import sys

CHILD = """
import sys, time
import numpy as np
from moaisim.games.moai.engine.forward import Games
from moaisim.registry import parse_lineup
from moaisim.games.moai.rules import Rules
rules, specs = Rules.make(4), parse_lineup(sys.argv[2], 4)
Games.new(rules, 0, np.arange(100)).play([s() for s in specs])
n = int(sys.argv[1])
start = time.perf_counter()
for a in range(0, n, 10_000):
    Games.new(rules, 0, np.arange(a, min(n, a + 10_000))).play([s() for s in specs])
print(time.perf_counter() - start)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60_000)
    parser.add_argument("--lineup", default="greedy")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    if args.games < 1 or args.repeat < 1:
        raise SystemExit("--games and --repeat must be positive")
    argv = [sys.executable, "-c", CHILD, str(args.games), args.lineup]

    def wall(procs: list[subprocess.Popen]) -> float:
        return max(float(p.communicate()[0]) for p in procs)

    alone, together = [], []
    for _ in range(args.repeat):
        alone.append(wall([subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)]))
        pair = [subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) for _ in range(2)]
        together.append(wall(pair))
        print(f"alone {alone[-1]:.2f} s, two at once {together[-1]:.2f} s", file=sys.stderr)
    a, t = min(alone), min(together)
    print(f"{args.games:,} four-player {args.lineup} games per process, best of "
          f"{args.repeat}: one process {a:.2f} s, two at once {t:.2f} s (the slower): "
          f"{2 * a / t:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
