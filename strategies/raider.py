"""`raider`: a plan strategy, a point of `heuristic`'s weight space (weights/raider.toml).

Raids: keeps Raid cards and lets the clan go hungry, to raid exposed rival pawns.
"""

from __future__ import annotations

from moaisim.strategies.heuristic import HeuristicStrategy


class RaiderStrategy(HeuristicStrategy):
    """Raids: keeps Raid cards and lets the clan go hungry, to raid exposed rival pawns."""

    name = "raider"
    preset = "raider.toml"
