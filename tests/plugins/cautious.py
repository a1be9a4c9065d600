"""A user strategy loaded by 'module:Class' path in the tests."""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.views import SeatView
from moaisim.strategies.moai.base import Strategy


class NeverBids(Strategy):
    name = "never-bids"

    def bid(self, view: SeatView) -> np.ndarray:
        return np.zeros_like(view.legal)
