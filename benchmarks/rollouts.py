"""Rollout speed: the batch engine started from mid-game positions, as `search` uses it.

    .venv/bin/python benchmarks/rollouts.py [--players 4] [--lineup greedy] [--start-round 3]
                                            [--batches 500,1000,2000,5000] [--full 10000]
                                            [--repeat 3] [--seed 0]

A search plays many short games from one position: copies of a game in mid-play (the
forward model's `Games.clone(rows, seed=...)`, the copies drawing their chance from a stream
space of their own), played to the end by a rollout policy. This measures what one such
batch costs against playing whole games:

- full: `--full` games from their start, in one batch (as `moaisim.simulate` plays them);
- rollouts: `--positions` (64) games played to the end of round `--start-round`, then for
  each batch size B, B copies of them (each position repeated, as a search's worlds),
  played to the end.

The unit is the game-round (a game playing one round): full games' rounds, and the rounds
the copies play after their start. Each configuration is timed `--repeat` times (best kept,
CPU seconds of this process); the table gives game-rounds per CPU second and the ratio of
each rollout batch's rate to the full games' rate (issue goal: at least 0.8 for B from 500
to 5 000). Markdown goes to stdout, headed by the command line.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from moaisim import Games  # noqa: E402
from moaisim.games.moai.rules import Rules  # noqa: E402
from moaisim.registry import parse_lineup  # noqa: E402


def full_rate(rules: Rules, lineup: str, n: int, seed: int) -> tuple[float, float]:
    """(game-rounds per CPU second, rounds per game) of n whole games in one batch."""
    specs = parse_lineup(lineup, rules.players)
    games = Games.new(rules, seed, np.arange(n))
    t = time.process_time()
    games.play([s() for s in specs])
    cpu = time.process_time() - t
    rounds = float(games.state.round.sum())
    return rounds / cpu, rounds / n


def rollout_rate(
    rules: Rules, lineup: str, start: Games, batch: int, start_round: int, seed: int
) -> float:
    """Game-rounds per CPU second of `batch` copies of the positions `start`, played on."""
    specs = parse_lineup(lineup, rules.players)
    rows = np.arange(batch) % len(start)
    t = time.process_time()
    copies = start.clone(rows, seed=seed)
    copies.play([s() for s in specs])
    cpu = time.process_time() - t
    return float((copies.state.round.astype(np.int64) - start_round).sum()) / cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--lineup", default="greedy")
    ap.add_argument("--start-round", type=int, default=3)
    ap.add_argument("--positions", type=int, default=64)
    ap.add_argument("--batches", default="500,1000,2000,5000")
    ap.add_argument("--full", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        batches = [int(x) for x in args.batches.split(",")]
        rules = Rules.make(args.players)
        parse_lineup(args.lineup, args.players)
    except Exception as exc:  # one line for a user mistake
        sys.exit(f"rollouts: {exc}")
    if min(batches + [args.full, args.positions, args.repeat]) < 1 or args.start_round < 1:
        sys.exit("rollouts: batch sizes, --full, --positions, --repeat, --start-round must be >= 1")

    specs = parse_lineup(args.lineup, args.players)
    start = Games.new(rules, args.seed, np.arange(args.positions))
    start.play([s() for s in specs], last_round=args.start_round)
    if start.over().any():
        sys.exit(f"rollouts: some games end by round {args.start_round}; pick an earlier one")
    full_rate(rules, args.lineup, 500, args.seed)  # warm-up: numba's kernels loaded
    rollout_rate(rules, args.lineup, start, 500, args.start_round, args.seed + 1)

    full, per_game = 0.0, 0.0
    best = dict.fromkeys(batches, 0.0)
    for rep in range(args.repeat):
        rate, per_game = full_rate(rules, args.lineup, args.full, args.seed)
        full = max(full, rate)
        for b in batches:
            best[b] = max(best[b], rollout_rate(rules, args.lineup, start, b, args.start_round,
                                                args.seed + 1))  # fmt: skip
        print(f"repeat {rep + 1}/{args.repeat} done", file=sys.stderr)

    print("Command: `python benchmarks/rollouts.py " + shlex.join(argv or sys.argv[1:]) + "`\n")
    print(f"{args.players} players, `{args.lineup}`; full games: {args.full:,} in one batch, "
          f"{per_game:.2f} rounds per game; rollouts start after round {args.start_round}, "
          f"copies of {args.positions} positions.\n")  # fmt: skip
    print("| batch | game-rounds/s/core | vs full games |")
    print("| --- | ---: | ---: |")
    print(f"| full games ({args.full:,}) | {full:,.0f} | 1.00 |")
    for b in batches:
        print(f"| rollouts ({b:,}) | {best[b]:,.0f} | {best[b] / full:.2f} |")


if __name__ == "__main__":
    main()
