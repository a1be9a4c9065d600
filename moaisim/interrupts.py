"""The user's Ctrl-C told apart from a `KeyboardInterrupt` that a strategy raises itself.

Both arrive as `KeyboardInterrupt` in the middle of a strategy's code. The first stops the
run (what finished is kept, exit 130); the second is the strategy's failure like any other
exception it raises (exit 1). So the process counts the interrupts that come from signals
(`watch` chains a counting handler before Python's SIGINT handler; the CLI's SIGTERM handler
calls `note`), and the engines compare the count before and after asking a strategy
(`from_signal`).
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

_count = 0
#: "counting": our handler sees SIGINT; "none": SIGINT cannot raise KeyboardInterrupt here
#: (ignored, or the default action); "unknown": another thread's handler we cannot wrap.
_mode = "unknown"


def note() -> None:
    """An interrupt came from a signal (a handler calls this before it raises)."""
    global _count
    _count += 1


def count() -> int:
    """Interrupts from signals so far (`from_signal` compares against it)."""
    return _count


def watch() -> None:
    """Count SIGINT from now on in this process, chaining to the handler in place; idempotent.
    Only the main thread may set a handler: elsewhere the origin stays unknown (and an
    interrupt is then taken to be the user's, as before)."""
    global _mode
    if threading.current_thread() is not threading.main_thread():
        return
    current = signal.getsignal(signal.SIGINT)
    if getattr(current, "counts_interrupts", False):
        _mode = "counting"
        return
    if not callable(current):  # SIG_IGN or SIG_DFL: no KeyboardInterrupt from SIGINT
        _mode = "none"
        return

    def counting(signum: int, frame: FrameType | None) -> Any:
        note()
        return current(signum, frame)

    counting.counts_interrupts = True  # type: ignore[attr-defined]
    signal.signal(signal.SIGINT, counting)
    _mode = "counting"


def from_signal(before: int) -> bool:
    """A KeyboardInterrupt caught since `count()` was `before` came from a signal (Ctrl-C,
    SIGTERM), not from a strategy's own `raise`."""
    if _mode == "unknown":
        return True
    return _count != before
