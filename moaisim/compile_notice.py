"""Saying on the terminal that kernels compile: numba compiles a game's kernels the first time
a version of moaisim plays it (a minute or so of CPU), then loads them from its cache in a
fraction of a second (moaisim/kernel_cache.py); without a word a first run looks like a hang.
Each game's `warm` module says which of its paths are cold (`cached` on a kernel every game
of the path calls) and announces their compile with `announcing`."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO


def cached(dispatcher: Any) -> bool:
    """Whether numba's cache holds a compiled version of a kernel (its index file exists)."""
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return index is not None and Path(index).is_file()


def _say(out: TextIO, line: str) -> None:
    try:
        out.write(line)
        out.flush()
    except (OSError, ValueError):  # a closed or broken stream: the compile goes on
        pass


@contextlib.contextmanager
def announcing(what: str, seconds: int, stream: TextIO | None = None,
               every: float = 8.0) -> Iterator[None]:  # fmt: skip
    """Around a block that compiles `what` (about `seconds` of CPU): a line before, the
    seconds so far on a terminal (off one, a line every `every` seconds), a line after."""
    out = stream if stream is not None else sys.stderr
    _say(out, f"moaisim: compiling {what} for this version, once (about {seconds} s of CPU; "
              "later runs load them from the cache in a second)\n")  # fmt: skip
    tty = bool(getattr(out, "isatty", lambda: False)())
    started = time.monotonic()
    done = threading.Event()

    def beat() -> None:
        last = started
        while not done.wait(1.0):
            now = time.monotonic()
            if tty:
                _say(out, f"\r  compiling... {now - started:.0f} s")
            elif now - last >= every:
                _say(out, f"moaisim: still compiling ({now - started:.0f} s)\n")
                last = now

    thread = threading.Thread(target=beat, name="moaisim-compiling", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        took = time.monotonic() - started
        _say(out, ("\r" if tty else "") + f"moaisim: compiled in {took:.0f} s\n")
