"""`random`: every decision uniformly random among the legal actions (the base defaults)."""

from __future__ import annotations

from moaisim.strategies.moai.base import Strategy


class RandomStrategy(Strategy):
    """Uniformly random legal play; one draw from the seat's stream per decision."""

    name = "random"
