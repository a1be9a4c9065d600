"""Kaivai's built-in strategies, each as one seat among a field, on the compiled machine (until
`moaisim versus --game kaivai`): the seat's win share (a k-way tie worth 1/k) with its 95 %
Wilson interval, the seat rotated, at each player count.

    .venv/bin/python benchmarks/kaivai_versus.py
    .venv/bin/python benchmarks/kaivai_versus.py --games 4000 --field builder --seed 3

The candidates are `greedy`, `heuristic`, the four plans and `tuned`; the fields `greedy`
(every other seat) and, with `--field`, any of those (`builder` by default).
"""

from __future__ import annotations

import argparse

from moaisim.analysis.stats import wilson
from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.rules.model import Rules
from moaisim.strategies.kaivai.heuristic import HeuristicStrategy
from moaisim.strategies.kaivai.plans import PLANS
from moaisim.strategies.kaivai.tuned import TunedStrategy

#: The candidates by name.
MADE = {"greedy": lambda: "greedy", "heuristic": HeuristicStrategy,
        **{name: cls for name, cls in PLANS.items()}, "tuned": TunedStrategy}  # fmt: skip


def share(rules: Rules, seat: object, field: object, games: int, seed: int) -> tuple[float, int]:
    """(wins, games) of `seat` as one seat among `field` seats (strategies, or names of the
    machine's compiled ones), rotated: games // P games with it in each seat, game set q of
    seed + q; a k-way tie worth 1/k of a win."""
    p = rules.players
    won, played = 0.0, 0
    for q in range(p):
        lineup = [field] * p
        lineup[q] = seat
        batch = Batch.new(rules, seed + q, range(games // p))
        batch.play(lineup)
        winners = batch.finals()[:, :, 5]
        won += float((winners[:, q] / winners.sum(axis=1)).sum())
        played += len(winners)
    return won, played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="games per candidate and field")
    ap.add_argument("--field", default="builder", choices=sorted(MADE))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for players in (3, 4):
        print(f"{players} players, fair share {1 / players:.3f}; one seat among the field "
              f"({args.games} games each, seed {args.seed}):")  # fmt: skip
        for field in dict.fromkeys(["greedy", args.field]):
            for seat in MADE:
                won, games = share(Rules.make(players), MADE[seat](), MADE[field](), args.games,
                                   args.seed)  # fmt: skip
                lo, hi = wilson(won, games)
                print(f"  {seat:>13} among {field:<9} {won / games:.3f} "
                      f"[{float(lo):.3f}, {float(hi):.3f}]")  # fmt: skip


if __name__ == "__main__":
    main()
