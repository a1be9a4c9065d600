"""Checking a strategy's answers, the same way in both engines (docs/rules.md section D).

A strategy answers one action per game of its view: an integer array [n] in the kind's action
space, or for a bid an integer array [n, 6] of card counts bounded by the hand. `check`
returns the actions or raises `BadAnswer`, which says exactly what is wrong (None, not
integers, a wrong shape, an illegal action) and which games are concerned; the engines turn it
into an `IllegalActionError` that names the strategy, the game and the seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from moaisim import interrupts
from moaisim.errors import IllegalActionError, StrategyError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.rules.codes import N_CARD_TYPES
from moaisim.jit import kernel


class BadAnswer(Exception):
    """What is wrong with an answer (`problem`), the games concerned (`rows`, positions in
    the view), the answer of the first of them (`shown`) and, when the strategy's code
    raised, the exception (`raised`)."""

    def __init__(
        self, problem: str, rows: np.ndarray, shown: Any, raised: BaseException | None = None
    ) -> None:
        super().__init__(problem)
        self.problem, self.rows, self.shown, self.raised = problem, rows, shown, raised


def answer(method: Callable[[Any], Any], view: Any, kind: Kind, legal: np.ndarray) -> np.ndarray:
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
    return check(kind, given, legal)


def raised(exc: BaseException) -> str:
    """What a strategy's exception says, on one line: 'raised ValueError: bad'."""
    text = " ".join(str(exc).split()) or "(no message)"
    return f"raised {type(exc).__name__}: {text}"


def check(kind: Kind, answer: Any, legal: np.ndarray) -> np.ndarray:
    """The actions of a strategy's answer to a view with these legal masks (n rows)."""
    n = legal.shape[0]
    shape = (n, N_CARD_TYPES) if kind is Kind.BID else (n,)
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
    if kind is Kind.BID:
        count, first = over_bids(a, legal)
        if count:
            bad = np.flatnonzero(((a < 0) | (a > legal)).any(axis=1))
            shown = a[first].tolist()
            raise BadAnswer(f"illegal bid {shown} (the hand holds {legal[first].tolist()})",
                            bad, [shown])  # fmt: skip
        return a.astype(np.int16, copy=False)
    count, first = illegal_actions(a, legal)
    if count:
        inside = (a >= 0) & (a < legal.shape[1])
        ok = inside.copy()
        ok[inside] = legal[np.flatnonzero(inside), a[inside]]
        bad = np.flatnonzero(~ok)
        shown = int(a[first])
        where = "legal" if inside[first] else f"in the action space 0..{legal.shape[1] - 1}"
        raise BadAnswer(f"illegal action {shown} (not {where})", bad, [shown])
    return a.astype(np.int64, copy=False)


@kernel
def illegal_actions(action: np.ndarray, legal: np.ndarray) -> tuple[int, int]:
    """How many actions fall outside their row's legal mask, and the first such row."""
    count, first, size = 0, -1, legal.shape[1]
    for r in range(len(action)):
        x = action[r]
        if x < 0 or x >= size or not legal[r, x]:
            if first < 0:
                first = r
            count += 1
    return count, first


@kernel
def over_bids(bid: np.ndarray, hand: np.ndarray) -> tuple[int, int]:
    """How many bids take a card count below 0 or above the hand's, and the first such row."""
    count, first = 0, -1
    for r in range(bid.shape[0]):
        for t in range(bid.shape[1]):
            if bid[r, t] < 0 or bid[r, t] > hand[r, t]:
                if first < 0:
                    first = r
                count += 1
                break
    return count, first


def _first(a: np.ndarray) -> Any:
    return a.ravel()[:1].tolist() if a.size else []


def failure(
    bad: BadAnswer, strategy: str, kind: Kind, games: np.ndarray, seed: int, seat: int
) -> StrategyError:
    """The error a `BadAnswer` becomes: it names the first game concerned (its index in the
    run) and how many others of the view were."""
    game, others = int(games[bad.rows[0]]), len(bad.rows) - 1
    if bad.raised is not None:
        return StrategyError(
            strategy, kind.value, game, seed, seat, f"raised {bad.problem}", others
        )
    return IllegalActionError(
        strategy, kind.value, game, seed, seat, bad.shown, bad.problem, others
    )
