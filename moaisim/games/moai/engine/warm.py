"""The first run of a version: saying on the terminal that the engine's kernels compile.

numba compiles the kernels the first time a version of moaisim plays, then loads them from
its cache (moaisim/kernel_cache.py) in a fraction of a second. The compile is about a minute
of CPU for the batch engine's kernels (every batch plays on them, and the built-ins answer
views in them: `compiled.question`), a quarter of that for the view path's (strategies asked
through views) and a few seconds for the reference engine's views (plus the batch engine's
kernels if they are not compiled yet); without a word it looks like a hang.
`compiling` prints one line before a path's kernels compile in this process, a line with
the seconds it took after, and in between, on a terminal, the seconds so far (off a
terminal, a line every `EVERY` seconds).

Whether a path is compiled already is read from numba's cache: the index file of a kernel
every game on that path calls (`_sentinels`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, TextIO

from moaisim.compile_notice import announcing, cached
from moaisim.games.moai.engine.compiled.machine import play_rows
from moaisim.games.moai.engine.seats import single_legal
from moaisim.games.moai.engine.views import hands, pawn_counts

#: CPU seconds a cold compile of each path takes on this project's machine (benchmarks/
#: README.md, "The first compile"), for the line that announces it.
SECONDS = {"compiled": 60, "view": 15, "reference": 5}
#: What each path's kernels are, in the announcing line.
WHAT = {
    "compiled": "the batch engine's kernels (the rules and the built-in strategies)",
    "view": "the view path's kernels (strategies asked through views)",
    "reference": "the kernels of the views the reference engine asks strategies through (and "
    "the batch engine's, where the built-ins answer them)",
}
#: Seconds between two lines off a terminal while a compile goes on (under 10: no silent
#: stretch of 10 s).
EVERY = 8.0

#: The paths this process has announced or found compiled: never announced (again).
_known: set[str] = set()
#: Where the lines go (standard error; tests may point it elsewhere).
stream: TextIO | None = None


def _sentinels(path: str) -> list[Any]:
    """The kernels whose cache index says whether `path` is compiled."""
    if path == "reference":
        return [hands, pawn_counts, play_rows]
    return [play_rows] if path == "compiled" else [single_legal]


def cold(path: str) -> bool:
    """Whether playing on `path` ("compiled", "view" or "reference") would compile its
    kernels now."""
    return not all(cached(k) for k in _sentinels(path))


@contextlib.contextmanager
def compiling(path: str) -> Iterator[None]:
    """Announce the compile of `path`'s kernels around the block if they are not cached and
    this process has not announced them yet (the module's docstring); else do nothing (once
    found compiled, a path is not looked up again: a search plays thousands of rollouts)."""
    if path in _known or not cold(path):
        _known.add(path)
        yield
        return
    _known.add(path)
    seconds = SECONDS[path]
    if path == "reference" and not cached(play_rows):  # the built-ins answer in the machine
        seconds += SECONDS["compiled"]
    with announcing(WHAT[path], seconds, stream, EVERY):
        yield
