"""Runs a user can trust with their data: each fault a user met, reproduced (docs/design.md,
"Runs you can trust"). Changed code, corrupt or foreign parts, failures in parallel workers,
two runs on one directory, huge plans, SIGTERM, strategies that try to end the run, untrusted
files and report directories."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import moaisim
from moaisim import Game, Games, determinize
from moaisim.analysis.report import make_report
from moaisim.cli import main
from moaisim.errors import StrategyError, UserError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.rules import OPTIONS, Rules
from moaisim.registry import parse_lineup
from moaisim.runner import RunWarning, load_results, make_study
from moaisim.strategies.moai.greedy import GreedyStrategy

ROOT = Path(__file__).parents[1]
KW = dict(strategies="greedy,random", seed=5, chunk_size=10)


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def records(run: Path) -> list[dict]:
    """parts.jsonl read as plain JSON lines, the finished ones only: as the run reads it, a
    last line without its newline is still being written (`RunDir.parts`), so a test that
    waits for a part must not count it (a Ctrl-C sent then finds no chunk kept)."""
    lines = (run / "parts.jsonl").read_text().split("\n")[:-1]
    return [json.loads(x) for x in lines if x.strip()]


def one_line(err: str) -> str:
    """The one line of an error (and no traceback)."""
    assert "Traceback" not in err, err
    assert err.count("\n") == 1, err
    return err


# --- 1. a resume with other code is refused ----------------------------------------------


def test_resume_refuses_a_changed_strategy_default_and_names_it(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    moaisim.simulate(3, 20, out=out, **KW)
    journal = (out / "parts.jsonl").read_text()
    monkeypatch.setitem(GreedyStrategy.params, "moai_height", 8)  # a second checkout's greedy
    args = ["simulate", "-p", "3", "-n", "40", "--strategies", "greedy,random", "-s", "5",
            "--chunk-size", "10", "-o", str(out), "--resume", "-q"]  # fmt: skip
    assert main(args) == 2
    err = one_line(capsys.readouterr().err)
    assert "was played by other code" in err
    assert "strategy 'greedy': its parameters (moai_height 7 -> 8)" in err
    assert (out / "parts.jsonl").read_text() == journal  # nothing played
    # --force-resume goes on, and the run says so
    assert main([*args, "--force-resume"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["forced_resumes"][0]["changed"] == [
        "strategy 'greedy': its parameters (moai_height 7 -> 8)"
    ]
    assert manifest["complete"] and len(records(out)) == 4


def test_resume_refuses_an_edited_strategy_module(tmp_path, monkeypatch, capsys):
    (tmp_path / "mine.py").write_text(
        "from moaisim.strategies.moai.greedy import GreedyStrategy\n"
        "class Mine(GreedyStrategy):\n    name = 'mine'\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["simulate", "-p", "3", "-n", "20", "--strategies", "mine:Mine", "-o", "run", "-q"]
    assert main(args) == 0
    with open(tmp_path / "mine.py", "a") as f:
        f.write("    keep_cards_bonus = 1  # an edit\n")
    assert main([*args, "--resume"]) == 2
    assert "strategy 'mine': its source" in one_line(capsys.readouterr().err)


def test_a_second_checkout_with_another_greedy_default_cannot_resume(tmp_path):
    """The fault as a user met it: a copy of the package whose greedy finishes statues at
    another height resumes a run that the installed package started."""
    run = tmp_path / "run"
    args = ["simulate", "-p", "3", "-n", "20", "-s", "1", "--chunk-size", "10", "-o", str(run)]
    subprocess.run([sys.executable, "-m", "moaisim.cli", *args, "-q"], check=True, cwd=tmp_path)
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT / "moaisim", checkout / "moaisim", copy_function=shutil.copy2)
    shutil.rmtree(checkout / "moaisim" / "strategies", ignore_errors=True)
    shutil.copytree(ROOT / "strategies", checkout / "moaisim" / "strategies",
                    copy_function=shutil.copy2)  # fmt: skip
    greedy = checkout / "moaisim" / "strategies" / "moai" / "greedy.py"
    text = greedy.read_text()
    assert '"moai_height": 7,' in text
    greedy.write_text(text.replace('"moai_height": 7,', '"moai_height": 8,'))
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    more = [*args]
    more[more.index("-n") + 1] = "40"  # an option is given once
    cmd = [sys.executable, "-c", "import sys, moaisim.cli; print(moaisim.cli.__file__, "
           "file=sys.stderr); sys.exit(moaisim.cli.main(sys.argv[1:]))", *more, "--resume",
           "-q"]  # fmt: skip
    proc = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True)
    first, *rest = proc.stderr.splitlines()
    assert first.startswith(str(checkout))  # the copy ran, not the installed package
    assert proc.returncode == 2, proc.stderr
    assert len(rest) == 1 and "strategy 'greedy': its parameters (moai_height 7 -> 8)" in rest[0]
    assert "the strategies source" in rest[0]
    assert len(records(run)) == 2  # nothing was added


# --- 2. corrupt or foreign parts -------------------------------------------------------------


def test_a_truncated_part_is_refused_on_load_and_report_and_replayed_on_resume(tmp_path, capsys):
    out = tmp_path / "run"
    moaisim.simulate(3, 30, out=out, rounds=True, **KW)
    victim = out / records(out)[1]["file"]
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    with pytest.raises(
        UserError, match=r"games000000000010-000000000020.parquet has \d+ of its \d+ bytes"
    ):
        load_results(out)
    assert main(["report", str(out), "--out", str(tmp_path / "rep")]) == 2
    err = one_line(capsys.readouterr().err)
    assert str(victim) in err and "cut short" in err and "--resume" in err
    assert not (tmp_path / "rep").exists()
    with pytest.warns(RunWarning, match="cut short.*: playing games 10-19 of cell 0 again"):
        moaisim.simulate(3, 30, out=out, rounds=True, resume=True, **KW)
    fresh, fresh_rounds = moaisim.simulate(3, 30, rounds=True, **KW)
    same(load_results(out), fresh)
    same(load_results(out, "rounds"), fresh_rounds.drop(columns=[]))


def test_a_part_copied_from_another_run_is_refused(tmp_path, capsys):
    five, six = tmp_path / "five", tmp_path / "six"
    moaisim.simulate(3, 20, out=five, **KW)
    moaisim.simulate(3, 20, out=six, **{**KW, "seed": 6})
    name = records(five)[0]["file"]
    assert name == records(six)[0]["file"]  # same grid, same part names
    shutil.copyfile(six / name, five / name)
    with pytest.raises(UserError, match="does not match its checksum"):
        load_results(five)
    with pytest.raises(UserError, match="does not match its checksum"):
        moaisim.runner.summary(five)
    assert main(["report", str(five), "--out", str(tmp_path / "rep")]) == 2
    assert "from another run" in one_line(capsys.readouterr().err)
    args = ["simulate", "-p", "3", "-n", "20", "--strategies", "greedy,random", "-s", "5",
            "--chunk-size", "10", "-o", str(five), "--resume", "-q"]  # fmt: skip
    assert main(args) == 0
    warned = capsys.readouterr().err
    assert warned.startswith("moaisim: warning: ") and "playing games 0-9 of cell 0 again" in warned
    same(load_results(five), moaisim.simulate(3, 20, **KW))


@pytest.mark.parametrize("file", ["../elsewhere.parquet", "/etc/passwd", "parts/../../x.parquet"])
def test_a_part_record_cannot_name_a_file_outside_the_run(tmp_path, file):
    out = tmp_path / "run"
    moaisim.simulate(3, 20, out=out, **KW)
    lines = (out / "parts.jsonl").read_text().splitlines()
    entry = json.loads(lines[0])
    entry["file"] = file
    (out / "parts.jsonl").write_text("\n".join([json.dumps(entry), *lines[1:]]) + "\n")
    with pytest.raises(UserError, match="the part's file must be 'parts/cell0000-games"):
        load_results(out)
    with pytest.warns(RunWarning, match="the record is left out"):  # and its games replayed
        moaisim.simulate(3, 20, out=out, resume=True, **KW)
    same(load_results(out), moaisim.simulate(3, 20, **KW))


def test_a_part_that_is_a_link_out_of_the_run_is_refused(tmp_path):
    out = tmp_path / "run"
    moaisim.simulate(3, 20, out=out, **KW)
    part = out / records(out)[0]["file"]
    outside = tmp_path / "outside.parquet"
    shutil.move(part, outside)
    part.symlink_to(outside)  # the same bytes, but not in the run directory
    with pytest.raises(UserError, match="lies outside the run directory"):
        load_results(out)


@pytest.mark.parametrize(
    "manifest, message",
    [
        ("[]", "not a run manifest (not a JSON object)"),
        ('{"format": 2, "study": 5}', "not a run manifest (study, games or seed)"),
        ('{"format": 1, "study": {}, "chunks": []}', "older moaisim (run format 1"),
        ("{trunc", "not a readable run manifest"),
    ],
)
def test_a_broken_manifest_is_one_line(tmp_path, capsys, manifest, message):
    out = tmp_path / "run"
    out.mkdir()
    (out / "manifest.json").write_text(manifest)
    assert main(["report", str(out), "--out", str(tmp_path / "rep")]) == 2
    assert message in one_line(capsys.readouterr().err)


def test_a_crash_between_part_and_record_leaves_a_part_that_is_played_again(tmp_path):
    """A part written but not recorded (SIGKILL at that moment) and a record cut short are
    not part of the run: resuming plays those games."""
    out = tmp_path / "run"
    moaisim.simulate(3, 30, out=out, **KW)
    lines = (out / "parts.jsonl").read_text().splitlines()
    (out / "parts.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # torn
    assert len(load_results(out)) == 20 * 3
    moaisim.simulate(3, 30, out=out, resume=True, **KW)
    same(load_results(out), moaisim.simulate(3, 30, **KW))


# --- 3. strategy failures in parallel runs ---------------------------------------------------

FAILING = """
import moaisim


class Raises(moaisim.Strategy):
    name = "raises"

    def bid(self, view):
        raise ValueError("no bids today")


class Nothing(moaisim.Strategy):
    name = "nothing"

    def work(self, view):
        return None


class Quits(moaisim.Strategy):
    name = "quits"

    def bid(self, view):
        raise SystemExit(0)


class QuitsAtStart(moaisim.Strategy):
    name = "quits-at-start"

    def start(self, rules, seat, games):
        raise SystemExit(0)
