"""The benchmark library (moaisim/bench.py) at tiny sizes: shape and sanity, never speed."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from moaisim.errors import UserError
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.studies import bench


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    lines: list[str] = []
    cfg = bench.Config(
        players=(2, 4),
        lineups=("greedy", "random"),
        games=20,
        reference_games=2,
        memory_games=(100,),  # one child process: each one imports everything
        memory_players=(4,),
        seed=5,
        game="moai",
    )
    df = bench.run(cfg, progress=lines.append)
    df.attrs["progress"] = lines
    return df


def test_one_row_per_players_and_lineup(table):
    assert list(zip(table["players"], table["lineup"], strict=True)) == [
        (2, "greedy"),
        (4, "greedy"),
        (2, "random"),
        (4, "random"),
    ]
    assert (table["batch_games"] == 20).all() and (table["ref_games"] == 2).all()
    assert len(table.attrs["progress"]) == 4 + 1  # one line per timing and per memory run


def test_values_are_positive_and_consistent(table):
    for col in (
        "batch_cpu_s",
        "ref_cpu_s",
        "batch_games_per_s",
        "ref_games_per_s",
        "ratio",
        "batch_decisions_per_s",
        "ref_decisions_per_s",
        "decisions_per_game",
        "state_bytes_per_game",
    ):
        assert (table[col] > 0).all(), col
    # rates per CPU second of the measured runs, and their ratio
    assert np.allclose(table["batch_games_per_s"], table["batch_games"] / table["batch_cpu_s"])
    assert np.allclose(table["ref_games_per_s"], table["ref_games"] / table["ref_cpu_s"])
    assert np.allclose(table["ratio"], table["batch_games_per_s"] / table["ref_games_per_s"])


def decisions_in_logs(players: int, lineup: str, games: int) -> tuple[float, float]:
    """Per game, the decisions put to the strategies and all decisions (forced ones too), as
    the event logs of the same seeded games (seed 5) show them."""
    rules, classes, names = bench._lineup(players, lineup, "base", game="moai")
    g = Games.new(rules, 5, np.arange(games), log=range(games)).play(
        [c() for c in classes], names=names
    )
    decisions = [e for log in g.events.values() for e in log if e["e"] == "decision"]
    asked = sum(not e["forced"] for e in decisions)
    return asked / games, len(decisions) / games


def test_decision_counts_are_the_logs(table):
    """The benchmark's decision counts are those of the games' event logs (counted apart
    from the engines' counters)."""
    for row in table.itertuples():
        asked, decided = decisions_in_logs(row.players, row.lineup, 20)
        assert row.decisions_per_game == pytest.approx(asked)
        assert row.all_decisions_per_game == pytest.approx(decided)
        assert row.batch_decisions_per_s == pytest.approx(asked * 20 / row.batch_cpu_s)
        ref_asked, _ = decisions_in_logs(row.players, row.lineup, 2)
        assert row.ref_decisions_per_game == pytest.approx(ref_asked)
        assert row.ref_decisions_per_s == pytest.approx(ref_asked * 2 / row.ref_cpu_s)


def test_memory_columns_only_where_measured(table):
    cols = ["mem_mib_100", "mem_bytes_per_game"]
    measured = (table["players"] == 4) & (table["lineup"] == "greedy")
    assert table.loc[measured, cols].notna().all().all()
    assert table.loc[~measured, cols].isna().all().all()
    row = table.loc[measured].iloc[0]
    assert row["mem_mib_100"] >= 0 and row["mem_bytes_per_game"] >= 0
    runs = table.attrs["memory"]
    assert [(m["players"], m["games"]) for m in runs] == [(4, 100)]
    for m in runs:
        # the traced footprint holds at least the batch's state and results
        assert m["footprint_bytes"] >= m["state_bytes"] + m["results_bytes"] > 0
        assert m["peak_rss_bytes"] > m["footprint_bytes"]
        # the RSS growth during the batch is measured where /proc is (Linux), and it is part
        # of the process's peak RSS
        assert (m["rss_growth_bytes"] is not None) == Path("/proc/self/status").exists()
        assert m["rss_growth_bytes"] is None or m["rss_growth_bytes"] <= m["peak_rss_bytes"]
    assert row["rss_mib_max"] * 2**20 == runs[-1]["peak_rss_bytes"]


def test_markdown_has_header_and_one_line_per_row(table):
    text = bench.markdown(table)
    assert text.startswith("Command: `moaisim bench --players 2,4 --lineups greedy,random")
    assert f"numpy {np.__version__}" in text and "Python " in text
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + len(table)  # heading, alignment, one line per row
    assert "batch games/s/core" in rows[0] and "peak MiB B=100" in rows[0]
    assert all(line.count("|") == rows[0].count("|") for line in rows)
    assert "| 2 | random |" in text and "–" in text  # no memory figure for that row


def test_without_memory():
    df = bench.run(
        bench.Config(
            players=(3,), lineups=("random",), games=5, reference_games=1, memory=False, game="moai"
        )
    )
    assert len(df) == 1 and not any(c.startswith("mem_") for c in df.columns)
    assert "--no-memory" in df.attrs["command"]
    assert "peak MiB" not in bench.markdown(df)


def test_every_game_is_timed_and_its_uncounted_decisions_are_blank():
    """`moaisim bench --game rapa-nui` stopped on an internal error (its forward model has no
    decision counters): a game whose batch engine does not count them gets nan, shown '–'."""
    df = bench.run(bench.Config(players=(3,), lineups=("greedy",), games=6, reference_games=1,
                                memory=False, game="rapa-nui"))  # fmt: skip
    row = df.iloc[0]
    assert row["batch_games_per_s"] > 0 and row["state_bytes_per_game"] > 0
    assert math.isnan(row["decisions_per_game"]) and row["ref_decisions_per_game"] > 0
    assert "--game rapa-nui" in df.attrs["command"] and "–" in bench.markdown(df)


def test_counters_agree_between_engines_on_the_same_games():
    rules, classes, names = bench._lineup(4, "greedy", "base", game="moai")
    b = Games.new(rules, 9, np.arange(2)).play([c() for c in classes], names=names)
    refs = [
        ReferenceGame(rules, [c() for c in classes], seed=9, game=g, names=names) for g in (0, 1)
    ]
    for ref in refs:
        ref.play()
        assert 0 < ref.asked <= ref.decided
    assert b.seats.asked == sum(r.asked for r in refs)
    assert b.seats.decided == sum(r.decided for r in refs)


def test_batches_and_repeats_change_no_count():
    """Games played in batches of 4 ask exactly the decisions of one batch; every repeat is
    reported."""
    one = bench.speed(3, "random", 10, 1, 5, repeat=1, batch_size=10, game="moai")
    split = bench.speed(3, "random", 10, 1, 5, repeat=2, batch_size=4, game="moai")
    assert split["decisions_per_game"] == one["decisions_per_game"]
    assert split["all_decisions_per_game"] == one["all_decisions_per_game"]
    assert len(split["batch_cpu_s_all"].split()) == 2
    best = min(float(x) for x in split["batch_cpu_s_all"].split())
    assert split["batch_cpu_s"] == pytest.approx(best, abs=1e-3)


def test_memory_of_an_untimed_configuration_gets_its_own_row(monkeypatch):
    def fake_memory(players, games, seed, lineup, variants, game="moai"):
        f = 3 * games
        return {
            "players": players,
            "lineup": lineup,
            "games": games,
            "footprint_bytes": f,
            "peak_rss_bytes": f,
        }

    monkeypatch.setattr(bench, "memory", fake_memory)
    cfg = bench.Config(
        players=(2,),
        lineups=("random",),
        games=4,
        reference_games=1,
        memory_games=(30,),
        memory_players=(3,),
        game="moai",
    )
    df = bench.run(cfg)
    assert list(zip(df["players"], df["lineup"], strict=True)) == [(2, "random"), (3, "greedy")]
    assert math.isnan(df["mem_mib_30"].iloc[0]) and df["mem_mib_30"].iloc[1] == 90 / 2**20
    assert math.isnan(df["batch_games"].iloc[1])
    assert "| 3 | greedy | – |" in bench.markdown(df)


def test_memory_columns_slope():
    mem = pd.DataFrame(
        {
            "players": [4, 4],
            "lineup": ["greedy", "greedy"],
            "games": [100, 300],
            "footprint_bytes": [1_000, 3_000],
        }
    )
    row = bench.memory_columns(mem).iloc[0]
    assert math.isclose(row["mem_bytes_per_game"], 10.0)
    assert math.isclose(row["mem_mib_300"], 3_000 / 2**20)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": (6,)},
        {"players": (1, 2)},
        {"players": ()},
        {"lineups": ("nobody",)},
        {"games": 0},
        {"reference_games": 0},
        {"games": 3, "reference_games": 4},
        {"memory_games": (0,)},
        {"memory_players": (7,)},
        {"seed": -1},
        {"repeat": 0},
        {"batch_size": 0},
    ],
)
def test_bad_config_is_a_user_error(kwargs):
    with pytest.raises(UserError, match="^bench: "):
        bench.Config(**kwargs, game="moai").check()


def test_parse_lists():
    assert bench.parse_ints("2, 3,5", "players") == (2, 3, 5)
    assert bench.parse_ints("10_000,100000", "memory games") == (10_000, 100_000)
    assert bench.parse_names("greedy, random") == ("greedy", "random")
    with pytest.raises(UserError, match="players must be integers"):
        bench.parse_ints("2,four", "players")
