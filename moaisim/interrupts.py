"""The user's Ctrl-C told apart from a `KeyboardInterrupt` that a strategy raises itself.

Both arrive as `KeyboardInterrupt` in the middle of a strategy's code. The first stops the
run (what finished is kept, exit 130); the second is the strategy's failure like any other
exception it raises (exit 1). So the process counts the interrupts that come from signals
(`watch` chains a counting handler before Python's SIGINT handler; the CLI's SIGTERM handler
calls `note`), and the engines compare the count before and after asking a strategy
(`from_signal`).
"""

from __future__ import annotations

import functools
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

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


def signalled(exc: BaseException) -> KeyboardInterrupt | None:
    """The `KeyboardInterrupt` (Ctrl-C, SIGTERM) behind `exc`: itself, or the one a compiled
    kernel was interrupted by. A signal that arrives while numba code runs is raised when the
    kernel returns, and Python reports that as `SystemError: ... returned a result with an
    exception set`, the interrupt as its cause; that is the user's stop, not a bug."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        if not isinstance(exc, SystemError):
            return None
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return None


F = TypeVar("F", bound=Callable[..., Any])


def passes_signals(method: F) -> F:
    """Decorate an engine entry point: an interrupt that reached it inside a compiled kernel
    (`signalled`) leaves as the `KeyboardInterrupt` it is, so callers stop as on Ctrl-C."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except SystemError as exc:
            stop = signalled(exc)
            if stop is None:
                raise
            raise stop from None

    return wrapper  # type: ignore[return-value]
