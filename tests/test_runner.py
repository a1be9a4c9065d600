"""The runner (docs/design.md, "Runs and scale"): study grids, seat rotation, common random
numbers, parallel chunks on loky and dask, Parquet runs that resume and grow, bad input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim.cli import main
from moaisim.errors import UserError
from moaisim.runner import Progress, load_results, make_study, run_to_disk

KW = dict(strategies="greedy,random", seed=11)


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def parts_of(run: Path) -> list[dict]:
    """The part records of a run directory, read as plain JSON lines (parts.jsonl)."""
    path = Path(run) / "parts.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# --- the grid, rotation and common random numbers -----------------------------------------


def test_a_grid_has_a_cell_per_combination_each_row_says_its_cell():
    df = moaisim.simulate(
        [3, 4], 12, variants=["base", "short"], spent_wood=["supply", "out"],
        lineups=["greedy", "greedy,random"], seed=2,
    )  # fmt: skip
    cells = df.groupby("cell", observed=True)
    assert cells.ngroups == 2 * 2 * 2 * 2
    first = cells.first()
    assert set(zip(first.players, first.variant, first.spent_wood, first.lineup, strict=True)) == {
        (p, v, w, lineup)
        for p in (3, 4)
        for v in ("base", "short")
        for w in ("supply", "out")
        for lineup in (",".join(["greedy"] * p), ",".join((["greedy", "random"] * 2)[:p]))
    }
    assert (cells["game"].nunique() == 12).all()
    assert {"cell", "lineup_id", "lineup", "rotation", "rules_digest"} <= set(df.columns)


def test_rotation_seats_every_strategy_in_every_seat_equally_often():
    df = moaisim.simulate(4, 40, strategies="moaisim.strategies.moai.random:RandomStrategy,greedy",
                          seed=3)  # fmt: skip
    counts = pd.crosstab(df["seat"], df["strategy"])
    assert (counts.to_numpy() == 20).all()  # 40 games x 4 seats / 2 strategies / 4 seats
    # game i is seated in rotation i mod 4
    assert (df["rotation"] == df["game"] % 4).all()
    every = moaisim.simulate(3, 30, strategies="greedy,random,random", rotation="all", seed=3)
    assert every["rotation"].nunique() == 3  # three distinct seatings of greedy,random,random
    assert (pd.crosstab(every["seat"], every["strategy"])["greedy"] == 10).all()
    fixed = moaisim.simulate(3, 9, strategies="greedy,random,random", rotation="none", seed=3)
    assert fixed.loc[fixed.seat == 0, "strategy"].eq("greedy").all()


def test_game_i_is_the_same_deal_in_every_cell():
    """Common random numbers: cells that differ only where play cannot see it play the same
    games; greedy never looks at bids, so open bidding reproduces base game by game."""
    df = moaisim.simulate(4, 30, variants=["base", "open-bidding"], strategies="greedy", seed=9)
    base = df[df.variant == "base"].reset_index(drop=True)
    v2 = df[df.variant == "open-bidding"].reset_index(drop=True)
    for col in ("game", "seat", "score", "births", "moai_height", "rounds"):
        assert base[col].tolist() == v2[col].tolist()


# --- identical results whatever the jobs, backend and chunks ----------------------------


def test_results_do_not_depend_on_jobs_or_chunk_size():
    one = moaisim.simulate([3, 4], 40, variants=["base", "short"], **KW)
    for jobs, chunk in ((2, 9), (2, 40), (1, 13)):
        same(moaisim.simulate([3, 4], 40, variants=["base", "short"], n_jobs=jobs,
                              chunk_size=chunk, **KW), one)  # fmt: skip


@pytest.mark.slow
def test_the_dask_backend_on_a_local_cluster_gives_the_same_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        got = moaisim.simulate(3, 80, backend="dask", scheduler=cluster.scheduler_address,
                               n_jobs=2, chunk_size=15, **KW)  # fmt: skip
        moaisim.simulate(3, 80, backend="dask", scheduler=cluster.scheduler_address,
                         chunk_size=15, out=tmp_path / "run", **KW)  # fmt: skip
    want = moaisim.simulate(3, 80, **KW)
    same(got, want)
    same(load_results(tmp_path / "run"), want)


@pytest.mark.slow
def test_a_bad_dask_scheduler_is_one_clear_error():
    with pytest.raises(UserError, match="cannot reach the dask scheduler"):
        moaisim.simulate(3, 4, backend="dask", scheduler="tcp://127.0.0.1:9", **KW)
    with pytest.raises(UserError, match="needs a scheduler address"):
        moaisim.simulate(3, 4, backend="dask", n_jobs=2, **KW)


# --- runs on disk: parts, manifest, resume, growth -----------------------------------------


def test_a_run_on_disk_holds_parts_and_a_manifest_and_loads_back(tmp_path):
    out = tmp_path / "run"
    summary = moaisim.simulate([2, 3], 50, chunk_size=20, out=out, **KW)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 11 and manifest["games"] == 50 and manifest["complete"]
    chunks = parts_of(out)
    assert len(chunks) == 2 * 3  # per cell: 0-20, 20-40, 40-50
    assert {c["end"] - c["start"] for c in chunks} == {20, 10}
    assert [c["rows"] for c in chunks] == [(c["end"] - c["start"]) * (2 + (c["cell"] == 1))
                                           for c in chunks]  # fmt: skip
    assert manifest["versions"]["numpy"] == np.__version__
    assert [c["rules_digest"] for c in manifest["study"]["cells"]] == [
        moaisim.Rules.make(p).digest() for p in (2, 3)
    ]
    assert manifest["games_per_second"] > 0
    assert sorted(p.name for p in (out / "parts").iterdir()) == sorted(
        Path(c["file"]).name for c in chunks
    )
    assert not list(out.rglob("*.tmp"))
    same(load_results(out), moaisim.simulate([2, 3], 50, **KW))
    assert set(summary.columns) >= {"cell", "strategy", "games", "mean_score", "win_share"}
    # read part by part, the summary is the whole table's: each cell's games, each
    # strategy's mean score over its seats, and win shares that add up to one per game
    rows = load_results(out)
    assert (summary["games"] == 50).all()
    for _, r in summary.iterrows():
        mine = rows[(rows.cell == r["cell"]) & (rows.strategy == r["strategy"])]
        assert r["mean_score"] == pytest.approx(mine["score"].mean())
    seats = rows.groupby(["cell", "strategy"], observed=True).size()
    shares = summary.set_index(["cell", "strategy"])["win_share"] * seats
    assert shares.groupby(level="cell").sum().to_numpy() == pytest.approx([50.0] * 2)
    pd.testing.assert_frame_equal(summary, moaisim.runner.summary(rows))


def test_an_interrupted_run_resumes_to_exactly_the_uninterrupted_one(tmp_path):
    study = make_study(
        [3, 4], 40, ["greedy,random"], seed=4, chunk_size=10, rounds=True, game="moai"
    )

    class Stop(Exception):
        pass

    def stop_after_three(progress: Progress) -> None:
        if progress.done >= 30:
            raise Stop

    with pytest.raises(Stop):
        run_to_disk(study, tmp_path / "a", progress=Progress(80, on_update=stop_after_three))
    stopped = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert len(parts_of(tmp_path / "a")) == 3 and not stopped.get("complete")
    with pytest.raises(UserError, match="already holds a run: add --resume"):
        run_to_disk(study, tmp_path / "a")
    played = []
    resumed = Progress(80, on_update=lambda p: played.append(p.done))
    run_to_disk(study, tmp_path / "a", resume=True, progress=resumed)
    assert played[-1] == 80 - 30 and resumed.total == 50  # only what was missing
    run_to_disk(study, tmp_path / "b")
    for table in ("results", "rounds"):
        same(load_results(tmp_path / "a", table), load_results(tmp_path / "b", table))


def test_one_job_writes_each_chunk_while_the_next_plays_and_keeps_them_on_failure(
    tmp_path, monkeypatch
):
    """--jobs 1 on the compiled path (`runner._serial_stored`): a chunk's part is made in a
    thread while the next chunk plays. The run is the one made chunk by chunk, part for part;
    and when a chunk fails, the chunks played before it are written first, then the error
    is raised; resuming completes the same run."""
    study = make_study(3, 50, ["greedy,tuned"], seed=4, chunk_size=10, game="moai")
    assert moaisim.runner.plays_compiled(study.cells)
    run_to_disk(study, tmp_path / "a")
    assert [(r["start"], r["end"]) for r in parts_of(tmp_path / "a")] == [
        (0, 10), (10, 20), (20, 30), (30, 40), (40, 50)
    ]  # fmt: skip
    same(load_results(tmp_path / "a"), moaisim.simulate(3, 50, strategies="greedy,tuned",
                                                        seed=4))  # fmt: skip

    class Broken(Exception):
        pass

    play = moaisim.runner.play_chunk

    def breaks_at_30(study, cell, games):  # noqa: ANN001, ANN202
        if games[0] >= 30:
            raise Broken
        return play(study, cell, games)

    monkeypatch.setattr(moaisim.runner, "play_chunk", breaks_at_30)
    with pytest.raises(Broken):
        run_to_disk(study, tmp_path / "b")
    assert [(r["start"], r["end"]) for r in parts_of(tmp_path / "b")] == [
        (0, 10), (10, 20), (20, 30)
    ]  # fmt: skip
    monkeypatch.setattr(moaisim.runner, "play_chunk", play)
    run_to_disk(study, tmp_path / "b", resume=True)
    same(load_results(tmp_path / "b"), load_results(tmp_path / "a"))


def test_a_chunk_missing_between_finished_ones_is_played_on_resume(tmp_path):
    """Parallel chunks finish in any order, so a stopped run can hold chunks 0 and 2 of a
    cell without chunk 1: resuming plays chunk 1 (and only what is missing)."""
    study = make_study(3, 45, ["greedy,random"], seed=4, chunk_size=10, game="moai")
    done = [(0, 0, 10), (0, 20, 30), (0, 40, 45)]
    assert study.chunks(done) == [(0, 10, 20), (0, 30, 40)]
    assert study.chunks([(0, 0, 42)]) == [(0, 42, 45)]  # a smaller run's last chunk
    run_to_disk(study, tmp_path / "a")
    middle = next(c for c in parts_of(tmp_path / "a") if c["start"] == 10)
    (tmp_path / "a" / middle["file"]).unlink()  # as if it had not finished
    played = []
    with pytest.warns(moaisim.runner.RunWarning, match="is missing: playing games 10-19"):
        run_to_disk(study, tmp_path / "a", resume=True,
                    progress=Progress(45, on_update=lambda p: played.append(p.done)))  # fmt: skip
    assert played == [10]
    assert json.loads((tmp_path / "a" / "manifest.json").read_text())["complete"]
    same(load_results(tmp_path / "a"), moaisim.simulate(3, 45, strategies="greedy,random", seed=4))


def test_asking_a_run_for_more_games_plays_only_the_new_ones(tmp_path):
    out = tmp_path / "run"
    moaisim.simulate(3, 25, chunk_size=10, out=out, **KW)
    first = parts_of(out)
    moaisim.simulate(3, 42, chunk_size=10, out=out, resume=True, **KW)
    chunks = parts_of(out)
    assert chunks[: len(first)] == first
    assert [(c["start"], c["end"]) for c in chunks[len(first) :]] == [(25, 30), (30, 40), (40, 42)]
    same(load_results(out), moaisim.simulate(3, 42, **KW))


def test_the_default_chunk_is_larger_when_every_seat_plays_compiled():
    """Built-ins with a compiled form get larger chunks, up to 20 000 games, while a cell
    still makes 8 of them; a user's strategy, the reference engine or an explicit chunk
    size keep theirs."""
    assert make_study(3, 1_000_000, ["greedy,tuned", "L2"], game="moai").chunk_size == 20_000
    assert (
        make_study(3, 100_000, ["greedy,tuned"], game="moai").chunk_size == 12_000
    )  # 8 chunks and a bit
    assert make_study(3, 10, ["greedy,tuned"], game="moai").chunk_size == 5_000
    random = "greedy,moaisim.strategies.moai.random:RandomStrategy"
    assert make_study(3, 400_000, [random], game="moai").chunk_size == 20_000
    assert (
        make_study(3, 10, ["greedy", "plugins.cautious:NeverBids"], game="moai").chunk_size == 5_000
    )
    assert make_study(3, 10, ["greedy"], engine="reference", game="moai").chunk_size == 50
    assert make_study(3, 10, ["greedy"], chunk_size=7, game="moai").chunk_size == 7
    assert not make_study(3, 10, ["greedy"], chunk_size=7, game="moai").chunk_default


def test_a_run_resumed_with_the_default_chunk_keeps_the_chunks_it_started_with(tmp_path):
    """A run made with other chunks (an older default) goes on with them when resumed
    without --chunk-size; the games are the same."""
    out = tmp_path / "run"
    moaisim.simulate(3, 25, chunk_size=10, out=out, **KW)
    moaisim.simulate(3, 42, out=out, resume=True, **KW)  # the default would be 20 000
    chunks = [(c["start"], c["end"]) for c in parts_of(out)]
    assert chunks == [(0, 10), (10, 20), (20, 25), (25, 30), (30, 40), (40, 42)]
    same(load_results(out), moaisim.simulate(3, 42, **KW))
    with pytest.raises(UserError, match="chunk"):  # a chunk size asked for is kept to
        moaisim.simulate(3, 50, chunk_size=20, out=out, resume=True, **KW)


SLOW = """
import time
import moaisim


