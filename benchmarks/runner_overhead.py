"""What the runner adds over the engine, measured side by side.

Plays the same N four-player games (seed 0, games 0..N-1) in turn: by the engine alone
(`Games.new(...).play(...)` in batches of 10 000, in this process, after a warm-up) and by
`moaisim simulate -j 1` writing a run directory (a fresh process: its start-up, the results
tables, the Parquet parts and their checksums included). Each is timed `--repeat` times by
the wall clock, alternating, and the best of each is kept; the runner's overhead is its best
time over the engine's, minus one.

    .venv/bin/python benchmarks/runner_overhead.py --games 200000
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--lineup", default="greedy")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    if args.games < 10_000 or args.games % 10_000:
        raise SystemExit("--games must be a positive multiple of 10 000")

    import numpy as np

    from moaisim.games.moai.engine.forward import Games
    from moaisim.games.moai.rules import Rules
    from moaisim.registry import parse_lineup

    rules, specs = Rules.make(4), parse_lineup(args.lineup, 4)
    Games.new(rules, 0, np.arange(100)).play([s() for s in specs])  # load the kernels
    engine, runner = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for a in range(0, args.games, 10_000):
            Games.new(rules, 0, np.arange(a, a + 10_000)).play([s() for s in specs])
        engine.append(time.perf_counter() - start)
        with tempfile.TemporaryDirectory() as tmp:
            argv = [sys.executable, "-m", "moaisim.cli", "simulate", "-p", "4", "-n",
                    str(args.games), "--strategies", args.lineup, "-s", "0", "-j", "1",
                    "-o", str(Path(tmp) / "run"), "-q"]  # fmt: skip
            start = time.perf_counter()
            subprocess.run(argv, check=True)
            runner.append(time.perf_counter() - start)
        print(f"engine {engine[-1]:.1f} s, runner {runner[-1]:.1f} s", file=sys.stderr)
    e, r = min(engine), min(runner)
    print(f"{args.games:,} four-player {args.lineup} games, best of {args.repeat}: engine "
          f"{e:.1f} s ({args.games / e:,.0f} games/s), runner --jobs 1 {r:.1f} s "
          f"({args.games / r:,.0f} games/s): {(r / e - 1):+.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
