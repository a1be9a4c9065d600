"""What strong play does (moaisim/studies/strong_play.py): the search gap and the statue
table, from planted results whose answers are worked out by hand, and from real games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from moaisim.studies import strong_play as sp


def planted() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two 2-player games (rotation 0): game 0 seat 0 (L4) wins alone with a statue of
    height 6 finished in round 3; game 1 is a shared win. Scores (R8.2): statues + pawns +
    wood x 2 points."""
    res = pd.DataFrame({
        "rotation": [0, 0, 0, 0], "game": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
        "players": [2, 2, 2, 2], "who": ["L4", "L3", "L4", "L3"],
        "moai_height": [6, 0, 0, 3], "moai_count": [1, 0, 0, 1], "pawns": [4, 5, 5, 4],
        "wood": [1, 2, 3, 1], "wood_points": [2, 2, 2, 2], "win": [True, False, True, True],
    })  # fmt: skip
    res["score"] = res["moai_height"] + res["pawns"] + res["wood"] * res["wood_points"]
    rounds = pd.DataFrame({
        "rotation": 0, "game": [0, 0, 0, 0, 1, 1, 1, 1], "seat": [0, 0, 1, 1, 0, 0, 1, 1],
        "round": [2, 3, 2, 3, 4, 5, 4, 5], "moai_count": [0, 1, 0, 0, 0, 0, 0, 1],
    })  # fmt: skip
    return res, rounds


def test_the_gap_counts_a_shared_win_as_a_half_against_the_fair_half():
    res, _ = planted()
    g = sp.gap(res)
    # L4: a win and a shared win over 2 games: (1 + 1/2) / 2 = 0.75, fair 1/2
    assert g["games"] == 2 and g["win_share"] == pytest.approx(0.75)
    assert g["gap"] == pytest.approx(0.25) and g["gap_lo"] < 0.25 < g["gap_hi"]


def test_the_statue_table_splits_the_points_and_dates_the_first_statue():
    res, rounds = planted()
    t = sp.parts_table(res, rounds, game="moai").set_index("who")
    # L4: statues 6, pawns 4 + 5 = 9, wood (1 + 3) x 2 = 8: 23 points in all
    assert t.loc["L4", "from_statues"] == pytest.approx(6 / 23)
    assert t.loc["L4", "from_pawns"] == pytest.approx(9 / 23)
    assert t.loc["L4", "from_wood"] == pytest.approx(8 / 23)
    assert t.loc["L4", "carves"] == 0.5 and t.loc["L4", "first_statue_round"] == 3
    # L3: statues 3 (finished in round 5 of game 1), pawns 9, wood 6
    assert t.loc["L3", "from_statues"] == pytest.approx(3 / 18)
    assert t.loc["L3", "first_statue_round"] == 5 and t.loc["L3", "moai_per_seat"] == 0.5


def test_the_statue_table_counts_the_moai_points():
    """Under `moai_points` = 2 (R8.2: 2 points per metre) the statues' points double."""
    res, rounds = planted()
    res["moai_points"] = 2
    res["score"] = 2 * res["moai_height"] + res["pawns"] + res["wood"] * res["wood_points"]
    t = sp.parts_table(res, rounds, game="moai").set_index("who")
    # L4: statues 2 x 6 = 12, pawns 9, wood 8: 29 points in all
    assert t.loc["L4", "from_statues"] == pytest.approx(12 / 29)
    assert t.loc["L4", "from_wood"] == pytest.approx(8 / 29)
    assert t.loc["L4", "score"] == pytest.approx(29 / 2)


def test_self_play_games_are_l3_everywhere_and_kept_by_their_settings(tmp_path):
    calls = []

    def make():
        calls.append(1)
        return sp.self_play(3, 6, 1, game="moai")

    a = sp.kept(tmp_path / "s", {"games": 6}, make)
    b = sp.kept(tmp_path / "s", {"games": 6}, make)
    assert len(calls) == 1 and a[0].equals(b[0])
    assert set(a[0]["who"]) == {"L3"} and len(a[0]) == 6 * 3
    assert np.array_equal(a[0]["score"], a[0]["moai_height"] + a[0]["pawns"]
                          + a[0]["wood"] * a[0]["wood_points"])  # fmt: skip
    sp.kept(tmp_path / "s", {"games": 7}, make)  # other settings: played again
    assert len(calls) == 2


def test_play_digest_follows_weights_files_but_not_l3_mixture_files(tmp_path, monkeypatch):
    """What studies key their kept games by: a weights file's edit changes it, a new
    nash-<P>p.toml does not (the meta-game that makes L3 does not play it)."""
    import shutil

    import moaisim.strategies
    from moaisim import fingerprint as fp

    home = tmp_path / "strategies"
    shutil.copytree(Path(moaisim.strategies.__file__).parent, home,
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    monkeypatch.setattr(moaisim.strategies, "__file__", str(home / "__init__.py"))
    digest = fp.play_digest.__wrapped__
    before = digest()
    nash = home / "moai" / "weights" / "nash-3p.toml"
    nash.write_text(nash.read_text() + "\n# another L3\n")
    assert digest() == before
    tuned = home / "moai" / "weights" / "tuned-3p.toml"
    tuned.write_text(tuned.read_text() + "\n# new weights\n")
    assert digest() != before