"""


@pytest.fixture
def failing(tmp_path, monkeypatch):
    (tmp_path / "failing.py").write_text(FAILING)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    "strategy, message",
    [
        # games 0, 3, ..., 18 seat the failing strategy in seat 0 (rotation 0)
        (
            "failing:Raises",
            "(seat 0), decision 'bid', game 0 (and 6 other games of the batch) "
            "of seed 0: raised ValueError: no bids today",
        ),  # fmt: skip
        (
            "failing:Nothing",
            # the games pause only at the work turns it overrides (the rest of its play is
            # compiled): the first group holds game 0 and four others
            "decision 'work', game 0 (and 4 other games of the batch) of seed "
            "0: returned None; expected an integer array of shape (5,)",
        ),
        (
            "failing:Quits",
            "decision 'bid', game 0 (and 6 other games of the batch) of seed 0: "
            "raised SystemExit: 0",
        ),  # fmt: skip
        ("failing:QuitsAtStart", "(seat 0), decision 'start', game 0 (and 6 other games"),
    ],
)
def test_a_failing_strategy_is_the_same_line_with_one_or_two_jobs(failing, capsys, strategy,
                                                                   message):  # fmt: skip
    lines = []
    for jobs in ("1", "2"):  # one chunk: the same failure first, whatever the jobs
        args = ["simulate", "-p", "3", "-n", "20", "--strategies", f"{strategy},greedy",
                "--chunk-size", "20", "-j", jobs, "-o", f"run{jobs}", "-q"]  # fmt: skip
        assert main(args) == 1
        err = one_line(capsys.readouterr().err)
        assert err.startswith("moaisim: strategy error: ") and message in err
        lines.append(err)
        assert not (failing / f"run{jobs}").exists()  # nothing kept: no part was finished
    assert lines[0] == lines[1]


@pytest.mark.slow
def test_a_failing_strategy_on_dask_is_the_strategy_error(failing):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        pytest.raises(StrategyError, match="raised ValueError: no bids today") as info,
    ):
        moaisim.simulate(3, 20, strategies="failing:Raises,greedy", backend="dask",
                         scheduler=cluster.scheduler_address, chunk_size=10)  # fmt: skip
    assert info.value.kind == "bid" and info.value.seat == 0


# --- 4. one run per directory --------------------------------------------------------------


def test_a_second_run_on_a_locked_directory_is_refused(tmp_path, capsys):
    from filelock import FileLock

    out = tmp_path / "run"
    out.mkdir()
    with FileLock(str(out / ".lock")):  # as a running simulate holds it
        assert main(["simulate", "-p", "3", "-n", "10", "-o", str(out), "-q"]) == 2
        assert "is in use by another moaisim run" in one_line(capsys.readouterr().err)
    assert main(["simulate", "-p", "3", "-n", "10", "-o", str(out), "-q"]) == 0


def test_two_simulates_on_one_directory_one_is_refused(failing, capsys):
    (failing / "slow.py").write_text(SLOW)
    args = ["simulate", "-p", "3", "-n", "400", "--strategies", "slow:Slow", "--chunk-size",
            "50", "-o", "run", "-q"]  # fmt: skip
    first = start(args, failing)
    wait_for_parts(failing / "run", 1)
    assert main(args) == 2  # the same command again, while the first one runs
    assert "is in use by another moaisim run" in one_line(capsys.readouterr().err)
    first.send_signal(signal.SIGINT)
    first.communicate(timeout=60)
    assert len(records(failing / "run")) >= 1  # the first run's parts are still there


# --- 5. huge plans, and hints that name what exists ----------------------------------------


def test_a_huge_plan_costs_no_memory_and_too_huge_is_refused(capsys):
    import tracemalloc

    tracemalloc.start()
    study = make_study([3, 4], 10**11, ["greedy"], chunk_size=1000, game="moai")
    first = next(study.plan())
    left = study.games_left()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert first == (0, 0, 1000) and left == 2 * 10**11 and peak < 5 * 2**20
    assert study.games_left([(0, 0, 1000), (0, 500, 3000), (1, 10, 20)]) == 2 * 10**11 - 3010
    assert main(["simulate", "-p", "3", "-n", str(10**13), "-q"]) == 2
    assert "games must be at most 1,000,000,000,000 per cell" in one_line(capsys.readouterr().err)
    assert main(["simulate", "-p", "3", "-n", str(10**9), "-q"]) == 2  # no --out: in memory
    err = one_line(capsys.readouterr().err)
    assert "too many to keep in memory" in err and "--out" in err


def test_a_run_stopped_before_its_first_part_leaves_nothing_and_hints_nothing(
    tmp_path, monkeypatch, capsys
):
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt
        yield  # pragma: no cover

    monkeypatch.setattr(moaisim.runner, "run_chunks", stopped)
    out = tmp_path / "never"
    assert main(["simulate", "-p", "3", "-n", "10", "-o", str(out), "-q"]) == 130
    err = one_line(capsys.readouterr().err)
    assert "before the first chunk finished: nothing kept" in err and "Resume" not in err
    assert not out.exists()


# --- 6. SIGTERM, and strategies that try to end the run -------------------------------------

SLOW = """
import time
import moaisim


class Slow(moaisim.Strategy):
    name = "slow"

    def bid(self, view):
        time.sleep(0.01)
        return super().bid(view)
"""


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "moaisim.cli", *args], cwd=cwd, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip


def wait_for_parts(run: Path, n: int) -> None:
    deadline = time.time() + 180
    while time.time() < deadline:
        if (run / "parts.jsonl").is_file() and len(records(run)) >= n:
            return
        time.sleep(0.05)
    raise AssertionError(f"{run}: fewer than {n} parts after 180 s")


@pytest.mark.slow
def test_sigterm_keeps_whole_chunks_ends_the_workers_and_resumes(failing):
    (failing / "slow.py").write_text(SLOW)
    args = ["simulate", "-p", "3", "-n", "600", "--strategies", "slow:Slow", "--chunk-size",
            "50", "-j", "2", "-o", "run", "-q"]  # fmt: skip
    proc = start(args, failing)
    wait_for_parts(failing / "run", 2)
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert workers  # loky's workers
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "terminated; " in err and "--resume" in err
    gone, alive = psutil.wait_procs(workers, timeout=30)
    assert not alive, alive
    kept = records(failing / "run")
    assert 2 <= len(kept) < 12 and not list((failing / "run").rglob("*.tmp"))
    assert main([*args, "--resume"]) == 0
    same(load_results(failing / "run"), moaisim.simulate(3, 600, strategies="slow:Slow"))


# --- 8. values checked -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, message",
    [
        ("greedy(moai_height=-5)", "parameter moai_height must be from 1 to 60, got -5"),
        ("greedy(keep_cards=100)", "parameter keep_cards must be from 0 to 40, got 100"),
        ("greedy(bid_cards_from=1.5)", "parameter bid_cards_from must be an integer"),
    ],
)
def test_strategy_parameters_out_of_range_are_one_line(capsys, spec, message):
    assert main(["simulate", "-p", "3", "-n", "2", "--strategies", spec, "-q"]) == 2
    assert message in one_line(capsys.readouterr().err)


def test_tune_takes_a_module_class_field(tmp_path, capsys):
    args = ["tune", "-p", "3", "--field", "moaisim.strategies.moai.greedy:GreedyStrategy",
            "--games", "2", "--generations", "1", "--popsize", "2", "--held-out-games", "2",
            "--out", str(tmp_path), "-q"]  # fmt: skip
    assert main(args) == 0, capsys.readouterr().err
    assert 'field = ["greedy"]' in (tmp_path / "tuned-3p.toml").read_text()


# --- 9. untrusted files ----------------------------------------------------------------------

EVIL = """
from pathlib import Path
Path("imported.txt").write_text("the experiment ran code from the current directory")
from moaisim.strategies.moai.greedy import GreedyStrategy as Evil
"""


def test_an_experiment_imports_local_code_only_when_it_says_it_trusts_it(tmp_path, monkeypatch,
                                                                         capsys):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evil.py").write_text(EVIL)
    exp = tmp_path / "exp.toml"
    body = '[study]\nplayers = 3\ngames = 4\nstrategies = "evil:Evil"\n'
    exp.write_text('name = "e"\n' + body)
    assert main(["experiment", str(exp), "-q"]) == 2
    err = one_line(capsys.readouterr().err)
    assert "trust_local_code = true" in err and "cannot import 'evil' as an installed" in err
    assert not (tmp_path / "imported.txt").exists() and not (tmp_path / "out").exists()
    exp.write_text('name = "e"\ntrust_local_code = true\n' + body)
    assert main(["experiment", str(exp), "-q"]) == 0
    assert (tmp_path / "imported.txt").is_file()


def test_an_experiment_is_checked_whole_before_any_import(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evil.py").write_text(EVIL)
    exp = tmp_path / "exp.toml"
    exp.write_text('name = "e"\ntrust_local_code = true\n[study]\nplayers = 3\ngames = 4\n'
                   'strategies = "evil:Evil"\nrounds = "yes"\n')  # fmt: skip
    assert main(["experiment", str(exp), "-q"]) == 2
    assert "study.rounds must be true or false, got 'yes'" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "imported.txt").exists()


# --- 10. where experiments write ------------------------------------------------------------

TINY = 'name = "{name}"\n[study]\nplayers = 3\ngames = {games}\nseed = {seed}\n'


def test_experiment_writes_under_out_and_never_over_another_studys_report(tmp_path, monkeypatch,
                                                                           capsys):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    exp = tmp_path / "exp.toml"
    exp.write_text(TINY.format(name="short-game", games=20, seed=1))
    assert main(["experiment", str(exp), "-q"]) == 0
    report = tmp_path / "out" / "reports" / "short-game"
    assert (report / "report.md").is_file() and (tmp_path / "out/runs/short-game").is_dir()
    stray = report / "figures" / "old-figure.png"
    stray.write_bytes(b"left by an older report")
    assert main(["experiment", str(exp), "-q"]) == 0  # the same study: its report is replaced
    assert not stray.exists()
    # another study of the same name, into the same reports directory: refused, untouched
    before = (report / "report.md").read_text()
    exp.write_text(TINY.format(name="short-game", games=20, seed=2))
    args = ["experiment", str(exp), "--runs", "other-runs"]
    assert main(args) == 2
    assert "holds the report of another study" in one_line(capsys.readouterr().err)
    assert (report / "report.md").read_text() == before and not (tmp_path / "other-runs").exists()


def test_experiment_seed_replays_the_design_on_new_games(tmp_path, monkeypatch, capsys):
    """--seed S: an independent replication into <name>-seedS, its games those of a file
    with seed = S, and its report's command says so; a bad seed is one line."""
    monkeypatch.chdir(tmp_path)
    exp, same = tmp_path / "exp.toml", tmp_path / "same.toml"
    exp.write_text(TINY.format(name="short-game", games=12, seed=1))
    same.write_text(TINY.format(name="twin", games=12, seed=9))
    assert main(["experiment", str(exp), "-q"]) == 0
    assert main(["experiment", str(exp), "-q", "--seed", "9"]) == 0
    assert main(["experiment", str(same), "-q"]) == 0
    runs = tmp_path / "out" / "runs"
    original = load_results(runs / "short-game")
    again = load_results(runs / "short-game-seed9")
    twin = load_results(runs / "twin")
    assert again["score"].tolist() == twin["score"].tolist()
    assert again["score"].tolist() != original["score"].tolist()
    page = (tmp_path / "out" / "reports" / "short-game-seed9" / "report.md").read_text()
    assert "--seed 9" in page
    assert main(["experiment", str(exp), "-q", "--seed", "-3"]) == 2
    assert "seed must be a whole number" in one_line(capsys.readouterr().err)
    assert not (runs / "short-game-seed-3").exists()


def test_report_refuses_a_directory_that_holds_something_else(tmp_path, capsys):
    moaisim.simulate(3, 10, out=tmp_path / "run", **KW)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "mine")]) == 2
    assert "does not hold a moaisim report" in one_line(capsys.readouterr().err)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "mine"


# --- 7. mistakes that ended in a traceback ----------------------------------------------------


