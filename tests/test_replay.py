"""The event log is enough to replay a game: its decisions, fed back, give the same log."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import moaisim
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.base import Strategy


class Replay(Strategy):
    """Answers with the logged, unforced decisions of one seat, in order."""

    name = "replay"

    def __init__(self, decisions: list[dict]) -> None:
        self.decisions = decisions

    def _answer(self, view: SeatView) -> np.ndarray:
        d = self.decisions.pop(0)
        assert d["kind"] == view.kind.value
        return np.asarray([d["action"]])


for _kind in Kind:
    setattr(Replay, _kind.value, lambda self, view: self._answer(view))


@settings(max_examples=12, deadline=None)
@given(
    st.integers(2, 5),
    st.integers(0, 10_000),
    st.sampled_from(["base", "open-bidding", "short+fixed-disasters", "open-pawns"]),
    st.sampled_from(["random", "greedy"]),
)
def test_replaying_logged_decisions_reproduces_the_game(players, seed, variant, strategy):
    rec = moaisim.play(players, seed, strategies=strategy, variants=variant)
    per_seat: list[list[dict]] = [[] for _ in range(players)]
    for e in rec.events:
        if e["e"] == "decision" and not e["forced"]:
            per_seat[e["seat"]].append(e)
    g = ReferenceGame(Rules.make(players, variant), [Replay(d) for d in per_seat], seed=seed)
    assert g.play() == rec.events
    assert all(not d for d in per_seat)


def test_chance_outcomes_are_in_the_log():
    rec = moaisim.play(4, 21, strategies="greedy")
    setup = rec.events[0]
    assert setup["e"] == "setup"
    assert sorted(setup["epoch_deck"]) == list(range(36))
    assert len(setup["deck"]) + sum(map(sum, setup["hands"])) == 40
    admiral = next(c.id for c in rec.rules.components.epoch_cards if c.is_admiral)
    reveals = [c for e in rec.events if e["e"] == "reveal" for c in e["cards"]]
    assert reveals == [c for c in setup["epoch_deck"] if c != admiral][: len(reveals)]
