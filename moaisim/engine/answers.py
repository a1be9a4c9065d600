"""Checking a strategy's answers, the same way in every game and both engines.

A strategy answers one action per game of its view: an integer array [n] of actions its legal
masks allow, or for a kind answered by a row of numbers (Moai's bid) an integer array [n, w]
each number bounded by the legal row's (the hand's counts). `check` returns the actions or
raises `BadAnswer`, which says exactly what is wrong (None, not integers, a wrong shape, an
illegal action) and which games are concerned; the engines turn it into an
`IllegalActionError` that names the strategy, the game and the seed (`failure`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from moaisim import interrupts
from moaisim.errors import IllegalActionError, StrategyError


class BadAnswer(Exception):
    """What is wrong with an answer (`problem`), the games concerned (`rows`, positions in the
    view), the answer of the first of them (`shown`) and, when the strategy's code raised, the
    exception (`raised`)."""

    def __init__(
        self, problem: str, rows: np.ndarray, shown: Any, raised: BaseException | None = None
    ) -> None:
        super().__init__(problem)
        self.problem, self.rows, self.shown, self.raised = problem, rows, shown, raised


def answer(method: Callable[[Any], Any], view: Any, legal: np.ndarray, width: int = 0,
           row_said: str = "illegal answer {shown} (at most {bound})") -> np.ndarray:  # fmt: skip
    """Ask a strategy method and check its answer (`check`); an exception raised by the
    strategy's code becomes a `BadAnswer` about every game of the view."""
    before = interrupts.count()
    try:
        given = method(view)
    except BaseException as exc:  # SystemExit too: a strategy cannot end the run
        stop = interrupts.signalled(exc)  # the user's Ctrl-C (or SIGTERM): stop the run
        if stop is not None and interrupts.from_signal(before):
            raise stop from None
        raise BadAnswer(raised(exc)[len("raised ") :], np.arange(len(legal)), None, exc) from exc
    return check(given, legal, width, row_said)


def raised(exc: BaseException) -> str:
    """What a strategy's exception says, on one line: 'raised ValueError: bad'."""
    text = " ".join(str(exc).split()) or "(no message)"
    return f"raised {type(exc).__name__}: {text}"


def check(answer: Any, legal: np.ndarray, width: int = 0,
          row_said: str = "illegal answer {shown} (at most {bound})") -> np.ndarray:  # fmt: skip
    """The actions of an answer to a view with these legal masks (n rows): [n] actions each
    allowed by its row's mask, or with `width` an [n, width] row of numbers each from 0 to its
    legal row's (`row_said` says what such a row is when one is not: "illegal bid {shown} (the
    hand holds {bound})")."""
    n = legal.shape[0]
    shape = (n, width) if width else (n,)
    expected = f"an integer array of shape {shape}"
    everyone = np.arange(n)
    if answer is None:
        raise BadAnswer(f"returned None; expected {expected}", everyone, None)
    try:
        a = np.asarray(answer)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise BadAnswer(f"returned {type(answer).__name__} ({exc}); expected {expected}",
                        everyone, None) from None  # fmt: skip
    if a.dtype.kind not in "iu":
        what = "booleans" if a.dtype.kind == "b" else f"{a.dtype} values"
        raise BadAnswer(f"returned {what}; expected {expected}", everyone, _first(a))
    if a.shape != shape:
        raise BadAnswer(f"returned an array of shape {a.shape}; expected {expected}",
                        everyone, None)  # fmt: skip
    if width:
        bad = np.flatnonzero(((a < 0) | (a > legal)).any(axis=1))
        if len(bad):
            first = int(bad[0])
            shown = a[first].tolist()
            raise BadAnswer(row_said.format(shown=shown, bound=legal[first].tolist()), bad,
                            [shown])  # fmt: skip
        return a
    inside = (a >= 0) & (a < legal.shape[1])
    ok = inside.copy()
    ok[inside] = legal[np.flatnonzero(inside), a[inside]]
    if not ok.all():
        bad = np.flatnonzero(~ok)
        first = int(bad[0])
        shown = int(a[first])
        where = "legal" if inside[first] else f"in the action space 0..{legal.shape[1] - 1}"
        raise BadAnswer(f"illegal action {shown} (not {where})", bad, [shown])
    return a.astype(np.int64, copy=False)


def _first(a: np.ndarray) -> Any:
    return a.ravel()[:1].tolist() if a.size else []


def failure(bad: BadAnswer, strategy: str, kind: str, games: np.ndarray, seed: int,
            seat: int) -> StrategyError:  # fmt: skip
    """The error a `BadAnswer` becomes: it names the first game concerned (its number in the
    run) and how many others of the view were."""
    game, others = int(games[bad.rows[0]]), len(bad.rows) - 1
    if bad.raised is not None:
        return StrategyError(strategy, kind, game, seed, seat, f"raised {bad.problem}", others)
    return IllegalActionError(strategy, kind, game, seed, seat, bad.shown, bad.problem, others)