def test_out_that_is_a_file_a_dangling_link_or_unwritable_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for out, message in (
        (tmp_path / "file", "is a file, not a directory"),
        (tmp_path / "dangling", "is a symbolic link to nothing"),
        (tmp_path / "file" / "sub", "cannot create the directory"),
        (Path("/proc/moaisim-run"), "cannot create the directory"),
    ):
        assert main(["simulate", "-p", "3", "-n", "4", "-o", str(out), "-q"]) == 2, out
        assert message in one_line(capsys.readouterr().err)
    assert (tmp_path / "file").read_text() == "x"


def test_an_early_error_leaves_nothing_that_blocks_a_plain_rerun(tmp_path, capsys, failing):
    out = tmp_path / "run"
    assert main(["simulate", "-p", "3", "-n", "20", "--strategies", "failing:Raises",
                 "-o", str(out), "-q"]) == 1  # fmt: skip
    capsys.readouterr()
    assert not out.exists()
    out.mkdir()  # an empty directory given by the user stays usable too
    assert main(["simulate", "-p", "3", "-n", "20", "--strategies", "failing:Raises",
                 "-o", str(out), "-q"]) == 1  # fmt: skip
    assert out.is_dir() and not list(out.iterdir())
    assert main(["simulate", "-p", "3", "-n", "20", "-o", str(out), "-q"]) == 0


def test_a_full_disk_is_one_line(tmp_path, monkeypatch, capsys):
    """ENOSPC while a part is written: one line, exit 2, whole parts only."""
    from moaisim import rundir

    real = rundir.RunDir.write_part  # where every part's bytes reach the disk
    calls = []

    def full(self, kind, part, cell, start, end):
        calls.append(1)
        if len(calls) > 2:
            raise OSError(28, "No space left on device", str(self.path / "parts" / "x.tmp"))
        return real(self, kind, part, cell, start, end)

    monkeypatch.setattr(rundir.RunDir, "write_part", full)
    out = tmp_path / "run"
    args = ["simulate", "-p", "3", "-n", "40", "--chunk-size", "10", "-o", str(out), "-q"]
    assert main(args) == 2
    assert "No space left on device" in one_line(capsys.readouterr().err)
    assert len(records(out)) == 2
    monkeypatch.setattr(rundir.RunDir, "write_part", real)
    assert main([*args, "--resume"]) == 0


BAD_COMPONENTS = [
    (b"\xff\xfe not utf-8", "not a UTF-8 text file"),
]


@pytest.mark.parametrize("content, message", BAD_COMPONENTS)
def test_a_bad_component_file_is_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "c.toml"
    path.write_bytes(content)
    assert main(["play", "-p", "3", "--components", str(path)]) == 2
    assert message in one_line(capsys.readouterr().err)


# --- issue 25: forged parts, versus at tiny n, play logs that replay with their rules ---


from moaisim.rundir import RunDir  # noqa: E402
from moaisim.studies.versus import text as versus_text  # noqa: E402
from moaisim.studies.versus import versus  # noqa: E402

#: `simulate --resume` of KW's study, 20 games (the run directory follows).
RESUME = ["simulate", "-p", "3", "-n", "20", "--strategies", "greedy,random", "-s", "5",
          "--chunk-size", "10", "--resume", "-q", "-o"]  # fmt: skip


def forge(run: Path, line: int, **changes: object) -> None:
    """Rewrite one record of parts.jsonl (what a hand edit, or a line copied in, does)."""
    entries = records(run)
    entries[line].update(changes)
    (run / "parts.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))


def copy_part(source: Path, entry: dict, run: Path, line: int) -> None:
    """Copy a part's file over the file of record `line` of `run` and rewrite that record to
    the copy's rows, size and checksum (its cell, games and study stay): a forged part whose
    checksum holds."""
    shutil.copyfile(source / entry["file"], run / records(run)[line]["file"])
    forge(run, line, **{k: entry[k] for k in ("rows", "bytes", "sha256")})


def test_a_part_of_another_study_with_a_record_claiming_this_one_is_refused(tmp_path, capsys):
    """A part of another run copied in with its record, the record's study rewritten to this
    run's: the checksum holds, and loading returned the games of two seeds. Now load,
    summary and report refuse it and resume plays it again, each saying it is from another
    study."""
    five, six = tmp_path / "five", tmp_path / "six"
    moaisim.simulate(3, 20, out=five, **KW)
    moaisim.simulate(3, 20, out=six, **{**KW, "seed": 6})
    copy_part(six, records(six)[0], five, 0)
    name = r"cell0000-games000000000000-000000000010\.parquet"
    with pytest.raises(UserError, match=rf"{name} is from another study \(played with seed 6"):
        load_results(five)
    with pytest.raises(UserError, match=rf"{name} is from another study"):
        moaisim.runner.summary(five)
    assert main(["report", str(five), "--out", str(tmp_path / "rep")]) == 2
    assert "is from another study" in one_line(capsys.readouterr().err)
    assert main([*RESUME, str(five)]) == 0
    warned = one_line(capsys.readouterr().err)
    assert warned.startswith("moaisim: warning: ") and "from another study" in warned
    assert "playing games 0-9 of cell 0 again" in warned
    same(load_results(five), moaisim.simulate(3, 20, **KW))


def test_a_part_played_under_other_rules_with_the_same_seed_is_refused(tmp_path, capsys):
    """Issue 40: a part of a wood_points=3 run of the same seed and grid, its record's study
    rewritten to this run's: seed, cell and games agree, and loading mixed the rows of two
    rule sets. The rows carry their rules' digest: load, summary and report refuse the part,
    resume plays it again."""
    base, other = tmp_path / "base", tmp_path / "other"
    moaisim.simulate(3, 20, out=base, **KW)
    moaisim.simulate(3, 20, out=other, params={"wood_points": 3}, **KW)
    copy_part(other, records(other)[0], base, 0)
    name = r"cell0000-games000000000000-000000000010\.parquet"
    with pytest.raises(UserError, match=rf"{name} was played under other rules than its cell"):
        load_results(base)
    with pytest.raises(UserError, match="other rules"):
        moaisim.runner.summary(base)
    assert main(["report", str(base), "--out", str(tmp_path / "rep")]) == 2
    assert "was played under other rules" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "rep").exists()
    assert main([*RESUME, str(base)]) == 0
    warned = one_line(capsys.readouterr().err)
    assert "other rules" in warned and "playing games 0-9 of cell 0 again" in warned
    same(load_results(base), moaisim.simulate(3, 20, **KW))


def test_a_per_round_part_of_other_rules_is_refused(tmp_path):
    """The per-round table's parts carry the rules too: one copied from a run of other rules
    (its record's rounds checksum rewritten) is refused when the table is read."""
    base, other = tmp_path / "base", tmp_path / "other"
    moaisim.simulate(3, 20, out=base, rounds=True, **KW)
    moaisim.simulate(3, 20, out=other, rounds=True, params={"wood_points": 3}, **KW)
    theirs = records(other)[0]
    shutil.copyfile(other / theirs["rounds_file"], base / records(base)[0]["rounds_file"])
    forge(base, 0, **{k: theirs[k] for k in ("rounds_rows", "rounds_bytes", "rounds_sha256")})
    with pytest.raises(UserError, match="was played under other rules than its cell"):
        load_results(base, "rounds")
    assert set(load_results(other, "rounds")["rules_digest"].unique()) == {
        Rules.make(3, params={"wood_points": 3}).digest()
    }


def test_a_smaller_part_of_another_study_is_from_another_study_not_cut_short(tmp_path, capsys):
    """A part of a two-player run (a smaller file) copied over a three-player part: it was
    said to be 'cut short'; it is whole, and from another study."""
    three, two = tmp_path / "three", tmp_path / "two"
    moaisim.simulate(3, 20, out=three, **KW)
    moaisim.simulate(2, 20, out=two, **{**KW, "seed": 6})
    theirs, ours = records(two)[0], records(three)[0]
    assert theirs["file"] == ours["file"] and theirs["bytes"] < ours["bytes"]
    shutil.copyfile(two / theirs["file"], three / ours["file"])
    with pytest.raises(UserError, match="does not match its checksum") as caught:
        load_results(three)
    assert "from another study" in str(caught.value) and "cut short" not in str(caught.value)
    assert main([*RESUME, str(three)]) == 0
    warned = one_line(capsys.readouterr().err)
    assert "from another study" in warned and "cut short" not in warned
    same(load_results(three), moaisim.simulate(3, 20, **KW))


@pytest.mark.parametrize(
    "lineups, source, message",
    [
        # the file of games 0-9 under the name and record of games 10-19
        (None, (None, 0), "holds other games than its record names: games 0-9 with 3 rows "
         "each, not games 10-19 with 3"),
        # cell 1's games 10-19 under cell 0's name: the same seed, the same games
        (["greedy,random", "random,greedy"], (None, 4), "holds games of cell 1, not of its "
         "record's cell 0"),
        # games 10-19 of cell 0 of a two-player run of the same seed
        (None, (2, 1), "games 10-19 with 2 rows each, not games 10-19 with 3"),
    ],
    ids=["moved", "another-cell", "another-player-count"],
)  # fmt: skip
def test_a_part_that_holds_other_games_than_its_record_is_refused(tmp_path, lineups, source,
                                                                  message):  # fmt: skip
    """A part whose record's game range (or cell) was rewritten, its file renamed with it:
    the checksum holds, and loading returned 90 rows for 20 distinct games, or another
    cell's games. Now its rows must be its record's games, cell and seats."""
    out = tmp_path / "run"
    kw = {**KW, "lineups": lineups} if lineups else KW
    moaisim.simulate(3, 30, out=out, **kw)
    players, line = source
    origin = out
    if players:
        origin = tmp_path / "other"
        moaisim.simulate(players, 30, out=origin, **KW)
    copy_part(origin, records(origin)[line], out, 1)  # over games 10-19 of cell 0
    with pytest.raises(UserError, match=re.escape(message)):
        load_results(out)
    with pytest.warns(RunWarning, match=f"{re.escape(message)}.*: playing games 10-19 of cell "
                      "0 again"):  # fmt: skip
        moaisim.simulate(3, 30, out=out, resume=True, **kw)
    same(load_results(out), moaisim.simulate(3, 30, **kw))


def test_parts_whose_games_overlap_are_refused_and_left_out_on_resume(tmp_path):
    """A record added for games 0-19, its file the two parts' rows: every row is its
    record's, but games 0-19 were counted twice (120 rows for 20 games)."""
    out = tmp_path / "run"
    moaisim.simulate(3, 20, out=out, **KW)
    both = pd.concat([pd.read_parquet(out / e["file"]) for e in records(out)], ignore_index=True)
    run = RunDir(out)
    run.record({"cell": 0, "start": 0, "end": 20, "study": records(out)[0]["study"],
                **run.save("parts", both, 0, 0, 20)})  # fmt: skip
    with pytest.raises(UserError, match=r"line 3: games 0-19 of cell 0 overlap games 0-9 of "
                       "another part"):  # fmt: skip
        load_results(out)
    with pytest.warns(RunWarning, match="line 3: games 0-19 of cell 0 overlap .*: left out"):
        moaisim.simulate(3, 20, out=out, resume=True, **KW)
    same(load_results(out), moaisim.simulate(3, 20, **KW))


