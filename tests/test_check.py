"""The check field of a grid study (`analysis.check`, an experiment's [check]): each box
finding judged again in L4 self-play on the study's first deals, and the verdict."""

from __future__ import annotations

import pandas as pd
import pytest

import moaisim
from moaisim.analysis import check as checking
from moaisim.cli import main

# --- the verdict, on known intervals -------------------------------------------------------------


@pytest.mark.parametrize(
    ("study", "same", "search", "expected"),
    [
        ((0.01, 0.03), (-0.05, 0.08), (0.002, 0.09), "holds"),
        ((-0.03, -0.01), (-0.2, 0.1), (-0.09, -0.01), "holds"),
        ((0.01, 0.03), (-0.05, 0.08), (-0.09, -0.02), "reversed"),
        # the same few deals show it in L3, not in L4: search play weakens it
        ((0.01, 0.03), (0.005, 0.08), (-0.04, 0.05), "not shown under search"),
        # neither shows it on the few deals: the sample cannot tell
        ((0.01, 0.03), (-0.02, 0.08), (-0.04, 0.05), "too few games to tell"),
        ((-0.01, 0.01), (-0.02, 0.08), (0.01, 0.05), "only under search"),
        ((-0.01, 0.01), (-0.02, 0.08), (-0.04, 0.05), "no effect in either"),
        ((0.01, 0.03), (0.0, 0.1), (0.01, 0.2), "holds"),  # 0 as an end: holds 0
        ((0.01, 0.03), (0.0, 0.1), (float("nan"), float("nan")), "not measured"),
    ],
)
def test_the_check_verdict_on_known_intervals(study, same, search, expected):
    assert checking.verdict(study, same, search) == expected


def _judged(rows: list[tuple]) -> pd.DataFrame:
    cols = ["players", "lineup", "change", "metric", "delta", "lo", "hi", "verdict"]
    return pd.DataFrame(rows, columns=cols)


SEAT = "first bird-man's share against fair"


def test_the_check_table_joins_the_study_and_the_check_run_per_finding():
    study = _judged([
        (3, "L3", "base", SEAT, -0.02, -0.03, -0.01, "changes"),
        (3, "greedy", "base", SEAT, 0.05, 0.04, 0.06, "changes"),  # not the checked lineup
        (3, "L3", "short", "rounds", -1.0, -1.1, -0.9, "changes"),
        (3, "L3", "short", "mean score", 0.1, -0.2, 0.4, "inconclusive"),  # not asked
    ])  # fmt: skip
    check = _judged([
        (3, "L3", "base", SEAT, -0.05, -0.2, 0.1, "inconclusive"),
        (3, "L4", "base", SEAT, 0.08, -0.1, 0.25, "inconclusive"),
        (3, "L3", "short", "rounds", -1.0, -1.3, -0.7, "changes"),
        (3, "L4", "short", "rounds", -0.9, -1.2, -0.6, "changes"),
    ])  # fmt: skip
    table = checking.check_table(study, check, ("rounds", SEAT), "L3")
    assert list(zip(table["change"], table["metric"], strict=True)) == [
        ("short", "rounds"), ("base", SEAT)]  # the asked order  # fmt: skip
    assert table["verdict"].tolist() == ["holds", "too few games to tell"]
    seat = table.iloc[1]
    assert (seat["study_delta"], seat["same_delta"], seat["search_delta"]) == (-0.02, -0.05, 0.08)
    lines = checking.sentences(table, 40)
    assert lines[0].startswith("3 players, short's effect on the game's length (rounds): holds")
    assert lines[1].startswith("3 players, the first bird-man's win share against fair (points "
                               "of win share): too few")  # fmt: skip
    assert "(L4 +8.0 [-10.0, +25.0]; L3 on the same 40 deals -5.0 [-20.0, +10.0]" in lines[1]
    said = checking.headline(table, 40)
    assert said == ("Under search play (L4 self-play, 40 deals a set-up): short, the game's "
                    "length: holds at 3 players. the first bird-man's win share against fair "
                    "(base): too few games to tell at 3 players.")  # fmt: skip


# --- an experiment with [check] ------------------------------------------------------------------

CHECKED = """name = "checked"
title = "Checked"
question = "Does short change anything, and does it hold under search play?"
[study]
players = [3]
variants = ["base", "short"]
lineups = ["greedy", "L3"]
games = 30
seed = 41
rounds = true
[check]
games = 4
"""


@pytest.fixture(scope="module")
def checked_study(tmp_path_factory):
    root = tmp_path_factory.mktemp("checked")
    exp = root / "checked.toml"
    exp.write_text(CHECKED)
    args = ["experiment", str(exp), "--runs", str(root / "runs"), "--reports",
            str(root / "reports"), "-q"]  # fmt: skip
    assert main(args) == 0
    return root


def _seat0_minus_fair(results: pd.DataFrame) -> float:
    """Seat 0's win share minus 1/3 over a results table, by hand."""
    first = results[results["seat"] == 0]
    return float(first["win_share"].mean() - 1 / 3)


