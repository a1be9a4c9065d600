"""`fisher`: a plan strategy, a point of `heuristic`'s weight space (weights/fisher.toml).

Fishes: takes boat cards, builds and mans boats, feeds a large clan cheaply. Its own logic
(`compiled.heuristic`'s variant `FISHER`): it takes a boat card even before it holds the wood
to build it (it expects to win some in the forest), and holding one it keeps the wood the
boat needs (R7.4 comes after the statues of R6.2 are paid for).
"""

from __future__ import annotations

from moaisim.games.moai.engine.compiled.policy import HEURISTIC, Policy
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.heuristic import FISHER, HeuristicStrategy


class FisherStrategy(HeuristicStrategy):
    """Fishes: takes boat cards, builds and mans boats, feeds a large clan cheaply."""

    name = "fisher"
    preset = "fisher.toml"

    def own_policy(self, rules: Rules) -> Policy:
        """`fisher` compiled: heuristic's policy with fisher's two decisions (the pick of a
        boat card without wood yet, R4.1; the wood kept for a held boat card, R6.2, R7.4)."""
        return Policy(HEURISTIC, (FISHER,), tuple(float(x) for x in self.w))
