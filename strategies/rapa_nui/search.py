"""`search`: look-ahead by determinized rollouts on Rapa Nui's forward model (skill level L4).

At each decision with more than one legal action, the seat samples `worlds` full games that
show exactly what its view shows (`determinize`: the draw pile's order and its rivals'
face-down sacrifice types drawn, R10), tries every legal action in each world, plays each
on to the end with every seat playing `rollout` (compiled, so thousands of rollouts cost
little), and takes the action with the highest mean share of the win (ties: the first).
Each world is tried with every action under the same draws (common random numbers). The
worlds' seed comes from two values of the seat's own stream per decision, so a searching
seat plays the same game from the same seed in either engine.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games.rapa_nui.engine.forward import determinize
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.registry import load_strategy
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.strategies.rapa_nui.mixture import GAME


class SearchStrategy(Strategy):
    """Tries each legal action in sampled worlds, plays them out (rollout=...), takes the
    best mean share of the win (worlds=...)."""

    name = "search"
    params: ClassVar[dict[str, Any]] = {"worlds": 16, "rollout": "heuristic"}
    bounds: ClassVar[dict[str, tuple[float | None, float | None]]] = {"worlds": (1, 4096)}
    worlds: int
    rollout: str

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._rollout = load_strategy(self.rollout, GAME)
        if self._rollout.cls is SearchStrategy:
            raise UnknownStrategyError("strategy 'search': rollout= must not be search")
        self.rollouts = 0

    def check_players(self, players: int) -> None:
        """The rollout strategy's player counts."""
        self._rollout().check_players(players)

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The best action by rollouts in each game of the view."""
        u = view.rng.uniform(2)  # the worlds' seed of each game: two values of the stream
        out = np.zeros(len(view), dtype=np.int64)
        for i in range(len(view)):
            seed = int(u[i, 0] * 2**32) * 2**32 + int(u[i, 1] * 2**32)
            out[i] = self._best(view, i, seed)
        return out

    def _best(self, view: SeatView, row: int, seed: int) -> int:
        """The legal action of game `row` with the highest mean share of the win."""
        actions = np.flatnonzero(view.legal[row])
        if len(actions) == 1:
            return int(actions[0])
        n, k = self.worlds, len(actions)
        worlds = determinize(view, seed, n, rows=row)
        tries = worlds.clone(rows=np.repeat(np.arange(n), k))  # world w, action j: w * k + j
        pend = tries.pending()[0]
        tries.apply(pend, np.tile(actions, n)[pend.rows])
        tries.play([self._rollout() for _ in range(view.players)])
        self.rollouts += n * k
        share = tries.returns()[:, view.seat].reshape(n, k).mean(axis=0)
        return int(actions[int(np.argmax(share))])
