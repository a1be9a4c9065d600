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
`BatchState`, plays the batch engine's kernels from that phase's first step to the step after
it (the scripts asked through views where they decide), and copies the result back into the
same `State` object. The reference engine then plays the same phase from the same position
with the decisions the scripts gave: it must reach the same table, field by field, and its
events are the scenario's `events` (the batch engine keeps no log of its own).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import numpy as np

from moaisim.games.moai.engine.batch.state import BatchState
from moaisim.games.moai.engine.compiled import review, work
from moaisim.games.moai.engine.compiled.arrays import arrays_of, consts, put_back, scratch
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.seats import Seats
from moaisim.games.moai.engine.state import State
from moaisim.games.moai.engine.steps import Step
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import CAMP, RESERVE, Rules
from moaisim.strategies.moai.base import Strategy


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


#: The cursor's fields, which the engines leave at different steps after a phase.
CURSOR = {"step", "step_pos", "step_count", "step_card", "step_target", "step_left",
          "step_taken", "step_done", "step_hill"}  # fmt: skip


class BatchScenario(ReferenceGame):
    """A scenario game whose phases and steps run in the batch engine (see the module doc)."""

    def _batch(self) -> tuple[Games, list[list[tuple[str, Any]]]]:
        """The batch engine over this game's position (its seats seated, the seats' streams
        going on where they were), and the decisions its scripts give, seat by seat."""
        state = BatchState.from_states([self.state])
        games = Games.new(self.rules, self.seed, [self.game], state=state)
        games.machine.streams = self.streams
        seats = Seats(self.rules, self.strategies, self.names)
        seats.start(games.machine)
        told: list[list[tuple[str, Any]]] = [[] for _ in range(self.rules.players)]

        def answer(pend: Any) -> np.ndarray:
            actions = seats.answer(games.machine, pend)
            for q, a in zip(pend.seat.tolist(), actions, strict=True):
                told[q].append((pend.kind.value, np.asarray(a).tolist()))
            return actions

        self.answer = answer
        return games, told

    def _both(self, name: str, run: Any, *args: Any) -> Any:
        """`run(games)` in the batch engine, then the reference engine's method `name` from
        the same position with the decisions the batch took: the same table, field by field;
        its events are the scenario's."""
        before = copy.deepcopy(self.state)
        games, told = self._batch()
        out = run(games)
        games.machine.state.write_back(0, self.state)
        ref = ReferenceGame(self.rules, [Script(t) for t in told], seed=self.seed,
                            game=self.game, names=self.names, state=before)  # fmt: skip
        ref.streams.counters = [c.copy() for c in self.streams.counters]
        ref_out = getattr(ReferenceGame, name)(ref, *args)
        if out is not None:
            assert np.array_equal(out, ref_out), name
        for field in (*(set(BatchState.SAME) - CURSOR), "deck", "epoch_deck"):
            mine, theirs = getattr(self.state, field), getattr(ref.state, field)
            assert np.array_equal(np.asarray(mine), np.asarray(theirs)), f"{name}: {field}"
        for k, v in self.state.counters.items():
            assert np.array_equal(v, ref.state.counters[k]), f"{name}: counter {k}"
        assert all(not s.steps for s in ref.strategies), f"{name}: decisions left unused"
        self.events += ref.events
        return out

    def _steps(self, name: str, start: Step, stop: set[Step], *args: Any, **cursor: int) -> None:
        """The batch engine from the start of a step until the game reaches one of the
        steps `stop` (the cursor's other fields given by name); the reference engine's
        method `name` (with `args`) beside it."""

        def run(games: Games) -> None:
            m = games.machine
            m.goto(ONE, start)
            for field, value in cursor.items():
                getattr(m.state, field)[ONE] = value
            m.play([None] * self.rules.players, self.answer, stop=frozenset(stop), rows=ONE)

        self._both(name, run, *args)

    def play(self) -> list[dict[str, Any]]:
        def run(games: Games) -> None:
            games.machine.play([None] * self.rules.players, self.answer)

        self._both("play", run)
        return self.events

    def birdman_phase(self) -> None:
        self._steps("birdman_phase", Step.ROUND, {Step.PICK})

    def bidding(self) -> None:
        self._steps("bidding", Step.BID, {Step.PICK})

    def hill_order(self) -> None:
        self._steps("hill_order", Step.HILL, {Step.PICK})

    def epoch_phase(self) -> None:
        self._steps("epoch_phase", Step.PICK, {Step.WORK_START})

    def disaster(self, taker: int, pos: int, cid: int) -> None:
        """The batch engine's disaster steps, the taker standing at turn position `pos`
        while they run (in play the taker is always the seat at its position)."""
        turn = self.state.turn.copy()

        def run(games: Games) -> None:
            m = games.machine
            m.state.turn[0, pos] = taker
            m.goto(ONE, Step.DISASTER)
            m.state.step_pos[ONE], m.state.step_card[ONE] = pos, cid
            m.play([None] * self.rules.players, self.answer, stop=frozenset({Step.PICK}),
                   rows=ONE)  # fmt: skip
            m.state.turn[ONE] = turn

        self._both("disaster", run, taker, pos, cid)

    def work_phase(self) -> None:
        self._steps("work_phase", Step.WORK_START, {Step.FOREST})

    def work_mask(self, seat: int) -> np.ndarray:
        def mask(games: Games) -> np.ndarray:
            s, lay = games.machine.state, self.rules.layout
            codec = consts(self.rules).work
            counts = work.phase_counts(s.loc, s.boats, s.covered, ONE, lay)
            one = np.zeros(codec.size, dtype=bool)
            acts = np.full(codec.size, -1, dtype=np.int64)
            pawns = s.loc.shape[2]
            n = work.work_legal(counts, 0, seat, 0, s.loc, s.up, lay, codec, one,
                                np.empty(pawns, dtype=np.int64), np.empty(pawns, dtype=np.int64),
                                acts)  # fmt: skip
            # its legal actions listed in ascending order (what the compiled policies score)
            assert acts[:n].tolist() == np.flatnonzero(one).tolist()
            return one

        return self._both("work_mask", mask, seat)

    def apply_work(self, seat: int, action: int) -> None:
        def step(games: Games) -> None:
            s, lay = games.machine.state, self.rules.layout
            counts = work.phase_counts(s.loc, s.boats, s.covered, ONE, lay)
            work.work_move(counts, 0, seat, 0, action, s.pawns, lay, consts(self.rules).work,
                           self.rules.has("open-pawns"))  # fmt: skip

        self._both("apply_work", step, seat, action)

    def production_phase(self) -> None:
        self._steps("production_phase", Step.FOREST, {Step.DRAW})

    def forest(self) -> None:
        self._steps("forest", Step.FOREST, {Step.VOLCANO})

    def volcano(self) -> None:
        self._steps("volcano", Step.VOLCANO, {Step.FEED_COUNT})

    def feeding(self) -> None:
        self._steps("feeding", Step.FEED_COUNT, {Step.DRAW})

    def review_phase(self) -> None:
        self._steps("review_phase", Step.DRAW, {Step.ROUND_END})

    def draw_cards(self, seat: int, n: int) -> None:
        def run(games: Games) -> None:
            m = games.machine
            g = arrays_of(m.state, m.streams)
            review.draw_cards(g, consts(self.rules), scratch(self.rules), 0, seat, n)
            put_back(g, m.state, m.streams)

        self._both("draw_cards", run, seat, n)

    def rest(self, seat: int, hut: int) -> None:
        s = self.state
        times = min(hut, int((s.loc[seat] >= 0).sum()))
        if times:
            self._steps("rest", Step.REST, {Step.BIRTH}, seat, hut,
                        step_pos=self.position(seat), step_left=times)  # fmt: skip

    def births(self, seat: int) -> None:
        """R7.3 alone: the batch engine's births; what follows them (the boat, the card
        discarded) is left out, as the reference's `births` leaves it out."""
        held = self.state.held.copy()
        self._steps("births", Step.BIRTH, {Step.BOAT, Step.DRAW}, seat,
                    step_pos=self.position(seat))  # fmt: skip
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
