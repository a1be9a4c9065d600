"""Tune Kaivai's weighted heuristic for a player count (a script until `moaisim tune --game
kaivai`, which comes with Kaivai's registration):
CMA-ES (the `cma` library) over the weights in units of their scales (`policy.SCALES`), from
the defaults; a candidate's worth is its seat's win share (a k-way tie worth 1/k) against a
field (`--field`: `greedy`, `heuristic` or a plan, default `builder`, the strongest of the
hand-set points against greedy) on the compiled machine, the seat rotated, every candidate of a
generation on the same games (common random numbers), each generation on new ones. The
result is the search's mean point, checked on fresh games against the field and against the
default heuristic, and written as `tuned-<P>p.toml` with the command, the log and the check.

    .venv/bin/python benchmarks/kaivai_tune.py -p 4 -o strategies/kaivai/weights
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cma
import numpy as np
from kaivai_versus import MADE, share

from moaisim.analysis.stats import wilson
from moaisim.games.kaivai.rules.model import Rules
from moaisim.strategies.kaivai.heuristic import NAMES, SCALES, HeuristicStrategy, defaults
from moaisim.strategies.kaivai.plans import PLANS


def seated(name: str) -> object:
    """A field's seat by name: `greedy`, `heuristic` or a plan."""
    if name not in ("greedy", "heuristic", *PLANS):
        raise SystemExit(f"tune: --field must be greedy, heuristic or {', '.join(PLANS)}")
    return MADE[name]()


def worth(rules: Rules, weights: np.ndarray, games: int, seed: int, field: object) -> float:
    """The heuristic with these weights: its win share as one seat among `field` seats."""
    seat = HeuristicStrategy(weights=dict(zip(NAMES, weights.tolist(), strict=True)))
    won, played = share(rules, seat, field, games, seed)
    return won / played


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-p", "--players", type=int, required=True, choices=(3, 4))
    ap.add_argument("-n", "--games", type=int, default=800, help="games per candidate")
    ap.add_argument("--generations", type=int, default=25)
    ap.add_argument("--check", type=int, default=20_000, help="fresh games of the check")
    ap.add_argument("-s", "--seed", type=int, default=7)
    ap.add_argument("--field", default="builder", help="greedy, heuristic or a plan")
    ap.add_argument("-o", "--out", type=Path, required=True, help="folder of tuned-<P>p.toml")
    a = ap.parse_args(argv)
    rules = Rules.make(a.players)
    field = seated(a.field)
    x0 = np.array([defaults()[k] for k in NAMES]) / SCALES
    es = cma.CMAEvolutionStrategy(x0, 0.5, {"popsize": 12, "seed": a.seed, "verbose": -9})
    log, started = [], time.monotonic()
    for gen in range(1, a.generations + 1):
        xs = es.ask()
        seed = a.seed * 1_000_003 + gen * 1_009
        values = [worth(rules, x * SCALES, a.games, seed, field) for x in xs]
        es.tell(xs, [-v for v in values])
        mean = worth(rules, es.mean * SCALES, a.games, seed, field)
        log.append(f"{gen:4d}  best {max(values):.4f}  median {np.median(values):.4f}  "
                   f"mean {mean:.4f}  sigma {es.sigma:.3f}  "
                   f"{time.monotonic() - started:.0f}s")  # fmt: skip
        print(log[-1], file=sys.stderr)
    tuned = es.mean * SCALES
    check = []
    for name in dict.fromkeys([a.field, "greedy", "heuristic"]):
        seat = HeuristicStrategy(weights=dict(zip(NAMES, tuned.tolist(), strict=True)))
        won, games = share(rules, seat, seated(name), a.check, a.seed + 999_983)
        lo, hi = wilson(won, games)
        check.append(f"against a {name} field: {won / games:.3f} [{float(lo):.3f}, "
                     f"{float(hi):.3f}] of {games} games (fair {1 / a.players:.3f})")  # fmt: skip
        print(check[-1], file=sys.stderr)
    command = " ".join(["python benchmarks/kaivai_tune.py", *(argv or sys.argv[1:])])
    lines = [f"# {command}",
             "# generation: best candidate, median candidate, mean point (win share on the "
             "generation's games), sigma, seconds",
             *(f"# {x}" for x in log), "# the mean point on fresh games (seed + 999983):",
             *(f"#   {x}" for x in check), "[weights]",
             *(f"{k} = {v:.4f}" for k, v in zip(NAMES, tuned, strict=True))]  # fmt: skip
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / f"tuned-{a.players}p.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
