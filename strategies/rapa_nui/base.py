"""The base class of Rapa Nui strategies: one method per decision kind (docs/rapa-nui-rules.md,
section D), each answering a `SeatView` of n games with one action per game.

The base class answers every decision uniformly at random among the legal actions, drawing
one value of the seat's own stream per game (`random_choice`): the k-th of the m legal
actions, k = floor(u x m). A strategy overrides the decisions it plays otherwise.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.views import SeatView


def random_choice(view: SeatView) -> np.ndarray:
    """[n] a uniformly random legal action per game: the floor(u x m)-th of its m legal
    actions, u one value of the seat's stream."""
    legal = view.legal
    m = legal.sum(axis=1)
    u = view.rng.uniform(1)[:, 0]
    k = np.minimum((u * m).astype(np.int64), m - 1)
    ranks = np.cumsum(legal, axis=1) - 1  # the rank of each legal action among its game's
    return np.argmax(legal & (ranks == k[:, None]), axis=1).astype(np.int64)


class Strategy:
    """A Rapa Nui strategy; subclass it and override the decisions you play differently."""

    #: The name results tables use (the registry's).
    name = "random"

    def compiled(self, rules: object) -> str | None:
        """The form the fast machine plays this strategy in: "random" for the base class's
        uniform play (no decision method overridden), None for a strategy whose decisions
        are its own Python (the machine then asks it through views)."""
        mine = type(self)
        if any(getattr(mine, k.value) is not getattr(Strategy, k.value) for k in Kind):
            return None
        return "random"

    def start_sacrifice(self, view: SeatView) -> np.ndarray:
        """D0 (R1.4, one_choice): the food type of the starting sacrifice card."""
        return random_choice(view)

    def buy(self, view: SeatView) -> np.ndarray:
        """D1 (R3): 0 to buy nothing, 1 + t to buy a sacrifice card of type t."""
        return random_choice(view)

    def play(self, view: SeatView) -> np.ndarray:
        """D2 (R4.1): 0 a lumberjack, 1 a priest, 2 a Moai, 3 + 3t + (k - 1): k H&G of type t."""
        return random_choice(view)

    def discard(self, view: SeatView) -> np.ndarray:
        """D3 (R4.3): the card kind discarded from a stuck hand."""
        return random_choice(view)

    def sacrifice(self, view: SeatView) -> np.ndarray:
        """D4 (R5.1): the food type of the stock's card put face up on the stone."""
        return random_choice(view)

    def offering(self, view: SeatView) -> np.ndarray:
        """D5 (R5.2): 4 x (the stock's type put face down) + (the supply's type put face up)."""
        return random_choice(view)

    def take(self, view: SeatView) -> np.ndarray:
        """D6 (R6.1): the column whose bottom card is taken."""
        return random_choice(view)

    def moai_income(self, view: SeatView) -> np.ndarray:
        """D7 (R7.4): how many Moai pay glory (the others wood)."""
        return random_choice(view)

    def bonus(self, view: SeatView) -> np.ndarray:
        """D8 (R7.6): how many units of the Moai majority bonus are glory (the others wood)."""
        return random_choice(view)
