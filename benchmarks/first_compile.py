"""The first compile: CPU seconds a new version of moaisim spends compiling its kernels before
it plays, at one commit or several measured in one session (ratios to the first).

Each commit plays in a fresh Python process with an empty numba cache folder of its own
(NUMBA_CACHE_DIR), in a worktree of its own (as `compare_commits.py` makes them): first the
compiled path (one batch of `--players` games of the lineup `--lineup`, every seat a
built-in), then the view path (the same games asked through views), then the same two again
in a second process that loads what the first compiled (the warm start). The CPU seconds of
each step are the process's own (`time.process_time`), import included in the first step;
every step also prints a digest of the games' scores, so commits that play other games are
caught, not compared.

    .venv/bin/python benchmarks/first_compile.py                    # this checkout
    .venv/bin/python benchmarks/first_compile.py 67117a5 .          # before/after, one run

The figures are in benchmarks/README.md, "The first compile".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_commits import worktree  # noqa: E402

#: The timed child: the compiled path, then the view path, each timed on its own.
CHILD = """
import hashlib, json, sys, time
t0 = time.process_time()
import numpy as np
import moaisim
from moaisim.games.moai.engine.forward import Games
from moaisim.registry import parse_lineup
from moaisim.games.moai.rules import Rules
a = json.loads(sys.argv[1])
assert moaisim.__file__.startswith(a["tree"]), moaisim.__file__
rules = Rules.make(a["players"])
specs = parse_lineup(a["lineup"], a["players"])
games = np.arange(a["games"])
out = {}
for path, compiled in (("compiled", True), ("view", False)):
    g = Games.new(rules, 0, games).play([s() for s in specs], compiled=compiled)
    out[path] = time.process_time() - t0
    out[path + "_digest"] = hashlib.sha256(g.scores().tobytes()).hexdigest()[:16]
    t0 = time.process_time()
print(json.dumps(out))
"""


def run(tree: Path | None, cache: Path, args: argparse.Namespace) -> dict[str, float | str]:
    """One child process in `tree` (None: this checkout) with numba's cache in `cache`."""
    config = {"tree": str(tree or ROOT), "players": args.players, "lineup": args.lineup,
              "games": args.games}  # fmt: skip
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config)], env=env,
                         check=True, capture_output=True, text=True,
                         cwd=tree or ROOT)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("commits", nargs="*", help="commits to compare, '.' for this checkout "
                        "as it is (none: this checkout); the first is the base of the "
                        "ratios")  # fmt: skip
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="tuned,greedy")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    rows: dict[str, dict[str, dict[str, float | str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {c: None if c == "." else worktree(c, Path(tmp)) for c in args.commits}
        trees = trees or {".": None}
        try:
            for name, tree in trees.items():
                cache = Path(tmp) / f"cache-{name.replace('/', '_').replace(' ', '_')}"
                rows[name] = {"cold": run(tree, cache, args), "warm": run(tree, cache, args)}
        finally:
            for tree in trees.values():
                if tree is not None:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                    str(tree)], check=False)  # fmt: skip
    digests = {(r["cold"]["compiled_digest"], r["cold"]["view_digest"]) for r in rows.values()}
    if len(digests) != 1:
        raise SystemExit(f"the commits play different games: {digests}")
    print(f"{args.players}-player {args.lineup}, {args.games} games, CPU seconds in a fresh "
          "process (import included in the compiled path's):")  # fmt: skip
    base = next(iter(rows.values()))
    for name, r in rows.items():
        cold = float(r["cold"]["compiled"]) + float(r["cold"]["view"])
        ratio = cold / (float(base["cold"]["compiled"]) + float(base["cold"]["view"]))
        print(f"  {name}: cold compiled path {float(r['cold']['compiled']):.1f} s, view path "
              f"{float(r['cold']['view']):.1f} s, both {cold:.1f} s ({ratio:.2f}x the first); "
              f"warm {float(r['warm']['compiled']):.1f} s and "
              f"{float(r['warm']['view']):.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()
