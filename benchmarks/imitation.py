"""Can a model of search's choices among its own candidates play as search does? (issue 59)

Moai's search tries, at each decision it searches, a few candidates: the rollout policy's
answer (L3 at the player count) and its proposers' (tuned, forester, moai, greedy). This script
records every searched decision of search against an L3 field (`Search.record`: the
candidates, who proposed each, their mean rollout values), fits gradient-boosted trees
(scikit-learn) on features a compiled policy could read at play time (the seat's context,
`compiled.answer.context_features`; which of the five proposed each candidate; the candidate
itself), and reports:

- **agreement** on decisions of held-out games (the last 30 % of the games): how often the
  model's best candidate is search's, beside the rollout policy's own agreement (its answer
  is candidate 0) and each proposer's;
- **win share** against the L3 field (seats rotated, a normal interval, another root seed than
  the recording's) of the *imitator* (search's candidates, chosen by the model instead of
  rollouts), of search with `--worlds` worlds, and of L3 in the same seat; and the CPU seconds
  a game costs with that seat (every seat's play: the L3 seats cost about a millisecond).

    .venv/bin/python benchmarks/imitation.py                        # 3 players, 600 + 300 games
    .venv/bin/python benchmarks/imitation.py --players 4 --record 200 --play 200
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

from moaisim.games.moai.engine.compiled.answer import context_features
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.rules import Rules
from moaisim.registry import parse_lineup
from moaisim.strategies.moai.search import SearchStrategy

PROPOSED_BY = 5  # bit 0: the rollout policy; bits 1-4: tuned, forester, moai, greedy
CONTEXTS: dict[int, np.ndarray] = {}  # (the recording seat's) game -> contexts, by decision


class Recorder(SearchStrategy):
    """search, keeping each searched decision with the seat's context at it."""

    name = "recorder"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.record, self.contexts = [], []

    def _search(self, view: Any, tasks: list, seeds: list[int]) -> list[np.ndarray]:
        ctx = context_features(view)
        self.contexts += [ctx[row] for row, _, _ in tasks]
        return super()._search(view, tasks, seeds)


class Imitator(Recorder):
    """search's candidates, each valued by the model instead of rollouts."""

    name = "imitator"
    model: Any = None

    def _search(self, view: Any, tasks: list, seeds: list[int]) -> list[np.ndarray]:
        ctx = context_features(view)
        out = []
        for row, cands, _ in tasks:
            x = features(view.kind.value, ctx[row], [np.ravel(c).tolist() for c in cands],
                         self._who[row])  # fmt: skip
            out.append(type(self).model(x))
        self._means = [(v, np.ones(len(v), dtype=np.int64)) for v in out]  # its own record
        self.searched += len(tasks)
        return out


def features(kind: str, ctx: np.ndarray, cands: list[list[int]], who: list[int]) -> np.ndarray:
    """One row per candidate: the context, who proposed it, how many did, the candidates'
    count, its place, the candidate (a bid's six counts and their sum; an action)."""
    rows = []
    for j, (c, w) in enumerate(zip(cands, who, strict=True)):
        bits = [(w >> b) & 1 for b in range(PROPOSED_BY)]
        six = (list(c) + [0] * 6)[:6] if kind == "bid" else [c[0], 0, 0, 0, 0, 0]
        rows.append(
            [*ctx, *bits, sum(bits), len(cands), j, *six, sum(six) if kind == "bid" else -1]
        )
    return np.asarray(rows, dtype=float)


def _record(players: int, seed: int, games: np.ndarray, seat: int) -> list:
    seats = [s() for s in parse_lineup(",".join(["L3"] * players), players)]
    seats[seat] = Recorder()
    Games.new(Rules.make(players), seed, games).play(seats)
    return list(zip(seats[seat].record, seats[seat].contexts, strict=True))


def _play(players: int, seed: int, games: np.ndarray, seat: int, who: str,
          model: Any) -> tuple[np.ndarray, float]:  # fmt: skip
    """The seat's win shares in games `games` against L3, and the CPU seconds of the play."""
    Imitator.model = model
    seats = [s() for s in parse_lineup(",".join(["L3"] * players), players)]
    if who == "imitator":
        seats[seat] = Imitator(temperature=0)
    elif who != "L3":
        seats[seat] = parse_lineup(who, players)[0]()
    g = Games.new(Rules.make(players), seed, games)
    start = time.process_time()
    g.play(seats)
    return g.returns()[:, seat], time.process_time() - start


