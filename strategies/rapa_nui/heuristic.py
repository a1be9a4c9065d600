"""`heuristic`: Rapa Nui's weighted heuristic (`moaisim.games.rapa_nui.engine.policy`): every
legal action valued in glory by a weight vector, the best one taken. Its weights come from a
TOML file or a table (`heuristic(weights=my.toml)`), over the shipped defaults
(strategies/rapa_nui/weights/heuristic.toml); `moaisim tune --game rapa-nui` searches them.
The weights are read the toolkit's way (`moaisim.weight_files`)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np

from moaisim.games.rapa_nui.engine.answers import heuristic_answers
from moaisim.games.rapa_nui.engine.policy import NAMES, SCALES, WEIGHTS
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.weight_files import Family, Heuristic

#: Rapa Nui's weight-vector family: the policy's weights, strategies/rapa_nui/weights/.
FAMILY = Family(WEIGHTS, Path(__file__).resolve().parent / "weights",
                "strategies/rapa_nui/weights", range(2, 5))  # fmt: skip
weights_path, read_weights = FAMILY.path, FAMILY.read
shipped, defaults, vector = FAMILY.shipped, FAMILY.defaults, FAMILY.vector

__all__ = ["FAMILY", "NAMES", "SCALES", "WEIGHTS", "HeuristicStrategy", "defaults",
           "read_weights", "vector", "weights_path"]  # fmt: skip


class HeuristicStrategy(Heuristic, Strategy):
    """Values every legal action in glory by weighted terms and takes the best (weights=...)."""

    name = "heuristic"

    family = FAMILY
    form: ClassVar[str] = "heuristic"

    def vector(self, rules: object) -> np.ndarray:
        """The weights played under `rules` (`policy.NAMES` order)."""
        return self.w

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The heuristic's action in each game of the view (the machine's, compiled)."""
        return heuristic_answers(view, self.vector(view.rules))
