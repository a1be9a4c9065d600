"""`bidder`: a plan strategy, a point of `heuristic`'s weight space (weights/bidder.toml).

Bids: pays real cards to be bird-man, picks epoch cards first and aims disasters.
"""

from __future__ import annotations

from moaisim.strategies.heuristic import HeuristicStrategy


class BidderStrategy(HeuristicStrategy):
    """Bids: pays real cards to be bird-man, picks epoch cards first and aims disasters."""

    name = "bidder"
    preset = "bidder.toml"
