"""The batch engine plays exactly the reference engine's games (docs/design.md: two engines).

"Same rules + same strategies + same game seed => identical game, in either engine and at any
batch size": for every variant (docs/rules.md V1-V5) alone and in combination, both rule options
(R2 `turn_order`, R5.6/R6.2 `volcano_after_moai`), 2-5 players and mixed lineups, the batch
engine's per-seat results equal the reference engine's game by game, and the event logs of the
logged games are identical. The public API (`moaisim.simulate`, `moaisim.play`) gives the same
tables, logs and texts with `engine="batch"` and `engine="reference"`.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import moaisim
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.results import frame, seat_rows
from moaisim.games.moai.rules import VARIANTS, Rules
from moaisim.registry import load_strategy

#: every variant alone, plus combinations (V2 and V4 exclude each other)
VARIANT_SETS: tuple[str, ...] = (
    "base",
    *sorted(VARIANTS),
    "short+fixed-disasters",
    "open-pawns+open-bidding-strict",
    "open-bidding+short+open-pawns",
    "open-pawns+short+open-bidding-strict+fixed-disasters",
)
OPTIONS = list(itertools.product(("hill", "clockwise"), ("stay", "camp")))


def lineup_of(kind: str, players: int, rng: np.random.Generator) -> list[str]:
    if kind == "mixed":
        names = ["random", "greedy"] * players
        return [names[i] for i in rng.permutation(len(names))[:players]]
    return [kind] * players


def reference(
    rules: Rules, lineup: list[str], seed: int, games: list[int]
) -> tuple[pd.DataFrame, dict[int, list[dict]]]:
    """The reference engine's results (game by game, seat by seat) and event logs."""
    parts, events = [], {}
    for game in games:
        g = ReferenceGame(
            rules, [load_strategy(n)() for n in lineup], seed=seed, game=game, names=lineup
        )
        events[game] = g.play()
        parts.append(frame(seat_rows(g.state, seed, game, lineup)))
    df = pd.concat(parts, ignore_index=True)
    for col in ("variant", "strategy"):
        df[col] = df[col].astype("category")
    return df, events


def batch(
    rules: Rules, lineup: list[str], seed: int, games: list[int], log: list[int] | None = None
) -> Games:
    strategies = [load_strategy(n)() for n in lineup]
    return Games.new(rules, seed, np.array(games), log=log).play(strategies, names=lineup)


def assert_same_games(
    rules: Rules, lineup: list[str], seed: int, games: list[int], log: list[int]
) -> None:
    """Results equal game by game; the logged games' event logs equal the reference's."""
    want, want_events = reference(rules, lineup, seed, games)
    got = batch(rules, lineup, seed, games, log=log)
    res = got.results()
    p = rules.players
    for i, game in enumerate(games):  # game by game, so a failure names the game
        pd.testing.assert_frame_equal(
            res.iloc[i * p : (i + 1) * p].reset_index(drop=True),
            want.iloc[i * p : (i + 1) * p].reset_index(drop=True),
            obj=f"results of game {game} (seed {seed}, {rules.variant}, {lineup})",
        )
    pd.testing.assert_frame_equal(res, want)
    assert sorted(got.events) == sorted(log)
    for game in log:
        assert got.events[game] == want_events[game], f"event log of game {game}, seed {seed}"
        assert got.events[game][-1]["e"] == "end"