def test_a_record_rewritten_to_claim_another_study_is_played_again_and_resume_says_so(tmp_path):
    """Loading refused it already; resuming left it out without a word."""
    out = tmp_path / "run"
    moaisim.simulate(3, 20, out=out, **KW)
    forge(out, 0, study="0" * 64)
    with pytest.raises(UserError, match="line 1: the part was played for another study"):
        load_results(out)
    with pytest.warns(RunWarning, match="line 1: the part was played for another study than "
                      "manifest.json describes: playing games 0-9 of cell 0 again"):  # fmt: skip
        moaisim.simulate(3, 20, out=out, resume=True, **KW)
    same(load_results(out), moaisim.simulate(3, 20, **KW))


@pytest.mark.parametrize("games", [1, 2, 3])
def test_versus_intervals_stay_within_0_and_1_at_tiny_n(capsys, games):
    """The field's interval was a t interval over games: nan at one game, [-2.927, 3.427] at
    two. Both rows' win shares now have Wilson intervals (the field's from the candidate's:
    per game the field's seats share what the candidate does not win)."""
    args = ["versus", "forester", "--field", "greedy", "-p", "3", "-n", str(games)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "nan" not in out
    rows = re.findall(r"win share (\d\.\d+) \[(-?\d\.\d+), (-?\d\.\d+)\]", out)
    assert len(rows) == 2, out
    for share, lo, hi in rows:
        assert 0 <= float(lo) <= float(share) <= float(hi) <= 1
    table = versus("forester", "greedy", players=3, games=games, game="moai")
    cand, field = table.iloc[0], table.iloc[1]
    assert field["lo"] == pytest.approx((1 - cand["hi"]) / 2)
    assert field["hi"] == pytest.approx((1 - cand["lo"]) / 2)
    assert field["vs_fair_lo"] == pytest.approx(field["lo"] - 1 / 3)


def test_versus_says_too_few_games_where_an_interval_cannot_be_computed():
    """No interval (nan bounds, as a t interval of one game has) is 'too few games', not
    '[nan, nan]'."""
    table = versus("forester", "greedy", players=3, games=1, game="moai")
    nan = {k: float("nan") for k in ("lo", "hi", "vs_fair_lo", "vs_fair_hi")}
    lines = versus_text(table.assign(**nan)).splitlines()
    assert "nan" not in "\n".join(lines)
    assert all(line.count("(too few games)") == 2 for line in lines[1:])


PLAY = ["play", "-p", "3", "-s", "1", "--strategies", "forester,greedy,greedy"]


def test_a_play_log_records_its_rules_and_replays_to_the_same_scores(tmp_path, capsys):
    """The header of `play --json` named the variant and the options but not the rule
    parameters, so a wood_points=5 game's log replayed as a base game. It now records the
    parameters and the component set's digest, and `moaisim replay` plays the log's
    decisions again under the rules it names."""
    from moaisim.api import replay  # added with the fix (issue 25)

    assert main([*PLAY, "--param", "wood_points=5", "--json"]) == 0
    log = capsys.readouterr().out
    header = json.loads(log.splitlines()[0])
    assert header["params"]["wood_points"] == 5 and header["params"]["wood_supply"] == 15
    assert header["options"] == {"turn_order": "hill", "volcano_after_moai": "stay",
                                 "spent_wood": "supply"}  # fmt: skip
    assert header["components"]["name"] == "default"
    assert len(header["components"]["digest"]) == 64
    assert main([*PLAY, "--param", "wood_points=5"]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "game.jsonl"
    path.write_text(log)
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out == text  # the same game, the same scores
    assert main(["replay", str(path), "--json"]) == 0
    assert capsys.readouterr().out == log
    rec = replay(log)
    scores = rec.result["score"].tolist()
    played = moaisim.play(3, 1, strategies="forester,greedy,greedy", params={"wood_points": 5})
    assert scores == played.result["score"].tolist()
    base = moaisim.play(3, 1, strategies="forester,greedy,greedy")
    assert scores != base.result["score"].tolist()  # the parameter counted


def test_a_log_replays_only_under_the_rules_it_was_played_with(tmp_path, capsys):
    components = ROOT / "experiments" / "components" / "more-raids.toml"
    assert main([*PLAY, "--components", str(components), "--json"]) == 0
    log = capsys.readouterr().out
    path = tmp_path / "game.jsonl"
    path.write_text(log)
    assert main(["replay", str(path)]) == 2  # its component file is needed
    err = one_line(capsys.readouterr().err)
    assert "the component set 'more-raids'" in err and "--components" in err
    assert main(["replay", str(path), "--components", str(components)]) == 0
    capsys.readouterr()
    header, *events = log.splitlines()
    edited = json.loads(header)
    edited["params"]["wood_points"] = 5  # the header edited: not the rules it names
    path.write_text("\n".join([json.dumps(edited), *events]) + "\n")
    assert main(["replay", str(path), "--components", str(components)]) == 2
    assert "its rules digest" in one_line(capsys.readouterr().err)
    setup = json.loads(events[0])
    setup["covered"] += 1  # an event edited: the game does not replay
    path.write_text("\n".join([header, json.dumps(setup), *events[1:]]) + "\n")
    assert main(["replay", str(path), "--components", str(components)]) == 2
    assert "event 1 (setup) is not the one the game makes" in one_line(capsys.readouterr().err)
    path.write_text('{"e": "setup"}\n')
    assert main(["replay", str(path)]) == 2
    assert "not a game log of moaisim play --json" in one_line(capsys.readouterr().err)


# --- issue 25: the forward model refuses what would corrupt a game silently -----------------


def _to_decision(game: Game, kind: Kind, rng: np.random.Generator) -> None:
    """Drive `game` with random legal actions until `kind` is pending."""
    while game.legal()[0] is not kind:
        game.apply(_random_action(*game.legal(), rng))


def _random_action(kind: Kind, seats: np.ndarray, legal: np.ndarray,
                   rng: np.random.Generator) -> np.ndarray:  # fmt: skip
    """A random legal action per row of `legal` (bids: random counts within the hand)."""
    if kind is Kind.BID:
        return np.array([[rng.integers(0, int(h) + 1) for h in row] for row in legal])
    return np.array([rng.choice(np.flatnonzero(row)) for row in legal])


def test_a_pending_group_answered_twice_is_refused_and_the_game_is_unchanged():
    fm = Games.new(Rules.make(3), seed=5, games=[0])
    rng = np.random.default_rng(1)
    while True:  # to the first epoch pick (R4.1)
        [pend] = fm.pending()
        if pend.kind is Kind.PICK_EPOCH:
            break
        fm.apply(pend, _random_action(pend.kind, pend.seat, pend.legal, rng))
    action = np.array([int(np.flatnonzero(pend.legal[0])[0])])
    fm.apply(pend, action)
    after = fm.machine.state.take(np.arange(1))
    with pytest.raises(UserError, match="not the current decision of its games"):
        fm.apply(pend, action)  # the same pick again: once accepted, it took a second card
    assert (fm.machine.state.take(np.arange(1)).public == after.public).all()
    [again] = fm.pending()  # a fresh group is the current one
    fm.apply(again, _random_action(again.kind, again.seat, again.legal, rng))


def test_a_group_issued_before_the_games_moved_on_or_by_other_games_is_refused():
    fm = Games.new(Rules.make(4), seed=2, games=[0, 1])
    [bids] = fm.pending()
    copy = fm.clone()
    with pytest.raises(UserError, match="not issued by these games"):
        copy.apply(bids, np.zeros((len(bids), 6), dtype=int))  # the original's group
    fm.run(lambda p: np.zeros((len(p), 6), int) if p.kind is Kind.BID else
           np.argmax(p.legal, axis=1), last_round=1)  # fmt: skip
    with pytest.raises(UserError, match="not the current decision"):
        fm.apply(bids, np.zeros((len(bids), 6), dtype=int))  # issued before the run


def test_games_of_other_rules_cannot_share_a_batch():
    wood = Games.new(Rules.make(3, params={"wood_points": 5}), seed=3, games=[0])
    base = Games.new(Rules.make(3), seed=3, games=[0])
    with pytest.raises(
        UserError, match=r"set 1 \(wood_points=5\) is played under other rules than set 0 \(base\)"
    ):
        Games.stack([base, wood])
    with pytest.raises(UserError, match="list of Games"):
        Games.stack([])
    both = Games.stack([base, Games.new(Rules.make(3), seed=9, games=[4])])
    assert len(both) == 2


@pytest.mark.parametrize("action", [1.9, "3", True, [0.0], None, [[1, 2]]])
def test_game_apply_refuses_what_the_runner_refuses(action):
    g = Game.new(Rules.make(3), seed=4)
    _to_decision(g, Kind.PICK_EPOCH, np.random.default_rng(0))
    before = g.games.machine.state.take(np.arange(1)).public.copy()
    with pytest.raises(UserError, match="pick_epoch: got|pick_epoch: .*expected an integer"):
        g.apply(action)
    assert (g.games.machine.state.public == before).all()


def test_a_fractional_or_boolean_bid_is_refused():
    g = Game.new(Rules.make(3), seed=4)
    kind, seats, hands = g.legal()
    assert kind is Kind.BID
    for bid in (np.full((3, 6), 0.7), np.zeros((3, 6), dtype=bool)):
        with pytest.raises(UserError, match="bid: got"):
            g.apply(bid)
    fm = Games.new(Rules.make(3), seed=4, games=[0])
    [pend] = fm.pending()
    with pytest.raises(UserError, match="bid: got float64 values"):
        fm.apply(pend, pend.legal * 0.7)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda fm: fm.clone(rows=[-1]), "clone: rows: position -1 is not one of the 2 games"),
        (lambda fm: fm.clone(rows=[5]), "position 5 is not one of the 2 games"),
        (lambda fm: fm.clone(rows=[]), "at least one game"),
        (lambda fm: fm.clone(rows=[0.5]), "list of integer positions"),
        (lambda fm: fm.clone(rows=[0, 1], seed=1, games=[-3, 0]), "integers from 0"),
        (lambda fm: fm.clone(rows=[0], seed=-1), "seed must be an integer from 0"),
        (lambda fm: fm.observe(3), "observe: seat must be 0 to 2"),
        (lambda fm: fm.observe(True), "observe: seat must be 0 to 2"),
        (lambda fm: fm.observe(0, rows=[-2]), "observe: rows: position -2"),
        (lambda fm: determinize(fm.observe(0), 1, n=10**9), "n \\(worlds per game\\) must be"),
        (lambda fm: determinize(fm.observe(0), 1, n=0), "n \\(worlds per game\\) must be"),
        (lambda fm: determinize(fm.observe(0), 1, n=2, rows=[-1]), "rows: position -1"),
        (lambda fm: determinize(fm.observe(0), 1.5, n=2), "seed must be an integer"),
        (lambda fm: determinize("a view", 1, n=2), "needs a SeatView"),
        (lambda fm: Games.new(Rules.make(3), 1, [0, 0]), "games must be distinct"),
        (lambda fm: Games.new(Rules.make(3), 1, [-1]), "integers from 0 to 2\\*\\*63-1"),
        (lambda fm: Games.new(3, 1, [0]), "needs a Rules"),
        (lambda fm: Game(fm), "a Game is one game"),
        (lambda fm: fm.apply("pending", [0]), "pending group from pending"),
    ],
)
def test_forward_model_misuse_is_a_user_error_naming_the_problem(call, message):
    fm = Games.new(Rules.make(3), seed=1, games=[0, 1])
    fm.pending()
    with pytest.raises(UserError, match=message):
        call(fm)


