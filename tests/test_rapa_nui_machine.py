"""Rapa Nui's fast machine against its reference engine: the same games from the same seeds
(whole results tables equal, under every rule option), Python seats paused and answered
through views equal to the reference engine's, and the machine's own invariants."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rapa_nui_reference import OPTIONS

from moaisim.errors import StrategyError
from moaisim.games.rapa_nui.engine.batch import Batch
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.engine.results import frame, ranked, ranks_and_shares, seat_rows
from moaisim.games.rapa_nui.engine.views import FIELDS
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.strategies.rapa_nui.base import Strategy, random_choice


class Recorder(Strategy):
    """Random play written in Python (so the machine pauses for it), keeping every view it
    is asked through, game by game."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, dict[str, list]]] = []

    def answer(self, kind: str, view) -> np.ndarray:  # noqa: ANN001
        for i in range(len(view)):
            fields = {f: np.asarray(getattr(view, f))[i].tolist() for f in FIELDS}
            fields["legal"] = np.flatnonzero(view.legal[i]).tolist()
            self.seen.append((kind, i, fields))
        return random_choice(view)


for _kind in Kind:
    setattr(Recorder, _kind.value, lambda self, view, k=_kind.value: self.answer(k, view))


def reference_table(rules: Rules, seed: int, games: range, make) -> pd.DataFrame:  # noqa: ANN001
    parts = []
    for i in games:
        seats = [make() for _ in range(rules.players)]
        g = ReferenceGame(rules, seats, seed=seed, game=i)
        g.play()
        parts.append(frame(seat_rows(g.state, seed, i, [s.name for s in seats])))
    return pd.concat(parts, ignore_index=True)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), options=OPTIONS)
def test_the_machine_plays_the_reference_engines_games_under_every_option(players, seed,
                                                                          options):  # fmt: skip
    rules = Rules.make(players, **options)
    games = range(6)
    machine = Batch(rules, seed, games).play([Strategy() for _ in range(players)])
    reference = reference_table(rules, seed, games, Strategy)
    pd.testing.assert_frame_equal(machine, reference, check_categorical=False)


@pytest.mark.parametrize(("players", "options"), [
    (2, {}), (3, {"start_sacrifice": "one_choice", "refill_columns": "same"}),
    (4, {"stuck_hand": "pass", "end_timing": "round", "hg_income": "per_card"}),
])  # fmt: skip
def test_a_python_seat_is_asked_through_the_views_the_reference_engine_shows(players, options):
    """R10: game by game, the machine asks a Python seat the same questions, with the same
    legal actions, through views whose every field equals the reference engine's."""
    rules = Rules.make(players, **options)
    for i in range(4):
        in_machine, in_reference = Recorder(), Recorder()
        others = [Strategy() for _ in range(players - 1)]
        table = Batch(rules, 11, [i]).play([in_machine, *others])
        g = ReferenceGame(rules, [in_reference, *others], seed=11, game=i)
        g.play()
        assert table["score"].tolist() == g.scores
        assert in_machine.seen == in_reference.seen and len(in_machine.seen) > 10


def test_the_same_games_in_any_batch_are_the_same_games():
    rules = Rules.make(3)
    whole = Batch(rules, 3, range(10)).play([Strategy()] * 3)
    part = Batch(rules, 3, [7, 2]).play([Strategy()] * 3)
    mine = whole[whole["game"].isin([7, 2])].set_index(["game", "seat"]).sort_index()
    pd.testing.assert_frame_equal(mine, part.set_index(["game", "seat"]).sort_index(),
                                  check_categorical=False)  # fmt: skip


def test_a_python_seat_answering_illegally_is_one_clear_error():
    class Bad(Strategy):
        def take(self, view):  # noqa: ANN001, ANN202
            return np.full(len(view), 99)

    with pytest.raises(StrategyError, match="not one legal action"):
        Batch(Rules.make(2), 1, range(3)).play([Bad(), Strategy()])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda p: st.lists(
            st.tuples(st.lists(st.integers(0, 6), min_size=p, max_size=p),
                      st.lists(st.integers(0, 3), min_size=p, max_size=p)),
            min_size=1, max_size=6,
        )
    ),
    st.sampled_from(["share", "most_wood"]),
)  # fmt: skip
def test_r9_4_ranks_of_many_games_at_once_are_each_games_own(games, winner_tie):
    """R9.4 on arrays (`ranked`: the batch results and a search's rollouts) gives each game the
    ranks and shares the one-game rule (`ranks_and_shares`, the reference engine's) gives it:
    small scores and wood, so ties of both are common."""
    scores = np.array([s for s, _ in games])
    wood = np.array([w for _, w in games])
    rank, share = ranked(scores, wood, winner_tie)
    for i, (s, w) in enumerate(games):
        one_rank, one_share = ranks_and_shares(s, w, winner_tie)
        assert rank[i].tolist() == one_rank and share[i].tolist() == one_share
