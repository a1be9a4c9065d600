"""Memory and time of `moaisim report` on a run of many millions of games.

Playing 10 million games takes this machine an hour, so the large run is built from a small
real one: a seed run of `--seed-games` games per cell (two cells: 4 players, base and short,
greedy self-play, with the per-round table) is played once, and its Parquet parts are written
again and again, their game numbers shifted to the chunk ranges of a `--games`-game run, into
a second run directory (each a real part: the run's checks on load read its seed and games).
The report reads every block of it exactly as it would read a real run of that size (same
files, same sizes, same number of blocks); only the statistics are not new information (the
same games repeat), so the figures this measures are memory and time, not findings. The
large run takes disk space like a real one (about 1 GB per million games with the per-round
table).

    .venv/bin/python benchmarks/report_memory.py --games 1000000
    .venv/bin/python benchmarks/report_memory.py                 # 10 000 000 games

Prints the report's wall time and the peak resident memory of the `moaisim report` process.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from moaisim.rundir import RunDir


def seed_run(path: Path, games: int) -> dict:
    cmd = [sys.executable, "-m", "moaisim.cli", "simulate", "-p", "4", "-v", "base", "-v",
           "short", "--strategies", "greedy", "-n", str(games), "-s", "1", "--rounds",
           "--chunk-size", str(games), "-j", "2", "-q", "-o", str(path)]  # fmt: skip
    subprocess.run(cmd, check=True)
    return json.loads((path / "manifest.json").read_text())


def tiled_run(seed: Path, manifest: dict, out: Path, games: int) -> None:
    """A run directory of `games` games per cell whose parts are the seed run's parts with
    their game numbers shifted to each chunk range (written and checksummed as a run writes
    its parts)."""
    block = manifest["games"]
    seed_run, run = RunDir(seed), RunDir(out)
    parts = seed_run.parts(manifest)
    tables = {(c["cell"], key): pd.read_parquet(seed / c[key])
              for c in parts for key in ("file", "rounds_file")}  # fmt: skip
    count = 0
    for k in range(games // block):
        for c in parts:
            entry = dict(c, start=k * block, end=(k + 1) * block)
            for key, kind in (("file", "parts"), ("rounds_file", "rounds")):
                df = tables[(c["cell"], key)]
                shifted = df.assign(game=df["game"] + k * block)
                saved = run.save(kind, shifted, c["cell"], k * block, (k + 1) * block)
                prefix = "" if key == "file" else "rounds_"
                entry.update({prefix + name: value for name, value in saved.items()})
            run.record(entry)
            count += 1
    tiled = dict(manifest, games=games, games_played=count * block)
    tiled["study"] = dict(manifest["study"], chunk_size=block)
    run.write(tiled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000_000, help="games in the run")
    parser.add_argument("--seed-games", type=int, default=5_000, help="games per seed cell")
    args = parser.parse_args()
    cells = 2
    per_cell = args.games // cells // args.seed_games * args.seed_games
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        manifest = seed_run(tmp_path / "seed", args.seed_games)
        tiled_run(tmp_path / "seed", manifest, tmp_path / "big", per_cell)
        # the report in a process of its own, which prints its own peak memory
        code = (
            "import resource, sys; from moaisim.cli import main; "
            f"code = main(['report', {str(tmp_path / 'big')!r}, '--out', "
            f"{str(tmp_path / 'report')!r}]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(code)"
        )
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                              text=True)  # fmt: skip
        wall = time.perf_counter() - start
        peak = int(done.stdout.split()[-1]) / 2**10
        text = (tmp_path / "report" / "report.md").read_text()
    total = per_cell * cells
    assert f"{total:,} games in {cells} cells" in text, "the report did not read every game"
    print(f"moaisim report on a {total:,}-game run ({cells} cells of {per_cell:,} games, "
          f"with the per-round table): {wall:,.0f} s, {total / wall:,.0f} games/s, "
          f"peak memory of the report process {peak:,.0f} MiB")  # fmt: skip


if __name__ == "__main__":
    main()
