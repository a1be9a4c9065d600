"""Scenario-test harness: set up a position by hand, script the decisions, run a phase.

    g = scenario(3, scripts={0: [("work", place(g, 3, FOREST_1))]})
    put(g, seat=0, strength=3, loc=g.rules.layout.fields)
    g.work_phase()

Scripted strategies raise if asked a decision that is not next in their script, and
`done(g)` checks that every scripted decision was used.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from moaisim.engine.decisions import Kind
from moaisim.engine.reference import Game
from moaisim.engine.state import State
from moaisim.engine.views import SeatView
from moaisim.rules import CAMP, RESERVE, Rules
from strategies.base import Strategy


class ScriptError(AssertionError):
    pass


class Script(Strategy):
    """Answers from a list of (kind, action) pairs, in order."""

    name = "script"

    def __init__(self, steps: Iterable[tuple[str, Any]] = ()) -> None:
        self.steps = list(steps)
        self.asked: list[tuple[str, Any]] = []  # (kind, view) of every question

    def _next(self, view: SeatView) -> np.ndarray:
        self.asked.append((view.kind.value, view))
        if not self.steps:
            raise ScriptError(f"seat {view.seat}: unscripted {view.kind.value} decision")
        kind, action = self.steps.pop(0)
        if kind != view.kind.value:
            raise ScriptError(f"seat {view.seat}: asked {view.kind.value}, script has {kind}")
        return np.asarray([action], dtype=np.int64)  # one game: [1] or, for a bid, [1, 6]


for _kind in Kind:
    setattr(Script, _kind.value, lambda self, view: self._next(view))


def scenario(
    players: int,
    scripts: dict[int, list[tuple[str, Any]]] | None = None,
    variants: str | None = None,
    **options: str,
) -> Game:
    """A game on an empty table (no pawn, card or wood dealt) with scripted seats."""
    rules = Rules.make(players, variants, **options)
    scripts = scripts or {}
    strategies = [Script(scripts.get(seat, [])) for seat in range(players)]
    return Game(rules, strategies, seed=0, game=0, state=State.empty(rules))


def script(g: Game, seat: int, *steps: tuple[str, Any]) -> None:
    """Append scripted steps for a seat."""
    g.strategies[seat].steps.extend(steps)


def done(g: Game) -> None:
    """Every scripted step was used."""
    left = {seat: s.steps for seat, s in enumerate(g.strategies) if s.steps}
    assert not left, f"unused scripted steps: {left}"


def put(g: Game, seat: int, strength: int, loc: int, up: bool | None = None) -> int:
    """Move a pawn of `strength` from the seat's reserve (else camp) to `loc`; returns its index.

    `up` defaults to the face the rules give a placed pawn (fields and boats up, V1 all up).
    """
    s = g.state
    for source in (RESERVE, CAMP):
        free = np.flatnonzero((s.loc[seat] == source) & (s.strength == strength))
        if len(free):
            pawn = int(free[0])
            break
    else:
        raise ValueError(f"seat {seat} has no free pawn of strength {strength}")
    s.loc[seat, pawn] = loc
    if up is None:
        zone = g.rules.layout.zone(loc)
        up = g.rules.has("open-pawns") or zone in (1, 3)
    s.up[seat, pawn] = bool(up) and loc >= 0
    return pawn


def give(g: Game, seat: int, **cards: int) -> None:
    """Add cards to a hand: give(g, 0, c1=2, c3=1, raid2=1)."""
    names = {"c1": 0, "c2": 1, "c3": 2, "raid1": 3, "raid2": 4, "raid3": 5}
    for name, n in cards.items():
        g.state.hand[seat, names[name]] += n


def build_boat(g: Game, seat: int) -> int:
    """Give the seat a built boat (the first boat card of the set); returns its slot."""
    s = g.state
    cid = next(c.id for c in g.rules.components.epoch_cards if c.is_boat and c.id not in s.boats)
    slot = int(np.argmin(s.boats[seat] >= 0))
    s.boats[seat, slot] = cid
    return slot


def card_id(g: Game, text: str, nth: int = 0) -> int:
    """Id of the nth epoch card whose label is `text` (e.g. 'boat 3/2*', 'erosion 2/3*')."""
    ids = [c.id for c in g.rules.components.epoch_cards if c.label() == text]
    return ids[nth]


def events(g: Game, e: str) -> list[dict[str, Any]]:
    return [ev for ev in g.events if ev["e"] == e]