def test_determinize_of_an_impossible_view_is_a_user_error():
    fm = Games.new(Rules.make(3), seed=1, games=[0])
    fm.pending()
    view = fm.observe(0)
    view.hand_sizes[0, 1] = 40  # more cards in a rival's hand than exist
    with pytest.raises(UserError, match="no game can show this view .*Rapa Nui cards"):
        determinize(view, 1, n=2)


# --- issue 40: the rules decide what is legal; views no game can show --------------------------


def _state_bytes(fm: Games) -> bytes:
    """Every array of the games' state, as bytes (to show that nothing changed)."""
    st = fm.machine.state
    return b"".join(np.ascontiguousarray(v).tobytes() for v in vars(st).values()
                    if isinstance(v, np.ndarray))  # fmt: skip


def _to(fm: Games, kind: Kind) -> Any:
    """Play the games on (first legal action) to a decision of `kind` with an illegal action."""
    for _ in range(2000):
        groups = fm.pending()
        for pend in groups:
            if pend.kind is kind and (~pend.legal).any():
                return pend
        pend = groups[0]
        if pend.kind is Kind.BID:
            fm.apply(pend, np.zeros(pend.legal.shape, dtype=np.int64))
        else:
            fm.apply(pend, pend.legal.argmax(axis=1))
    raise AssertionError(f"no {kind.value} decision")


@pytest.mark.parametrize("kind", [Kind.WORK, Kind.BIRTH, Kind.FEED])
def test_an_edited_legal_mask_never_makes_an_illegal_action_legal(kind):
    """Issue 40: Games.apply checked an answer against the mask of the group it was given,
    and that mask was writable: a search that masks its candidates in place let illegal
    work, birth and feed actions through, hands went negative. The mask handed out is
    read-only, and an answer is checked against the engine's own."""
    fm = Games.new(Rules.make(3), seed=8, games=[0, 1, 2])
    pend = _to(fm, kind)
    with pytest.raises(ValueError, match="read-only"):
        pend.legal[:] = True
    illegal = int(np.flatnonzero(~pend.legal[0])[0])
    before = _state_bytes(fm)
    forged = dataclasses.replace(pend, legal=np.ones_like(pend.legal))  # a writable copy, all legal
    actions = pend.legal.argmax(axis=1)
    actions[0] = illegal
    with pytest.raises(UserError, match=f"{kind.value}: illegal action"):
        fm.apply(forged, actions)
    assert _state_bytes(fm) == before  # nothing changed
    fm.apply(pend, pend.legal.argmax(axis=1))  # the group is still the games' decision


def test_a_bid_over_the_hand_stays_illegal_whatever_the_group_says():
    fm = Games.new(Rules.make(3), seed=4, games=[0, 1])
    [pend] = fm.pending()
    forged = dataclasses.replace(pend, legal=np.full_like(pend.legal, 9))
    before = _state_bytes(fm)
    with pytest.raises(UserError, match="bid: illegal bid"):
        fm.apply(forged, pend.legal.astype(np.int64) + 1)
    assert _state_bytes(fm) == before


def test_a_group_whose_games_were_changed_is_refused():
    fm = Games.new(Rules.make(3), seed=4, games=[0, 1])
    [pend] = fm.pending()
    moved = dataclasses.replace(pend, rows=(pend.rows + 1) % 2)
    with pytest.raises(UserError, match="games were changed|not the current decision"):
        fm.apply(moved, np.zeros(pend.legal.shape, dtype=np.int64))


def test_a_flat_array_is_not_read_as_sealed_bids():
    """Game.apply reshaped any array of the right size: 18 numbers became three bids."""
    g = Game.new(Rules.make(3), seed=4)
    kind, seats, legal = g.legal()
    assert kind is Kind.BID and len(seats) == 3
    with pytest.raises(UserError, match=r"expected an integer array of shape \(3, 6\)"):
        g.apply(np.zeros(18, dtype=np.int64))
    g.apply(np.zeros((3, 6), dtype=np.int64))  # the bids as [P, 6]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("wood", 99, "do not add up to the game's 15"),
        ("wood_supply", -5, "negative wood"),
        ("round", 99, "round 99"),
        ("round", 0, "round 0"),
        ("deck_size", -5, "negative card count"),
        ("deck_size", 99, "do not add up to the 40 Rapa Nui cards"),
        ("epoch_deck_size", 99, "99 epoch cards"),
        ("covered", 99, "covered fields"),
        ("birdman", 7, "bird-man 7"),
    ],
)
def test_determinize_refuses_a_view_no_game_can_show(field, value, message):
    """Issue 40: worlds were built from views with wood 99, round 99, deck size -5 or 99."""
    fm = Games.new(Rules.make(3), seed=1, games=[0, 1])
    fm.pending()
    view = fm.observe(0)
    arr = getattr(view, field)
    arr[1] = value if arr.ndim == 1 else arr[1]
    if arr.ndim > 1:
        arr[1, 0] = value
    determinize(view, 1, n=2, rows=0)  # the row left alone is fine
    with pytest.raises(UserError, match=rf"no game can show this view \(game 1\): .*{message}"):
        determinize(view, 1, n=2, rows=1)


# --- issue 25: a report of any run with at least one game ------------------------------------


@pytest.fixture(scope="module")
def tiny_study():
    """Three games of a small grid (two variants, two lineups), with its per-round table."""
    return moaisim.simulate(3, 3, lineups=["greedy", "greedy,random"], variants=["base", "short"],
                            seed=11, rounds=True)  # fmt: skip


def _degrade(results: pd.DataFrame, rounds: pd.DataFrame, how: str, games: int
             ) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """The first `games` games of the study, made degenerate: every seat tied, one seat
    always the winner, or both variants the same games (zero variance of the differences)."""
    res = results[results["game"] < games].copy()
    rnd = rounds[rounds["game"] < games].copy()
    if how == "all ties":
        res["score"], res["rank"], res["win"] = 30, 1, True
        rnd["score"] = 30
    elif how == "one winner":
        first = res["seat"] == 0
        res["score"] = np.where(first, 99, 10)
        res["rank"] = np.where(first, 1, 2)
        res["win"] = first
    elif how == "no variance":
        base = res[res["variant"] == "base"]
        cols = [c for c in res.columns if c not in ("variant", "setup", "rules_digest", "cell",
                                                    "removed_epoch1", "removed_epoch2",
                                                    "removed_epoch3")]  # fmt: skip
        short = (res["variant"] == "short").to_numpy()
        for c in cols:
            res[c] = res[c].to_numpy()  # plain arrays: categories and small ints may change
            res.loc[short, c] = base[c].to_numpy()
    return res, rnd


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(games=st.integers(1, 3), how=st.sampled_from(["as played", "all ties", "one winner",
                                                     "no variance"]))  # fmt: skip
def test_a_report_of_tiny_and_degenerate_tables_is_written_without_nan(tiny_study, tmp_path,
                                                                        games, how):  # fmt: skip
    results, rounds = _degrade(*tiny_study, how, games)
    out = tmp_path / f"{how}-{games}".replace(" ", "-")
    path = make_report(results, out, rounds=rounds)
    page = path.read_text()
    assert not re.search(r"\bnan\b", page, re.IGNORECASE)
    if games == 1:
        assert "too few games" in page


def test_report_and_experiment_of_two_games_do_not_crash(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "-p", "3", "-v", "base", "-v", "short", "-n", "2", "-o", "r", "-q"]
    assert main(args) == 0
    assert main(["report", "r", "--out", "rep"]) == 0
    assert not re.search(r"\bnan\b", (tmp_path / "rep" / "report.md").read_text())


# --- issue 25: the forward model driven step by step, fuzzed -----------------------------------

FUZZ_VARIANTS = ["base", "short", "open-pawns", "open-bidding", "open-bidding-strict",
                 "fixed-disasters", "short+open-bidding+fixed-disasters"]  # fmt: skip
FUZZ_PARAMS = {"wood_supply": [4, 15, 30], "camp_pawns": [1, 3], "hand_size": [3, 5, 7],
               "wood_points": [0, 2, 5], "forest_spaces": [4, 6, 9]}  # fmt: skip


@st.composite
def fuzz_rules(draw: Any) -> Rules:
    """Random rules: a player count, a variant, rule options and rule parameters."""
    players = draw(st.integers(2, 5))
    params = {k: draw(st.sampled_from(v)) for k, v in FUZZ_PARAMS.items() if draw(st.booleans())}
    options = {name: draw(st.sampled_from(values)) for name, values in OPTIONS.items()}
    return Rules.make(players, draw(st.sampled_from(FUZZ_VARIANTS)), params=params, **options)


class Replay(moaisim.Strategy):
    """Plays back, game by game, the actions recorded for its seat (`drive_all`)."""

    name = "replay"
    reads: ClassVar[dict[str, tuple[str, ...]]] = {k.value: () for k in Kind}
    scripts: ClassVar[dict[tuple[int, int], list]] = {}

    def start(self, rules: Rules, seat: int, games: np.ndarray) -> None:
        self.seat = seat

    def _next(self, view: Any) -> np.ndarray:
        out = []
        for g in view.games.tolist():
            kind, action = self.scripts[(g, self.seat)].pop(0)
            assert kind is view.kind
            out.append(action)
        return np.asarray(out)


for _kind in Kind:
    setattr(Replay, _kind.value, Replay._next)


def drive_all(fm: Games, rng: np.random.Generator, stop: int | None = None,
              scripts: dict | None = None) -> int:  # fmt: skip
    """Answer every pending group of `fm` with random legal actions, group by group (the
    decisions the engine would ask a strategy recorded per game and seat in `scripts`);
    `stop`: after that many groups. Returns the groups answered."""
    done = 0
    while (stop is None or done < stop) and not fm.over().all():
        for pend in fm.pending():
            action = _random_action(pend.kind, pend.seat, pend.legal, rng)
            if scripts is not None:
                single = ~pend.legal.any(axis=1) if pend.kind is Kind.BID else (
                    pend.legal.sum(axis=1) == 1)  # fmt: skip
                for row, seat, a, one in zip(pend.rows.tolist(), pend.seat.tolist(), action,
                                             single, strict=True):  # fmt: skip
                    if not one:
                        key = (int(fm.machine.games[row]), seat)
                        scripts.setdefault(key, []).append((pend.kind, a))
            fm.apply(pend, action)
            done += 1
    return done


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=fuzz_rules(), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_fuzz_games_driven_step_by_step_are_the_games_the_engine_plays(rules, seed, data):
    """Random rules, random legal actions group by group through `Games`: the engine, asked
    the same actions by strategies, plays the same games (final state and scores); a copy
    made at a random point and played on differently changes nothing in the original."""
    games = data.draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=4, unique=True))
    fm = Games.new(rules, seed, games)
    scripts: dict = {}
    stop = data.draw(st.integers(0, 60))
    drive_all(fm, np.random.default_rng(seed % 2**32), stop, scripts)
    if not fm.over().all():  # a copy here, played to its end with other actions
        drive_all(fm.clone(), np.random.default_rng(seed % 2**32 + 1))
    drive_all(fm, np.random.default_rng(seed % 2**32 + 2), None, scripts)
    Replay.scripts = scripts
    played = Games.new(rules, seed, games).play([Replay() for _ in range(rules.players)])
    assert not any(scripts.values())  # every recorded decision was asked, in order
    assert fm.scores().tolist() == played.scores().tolist()
    for name in ("hand", "loc", "up", "moai_owner", "wood"):
        assert (getattr(fm.machine.state, name) == getattr(played.state, name)).all(), name


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=fuzz_rules(),
    seed=st.integers(0, 2**32),
    lineup=st.lists(
        st.sampled_from(["greedy", "random", "tuned", "moai", "fisher"]), min_size=1, max_size=5
    ),
)
def test_fuzz_games_played_round_by_round_are_the_games_simulate_plays(rules, seed, lineup):
    """Strategies playing `Games` on a round at a time (a fresh `play` each round, as a
    program stepping through a study would) give the rows `simulate` gives."""
    specs = parse_lineup(lineup[: rules.players], rules.players)
    fm = Games.new(rules, seed, [0, 1, 2])
    for last in range(1, 40):
        fm.play([s() for s in specs], last_round=last)
        if fm.over().all():
            break
    df = moaisim.simulate(rules.players, 3, strategies=specs, seed=seed, rules=rules,
                          rotation="none")  # fmt: skip
    want = df.sort_values(["game", "seat"])["score"].to_numpy().reshape(3, rules.players)
    assert fm.scores().tolist() == want.tolist()


