"""Kaivai's compiled machine against its reference engine (docs/kaivai-rules.md): the same
games from the same seed, decision by decision (the kind, the seat asked, how many options,
the choice) and in every seat's final figures, under every rule option, with the built-in
random and greedy play compiled and with seats asked from Python (their options the
reference's, listed the same way in the same order)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moaisim.errors import IllegalActionError, UnknownStrategyError, UserError
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import FINALS, Batch
from moaisim.games.kaivai.engine.reference import Game, RandomStrategy, View
from moaisim.games.kaivai.rules.model import OPTIONS, Rules
from moaisim.strategies.kaivai.plain import PlainGreedy


class Recorded:
    """A strategy whose every answer is kept: (seat, kind, options, choice)."""

    def __init__(self, inner: Any, log: list[tuple[int, str, list[Any], int]]) -> None:
        self.inner, self.log = inner, log

    def choose(self, view: View, kind: str, options: Sequence[Any]) -> int:
        i = int(self.inner.choose(view, kind, options))
        self.log.append((view.seat, kind, list(options), i))
        return i


def reference(rules: Rules, lineup: Sequence[str], seed: int, game: int) -> tuple[Game, list]:
    """Game `game` of `seed` on the reference engine, every decision recorded."""
    log: list[tuple[int, str, list[Any], int]] = []
    seats = [Recorded(PlainGreedy() if name == "greedy" else RandomStrategy(s), log)
             for s, name in enumerate(lineup)]  # fmt: skip
    g = Game(rules, seats, seed, game)
    g.play()
    return g, log


def figures(g: Game) -> list[list[int]]:
    """The reference game's final figures in `FINALS`' order."""
    won = set(g.winners())
    out = []
    for s, seat in enumerate(g.seats):
        boats = sum(1 for o in g.board.boats.values() if o == s)
        huts = sum(1 for x in g.board.land.values() if x.owner == s)
        out.append([seat.glory, seat.money, len(seat.fish), boats, huts, int(s in won),
                    seat.parts["feasts"], seat.parts["huts"], seat.parts["sites"],
                    seat.parts["piracy"], seat.celebrations])  # fmt: skip
    return out


def assert_same_games(rules: Rules, lineup: list[str], seed: int, games: int) -> None:
    batch = Batch.new(rules, seed, range(games), trace=4000)
    batch.play(lineup)
    assert batch.over().all()
    finals = batch.finals()
    for i in range(games):
        g, log = reference(rules, lineup, seed, i)
        assert batch.traced(i) == [(kind, s, len(opts), c) for s, kind, opts, c in log], (
            f"game {i} of seed {seed} ({rules.setup}, {lineup})"
        )
        assert finals[i].tolist() == figures(g), f"game {i} of seed {seed} ({rules.setup})"


#: One set-up per option value besides the defaults, and the two editions together with some.
SETUPS = [
    {},
    {"edition": "second"},
    {"fishing": "lessluck"},
    {"fishing": "luckless", "extra_site_zone": "anywhere"},
    {"piracy_pays": "victim", "presence_boats_on_huts": "true"},
    {"influence_visibility": "hidden", "trap_tie": "all_cut_off"},
    {"edition": "second", "fishing": "lessluck", "trap_tie": "all_cut_off"},
]


def test_every_option_value_is_in_a_set_up_here():
    seen = {(k, v) for setup in SETUPS for k, v in setup.items()}
    for name, values in OPTIONS.items():
        for value in values[1:]:
            assert (name, value) in seen, (name, value)


@pytest.mark.parametrize("options", SETUPS, ids=lambda o: "+".join(f"{k}={v}" for k, v in
                                                                o.items()) or "base")  # fmt: skip
@pytest.mark.parametrize("players", [3, 4])
def test_the_two_engines_play_the_same_games_under_each_option(options, players):
    rules = Rules.make(players, **options)
    lineup = ["greedy", "random", "greedy", "random"][:players]
    assert_same_games(rules, lineup, seed=players * 100 + len(options), games=6)


@pytest.mark.parametrize("lineup", [["random"] * 4, ["greedy"] * 4])
def test_the_two_engines_play_the_same_games_in_self_play(lineup):
    assert_same_games(Rules.make(4), lineup, seed=11, games=6)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]),
       setup=st.sampled_from(SETUPS), seats=st.lists(st.sampled_from(["random", "greedy"]),
                                                     min_size=4, max_size=4),
       params=st.sampled_from([{}, {"rounds": 3}, {"boats": 2, "start_influence": 0},
                               {"sacrifice_influence": 0, "sink_cost_base": 2}]))  # fmt: skip
def test_the_two_engines_agree_on_random_seeds_set_ups_and_line_ups(seed, players, setup,
                                                                   seats, params):  # fmt: skip
    rules = Rules.make(players, params=params, **setup)
    assert_same_games(rules, seats[:players], seed=seed, games=2)


def test_a_python_seat_is_offered_the_reference_options_and_its_answers_play_that_game():
    rules = Rules.make(4, edition="second")
    lineup = ["random", "greedy", "random", "greedy"]
    for game in range(3):
        g, log = reference(rules, lineup, 7, game)
        batch = Batch.new(rules, 7, [game])
        batch.play([None, "greedy", None, "greedy"])  # the random seats asked from Python
        mine = [(s, kind, opts, c) for s, kind, opts, c in log if s in (0, 2)]
        asked = 0
        while batch.waiting():
            [(row, seat, kind, options)] = batch.waiting()
            assert (seat, kind, options) == mine[asked][:3], f"question {asked} of game {game}"
            batch.answer(row, mine[asked][3])
            asked += 1
        assert asked == len(mine) > 50
        assert batch.finals()[0].tolist() == figures(g)


def test_every_kind_of_question_reaches_a_python_seat_with_the_reference_options():
    kinds: set[str] = set()
    for game in range(12):
        rules = Rules.make(3)
        g, log = reference(rules, ["random"] * 3, 3, game)
        batch = Batch.new(rules, 3, [game])
        batch.play([None] * 3)
        for seat, kind, options, choice in log:
            [(row, asked, what, listed)] = batch.waiting()
            assert (asked, what, listed) == (seat, kind, options)
            batch.answer(row, choice)
            kinds.add(kind)
        assert not batch.waiting() and batch.over().all()
        assert batch.finals()[0].tolist() == figures(g)
    # D1-D12 but the move step (random play moves in some games only) and the continue
    assert {"bid", "found", "god", "action", "build_step", "fish_step", "deliver_step",
            "build", "deliver", "celebrate", "score_island", "island_bid"} <= kinds  # fmt: skip


def test_a_wrong_answer_is_one_line_and_changes_nothing():
    batch = Batch.new(Rules.make(3), 1, [0])
    batch.play([None, "random", "random"])
    [(row, seat, kind, options)] = batch.waiting()
    before = [a.copy() for a in batch.g]
    for bad in (len(options), -1, True, 1.5):
        with pytest.raises(IllegalActionError, match=f"not an index into its {len(options)} "):
            batch.answer(row, bad)
    assert all(np.array_equal(a, b) for a, b in zip(before, batch.g, strict=True))
    assert batch.waiting() == [(row, seat, kind, options)]
    with pytest.raises(UnknownStrategyError, match="no compiled Kaivai strategy 'tuned'"):
        batch.play(["tuned", "random", "random"])


def test_a_game_over_waits_on_nothing_and_its_figures_name_one_winner_at_least():
    batch = Batch.new(Rules.make(4), 5, range(50))
    batch.play(["greedy"] * 4)
    finals = batch.finals()
    assert batch.over().all() and not batch.waiting()
    assert (finals[:, :, FINALS.index("winner")].sum(axis=1) >= 1).all()
    parts = finals[:, :, [FINALS.index(k) for k in ("feasts", "hut_glory", "sites", "piracy")]]
    assert (parts.sum(axis=2) == finals[:, :, FINALS.index("glory")]).all()  # R10: glory's parts
    with pytest.raises(UserError, match="waits on no question"):
        batch.answer(0, 0)


def test_the_machine_keeps_its_kernels_in_kaivais_own_cache_folder():
    from moaisim import kernel_cache

    where = m.play_rows._cache._cache_path
    assert where.startswith(str(kernel_cache.base() / "moaisim-kaivai-")), where
    assert kernel_cache.digest(kernel_cache.sources("kaivai")) in where
    assert not any("rapa_nui" in str(p) or "/moai/" in str(p)
                   for p in kernel_cache.sources("kaivai"))  # fmt: skip