def _tasks(players: int, games: int, per: int = 10) -> list[tuple[np.ndarray, int]]:
    out = []
    for seat in range(players):
        mine = np.arange(seat, games, players)
        out += [(mine[k : k + per], seat) for k in range(0, len(mine), per)]
    return out


def table(decisions: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features, search's choice (1), the decision's index, each candidate's value less the
    decision's mean."""
    x, chosen, group, value = [], [], [], []
    for i, (d, ctx) in enumerate(decisions):
        x.append(features(d.kind, ctx, d.candidates, d.proposed_by))
        chosen += [int(j == d.chosen) for j in range(len(d.candidates))]
        group += [i] * len(d.candidates)
        value += list(d.means - d.means.mean())
    return np.concatenate(x), np.array(chosen), np.array(group), np.array(value)


def agreement(score: np.ndarray, chosen: np.ndarray, group: np.ndarray) -> float:
    """The share of decisions whose best-scored candidate is search's (ties: the first)."""
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    ends = np.r_[starts[1:], len(group)]
    return float(
        np.mean([chosen[a:b][np.argmax(score[a:b])] for a, b in zip(starts, ends, strict=True)])
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--record", type=int, default=600, help="games recorded (seed 4242)")
    ap.add_argument("--play", type=int, default=300, help="games played per seat (seed 9191)")
    ap.add_argument("--worlds", default="2,4,12", help="search's worlds, each a seat of its own")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    p = a.players
    start = time.time()
    parts = Parallel(n_jobs=a.jobs)(delayed(_record)(p, 4242, g, s) for g, s in _tasks(p, a.record))
    decisions = sorted((d for part in parts for d in part), key=lambda dc: dc[0].game)
    cut = next(i for i, (d, _) in enumerate(decisions) if d.game >= int(a.record * 0.7))
    x, chosen, group, value = table(decisions[:cut])
    xt, chosen_t, group_t, _ = table(decisions[cut:])
    print(f"{len(decisions)} searched decisions in {a.record} games at {p} players "
          f"({time.time() - start:.0f} s); held out: {len(decisions) - cut}")  # fmt: skip
    place = xt[:, 16 + PROPOSED_BY + 2]
    print("| chooser | held-out agreement |\n| --- | ---: |")
    print(f"| the rollout policy (candidate 0) | {agreement(-place, chosen_t, group_t):.3f} |")
    for b, name in enumerate(("tuned", "forester", "moai", "greedy"), 1):
        own = xt[:, 16 + b] - 1e-3 * place
        print(f"| proposer {name} | {agreement(own, chosen_t, group_t):.3f} |")
    classifier = HistGradientBoostingClassifier(max_iter=300, learning_rate=0.05, max_depth=6,
                                                random_state=0).fit(x, chosen)  # fmt: skip
    regressor = HistGradientBoostingRegressor(max_iter=300, learning_rate=0.05, max_depth=6,
                                              random_state=0).fit(x, value)  # fmt: skip
    models = {"classifier": lambda z: classifier.predict_proba(z)[:, 1],
              "value regressor": regressor.predict}  # fmt: skip
    for name, model in models.items():
        print(f"| trees: {name} | {agreement(model(xt), chosen_t, group_t):.3f} |")
    print("\n| seat (against L3) | win share | 95% interval | games | CPU s a game |")
    print("| --- | ---: | --- | ---: | ---: |")
    seats = [
        ("L3", "L3", None),
        ("imitator (classifier)", "imitator", models["classifier"]),
        ("imitator (value regressor)", "imitator", models["value regressor"]),
    ]
    seats += [(f"search(worlds={w})",) * 2 + (None,) for w in a.worlds.split(",")]
    for label, who, model in seats:
        got = Parallel(n_jobs=a.jobs)(delayed(_play)(p, 9191, g, s, who, model)
                                      for g, s in _tasks(p, a.play))  # fmt: skip
        share = np.concatenate([x for x, _ in got])
        cpu = sum(c for _, c in got) / len(share)
        half = 1.96 * share.std(ddof=1) / np.sqrt(len(share))
        print(f"| {label} | {share.mean():.3f} | [{share.mean() - half:.3f}, "
              f"{share.mean() + half:.3f}] | {len(share)} | {cpu:.3f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
