"""A game's result never depends on the games beside it (docs/design.md, "Seeds").

"Game i's streams are a pure function of (root seed, i) ... Results never depend on batch size,
n_jobs, backend, chunk order or engine": in the batch engine game i gives the same result
alone, in a batch of 7 and in a batch of 1000, in any position and order, and whether or not
its event log (or any other game's) is kept.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.rules import Rules
from moaisim.registry import load_strategy

SEED = 0xC0FFEE
TARGETS = [0, 5, 999, 123_456_789, 2**62 + 1]

CONFIGS = {
    "random": (Rules.make(4, "base"), ["random"] * 4),
    "greedy": (Rules.make(4, "base"), ["greedy"] * 4),
    "mixed-variants": (
        Rules.make(3, "open-bidding+short", turn_order="clockwise", volcano_after_moai="camp"),
        ["greedy", "random", "greedy"],
    ),
}


def play(config: str, games, log=None) -> Games:
    rules, lineup = CONFIGS[config]
    strategies = [load_strategy(n)() for n in lineup]
    return Games.new(rules, SEED, np.asarray(games), log=log).play(strategies, names=lineup)


def rows_of(df: pd.DataFrame, game: int) -> pd.DataFrame:
    return df[df["game"] == game].reset_index(drop=True)


def by_game(df: pd.DataFrame) -> pd.DataFrame:
    return df.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)


@pytest.fixture(scope="module", params=list(CONFIGS))
def config(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def alone(config) -> dict[int, pd.DataFrame]:
    """Each target game played in a batch of its own."""
    return {t: play(config, [t]).results() for t in TARGETS}


def test_game_alone_equals_game_in_a_batch_of_7(config, alone):
    """Different neighbours and different positions in the batch change nothing."""
    rng = np.random.default_rng(7)
    for k, t in enumerate(TARGETS):
        others = [int(x) for x in rng.choice(10**9, size=6, replace=False) if x != t][:6]
        games = others[:k] + [t] + others[k:]
        res = play(config, games).results()
        pd.testing.assert_frame_equal(rows_of(res, t), alone[t], obj=f"game {t} in a batch of 7")
        assert res["game"].tolist() == np.repeat(games, len(alone[t])).tolist()


def test_game_alone_equals_game_in_a_batch_of_1000_in_any_order(config, alone):
    """Batch of 1000 (the targets among 995 others) played in two different orders: every
    game, not only the targets, gives the same result in both."""
    rng = np.random.default_rng(1000)
    games = np.concatenate([TARGETS, 10_000 + rng.choice(10**6, size=995, replace=False)])
    first = play(config, rng.permutation(games)).results()
    second = play(config, rng.permutation(games)).results()
    pd.testing.assert_frame_equal(by_game(first), by_game(second))
    for t in TARGETS:
        pd.testing.assert_frame_equal(rows_of(first, t), alone[t], obj=f"game {t} among 1000")
    assert set(first["game"]) == set(games.tolist())


def test_logging_changes_nothing(config):
    """Keeping event logs (none, some, all games) changes no result; a game's log is the same
    whether it is logged alone or with its neighbours'."""
    games = [11, 3, 2**33, 40, 7, 0, 19]
    plain = play(config, games).results()
    some = play(config, games, log=[3, 7])
    every = play(config, games, log=games)
    pd.testing.assert_frame_equal(some.results(), plain)
    pd.testing.assert_frame_equal(every.results(), plain)
    assert sorted(some.events) == [3, 7]
    assert sorted(every.events) == sorted(games)
    for g in (3, 7):
        assert some.events[g] == every.events[g]
        assert play(config, [g], log=[g]).events[g] == every.events[g]
    assert every.events[3] != every.events[7]
    # a logged game's end event agrees with the results table
    for g in games:
        end = every.events[g][-1]
        assert end["e"] == "end"
        assert end["scores"] == rows_of(plain, g)["score"].tolist()
        assert set(rows_of(plain, g)["rounds"]) == {end["rounds"]}


def test_log_of_games_outside_the_batch_is_ignored(config):
    games = [1, 2, 3]
    g = play(config, games, log=[2, 99])
    assert sorted(g.events) == [2]
    pd.testing.assert_frame_equal(g.results(), play(config, games).results())


@pytest.mark.parametrize(
    ("players", "strategies", "variants"),
    [(4, "random", "base"), (5, "greedy,random", None)],
)
def test_simulate_batch_size_changes_nothing(players, strategies, variants):
    """`moaisim.simulate` chunks the games into batches: any batch size, same table."""
    if variants is None:  # a mixed lineup, one spec per seat
        strategies = ",".join(["greedy", "random", "random", "greedy", "random"])
        variants = "fixed-disasters+open-pawns"
    kw = dict(strategies=strategies, variants=variants, seed=SEED)
    whole = moaisim.simulate(players, 24, **kw)
    assert len(whole) == 24 * players
    for size in (4, 23):
        pd.testing.assert_frame_equal(moaisim.simulate(players, 24, batch_size=size, **kw), whole)
    # given indices in another order: the same rows for the same games
    order = np.random.default_rng(3).permutation(24).tolist()
    shuffled = moaisim.simulate(players, order, batch_size=5, **kw)
    pd.testing.assert_frame_equal(by_game(shuffled), whole)
