"""`tuned`: `heuristic` with the weights `moaisim tune` found, one file per player count.

The files are `strategies/moai/weights/tuned-<P>p.toml`; each records in its `[tuned]` table the
command that made it, its seeds, its field of opponents, its generations and its strength on
held-out games. A player count without a file of its own plays the file of the nearest player
count that has one (the larger on a tie).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games.moai.engine.compiled.policy import HEURISTIC, Policy
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.heuristic import (
    PLAIN,
    HeuristicStrategy,
    read_weights,
    shipped,
    vector,
    weights_path,
)


@cache
def tuned_file(players: int) -> str:
    """The name of the tuned weights file a player count plays (the nearest one shipped)."""
    have = [p for p in range(2, 6) if weights_path(f"tuned-{p}p.toml").is_file()]
    if not have:
        raise UnknownStrategyError(
            "strategy 'tuned': no tuned-<P>p.toml in strategies/moai/weights"
        )
    nearest = min(have, key=lambda p: (abs(p - players), -p))
    return f"tuned-{nearest}p.toml"


@cache
def tuned_weights(players: int) -> dict[str, float]:
    """The tuned weights for a player count (read once)."""
    return shipped(tuned_file(players))


def retuned_key(rules: Rules) -> str:
    """The name a re-tuned weights file has for the rules it was tuned under: the player
    count and the start of the rules' digest (rule parameters and components included)."""
    return f"{rules.players}p-{rules.digest()[:16]}"


class TunedStrategy(HeuristicStrategy):
    """Plays the heuristic weights `moaisim tune` found for its player count; with
    `retuned` (a directory), the weights re-tuned for the very rules it is seated under
    when the directory holds them (`<retuned>/<retuned_key>.toml`, an experiment's
    `[study] retune`), else the shipped ones."""

    name = "tuned"
    params: ClassVar[dict[str, Any]] = {**HeuristicStrategy.params, "retuned": ""}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._policies: dict[Rules, Policy] = {}

    def start(self, rules: Rules, seat: int, games: np.ndarray) -> None:
        """Load the weights tuned for this player count (`tuned-<P>p.toml`)."""
        self.w = self._tuned(rules)

    def own_policy(self, rules: Rules) -> Policy:
        """`tuned` compiled: heuristic's policy with the weights tuned for the rules (read
        once per rules)."""
        found = self._policies.get(rules)
        if found is None:
            found = Policy(HEURISTIC, (PLAIN,), tuple(float(x) for x in self._tuned(rules)))
            self._policies[rules] = found
        return found

    def _tuned(self, rules: Rules) -> np.ndarray:
        """The weight vector for the rules' player count (or re-tuned for these very rules),
        with the given weights on top."""
        given = read_weights(self.weights, f"strategy {self.name!r}")
        base = tuned_weights(rules.players)
        if self.retuned:
            path = Path(self.retuned) / f"{retuned_key(rules)}.toml"
            if path.is_file():
                base = {**base, **read_weights(tomllib.loads(path.read_text("utf-8")), str(path))}
        return vector({**base, **given})
