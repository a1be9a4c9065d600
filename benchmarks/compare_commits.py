"""The batch engine's speed at several commits, measured in one session (ratios, not absolute
figures: this machine is shared and noisy).

Each commit is checked out in a worktree of its own (`git worktree add`, its built-in
strategies linked into its package as an install would place them) and timed in a fresh
Python process with that worktree first on the path and a numba cache of its own (each
commit's first process compiles its kernels, outside the timed part); the commits take turns,
`--repeat` rounds, and each keeps its best CPU rate. Every process plays the same seeded games and
prints their scores' digest, so a comparison of engines that do not play the same games
fails instead of reporting a ratio.

    .venv/bin/python benchmarks/compare_commits.py 4ef01d0 HEAD
    .venv/bin/python benchmarks/compare_commits.py 4ef01d0 HEAD --lineup tuned --players 4
    .venv/bin/python benchmarks/compare_commits.py d7a0ca2 HEAD --lineup tuned --user
    .venv/bin/python benchmarks/compare_commits.py fdc5acd HEAD --lineup L3 --game rapa-nui

`--user` seats a user's plain-Python strategy (it overrides `work` only) at seat 0 and the
lineup at the others; `--user every` one that overrides every decision.

The first commit is the reference of the ratios. Works for commits from before the forward
model's door (`BatchGame`) and after it (`Games`).
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

#: The timed child: plays games 0..n-1 of seed 0 in batches, prints CPU seconds and a digest.
CHILD = """
import hashlib, json, sys, time
import numpy as np
import moaisim
from moaisim.registry import load_strategy, parse_lineup
a = json.loads(sys.argv[1])
import moaisim.strategies
assert moaisim.__file__.startswith(a["tree"]), moaisim.__file__
assert moaisim.strategies.__path__[0].startswith(a["tree"]), moaisim.strategies.__path__
import os
# what the commit has, read from its tree: an import that fails there would be served by the
# editable install's finder from the main checkout (its `moaisim.games`), mixing two commits
if os.path.isdir(os.path.join(a["tree"], "moaisim", "games")):  # the game boundary
    from moaisim.games import load_game
    game = load_game(a["game"])
    Rules, Games = game.Rules, game.Games
else:
    assert a["game"] == "moai", "a commit from before the game boundary plays Moai only"
    from moaisim.rules import Rules
    if os.path.isfile(os.path.join(a["tree"], "moaisim", "engine", "forward.py")):
        from moaisim.engine.forward import Games
    else:
        Games = None
rules = Rules.make(a["players"])
specs = (parse_lineup(a["lineup"], a["players"], a["game"]) if a["game"] != "moai"
         else parse_lineup(a["lineup"], a["players"]))


class User(moaisim.Strategy):
    # a user's plain-Python seat: the first legal place, pass or swap of each work turn
    name = "user"

    def work(self, view):
        return np.argmax(view.legal, axis=1)


class Everything(User):
    # a user's plain-Python seat that decides everything: no bid, the first legal action
    name = "everything"

    def bid(self, view):
        return np.zeros_like(view.legal)

    order_ties = pick_epoch = disaster_target = disaster_loss = User.work
    forest_tie = finish_moai = feed = rest = birth = boat = User.work


if a["user"]:  # seat 0 is the user's strategy, the others the lineup's
    seat = Everything if a["user"] == "every" else User
    specs = [load_strategy(seat)] + specs[1:]
if Games is not None:
    def play(games):
        return Games.new(rules, 0, games).play([s() for s in specs]).scores()
else:
    from moaisim.engine.batch import BatchGame
    def play(games):
        return BatchGame(rules, [s() for s in specs], 0, games).play().scores()
play(np.arange(200))  # warm: numba's cache, imports
cpu, h = time.process_time(), hashlib.sha256()
for start in range(0, a["games"], a["batch"]):
    h.update(play(np.arange(start, min(a["games"], start + a["batch"]))).tobytes())
cpu = time.process_time() - cpu
elsewhere = sorted(m.__file__ for name, m in list(sys.modules.items())
                   if name.startswith("moaisim") and getattr(m, "__file__", None)
                   and not m.__file__.startswith(a["tree"]))
assert not elsewhere, f"modules from outside the commit's tree: {elsewhere[:3]}"
print(json.dumps({"cpu": cpu, "digest": h.hexdigest()}))
"""


def worktree(commit: str, base: Path) -> Path:
    """A worktree of `commit` under `base`, its strategies linked into its package."""
    tree = base / commit.replace("/", "_")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree),
                    commit], check=True)  # fmt: skip
    (tree / "moaisim" / "strategies").symlink_to(tree / "strategies")
    return tree


def time_once(tree: Path, args: argparse.Namespace) -> dict[str, float | str]:
    """One timing of the engine in `tree`, in a fresh process."""
    config = {"tree": str(tree), "players": args.players, "lineup": args.lineup,
              "games": args.games, "batch": args.batch, "user": args.user,
              "game": args.game}  # fmt: skip
    # each commit compiles into a numba cache of its own (beside its worktree): another
    # commit's index files name modules this one may not have
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(tree) + "-numba")
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config)], env=env,
                         check=True, capture_output=True, text=True, cwd=tree)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("commits", nargs="+", help="commits to compare; the first is the base")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--game", default="moai", help="the game played (commits since the game boundary)"
    )
    parser.add_argument("--lineup", default="greedy")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--user",
        nargs="?",
        const="work",
        choices=("work", "every"),
        help="seat 0 plays a user's plain-Python strategy that overrides work (`--user`) or "
        "every decision (`--user every`)",
    )
    args = parser.parse_args()
    best: dict[str, float] = {}
    digests: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {c: worktree(c, Path(tmp)) for c in args.commits}
        try:
            for _ in range(args.repeat):
                for commit, tree in trees.items():
                    got = time_once(tree, args)
                    rate = args.games / float(got["cpu"])
                    best[commit] = max(best.get(commit, 0.0), rate)
                    digests[commit] = str(got["digest"])
        finally:
            for tree in trees.values():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(tree)], check=False)  # fmt: skip
    if len(set(digests.values())) != 1:
        raise SystemExit(f"the commits play different games: {digests}")
    base = best[args.commits[0]]
    who = {"work": "a user's strategy (work)", "every": "a user's strategy (every decision)"}
    lineup = f"{who[args.user]} and {args.lineup}" if args.user else args.lineup
    head = f"{args.players}-player {lineup}, {args.games:,} games in batches of {args.batch:,}"
    print(f"{head}, best of {args.repeat} alternating CPU timings (same games):")

    for commit in args.commits:
        print(f"  {commit}: {best[commit]:,.0f} games/s/core, {best[commit] / base:.2f}x "
              f"{args.commits[0]}")  # fmt: skip


if __name__ == "__main__":
    main()