def test_an_experiment_with_check_judges_the_box_in_l4_on_the_first_deals(checked_study):
    root = checked_study
    table = pd.read_csv(root / "reports" / "checked" / "tables" / "check.csv")
    base = table[(table["change"] == "base") & (table["metric"] == SEAT)].iloc[0]
    # L3 on the check games is the study's own L3 on its first 4 deals (the same seeds)
    study = moaisim.load_results(root / "runs" / "checked")
    study = study[
        (study["lineup"] == "L3,L3,L3") & (study["variant"] == "base") & (study["game"] < 4)
    ]
    assert len(study) == 12
    assert base["same_delta"] == pytest.approx(_seat0_minus_fair(study))
    # L4 on them: search self-play of those deals, played directly
    l4 = moaisim.simulate(3, 4, "L4", seed=41)
    assert base["search_delta"] == pytest.approx(_seat0_minus_fair(l4))
    # the study's own L3 finding over all 30 games
    every = moaisim.load_results(root / "runs" / "checked")
    every = every[(every["lineup"] == "L3,L3,L3") & (every["variant"] == "base")]
    assert base["study_delta"] == pytest.approx(_seat0_minus_fair(every))
    assert set(table["verdict"]) <= set(checking.VERDICTS)
    # the box's metrics: seat 0 in each set-up, and short's effect on the others
    assert sorted(zip(table["change"], table["metric"], strict=True)) == sorted([
        ("base", SEAT), ("short", SEAT), ("short", "first bird-man win share"),
        ("short", "leader after round 3 wins"), ("short", "mean score")])  # fmt: skip
    md = (root / "reports" / "checked" / "report.md").read_text()
    assert "> **Under search play** (L4 self-play on each set-up's first 4 deals" in md
    assert "## Under search play (L4, the check field)" in md
    assert md.count("L3 on the same 4 deals") == len(table)


def test_the_check_run_resumes_and_its_headline_is_generated(checked_study, capsys):
    import importlib

    from moaisim.analysis.headlines import grid_headline

    root = checked_study
    journal = root / "runs" / "checked-check" / "parts.jsonl"
    before = journal.read_text()
    exp = root / "checked.toml"
    args = ["experiment", str(exp), "--runs", str(root / "runs"), "--reports",
            str(root / "reports"), "-q"]  # fmt: skip
    capsys.readouterr()
    assert main(args) == 0  # again: both runs complete, nothing played
    assert journal.read_text() == before
    # issue 60: the CPU of the search seats is said up front, from the measured cost: the
    # check field's L4 self-play, 3 searching seats x 4 deals x 2 set-ups
    cost = importlib.import_module("moaisim.studies.versus").search_seconds("moai", 3)
    err = capsys.readouterr().err
    assert (f"search (L4) plays about {cost:g} s at 3 players of CPU a game per searching seat"
            in err)  # fmt: skip
    assert f"about {3 * 4 * 2 * cost:.1f} s of CPU for the searching seats" in err
    said = grid_headline(root / "reports" / "checked")
    assert "Under search play (L4 self-play, 4 deals a set-up):" in said


def test_report_check_reads_a_check_run_and_refuses_one_of_other_deals(tmp_path, capsys):
    study, check, other = (str(tmp_path / x) for x in ("study", "check", "other"))
    base = ["simulate", "-p", "3", "-v", "base", "-v", "short", "--rounds", "-q"]
    assert main([*base, "--strategies", "L3", "-n", "20", "-s", "5", "--out", study]) == 0
    for seed, out in (("5", check), ("6", other)):
        assert main([*base, "--strategies", "L3", "--strategies", "L4", "-n", "3", "-s", seed,
                     "--out", out]) == 0  # fmt: skip
    capsys.readouterr()
    out = tmp_path / "report"
    assert main(["report", study, "--out", str(out), "--check", check]) == 0
    table = pd.read_csv(out / "tables" / "check.csv")
    assert len(table) and (table["games"] == 3).all()
    assert f"--check {check}" in (out / "report.md").read_text()
    capsys.readouterr()
    # a check run of another root seed plays other deals: refused, nothing written
    bad = tmp_path / "bad"
    assert main(["report", study, "--out", str(bad), "--check", other]) == 2
    err = capsys.readouterr().err
    assert "has root seed 6, the study 5" in err and err.count("\n") == 1
    assert not bad.exists()
    # a check run without L4 is no check run
    assert main(["report", study, "--out", str(bad), "--check", study]) == 2
    assert "the check run holds no L4 lineup (it has L3)" in capsys.readouterr().err
    assert not bad.exists()


def test_a_quick_look_plays_a_tenth_of_its_games_in_the_check_field(tmp_path):
    from moaisim.studies.experiment import check_study, load_experiment

    exp = tmp_path / "checked.toml"
    exp.write_text(CHECKED.replace("games = 4", "games = 300"))
    e = load_experiment(exp)
    assert check_study(e).games == 300  # the file's
    assert check_study(e, 300).games == 30  # --games 300: a tenth
    assert check_study(e, 5).games == 2  # at least 2
    assert check_study(e, 100_000).games == 300  # at most the file's
