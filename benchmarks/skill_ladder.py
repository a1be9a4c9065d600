"""The skill ladder of `search`: its strength and its cost at each budget.

    .venv/bin/python benchmarks/skill_ladder.py [--worlds 8,32,128] [--fields L3,tuned,greedy]
                                                [--players 3,4] [--games 60] [--seed 20261201]
                                                [--jobs 2] [--search 'search(horizon=1)']

For each budget W (`search(worlds=W)`), field F (a strategy, or a skill level such as L3:
that player count's shipped field) and player count P: one search seat among P - 1 copies
of F, seats rotated (game i has the search seat at i mod P), `--games` games on root seed
`--seed`. Reports the search seat's win share (a win shared by k counts 1/k) with
its Wilson 95 % interval and its difference from the fair 1/P, and the cost: CPU seconds per
game of the whole game (the field's play included, almost all of it the search's), searched
decisions per game, decisions searched per CPU second and rollouts (game copies played) per
game. Markdown goes to stdout, headed by the command line; progress to stderr.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from dataclasses import dataclass

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from joblib import Parallel, delayed  # noqa: E402

from moaisim import Games  # noqa: E402
from moaisim.analysis.stats import wilson  # noqa: E402
from moaisim.games.moai.rules import Rules  # noqa: E402
from moaisim.registry import LEVELS, level_spec, load_strategy, parse_spec  # noqa: E402


@dataclass
class Cell:
    """One seat's part of a ladder cell: its games' win shares and costs."""

    shares: np.ndarray
    cpu: float
    searched: int
    rollouts: int


def play_seat(spec: str, field: str, players: int, seat: int, games: np.ndarray,
              seed: int) -> Cell:  # fmt: skip
    """The games `games` with the search in `seat` and the field elsewhere, in one batch."""
    strategies = [load_strategy(spec if q == seat else field_spec(field, players))()
                  for q in range(players)]  # fmt: skip
    t = time.process_time()
    g = Games.new(Rules.make(players), seed, games).play(strategies)
    cpu = time.process_time() - t
    s = strategies[seat]
    return Cell(g.returns()[:, seat].copy(), cpu, s.searched, s.rollouts)


def field_spec(field: str, players: int) -> str:
    """A field's spec at this player count: a skill level (L0-L4) is its level's strategy
    there (`level_spec`: L3 is that count's shipped Nash mixture), anything else itself."""
    return level_spec(field, players, game="moai") if field in LEVELS else field


def budget_spec(base: str, worlds: int) -> str:
    """`base` (a search spec) with worlds=W."""
    name, params = parse_spec(base)
    params["worlds"] = worlds
    inside = ",".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in params.items())
    return f"{name}({inside})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", default="8,32,128", help="budgets, comma-separated")
    parser.add_argument("--fields", default="L3,tuned", help="fields (strategies or skill levels)")
    parser.add_argument("--players", default="3,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=60, help="games per cell")
    parser.add_argument("--seed", type=int, default=20261201, help="root seed")
    parser.add_argument("--jobs", type=int, default=2, help="parallel processes")
    parser.add_argument("--search", default="search", help="the search spec (worlds is set)")
    args = parser.parse_args(argv)
    try:
        budgets = [int(x) for x in args.worlds.split(",")]
        counts = [int(x) for x in args.players.split(",")]
    except ValueError:
        parser.error("--worlds and --players take comma-separated integers")
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    if args.games < 1 or any(w < 1 for w in budgets) or any(not 2 <= p <= 5 for p in counts):
        parser.error("--games and --worlds must be positive, --players from 2 to 5")
    for f in [*fields, budget_spec(args.search, 1)]:
        for p in counts:
            load_strategy(field_spec(f, p))  # a bad name fails here, in one line
    tasks = []
    for w in budgets:
        for f in fields:
            for p in counts:
                every = np.arange(args.games)
                for seat in range(p):
                    mine = every[every % p == seat]
                    if len(mine):
                        tasks.append(((w, f, p), budget_spec(args.search, w), f, p, seat, mine))
    print(f"skill ladder: {len(tasks)} batches on {args.jobs} processes", file=sys.stderr)
    start = time.perf_counter()
    cells = Parallel(n_jobs=args.jobs, verbose=5)(
        delayed(play_seat)(spec, f, p, seat, mine, args.seed) for _, spec, f, p, seat, mine in tasks
    )
    wall = time.perf_counter() - start
    by: dict[tuple, list[Cell]] = {}
    for (key, *_), cell in zip(tasks, cells, strict=True):
        by.setdefault(key, []).append(cell)
    print(f"Command: `{shlex.join(['benchmarks/skill_ladder.py', *(argv or sys.argv[1:])])}` "
          f"({wall / 60:.0f} min wall on {args.jobs} processes)")  # fmt: skip
    print()
    print(f"`{args.search}` with `worlds` = W in one seat against P - 1 copies of the field, "
          f"seats rotated, {args.games} games per row (root seed {args.seed}). Win share: a win "
          "shared by k counts 1/k; 95 % Wilson interval. Cost: CPU seconds per game on one "
          "core (almost all of it the search's), searched decisions per game, searched "
          "decisions per CPU second, rollouts (game copies played) per game.")  # fmt: skip
    print()
    print(
        "| W | field | P | win share | 95 % interval | vs fair | s/game | decisions/game "
        "| decisions/s | rollouts/game |"
    )
    print("| ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for (w, f, p), parts in by.items():
        shares = np.concatenate([c.shares for c in parts])
        n, k = len(shares), float(shares.sum())
        low, high = (float(x) for x in wilson(k, n))
        cpu = sum(c.cpu for c in parts)
        searched = sum(c.searched for c in parts)
        rollouts = sum(c.rollouts for c in parts)
        share = f"{k / n:.3f} | [{low:.3f}, {high:.3f}] | {k / n - 1 / p:+.3f}"
        cost = f"{cpu / n:.2f} | {searched / n:.0f} | {searched / cpu:.0f} | {rollouts / n:,.0f}"
        print(f"| {w} | {f} | {p} | {share} | {cost} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
