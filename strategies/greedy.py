"""`random`: every decision uniformly random among the legal actions (the base defaults)."""

from __future__ import annotations

from strategies.base import Strategy


class GreedyStrategy(Strategy):
    """Uniformly random legal play; one draw from the seat's stream per decision."""

    name = "greedy"
