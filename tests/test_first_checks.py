"""Everything checked before the first game (docs/design.md, "Runs you can trust"): a balance
study, a balance sheet, a knob search and an experiment's re-tuning refuse, in one line and
before anything is played or created, another study's directory, a directory that takes no
file, and counts or totals that could never be played; a stop during Optuna's loop is one
line too, and a search stopped while a trial was asked resumes into the same trials."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import optuna
import pandas as pd
import pytest

from moaisim.cli import main
from moaisim.cli.common import Terminated
from moaisim.errors import UserError
from moaisim.studies import balance as bal
from moaisim.studies import search_knobs as sk
from moaisim.studies import sheet as sheet_module
from moaisim.studies.balance_space import Dimension, Space, load_space
from moaisim.studies.retune import RetuneSettings

BALANCE = """
name = "t"
[balance]
players = [3]
fields = ["L0", "L1"]
trials = 4
population = 2
games = 40
rungs = 2
seed = 11
finalists = 1
jobs = 1
[verify]
games = 0
[space]
wood_points = { kind = "int", low = 1, high = 3 }
[objectives.seat0]
measure = "seat0"
within = 3
"""
SHEET = ["-n", "10", "--skill-games", "10", "--search-games", "0", "--deals", "2",
         "--replays", "2", "--check-games", "0"]  # fmt: skip


def given(args: list[str], option: str, value: str) -> list[str]:
    """`args` with `option` set to `value`: in its place when it is there, else at the end
    (an option of one value is given once)."""
    out = [*args]
    if option in out:
        out[out.index(option) + 1] = value
        return out
    return [*out, option, value]


def one_line(err: str) -> str:
    """The one line of an error (and no traceback, no Optuna warning)."""
    assert "Traceback" not in err and "[W " not in err, err
    assert err.count("\n") == 1 and err.startswith("moaisim: error:"), err
    return err


def write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def identity(space: Space) -> dict[str, Any]:
    """A space's identity as balance.json and space.json record it."""
    return json.loads(json.dumps(space.identity(), default=str))


@pytest.fixture
def no_search(monkeypatch):
    """A balance study whose search would begin says so instead of playing."""

    def search(*args: Any, **kwargs: Any) -> None:
        raise UserError("the search began")

    monkeypatch.setattr(bal, "search", search)


@pytest.fixture
def no_sheet(monkeypatch, tmp_path):
    """A sheet whose games would begin says so instead of playing (with no shipped field
    study, so `--field` is not taken from the project's newest one)."""
    from moaisim.analysis import verdicts

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(verdicts, "SHIPPED_REPORTS", tmp_path / "no-reports")

    def play_sheet(*args: Any, **kwargs: Any) -> None:
        raise UserError("the sheet began")

    monkeypatch.setattr(sheet_module, "play_sheet", play_sheet)


def unwritable(tmp_path: Path) -> Path:
    """A directory to be created where no file can be made (a read-only directory; as root,
    whom permissions do not stop, under /proc)."""
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        (ro / "probe").touch()
    except OSError:
        return ro / "sub"
    (ro / "probe").unlink()
    if Path("/proc/self").is_dir():
        return Path("/proc") / f"moaisim-test-{os.getpid()}" / "sub"
    pytest.skip("no directory here refuses a new file")


# --- 1. another study's report or run is never replaced ------------------------------------------


def test_balance_refuses_the_report_of_another_balance_study(tmp_path, capsys, no_search):
    path = write(tmp_path, BALANCE)
    other = load_space(write(tmp_path, BALANCE.replace("seed = 11", "seed = 12"), "o.toml"))
    out = tmp_path / "reports" / "t"
    out.mkdir(parents=True)
    mark = json.dumps({"name": "t", "identity": identity(other)})
    (out / "balance.json").write_text(mark)
    args = ["balance", str(path), "--runs", str(tmp_path / "runs"), "--reports",
            str(tmp_path / "reports")]  # fmt: skip
    assert main(args) == 2
    err = one_line(capsys.readouterr().err)
    assert "reports/t holds the report of another balance study" in err
    assert "choose another --reports directory or remove it" in err
    assert (out / "balance.json").read_text() == mark and not (tmp_path / "runs").exists()
    # the report of the very same study may be replaced: the study goes on to its search
    (out / "balance.json").write_text(json.dumps({"identity": identity(load_space(path))}))
    assert main(args) == 2
    assert "the search began" in capsys.readouterr().err


def simulate_run(where: Path) -> Path:
    """A directory that holds a `moaisim simulate` run (its parts' journal)."""
    where.mkdir(parents=True)
    (where / "parts.jsonl").write_text("")
    return where


