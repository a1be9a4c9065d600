"""One game as a forward model, for every game (docs/design.md, "The forward model"):

game = Game.new(rules, seed=7, game=0)
while not game.is_over():
    kind, seats, legal = game.legal()        # what the game waits for, and from whom
    game.apply(choose(kind, seats, legal))   # one action (a decision taken at once: a row
game.returns()                               # each seat's share of the win  per seat)
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import numpy as np

from moaisim.engine.games import Games
from moaisim.engine.pending import Pending
from moaisim.errors import UserError


class Game:
    """One game over a `Games` of one (a game subclasses it naming its `Games`)."""

    games_type: ClassVar[type[Games]]

    def __init__(self, games: Games) -> None:
        if not isinstance(games, self.games_type) or len(games) != 1:
            raise UserError("a Game is one game: Game.new(rules, seed, game), or Game(games) "
                            "of a Games holding one")  # fmt: skip
        self.games = games
        self._pending: Pending | None = None

    @classmethod
    def new(cls, rules: Any, seed: int = 0, game: int = 0) -> Self:
        """Game `game` of root seed `seed`, set up as in a run: the same deal."""
        return cls(cls.games_type.new(rules, seed, [game]))

    @property
    def rules(self) -> Any:
        """The rules the game is played under."""
        return self.games.rules

    def _next(self) -> Pending | None:
        """The pending decision, after the steps that need none (None: the game is over)."""
        if self._pending is None and not self.games.over()[0]:
            waiting = self.games.pending()
            self._pending = waiting[0] if waiting else None
        return self._pending

    def legal(self) -> tuple[Any, np.ndarray, np.ndarray]:
        """(the decision's kind, the seats that decide, their legal actions): one seat and its
        mask [1, A], or for a decision taken at once (Moai's sealed bids) a row a seat."""
        pend = self._next()
        if pend is None:
            raise UserError("the game is over: no decision is pending")
        return pend.kind, np.array(pend.seat, copy=True), np.array(pend.legal, copy=True)

    def apply(self, action: Any) -> None:
        """The decision's action: an int (an answer of several numbers, such as Moai's bid:
        one row of them); a decision taken at once one per seat, in the order `legal` gives
        the seats. Anything else goes as it is to the engine's check (a flat array is never
        read as several answers)."""
        pend = self._next()
        if pend is None:
            raise UserError("the game is over: no decision is pending")
        try:
            actions = np.asarray(action)
        except (TypeError, ValueError):
            raise UserError(f"{pend.name}: got {action!r}; expected an integer "
                            "action") from None  # fmt: skip
        one = 1 if pend.kind in self.games.VECTOR_KINDS else 0
        if len(pend) == 1 and actions.ndim == one:
            actions = actions[None]
        self.games.apply(pend, actions)
        self._pending = None

    def clone(self, seed: int | None = None) -> Self:
        """A copy of the game as it stands (mid-turn too); with `seed`, its future chance and
        its seats' draws come from a stream space of its own (`Games.clone`)."""
        return type(self)(self.games.clone(seed=seed))

    def observe(self, seat: int) -> Any:
        """The sealed view of `seat`, as at the pending decision."""
        pend = self._next()
        return self.games.observe(seat, kind=pend.kind if pend is not None else None)

    def is_over(self) -> bool:
        """The game is over: no decision is left (the steps that need none are run first, so
        a game whose last decision is taken is over)."""
        self._next()
        return bool(self.games.over()[0])

    def scores(self) -> np.ndarray:
        """[P] each seat's score now."""
        return self.games.scores()[0]

    def returns(self) -> np.ndarray:
        """[P] each seat's share of the win (1/k for a k-way shared win); nan before the
        end."""
        return self.games.returns()[0]
