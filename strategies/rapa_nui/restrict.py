"""`restrict`: another strategy with some kinds of move forbidden.

`restrict(strategy='tuned', forbid=['moai'])` plays `tuned` except that it never plays a
Moai. Before the inner strategy decides, the forbidden actions leave its legal mask, so it
chooses among the allowed ones; a decision where only forbidden actions are legal keeps them
(the rules come first). What each name forbids is written once, in the compiled policy
(`policy.FORBID`, `policy.narrow`): a restriction of a compiled strategy plays compiled, and
one of a strategy asked through views narrows its views' masks by the same kernel. An inner
strategy that answers a forbidden action anyway is a one-line error.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.policy import FORBID as FORBID_BITS
from moaisim.games.rapa_nui.engine.policy import forbid_bits, narrow_view
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.registry import load_strategy
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.strategies.rapa_nui.mixture import GAME, sub_view

#: The forbid names and what each forbids (rule ids).
FORBID: dict[str, str] = {name: text for name, (_, text) in FORBID_BITS.items()}
#: The decision kinds a restriction can narrow (D1, D2) and their kernel codes.
NARROWED: dict[Kind, int] = {Kind.BUY: 1, Kind.PLAY: 2}


class RestrictStrategy(Strategy):
    """Another strategy with some kinds of move forbidden (strategy=..., forbid=[...])."""

    name = "restrict"
    params: ClassVar[dict[str, Any]] = {"strategy": "greedy", "forbid": []}
    strategy: str
    forbid: list[str]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        unknown = [f for f in self.forbid if f not in FORBID]
        if unknown or not self.forbid:
            raise UnknownStrategyError(f"strategy 'restrict': forbid names one or more of "
                                       f"{', '.join(FORBID)}, got {self.forbid!r}")  # fmt: skip
        self.inner = load_strategy(self.strategy, GAME)()
        self.forbid_bits = forbid_bits(self.forbid)

    def check_players(self, players: int) -> None:
        """The inner strategy's player counts."""
        self.inner.check_players(players)

    def start(self, rules: Any, seat: int, games: np.ndarray) -> None:
        """The inner strategy's start."""
        self.inner.start(rules, seat, games)

    def compiled(self, rules: Any) -> str | None:
        """The inner strategy's compiled form (the machine narrows its masks)."""
        return self.inner.compiled(rules)

    def vector(self, rules: Any) -> np.ndarray:
        """The inner strategy's weights."""
        return self.inner.vector(rules)

    def compiled_rows(self, rules: Any, rows: np.ndarray,
                      keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """The inner mixture's forms, game by game."""
        return self.inner.compiled_rows(rules, rows, keys)

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The inner strategy's answer on the view with the forbidden actions out of its
        legal masks (as the machine narrows a compiled seat's)."""
        method = getattr(self.inner, view.kind.value)
        if view.kind not in NARROWED:
            return np.asarray(method(view), dtype=np.int64)
        legal = np.array(view.legal)
        narrow_view(NARROWED[view.kind], self.forbid_bits, legal)
        narrowed = sub_view(view, np.arange(len(view)), view.rng)
        narrowed.__dict__["legal"] = legal
        answer = np.asarray(method(narrowed), dtype=np.int64).reshape(-1)
        if len(answer) == len(view) and not legal[np.arange(len(view)), answer].all():
            raise UnknownStrategyError(f"strategy {self.strategy!r} under restrict answered "
                                       f"a forbidden {view.kind.value}")  # fmt: skip
        return answer


for _kind in Kind:
    setattr(RestrictStrategy, _kind.value, RestrictStrategy.by_policy)
