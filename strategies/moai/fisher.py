"""`fisher`: a plan strategy, a point of `heuristic`'s weight space (weights/fisher.toml).

Fishes: takes boat cards, builds and mans boats, feeds a large clan cheaply. Its own logic:
it takes a boat card even before it holds the wood to build it (it expects to win some in the
forest), and holding one it keeps the wood the boat needs (R7.4 comes after the statues of
R6.2 are paid for).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from moaisim.games.moai.engine.compiled.policy import Policy
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.heuristic import FISHER, PICK_BOAT, HeuristicStrategy
from moaisim.strategies.moai.ties import best


class FisherStrategy(HeuristicStrategy):
    """Fishes: takes boat cards, builds and mans boats, feeds a large clan cheaply."""

    name = "fisher"
    preset = "fisher.toml"
    reads: ClassVar[dict[str, tuple[str, ...]]] = {
        **HeuristicStrategy.reads,
        "finish_moai": (*HeuristicStrategy.reads["finish_moai"], "held"),
    }

    def compiled(self, rules: Rules) -> Policy | None:
        """`fisher` compiled: heuristic's policy with fisher's two decisions
        (`compiled.heuristic`, variant `FISHER`)."""
        return self._policy(FisherStrategy, FISHER, self.w)

    def pick_epoch(self, view: SeatView) -> np.ndarray:
        """As heuristic, with [pick_boat] for a boat card even without wood to build it yet."""
        k = self._k(view)
        scores = self._card_scores(view, k)
        no_wood = (view.wood[:, view.seat] < 1) & ~view.last_round
        scores += self.w[PICK_BOAT] * (k.cards.boat[view.offer] & no_wood[:, None])
        return best(scores, view)

    def finish_moai(self, view: SeatView) -> np.ndarray:
        """As heuristic, but a statue never takes the last wood while a boat card waits."""
        out = super().finish_moai(view)
        held = view.held[:, view.seat]
        boat = self._k(view).cards.boat[held] & ~view.last_round  # no card held (-1): False
        keep = boat & (view.wood[:, view.seat] <= 1)
        return np.where(keep, view.legal.shape[1] - 1, out)
