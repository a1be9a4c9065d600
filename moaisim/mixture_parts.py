"""What every game's mixture strategy (`strategies/<game>/mixture.py`) shares: the uniform
each seat draws its component with, game by game, and the view of some of a view's games,
handed to the component that plays them."""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

from moaisim.rng import DRAWS_STREAM, SeatRandom, stream_keys

#: The root seed of the component draws' stream space (the purpose tag "mixture"): the
#: uniform of game g, seat s is value 0 of stream `DRAWS_STREAM` of "game" key(g, s) there.
DRAW_SEED = int.from_bytes(b"mixture", "big")

View = TypeVar("View")


def draw_uniforms(keys: np.ndarray) -> np.ndarray:
    """[n] the uniform each seat stream key draws its component with: a stream space of
    its own (`DRAW_SEED`), so that no game's chance or seat stream is read."""
    ids = np.array([DRAWS_STREAM], dtype=np.uint64)
    own = stream_keys(DRAW_SEED, np.asarray(keys, dtype=np.uint64), ids)[:, 0]
    return SeatRandom(own, np.zeros(len(own), dtype=np.uint64)).uniform(1)[:, 0]


def sub_view(view: View, rows: np.ndarray, rng: SeatRandom) -> View:
    """The view of the games at `rows` of `view` (positions in it), drawing from `rng`:
    every per-game array of the view (legal, info, games, the fields it copied) taken at
    those rows, as copies of its own; any game's view class (its attributes are read)."""
    n = len(view)  # type: ignore[arg-type]
    out: Any = object.__new__(type(view))
    for key, value in view.__dict__.items():
        if key == "info":
            value = {k: np.asarray(v)[rows] for k, v in value.items()}
        elif isinstance(value, np.ndarray) and value.ndim and value.shape[0] == n:
            value = value[rows]
        out.__dict__[key] = value
    out.__dict__["rng"] = rng
    return out
