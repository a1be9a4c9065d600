"""`greedy`: the Rapa Nui heuristic with the weights of the score as it stands (R9): a wood
worth 1/wood_per_glory, a Moai its end glory, a stock card its type's value on the stone, the
revealed card's pay; nothing for the future (`policy.greedy_weights`). It takes, at each
decision, the action that most raises its score now."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.games.rapa_nui.engine.policy import greedy_weights
from moaisim.games.rapa_nui.rules.model import default_components
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.strategies.rapa_nui.heuristic import HeuristicStrategy


class GreedyStrategy(HeuristicStrategy):
    """Takes the action that most raises its score as it stands (R9), the future unvalued."""

    name = "greedy"
    params: ClassVar[dict[str, Any]] = {}

    def __init__(self, **params: Any) -> None:
        Strategy.__init__(self, **params)  # not the heuristic's weights: the score's
        self.weights = {}
        # the vector under the shipped component set (`vector` reads the rules played)
        self.w = greedy_weights(default_components().wood_per_glory)

    def vector(self, rules: Any) -> np.ndarray:
        """The score's weights under `rules` (its wood_per_glory, R9.1)."""
        return greedy_weights(rules.components.wood_per_glory)
