"""The strength ladder and the win-share table of the built-in strategies.

    .venv/bin/python benchmarks/ladder.py [--players 3,4] [--games 2500] [--table-games 500]
                                          [--seed 20261129] [--strategies a,b,...]

Ladder: each strategy in one seat against greedy opponents, seats rotated (it plays every game
once in each seat: players x games games), on root seed `--seed`, which no tuning run used.
Table: each row strategy against a field of the column strategy (the other seats), seats
rotated, `--table-games` games per seat. A win shared by k players counts 1/k; every share
comes with its Wilson 95 % interval and its n (games). Markdown goes to stdout, headed by the
command line; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from moaisim.studies.tune import strength  # noqa: E402

STRATEGIES = ("random", "greedy", "heuristic", "moai", "fisher", "forester", "breeder",
              "raider", "bidder", "tuned")  # fmt: skip


def ladder(players: int, names: list[str], games: int, seed: int) -> list[str]:
    rows = [
        f"Ladder, {players} players: win share against {players - 1} greedy opponents, seats "
        f"rotated, {players} x {games} games per strategy (seed {seed})",
        "",
        "| strategy | win share | 95 % interval | n | mean rank |",
        "| --- | ---: | --- | ---: | ---: |",
    ]
    for name in names:
        t = time.perf_counter()
        s = strength(players, name, "greedy", games, seed=seed, game="moai")
        print(f"  ladder {players}p {name}: {s} ({time.perf_counter() - t:.0f}s)", file=sys.stderr)
        rows.append(
            f"| {name} | {s.share:.3f} | [{s.low:.3f}, {s.high:.3f}] | {s.games} | {s.rank:.2f} |"
        )
    return rows


def table(players: int, names: list[str], games: int, seed: int) -> list[str]:
    rows = [
        f"Win share of each row strategy in one seat against {players - 1} copies of the column "
        f"strategy, seats rotated, {players} x {games} games per cell (seed {seed}); "
        f"95 % interval below each share. On the diagonal every seat plays the same strategy: "
        f"1/{players} exactly.",
        "",
        "| row vs field | " + " | ".join(names) + " |",
        "| --- |" + " ---: |" * len(names),
    ]
    for row in names:
        cells = []
        for col in names:
            if row == col:
                cells.append(f"{1 / players:.3f}")
                continue
            s = strength(players, row, col, games, seed=seed, game="moai")
            cells.append(f"{s.share:.3f}<br>[{s.low:.2f}, {s.high:.2f}]")
        print(f"  table {players}p {row}: done", file=sys.stderr)
        rows.append(f"| **{row}** | " + " | ".join(cells) + " |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="3,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=2500, help="ladder games per seat")
    parser.add_argument("--table-games", type=int, default=500, help="table games per seat")
    parser.add_argument("--seed", type=int, default=20261129, help="root seed (unseen)")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--no-table", action="store_true", help="the ladder only")
    args = parser.parse_args(argv)
    names = [s for s in args.strategies.split(",") if s]
    command = "python benchmarks/ladder.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    out = [f"Command: `{command.strip()}`", ""]
    for players in (int(p) for p in args.players.split(",")):
        out += ladder(players, names, args.games, args.seed) + [""]
        if not args.no_table:
            out += table(players, names, args.table_games, args.seed) + [""]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