@pytest.mark.parametrize(
    ("runs", "reports", "message"),
    [
        ("with-run", "reports", "with-run/t holds a run of moaisim simulate, not a balance search"),
        ("with-report", "reports", "with-report/t holds a report, not a balance search"),
        ("with-files", "reports", "with-files/t holds something other than a balance search"),
        ("run", "reports", "run holds a run of moaisim simulate, not the folder of runs"),
        ("runs", "run", "run holds a run of moaisim simulate, not the folder of reports"),
        ("same", "same", "must be apart"),
        ("runs", "unwritable", "--reports"),
        ("unwritable", "reports", "--runs"),
    ],
)  # fmt: skip
def test_balance_checks_where_it_writes_before_anything_is_played(
    tmp_path, capsys, no_search, runs, reports, message
):
    path = write(tmp_path, BALANCE)
    places = {"run": simulate_run(tmp_path / "run"), "unwritable": unwritable(tmp_path)}
    if runs.startswith("with-"):
        held = tmp_path / runs / "t"
        if runs == "with-run":
            simulate_run(held)
        else:
            held.mkdir(parents=True)
            (held / ("balance.json" if runs == "with-report" else "notes.txt")).write_text("x")
        places[runs] = tmp_path / runs
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    where = [places.get(x, tmp_path / x) for x in (runs, reports)]
    assert main(["balance", str(path), "--runs", str(where[0]), "--reports", str(where[1])]) == 2
    err = one_line(capsys.readouterr().err)
    assert message in err
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before  # nothing created or changed


# --- 2. counts and totals checked before anything is played --------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("games = 40", "games = 100000000000000"), "balance.games must be a whole number"),
        (("trials = 4", "trials = 100000000000000"), "balance.trials must be a whole number"),
        (("population = 2", "population = 100000000"), "balance.population must be"),
        (("games = 0", "games = 1000000000000"), "verify.games must be a whole number"),
        ("[adapt]\ngames = 100000000000000", "adapt.games must be a whole number"),
        ("[adapt]\nfield_games = 100000000000000", "adapt.field_games must be"),
        ("[adapt]\nheld_out_games = 100000000000000", "adapt.held_out_games must be"),
        ("[adapt]\ngenerations = 100000000", "adapt.generations must be"),
        ("[adapt]\nsearch_games = 100000000", "adapt.search_games must be"),
        ("[sheet]\ndeals = 100000000000000", "sheet.deals must be"),
        ("[sheet]\ngames = 100000000000000", "sheet.games must be"),
        ("[sheet]\nsearch_games = 100000000", "sheet.search_games must be"),
        ("[sheet]\ncheck_games = 100000000", "sheet.check_games must be"),
        ('[objectives.div]\nmeasure = "diversity"\nlibrary = ["greedy", "moai"]\n'
         "games = 100000000000000", "objectives.div.games must be"),
        (("within = 3", "within = nan"), "objectives.seat0.within must be a finite number"),
        (("within = 3", "within = inf"), "objectives.seat0.within must be a finite number"),
        (("trials = 4\n", "trials = 100000\n"), None),  # with games below: the total
    ],
)  # fmt: skip
def test_balance_counts_have_bounds_and_the_total_a_ceiling(tmp_path, capsys, no_search, change,
                                                            message):  # fmt: skip
    text = BALANCE + "\n" + change if isinstance(change, str) else BALANCE.replace(*change)
    if message is None:
        text = text.replace("games = 40", "games = 1000000")
        # the sheet: 50 check games (L4) of the fix and of the base game: 100 of the total
        message = "the study would play up to 200,002,034,880 games, more than 10,000,000,000"
    path = write(tmp_path, text)
    runs, reports = tmp_path / "runs", tmp_path / "reports"
    assert main(["balance", str(path), "--runs", str(runs), "--reports", str(reports)]) == 2
    assert message in one_line(capsys.readouterr().err)
    assert not runs.exists() and not reports.exists()


def test_balance_trials_given_on_the_command_line_have_a_bound(tmp_path, capsys, no_search):
    path = write(tmp_path, BALANCE)
    args = ["balance", str(path), "--runs", str(tmp_path / "r"), "--trials", "1000000000"]
    assert main(args) == 2
    assert "trials must be a whole number from 1 to 100,000" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "r").exists()


def test_retune_counts_have_bounds(tmp_path, capsys):
    for bad, said in (({"games": 10**14}, "retune.games must be"),
                      ({"held_out_games": 10**14}, "retune.held_out_games must be"),
                      ({"generations": 10**9}, "retune.generations must be"),
                      ({"popsize": 10**9}, "retune.popsize must be"),
                      ({"generations": 1000, "games": 10**6}, "would play 15,000,000,000 games"),
                      ):  # fmt: skip
        with pytest.raises(UserError, match=said):
            RetuneSettings.of(bad, game="moai")
    path = write(tmp_path, 'name = "m"\n[study]\nplayers = [3]\ngames = 10\nstrategies = '
                 '"tuned,greedy"\nparams = { wood_points = [1] }\n[retune]\n'
                 "games = 100000000000000\n")  # fmt: skip
    runs, reports = tmp_path / "runs", tmp_path / "reports"
    assert main(["experiment", str(path), "--runs", str(runs), "--reports", str(reports)]) == 2
    assert "retune.games must be" in one_line(capsys.readouterr().err)
    assert not runs.exists() and not reports.exists()


