"""`moaisim versus` (docs/running.md, "One strategy against a field") and the cost of
`--rotation all` said up front."""

from __future__ import annotations

import importlib
import warnings

import pandas as pd
import pytest

import moaisim
from moaisim.cli import main
from moaisim.runner import RunWarning, make_study
from moaisim.studies.versus import search_cpu, versus


def test_the_candidate_and_the_field_share_every_win():
    """Per game the candidate's share plus the field's seats' shares is 1: the candidate's
    share + (P - 1) x the field's mean share = 1, whatever happens."""
    table = versus("forester", "greedy,moai", players=[3, 4], games=120, seed=5, game="moai")
    for p, part in table.groupby("players"):
        cand = part[part["side"] == "candidate"].iloc[0]
        field = part[part["side"] == "field"].iloc[0]
        assert cand["win_share"] + (p - 1) * field["win_share"] == pytest.approx(1.0)
        assert cand["vs_fair"] == pytest.approx(cand["win_share"] - 1 / p)
        assert cand["lo"] <= cand["win_share"] <= cand["hi"]
        assert cand["games"] == 120 and cand["strategy"] == "forester"
        assert field["strategy"] == "greedy,moai"


def test_the_candidate_is_its_own_seat_even_when_it_is_also_in_the_field():
    """greedy against greedy is self-play: its share is 1/P up to chance, and its measures
    are those of the seat the rotation gives it (computed here from the raw rows)."""
    table = versus("greedy", "greedy", players=3, games=300, seed=8, game="moai")
    cand = table[table["side"] == "candidate"].iloc[0]
    assert cand["lo"] <= 1 / 3 <= cand["hi"]
    df = moaisim.simulate(3, 300, strategies="greedy", seed=8)  # the same games
    seat = (3 - df["game"] % 3) % 3  # cyclic rotation r puts lineup[0] in seat (3 - r) % 3
    mine = df[df["seat"] == seat]
    assert cand["score"] == pytest.approx(mine["score"].mean())
    assert cand["rank"] == pytest.approx(mine["rank"].mean())


def test_a_weak_candidate_is_below_fair_with_an_interval_that_says_so():
    table = versus("random", "greedy", players=[3], games=200, seed=1, game="moai")
    cand = table[table["side"] == "candidate"].iloc[0]
    assert cand["vs_fair_hi"] < 0 and cand["rank"] > 2.5
    df = moaisim.simulate(3, 200, strategies="random,greedy,greedy", seed=1)
    assert cand["moai_height"] == pytest.approx(df[df.strategy == "random"]["moai_height"].mean())


