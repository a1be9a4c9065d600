"""`tuned`: `heuristic` with the weights `moaisim tune --game kaivai` found, one file per player
count (strategies/kaivai/weights/tuned-<P>p.toml, each recording the command, seeds, field
and check that made it): the toolkit's `tuned` (`moaisim.weight_files.Tuned`) over Kaivai's
heuristic."""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.strategies.kaivai.heuristic import FAMILY, HeuristicStrategy
from moaisim.weight_files import Tuned, retuned_key

tuned_file = FAMILY.tuned_file

__all__ = ["TunedStrategy", "retuned_key", "tuned_file"]


class TunedStrategy(Tuned, HeuristicStrategy):
    """Plays the heuristic weights `moaisim tune` found for its player count (retuned=...)."""

    name = "tuned"

    def vector(self, rules: Any) -> np.ndarray:
        """The weights tuned for the rules (`Tuned.tuned`)."""
        return self.tuned(rules)