# --- issue 25: smaller things a user hit ---------------------------------------------------------

INTERRUPTING = """
import moaisim


class Interrupts(moaisim.Strategy):
    name = "interrupts"

    def bid(self, view):
        raise KeyboardInterrupt("not the user's")


class InterruptsAtStart(moaisim.Strategy):
    name = "interrupts-at-start"

    def start(self, rules, seat, games):
        raise KeyboardInterrupt
"""


@pytest.mark.parametrize("strategy, kind", [("Interrupts", "bid"), ("InterruptsAtStart", "start")])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_strategy_raising_keyboard_interrupt_is_its_failure_not_the_users(
    failing, capsys, strategy, kind, jobs
):
    (failing / "interrupting.py").write_text(INTERRUPTING)
    args = ["simulate", "-p", "3", "-n", "10", "--strategies", f"interrupting:{strategy},greedy",
            "-j", jobs, "-o", "run", "-q"]  # fmt: skip
    assert main(args) == 1
    err = one_line(capsys.readouterr().err)
    assert err.startswith("moaisim: strategy error: ") and f"decision '{kind}'" in err
    assert "raised KeyboardInterrupt" in err


@pytest.mark.slow
def test_ctrl_c_inside_a_strategy_still_stops_the_run(failing):
    (failing / "slow.py").write_text(SLOW)
    args = ["simulate", "-p", "3", "-n", "600", "--strategies", "slow:Slow", "--chunk-size",
            "50", "-o", "run", "-q"]  # fmt: skip
    proc = start(args, failing)
    wait_for_parts(failing / "run", 1)
    proc.send_signal(signal.SIGINT)  # most likely inside Slow.bid's sleep
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; " in err and "--resume" in err


KERNEL_INTERRUPTED = """
import moaisim
from moaisim import interrupts


class Kernel(moaisim.Strategy):
    name = "kernel"

    def bid(self, view):
        # What Python raises when Ctrl-C arrives while a numba kernel runs: the signal's
        # handler runs (and counts) as the kernel returns, and the KeyboardInterrupt comes
        # out wrapped in a SystemError ('... returned a result with an exception set').
        interrupts.note()
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as stop:
            raise SystemError("CPUDispatcher(<function k>) returned a result with an exception "
                              "set") from stop
"""


def test_ctrl_c_inside_a_compiled_kernel_stops_the_run_not_a_bug(failing, capsys):
    """The CI failure of issue 25's first submission: SIGINT inside a numba kernel came out as
    'internal error: SystemError' (exit 70) instead of stopping the run (exit 130)."""
    (failing / "kernelmod.py").write_text(KERNEL_INTERRUPTED)
    args = ["simulate", "-p", "3", "-n", "10", "--strategies", "kernelmod:Kernel,greedy",
            "-o", "run", "-q"]  # fmt: skip
    assert main(args) == 130
    err = capsys.readouterr().err
    assert err == "moaisim: interrupted before the first chunk finished: nothing kept\n", err


def test_signalled_finds_the_interrupt_behind_a_kernels_system_error():
    from moaisim import interrupts

    stop = KeyboardInterrupt()
    wrapped = SystemError("returned a result with an exception set")
    wrapped.__cause__ = stop
    assert interrupts.signalled(wrapped) is stop
    assert interrupts.signalled(stop) is stop
    assert interrupts.signalled(SystemError("a real bug")) is None
    assert interrupts.signalled(ValueError("x")) is None

    @interrupts.passes_signals
    def kernel_call() -> None:
        raise wrapped

    with pytest.raises(KeyboardInterrupt) as caught:
        kernel_call()
    assert caught.value is stop


def test_a_mixture_for_another_player_count_or_naming_itself_is_one_line_at_load(tmp_path, capsys):
    other = tmp_path / "other.toml"
    other.write_text("players = 3\n[mixture]\ngreedy = 0.5\nforester = 0.5\n")
    looped = tmp_path / "looped.toml"
    looped.write_text(f"players = 3\n[mixture]\n\"mixture(file='{looped}')\" = 0.5\n"
                      "greedy = 0.5\n")  # fmt: skip
    for spec, message in [
        (f"mixture(file='{other}')", "the mixture is for 3 players, this game has 4"),
        (f"restrict(strategy=\"mixture(file='{other}')\", forbid=['raid'])",
         "the mixture is for 3 players, this game has 4"),
        (f"mixture(file='{looped}')", "the mixture lists itself"),
    ]:  # fmt: skip
        assert main(["simulate", "-p", "4", "-n", "5", "--strategies", spec, "-q"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and len(err) < 300 and message in err, err
        assert main(["play", "-p", "4", "--strategies", spec]) == 2
        assert message in capsys.readouterr().err


def test_zero_games_is_one_line_not_an_empty_table(tmp_path, capsys):
    assert main(["simulate", "-p", "3", "-n", "0", "-o", str(tmp_path / "run")]) == 2
    assert "games must be a count of at least 1, got 0" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "run").exists()
    with pytest.raises(UserError, match="at least 1"):
        moaisim.simulate(3, 0)
    with pytest.raises(UserError, match="list of game indices is empty"):
        moaisim.simulate(3, [])


# --- a fuzz test through the runner ------------------------------------------------------------

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from moaisim.games.moai.rules import VARIANTS  # noqa: E402

POOL = ["random", "greedy", "heuristic", "moai", "fisher", "forester", "breeder", "raider",
        "bidder", "tuned", "greedy(moai_height=5)"]  # fmt: skip
variant_sets = st.sets(st.sampled_from(sorted(set(VARIANTS) - {"open-bidding-strict"})),
                       max_size=2).map(lambda v: "+".join(sorted(v)) or "base")  # fmt: skip


def plain(df: pd.DataFrame) -> pd.DataFrame:
    """Categorical columns as their values (a cell alone has fewer categories)."""
    return df.apply(lambda c: c.astype(object) if isinstance(c.dtype, pd.CategoricalDtype) else c)


GRIDS = dict(
    players=st.lists(st.integers(2, 5), min_size=1, max_size=2, unique=True),
    variants=st.lists(variant_sets, min_size=1, max_size=2, unique=True),
    option=st.sampled_from(sorted(OPTIONS)),
    lineups=st.lists(
        st.lists(st.sampled_from(POOL), min_size=1, max_size=2).map(",".join),
        min_size=1,
        max_size=2,
        unique=True,
    ),
    rotation=st.sampled_from(["cyclic", "all", "none"]),
    chunk=st.integers(1, 7),
    seed=st.integers(0, 2**64 - 1),
)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GRIDS)
def test_a_few_random_grids_keep_the_per_game_identities(tmp_path_factory, **grid):
    """A few grids on every run (the slow suite plays many more)."""
    check_grid(tmp_path_factory, **grid)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GRIDS)
def test_every_game_of_a_random_grid_keeps_the_per_game_identities(tmp_path_factory, **grid):
    """Many grids (the slow suite)."""
    check_grid(tmp_path_factory, **grid)


def check_grid(tmp_path_factory, players, variants, option, lineups, rotation, chunk, seed):
    """Whatever the grid: one row per seat of each game; score = height + pawns + 2 wood
    (R8.2); ranks from the scores, shared wins; the lineup seated as the rotation says; each
    row names its rules; the run on disk is the run in memory, and a cell played alone is the
    cell played in the grid."""
    games = 6
    for p in players:  # two ways of writing one lineup ('a,a' and 'a') are one cell
        seated = [tuple((lu.split(",") * p)[:p]) for lu in lineups]
        assume(len(set(seated)) == len(seated))
    other = OPTIONS[option][1]
    values = {option: [OPTIONS[option][0], other]}
    grid = dict(players=players, games=games, variants=variants, lineups=lineups, seed=seed,
                rotation=rotation, chunk_size=chunk, **values)  # fmt: skip
    df = moaisim.simulate(**grid)
    study = make_study(players, games, lineups, variants, seed, rotation=rotation,
                       chunk_size=chunk, game="moai",
                       **{option: [OPTIONS[option][0], other]})  # fmt: skip
    assert df["cell"].nunique() == len(study.cells)
    for cell in study.cells:
        rows = df[df["cell"] == cell.index]
        p = cell.rules.players
        assert len(rows) == games * p
        assert (rows.groupby("game")["seat"].apply(sorted) == pd.Series([list(range(p))] * games,
                index=range(games))).all()  # fmt: skip
        assert (rows["score"] == rows["moai_height"] + rows["pawns"] + 2 * rows["wood"]).all()
        best = rows.groupby("game")["score"].transform("max")
        scores = rows["score"].to_numpy()
        by_game = rows["game"].to_numpy()
        higher = np.array([(scores[by_game == g] > x).sum() for g, x in zip(by_game, scores)])  # noqa: B905
        assert (rows["rank"] == 1 + higher).all() and (rows["win"] == (rows["score"] == best)).all()
        assert (rows.groupby("game")["rounds"].nunique() == 1).all() and (rows["rounds"] >= 1).all()
        seatings = cell.seatings()
        for r in rows.itertuples():
            seating = seatings[r.game % len(seatings)]
            assert r.strategy == cell.lineup[seating[r.seat]].label
            assert r.rotation == r.game % len(seatings)
        rules = Rules.make(p, cell.rules.variant, **cell.rules.options())
        assert (rows["rules_digest"] == rules.digest()).all()
        assert (rows[option] == getattr(cell.rules, option)).all()
        assert (rows["variant"] == cell.rules.variant).all()
        alone = moaisim.simulate(p, games, strategies=cell.label, seed=seed, rotation=rotation,
                                 variants=cell.rules.variant, **cell.rules.options())  # fmt: skip
        cols = [c for c in alone.columns if c not in ("cell", "lineup_id", "lineup")]
        same(plain(rows[cols]), plain(alone[cols]))
    out = tmp_path_factory.mktemp("fuzz") / "run"
    moaisim.simulate(**grid, out=out)
    same(load_results(out), df)


# --- what a new user's probes found besides (each once a traceback or a silent wrong) ------