def test_the_versus_command_prints_and_writes_its_table(capsys, tmp_path):
    csv = tmp_path / "v.csv"
    args = ["versus", "heuristic", "--field", "greedy", "-p", "3", "-n", "60", "--param",
            "wood_points=3", "--csv", str(csv)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "3 players, wood_points=3: 60 games, seats rotated (fair share 0.333)" in out
    assert "candidate heuristic" in out and "field     greedy" in out
    table = pd.read_csv(csv)
    assert list(table["side"]) == ["candidate", "field"]
    for args, message in (
        (["versus", "greedy", "--field", "a,b,c", "-p", "3"], "unknown strategy 'a'"),
        (["versus", "greedy", "--field", "greedy,greedy,greedy", "-p", "3"],
         "the field names 3 strategies for the 2 other seats"),
        (["versus", "greedy", "-n", "0"], "games must be a positive whole number"),
    ):  # fmt: skip
        assert main(args) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1


def test_rotation_all_says_its_cost_up_front_and_warns_past_twice_the_games(capsys):
    study = make_study(4, 100, ["greedy,random,moai,fisher"], rotation="all", game="moai")
    cost = study.seating_cost()
    assert cost.startswith("warning: rotation all: up to 24 distinct seatings per cell")
    assert "about 4.2 of the 100 games" in cost and "take 6 times the games" in cost
    assert "a multiple of 24 games" in cost
    mild = make_study(3, 60, ["greedy,random,random"], rotation="all", game="moai").seating_cost()
    assert not mild.startswith("warning") and "up to 3 distinct seatings" in mild
    assert (
        make_study(4, 10, ["greedy"], game="moai").seating_cost() is None
    )  # cyclic: nothing to say
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        moaisim.simulate(4, 24, strategies="greedy,random,moai,fisher", rotation="all")
    assert [w.category for w in caught] == [RunWarning]
    assert main(["simulate", "-p", "4", "-n", "24", "--strategies", "greedy,random,moai,fisher",
                 "--rotation", "all", "-q"]) == 0  # fmt: skip
    assert capsys.readouterr().err.startswith("moaisim: warning: rotation all: up to 24")


def test_a_skill_level_as_the_field_plays_that_player_counts_field(capsys):
    """--field L3 is nash-3p.toml at 3 players and nash-4p.toml at 4: the same games as
    naming the mixture files; a level as the candidate too (L1 is greedy)."""
    by_level = versus("L1", "L3", players=[3, 4], games=12, seed=5, game="moai")
    for p in (3, 4):
        named = versus("greedy", f"mixture(file=strategies/moai/weights/nash-{p}p.toml)", players=p,
                       games=12, seed=5, game="moai")  # fmt: skip
        row = by_level[by_level["players"] == p].reset_index(drop=True)
        # the field is named by its level, never by the mixture file's path on this machine
        assert row["strategy"].tolist() == ["greedy", "L3"]
        assert row["win_share"].tolist() == named["win_share"].tolist()
    assert main(["versus", "greedy", "--field", "L3", "-p", "3", "-n", "6"]) == 0
    out = capsys.readouterr().out
    assert "field     L3 " in out and "nash-3p.toml" not in out and "/" not in out


def test_tune_takes_a_skill_level_as_its_field():
    from moaisim.studies.tune import lineups

    [first, *_] = lineups(3, "heuristic", "L1", game="moai")
    assert [s.label for s in first] == ["heuristic", "greedy", "greedy"]
    [first, *_] = lineups(4, "heuristic", "L3", game="moai")
    assert "nash-4p.toml" in first[1].label


def test_the_search_warning_counts_the_seats_that_search(monkeypatch):
    # made-up costs (1 s a searching seat and game at 2 players, 2 s at 3) so that the
    # counting is checked: one candidate seat at 2 and 3 players (2 x 10 games), then a field
    # of L4 in the 2 other seats at 3 players, then both
    vs = importlib.import_module("moaisim.studies.versus")  # the module, not its function
    made_up = {2: 1.0, 3: 2.0}
    monkeypatch.setattr(vs, "search_seconds", lambda game, p: made_up.get(p, 2.0))
    assert search_cpu("search", "L3", [2, 3], 10, "moai") == pytest.approx(10 + 20)
    assert search_cpu("tuned", "L4", [3], 10, "moai") == pytest.approx(2 * 10 * 2.0)
    assert search_cpu("search(worlds=8)", "L4", [3], 10, "moai") == pytest.approx(3 * 10 * 2.0)
    assert search_cpu("tuned", "L3", [3, 4], 10, "moai") == 0.0
    # a study's cells: the searching seats of each lineup, games each
    study = vs.make_study([2, 3], 10, ["L4", "search,L3", "L3"], game="moai")
    assert vs.study_search_cpu(study) == pytest.approx(10 * (2 * 1.0 + 1 * 1.0 + 3 * 2.0 + 1 * 2.0))
    assert vs.search_notice(80.0, "moai", [3, 2]) == (
        "search (L4) plays about 1 s at 2, 2 s at 3 players of CPU a game per searching seat "
        "(measured): about 80 s of CPU for the searching seats"
    )


def test_the_measured_search_costs_hold_every_count_of_every_game():
    """Each game's measured cost (`GameInfo.search_seconds`) covers every player count it is
    played with; a count it did not measure costs its largest, so an estimate errs high."""
    from moaisim.games import available, load_game

    vs = importlib.import_module("moaisim.studies.versus")
    for game in available():
        costs = load_game(game).INFO.search_seconds
        assert sorted(costs) == list(load_game(game).INFO.players), game
        assert all(0.01 < x < 5 for x in costs.values())
        assert vs.search_seconds(game, 99) == max(costs.values())