class Slow(moaisim.Strategy):
    \"\"\"Random play that takes its time over bids (so a run is still going when Ctrl-C
    comes): about 0.5 s per chunk of games.\"\"\"

    def bid(self, view):
        time.sleep(0.02)
        return super().bid(view)
"""


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_keeps_whole_chunks_and_prints_how_to_resume(tmp_path, monkeypatch):
    (tmp_path / "slowmod.py").write_text(SLOW)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "run"
    args = ["simulate", "-p", "3", "-n", "300", "--strategies", "slowmod:Slow", "-s", "5",
            "--chunk-size", "50", "-o", str(out), "-q"]  # fmt: skip
    # A shell that starts jobs in the background (no job control) makes them ignore SIGINT,
    # and Python then never turns it into KeyboardInterrupt: the child gets the default back.
    proc = subprocess.Popen(
        [sys.executable, "-m", "moaisim.cli", *args], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    deadline = time.time() + 120
    while time.time() < deadline:
        if len(parts_of(out)) >= 2:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err  # stopped by the interrupt, not finished
    assert "interrupted;" in err and "Resume with: moaisim simulate" in err and "--resume" in err
    kept = parts_of(out)
    assert 2 <= len(kept) < 6 and not list(out.rglob("*.tmp"))
    assert len(list((out / "parts").glob("*.parquet"))) == len(kept)  # whole chunks only
    assert main([*args, "--resume"]) == 0
    same(load_results(out), moaisim.simulate(3, 300, strategies="slowmod:Slow", seed=5))


def test_the_manifest_command_reproduces_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "-p", "2", "-n", "30", "--strategies", "greedy,random", "-v", "short",
            "--spent-wood", "out", "-s", "8", "-o", "first", "-q"]  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["moaisim", *args])
    assert main(args) == 0
    command = json.loads(Path("first/manifest.json").read_text())["command"]
    assert command.startswith("moaisim simulate") and "-o first" in command
    again = command.replace("-o first", "-o second").split()[1:]
    assert main(again) == 0
    same(load_results("first"), load_results("second"))


# --- bad input: one line, exit code 2, nothing written -------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--strategies", "nobody"], "unknown strategy 'nobody'"),
        (["-v", "short+short"], "names short twice"),
        (["--turn-order", "sideways"], "turn_order = 'sideways'"),
        (["-p", "6"], "players must be from 2 to 5"),
        (["--components", "/no/such.toml"], "no such component file"),
        (["--rotation", "spiral"], "rotation must be one of"),
        (["--jobs", "0"], "jobs must be a positive whole number"),
        (["--backend", "ray"], "backend must be one of"),
        (["--strategies", "greedy(moai_height=x)"], "must be an integer"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, extra, message):
    out = tmp_path / "run"
    code = main(["simulate", "-p", "3", "-n", "10", "-o", str(out), *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err
    assert not out.exists()


def test_an_out_directory_with_another_run_is_refused_and_left_alone(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["simulate", "-p", "3", "-n", "10", "-s", "1", "-o", str(out), "-q"]) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for other in (["-s", "2"], ["-s", "1", "-p", "4"], ["-s", "1", "--strategies", "random"]):
        code = main(["simulate", "-p", "3", "-n", "10", "-o", str(out), "-q", "--resume",
                     *other])  # fmt: skip
        assert code == 2
        assert "holds a different run" in capsys.readouterr().err
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "file.txt").write_text("mine")
    assert main(["simulate", "-p", "3", "-n", "10", "-o", str(tmp_path / "junk"), "-q"]) == 2
    assert "is not a run directory" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_the_command_line_summary_and_where_the_data_is(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["simulate", "-p", "3", "-n", "20", "--strategies", "greedy,random",
                 "-o", str(out)]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "win_share" in text and "greedy" in text and "random" in text
    assert f"rows in {out}" in text and "load_results" in text


def test_per_round_table_in_memory_matches_the_final_results():
    results, rounds = moaisim.simulate(4, 20, rounds=True, **KW)
    last = rounds[rounds["round"] == rounds.groupby("game")["round"].transform("max")]
    last = last.sort_values(["game", "seat"]).reset_index(drop=True)
    assert last["score"].tolist() == results["score"].tolist()
    assert last["round"].tolist() == results["rounds"].tolist()
    births = rounds.groupby(["game", "seat"])["births"].sum().tolist()
    assert births == results["births"].tolist()
    assert (rounds.groupby(["game", "round"])["birdman"].sum() == 1).all()


def test_load_results_of_a_run_without_rounds_says_so(tmp_path):
    moaisim.simulate(2, 4, out=tmp_path / "r", **KW)
    with pytest.raises(UserError, match="without --rounds"):
        load_results(tmp_path / "r", "rounds")
    with pytest.raises(UserError, match="not a run directory"):
        load_results(tmp_path / "nothing")


def test_progress_counts_every_game():
    seen = []
    study = make_study([2, 3], 30, ["greedy"], chunk_size=7, game="moai")
    from moaisim.runner import run_in_memory

    run_in_memory(study, progress=Progress(60, on_update=lambda p: seen.append(p.done)))
    assert seen[-1] == 60 and seen == sorted(seen)


def test_workers_inherit_no_global_random_state():
    """Seeded games do not depend on the global random generators of any process."""
    np.random.seed(1)
    a = moaisim.simulate(3, 20, n_jobs=2, chunk_size=5, **KW)
    np.random.seed(2)
    import random

    random.seed(3)
    b = moaisim.simulate(3, 20, n_jobs=2, chunk_size=5, **KW)
    same(a, b)


def test_a_users_strategy_module_reaches_workers_started_before_it_was_on_the_path(
    tmp_path, monkeypatch
):
    """loky keeps its workers between runs: a worker started by an earlier run cannot import
    a module put on the path later, so a user's own strategy travels by value."""
    moaisim.simulate(3, 6, strategies="greedy", chunk_size=3, n_jobs=2)  # workers start
    here = tmp_path / "later"
    here.mkdir()
    (here / "latecomer.py").write_text(
        "import moaisim.strategies.moai.greedy as g\n\n"
        "class Late(g.GreedyStrategy):\n    name = 'late'\n"
    )
    monkeypatch.syspath_prepend(str(here))
    df = moaisim.simulate(3, 6, strategies="latecomer:Late,greedy", chunk_size=3, n_jobs=2)
    assert "late" in set(df["strategy"]) and len(df) == 18


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="Linux's VmHWM")
def test_a_process_started_by_a_large_one_records_its_own_peak_memory():
    """A part records its process's peak RSS (`peak_rss_mib`). Linux carries `ru_maxrss`
    across exec, so a process started by a large one (a benchmark that has played, a run's
    parent) would report the parent's peak: the figure is the process's own (VmHWM)."""
    ballast = np.ones(2**30 // 8)  # 1 GiB in this process
    code = (
        "import resource; from moaisim.runner import peak_rss_mib; "
        "print(peak_rss_mib(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()  # fmt: skip
    own, carried = float(out[0]), float(out[1])
    assert carried >= 1024  # what ru_maxrss says: this process's gigabyte
    assert 0 < own < 700  # the child's own: the interpreter, numpy, pandas, numba
    del ballast
