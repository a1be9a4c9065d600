"""`heuristic`: Rapa Nui's weighted heuristic (`moaisim.games.rapa_nui.engine.policy`): every
legal action valued in glory by a weight vector, the best one taken. Its weights come from a
TOML file or a table (`heuristic(weights=my.toml)`), over the shipped defaults
(strategies/rapa_nui/weights/heuristic.toml); `moaisim tune --game rapa-nui` searches them."""

from __future__ import annotations

import math
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games.rapa_nui.engine.answers import heuristic_answers
from moaisim.games.rapa_nui.engine.policy import NAMES, SCALES, WEIGHTS
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.strategies.rapa_nui.base import Strategy

__all__ = ["NAMES", "SCALES", "WEIGHTS", "HeuristicStrategy", "defaults", "read_weights",
           "vector", "weights_path"]  # fmt: skip

INDEX: dict[str, int] = {name: k for k, name in enumerate(NAMES)}


def weights_path(name: str) -> Path:
    """A shipped weights or mixture file: strategies/rapa_nui/weights/<name>."""
    return Path(__file__).resolve().parent / "weights" / name


def read_weights(table: dict[str, Any], source: str) -> dict[str, float]:
    """The weights of a TOML document or table: its `[weights]` table if it has one, else its
    top-level numbers (other tables are notes). An unknown name or a value that is not a
    finite number is a one-line error."""
    if "weights" in table and isinstance(table["weights"], dict):
        table = table["weights"]
    out: dict[str, float] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            continue
        if key not in INDEX:
            raise UnknownStrategyError(f"{source}: unknown weight {key!r} (weights: "
                                       f"{', '.join(NAMES)})")  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UnknownStrategyError(f"{source}: weight {key} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise UnknownStrategyError(f"{source}: weight {key} must be finite, got {value!r}")
        out[key] = float(value)
    return out


@cache
def shipped(name: str) -> dict[str, float]:
    """The weights of a shipped file (`weights_path(name)`), read once."""
    path = weights_path(name)
    try:
        doc = tomllib.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise UnknownStrategyError(f"weights file {str(path)!r}: {exc.strerror}") from None
    return read_weights(doc, str(path))


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
    #: weights: a table or a TOML file over the preset's
    params: ClassVar[dict[str, Any]] = {"weights": {}}
    weights: dict[str, Any]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        given = read_weights(self.weights, f"strategy {self.name!r}")
        self.w = vector({**shipped(self.preset), **given})

    def vector(self, rules: object) -> np.ndarray:
        """The weights played under `rules` (`policy.NAMES` order)."""
        return self.w

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The heuristic's action in each game of the view (the machine's, compiled)."""
        return heuristic_answers(view, self.vector(view.rules))