def test_a_report_never_goes_into_a_run_and_a_run_never_into_a_report(tmp_path, capsys):
    run, big = tmp_path / "run", tmp_path / "big"
    moaisim.simulate(3, 20, out=run, **KW)
    moaisim.simulate(3, 40, out=big, **KW)
    journals = {p: (p / "parts.jsonl").read_text() for p in (run, big)}
    for out, message in (
        (run, "must be apart"),  # into its own run directory
        (run / "report", "must be apart"),
        (big, "holds a run, not a report"),  # into another run of the same study
    ):
        assert main(["report", str(run), "--out", str(out)]) == 2
        assert message in one_line(capsys.readouterr().err)
    assert {p: (p / "parts.jsonl").read_text() for p in (run, big)} == journals
    assert main(["report", str(run), "--out", str(tmp_path / "rep")]) == 0
    capsys.readouterr()
    assert not (tmp_path / "rep" / "manifest.json").exists()  # its run's: run-manifest.json
    args = ["simulate", "-p", "3", "-n", "20", "-o", str(tmp_path / "rep"), "-q"]
    for extra in ([], ["--resume"]):
        assert main([*args, *extra]) == 2
        assert "is not a run directory" in one_line(capsys.readouterr().err)
    exp = tmp_path / "e.toml"
    exp.write_text(TINY.format(name="e", games=4, seed=1))
    d = str(tmp_path / "both")
    assert main(["experiment", str(exp), "--runs", d, "--reports", d, "-q"]) == 2
    assert "must be apart" in one_line(capsys.readouterr().err)


def test_a_manifest_edited_after_its_parts_is_refused(tmp_path, capsys):
    out = tmp_path / "run"
    moaisim.simulate(3, 20, out=out, **KW)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["study"]["cells"][0]["lineup"] = "random,random,random"  # a valid-looking lie
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert main(["report", str(out), "--out", str(tmp_path / "rep")]) == 2
    assert "played for another study than manifest.json describes" in one_line(
        capsys.readouterr().err
    )
    manifest["study"]["cells"][0]["players"] = 9
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(UserError, match="cell 0 of the study is not a cell"):
        load_results(out)


def test_resuming_another_study_names_what_differs(tmp_path, capsys):
    out = tmp_path / "run"
    base = ["simulate", "-p", "3", "-n", "20", "--chunk-size", "10", "-o", str(out), "-q"]
    assert main(base) == 0
    for extra, message in (
        (["--rounds"], "rounds False -> True"),
        (["-s", "9"], "seed 0 -> 9"),
        (["--strategies", "random"], "cell 0: lineup 'greedy,greedy,greedy' -> 'random,"),
        (["-v", "short"], "cell 0: setup 'base' -> 'short'"),
    ):
        assert main([*base, "--resume", *extra]) == 2
        err = one_line(capsys.readouterr().err)
        assert "holds a different run (" in err and message in err
    assert main([*base[:4], "10", *base[5:], "--resume"]) == 0  # fewer games: nothing to play
    assert capsys.readouterr().out == ""
    assert main([*base[:4], "10", *base[5:-1], "--resume"]) == 0
    assert "20 games per cell" in capsys.readouterr().out  # the run's games, not the asked


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "-p", "3", "-n", "4", "--scheduler", "tcp://127.0.0.1:1"],
         "a scheduler address is for the dask backend"),
        (["simulate", "-p", "3", "-n", "4", "--resume"], "resume needs the run's directory (--out"),
        (["simulate", "-p", "3", "-n", "4", "-j", "100000"], "jobs must be at most"),
        (["play", "--strategies", "heuristic(weights={'moai': 1e400})"],
         "weight moai must be finite, got inf"),
        (["play", "--components", "/dev/zero"], "not a regular file"),
        (["bench", "-p", "3,3", "--no-memory", "--runner-games", "0"], "3 is given twice"),
        (["bench", "-p", "3", "--memory-games", "100000000000", "--runner-games", "0"],
         "memory games must be from 1 to 2,000,000"),
        (["bench", "--runner-jobs", "100000"], "runner jobs must be from 1 to"),
    ],
)  # fmt: skip
def test_more_mistakes_are_one_line(capsys, args, message):
    assert main(args) == 2
    assert message in one_line(capsys.readouterr().err)


def test_bench_output_paths_are_checked_before_it_runs_and_lineups_keep_their_commas(
    tmp_path, capsys
):
    (tmp_path / "adir").mkdir()
    small = ["bench", "-p", "3", "--games", "20", "--reference-games", "1", "--repeat", "1",
             "--no-memory", "--runner-games", "0", "--runner-speedup-games", "0"]  # fmt: skip
    assert main([*small, "--lineups", "greedy", "--markdown", str(tmp_path / "adir")]) == 2
    captured = capsys.readouterr()
    assert "is a directory" in one_line(captured.err) and captured.out == ""  # nothing ran
    assert main([*small, "--lineups", "greedy(moai_height=8,keep_cards=3)"]) == 0
    assert "| 3 | greedy(moai_height=8,keep_cards=3) | 20 |" in capsys.readouterr().out


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--jobs", "0"], "jobs must be a positive whole number"),
        (["--popsize", "1"], "popsize must be at least 2"),
        (["--popsize", "0"], "popsize must be at least 2"),
        (["--sigma", "0"], "sigma must be a number above 0"),
        (["--sigma", "-1"], "sigma must be a number above 0"),
        (["--sigma", "nan"], "sigma must be a number above 0"),
        (["--sigma", "1e308"], "sigma must be a number above 0 and at most 10"),
        (["--held-out-seed", "-1"], "held_out_seed must be an integer from 0"),
        (["-s", "-1"], "seed must be an integer from 0"),
        (["--names", "moai,moai"], "weight 'moai' is named twice"),
        (["--names", "moai"], "tune at least 2 weights"),
        (["--field", "greedy,random,moai"], "the field names 3 strategies for the 2 other"),
    ],
)
def test_tune_mistakes_are_one_line_before_any_search(tmp_path, capsys, extra, message):
    args = ["tune", "-p", "3", "--games", "2", "--generations", "1", "--held-out-games", "2",
            "-q", "-o", str(tmp_path / "t"), *extra]  # fmt: skip
    assert main(args) == 2
    assert message in one_line(capsys.readouterr().err)
    assert not list((tmp_path / "t").glob("tuned-3p.*")) if (tmp_path / "t").exists() else True


def test_tune_with_the_largest_seed_holds_out_another_seed(tmp_path, capsys):
    args = ["tune", "-p", "3", "--games", "2", "--generations", "1", "--popsize", "2",
            "--held-out-games", "2", "-q", "-o", str(tmp_path), "-s", str(2**64 - 1)]  # fmt: skip
    assert main(args) == 0, capsys.readouterr().err
    assert f"held_out_seed = {2**64 - 2}" in (tmp_path / "tuned-3p.toml").read_text()


LOCAL = """
import moaisim
from moaisim.strategies.moai.greedy import GreedyStrategy


class Boom(GreedyStrategy):
    name = "boom"

    def work(self, view):
        raise RuntimeError("Boom.work was called")


class Quiet(GreedyStrategy):
    \"\"\"Greedy that never bids: another strategy, with no name of its own.\"\"\"

    def bid(self, view):
        return 0 * view.legal.astype(int)
"""


def test_a_field_of_the_users_own_class_is_played_not_replaced(tmp_path, monkeypatch, capsys):
    (tmp_path / "local.py").write_text(LOCAL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["tune", "-p", "3", "--games", "2", "--generations", "1", "--popsize", "2",
            "--held-out-games", "2", "-q", "-o", "t", "--field", "local:Boom"]  # fmt: skip
    assert main(args) == 1  # its work raises: it was played, not a built-in in its place
    assert "strategy 'boom'" in one_line(capsys.readouterr().err)


def test_a_subclass_without_a_name_of_its_own_is_not_counted_as_its_parent(tmp_path, monkeypatch):
    (tmp_path / "local.py").write_text(LOCAL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    df = moaisim.simulate(3, 9, strategies="greedy,local:Quiet")
    assert set(df["strategy"]) == {"greedy", "local:Quiet"}
    assert moaisim.load_strategy("local:Quiet").label == "local:Quiet"
    grid = moaisim.simulate(3, 3, lineups=["greedy", "local:Quiet"])
    assert grid["cell"].nunique() == 2


def test_a_strategy_module_that_exits_while_imported_is_one_line(tmp_path, capsys, monkeypatch):
    (tmp_path / "quitter.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--strategies", "quitter:X"]) == 2
    assert "importing 'quitter' raised SystemExit: 3" in one_line(capsys.readouterr().err)


def test_closed_stdout_and_a_pipe_as_component_file_are_one_line(tmp_path):
    closed = subprocess.run(f"{shutil.which('moaisim') or 'moaisim'} play >&-", shell=True,
                            capture_output=True, text=True, cwd=tmp_path,
                            env={**os.environ, "PATH": f"{Path(sys.executable).parent}:"
                                 + os.environ.get("PATH", "")})  # fmt: skip
    assert closed.returncode == 2 and "standard output is closed" in closed.stderr
    fifo = tmp_path / "c.toml"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "moaisim.cli", "play", "--components",
                           str(fifo)], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 2 and "not a regular file" in one_line(proc.stderr)


def test_experiment_values_the_file_check_now_catches(tmp_path, capsys):
    exp = tmp_path / "e.toml"
    for body, message in (
        ("players = 3\ngames = 0\n", "study.games must be a whole number of at least 1"),
        ('players = [3]\ngames = 4\n[study.lineups]\n"3" = ["greedy"]\n"4" = ["greedy"]\n',
         "study.lineups has lineups for 4 players"),
        ("players = []\ngames = 4\n", "study.players is empty"),
        ("players = 3\ngames = 4\nvariants = []\n", "study.variants must be a string or a"),
        ("players = 3\ngames = 4\nlineups = []\n", "study.lineups must be a non-empty list"),
    ):  # fmt: skip
        exp.write_text('name = "e"\n[study]\n' + body)
        assert main(["experiment", str(exp), "--runs", str(tmp_path / "r"), "-q"]) == 2
        assert message in one_line(capsys.readouterr().err)
    assert not (tmp_path / "r").exists()


def test_a_report_of_a_forced_resume_says_so(tmp_path, monkeypatch):
    out = tmp_path / "run"
    moaisim.simulate(3, 10, out=out, **KW)
    monkeypatch.setitem(GreedyStrategy.params, "keep_cards", 3)
    moaisim.simulate(3, 20, out=out, resume=True, force_resume=True, **KW)
    report = moaisim.analysis.report.make_report(out, tmp_path / "rep")
    text = report.read_text()
    assert "**Caution:** this run was resumed" in text and "keep_cards 4 -> 3" in text


def test_an_interrupt_mid_write_leaves_neither_the_file_nor_a_temporary_one(tmp_path, monkeypatch):
    """Ctrl-C while a manifest is being written (CI caught a `.manifest.json.<pid>.tmp` left
    by an interrupted run): the old file stays as it was, no temporary file remains."""
    from moaisim.files import write_atomic

    target = tmp_path / "manifest.json"
    target.write_text("old")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new", "manifest")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.json"]


# --- issue 25: dask with local strategies, the earliest failing game, forked children ---

import contextlib  # noqa: E402
import socket  # noqa: E402
from collections.abc import Iterator  # noqa: E402

