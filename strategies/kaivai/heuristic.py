"""`heuristic`: Kaivai's weighted heuristic (`moaisim.games.kaivai.engine.policy`): every
option of a decision valued by a weight vector, the best taken. Its weights come from a TOML
file or a table (`heuristic(weights=my.toml)`), over the shipped defaults
(strategies/kaivai/weights/heuristic.toml); the plans (`plans.py`) are points of the same
space, each a file of its own with its `[plan]` summary. Read the toolkit's way
(`moaisim.weight_files`); answered compiled, on either engine (`answers.compiled_answers`)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np

from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.answers import compiled_answers
from moaisim.games.kaivai.engine.forward import Strategy
from moaisim.games.kaivai.engine.policy import NAMES, SCALES, WEIGHTS
from moaisim.games.kaivai.engine.views import SeatView
from moaisim.weight_files import Family, Heuristic

#: Kaivai's weight-vector family: the policy's weights, strategies/kaivai/weights/.
FAMILY = Family(WEIGHTS, Path(__file__).resolve().parent / "weights",
                "strategies/kaivai/weights", range(3, 5))  # fmt: skip
weights_path, read_weights = FAMILY.path, FAMILY.read
shipped, defaults, vector = FAMILY.shipped, FAMILY.defaults, FAMILY.vector

__all__ = ["FAMILY", "NAMES", "SCALES", "WEIGHTS", "HeuristicStrategy", "defaults",
           "read_weights", "vector", "weights_path"]  # fmt: skip


class HeuristicStrategy(Heuristic, Strategy):
    """Values every option by weighted terms and takes the best (weights=...)."""

    name = "heuristic"
    family = FAMILY
    form: ClassVar[str] = "heuristic"

    def vector(self, rules: object) -> np.ndarray:
        """The weights played under `rules` (`policy.NAMES` order)."""
        return self.w

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The heuristic's option in each game of the view (the machine's, compiled)."""
        return compiled_answers(view, m.HEURISTIC, self.vector(view.rules))
