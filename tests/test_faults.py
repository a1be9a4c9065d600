"""Runs a user can trust with their data: each fault a user met, reproduced (docs/design.md,
"Runs you can trust"). Changed code, corrupt or foreign parts, failures in parallel workers,
two runs on one directory, huge plans, SIGTERM, strategies that try to end the run, untrusted
files and report directories."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest

import moaisim
from moaisim.cli import main
from moaisim.errors import StrategyError, UserError
from moaisim.runner import RunWarning, load_results, make_study
from moaisim.strategies.greedy import GreedyStrategy

ROOT = Path(__file__).parents[1]
KW = dict(strategies="greedy,random", seed=5, chunk_size=10)


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def records(run: Path) -> list[dict]:
    """parts.jsonl read as plain JSON lines."""
    return [json.loads(x) for x in (run / "parts.jsonl").read_text().splitlines() if x.strip()]


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
        "from moaisim.strategies.greedy import GreedyStrategy\n"
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
    greedy = checkout / "moaisim" / "strategies" / "greedy.py"
    text = greedy.read_text()
    assert '"moai_height": 7,' in text
    greedy.write_text(text.replace('"moai_height": 7,', '"moai_height": 8,'))
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    cmd = [sys.executable, "-c", "import sys, moaisim.cli; print(moaisim.cli.__file__, "
           "file=sys.stderr); sys.exit(moaisim.cli.main(sys.argv[1:]))", *args, "-n", "40",
           "--resume", "-q"]  # fmt: skip
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
    moaisim.simulate(3, 20, out=out, resume=True, **KW)  # the bad record is ignored: replayed
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
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
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
    study = make_study([3, 4], 10**11, ["greedy"], chunk_size=1000)
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
    args = ["tune", "-p", "3", "--field", "moaisim.strategies.greedy:GreedyStrategy",
            "--games", "2", "--generations", "1", "--popsize", "2", "--held-out-games", "2",
            "--out", str(tmp_path), "-q"]  # fmt: skip
    assert main(args) == 0, capsys.readouterr().err
    assert 'field = ["greedy"]' in (tmp_path / "tuned-3p.toml").read_text()


# --- 9. untrusted files ----------------------------------------------------------------------

EVIL = """
from pathlib import Path
Path("imported.txt").write_text("the experiment ran code from the current directory")
from moaisim.strategies.greedy import GreedyStrategy as Evil
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

    real = rundir.RunDir.save
    calls = []

    def full(self, kind, df, cell, start, end):
        calls.append(1)
        if len(calls) > 2:
            raise OSError(28, "No space left on device", str(self.path / "parts" / "x.tmp"))
        return real(self, kind, df, cell, start, end)

    monkeypatch.setattr(rundir.RunDir, "save", full)
    out = tmp_path / "run"
    args = ["simulate", "-p", "3", "-n", "40", "--chunk-size", "10", "-o", str(out), "-q"]
    assert main(args) == 2
    assert "No space left on device" in one_line(capsys.readouterr().err)
    assert len(records(out)) == 2
    monkeypatch.setattr(rundir.RunDir, "save", real)
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


# --- a fuzz test through the runner ------------------------------------------------------------

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from moaisim.rules import OPTIONS, VARIANTS, Rules  # noqa: E402

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
                       chunk_size=chunk, **{option: [OPTIONS[option][0], other]})  # fmt: skip
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
from moaisim.strategies.greedy import GreedyStrategy


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
