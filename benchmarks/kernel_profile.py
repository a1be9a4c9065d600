"""Where the compiled path's time goes, by kernel: a `perf` profile with numba's symbols.

cProfile sees the compiled path as one call. This script plays seeded games on the compiled
path with its kernels compiled afresh (numba's cache pointed at a temporary folder, so that
every kernel's code library is built in this process), records each library's functions and
their addresses, and writes them as `/tmp/perf-<pid>.map`, where `perf report` looks for the
symbols of code made at run time. Run it under `perf record`:

    perf record -F 2000 -o /tmp/kp.data -- .venv/bin/python benchmarks/kernel_profile.py \\
        --lineup greedy --players 4 --games 40000
    perf report -i /tmp/kp.data --no-children --sort sym --stdio | head -60

The first minutes are the compile (its samples fall in LLVM's own symbols, which the report
names); the play that follows is timed and printed. A function's samples are its own code
plus whatever the compiler inlined into it.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="greedy")
    parser.add_argument("--games", type=int, default=40_000)
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="kernel-profile-")
    from numba.core import codegen

    libraries: list = []
    finalize = codegen.CPUCodeLibrary.finalize

    def keep(self) -> None:  # noqa: ANN001
        finalize(self)
        libraries.append(self)

    codegen.CPUCodeLibrary.finalize = keep

    import numpy as np

    from moaisim.games.moai.engine.forward import Games
    from moaisim.games.moai.rules import Rules
    from moaisim.registry import parse_lineup

    rules = Rules.make(args.players)
    specs = parse_lineup(args.lineup, args.players)

    def play(games: np.ndarray) -> None:
        Games.new(rules, 0, games).play([s() for s in specs]).scores()

    play(np.arange(100))  # compile every kernel
    cpu = time.process_time()
    for start in range(0, args.games, 10_000):
        play(np.arange(start, min(args.games, start + 10_000)))
    spent = time.process_time() - cpu
    print(f"{args.players}-player {args.lineup}: {args.games / spent:,.0f} games/s/core")
    symbols: dict[int, str] = {}
    for lib in libraries:
        module = getattr(lib, "_final_module", None)
        if module is None:
            continue
        for f in module.functions:
            if f.is_declaration:
                continue
            try:
                address = lib._codegen._engine.get_function_address(f.name)
            except Exception:  # noqa: BLE001 - a symbol the engine did not emit
                continue
            if address:
                symbols.setdefault(address, f.name)
    ordered = sorted(symbols)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for k, address in enumerate(ordered):
            end = ordered[k + 1] if k + 1 < len(ordered) else address + 4096
            size = min(end - address, 1 << 20)
            out.write(f"{address:x} {size:x} {symbols[address]}\n")
    print(f"{len(ordered)} symbols in /tmp/perf-{os.getpid()}.map")


if __name__ == "__main__":
    main()
