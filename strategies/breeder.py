"""`breeder`: a plan strategy, a point of `heuristic`'s weight space (weights/breeder.toml).

Breeds: spends cards on births and feeds first, to keep the most survivors.
"""

from __future__ import annotations

from moaisim.strategies.heuristic import HeuristicStrategy


class BreederStrategy(HeuristicStrategy):
    """Breeds: spends cards on births and feeds first, to keep the most survivors."""

    name = "breeder"
    preset = "breeder.toml"