def test_an_experiment_refuses_reports_that_take_no_file_before_it_plays(tmp_path, capsys):
    path = write(tmp_path, 'name = "e"\n[study]\nplayers = [3]\ngames = 10\n'
                 'strategies = "greedy"\n')  # fmt: skip
    runs = tmp_path / "runs"
    args = ["experiment", str(path), "--runs", str(runs), "--reports", str(unwritable(tmp_path))]
    assert main([*args, "-q"]) == 2
    assert "--reports" in one_line(capsys.readouterr().err)
    assert not runs.exists()  # nothing played


# --- 3. a balance sheet replaces only a sheet of the same settings -------------------------------


def old_sheet(where: Path, seed: int, jobs: int = 1) -> str:
    """A sheet.json as `write_sheet` writes it, for 3 players and the settings of `SHEET`."""
    where.mkdir(parents=True)
    doc = json.dumps({"players": 3, "settings": {
        "players": 3, "games": 10, "skill_games": 10, "search_games": 0, "deals": 2,
        "replays": 2, "seed": seed, "field": None, "jobs": jobs, "rules": None}})  # fmt: skip
    (where / "sheet.json").write_text(doc)
    return doc


def test_a_sheet_of_other_settings_is_refused_before_any_game(tmp_path, capsys, no_sheet):
    out = tmp_path / "sheets"
    doc = old_sheet(out / "sheet-3p", seed=1)
    args = ["sheet", "-p", "3", "-o", str(out), *SHEET]
    assert main([*args, "-s", "2"]) == 2
    err = one_line(capsys.readouterr().err)
    assert "holds a balance sheet of other settings (seed 1 there, 2 here)" in err
    assert "choose another --out or remove it" in err
    assert (out / "sheet-3p" / "sheet.json").read_text() == doc
    assert main([*given(args, "-n", "20"), "-s", "1"]) == 2
    assert "(games 10 there, 20 here)" in one_line(capsys.readouterr().err)
    # the same settings with other jobs: the same sheet, replaced
    assert main([*args, "-s", "1", "-j", "2"]) == 2
    assert "the sheet began" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["file", "run", "unwritable"])
def test_a_sheet_refuses_an_out_that_cannot_hold_it_before_any_game(tmp_path, capsys, no_sheet,
                                                                    kind):  # fmt: skip
    if kind == "file":
        out = tmp_path / "out"
        out.write_text("mine")
    elif kind == "run":
        out = simulate_run(tmp_path / "out")
    else:
        out = unwritable(tmp_path)
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    assert main(["sheet", "-p", "3", "-o", str(out), *SHEET]) == 2
    err = one_line(capsys.readouterr().err)
    assert {"file": "is a file, not a directory", "run": "holds a run, not balance sheets",
            "unwritable": "--out"}[kind] in err  # fmt: skip
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_a_sheet_refuses_counts_and_seeds_it_could_never_play(tmp_path, capsys, no_sheet):
    out = tmp_path / "sheets"
    for bad, said in ((["-n", "100000000000000"], "games must be an integer from 10 to"),
                      (["--deals", "100000000000000"], "deals must be an integer from 2 to"),
                      (["-s", str(2**64 - 1)], "seed must be at most 2**64-1052")):  # fmt: skip
        assert main(["sheet", "-p", "3", "-o", str(out), *given(SHEET, *bad)]) == 2
        assert said in one_line(capsys.readouterr().err)
        assert not out.exists()


def test_a_sheet_stopped_by_sigterm_says_so_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def play_sheet(*args: Any, **kwargs: Any) -> None:
        raise Terminated()

    monkeypatch.setattr(sheet_module, "play_sheet", play_sheet)
    assert main(["sheet", "-p", "3", "-o", str(tmp_path / "s"), *SHEET]) == 143
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == "moaisim: terminated; no sheet written"  # after the estimate's line
    assert not (tmp_path / "s").exists()


# --- 4. tune-search: checked before --out is made; a stop is one line ----------------------------


