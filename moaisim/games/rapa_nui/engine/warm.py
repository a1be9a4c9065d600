"""The first run of a version of Rapa Nui's kernels: saying that they compile
(`moaisim.compile_notice`). The fast machine's kernels (the rules and the built-ins'
heuristic, "compiled") take about 20 s of CPU once; the views a Python seat is asked through
need no kernel of their own ("view"); the reference engine's built-ins answer through the
heuristic's kernel ("reference")."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, TextIO

from moaisim.compile_notice import announcing, cached
from moaisim.games.rapa_nui.engine.machine import play_rows
from moaisim.games.rapa_nui.engine.policy import answer_view

#: CPU seconds a cold compile of each path takes on this project's machine (benchmarks/
#: README.md), for the line that announces it.
SECONDS = {"compiled": 20, "view": 20, "reference": 8}
#: What each path's kernels are, in the announcing line.
WHAT = {
    "compiled": "Rapa Nui's fast machine (the rules and the built-in strategies)",
    "view": "Rapa Nui's fast machine (the rules; strategies asked through views)",
    "reference": "the Rapa Nui heuristic the reference engine's built-ins answer with",
}
#: Seconds between two lines off a terminal while a compile goes on.
EVERY = 8.0
#: The paths this process has announced or found compiled: never announced (again).
_known: set[str] = set()
#: Where the lines go (standard error; tests may point it elsewhere).
stream: TextIO | None = None


def _sentinels(path: str) -> list[Any]:
    """The kernels whose cache index says whether `path` is compiled."""
    return [answer_view] if path == "reference" else [play_rows]


def cold(path: str) -> bool:
    """Whether playing on `path` ("compiled", "view" or "reference") would compile now."""
    return not all(cached(k) for k in _sentinels(path))


@contextlib.contextmanager
def compiling(path: str) -> Iterator[None]:
    """Announce the compile of `path`'s kernels around the block if they are not cached and
    this process has not announced them yet; else do nothing."""
    if path in _known or not cold(path):
        _known.add(path)
        yield
        return
    _known.add(path)
    with announcing(WHAT[path], SECONDS[path], stream, EVERY):
        yield
