"""The first run of a version of Kaivai's kernels: saying that they compile
(`moaisim.compile_notice`). The compiled machine's kernels (the rules, `random` and
`greedy`) take about 50 s of CPU once (`benchmarks/kaivai_speed.py --cold`, an empty cache
folder), in Kaivai's own cache folder (moaisim/kernel_cache.py): an edit to another game
compiles none of them again."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TextIO

from moaisim.compile_notice import announcing, cached
from moaisim.games.kaivai.engine.machine import play_rows, set_up_rows

#: CPU seconds a cold compile takes on this project's machine, for the line that announces it.
SECONDS = 50
WHAT = "Kaivai's compiled machine (the rules and the built-in strategies)"
#: Seconds between two lines off a terminal while a compile goes on.
EVERY = 8.0
#: Whether this process has announced the compile or found it done: never announced again.
_known: set[str] = set()
#: Where the lines go (standard error; tests may point it elsewhere).
stream: TextIO | None = None


def cold(path: str = "compiled") -> bool:
    """Whether playing on the machine would compile now; the same kernels play every path
    (`path`: "compiled", every seat in the machine, or "view", some asked through views)."""
    return not (cached(play_rows) and cached(set_up_rows))


@contextlib.contextmanager
def compiling(path: str = "compiled") -> Iterator[None]:
    """Announce the compile of the machine's kernels around the block if they are not cached
    and this process has not announced them yet; else do nothing (every `path` plays the
    same kernels)."""
    if _known or not cold():
        _known.add("compiled")
        yield
        return
    _known.add("compiled")
    with announcing(WHAT, SECONDS, stream, EVERY):
        yield