@pytest.fixture
def no_trial(monkeypatch):
    """A knob search whose first trial would play says so instead."""

    def measure(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a trial was played")

    monkeypatch.setattr(sk, "measure", measure)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "-1"], "--seed must be from 0 to 2**32-1"),
        (["-s", str(2**32)], "--seed must be from 0 to 2**32-1"),
        (["--worlds", "1000000"], "parameter worlds must be from 1 to 100000"),
        (["--max-seconds", "inf"], "--max-seconds must be above 0 and finite"),
        (["--max-seconds", "nan"], "--max-seconds must be above 0 and finite"),
        (["--trials", "100000000"], "--trials must be at most 10,000"),
        (["--games", "1000000000"], "--games must be at most 10,000"),
        (["--verify-games", "1000000000"], "--verify-games must be at most 10,000"),
    ],
)
def test_tune_search_refuses_bad_settings_before_it_makes_out(tmp_path, capsys, no_trial, args,
                                                              message):  # fmt: skip
    out = tmp_path / "k"
    assert main(["tune-search", "-o", str(out), "-p", "3", *args]) == 2
    assert message in one_line(capsys.readouterr().err)
    assert not out.exists()


@pytest.mark.parametrize("kind", ["run", "report", "files"])
def test_tune_search_refuses_an_out_of_another_kind(tmp_path, capsys, no_trial, kind):
    out = simulate_run(tmp_path / "k") if kind == "run" else tmp_path / "k"
    if kind != "run":
        out.mkdir()
        (out / ("report.json" if kind == "report" else "notes.txt")).write_text("x")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    assert main(["tune-search", "-o", str(out), "-p", "3"]) == 2
    err = one_line(capsys.readouterr().err)
    assert {"run": "holds a run of moaisim simulate", "report": "holds a report",
            "files": "holds something other than a knob search"}[kind] in err  # fmt: skip
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [
        (Terminated(), 143, "moaisim: terminated; finished trials are kept"),
        (KeyboardInterrupt(), 130, "moaisim: interrupted; finished trials are kept"),
        (UserError("a refused setting"), 2, "moaisim: error: a refused setting"),
    ],
)
def test_a_trial_stopped_or_refused_is_one_line_without_optunas_traceback(
    tmp_path, capsys, caplog, monkeypatch, stop, code, said
):
    def measure(*args: Any, **kwargs: Any) -> None:
        raise stop

    monkeypatch.setattr(sk, "measure", measure)
    assert main(["tune-search", "-o", str(tmp_path / "k"), "-p", "3", "--trials", "2"]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith(said), err
    # Optuna logs nothing: its warning of a failed trial carries the traceback to stderr
    told = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.name.startswith("optuna")]
    assert not told, told


# --- 5. a balance search stopped while a trial was asked -----------------------------------------


def planted(space: Any, candidate: dict[str, Any], a: int, b: int) -> dict[str, Any]:
    """Sums whose seat 0 share is 1/3 + (x - 7) points (no games)."""
    n = b - a
    out: dict[str, Any] = {}
    for f in space.settings.fields:
        first = n * (1 / 3 + (candidate["x"] - 7) / 100)
        rest = (n - first) / 2
        out[f"3:{f}"] = {"n": n, "seats": [first, rest, rest], "seats2": [first, rest, rest],
                         "score": 100.0 * n, "statues": 25.0 * n, "wood": 0.0,
                         "rounds": 8.0 * n, "rounds2": 64.0 * n}  # fmt: skip
    return out


class PlantedSpace(Space):
    """A made-up setting x whose base is 0."""

    def base(self) -> dict[str, Any]:
        return {"x": 0}

    def refused(self, candidate: Any) -> str | None:
        return None

    def game_key(self, candidate: Any) -> str:
        return bal.key_of(candidate)


def test_a_search_stopped_while_a_trial_is_asked_resumes_into_the_same_trials(
    tmp_path, monkeypatch
):
    space = load_space(write(tmp_path, BALANCE.replace("trials = 4", "trials = 8")))
    dims = (Dimension("x", "int", "component", 0.0, 20.0, game="moai"),)
    space = PlantedSpace(**{f.name: getattr(space, f.name) for f in dataclasses.fields(space)}
                         | {"dimensions": dims})  # fmt: skip
    monkeypatch.setattr(bal, "measure_block", planted)
    straight = bal.trials_table(space, bal.search(space, tmp_path / "straight"))
    asked = 0
    ask = optuna.Study.ask

    def stopped_ask(self: optuna.Study, *args: Any, **kwargs: Any) -> Any:
        nonlocal asked
        asked += 1
        if asked == 4:  # trial 3 is created, and the stop comes before its settings
            self._storage.create_new_trial(self._study_id)
            raise KeyboardInterrupt
        return ask(self, *args, **kwargs)

    monkeypatch.setattr(optuna.Study, "ask", stopped_ask)
    with pytest.raises(KeyboardInterrupt):
        bal.search(space, tmp_path / "stopped")
    monkeypatch.setattr(optuna.Study, "ask", ask)
    resumed = bal.search(space, tmp_path / "stopped")
    pd.testing.assert_frame_equal(bal.trials_table(space, resumed), straight)
