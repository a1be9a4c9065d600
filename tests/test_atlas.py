"""The atlas (issue 61, item 8): one table of every game's balance, read from the games'
base-game balance sheets. Scenario tests on sheet folders written by hand (values known
independently of the code), the choice of sheets, the errors, and one small `--play` run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from moaisim.errors import UserError
from moaisim.studies.atlas import atlas_row, find_sheets, make_atlas, read_sheet_info

ROOT = Path(__file__).resolve().parents[1]


def write_sheet(folder: Path, game: str, players: int, made: str, *, rounds: float = 6.78,
                rules: str | None = None, drop: str | None = None) -> Path:  # fmt: skip
    """A base-game sheet folder with hand-made tables (4 players unless said)."""
    t = folder / "tables"
    t.mkdir(parents=True)
    fair = 1 / players
    seats = pd.DataFrame({"seat": range(players), "games": 20000,
                          "win_share": [0.207] + [(1 - 0.207) / (players - 1)] * (players - 1),
                          "lo": [0.201] + [0.2] * (players - 1),
                          "hi": [0.213] + [0.3] * (players - 1), "fair": fair})  # fmt: skip
    skill = pd.DataFrame([
        {"candidate": "L1", "field": "L0", "win_share": 0.9, "lo": 0.88, "hi": 0.92,
         "vs_fair": 0.9 - fair, "vs_fair_lo": 0.88 - fair, "vs_fair_hi": 0.92 - fair},
        {"candidate": "L2", "field": "L3", "win_share": 0.037, "lo": 0.030, "hi": 0.047,
         "vs_fair": 0.037 - fair, "vs_fair_lo": 0.030 - fair, "vs_fair_hi": 0.047 - fair},
        {"candidate": "L3", "field": "L2", "win_share": 0.667, "lo": 0.646, "hi": 0.688,
         "vs_fair": 0.667 - fair, "vs_fair_lo": 0.646 - fair, "vs_fair_hi": 0.688 - fair},
    ])  # fmt: skip
    luck = pd.DataFrame([{"field": "L3", "deals": 2000, "replays": 4, "same_winner": 0.261,
                          "same_winner_lo": 0.254, "same_winner_hi": 0.268,
                          "independent": 0.253, "deal_share": 0.012, "deal_share_lo": 0.003,
                          "deal_share_hi": 0.023}])  # fmt: skip
    decisive = pd.DataFrame({"round": [1, 2, 3, 4], "games": [10, 20, 30, 40],
                             "leader_wins": [0.25, 0.253, 0.227, 0.249],
                             "lo": [0.24, 0.246, 0.220, 0.243],
                             "hi": [0.26, 0.260, 0.233, 0.256]})  # fmt: skip
    sources = pd.DataFrame([{"who": "every seat", "mean_score": 27.7, "from_statues": 0.464,
                             "from_pawns": 0.466, "from_wood": 0.070},
                            {"who": "winners", "mean_score": 32.5, "from_statues": 0.53,
                             "from_pawns": 0.40, "from_wood": 0.07}])  # fmt: skip
    length = pd.DataFrame([{"measure": "rounds", "mean": rounds, "lo": rounds - 0.01,
                            "hi": rounds + 0.01, "min": 6, "max": 8},
                           {"measure": "lead changes", "mean": 2.2, "lo": 2.18,
                            "hi": 2.22}])  # fmt: skip
    tables = {"seats": seats, "skill": skill, "luck": luck, "decisiveness": decisive,
              "sources": sources, "length": length}  # fmt: skip
    for name, df in tables.items():
        if name != drop:
            df.to_csv(t / f"{name}.csv", index=False)
    settings = {"players": players, "rules": rules, "against": None, "game": game}
    info = {"game": game, "players": players, "title": "t", "settings": settings}
    (folder / "sheet.json").write_text(json.dumps(info))
    (folder / "sheet.md").write_text(f"# Balance sheet\n\nMade {made} UTC, root seed 1.\n")
    return folder


def test_a_row_reads_each_measure_from_its_sheet(tmp_path):
    row = atlas_row(read_sheet_info(write_sheet(tmp_path / "s", "moai", 4, "2026-12-06 00:39")))
    assert row["players"] == 4 and row["games"] == 20000
    # the first bird-man wins 20.7 % (20.1-21.3) against a fair 25 %: -4.3 points (-4.9, -3.7)
    assert row["seat0_edge"] == pytest.approx(-0.043)
    assert (row["seat0_edge_lo"], row["seat0_edge_hi"]) == pytest.approx((-0.049, -0.037))
    assert row["seat0_name"] == "the first bird-man's win share"
    # the ladder: L1 among L0 +65 points, L2 among L1 not played, L3 among L2 +41.7
    assert row["L1_over_L0"] == pytest.approx(0.65)
    assert np.isnan(row["L2_over_L1"]) and np.isnan(row["L4_over_L3"])
    assert row["L3_over_L2"] == pytest.approx(0.417)
    # one weaker bot (L2) among L3 wins 3.7 % (3.0-4.7)
    assert (row["weaker_wins"], row["weaker_wins_lo"]) == pytest.approx((0.037, 0.030))
    # 6.78 rounds: the first third ends nearest round 2 (2.26), whose leader wins 25.3 %
    assert row["third_round"] == 2 and row["leader_wins"] == pytest.approx(0.253)
    assert row["rounds"] == pytest.approx(6.78) and row["lead_changes"] == pytest.approx(2.2)
    assert row["score_parts"] == pytest.approx({"statues": 0.464, "pawns": 0.466, "wood": 0.07})
    assert row["deal_share"] == pytest.approx(0.012) and row["unrelated"] == pytest.approx(0.253)


def test_the_first_third_follows_the_games_length(tmp_path):
    # 11.04 rounds: a third is 3.68, nearest round 4; 2.4 rounds: round 1 (never round 0)
    long = atlas_row(read_sheet_info(write_sheet(tmp_path / "a", "moai", 2, "2026-12-06 00:39",
                                                 rounds=11.04)))  # fmt: skip
    assert long["third_round"] == 4 and long["leader_wins"] == pytest.approx(0.249)
    short = atlas_row(read_sheet_info(write_sheet(tmp_path / "b", "moai", 2, "2026-12-06 00:39",
                                                  rounds=2.4)))  # fmt: skip
    assert short["third_round"] == 1 and short["leader_wins"] == pytest.approx(0.25)


def test_the_newest_base_game_sheet_of_each_game_and_count_is_read(tmp_path):
    old = write_sheet(tmp_path / "old" / "sheet-4p", "moai", 4, "2026-12-01 10:00")
    new = write_sheet(tmp_path / "new" / "sheet-4p", "moai", 4, "2026-12-05 09:00")
    write_sheet(tmp_path / "set-up" / "short-4p", "moai", 4, "2026-12-06 09:00", rules="short")
    write_sheet(tmp_path / "lacking" / "sheet-4p", "moai", 4, "2026-12-07 09:00", drop="length")
    rn = write_sheet(tmp_path / "rn" / "sheet-3p", "rapa-nui", 3, "2026-12-02 09:00")
    found = find_sheets([tmp_path])
    assert set(found) == {("moai", 4), ("rapa-nui", 3)}
    assert found[("moai", 4)].path == new and found[("rapa-nui", 3)].path == rn
    assert find_sheets([old])[("moai", 4)].path == old  # a sheet's folder given itself


def test_the_atlas_is_written_whole_with_its_table_and_figure(tmp_path):
    write_sheet(tmp_path / "sheets" / "m4", "moai", 4, "2026-12-05 09:00")
    write_sheet(tmp_path / "sheets" / "r3", "rapa-nui", 3, "2026-12-05 09:00")
    path, table = make_atlas([tmp_path / "sheets"], tmp_path / "atlas", "moaisim atlas")
    page = path.read_text()
    assert list(table["game"]) == ["moai", "rapa-nui"] and list(table["players"]) == [4, 3]
    assert "| Moai | 4 | L3 | -4.3 (-4.9 to -3.7) |" in page
    assert "| Rapa Nui | 3 |" in page and "3.7 % (3.0 %-4.7 %)" in page
    assert (tmp_path / "atlas" / "figures" / "atlas.png").stat().st_size > 0
    csv = pd.read_csv(tmp_path / "atlas" / "atlas.csv")
    assert csv.loc[0, "from_statues"] == pytest.approx(0.464)
    assert json.loads((tmp_path / "atlas" / "atlas.json").read_text())["command"] == (
        "moaisim atlas"
    )


def test_mistakes_are_one_line_and_write_nothing(tmp_path):
    with pytest.raises(UserError, match="no base-game balance sheet found"):
        make_atlas([tmp_path], tmp_path / "atlas", "x")
    write_sheet(tmp_path / "s", "moai", 4, "2026-12-05 09:00")
    with pytest.raises(UserError, match="no base-game balance sheet of rapa-nui"):
        make_atlas([tmp_path / "s"], tmp_path / "atlas", "x", ["moai", "rapa-nui"])
    with pytest.raises(UserError, match="no such folder"):
        make_atlas([tmp_path / "nowhere"], tmp_path / "atlas", "x")
    torn = write_sheet(tmp_path / "torn" / "sheet-4p", "moai", 4, "2026-12-05 09:00")
    (torn / "sheet.json").write_text('{"game": "moai", "play')
    with pytest.raises(UserError, match="not a balance sheet's sheet.json"):
        make_atlas([tmp_path / "torn"], tmp_path / "atlas", "x")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="holds other files"):
        make_atlas([tmp_path / "s"], tmp_path / "busy", "x")
    assert not (tmp_path / "atlas").exists()
    assert sorted(p.name for p in (tmp_path / "busy").iterdir()) == ["notes.txt"]


def test_the_command_plays_the_sheets_and_builds_the_atlas(tmp_path, capsys):
    from moaisim.cli import main

    out = tmp_path / "atlas"
    small = ["-n", "40", "--skill-games", "10", "--search-games", "0", "--deals", "10",
             "--replays", "2"]  # fmt: skip
    code = main(["atlas", "--play", "--game", "moai", *small, "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    table = pd.read_csv(out / "atlas.csv")
    assert list(table["players"]) == [2, 3, 4, 5] and set(table["game"]) == {"moai"}
    assert (out / "sheets" / "moai" / "sheet-3p" / "tables" / "length.csv").is_file()
    # made again from the sheets it played: the same table
    assert main(["atlas", str(out / "sheets"), "-o", str(tmp_path / "b")]) == 0
    again = pd.read_csv(tmp_path / "b" / "atlas.csv")
    pd.testing.assert_frame_equal(table.drop(columns="sheet"), again.drop(columns="sheet"))
    capsys.readouterr()
    for args, said in ((["--game", "chess"], "unknown game 'chess'"),
                       (["--play", str(out / "sheets")], "give no folders"),
                       ([str(tmp_path / "nowhere")], "no such folder")):  # fmt: skip
        assert main(["atlas", *args, "-o", str(tmp_path / "c")]) != 0
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert not (tmp_path / "c").exists()


def test_the_shipped_atlas_is_the_shipped_sheets(monkeypatch):
    # a sheet made again leaves a stale atlas: this fails until `moaisim atlas -o
    # reports/atlas` is run again
    from moaisim.studies.atlas import atlas_table

    monkeypatch.chdir(ROOT)
    found = find_sheets([Path("reports")])
    table = atlas_table([atlas_row(s) for _, s in sorted(found.items())])
    shipped = pd.read_csv(ROOT / "reports" / "atlas" / "atlas.csv")
    assert list(shipped["sheet"]) == [str(p) for p in table["sheet"]]
    numbers = [c for c in table.columns if pd.api.types.is_float_dtype(table[c])]
    assert numbers and np.allclose(shipped[numbers].to_numpy(float), table[numbers].to_numpy(float),
                                   equal_nan=True)  # fmt: skip
