"""Property tests over random seeds, player counts, variants and lineups (hypothesis)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import CheckedGame

from moaisim.engine.reference import Game
from moaisim.engine.results import frame, seat_rows
from moaisim.registry import load_strategy
from moaisim.rules import VARIANTS, Rules

VARIANT_SETS = st.sets(
    st.sampled_from(sorted(set(VARIANTS) - {"open-bidding-strict"})), max_size=3
) | st.just({"open-bidding-strict", "short"})
LINEUP = st.sampled_from(["random", "greedy"])


@st.composite
def configs(draw: st.DrawFn) -> tuple[Rules, list[str], int, int]:
    players = draw(st.integers(2, 5))
    rules = Rules.make(
        players,
        sorted(draw(VARIANT_SETS)),
        turn_order=draw(st.sampled_from(["hill", "clockwise"])),
        volcano_after_moai=draw(st.sampled_from(["stay", "camp"])),
        spent_wood=draw(st.sampled_from(["supply", "out"])),
    )
    lineup = [draw(LINEUP) for _ in range(players)]
    return rules, lineup, draw(st.integers(0, 2**32)), draw(st.integers(0, 10_000))


def run(rules: Rules, lineup: list[str], seed: int, game: int, cls: type[Game] = Game) -> Game:
    g = cls(rules, [load_strategy(n)() for n in lineup], seed=seed, game=game, names=lineup)
    g.play()
    return g


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs())
def test_conservation_and_legality_after_every_event(config):
    """18 pawns, 15 wood, 40 cards, 21 tiles, 10 tokens; every applied action legal; the
    game ends; final score = Moai height + living pawns + 2 x wood (R8.2)."""
    rules, lineup, seed, game = config
    g = run(rules, lineup, seed, game, CheckedGame)
    end = g.events[-1]
    assert end["e"] == "end"
    s = g.state
    assert s.last_round and s.round == end["rounds"]
    heights = np.asarray(rules.components.moai_heights)
    for seat in range(rules.players):
        living = int((s.loc[seat] >= -1).sum())
        expected = int(heights[s.moai_owner == seat].sum()) + living + 2 * int(s.wood[seat])
        assert end["scores"][seat] == expected
    df = frame(seat_rows(s, seed, game, lineup))
    assert (df["score"] == df["moai_height"] + df["pawns"] + 2 * df["wood"]).all()
    assert df["win"].any() and (df.loc[df["win"], "score"] == df["score"].max()).all()


@settings(max_examples=15, deadline=None)
@given(configs())
def test_same_seed_same_event_log(config):
    rules, lineup, seed, game = config
    assert run(rules, lineup, seed, game).events == run(rules, lineup, seed, game).events


@settings(max_examples=10, deadline=None)
@given(configs(), st.integers(0, 2**31))
def test_global_random_state_changes_nothing(config, noise):
    rules, lineup, seed, game = config
    random.seed(noise)
    np.random.seed(noise % 2**32)
    first = run(rules, lineup, seed, game).events
    random.seed(noise + 1)
    np.random.seed((noise + 7) % 2**32)
    random.random()
    np.random.random(100)
    assert run(rules, lineup, seed, game).events == first
