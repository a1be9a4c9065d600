"""`heuristic`: Rapa Nui's weighted heuristic (`moaisim.games.rapa_nui.engine.policy`): every
legal action valued in glory by a weight vector, the best one taken. Its weights come from a
TOML file or a table (`heuristic(weights=my.toml)`), over the shipped defaults
(strategies/rapa_nui/weights/heuristic.toml); `moaisim tune --game rapa-nui` searches them."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim import weight_files
from moaisim.errors import UnknownStrategyError
from moaisim.games.rapa_nui.engine.answers import heuristic_answers
from moaisim.games.rapa_nui.engine.policy import NAMES, SCALES, WEIGHTS
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.strategies.rapa_nui.base import Strategy

__all__ = ["NAMES", "SCALES", "WEIGHTS", "HeuristicStrategy", "defaults", "read_weights",
           "vector", "weights_path"]  # fmt: skip


def weights_path(name: str) -> Path:
    """A shipped weights or mixture file: strategies/rapa_nui/weights/<name>."""
    return Path(__file__).resolve().parent / "weights" / name


def read_weights(table: dict[str, Any], source: str) -> dict[str, float]:
    """The weights of a TOML document or table (`weight_files.read_weights`: its `[weights]`
    table, or its top-level numbers), each checked to be one of the heuristic's (one line)."""
    return weight_files.read_weights(table, source, NAMES)


@cache
def shipped(name: str) -> dict[str, float]:
    """The weights of a shipped file (`weights_path(name)`), read once."""
    return weight_files.read_weights_file(weights_path(name), NAMES)


def defaults() -> dict[str, float]:
    """The default weights (`weights/heuristic.toml`), every name."""
    found = shipped("heuristic.toml")
    missing = [k for k in NAMES if k not in found]
    if missing:
        raise UnknownStrategyError(f"heuristic.toml lacks weights {', '.join(missing)}")
    return dict(found)


def vector(weights: dict[str, float]) -> np.ndarray:
    """The weights as the kernel's array, in `NAMES` order (missing names: defaults)."""
    full = {**defaults(), **weights}
    return np.array([full[k] for k in NAMES], dtype=np.float64)


class HeuristicStrategy(Strategy):
    """Values every legal action in glory by weighted terms and takes the best (weights=...)."""

    name = "heuristic"
    form: ClassVar[str] = "heuristic"
    #: The weights file the class starts from (strategies/rapa_nui/weights/).
    preset: ClassVar[str] = "heuristic.toml"
    #: weights: a table or a TOML file over the preset's; shipped: the name of a shipped
    #: weights file (strategies/rapa_nui/weights/<name>) to start from instead of the preset,
    #: so that a shipped mixture file can name its members' weights from any directory
    params: ClassVar[dict[str, Any]] = {"weights": {}, "shipped": ""}
    weights: dict[str, Any]
    shipped: str

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        given = read_weights(self.weights, f"strategy {self.name!r}")
        plan = "" if type(self) is HeuristicStrategy else self.name
        base = weight_files.shipped_base(self.shipped, self.preset, weights_path(""),
                                         "strategies/rapa_nui/weights", plan)  # fmt: skip
        self.w = vector({**shipped(base), **given})

    def vector(self, rules: object) -> np.ndarray:
        """The weights played under `rules` (`policy.NAMES` order)."""
        return self.w

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The heuristic's action in each game of the view (the machine's, compiled)."""
        return heuristic_answers(view, self.vector(view.rules))
