"""`tuned`: `heuristic` with the weights `moaisim tune` found, one file per player count.

The files are `strategies/moai/weights/tuned-<P>p.toml`; each records in its `[tuned]` table the
command that made it, its seeds, its field of opponents, its generations and its strength on
held-out games. A player count without a file of its own plays the file of the nearest player
count that has one (the larger on a tie): the toolkit's `tuned`
(`moaisim.weight_files.Tuned`) over Moai's heuristic.
"""

from __future__ import annotations

from typing import Any

from moaisim.games.moai.engine.compiled.policy import HEURISTIC, Policy
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.heuristic import FAMILY, PLAIN, HeuristicStrategy
from moaisim.weight_files import Tuned, retuned_key

tuned_file = FAMILY.tuned_file

__all__ = ["TunedStrategy", "retuned_key", "tuned_file", "tuned_weights"]


def tuned_weights(players: int) -> dict[str, float]:
    """The tuned weights for a player count (read once)."""
    return FAMILY.shipped(tuned_file(players))


class TunedStrategy(Tuned, HeuristicStrategy):
    """Plays the heuristic weights `moaisim tune` found for its player count; with `retuned`
    (a directory), the weights re-tuned for the very rules it is seated under when the
    directory holds them (`<retuned>/<retuned_key>.toml`, an experiment's `[study]
    retune`), else the shipped ones."""

    name = "tuned"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._policies: dict[Rules, Policy] = {}

    def own_policy(self, rules: Rules) -> Policy:
        """`tuned` compiled: heuristic's policy with the weights tuned for the rules (read
        once per rules)."""
        found = self._policies.get(rules)
        if found is None:
            found = Policy(HEURISTIC, (PLAIN,), tuple(float(x) for x in self.tuned(rules)))
            self._policies[rules] = found
        return found
