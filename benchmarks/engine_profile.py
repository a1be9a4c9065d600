"""Where the batch engine's time goes: a cProfile of one batch, grouped by part.

    .venv/bin/python benchmarks/engine_profile.py [--players 4] [--lineup greedy] [--games 10000]

Plays a warm-up batch (numba's kernels loaded), then `--games` games of root seed 0 in one
batch under cProfile (on the compiled path when every seat is a built-in: then the play is
one numba call, opaque to cProfile, and `--views` profiles the path user strategies take),
and sums each function's own time (tottime) by part: each phase of the engine (bird-man,
epoch, work, production, review: the masks and the applied answers), the machine (the run
queue, the decisions' grouping and checks), the views (what a strategy is shown), the
strategies' own code, the random streams, numpy and the rest. Markdown to stdout, headed by
the command line. (cProfile adds a few percent per Python call; py-spy, a sampling
profiler, gives the same ranking without that cost: `py-spy record -o out.svg --
.venv/bin/python benchmarks/engine_profile.py`.)
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shlex
import sys
import time
from collections import Counter

import numpy as np

from moaisim import Games
from moaisim.games.moai.rules import Rules
from moaisim.registry import parse_lineup

#: File name (or path part) -> the part it belongs to, first match wins.
PARTS = (
    ("games/moai/engine/batch/birdman.py", "phase: bird-man (R3)"),
    ("games/moai/engine/batch/epoch.py", "phase: epoch (R4)"),
    ("games/moai/engine/batch/work.py", "phase: work (R5)"),
    ("games/moai/engine/batch/production.py", "phase: production (R6)"),
    ("games/moai/engine/batch/review.py", "phase: review (R7)"),
    ("games/moai/engine/batch/", "machine: queue, decisions, results"),
    ("games/moai/engine/compiled/", "compiled path (numba: every step and decision, one call)"),
    ("games/moai/engine/views.py", "views shown to strategies"),
    ("games/moai/engine/answers.py", "answer checks"),
    ("engine/", "engine: other"),
    ("moaisim/rng.py", "random streams"),
    ("strategies/", "strategies' own code"),
    ("numpy", "numpy (called from all of the above)"),
)


def part_of(path: str, name: str) -> str:
    if path.startswith("~") or path == "~":
        return "built-ins (called from all of the above)"
    for key, label in PARTS:
        if key in path:
            return label
    return "other"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--lineup", default="greedy")
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument(
        "--views",
        action="store_true",
        help="ask the strategies through views (the path user strategies take)",
    )
    args = ap.parse_args(argv)
    try:
        rules = Rules.make(args.players)
        specs = parse_lineup(args.lineup, args.players)
    except Exception as exc:  # one line for a user mistake
        sys.exit(f"profile: {exc}")
    if args.games < 1:
        sys.exit("profile: --games must be at least 1")
    compiled = not args.views
    Games.new(rules, 0, np.arange(min(args.games, 2000))).play([s() for s in specs],
                                                               compiled=compiled)  # fmt: skip
    prof = cProfile.Profile(time.process_time)  # CPU time: a shared machine's load left out
    t = time.process_time()
    prof.enable()
    Games.new(rules, 0, np.arange(args.games)).play([s() for s in specs], compiled=compiled)
    prof.disable()
    cpu = time.process_time() - t
    by: Counter[str] = Counter()
    for (path, _line, name), (_cc, _nc, tt, _ct, _callers) in pstats.Stats(prof).stats.items():
        by[part_of(path, name)] += tt
    total = sum(by.values())
    given = shlex.join(argv or sys.argv[1:])
    print(f"Command: `python benchmarks/engine_profile.py {given}`\n")
    path = "through views" if args.views else "on the compiled path where the lineup allows"
    print(f"{args.players} players, `{args.lineup}`, {args.games:,} games in one batch {path}: "
          f"{cpu:.2f} CPU s under the profiler ({args.games / cpu:,.0f} games/s).\n")  # fmt: skip
    print("| part | own time s | share |")
    print("| --- | ---: | ---: |")
    for part, sec in by.most_common():
        print(f"| {part} | {sec:.2f} | {sec / total:.0%} |")


if __name__ == "__main__":
    main()
