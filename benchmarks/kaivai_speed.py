"""Kaivai's compiled machine against its reference engine on the same games (issue 61's
targets: at least 100x, and at least 1 000 `greedy` games/s/core at 4 players), CPU seconds
of one process, after a warm-up that compiles (or loads) the kernels.

    .venv/bin/python benchmarks/kaivai_speed.py
    .venv/bin/python benchmarks/kaivai_speed.py --players 3 --games 20000 --reference 200
    .venv/bin/python benchmarks/kaivai_speed.py --strategy random

Both engines play games 0..n-1 of one seed with `--strategy` at every seat (`greedy`, the
default, or `random`); the reference engine plays the first `--reference` of them, and every
seat's final glory is checked equal to the machine's before the rates are printed (a ratio of
engines that play different games is refused). Each engine is timed `--repeat` times in
turn and its best time kept: a shared machine only ever slows a run down.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.engine.reference import Game, RandomStrategy
from moaisim.games.kaivai.rules.model import Rules
from moaisim.strategies.kaivai.greedy import GreedyStrategy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4, choices=(3, 4))
    ap.add_argument("--games", type=int, default=10_000, help="games the machine plays")
    ap.add_argument("--reference", type=int, default=100, help="games the reference plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="greedy", choices=("greedy", "random"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
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
            seats = [GreedyStrategy() if args.strategy == "greedy" else RandomStrategy(s)
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
