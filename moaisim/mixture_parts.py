"""What every game's composite strategies (`moaisim.engine.mixture`, `.restrict`) and its
fast machine share: the uniform each seat draws its mixture component with, game by game; the
view of some of a view's games, handed to the component that plays them; a view with a field
replaced; and `Choice`, the compiled form of a seat that plays one form per game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

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


def view_with(view: View, **changes: Any) -> View:
    """A view like `view` with some attributes replaced (`legal`, `rng`): a shallow copy that
    shares the rest of its arrays, which are the view's own (docs/design.md, "Sealed views"),
    so the game is no more reachable from it than from `view`."""
    out: Any = object.__new__(type(view))
    out.__dict__.update(view.__dict__)
    out.__dict__.update(changes)
    return out


class Choice(NamedTuple):
    """A seat that plays, game by game, one of several compiled forms (a mixture, a dispatch:
    `moaisim.engine.mixture.PerGame`), in every game's fast machine: `forms` by component
    number (each the game's own compiled form of that component), and `pick(games, keys)`,
    which given the games' numbers and the seat's stream keys in them [n] returns the
    component each game plays [n] and the values of the seat's stream that component has
    drawn in it already through views (its stream goes on from there) [n] (uint64)."""

    forms: dict[int, Any]
    pick: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def drawn_by_views(forms: Sequence[Any], games: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """[B, P] (uint64) the values each seat's `Choice` components (`forms[q]`, nested ones
    too) have drawn through views since they were last counted (`Choice.pick` hands them
    over once): what the seat streams' positions must move on by before the components play
    on compiled, after a play asked a choice's seat through its views."""
    offset = np.zeros(keys.shape, dtype=np.uint64)

    def walk(form: Any, rows: np.ndarray, q: int) -> None:
        if isinstance(form, Choice):
            comp, used = form.pick(games[rows], keys[rows, q])
            offset[rows, q] += np.asarray(used, dtype=np.uint64)
            for k in np.unique(comp).tolist():
                walk(form.forms[k], rows[comp == k], q)

    for q, form in enumerate(forms):
        walk(form, np.arange(len(games)), q)
    return offset
