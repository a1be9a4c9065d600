"""Rapa Nui's fast machine against its reference engine on the same games (issue 43's targets:
at least 100x, and at least 5 000 `greedy` games/s/core at 4 players), CPU seconds of one
process, after a warm-up that compiles the kernels.

    .venv/bin/python benchmarks/rapa_nui_speed.py
    .venv/bin/python benchmarks/rapa_nui_speed.py --players 3 --games 50000 --reference 500
    .venv/bin/python benchmarks/rapa_nui_speed.py --strategy greedy

Both engines play games 0..n-1 of one seed with `--strategy` at every seat (`random`, the
default, or any Rapa Nui strategy spec); the reference engine plays the first `--reference`
of them, and their scores are checked equal to the machine's before the rates are printed (a
ratio of engines that play different games is refused).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from moaisim.games.rapa_nui.engine.batch import Batch
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.rules import Rules
from moaisim.registry import load_strategy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=20_000, help="games the machine plays")
    ap.add_argument("--reference", type=int, default=300, help="games the reference plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="random", help="the strategy at every seat")
    args = ap.parse_args()
    rules = Rules.make(args.players)
    seats = [load_strategy(args.strategy, "rapa-nui")() for _ in range(args.players)]
    Batch(rules, args.seed, range(8)).play(seats)  # compile (or load) the kernels
    start = time.process_time()
    table = Batch(rules, args.seed, range(args.games)).play(seats)
    machine = time.process_time() - start
    start = time.process_time()
    scores = []
    for i in range(args.reference):
        game = ReferenceGame(rules, seats, seed=args.seed, game=i)
        game.play()
        scores.append(game.scores)
    reference = time.process_time() - start
    mine = table["score"].to_numpy().reshape(args.games, args.players)[: args.reference]
    if not np.array_equal(mine, np.array(scores)):
        raise SystemExit("the engines played different games: no ratio")
    fast, slow = args.games / machine, args.reference / reference
    print(
        f"{args.players}-player {args.strategy} play, seed {args.seed}: machine "
        f"{fast:,.0f} games/s/core ({args.games:,} games), reference {slow:,.1f} "
        f"games/s/core ({args.reference} games, the same scores): {fast / slow:,.0f}x"
    )


if __name__ == "__main__":
    main()
