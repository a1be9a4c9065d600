"""`tuned`: `heuristic` with the weights `moaisim tune --game rapa-nui` found, one file per
player count (strategies/rapa_nui/weights/tuned-<P>p.toml, each recording in its `[tuned]`
table the command, seeds, field and held-out strength that made it). A player count without
a file of its own plays the nearest count's (the larger on a tie)."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.strategies.rapa_nui.heuristic import (
    HeuristicStrategy,
    read_weights,
    shipped,
    vector,
    weights_path,
)

#: The player counts Rapa Nui is played with (R0).
COUNTS = range(2, 5)


@cache
def tuned_file(players: int) -> str:
    """The name of the tuned weights file a player count plays (the nearest one shipped)."""
    have = [p for p in COUNTS if weights_path(f"tuned-{p}p.toml").is_file()]
    if not have:
        raise UnknownStrategyError("strategy 'tuned': no tuned-<P>p.toml in "
                                   "strategies/rapa_nui/weights")  # fmt: skip
    nearest = min(have, key=lambda p: (abs(p - players), -p))
    return f"tuned-{nearest}p.toml"


def retuned_key(rules: Any) -> str:
    """The name a re-tuned weights file has for the rules it was tuned under: the player
    count and the start of the rules' digest."""
    return f"{rules.players}p-{rules.digest()[:16]}"


class TunedStrategy(HeuristicStrategy):
    """Plays the heuristic weights `moaisim tune` found for its player count; with `retuned`
    (a directory), those re-tuned for the very rules it is seated under when the directory
    holds them (`<retuned>/<retuned_key>.toml`), else the shipped ones."""

    name = "tuned"
    params: ClassVar[dict[str, Any]] = {**HeuristicStrategy.params, "retuned": ""}
    retuned: str

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._vectors: dict[Any, np.ndarray] = {}

    def check_players(self, players: int) -> None:
        """A player count with no tuned file near it is refused before any game."""
        tuned_file(players)

    def start(self, rules: Any, seat: int, games: np.ndarray) -> None:
        """Load the weights tuned for the rules' player count into `w`."""
        self.w = self.vector(rules)

    def vector(self, rules: Any) -> np.ndarray:
        """The weights tuned for the rules' player count (or re-tuned for these very
        rules), the given weights on top (read once per rules)."""
        found = self._vectors.get(rules)
        if found is None:
            base = shipped(tuned_file(rules.players))
            if self.retuned:
                path = Path(self.retuned) / f"{retuned_key(rules)}.toml"
                if path.is_file():
                    doc = tomllib.loads(path.read_text("utf-8"))
                    base = {**base, **read_weights(doc, str(path))}
            given = read_weights(self.weights, f"strategy {self.name!r}")
            found = self._vectors[rules] = vector({**base, **given})
        return found
