"""Fair tie-breaks (docs/design.md, "Built-in strategies, tie-breaks and the tuner"): the best
legal action, exact ties (within a relative `TIE`) broken by one uniform of the seat's stream.

The built-in strategies (their compiled policies, `compiled.policy`) choose with these,
drawing the uniform from the seat's stream of the game; a view asked of them is answered by
the same kernels (`compiled.answer`).
"""

from __future__ import annotations

import numpy as np

from moaisim.jit import kernel

#: A score no legal action should get unless nothing better is legal.
NEG = -1e9
#: Scores within this relative distance of the best count as ties.
TIE = 1e-9


@kernel
def pick_best(scores: np.ndarray, legal: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per row: the legal action of highest score; among tied ones the floor(u * k)-th of
    the k tied actions. scores [n, A] float64, legal [n, A] bool, u [n] in [0, 1)."""
    n, size = legal.shape
    out = np.zeros(n, dtype=np.int64)
    for r in range(n):
        out[r] = pick_row(scores[r], legal[r], u[r])
    return out


@kernel
def pick_row(scores: np.ndarray, legal: np.ndarray, u: float) -> int:
    """`pick_best` for one row (for kernels that score a row at a time): `pick` over every
    action of the row."""
    return pick(scores, legal, EVERY, len(legal), u)


@kernel
def pick_listed(scores: np.ndarray, legal: np.ndarray, acts: np.ndarray, n: int, u: float
                ) -> int:  # fmt: skip
    """`pick_row` when the candidates are listed: the actions acts[:n] (ascending) that are
    legal. Every legal action listed, this is `pick_row(scores, legal, u)` read from the
    list instead of the whole mask."""
    return pick(scores, legal, acts, n, u)


#: `pick`'s list meaning "every action": no list.
EVERY = np.zeros(0, dtype=np.int64)


@kernel(inline="always")
def pick(scores: np.ndarray, legal: np.ndarray, acts: np.ndarray, n: int, u: float) -> int:
    """The tie rule over the candidates: acts[:n] when `acts` lists them (ascending), else
    actions 0..n-1; those not legal skipped.

    One pass keeps the running best and how many legal actions tie with it; since the tie
    threshold (top - TIE x max(1, |top|)) only rises with the top, an action left out stays
    out, and a new top that clears the old one by more than the tolerance starts a fresh tie
    group. A new top within the tolerance of the old one (or a NaN score) is the rare case
    where earlier actions may tie with it after all: `pick_row_slow` counts again (over the
    whole mask: every legal action is a candidate)."""
    listed = len(acts) > 0
    top = -np.inf
    floor = -np.inf  # the tie threshold of the running top
    group = -1  # the candidate number of the first action of the running top's tie group
    count = 0
    for m in range(n):
        a = acts[m] if listed else m
        if not legal[a]:
            continue
        s = scores[a]
        if group < 0:
            if s != s:
                return pick_row_slow(scores, legal, u)
            top, floor, group, count = s, s - TIE * max(1.0, abs(s)), m, 1
        elif s > top:
            low = s - TIE * max(1.0, abs(s))
            if low <= top:
                return pick_row_slow(scores, legal, u)
            top, floor, group, count = s, low, m, 1
        elif s >= floor:
            count += 1
        elif s != s:
            return pick_row_slow(scores, legal, u)
    if group < 0:
        return 0
    k = min(int(u * count), count - 1)
    first = acts[group] if listed else group
    if k == 0:
        return first
    for m in range(group + 1, n):
        a = acts[m] if listed else m
        if legal[a] and scores[a] >= floor:
            k -= 1
            if k == 0:
                return a
    return first


@kernel
def pick_row_slow(scores: np.ndarray, legal: np.ndarray, u: float) -> int:
    """`pick_row` in three passes over the row: the top, the count of ties, the pick."""
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
