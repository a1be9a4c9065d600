"""How the compiled path's time splits between the machine and the policies, measured.

A game on the compiled path is the machine's steps (the rules: each phase, its legal masks,
the applied answers) and, at each decision with more than one legal action, the seat's
policy. This script plays the same seeded games twice in fresh processes: once as shipped
(time T1 = M + P) and once with every policy call made twice (T2 = M + 2P: the first call's
answer discarded and the seat's stream put back, so the games are the same, which the
digest checks). Then P = T2 - T1 is the policies' share and M = 2 T1 - T2 the machine's,
both in microseconds per game, and the machine alone bounds what any policy can reach:
1 / M games per second per core.

The doubled run compiles its own kernels once (numba's cache in a temporary folder: the
callers of `decide` must be compiled against the doubled one), about 2 to 3 minutes.

    .venv/bin/python benchmarks/decision_share.py --lineup greedy --players 4
    .venv/bin/python benchmarks/decision_share.py --lineup tuned --players 4 --repeat 5
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

#: The timed child: plays games 0..n-1 of seed 0 in batches of 10 000, with every policy
#: call doubled when asked; prints CPU seconds per repeat and the scores' digest.
CHILD = r"""
import hashlib, json, sys, time
a = json.loads(sys.argv[1])
if a["double"]:
    from moaisim.games.moai.engine.compiled import birdman, epoch, policy, production, review, work
    from numba import njit
    kernel = njit(nogil=True, _nrt=False)  # not cached: defined in this child's code
    once, once_bid = policy.decide, policy.decide_bid

    @kernel
    def decide(g, c, pol, sc, r, kind, me, size, info):
        pos = g.seat_pos[r, me]
        once(g, c, pol, sc, r, kind, me, size, info)
        g.seat_pos[r, me] = pos
        return once(g, c, pol, sc, r, kind, me, size, info)

    @kernel
    def decide_bid(g, c, pol, sc, r, me):
        pos = g.seat_pos[r, me]
        once_bid(g, c, pol, sc, r, me)
        g.seat_pos[r, me] = pos
        once_bid(g, c, pol, sc, r, me)

    for module in (birdman, epoch, production, review, work):
        for name, new in (("decide", decide), ("decide_bid", decide_bid)):
            if hasattr(module, name):
                setattr(module, name, new)
import numpy as np
from moaisim.games.moai.engine.forward import Games
from moaisim.registry import parse_lineup
from moaisim.games.moai.rules import Rules
rules = Rules.make(a["players"])
specs = parse_lineup(a["lineup"], a["players"])
def play(games):
    return Games.new(rules, 0, games).play([s() for s in specs]).scores()
play(np.arange(100))  # compile or load the kernels
times, h = [], hashlib.sha256()
for rep in range(a["repeat"]):
    cpu = time.process_time()
    for start in range(0, a["games"], 10_000):
        s = play(np.arange(start, min(a["games"], start + 10_000)))
        if rep == 0:
            h.update(s.tobytes())
    times.append(time.process_time() - cpu)
print(json.dumps({"times": times, "digest": h.hexdigest()}))
"""


def timed(args: argparse.Namespace, double: bool, cache: str | None) -> dict:
    """One child process's timings (its best CPU time is kept) and digest."""
    config = {"players": args.players, "lineup": args.lineup, "games": args.games,
              "repeat": args.repeat, "double": double}  # fmt: skip
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config)], env=env,
                         check=False, capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"the timed child failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="greedy")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        one = timed(args, False, None)
        two = timed(args, True, cache)
        one = {"times": one["times"] + timed(args, False, None)["times"], **{
            "digest": one["digest"]}}  # fmt: skip
    if one["digest"] != two["digest"]:
        raise SystemExit("the doubled run played other games: its policies drew more")
    t1, t2 = min(one["times"]) / args.games * 1e6, min(two["times"]) / args.games * 1e6
    policy, machine = t2 - t1, 2 * t1 - t2
    print(f"{args.players}-player {args.lineup}, {args.games:,} games, best of "
          f"{args.repeat} CPU timings each (same games):")  # fmt: skip
    print(f"  as shipped:         {t1:7.1f} us/game ({1e6 / t1:,.0f} games/s/core)")
    print(f"  policies doubled:   {t2:7.1f} us/game")
    print(f"  policies:           {policy:7.1f} us/game ({policy / t1:.0%})")
    print(f"  machine:            {machine:7.1f} us/game ({machine / t1:.0%}): no policy can "
          f"make this lineup's games faster than {1e6 / machine:,.0f} games/s/core")  # fmt: skip


if __name__ == "__main__":
    main()
