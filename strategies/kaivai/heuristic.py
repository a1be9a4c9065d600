"""`heuristic`: Kaivai's weighted heuristic (`moaisim.games.kaivai.engine.policy`): every
option of a decision valued by a weight vector, the best taken. Its weights come from a TOML
file or a table (`HeuristicStrategy(weights=...)`), over the shipped defaults
(strategies/kaivai/weights/heuristic.toml); the plans (`PLANS`) are points of the same space,
each a file of its own with its `[plan]` summary. Read the toolkit's way
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
from moaisim.weight_files import Family, Heuristic, Tuned, plan_class

#: Kaivai's weight-vector family: the policy's weights, strategies/kaivai/weights/.
FAMILY = Family(WEIGHTS, Path(__file__).resolve().parent / "weights",
                "strategies/kaivai/weights", range(3, 5))  # fmt: skip
weights_path, read_weights = FAMILY.path, FAMILY.read
shipped, defaults, vector = FAMILY.shipped, FAMILY.defaults, FAMILY.vector

__all__ = ["FAMILY", "NAMES", "PLANS", "SCALES", "WEIGHTS", "HeuristicStrategy",
           "TunedStrategy", "defaults", "read_weights", "vector", "weights_path"]  # fmt: skip


class HeuristicStrategy(Heuristic, Strategy):
    """Values every option by weighted terms and takes the best (weights=...)."""

    name = "heuristic"
    family = FAMILY
    compiled: ClassVar[str] = "heuristic"

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The heuristic's option in each game of the view (the machine's, compiled)."""
        return compiled_answers(view, m.HEURISTIC, self.w)


class TunedStrategy(Tuned, HeuristicStrategy):
    """`tuned`: the heuristic with the weights tuned for its player count
    (strategies/kaivai/weights/tuned-<P>p.toml), loaded when it is seated (`start`)."""

    name = "tuned"


#: The plans: name -> strategy class, each playing its weights file over the defaults.
PLANS: dict[str, type] = {
    name: plan_class(name, HeuristicStrategy, FAMILY.path(f"{name}.toml"), __name__)
    for name in ("fisher-seller", "builder", "celebrant", "pirate")
}