def matrix() -> list[tuple[int, str, str, str, str]]:
    """Every variant set at 2, 3, 4 and 5 players; options and lineups cycle through."""
    cases = []
    for k, (variant, players) in enumerate(itertools.product(VARIANT_SETS, range(2, 6))):
        turn_order, volcano = OPTIONS[(k + k // 4) % 4]
        lineup = ("mixed", "random", "greedy")[k % 3]
        cases.append((players, variant, turn_order, volcano, lineup))
    return cases


@pytest.mark.parametrize(("players", "variant", "turn_order", "volcano", "lineup"), matrix())
def test_batch_equals_reference_game_by_game(players, variant, turn_order, volcano, lineup):
    """Section 2: three seeded games per case, played together in one batch; two are logged
    (the batch's first and last), so an unlogged game beside logged ones is also checked."""
    rng = np.random.default_rng([players, len(variant), VARIANT_SETS.index(variant)])
    seed = int(rng.integers(2**64, dtype=np.uint64))
    games = [int(x) for x in rng.choice(1_000_000, size=3, replace=False)]
    rules = Rules.make(players, variant, turn_order=turn_order, volcano_after_moai=volcano)
    assert_same_games(rules, lineup_of(lineup, players, rng), seed, games, [games[0], games[2]])


@pytest.mark.parametrize("turn_order", ["hill", "clockwise"])
@pytest.mark.parametrize("volcano", ["stay", "camp"])
@pytest.mark.parametrize("spent_wood", ["supply", "out"])
def test_every_option_set_at_every_player_count(turn_order, volcano, spent_wood):
    """R2 turn order, the volcano and the spent-wood options, under base rules, 2-5 players,
    mixed lineups."""
    rng = np.random.default_rng([7, len(turn_order), len(volcano), len(spent_wood)])
    for players in range(2, 6):
        rules = Rules.make(
            players,
            "base",
            turn_order=turn_order,
            volcano_after_moai=volcano,
            spent_wood=spent_wood,
        )
        seed = int(rng.integers(2**32))
        games = [int(x) for x in rng.choice(10_000, size=2, replace=False)]
        assert_same_games(rules, lineup_of("mixed", players, rng), seed, games, games[:1])


@pytest.mark.parametrize(
    "params",
    [{"moai_points": 2}, {"moai_points": 0}, {"wood_per_palm": 2},
     {"wood_per_palm": 3, "wood_supply": 7, "forest_spaces": 8}, {"wood_per_palm": 0}],
)  # fmt: skip
def test_batch_equals_reference_under_the_score_and_wood_parameters(params):
    """`moai_points` (R8.2) and `wood_per_palm` (R3.1), 2-5 players, mixed lineups: the same
    results and logs (a log's reveal names the spaces that got wood)."""
    rng = np.random.default_rng([11, *sorted(params.values())])
    for players in range(2, 6):
        rules = Rules.make(players, params=params)
        seed = int(rng.integers(2**32))
        games = [int(x) for x in rng.choice(10_000, size=3, replace=False)]
        assert_same_games(rules, lineup_of("mixed", players, rng), seed, games, games[:2])


VARIANT_CHOICE = st.sets(st.sampled_from(sorted(VARIANTS)), max_size=4).filter(
    lambda v: not {"open-bidding", "open-bidding-strict"} <= v
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 5),
    variants=VARIANT_CHOICE,
    turn_order=st.sampled_from(["hill", "clockwise"]),
    volcano=st.sampled_from(["stay", "camp"]),
    spent_wood=st.sampled_from(["supply", "out"]),
    lineup=st.lists(st.sampled_from(["random", "greedy"]), min_size=5, max_size=5),
    seed=st.integers(0, 2**64 - 1),
    games=st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=3, unique=True),
)
def test_batch_equals_reference_for_random_configs(
    players, variants, turn_order, volcano, spent_wood, lineup, seed, games
):
    """Any variant set, options, lineup, root seed and game indices (up to 2**63 - 1)."""
    rules = Rules.make(
        players,
        sorted(variants) or "base",
        turn_order=turn_order,
        volcano_after_moai=volcano,
        spent_wood=spent_wood,
    )
    assert_same_games(rules, lineup[:players], seed, games, games[-1:])


def test_one_game_batch_equals_reference_including_decision_counts():
    """A batch of one game: same log; its decisions are the log's decision events."""
    rules = Rules.make(4, "open-bidding+fixed-disasters", turn_order="clockwise")
    lineup = ["greedy", "random", "random", "greedy"]
    got = batch(rules, lineup, 31337, [9], log=[9])
    _, want = reference(rules, lineup, 31337, [9])
    assert got.events[9] == want[9]
    decisions = [e for e in want[9] if e["e"] == "decision"]
    assert got.seats.decided == len(decisions)
    assert got.seats.asked == sum(not e["forced"] for e in decisions)


@pytest.mark.parametrize(
    ("players", "strategies", "variants", "options"),
    [
        (4, "greedy", "base", {}),
        (3, ["greedy", "random", "greedy"], "short+fixed-disasters", {"turn_order": "clockwise"}),
        (5, "random", "open-pawns+open-bidding-strict", {"volcano_after_moai": "camp"}),
        (2, ["random", "greedy"], "open-bidding+short+open-pawns", {}),
    ],
)
def test_simulate_batch_equals_simulate_reference(players, strategies, variants, options):
    """`moaisim.simulate` (section 3): the same table from either engine, at any batch size."""
    kw = dict(strategies=strategies, variants=variants, seed=2024 + players, **options)
    ref = moaisim.simulate(players, 8, engine="reference", **kw)
    assert len(ref) == 8 * players
    assert ref["game"].tolist() == np.repeat(np.arange(8), players).tolist()
    for size in (3, 10_000):
        pd.testing.assert_frame_equal(
            moaisim.simulate(players, 8, engine="batch", batch_size=size, **kw), ref
        )


def test_simulate_given_game_indices_batch_equals_reference():
    """Game indices given explicitly (any order, far apart) play the same in both engines."""
    games = [2**40, 3, 17, 999_999]
    kw = dict(strategies="random,greedy,random", variants="open-pawns", seed=5)
    ref = moaisim.simulate(3, games, engine="reference", **kw)
    pd.testing.assert_frame_equal(moaisim.simulate(3, games, engine="batch", **kw), ref)
    assert ref["game"].unique().tolist() == sorted(games)  # rows by game, then seat


@pytest.mark.parametrize(
    ("players", "seed", "game", "strategies", "variants", "options"),
    [
        (4, 7, 0, "greedy", "base", {}),
        (5, 11, 3, "random", "short+fixed-disasters", {"volcano_after_moai": "camp"}),
        (3, 7, 2, "greedy,random,greedy", "open-bidding-strict", {"turn_order": "clockwise"}),
        (2, 123, 45, "random,greedy", "open-pawns+open-bidding", {}),
    ],
)
def test_play_batch_equals_play_reference(players, seed, game, strategies, variants, options):
    """`moaisim.play(engine="batch")`: the same events, readable text and result table."""
    kw = dict(game=game, strategies=strategies, variants=variants, **options)
    ref = moaisim.play(players, seed, engine="reference", **kw)
    got = moaisim.play(players, seed, engine="batch", **kw)
    assert got.events == ref.events
    assert got.text() == ref.text()
    assert got.jsonl() == ref.jsonl()
    pd.testing.assert_frame_equal(got.result, ref.result)
    assert got.result["game"].tolist() == [game] * players
