"""`forester`: a plan strategy, a point of `heuristic`'s weight space (weights/forester.toml).

Hoards wood: wins the forest's tokens, keeps them (2 points each), denies them to others.
"""

from __future__ import annotations

from moaisim.strategies.heuristic import HeuristicStrategy


class ForesterStrategy(HeuristicStrategy):
    """Hoards wood: wins the forest's tokens, keeps them (2 points each), denies them to others."""

    name = "forester"
    preset = "forester.toml"
