"""Fair tie-breaks for the built-in strategies.

Every built-in strategy takes the best-scored legal action, and when several legal actions
score the same (within a relative 1e-9), it picks one of them uniformly at random with one
value of its seat's stream per game and decision (`SeatView.rng`). It never prefers a lower
seat or action index: in self-play of one symmetric strategy the seats the rules make
exchangeable stay exchangeable. One value per game per decision keeps every game's draws
independent of the games beside it in a batch (docs/design.md, "Seeds and per-game streams").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from moaisim.engine.views import SeatView

#: A score no legal action should get unless nothing better is legal.
NEG = -1e9
#: Scores within this relative distance of the best count as ties.
TIE = 1e-9


def tie_values(view: SeatView) -> np.ndarray:
    """One uniform per game of the view from the seat's stream, for `pick_best` [n]."""
    return view.rng.uniform(1)[:, 0]


def best(scores: np.ndarray, view: SeatView, legal: np.ndarray | None = None) -> np.ndarray:
    """The best-scored legal action of each game of `view`, ties broken at random (one draw
    per game from the seat's stream)."""
    legal = view.legal if legal is None else legal
    return pick_best(np.asarray(scores, dtype=np.float64), legal, tie_values(view))


@njit(cache=True, nogil=True)
def pick_best(scores: np.ndarray, legal: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per row: the legal action of highest score; among tied ones the floor(u * k)-th of
    the k tied actions. scores [n, A] float64, legal [n, A] bool, u [n] in [0, 1)."""
    n, size = legal.shape
    out = np.zeros(n, dtype=np.int64)
    for r in range(n):
        out[r] = pick_row(scores[r], legal[r], u[r])
    return out


@njit(cache=True, nogil=True)
def pick_row(scores: np.ndarray, legal: np.ndarray, u: float) -> int:
    """`pick_best` for one row (for kernels that score a row at a time)."""
    size = len(legal)
    top = -np.inf
    first = -1
    for a in range(size):
        if legal[a]:
            if first < 0:
                first = a
            if scores[a] > top:
                top = scores[a]
    if first < 0:
        return 0
    if top == -np.inf:
        top = scores[first]
    tol = TIE * max(1.0, abs(top))
    count = 0
    for a in range(size):
        if legal[a] and scores[a] >= top - tol:
            count += 1
    k = min(int(u * count), count - 1)
    for a in range(size):
        if legal[a] and scores[a] >= top - tol:
            if k == 0:
                return a
            k -= 1
    return first