MINE = """
from moaisim.strategies.moai.greedy import GreedyStrategy


class Mine(GreedyStrategy):
    name = "mine"
"""

HELPED = """
import helper
from moaisim.strategies.moai.greedy import GreedyStrategy


class Helped(GreedyStrategy):
    name = "helped"

    def bid(self, view):
        return helper.no_bids(view)
"""

HELPER = """
def no_bids(view):
    return 0 * view.legal.astype(int)
"""

LATE = """
import time

from moaisim.strategies.moai.greedy import GreedyStrategy


class Late(GreedyStrategy):
    \"\"\"Greedy that fails in games 20 and later: slowly in games 20-29, at once after.\"\"\"

    name = "late"

    def bid(self, view):
        first = int(view.games.min())
        if first >= 20:
            if first < 30:
                time.sleep(1.5)
            raise ValueError(f"no bids from game {first} on")
        return super().bid(view)
"""

FORKS = """
import os
from pathlib import Path

from moaisim.strategies.moai.greedy import GreedyStrategy

FORKED = []


class Forks(GreedyStrategy):
    \"\"\"Greedy that forks once, in its first bid of games 10 and later: the child returns
    into the engine and plays on, as the parent does.\"\"\"

    name = "forks"

    def bid(self, view):
        if not FORKED and view.games.min() >= 10:
            FORKED.append(os.getpid())
            child = os.fork()
            if child:
                Path("child.pid").write_text(str(child))
        return super().bid(view)
"""


def cli(args: list[str], cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """The command line in a process of its own (what the user sees on standard error); a
    run that hangs fails the test after `timeout` seconds (the process is killed)."""
    return subprocess.run([sys.executable, "-m", "moaisim.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)  # fmt: skip


@contextlib.contextmanager
def dask_cluster(where: Path) -> Iterator[tuple[str, Path, list[subprocess.Popen]]]:
    """A dask scheduler and a worker (two threads) in processes of their own, started from
    `where` with a clean PYTHONPATH, as on a real cluster: they import moaisim and what
    `where/site` holds (what the cluster has installed), never the user's working directory
    (a LocalCluster started after `monkeypatch.syspath_prepend` sees it). Yields the
    scheduler's address, the site and the processes (the scheduler first)."""
    distributed = pytest.importorskip("distributed")
    site = where / "site"
    site.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    dask = str(Path(sys.executable).parent / "dask")
    file = where / "scheduler.json"
    quiet = dict(cwd=where, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = [subprocess.Popen([dask, "scheduler", "--scheduler-file", str(file), "--host",
                               "127.0.0.1", "--port", "0", "--no-dashboard"], **quiet)]  # fmt: skip
    try:
        deadline = time.time() + 60
        while not file.is_file() and time.time() < deadline:
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        procs.append(subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads",
                                       "2", "--no-dashboard"], **quiet))  # fmt: skip
        with distributed.Client(address, timeout="10s") as client:
            client.wait_for_workers(1, timeout=60)
        yield address, site, procs
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A `dask_cluster` shared by the module's tests: its address and its site."""
    with dask_cluster(tmp_path_factory.mktemp("cluster")) as (address, site, _):
        yield address, site


@pytest.mark.slow
def test_a_local_strategy_plays_on_a_cluster_that_cannot_import_it(cluster, tmp_path,
                                                                    monkeypatch):  # fmt: skip
    address, _ = cluster
    (tmp_path / "mystrat.py").write_text(MINE)
    args = ["simulate", "-p", "3", "-n", "20", "--strategies", "mystrat:Mine,greedy",
            "--chunk-size", "10", "--backend", "dask", "--scheduler", address, "-o", "run",
            "-q"]  # fmt: skip
    proc = cli(args, tmp_path)  # it hung: the scheduler could not unpickle the task graph
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    kept = records(tmp_path / "run")
    assert len(kept) == 2 and all(psutil.pid_exists(r["pid"]) for r in kept)  # by the worker
    monkeypatch.syspath_prepend(str(tmp_path))  # only here, in the test's own process
    same(load_results(tmp_path / "run"), moaisim.simulate(3, 20, strategies="mystrat:Mine,greedy"))


@pytest.mark.slow
def test_a_task_the_cluster_cannot_load_is_one_line_not_a_hang(cluster, tmp_path):
    """A strategy's module travels by value, but not a module it imports: the worker cannot
    load the task, and the run ends at once with one line naming the module."""
    address, _ = cluster
    (tmp_path / "helped.py").write_text(HELPED)
    (tmp_path / "helper.py").write_text(HELPER)
    args = ["simulate", "-p", "3", "-n", "20", "--strategies", "helped:Helped,greedy",
            "--backend", "dask", "--scheduler", address, "-q"]  # fmt: skip
    proc = cli(args, tmp_path)
    assert proc.returncode == 2, proc.stderr
    err = one_line(proc.stderr)
    assert err.startswith("moaisim: error: ") and "No module named 'helper'" in err


@pytest.mark.slow
def test_a_failing_strategy_on_a_cluster_is_one_line_every_time_and_the_earliest(
    cluster, tmp_path, monkeypatch, capsys
):
    """The cluster has the strategy installed (so the run gets as far as the failure): every
    run prints exactly the line `--jobs 1` prints (distributed's logging of the closing
    connections once added a 45-line traceback; a later chunk's failure once won)."""
    address, site = cluster
    (site / "failing.py").write_text(FAILING)
    monkeypatch.chdir(site)
    monkeypatch.syspath_prepend(str(site))
    args = ["simulate", "-p", "3", "-n", "40", "--strategies", "failing:Raises,greedy",
            "--chunk-size", "10", "-q"]  # fmt: skip
    assert main(args) == 1
    serial = one_line(capsys.readouterr().err)
    assert "game 0 (" in serial
    for _ in range(4):
        proc = cli([*args, "--backend", "dask", "--scheduler", address], site)
        assert proc.returncode == 1, proc.stderr
        assert one_line(proc.stderr) == serial


@pytest.mark.slow
def test_a_cluster_that_dies_mid_run_is_one_line(tmp_path):
    """The scheduler killed while chunks play: distributed's client logs the lost connection
    (an ERROR with a 30-line traceback, printed before the line); the run ends with one line,
    and the parts it finished are kept."""
    (tmp_path / "slower.py").write_text(SLOW.replace("0.01", "0.1"))
    args = ["simulate", "-p", "3", "-n", "600", "--strategies", "slower:Slow", "--chunk-size",
            "50", "--backend", "dask", "-o", "run", "-q"]  # fmt: skip
    with dask_cluster(tmp_path / "cluster") as (address, _, procs):
        run = start([*args, "--scheduler", address], tmp_path)
        wait_for_parts(tmp_path / "run", 1)
        procs[0].kill()  # the scheduler
        _, err = run.communicate(timeout=60)
    assert run.returncode == 2, err
    err = one_line(err)
    assert "the dask cluster could not play games" in err and "connection" in err.lower()
    assert 1 <= len(records(tmp_path / "run")) < 12


def test_a_cluster_without_workers_is_one_line_after_a_deadline(failing, monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(moaisim.runner, "DASK_WAIT", 2.0)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as c:
        clock = time.time()
        args = ["simulate", "-p", "3", "-n", "20", "--backend", "dask", "--scheduler",
                c.scheduler_address, "-q"]  # fmt: skip
        assert main(args) == 2
        assert time.time() - clock < 15
    err = one_line(capsys.readouterr().err)
    assert err.startswith("moaisim: error: ") and "no worker" in err


def test_a_scheduler_address_that_is_not_a_scheduler_is_one_line(monkeypatch, capsys):
    """A malformed address (once an internal error, then a 10-second traceback), and a port
    that accepts the connection but never answers as a dask scheduler (another service's:
    the run waited forever), are one line each, in bounded time."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(moaisim.runner, "DASK_CONNECT", 1.0)
    with socket.create_server(("127.0.0.1", 0)) as server:
        silent = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        for address, message in (
            ("foo", "(ValueError: missing port number in address 'foo')"),
            (silent, "(no answer as a dask scheduler after 2 s: is it the scheduler's"),
        ):
            clock = time.time()
            args = ["simulate", "-p", "3", "-n", "4", "--backend", "dask", "--scheduler",
                    address, "-q"]  # fmt: skip
            assert main(args) == 2
            assert time.time() - clock < 15
            err = one_line(capsys.readouterr().err)
            assert err.startswith("moaisim: error: cannot reach the dask scheduler")
            assert message in err


def test_the_earliest_failing_chunk_wins_with_two_jobs(failing, capsys):
    """Chunks 20-29 fail slowly, 30-39 and later at once: with two jobs a later chunk fails
    first, yet the line names a game of chunk 20-29, as with one job."""
    (failing / "late.py").write_text(LATE)
    lines = []
    for jobs in ("1", "2"):
        args = ["simulate", "-p", "3", "-n", "60", "--strategies", "late:Late,greedy",
                "--chunk-size", "10", "-j", jobs, "-o", f"run{jobs}", "-q"]  # fmt: skip
        assert main(args) == 1
        lines.append(one_line(capsys.readouterr().err))
        kept = {(r["start"], r["end"]) for r in records(failing / f"run{jobs}")}
        assert kept == {(0, 10), (10, 20)}  # the chunks before the failure, no other
    game = int(lines[0].split(", game ")[1].split()[0])
    assert 20 <= game < 30 and lines[0].endswith(f"no bids from game {game} on\n")
    assert lines[1] == lines[0]


def test_every_chunk_failing_with_two_jobs_is_the_first_chunks_line_alone(failing, capsys):
    """Every chunk fails: the first chunk's failure is raised as soon as it is known, the
    chunks still playing are stopped, and nothing else is printed (joblib's warning that it
    cancelled them was a line of its own)."""
    lines = []
    for jobs in ("1", "2"):
        args = ["simulate", "-p", "3", "-n", "80", "--strategies", "failing:Raises,greedy",
                "--chunk-size", "10", "-j", jobs, "-q"]  # fmt: skip
        assert main(args) == 1
        lines.append(one_line(capsys.readouterr().err))
    assert lines[1] == lines[0] and "game 0 (" in lines[0]


def test_a_child_forked_by_a_strategy_cannot_write_the_run(tmp_path):
    (tmp_path / "forks.py").write_text(FORKS)
    args = ["simulate", "-p", "3", "-n", "30", "--strategies", "forks:Forks,greedy",
            "--chunk-size", "10", "-o", "run", "-q"]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "moaisim.cli", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    out, err = proc.communicate(timeout=120)
    child = int((tmp_path / "child.pid").read_text())
    deadline = time.time() + 60
    while time.time() < deadline:  # the child, if it went on, has finished
        try:
            if psutil.Process(child).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    assert proc.returncode == 0, err
    kept = records(tmp_path / "run")
    assert [(r["start"], r["end"]) for r in kept] == [(0, 10), (10, 20), (20, 30)]
    assert all(r["pid"] == proc.pid and r["cpu_seconds"] >= 0 for r in kept), kept
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["complete"] and manifest["games_played"] == 30
    assert manifest["cpu_seconds"] >= 0
    df = load_results(tmp_path / "run")
    greedy = moaisim.simulate(3, 30, strategies="greedy")  # Forks plays greedy's games
    assert (df["score"].to_numpy() == greedy["score"].to_numpy()).all()
    assert not list((tmp_path / "run").rglob("*.tmp"))
