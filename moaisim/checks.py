"""Checks of the numbers a user hands to the library (seeds, game indices, counts, row
positions): one home for each, each failing with a one-line `UserError` that names the value.

A bool is not a number here (`True` is not game 1), and a row position is never negative:
numpy would read -1 as the last row, silently.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.errors import UserError

#: Seeds are unsigned 64-bit integers; game indices signed 64-bit ones, from 0.
SEEDS = 2**64
GAMES = 2**63


def whole(x: Any) -> bool:
    """x is an integer (Python or numpy), and not a bool."""
    return isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_)


def check_seed(seed: Any, what: str = "seed") -> int:
    """A root seed: an integer from 0 to 2**64-1."""
    if not whole(seed) or not 0 <= seed < SEEDS:
        raise UserError(f"{what} must be an integer from 0 to 2**64-1, got {seed!r}")
    return int(seed)


def check_count(n: Any, what: str, low: int = 0, high: int | None = None) -> int:
    """A count from `low` (to `high`, when given)."""
    if not whole(n) or n < low or (high is not None and n > high):
        upto = f" to {high:,}" if high is not None else ""
        raise UserError(f"{what} must be an integer from {low}{upto}, got {n!r}")
    return int(n)


def game_indices(games: Any, what: str = "game indices", distinct: bool = True) -> np.ndarray:
    """Game indices of a run given as a list: integers from 0 to 2**63-1, distinct unless
    told otherwise (copies may share a number, `forward.Games.clone`)."""
    if isinstance(games, np.ndarray) and games.ndim == 1 and games.dtype.kind in "iu":
        # an array of integers (a run's chunk, `np.arange`): checked as a whole
        if len(games) and (games.min() < 0 or games.max() >= GAMES):
            raise UserError(f"{what} must be integers from 0 to 2**63-1")
        index = games.astype(np.int64)
    else:
        try:
            items = list(games)
        except TypeError:
            raise UserError(f"{what} must be a list of integers, got {games!r}") from None
        if any(not whole(x) or not 0 <= x < GAMES for x in items):
            raise UserError(f"{what} must be integers from 0 to 2**63-1")
        index = np.asarray(items, dtype=np.int64)
    if distinct and len(np.unique(index)) != len(index):
        raise UserError(f"{what} must be distinct")
    return index


def positions(rows: Any, size: int, what: str = "rows") -> np.ndarray:
    """Positions in a batch of `size` games: integers 0..size-1 (a position may repeat)."""
    try:
        a = np.asarray(rows)
    except (TypeError, ValueError):
        raise UserError(f"{what} must be a list of integer positions, got {rows!r}") from None
    if a.ndim == 0:
        a = a.reshape(1)
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise UserError(f"{what} must be a list of integer positions, got {rows!r}")
    outside = (a < 0) | (a >= size)
    if outside.any():
        raise UserError(f"{what}: position {a[outside][0]} is not one of the {size} games "
                        f"(0 to {size - 1})")  # fmt: skip
    return a.astype(np.int64)
