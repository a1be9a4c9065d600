"""`tuned`: `heuristic` with the weights `moaisim tune --game rapa-nui` found, one file per
player count (strategies/rapa_nui/weights/tuned-<P>p.toml, each recording in its `[tuned]`
table the command, seeds, field and held-out strength that made it). A player count without
a file of its own plays the nearest count's (the larger on a tie): the toolkit's `tuned`
(`moaisim.weight_files.Tuned`) over Rapa Nui's heuristic."""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.strategies.rapa_nui.heuristic import FAMILY, HeuristicStrategy
from moaisim.weight_files import Tuned, retuned_key

tuned_file = FAMILY.tuned_file

__all__ = ["TunedStrategy", "retuned_key", "tuned_file"]


class TunedStrategy(Tuned, HeuristicStrategy):
    """Plays the heuristic weights `moaisim tune` found for its player count (retuned=...)."""

    name = "tuned"

    def vector(self, rules: Any) -> np.ndarray:
        """The weights tuned for the rules (`Tuned.tuned`)."""
        return self.tuned(rules)
