"""The base class of Rapa Nui strategies: one method per decision kind (docs/rapa-nui-rules.md,
section D), each answering a `SeatView` of n games with one action per game.

Every decision method answers by `by_policy`: the base class's is uniformly random among the
legal actions, drawing one value of the seat's own stream per game (`random_choice`: the k-th
of the m legal actions, k = floor(u x m)); the built-ins override `by_policy` with a compiled
policy (`form`), which the fast machine plays without asking Python. A user's strategy
overrides the decisions it plays otherwise and is asked through views.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.engine.forms import Formed
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.strategy_params import Parameterised


def random_choice(view: SeatView) -> np.ndarray:
    """[n] a uniformly random legal action per game: the floor(u x m)-th of its m legal
    actions, u one value of the seat's stream."""
    legal = view.legal
    m = legal.sum(axis=1)
    u = view.rng.uniform(1)[:, 0]
    k = np.minimum((u * m).astype(np.int64), m - 1)
    ranks = np.cumsum(legal, axis=1) - 1  # the rank of each legal action among its game's
    return np.argmax(legal & (ranks == k[:, None]), axis=1).astype(np.int64)


class Strategy(Formed, Parameterised):
    """A Rapa Nui strategy; subclass it and override the decisions you play differently
    (parameters: `params`, `bounds`, checked as a lineup is read)."""

    #: The name results tables use (the registry's).
    name = "random"
    #: The decision kinds (`moaisim.engine.forms.Formed`: which methods a compiled form
    #: leaves alone); `form`, the compiled form of `by_policy` (`batch.FAMILIES`), "random".
    decision_kinds: ClassVar[Any] = Kind
    form: ClassVar[str] = "random"

    def check_players(self, players: int) -> None:
        """Refuse, with an `UnknownStrategyError`, a player count the strategy is not made
        for; called as a lineup is read, before any game. Default: every count."""

    def start(self, rules: object, seat: int, games: np.ndarray) -> None:
        """Called before a batch's games start (a mixture draws its components). Default:
        nothing."""

    def vector(self, rules: object) -> np.ndarray:
        """A heuristic form's weights for `rules` (`policy.NAMES` order); none for random."""
        return np.zeros(0)

    def by_policy(self, view: SeatView) -> np.ndarray:
        """What every decision method answers unless overridden: the base class's uniformly
        random legal action (`random_choice`)."""
        return random_choice(view)

    def start_sacrifice(self, view: SeatView) -> np.ndarray:
        """D0 (R1.4, one_choice): the food type of the starting sacrifice card."""
        return self.by_policy(view)

    def buy(self, view: SeatView) -> np.ndarray:
        """D1 (R3): 0 to buy nothing, 1 + t to buy a sacrifice card of type t."""
        return self.by_policy(view)

    def play(self, view: SeatView) -> np.ndarray:
        """D2 (R4.1): 0 a lumberjack, 1 a priest, 2 a Moai, 3 + 3t + (k - 1): k H&G of type t."""
        return self.by_policy(view)

    def discard(self, view: SeatView) -> np.ndarray:
        """D3 (R4.3): the card kind discarded from a stuck hand."""
        return self.by_policy(view)

    def sacrifice(self, view: SeatView) -> np.ndarray:
        """D4 (R5.1): the food type of the stock's card put face up on the stone."""
        return self.by_policy(view)

    def offering(self, view: SeatView) -> np.ndarray:
        """D5 (R5.2): 4 x (the stock's type put face down) + (the supply's type put face up)."""
        return self.by_policy(view)

    def take(self, view: SeatView) -> np.ndarray:
        """D6 (R6.1): the column whose bottom card is taken."""
        return self.by_policy(view)

    def moai_income(self, view: SeatView) -> np.ndarray:
        """D7 (R7.4): how many Moai pay glory (the others wood)."""
        return self.by_policy(view)

    def bonus(self, view: SeatView) -> np.ndarray:
        """D8 (R7.6): how many units of the Moai majority bonus are glory (the others wood)."""
        return self.by_policy(view)
