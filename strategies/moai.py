"""`moai`: a plan strategy, a point of `heuristic`'s weight space (weights/moai.toml).

Carves: piles pawns on one tall statue, wins wood to move it, finishes when it can pay.
"""

from __future__ import annotations

from moaisim.strategies.heuristic import HeuristicStrategy


class MoaiStrategy(HeuristicStrategy):
    """Carves: piles pawns on one tall statue, wins wood to move it, finishes when it can pay."""

    name = "moai"
    preset = "moai.toml"
