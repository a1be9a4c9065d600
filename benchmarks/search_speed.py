"""How fast `search` decides, with its rollouts on the compiled path and through views.

One `search(worlds=W)` seat plays against `greedy` rivals (its default rollout policy and
opponent model are built-ins, so its candidate x world rollouts can run compiled); the figure
is game-decisions searched per CPU second (`SearchStrategy.searched`, forced and unsearched
decisions not counted). The same games are played twice per setting in one session: once as
`moaisim` plays them (rollouts compiled), once with the compiled path switched off in this
process (every rollout asked through views, as before issue 27); the ratio of the two is the
figure to trust on a shared machine. Both must choose the same actions: the script checks that
the two modes end with the same scores.

    .venv/bin/python benchmarks/search_speed.py                       # 3 and 4 players, W = 32, 128
    .venv/bin/python benchmarks/search_speed.py --players 4 --worlds 32 --games 2
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.seats import Seats
from moaisim.games.moai.rules import Rules
from moaisim.registry import parse_lineup


@contextmanager
def views_only() -> Iterator[None]:
    """Switch the compiled path off in this process: no seat offers a compiled policy."""
    original = Seats.policies
    Seats.policies = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        Seats.policies = original  # type: ignore[method-assign]


def timed(players: int, worlds: int, games: int, seed: int) -> tuple[float, int, np.ndarray]:
    """CPU seconds, decisions searched and final scores of `games` games with search in seat 0."""
    rules = Rules.make(players)
    lineup = f"search(worlds={worlds})," + ",".join(["greedy"] * (players - 1))
    seated = [spec() for spec in parse_lineup(lineup, players)]
    batch = Games.new(rules, seed, np.arange(games))
    start = time.process_time()
    batch.play(seated)
    return time.process_time() - start, seated[0].searched, batch.scores()


def main() -> None:
    """Time each (players, worlds) setting in both modes, in turn, best of `--repeat`."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="3,4", help="player counts, comma-separated")
    ap.add_argument("--worlds", default="32,128", help="worlds per decision, comma-separated")
    ap.add_argument("--games", type=int, default=2, help="games per timing (one batch)")
    ap.add_argument("--repeat", type=int, default=2, help="timings per mode; the best is kept")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print("| players | worlds | games | decisions | compiled dec/s | views dec/s | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for p in (int(x) for x in a.players.split(",")):
        for w in (int(x) for x in a.worlds.split(",")):
            timed(p, w, 1, a.seed + 1)  # warm-up: load the kernels
            best = {"compiled": np.inf, "views": np.inf}
            decided, scores = {}, {}
            for _ in range(a.repeat):
                for mode in best:
                    if mode == "views":
                        with views_only():
                            cpu, n, s = timed(p, w, a.games, a.seed)
                    else:
                        cpu, n, s = timed(p, w, a.games, a.seed)
                    best[mode] = min(best[mode], cpu)
                    decided[mode], scores[mode] = n, s
            if decided["compiled"] != decided["views"] or not np.array_equal(
                scores["compiled"], scores["views"]
            ):
                raise SystemExit(f"{p}p worlds={w}: the two modes played different games")
            n = decided["compiled"]
            fast, slow = n / best["compiled"], n / best["views"]
            print(f"| {p} | {w} | {a.games} | {n} | {fast:.1f} | {slow:.1f} | {fast / slow:.2f} |",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
