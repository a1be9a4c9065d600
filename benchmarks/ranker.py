"""How strong and how fast is a learned ranker, against L3 and beside it? (issue 59)

A ranker (`learned` with mode "ranker", made by `moaisim learn --mode ranker`) asks each of
its experts at every decision and values their proposals with boosted trees. This script
measures, for one model file at its player count (`--game`: any game with a ranker; Moai's
by default):

- **speed**, in one run (the machine is shared: compare the ratios, not the rates): games per
  second per core (CPU seconds of this process, the best of `--repeat`) of L3 in every seat,
  of the ranker in every seat, of the ranker in one seat against L3, and of the ranker
  without its trees (its experts asked, the first one's proposal played: what the trees add);
- **strength**: the ranker's win share against L3 (one seat, seats rotated, `--games` games
  per rotation, root seed `--seed`, a Wilson interval), beside the fair share;
- with `--search N`: the win share and CPU seconds a game of search over the ranker's
  experts with the ranker as its rollout policy (`search(propose=ranker, rollout=ranker)`),
  and of the shipped search (L4), on N games per rotation.

    .venv/bin/python benchmarks/ranker.py                      # the shipped 3-player ranker
    .venv/bin/python benchmarks/ranker.py --model out/learned-4p.json --games 500 --search 100
    .venv/bin/python benchmarks/ranker.py --game kaivai --model ranker-3p.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from moaisim import learned_model
from moaisim.games import load_game
from moaisim.registry import level_or_spec, load_strategy, parse_lineup
from moaisim.studies import tune


def speed(players: int, lineup: str, games: int, repeat: int, game: str) -> float:
    """Games per second per core of this lineup (the best of `repeat` timed runs)."""
    spec = load_game(game)
    spec.Games.new(spec.make_rules(players), 1, np.arange(20)).play(
        [s() for s in parse_lineup(lineup, players, game)]
    )
    best = np.inf
    for _ in range(repeat):
        seats = [s() for s in parse_lineup(lineup, players, game)]
        start = time.process_time()
        spec.Games.new(spec.make_rules(players), 2, np.arange(games)).play(seats)
        best = min(best, time.process_time() - start)
    return games / best


def strength(players: int, spec: str, field: str, games: int, seed: int,
             game: str) -> tuple[str, float]:  # fmt: skip
    """The seat's win share against the field, its interval, and CPU seconds a game."""
    start = time.process_time()
    s = tune.strength(players, spec, load_strategy(field, game), games, seed, game=game)
    cpu = (time.process_time() - start) / s.games
    return f"{s.share:.3f} [{s.low:.3f}, {s.high:.3f}] | {s.games:,}", cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="moai", help="the game (moai, rapa-nui, kaivai)")
    ap.add_argument("--model", default="ranker-3p.json", help="a model file (shipped: its name)")
    ap.add_argument("--speed-games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--games", type=int, default=1000, help="strength games per rotation")
    ap.add_argument("--seed", type=int, default=9090)
    ap.add_argument("--search", type=int, default=0, help="search games per rotation (0: none)")
    a = ap.parse_args()
    home = tune.weights_home(a.game)
    path = learned_model.named_path(a.model, lambda name: home / name)
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    p = int(doc["players"])
    ranker = f"learned(model={str(path)!r})"
    folder = tempfile.TemporaryDirectory()
    blank = Path(folder.name) / f"ranker-blank-{p}p.json"
    blank.write_text(json.dumps({**doc, "ensembles": [{"constant": 0.0, "trees": []}]}))
    plain = f"learned(model={str(blank)!r})"
    l3 = level_or_spec("L3", p, a.game)
    print(f"# {path.name}: {p} players, {len(doc['experts'])} experts, "
          f"{len(doc['ensembles'][0]['trees'])} trees\n")  # fmt: skip
    print("| lineup | games/s/core | against L3 everywhere |\n| --- | ---: | ---: |")
    base = speed(p, ",".join([l3] * p), a.speed_games, a.repeat, a.game)
    print(f"| L3 everywhere | {base:,.0f} | 1.00 |", flush=True)
    lineups = [
        ("the ranker everywhere", ",".join([ranker] * p)),
        ("the ranker in one seat, L3", ",".join([ranker] + [l3] * (p - 1))),
        ("the ranker without trees everywhere", ",".join([plain] * p)),
    ]
    for label, lineup in lineups:
        rate = speed(p, lineup, a.speed_games, a.repeat, a.game)
        print(f"| {label} | {rate:,.0f} | {rate / base:.2f} |", flush=True)
    print(
        f"\n| seat (one, against L3; fair {1 / p:.3f}) | win share [95%] | games | CPU s a game |"
    )
    print("| --- | --- | ---: | ---: |")
    seats = [("L3", l3, a.games), ("the ranker", ranker, a.games),
             ("the ranker without trees (its first expert's)", plain, a.games)]  # fmt: skip
    if a.search:
        over = f"search(propose={ranker!r}, rollout={ranker!r})"
        seats += [("search over the ranker, its rollouts", over, a.search),
                  ("search (L4)", "search", a.search)]  # fmt: skip
    for label, spec, games in seats:
        got, cpu = strength(p, spec, l3, games, a.seed, a.game)
        print(f"| {label} | {got} | {cpu:.4f} |", flush=True)


if __name__ == "__main__":
    main()
