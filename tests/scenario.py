"""Scenario-test harness: set up a position by hand, script the decisions, run a phase.

    g = scenario(3, scripts={0: [("work", place(g, 3, FOREST_1))]})
    put(g, seat=0, strength=3, loc=g.rules.layout.fields)
    g.work_phase()

Scripted strategies raise if asked a decision that is not next in their script, and
`done(g)` checks that every scripted decision was used.

Every scenario runs on both engines: a test module that sets
`pytestmark = pytest.mark.usefixtures("engine")` runs each test twice, and `scenario()` then
returns either the reference `Game` or a `BatchScenario`, which has the same methods but plays
each phase (or step) in the batch engine: it copies the position into a one-game
`BatchState`, runs the batch engine's function for that phase, and copies the result back
into the same `State` object (and the batch's log into `events`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

import numpy as np

from moaisim.engine.batch import review, work
from moaisim.engine.batch.machine import Machine
from moaisim.engine.batch.state import BatchState
from moaisim.engine.decisions import Kind
from moaisim.engine.forward import Games
from moaisim.engine.reference import ReferenceGame
from moaisim.engine.seats import Seats
from moaisim.engine.state import State
from moaisim.engine.steps import Step
from moaisim.engine.views import SeatView
from moaisim.rules import CAMP, RESERVE, Rules
from moaisim.strategies.base import Strategy


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
Script.reads = {}  # the methods above replace the random defaults: full views for every kind


#: The engine `scenario()` builds games for (set by the `engine` fixture, tests/conftest.py).
ENGINE = {"name": "reference"}
ONE = np.zeros(1, dtype=np.int64)


class BatchScenario(ReferenceGame):
    """A scenario game whose phases and steps run in the batch engine (see the module doc)."""

    def _batch(self) -> Machine:
        """The batch engine's machine over this game's position (its seats seated, the
        seats' streams going on where they were); `self.decide` answers its decisions."""
        state = BatchState.from_states([self.state])
        games = Games.new(self.rules, self.seed, [self.game], log=[self.game], state=state)
        core = games.machine
        core.streams = self.streams
        seats = Seats(self.rules, self.strategies, self.names)
        seats.start(core)
        self.decide = partial(seats.answer, core)
        return core

    def _run(self, fn, *args: Any) -> Any:  # type: ignore[no-untyped-def]
        core = self._batch()
        out = fn(core, ONE, *args)
        core.state.write_back(0, self.state)
        self.events += core.events[self.game]
        return out

    def _steps(self, start: Step, stop: set[Step], **cursor: int) -> None:
        """Run the batch engine from the start of a step until the game reaches one of the
        steps `stop` (the cursor's other fields given by name)."""

        def run(g: Machine, rows: np.ndarray) -> None:
            g.goto(rows, start)
            for name, value in cursor.items():
                getattr(g.state, name)[rows] = value
            g.run(self.decide, rows, frozenset(stop))

        self._run(run)

    def play(self) -> list[dict[str, Any]]:
        core = self._batch()
        core.run(self.decide)
        core.state.write_back(0, self.state)
        self.events += core.events[self.game]
        return self.events

    def birdman_phase(self) -> None:
        self._steps(Step.ROUND, {Step.PICK})

    def bidding(self) -> None:
        self._steps(Step.BID, {Step.PICK})

    def hill_order(self) -> None:
        self._steps(Step.HILL, {Step.PICK})

    def epoch_phase(self) -> None:
        self._steps(Step.PICK, {Step.WORK_START})

    def disaster(self, taker: int, pos: int, cid: int) -> None:
        """The batch engine's disaster steps, the taker standing at turn position `pos`
        while they run (in play the taker is always the seat at its position)."""
        turn = self.state.turn.copy()
        self.state.turn[pos] = taker
        self._steps(Step.DISASTER, {Step.PICK}, step_pos=pos, step_card=cid)
        self.state.turn[:] = turn

    def work_phase(self) -> None:
        self._steps(Step.WORK_START, {Step.FOREST})

    def work_mask(self, seat: int) -> np.ndarray:
        def mask(g: Machine, rows: np.ndarray) -> np.ndarray:
            counts = work.phase_counts(g, rows)
            s = g.state
            mask = work.work_mask(
                counts, ONE, np.array([seat]), rows, s.loc, s.up, g.rules.layout, g.work_codec
            )[0]
            # the same mask game by game, its legal actions listed in ascending order (what
            # the compiled policies score)
            one = np.zeros(g.work_codec.size, dtype=bool)
            acts = np.full(g.work_codec.size, -1, dtype=np.int64)
            pawns = s.loc.shape[2]
            n = work.work_legal(counts, 0, seat, int(rows[0]), s.loc, s.up, g.rules.layout,
                                g.work_codec, one, np.empty(pawns, dtype=np.int64),
                                np.empty(pawns, dtype=np.int64), acts)  # fmt: skip
            assert np.array_equal(one, mask)
            assert acts[:n].tolist() == np.flatnonzero(mask).tolist()
            return mask

        return self._run(mask)

    def apply_work(self, seat: int, action: int) -> None:
        def step(g: Machine, rows: np.ndarray) -> None:
            counts, s, q = work.phase_counts(g, rows), g.state, np.array([seat])
            a = np.array([action])
            open_pawns = g.rules.has("open-pawns")
            placed = work.apply_work(
                counts, ONE, q, rows, a, s.pawns, g.rules.layout, g.work_codec, open_pawns
            )
            work.log_work(g, rows, q, a, placed)

        self._run(step)

    def production_phase(self) -> None:
        self._steps(Step.FOREST, {Step.DRAW})

    def forest(self) -> None:
        self._steps(Step.FOREST, {Step.VOLCANO})

    def volcano(self) -> None:
        self._steps(Step.VOLCANO, {Step.FEED_COUNT})

    def feeding(self) -> None:
        self._steps(Step.FEED_COUNT, {Step.DRAW})

    def review_phase(self) -> None:
        self._steps(Step.DRAW, {Step.ROUND_END})

    def draw_cards(self, seat: int, n: int) -> None:
        self._run(review.draw_cards, np.array([seat]), np.array([n]))

    def rest(self, seat: int, hut: int) -> None:
        s = self.state
        times = min(hut, int((s.loc[seat] >= 0).sum()))
        if times:
            self._steps(Step.REST, {Step.BIRTH}, step_pos=self.position(seat), step_left=times)

    def births(self, seat: int) -> None:
        """R7.3 alone: the batch engine's births; what follows them (the boat, the card
        discarded) is left out, as the reference's `births` leaves it out."""
        held = self.state.held.copy()
        self._steps(Step.BIRTH, {Step.BOAT, Step.DRAW}, step_pos=self.position(seat))
        self.state.held[:] = held


def scenario(
    players: int,
    scripts: dict[int, list[tuple[str, Any]]] | None = None,
    variants: str | None = None,
    params: dict[str, int] | None = None,
    **options: str,
) -> ReferenceGame:
    """A game on an empty table (no pawn, card or wood dealt) with scripted seats, for the
    engine of the running test (`ENGINE`), under the rule parameters `params`."""
    rules = Rules.make(players, variants, params=params, **options)
    scripts = scripts or {}
    strategies = [Script(scripts.get(seat, [])) for seat in range(players)]
    cls = BatchScenario if ENGINE["name"] == "batch" else ReferenceGame
    return cls(rules, strategies, seed=0, game=0, state=State.empty(rules))


def script(g: ReferenceGame, seat: int, *steps: tuple[str, Any]) -> None:
    """Append scripted steps for a seat."""
    g.strategies[seat].steps.extend(steps)


def done(g: ReferenceGame) -> None:
    """Every scripted step was used."""
    left = {seat: s.steps for seat, s in enumerate(g.strategies) if s.steps}
    assert not left, f"unused scripted steps: {left}"


def put(g: ReferenceGame, seat: int, strength: int, loc: int, up: bool | None = None) -> int:
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


def give(g: ReferenceGame, seat: int, **cards: int) -> None:
    """Add cards to a hand: give(g, 0, c1=2, c3=1, raid2=1)."""
    names = {"c1": 0, "c2": 1, "c3": 2, "raid1": 3, "raid2": 4, "raid3": 5}
    for name, n in cards.items():
        g.state.hand[seat, names[name]] += n


def build_boat(g: ReferenceGame, seat: int) -> int:
    """Give the seat a built boat (the first boat card of the set); returns its slot."""
    s = g.state
    cid = next(c.id for c in g.rules.components.epoch_cards if c.is_boat and c.id not in s.boats)
    slot = int(np.argmin(s.boats[seat] >= 0))
    s.boats[seat, slot] = cid
    return slot


def card_id(g: ReferenceGame, text: str, nth: int = 0) -> int:
    """Id of the nth epoch card whose label is `text` (e.g. 'boat 3/2*', 'erosion 2/3*')."""
    ids = [c.id for c in g.rules.components.epoch_cards if c.label() == text]
    return ids[nth]


def events(g: ReferenceGame, e: str) -> list[dict[str, Any]]:
    return [ev for ev in g.events if ev["e"] == e]
